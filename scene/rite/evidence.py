"""Evidence on every movement: for each step, is its *where*, *facing*, *posture*, *route* and *timing*
stated by the phrase, given by a commentary, or our assumption (the London Charter's evidence and
hypothesis, applied to people)?

The status is read from the words, never from the data's own fields alone:

* **stated** — the phrase (or a 記 item that governs the step) contains the word that fixes it; the source
  quotes the word;
* **commentary** — a 鄭注 attached to this phrase, or a 鄭 quotation in the step's note that is found
  verbatim in the 鄭注, says it; the source quotes the 注 itself, from the text;
* **assumed** — neither: the engine's choice, with the reason.

A step's own ``evidence`` table in the data overrides what is read (it must give its source). Where a step
does not move anybody, *where* carries over from the step that put him there.

**Whose words.** A label may cite only a clause of the text (``scene.text.clauses``) whose subject is the
step's actor or a group that holds him (every actor of the step), or a 鄭注 anchored in such a clause, and
only for what that clause gives: the posture of the clause that names the step's own act (a walk is not
labelled by the 坐 that follows it: 升自西階反坐), never a word the text denies (不拜), and a posture word
that is the posture shown (揖 does not give standing); a 注's word is not his when the 注 names someone else
for it (樂正反自西階東北面).  Anything else is *assumed*.
"""
from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from ..chapter import Chapter
from ..text.words import words as chapter_words
from . import choreography as chor
from .grammar.words import FACINGS

if TYPE_CHECKING:
    from ..geometry.layout import Layout
    from ..text import Gloss
    from .timeline import Rite

#: whether a 鄭注 (and the word it is quoted for) is the actor's own
NoteOk = Callable[[str, str | None], bool]

ASPECTS = chor.EVIDENCE_ASPECTS
STATUSES = chor.EVIDENCE_STATUSES

#: words that fix a posture (坐 kneeling, 立 standing, 拜 / 揖 the acts themselves, 興 rising, 跪)
POSTURE_WORDS = ("坐", "立", "跪", "興", "拜", "揖", "俯", "伏")
#: words that fix the way taken: words of motion only (stairs, abreast, 鉤楹 …), never the side word of a place
#: phrase (之東 of 阼階之東, 之西 of 中之西南: where he is, not how he goes) nor 當階 (where he stands); 升席 /
#: 降席 go onto / off a mat, on the level
ROUTE_WORDS = ("並行", "相左", "鉤楹", "由", "自西階", "自阼階", "自西方", "自東方", "出于", "入于", "交于",
               "升席", "降席", "升", "降", "適", "進", "退", "反位", "復位", "還", "少南", "少北",
               "少東", "少西", "盡階", "升堂", "及階", "出", "入")
#: the motion words that go up / down (their step must rise / fall), the rest move him on the level
UP_WORDS, DOWN_WORDS = ("升", "升堂", "盡階"), ("降",)
#: a step walks a motion word when he gets this far from where he began (尺), or rises / falls this much for
#: 升 / 降 (the 堂 is 3 尺 above the court)
MIN_WALK_CHI, MIN_RISE_CHI = 0.3, 1.0
#: words that fix the order or the simultaneity of acts
ORDER_WORDS = ("遂", "乃", "既", "先", "後", "然後", "以次", "卒", "畢", "皆", "俱", "並", "如初", "又", "復")
#: the last character of a place name that, alone in a phrase, names that place (就席, 升階 …)
NOUNS = "席階楹序洗篚尊侯乏楅豐門堂"
#: verbs that move the one who does them
MOVES = {"walk", "ascend", "descend", "enter", "exit", "approach", "retire", "go", "pick_arrows",
         "collect_arrows", "tell_count"}
_CJK = re.compile(r"[\u4e00-\u9fff]{3,}")


@dataclass(frozen=True)
class Evidence:
    status: str        # stated | commentary | assumed
    source: str        # the word quoted, the 注 quoted, or the reason

    def as_dict(self) -> dict[str, str]:
        return {"status": self.status, "source": self.source}


@cache
def _glosses(n: int, chapter: Chapter | None = None) -> tuple[Gloss, ...]:
    from ..text.zheng import zheng_notes
    try:
        return tuple(zheng_notes(n, chapter=chapter))
    except (KeyError, ValueError):
        return ()


