"""Whose words a step's evidence may cite (``scene.rite.evidence``): the clauses of the text whose subject is
the step's actor or a group that holds him (every actor of the step), and the 鄭注 anchored in them.

* ``own``        — the parts of the step's phrase that are such clauses (席主人於阼階上西面: the 西面 is the
  主人's; 主人實觶賓之席前北面賓西階上拜: the 北面 is the 主人's, not the 賓's);
* ``act_text``   — of those, the clauses that name the step's own act (a walk's 升 / 反, not the 坐 after
  it): the posture is read there only;
* ``notes``      — the 鄭注 anchored in his clauses, and those the step's note quotes when the clause they
  are anchored in is his;
* ``note_ok``    — a 注 whose word is given to someone it names (樂正反自西階東北面) is not his for that word;
* ``posture_agrees`` — a posture word gives only that posture (揖 is not standing, 拜 is not kneeling).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..text.clauses import names_of
from .grammar.coverage import clause_subjects, subject_holds

if TYPE_CHECKING:
    from . import choreography as chor
    from .evidence import Evidence
    from .grammar.context import Ctx
    from .state import StepSpan

#: the characters that name a movement (for a step that moves, the clause of its act is the one that moves)
MOVE_CHARS = "升降適進退反復入出還就由從之"
#: the posture shown → the words that give it
GIVES = {"sit": "坐跪", "stand": "立興", "walk": "立興", "bow": "拜", "salute": "揖", "shoot": ""}


class Whose:
    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx

    def own(self, sp: StepSpan, actors: tuple[str, ...]) -> list[tuple[int, int]]:
        """(start, end) in the passage of the parts of the phrase whose clause's subject holds every actor."""
        lo, hi = sp.offset, sp.offset + len(sp.phrase)
        act = sp.act_of(actors[0])
        t = act[0] if act else sp.start_s
        # and only the parts the phrase's own reading gives him (席主人於阼階上西面: the 西面 is the 主人's mat,
        # not the one who lays it, though he is the clause's subject)
        segs = [(sg.start, sg.end) for sg in self.ctx.segments_of(sp, actors[0])] or [(lo, hi)]
        out = []
        for cl, subj in clause_subjects(sp.section, self.ctx.chapter):
            a, b = max(cl.start, lo), min(cl.end, hi)
            if a < b and all(subject_holds(self.ctx, cl, subj, x, t) for x in actors):
                out += [(max(a, s0), min(b, s1)) for s0, s1 in segs if max(a, s0) < min(b, s1)]
        return out

    def text(self, n: int, own: list[tuple[int, int]]) -> str:
        full = self.ctx.text(n)
        return "".join(full[a:b] for a, b in own)

    def act_text(self, sp: StepSpan, own: list[tuple[int, int]]) -> str:
        """His clauses that name the step's act (its verb's characters; a movement's for one that moves)."""
        from .evidence import MOVES
        full = self.ctx.text(sp.section)
        if sp.do not in MOVES:
            return "".join(full[a:b] for a, b in own)       # 反坐不祭遂卒觶: the 坐 holds for the drinking
        acts = [(a, b) for a, b in own if any(c in MOVE_CHARS for c in full[a:b])]
        return "".join(full[a:b] for a, b in acts)

    def notes(self, sp: StepSpan, step: chor.Step, own: list[tuple[int, int]], actors: tuple[str, ...]) -> list[str]:
        """The 鄭注 anchored in his clauses, and the 注 the step's note quotes if anchored in a clause of his."""
        from .evidence import _glosses, _quoted_zhu
        ch = self.ctx.chapter
        out = [g.note for g in _glosses(sp.section, ch) if any(a < g.offset <= b for a, b in own)]
        act = sp.act_of(actors[0])
        t = act[0] if act else sp.start_s
        for where, z in _quoted_zhu(step.note, ch):
            if z in out:
                continue
            if where.startswith("§"):
                n = int(where[1:])
                g = next((g for g in _glosses(n, ch) if g.note == z), None)
                cl = next((c for c, s in clause_subjects(n, ch) if g is not None and c.start < g.offset <= c.end), None)
                subj = next((s for c, s in clause_subjects(n, ch) if c is cl), "")
                if cl is None or not all(subject_holds(self.ctx, cl, subj, x, t) for x in actors):
                    continue
            out.append(z)
        return out

    def note_ok(self, sp: StepSpan, actors: tuple[str, ...]) -> Callable[[str, str | None], bool]:
        act = sp.act_of(actors[0])
        t = act[0] if act else sp.start_s

        def ok(z: str, word: str | None) -> bool:
            """The 注's word is his: the nearest name before it in the 注 (if any) holds every actor."""
            i = z.find(word) if word else -1
            if i < 0:
                return True
            named = [w for s, _, w in names_of(z, self.ctx.chapter) if s < i]
            if not named:
                return True
            return all(self.ctx.means(named[-1], x, sp.section, t) for x in actors)
        return ok

    def posture_agrees(self, sp: StepSpan, aid: str, ev: Evidence | None) -> Evidence | None:
        """A stated / commentary posture whose word is not the posture shown becomes assumed."""
        from .evidence import POSTURE_WORDS, Evidence, _first
        act = sp.act_of(aid)
        t = (act[0] + act[1]) / 2 if act else (sp.start_s + sp.end_s) / 2
        shown = self.ctx.posture(aid, t)
        if ev is None:
            return ev
        if ev.status == "assumed":
            # the reason says the posture shown (取爵于上篚以降 kneels for the 取: not 'standing')
            said = "kneeling" if ev.source.startswith("kneeling") else "standing"
            real = {"sit": "kneeling", "bow": "bowing", "salute": "saluting", "walk": "walking",
                    "shoot": "shooting"}.get(shown, "standing")
            if said != real and not (said == "standing" and real == "walking"):
                return Evidence("assumed", f"{real}: the phrase names no posture for this act (ours)")
            return ev
        quoted = re.search(r"「([^」]+)」", ev.source)
        word = _first(quoted.group(1) if quoted else ev.source, POSTURE_WORDS)
        if word and word in GIVES.get(shown, ""):
            if quoted and quoted.group(1) != word:        # 「坐祭」 → 「坐」 (坐祭): the posture word itself
                return Evidence(ev.status, f"「{word}」 ({quoted.group(1)}){ev.source[quoted.end():]}")
            return ev
        return Evidence("assumed", f"{shown}: the words' {word or 'posture'} is not this posture (ours)")