@cache
def _all_zhu(chapter: Chapter | None = None) -> tuple[tuple[str, str], ...]:
    """(where, note) of every 鄭注 of the chapter's 經 and 記."""
    from ..text.jing import ji_items, passages
    out = []
    for p in passages(chapter=chapter):
        out += [(f"§{p.n}", g.note) for g in _glosses(p.n, chapter)]
    for k in ji_items(chapter=chapter):
        from ..text.zheng import zheng_notes
        out += [(f"記{k}", g.note) for g in zheng_notes(f"記{k}", chapter=chapter)]
    return tuple(out)


def _zhu_on(section: int, step: chor.Step, chapter: Chapter | None = None) -> list[str]:
    """The 鄭注 attached inside this step's phrase (its anchor ends within the phrase)."""
    lo, hi = step.offset, step.offset + len(step.phrase)
    return [g.note for g in _glosses(section, chapter) if lo < g.offset <= hi]


def _quoted_zhu(note: str, chapter: Chapter | None = None) -> list[tuple[str, str]]:
    """The 鄭注 that a note's ``鄭: …`` quotes verbatim (where, the whole 注)."""
    if "鄭" not in note:
        return []
    runs = _CJK.findall(note.split("鄭", 1)[1])
    out = []
    for run in runs:
        for where, z in _all_zhu(chapter):
            if run in z and (where, z) not in out:
                out.append((where, z))
    return out


def _place_words(place_id: str | None, lay: Layout | None, chapter: Chapter | None = None) -> tuple[str, ...]:
    """The words that name a place: the text's, the layout's name and its stem — never a person's name (the
    stem of 司射位 is 司射, a man, not where he stands: only 反位 / 復位 … name his 位)."""
    from ..text.clauses import names_of
    words = [w for w, ids in chapter_words(chapter).places.items() if place_id in ids]
    if lay is not None and place_id is not None and place_id in lay:
        name = lay[place_id].name
        words += [name, name.rstrip("上前下位南北東西")]
        words += [c for c in name[-1:] if c in NOUNS]
    return tuple(w for w in dict.fromkeys(words) if w and not any(s == 0 and e == len(w) for s, e, _ in names_of(w, chapter)))


def walks(word: str, move: tuple[float, float] | None) -> bool:
    """Whether a step whose actor gets ``move`` = (as far as he gets from where he began, the height he rises
    (+) or falls (−)), in 尺, walks the motion ``word`` (None: not measured — the phrase is taken at its word)."""
    if move is None:
        return True
    far, dz = move
    if word in UP_WORDS:
        return dz >= MIN_RISE_CHI
    if word in DOWN_WORDS:
        return dz <= -MIN_RISE_CHI
    return far >= MIN_WALK_CHI or abs(dz) >= MIN_RISE_CHI


def _walked(text: str, move: tuple[float, float] | None) -> str | None:
    """The first motion word of the text that this step walks (of the words at one spot, the longest only:
    the 升 of 升席 is no 升 of the stairs)."""
    hits: dict[int, str] = {}
    for w in ROUTE_WORDS:
        for m in re.finditer(re.escape(w), text):
            if len(w) > len(hits.get(m.start(), "")):
                hits[m.start()] = w
    return next((hits[i] for i in sorted(hits) if walks(hits[i], move)), None)


def _first(text: str, words: Iterable[str]) -> str | None:
    hits = [(text.find(w), -len(w), w) for w in words if w and w in text]
    return min(hits)[2] if hits else None


def _by_words(phrase: str, zhu: list[str], words: Iterable[str], stated: Callable[[str], str] = lambda w: f"「{w}」",
              note_ok: NoteOk = lambda z, w: True) -> Evidence | None:
    """Stated if one of the words is in the phrase, commentary if in a 鄭注 on it (that does not give the
    word to someone else), else None."""
    w = _first(phrase, words)
    if w:
        return Evidence("stated", stated(w))
    z = next((z for z in zhu if _first(z, words) and note_ok(z, _first(z, words))), None)
    return Evidence("commentary", f"鄭注: {z}") if z else None


def _undenied(text: str) -> str:
    """The text with what it denies blanked out (不拜, 未降: no 拜, no 降 is stated by them)."""
    return re.sub(r"[不未毋].", "〇〇", text)


def read_step(section: int, step: chor.Step, lay: Layout | None = None, mine: str | None = None,
              facing_word: str | None = "", zhu: list[str] | None = None,
              act_text: str | None = None, note_ok: NoteOk = lambda z, w: True,
              move: tuple[float, float] | None = None, chapter: Chapter | None = None) -> dict[str, Evidence | None]:
    """What the words say of one step (``where`` None: the step puts nobody anywhere new).

    ``mine`` is the part of the phrase that speaks of the step's actor (the checker's segments: in
    席主人於阼階上西面 the 西面 is the 主人's, not the one who lays the mat); ``facing_word`` the facing word
    that governs his act (``""``: the first in ``mine``); ``move`` what the step moves him (``walks``): a route
    word is his only if this step walks it.
    """
    # what the text denies states nothing (不反位 is no 反位, 不拜 no 拜)
    phrase = _undenied(step.phrase if mine is None else mine)
    if zhu is None:
        zhu = _zhu_on(section, step, chapter) + [z for _, z in _quoted_zhu(step.note, chapter)]
    posture_text = _undenied(phrase if act_text is None else act_text)
    ev: dict[str, Evidence | None] = {}

    # where
    moves = step.at is not None or step.do in MOVES or bool(step.by) or bool(step.via)
    if not moves:
        ev["where"] = None
    else:
        pid = step.at.place if step.at is not None else None
        words = _place_words(pid, lay, chapter) if pid else ()
        w = _first(phrase, words)
        offset = f" (the spot {step.at.direction} {step.at.dist:g} 尺 of it is ours)" if (
            step.at is not None and step.at.direction) else ""
        z = next((z for z in zhu if (_first(z, words) or "位" in z) and note_ok(z, _first(z, words) or "位")), None)
        if w:
            ev["where"] = Evidence("stated", f"「{w}」{offset}")
        elif _first(phrase, ("反位", "復位", "即位", "其位")):
            ev["where"] = Evidence("stated", f"「{_first(phrase, ('反位', '復位', '即位', '其位'))}」: the 位 he held")
        elif z:
            ev["where"] = Evidence("commentary", f"鄭注: {z}")
        else:
            name = lay[pid].name if (lay is not None and pid and pid in lay) else pid
            said = ("the phrase names no place" if not _first(phrase, (*chapter_words(chapter).places, *NOUNS)) else
                    "no word of the phrase names his place")       # 司射先立于所設中之西南: not its name
            ev["where"] = Evidence("assumed", f"{said}; we put him at {name}" if name else
                                   f"{said}; where he goes is ours (the stage's form)")

    # facing
    w = _first(phrase, tuple(FACINGS)) if facing_word == "" else facing_word
    z = next((z for z in zhu if _first(z, tuple(FACINGS)) and note_ok(z, _first(z, tuple(FACINGS)))), None)
    if w:
        ev["facing"] = Evidence("stated", f"「{w}」")
    elif z:
        ev["facing"] = Evidence("commentary", f"鄭注: {z}")
    elif step.do in MOVES:
        ev["facing"] = Evidence("assumed", "along the way he walks, then toward what he does next")
    else:
        ev["facing"] = Evidence("assumed", "toward the one he addresses or the thing he acts on (no facing word)")

    # posture
    ev["posture"] = _by_words(posture_text, zhu, POSTURE_WORDS, note_ok=note_ok) or (
        Evidence("assumed", "kneeling, as every 奠 / 取 of a cup is done (the phrase has no 坐)") if step.kneel
        else Evidence("assumed", "standing: the phrase names no posture"))

    # route: a motion word this step walks, or a 注 that gives one (when he moves at all)
    if moves and (w := _walked(phrase, move)):
        ev["route"] = Evidence("stated", f"「{w}」" + (
            "" if w in ("並行", "相左", "鉤楹") else "; the line walked between is ours"))
    elif moves and (z := next((z for z in zhu if _walked(z, move) and note_ok(z, _walked(z, move))), None)):
        ev["route"] = Evidence("commentary", f"鄭注: {z}")
    elif moves and (w := _walked(phrase, None)):
        ev["route"] = Evidence("assumed", f"his 「{w}」 is not walked in this step: " + (
            "here he does not move" if not walks("", move) else "the way he walks here is ours"))
    elif moves and walks("", move):
        ev["route"] = Evidence("assumed", "the way between the places is ours (around furniture and people)")
    else:
        ev["route"] = Evidence("assumed", "no movement: the phrase names none, so he acts where he stands")

    # timing
    w = _first(phrase, ORDER_WORDS)
    if w:
        ev["timing"] = Evidence("stated", f"「{w}」 (the order); the seconds are ours")
    elif step.with_prev:
        ev["timing"] = Evidence("assumed", "at once with the step before (no word says so); the seconds are ours")
    else:
        ev["timing"] = Evidence("assumed", "after the step before, in the 經's order; the seconds are ours")

    for aspect, status, source in step.evidence:         # the data's own word wins — if it is his own
        ev[aspect] = (Evidence(status, source or "the phrase") if mine is None
                      else _own_label(status, source or "the phrase", phrase, zhu, note_ok))
    return ev


def _own_label(status: str, source: str, mine: str, zhu: list[str], note_ok: NoteOk) -> Evidence:
    """A label the data gives, held to the rule the read labels keep: 'stated' quotes a word of the part of the
    phrase that speaks of this actor (``mine``, not denied), 'commentary' a 鄭注 anchored in his clause
    (``zhu``, the notes on his words, verbatim).  Otherwise it is ours ('assumed'), and says what it leaned on."""
    if status == "stated":
        m = re.search(r"「([^」]+)」", source)
        if m is None or m.group(1) not in mine:
            return Evidence("assumed", f"ours, after {source} (not words of his own clause)")
    elif status == "commentary":
        z = source[len("鄭注: "):] if source.startswith("鄭注: ") else None
        if z is None or not any(z == n or z in n for n in zhu) or not note_ok(z, None):
            return Evidence("assumed", f"ours, after {source} (not a 鄭注 on his own clause)")
    return Evidence(status, source)


_READ: weakref.WeakKeyDictionary[Rite, list[dict[str, Evidence]]] = weakref.WeakKeyDictionary()


def rite_evidence(rite: Rite) -> list[dict[str, Evidence]]:
    """The evidence of every step of a compiled rite, aligned with ``rite.spans``; *where* of a step that
    moves nobody carries over, per actor, from the step that last put him somewhere.  Read once per rite
    (the book asks for it on every page)."""
    if rite not in _READ:
        _READ[rite] = _read_rite(rite)
    return _READ[rite]


def _read_rite(rite: Rite) -> list[dict[str, Evidence]]:
    from .evidence_whose import Whose
    from .grammar.context import Ctx
    from .grammar.facing import governing_facing
    ctx = Ctx(rite)
    ch = ctx.chapter
    whose = Whose(ctx)
    sec = {s.n: s for s in rite.choreography.sections}
    moved = span_moves(rite)
    last: dict[str, Evidence | None] = {}
    at_place: dict[str, str | None] = {}
    out: list[dict[str, Evidence | None]] = []
    for k, sp in enumerate(rite.spans):
        step = sec[sp.section].steps[sp.index]
        actors = tuple(a for a in sp.who if a in ctx.index)
        aid = actors[0] if actors else None
        if aid is None:
            mine = step.phrase
            ev = read_step(sp.section, step, rite.layout, chapter=ch)
        else:
            own = whose.own(sp, actors)
            mine = whose.text(sp.section, own)
            g = governing_facing(ctx, sp, aid)
            facing = g[0] if g and any(a <= g[1] < b for a, b in own) else None
            zhu = whose.notes(sp, step, own, actors)
            ev = read_step(sp.section, step, rite.layout, mine, facing, zhu, whose.act_text(sp, own),
                           whose.note_ok(sp, actors), moved[k], ch)
            if step.like is not None and step.like.chapter is None:
                ev = _by_model(ctx, whose, sp, step.like, ev, mine, moved[k])
            ev["posture"] = whose.posture_agrees(sp, aid, ev["posture"])
        if ev["where"] is None:
            prev = last.get(aid) if aid else None
            here = _place_words(at_place[aid], rite.layout, ch) if aid in at_place else ()
            w = _first(mine, here) if aid is not None else None
            if w:                # 賓西階上北面拜洗: the phrase names where he already stands
                ev["where"] = Evidence("stated", f"「{w}」")
            elif prev:
                ev["where"] = Evidence(prev.status, f"where he stands: {prev.source}")
            else:
                ev["where"] = Evidence("assumed", "where he stands (his first place is ours)")
        for a in sp.who:
            last[a] = ev["where"]
            if step.at is not None:
                at_place[a] = step.at.place
        out.append(ev)
    return cast("list[dict[str, Evidence]]", out)   # (every aspect read: where carried over above)


def _by_model(ctx: Any, whose: Any, sp: Any, like: Any, ev: dict[str, Evidence | None], mine: str,
              move: tuple[float, float] | None) -> dict[str, Evidence | None]:
    """A reused step (``like``: 介辭洗如賓禮): an aspect its own words leave assumed is what the model's clause
    states (or its 注 says) for the model's actor, cited with the basis.  It is *stated* — by the 如 (如賓禮,
    如初) — only where the 如 is in his own clause (the 介's 東北面 in 介辭洗如賓禮: 「如」, and §4's 「東北面」); for
    anyone else in the run (the 主人 who answers him) the model's word is the basis of an assumption, and says
    so."""
    from dataclasses import replace

    from .grammar.facing import governing_facing
    model = ctx.sections[like.section].steps[like.step]
    back = {us: them for them, us in like.actors}
    them = tuple(back.get(a, a) for a in sp.who if a in ctx.index)
    at = replace(sp, section=like.section, index=like.step, offset=model.offset, phrase=model.phrase)
    own = whose.own(at, them)
    g = governing_facing(ctx, at, them[0])
    facing = g[0] if g and any(a <= g[1] < b for a, b in own) else None
    read = read_step(like.section, model, ctx.lay, whose.text(like.section, own), facing,
                     whose.notes(at, model, own, them), whose.act_text(at, own), whose.note_ok(at, them), move,
                     ctx.chapter)
    for aspect, e in read.items():
        had = ev.get(aspect)
        if e is None or e.status == "assumed" or (had is not None and had.status != "assumed"):
            continue
        turned = f", turned {like.turn:g}° with the place he stands on" if aspect == "facing" and like.turn else ""
        said = f"{e.source} of §{like.section}{turned}, the words it repeats ({like.says()})"
        # stated by the 如 only where the model's own label is stated: a 注 of the model speaks of the model's
        # man, and reading it of this one by the 如 is our step (an assumption that cites it), not the text's
        ev[aspect] = Evidence("stated", f"「如」 ({like.phrase}): {said}") if "如" in mine and \
            e.status == "stated" else Evidence("assumed", f"as the model says: {said}")
    return ev


def span_moves(rite: Rite, samples: int = 16) -> list[tuple[float, float] | None]:
    """Per span, what it moves its first actor, measured on his track over the span: (as far as he gets from
    where he began, the height he rises (+) or, if he goes down, falls (−)), in 尺; None for a span of nobody."""
    import numpy as np
    who = [next((rite.actor_ids.index(a) for a in sp.who if a in rite.actor_ids), None) for sp in rite.spans]
    if not rite.spans:
        return []
    times = np.concatenate([np.linspace(sp.start_s, sp.end_s, samples) for sp in rite.spans])
    xyz = rite.sample(times, objects=False)["actor_xyz_m"] / rite.reading.chi_m
    out: list[tuple[float, float] | None] = []
    for k, i in enumerate(who):
        if i is None:
            out.append(None)
            continue
        p = xyz[k * samples:(k + 1) * samples, i, :]
        far = float(np.max(np.hypot(p[:, 0] - p[0, 0], p[:, 1] - p[0, 1])))
        low, high = float(np.min(p[:, 2]) - p[0, 2]), float(np.max(p[:, 2]) - p[0, 2])
        out.append((far, low if low <= -MIN_RISE_CHI else high))
    return out


def summary(evs: list[dict[str, Evidence]]) -> dict[str, dict[str, int]]:
    """aspect → status → number of steps."""
    out = {}
    for a in ASPECTS:
        c = Counter(e[a].status for e in evs)
        out[a] = {s: c.get(s, 0) for s in STATUSES}
    return out


def step_table(rite: Rite) -> list[dict[str, Any]]:
    """Every step as ``python -m scene steps`` prints it: where its first actor does the act (at the act's
    middle), his facing and posture there, and the evidence of each aspect."""
    sec = {s.n: s for s in rite.choreography.sections}
    evs = rite_evidence(rite)
    rows = []
    for sp, ev in zip(rite.spans, evs):
        step = sec[sp.section].steps[sp.index]
        aid = sp.who[0] if sp.who else None
        act = sp.act_of(aid) if aid else None
        t = (act[0] + act[1]) / 2 if act else (sp.start_s + sp.end_s) / 2
        place: dict[str, Any] = {"id": step.at.text if step.at else None, "xyz_m": None}
        facing = posture = None
        if aid in rite.actor_ids:
            p = rite.pose_at(t)
            i = p.actor_ids.index(aid)
            place["xyz_m"] = [round(float(c), 3) for c in p.actor_xyz_m[i]]
            facing, posture = round(float(p.heading_deg[i]), 1), p.posture[i]
        rows.append({"section": sp.section, "index": sp.index + 1, "phrase": sp.phrase, "who": list(sp.who),
                     "verb": sp.do, "start_s": round(sp.start_s, 2), "end_s": round(sp.end_s, 2), "place": place,
                     "facing": facing, "posture": posture,
                     # the reading the step follows: a switch or a chapter's choice (when = "jie_ximo=south")
                     "when": step.when,
                     "evidence": {a: ev[a].as_dict() for a in ASPECTS},
                     "basis": step.like.says() if step.like is not None else None})
    return rows
