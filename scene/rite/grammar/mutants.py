"""The seeded errors of the checker's mutation adequacy (:mod:`.mutate`): what each operator does to the compiled
tracks of the man who acts a clause, over the steps that act the very word it is an error of.

    muts = mutants_of(ctx, [5])            # every mutant of §5's acted clauses
    bad = mutated(rite, muts[:1])          # a copy of the rite with that error (the rite is not changed)
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .context import Ctx
from .facing import PLACE_END
from .placewords import _of_a_mat, _place_word, facing_at
from .predicates import FORM_DOS, _counts
from .where import AT_PLACE

if TYPE_CHECKING:
    from ..timeline import Rite

#: the operators, in the order the report lists them
OPERATORS = ("drop-posture", "swap-posture", "add-posture", "face-away", "place-off", "no-move", "keep-hold",
             "no-hold", "wrong-actor", "member-out")
#: the posture each posture word acts (a bow 拜, a salute 揖, a kneel 坐)
POSTURE_OF = {"坐": "sit", "拜": "bow", "揖": "salute"}
MOTION = "進適反退升降入出復還"
PUTS = "奠授委釋加"
#: the cups, what 飲 / 實 / 酌 take in hand
CUPS = "爵觶觚"
TAKES = "取受執挾搢飲實酌"
#: how far a misplaced act is from its place — 尺 (the issue's "a place 10 尺 off")
OFF_CHI = 10.0
#: the pace of the walk to a misplaced spot and back — 尺 per second (an ordinary walk, ~1 m/s)
PACE = 5.0
#: a dropped 興: still kneeling this long after his last step on the clause ends — seconds (more than the
#: predicates' allowance for what a step leaves, 0.5 s)
LATE_S = 1.0
#: the people of a clause that get mutants (the first and the last of a group stand for it)
MAX_ACTORS = 2


@dataclass(frozen=True)
class Mutant:
    """One seeded error: an operator applied to one man's tracks over one window of one clause."""

    op: str
    section: int
    clause_start: int
    clause: str
    word: str            # the word of the clause the error is an error of
    aid: str
    t0: float
    t1: float
    steps: tuple[int, ...]
    other: str = ""      # wrong-actor: the man who acts instead
    a0: float = 0.0      # his act in the step (after any walk and turn to it)
    a1: float = 0.0
    thing: str = ""      # keep-hold / no-hold: the things the word names (取觶: 觶; 飲: a cup), if it names any

    def label(self) -> str:
        who = f"{self.aid}→{self.other}" if self.other else self.aid
        return f"§{self.section} 「{self.clause}」 {self.op}:{self.word} {who} t {self.t0:.1f}–{self.t1:.1f}"


# ------------------------------------------------------------------------------------------- the mutants
def _facing_words(text: str) -> list[tuple[int, str]]:
    """The facings the clause states, with their offsets (the longest word at each 面)."""
    out = []
    for k, c in enumerate(text):
        if c == "面":
            f = facing_at(text, k)
            if f and not _of_a_mat(text, k):         # (席賓南面: how a mat is laid, not a man's facing)
                out.append((k, f))
    return out


def mutants_of(ctx: Ctx, sections: Iterable[int] | None = None,
               operators: Sequence[str] = OPERATORS) -> list[Mutant]:
    """Every mutant of the acted clauses of these sections (all by default), in text order."""
    from .clausedata import load as load_data
    from .coverage import _in_names, _reach, ctx_text, evaluate
    evs = evaluate(ctx)
    data = load_data(ctx.chapter)
    want = set(sections) if sections is not None else set(evs)
    out: list[Mutant] = []
    for n in sorted(want & set(evs)):
        in_name = _in_names(ctx_text(n, ctx.chapter), ctx.chapter)
        reach = _reach(ctx.spans_by_section.get(n, []), data, n)
        for ev in evs[n]:
            if not ev.spans:
                continue
            out += _clause_mutants(ctx, n, ev, in_name, operators, reach)
    out = list(dict.fromkeys(out))           # (a word twice in a clause: 再拜 … 拜, one error)
    return out


def _windows(ev: Any, aid: str, reach: Any = None, i: int | None = None) -> list[tuple[float, float, float, float, int]]:
    """His steps on the clause: (step start, step end, act start, act end, step index) — those that act the
    word at offset ``i`` of the 經 when one is given and some do (else all of his on the clause)."""
    from .coverage import _reaches
    out = []
    mine = [sp for sp in ev.spans if aid in sp.who]
    if i is not None and reach is not None:
        acting = [sp for sp in mine if _reaches(reach, sp, i, i + 1)]
        if not acting and any(_reaches(reach, sp, i, i + 1) for sp in ev.spans):
            return []           # the word is acted by others' steps only (耦遂止于堂西大夫升: the 升 is the 大夫's)
        mine = acting or mine
        # a word a standard form acts again and again (the forfeit's 實之, for every drinker): the error is made in
        # one repetition, its first (the checker holds each repetition: predicates.Span.each)
        own = [sp for sp in mine if sp.offset <= i < sp.offset + len(sp.phrase)]
        if len(own) > 1 and len({sp.index for sp in own}) == 1 and all(sp.do in FORM_DOS for sp in own):
            mine = own[:1]
    for sp in mine:
        act = sp.act_of(aid) or (sp.start_s, sp.end_s)
        out.append((sp.start_s, sp.end_s, act[0], act[1], sp.index))
    return out


def _clause_mutants(ctx: Ctx, n: int, ev: Any, in_name: frozenset[int], ops: Sequence[str],
                    reach: Any = None) -> list[Mutant]:
    cl = ev.clause
    text = cl.text
    movers = sorted({a for sp in ev.spans for a in sp.who if not ev.actors or a in ev.actors},
                    key=lambda a: ctx.index[a])
    if not movers:
        return []
    chosen = movers if len(movers) <= MAX_ACTORS else [movers[0], movers[-1]]
    words: list[tuple[int, str]] = [(k, c) for k, c in enumerate(text) if cl.start + k not in in_name]
    from .coverage import _named_at, _thing, ctx_text
    full = ctx_text(n, ctx.chapter)
    out: list[Mutant] = []

    def add(op: str, word: str, aid: str, w: tuple[float, float, float, float, int], other: str = "",
            at: int | None = None, thing: str = "") -> None:
        if op in ops:
            steps: tuple[int, ...] = (w[4],)
            if at is not None:                  # the steps that act this very word, taken together
                ws = _windows(ev, aid, reach, cl.start + at)
                if not ws:
                    return
                w = (min(x[0] for x in ws), max(x[1] for x in ws), min(x[2] for x in ws), max(x[3] for x in ws),
                     ws[0][4])
                steps = tuple(x[4] for x in ws)
            out.append(Mutant(op, n, cl.start, text, word, aid, w[0], w[1], steps, other, w[2], w[3], thing))

    for aid in chosen:
        wins = _windows(ev, aid)
        if not wins:
            continue
        w = wins[0]
        skip_to = -1
        for k, c in words:
            prev = text[k - 1:k]
            if c == "如":
                # 如初 / 如升射: the words after 如 name the model's acts, not this clause's (the coverage's reading)
                skip_to = next((j for j in range(k + 1, min(len(text), k + 6)) if text[j] in "初之禮"), k + 2)
            if k <= skip_to:
                continue
            if c in "命使曰請告作" and k + 1 < len(text) and (c == "曰" or text[k + 1] not in "于於"):
                break           # what follows is commanded, asked or said: others' acts (the coverage's reading)
            if prev == "未" or (prev == "不" and c in MOTION):
                continue                # 未降, 不升: an act the text denies has no error of omission
            if prev == "不":
                if c == "坐" and text[k + 1:k + 2] != "席":
                    add("add-posture", "不坐", aid, w, at=k)
                elif c == "拜":
                    add("add-posture", "不拜", aid, w, at=k)
                continue
            if c in POSTURE_OF and text[k:k + 2] != "揖弓":      # (揖弓: 鄭 推之也, the bow pushed forward)
                add("drop-posture", c, aid, w, at=k)
                if c in "拜揖":
                    add("swap-posture", c, aid, w, at=k)
            elif c == "興":
                add("drop-posture", c, aid, w, at=k)
            elif c == "立" and prev not in "所":
                add("add-posture", c, aid, w, at=k)
            elif c in MOTION and prev not in "少辭" and not (c == "反" and text[k + 1:k + 2] in "奠坐為") \
                    and not (c == "退" and full[cl.start + k - 2:cl.start + k - 1] == "以"):   # (以旌退: the 獲者's)
                # (辭降: the other's descent declined; 反奠 puts back, 反坐 kneels again, 反為 is an office)
                add("no-move", c, aid, w, at=k)
            elif c in PUTS:
                if not (c == "授" and aid in _named_at(ctx, full, cl.start + k + 1, n, w[0])):
                    add("keep-hold", c, aid, w, at=k, thing=_thing(text, k) or "")   # (授主人爵: *to* the 主人)
            elif c in TAKES:
                add("no-hold", c, aid, w, at=k, thing=_thing(text, k) or (CUPS if c in "飲實酌" else ""))
        for k, face in _facing_words(text):
            add("face-away", face, aid, w, at=k)
        # the place word the checker reads (西階上, 阼階前 …), else the first word that points to a place — not
        # one commanded, asked or said (命弟子贊工遷樂于下: the 樂's place, the 弟子's act)
        said = next((k for k, c in words if c in "命使曰請告作" and k + 1 < len(text)
                     and (c == "曰" or text[k + 1] not in "于於")), len(text))
        own = [(k, c) for k, c in words if k < said]
        at = next((k for k, _ in own if _place_word(text, k, lead=k == 0 or cl.start + k - 1 in in_name, chapter=ctx.chapter)), None)
        if at is None:          # (東上, 北上, 為上: a rank, not a place)
            at = next((k for k, c in own if c in "于於適位" or (c in "上前下" and text[k - 1:k] and text[k - 1] in PLACE_END)),
                      None)     # (not 上握, above the grip of arrows; not 東上 / 為上, a rank)
        if at is not None and not _place_ours(ctx, n, _windows(ev, aid, reach, cl.start + at)):
            # a place where many stand (堂西, 西方: 30 尺 across) is missed only by leaving it: farther off
            region = _place_word(text, at, lead=at == 0 or cl.start + at - 1 in in_name, chapter=ctx.chapter)
            add("place-off", f"位({region})" if region and _breadth(region) > OFF_CHI else "位", aid, w, at=at)
    # the first posture the clause gives him (not one it denies: 不拜), in the step where his track shows it
    first = next((k for k, c in words if c in POSTURE_OF and text[k - 1:k] != "不" and text[k:k + 2] != "揖弓"),
                 None)
    if first is not None and "wrong-actor" in ops:
        aid = chosen[0]
        want = POSTURE_OF[text[first]]
        ws = _windows(ev, aid, reach, cl.start + first)       # the steps of his act, which the wrong man does
        if ws:
            u = (min(x[0] for x in ws), max(x[1] for x in ws), min(x[2] for x in ws), max(x[3] for x in ws), ws[0][4])
            other = (_bystander(ctx, n, ev, aid, u, want)
                     if any(p == want for _, p in ctx.postures(aid, u[0], u[1])) else None)
            if other and "wrong-actor" in ops:
                out.append(Mutant("wrong-actor", n, cl.start, text, "", aid, u[0], u[1], tuple(x[4] for x in ws),
                                  other, u[2], u[3]))
    every = next((k for k, c in enumerate(text) if c in "皆辯"), None)
    # (皆未降, 皆不拜: what the group does not do — one left out of it is no error)
    if len(movers) > 1 and every is not None and text[every + 1:every + 2] not in "未不" and "member-out" in ops:
        aid = movers[-1]
        wins = _windows(ev, aid)
        if wins:            # all his steps on the clause: he does none of it
            u = (min(x[0] for x in wins), max(x[1] for x in wins), min(x[2] for x in wins), max(x[3] for x in wins),
                 wins[0][4])
            out.append(Mutant("member-out", n, cl.start, text, "皆" if "皆" in text else "辯", aid, u[0], u[1],
                              tuple(x[4] for x in wins), "", u[2], u[3]))
    return out


def _breadth(word: str) -> float:
    """How far from a place's point the checker still counts a man at it — 尺 (堂西 30, the 侯 14): a place
    wider than the harness's 10 尺 is missed only by leaving it."""
    from .motion import NEAR
    return AT_PLACE.get(word, NEAR.get(word, 0.0))


def _place_ours(ctx: Ctx, n: int, ws: list[tuple[float, float, float, float, int]]) -> bool:
    """Whether every step acting the word puts him where the data says is its own assumption, not the text's
    (拜辱于門外: the 賓's 門, off the model — ``evidence.where = "assumed: …"``): no place of the text to miss."""
    steps = ctx.rite.choreography.section(n).steps
    return bool(ws) and all(any(a == "where" and st == "assumed" for a, st, _ in steps[x[4]].evidence) for x in ws)


def _bystander(ctx: Ctx, n: int, ev: Any, aid: str, w: tuple[float, float, float, float, int],
               want: str) -> str | None:
    """The man nearest ``aid`` at his act, in sight, who is not acting this clause and not doing the same
    himself at that time (主人再拜, 大夫答拜: the two bow together; the one bowing in the other's place is
    no error): the wrong actor."""
    acting = {a for sp in ev.spans for a in sp.who}
    t = 0.5 * (w[2] + w[3])
    here = ctx.pos(aid, t)
    best, who = 1e9, None
    for other in ctx.rite.actor_ids:
        if other in acting or not ctx.visible(other, t) or any(p == want for _, p in ctx.postures(other, w[0], w[1])):
            continue
        d = float(np.linalg.norm(ctx.pos(other, t)[:2] - here[:2]))
        if d < best:
            best, who = d, other
    return who


# ------------------------------------------------------------------------------------------- track edits
def _step_edit(track: tuple[np.ndarray, list[Any]], t0: float, t1: float,
               fn: Callable[[Any], Any]) -> tuple[np.ndarray, list[Any]]:
    """A step track with ``fn`` applied to every value in force over [t0, t1] (the value at t0 split off
    there, and the one in force at t1 restored after it)."""
    ts, vs = track
    ts = np.asarray(ts, dtype=float)
    vs = list(vs)

    def at(t: float) -> Any:
        i = int(np.searchsorted(ts, t, side="right")) - 1
        return vs[max(i, 0)]
    v0, v1 = at(t0), at(t1)
    keep = [(float(t), v) for t, v in zip(ts, vs) if t < t0 or t > t1]
    inner = [(float(t), fn(v)) for t, v in zip(ts, vs) if t0 < t <= t1]
    new = keep + [(t0, fn(v0))] + inner + [(t1 + 1e-3, v1)]
    new.sort(key=lambda e: e[0])
    return np.array([t for t, _ in new]), [v for _, v in new]


def _linear_edit(track: tuple[np.ndarray, np.ndarray], t0: float, t1: float, delta: np.ndarray,
                 ramp: float) -> tuple[np.ndarray, np.ndarray]:
    """A position track (x y z in metres, heading) with ``delta`` added over [t0, t1], eased in over ``ramp``
    seconds before t0 and out after t1."""
    ts, v = track
    grid = np.unique(np.concatenate([ts, [t0 - ramp, t0, t1, t1 + ramp]]))
    vals = np.column_stack([np.interp(grid, ts, v[:, c]) for c in range(v.shape[1])])
    if ramp > 0:
        w = np.clip(np.minimum((grid - (t0 - ramp)) / ramp, ((t1 + ramp) - grid) / ramp), 0.0, 1.0)
    else:
        w = ((grid >= t0) & (grid <= t1)).astype(float)
    return grid, vals + w[:, None] * delta[None, :]


def _freeze_edit(track: tuple[np.ndarray, np.ndarray], t0: float, t1: float, catch_up: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """A position track held at its t0 value over [t0, t1], then walking to where it should be by
    t1 + catch_up (an act done without the move it needs, the move made after)."""
    ts, v = track
    p0 = np.array([np.interp(t0, ts, v[:, c]) for c in range(v.shape[1])])
    t2 = t1 + catch_up
    p2 = np.array([np.interp(t2, ts, v[:, c]) for c in range(v.shape[1])])
    keep = (ts < t0) | (ts > t2)
    grid = np.concatenate([ts[keep], [t0, t1, t2]])
    vals = np.concatenate([v[keep], [p0, p0, p2]])
    o = np.argsort(grid, kind="stable")
    return grid[o], vals[o]


class _Edits:
    """The tracks of a rite being mutated: copies made on the first edit of each man's track."""

    def __init__(self, rite: Rite) -> None:
        self.rite = rite
        self.index = {a: k for k, a in enumerate(rite.actor_ids)}
        self.pos = list(rite._actors.tracks)
        self.posture = list(rite._posture.tracks)
        self.holding = list(rite._holding.tracks)
        self.dress = list(rite._dress.tracks)

    def apply(self, m: Mutant) -> None:
        k = self.index[m.aid]
        t0, t1 = m.t0, m.t1
        op = m.op
        if op == "drop-posture":
            # the act not done: the posture it makes, from where it starts in his step until he changes
            # posture again, is the one before it (a 興 dropped: he stays kneeling until his next change)
            ts, vs = self.posture[k]
            if m.word == "興":
                # he stays kneeling past the end of his steps on the clause: rising, if at all, only with a
                # later act (the false pass the third reading found: a 興 held by the next step's rise)
                i = next((i for i in range(1, len(ts)) if t0 - 0.5 <= ts[i] <= t1 + 0.5 and vs[i - 1] == "sit"
                          and vs[i] in ("stand", "walk")), None)
                if i is not None:
                    self.posture[k] = _step_edit(self.posture[k], float(ts[i]), t1 + LATE_S, lambda v: "sit")
            else:
                want = POSTURE_OF[m.word]
                # every run of it in force over the step (坐奠爵遂拜: the kneel before the bow and after it)
                while (i := _run_over(ts, vs, t0, t1, lambda v: v == want)) is not None:
                    keep = vs[i - 1] if i > 0 and vs[i - 1] != want else "stand"
                    self.posture[k] = _run_edit(self.posture[k], i, keep)
                    ts, vs = self.posture[k]
        elif op == "swap-posture":
            # every 拜 of his over the steps made a 揖 (or the other way), for as long as it lasts
            a, b = ("bow", "salute") if m.word == "拜" else ("salute", "bow")
            ts, vs = self.posture[k]
            while (i := _run_over(ts, vs, t0, t1, lambda v: v == a)) is not None:
                self.posture[k] = _run_edit(self.posture[k], i, b)
                ts, vs = self.posture[k]
        elif op == "add-posture":
            # the act done kneeling (立, 不坐) or with a bow (不拜): over the act itself, after his walk to it
            bad = "bow" if m.word == "不拜" else "sit"
            self.posture[k] = _step_edit(self.posture[k], min(m.a0, m.a1 - 1.0), m.a1, lambda v: bad)
        elif op == "face-away":
            self.pos[k] = _linear_edit(self.pos[k], t0, t1, np.array([0.0, 0.0, 0.0, 180.0]), 0.0)
        elif op == "place-off":
            chi = self.rite.reading.chi_m
            ts, v = self.pos[k]
            x = float(np.interp(0.5 * (t0 + t1), ts, v[:, 0]))
            off = OFF_CHI + (_breadth(m.word[2:-1]) if m.word != "位" else 0.0)   # (位(堂西): out of its breadth)
            dx = -off if x > 0 else off          # toward the middle of the hall: never off the 堂
            self.pos[k] = _linear_edit(self.pos[k], t0, t1, np.array([dx * chi, 0.0, 0.0, 0.0]), off / PACE)
        elif op == "no-move":
            self._freeze(k, t0, t1)
        elif op == "keep-hold":
            # what he puts out of his hands (his first putting down in the window: not a take, 取矢…委) stays in
            # them over the rest of his steps on the word, and until what he holds changes again after them
            ts, vs = self.holding[k]
            i = next((i for i in range(1, len(ts)) if t0 - 0.5 <= ts[i] <= t1 + 0.5
                      and _named(_gain(vs[i], vs[i - 1]), m.thing)), None)
            if i is not None:
                kept = _named(_gain(vs[i], vs[i - 1]), m.thing)
                vs = list(vs)
                j = i
                while j < len(vs) and (j == i or ts[j] <= t1 + 0.5):
                    have = _counts(vs[j])
                    vs[j] = _label({**have, **{x: have.get(x, 0) + n for x, n in kept.items()}})
                    j += 1
                self.holding[k] = (np.asarray(ts, dtype=float), vs)
        elif op == "no-hold":
            # what he takes never reaches his hands: the things his first take in the window adds (one arrow
            # of the four: 矢×1) are missing from what he holds from then on, for as long as he would hold them
            ts, vs = self.holding[k]
            i = next((i for i in range(1, len(ts)) if t0 - 0.5 <= ts[i] <= t1 + 0.5
                      and _named(_gain(vs[i - 1], vs[i]), m.thing)), None)
            if i is None:
                i = _run_over(ts, vs, t0, t1, lambda v: bool(v))
            if i is not None:
                gone = _named(_gain(vs[i - 1] if i > 0 else "", vs[i]), m.thing)
                vs = list(vs)
                j = i
                while j < len(vs) and gone and all(_counts(vs[j]).get(x, 0) >= n for x, n in gone.items()):
                    vs[j] = _label({x: n - gone.get(x, 0) for x, n in _counts(vs[j]).items()})
                    j += 1
                self.holding[k] = (np.asarray(ts, dtype=float), vs)
        elif op == "wrong-actor":
            j = self.index[m.other]
            mine = _step_edit(self.posture[k], t0, t1, lambda v: v)
            theirs = _step_edit(self.posture[j], t0, t1, lambda v: v)
            # exchange what each does over the window: the wrong man acts, the right one stands by
            self.posture[k] = _splice(self.posture[k], theirs, t0, t1)
            self.posture[j] = _splice(self.posture[j], mine, t0, t1)
        elif op == "member-out":
            # he is left out of the group's act: over his step he stays as he was — where he stood, in his
            # posture, with what he held and wore — and only then goes on to where his next step begins
            for tracks in (self.posture, self.holding, self.dress):
                still = _value_at(tracks[k], t0 - 1e-3)
                still = "stand" if still == "walk" else still
                # what his act would have changed stays as it was until it next changes (袒 not done: covered
                # until his 襲)
                ts, vs = tracks[k]
                t2 = next((float(t) for t, v, w in zip(ts[1:], vs[1:], vs[:-1]) if t > t1 + 0.5 and v != w), t1)
                tracks[k] = _step_edit(tracks[k], t0, max(t1, t2 - 1e-3), _const(still))
            self._freeze(k, t0, t1)
        else:                                                    # pragma: no cover - OPERATORS is closed
            raise ValueError(op)

    def _freeze(self, k: int, t0: float, t1: float) -> None:
        """His position held over [t0, t1], then walked at :data:`PACE` to where it should be."""
        ts, v = self.pos[k]
        far = float(np.linalg.norm(np.interp(t1, ts, v[:, 0]) - np.interp(t0, ts, v[:, 0])) +
                    abs(np.interp(t1, ts, v[:, 1]) - np.interp(t0, ts, v[:, 1]))) / self.rite.reading.chi_m
        self.pos[k] = _freeze_edit(self.pos[k], t0, t1, max(1.0, far / PACE))

    def rite_copy(self) -> Rite:
        from ..timeline import _Linear, _Steps
        r = copy.copy(self.rite)
        r._actors = _Linear(self.pos)
        r._posture = _Steps(self.posture)
        r._holding = _Steps(self.holding)
        r._dress = _Steps(self.dress)
        r.cache_key = None
        r.__dict__.pop("_grammar_ctx", None)
        return r


def _gain(before: str, after: str) -> dict[str, int]:
    """What a change of holding adds (弓、矢×2 → 弓、矢×3: one 矢)."""
    b, a = _counts(before), _counts(after)
    return {x: n - b.get(x, 0) for x, n in a.items() if n > b.get(x, 0)}


def _named(gain: dict[str, int], thing: str) -> dict[str, int]:
    """The part of a gain (or a loss) that is the thing the word names (any, if it names none)."""
    return {x: n for x, n in gain.items() if not thing or any(c in x for c in thing)}


def _label(counts: dict[str, int]) -> str:
    """A holding label from counts, in the tracks' own form ('弓、矢×3')."""
    return "、".join(x if n == 1 else f"{x}×{n}" for x, n in counts.items() if n > 0)


def _const(value: Any) -> Callable[[Any], Any]:
    return lambda _v: value


def _value_at(track: tuple[np.ndarray, list[Any]], t: float) -> Any:
    ts, vs = track
    return vs[max(int(np.searchsorted(ts, t, side="right")) - 1, 0)]


def _run_over(ts: np.ndarray, vs: list[Any], t0: float, t1: float, pred: Callable[[Any], bool]) -> int | None:
    """The index of the first run of values meeting ``pred`` that is in force at some time of [t0, t1] (one
    that began before t0 included: 坐奠爵 done in a kneel begun for the act before)."""
    for i in range(len(ts)):
        end = ts[i + 1] if i + 1 < len(ts) else float("inf")
        if end > t0 and ts[i] <= t1 + 0.5 and pred(vs[i]) and (i == 0 or not pred(vs[i - 1]) or ts[i] >= t0 - 0.5):
            return i
    return None


def _run_edit(track: tuple[np.ndarray, list[Any]], i: int, value: Any) -> tuple[np.ndarray, list[Any]]:
    """A step track whose i-th value, for as long as it lasts, is ``value`` instead."""
    ts, vs = track
    vs = list(vs)
    vs[i] = value
    return np.asarray(ts, dtype=float), vs


def _splice(base: tuple[np.ndarray, list[Any]], src: tuple[np.ndarray, list[Any]], t0: float, t1: float
            ) -> tuple[np.ndarray, list[Any]]:
    """``base`` with the values of ``src`` over [t0, t1]."""
    bt, bv = base
    st, sv = src

    def at(ts: np.ndarray, vs: list[Any], t: float) -> Any:
        return vs[max(int(np.searchsorted(ts, t, side="right")) - 1, 0)]
    new = [(float(t), v) for t, v in zip(bt, bv) if t < t0 or t > t1]
    new += [(t0, at(st, sv, t0))] + [(float(t), v) for t, v in zip(st, sv) if t0 < t <= t1]
    new += [(t1 + 1e-3, at(bt, bv, t1))]
    new.sort(key=lambda e: e[0])
    return np.array([t for t, _ in new]), [v for _, v in new]


def changes(rite: Rite, m: Mutant) -> bool:
    """Whether the mutant changes the tracks at all (a 坐 to drop where he is not kneeling changes nothing:
    such a mutant is *inert*, left out of the score and counted apart)."""
    ed = _Edits(rite)
    ed.apply(m)
    pairs: list[tuple[list[Any], list[Any]]] = [(ed.pos, rite._actors.tracks), (ed.posture, rite._posture.tracks),
                                                (ed.holding, rite._holding.tracks),
                                                (ed.dress, rite._dress.tracks)]
    for new, old in pairs:
        for (t1, v1), (t0, v0) in zip(new, old):
            if t1 is t0 and v1 is v0:
                continue
            if len(t1) != len(t0) or not np.array_equal(t1, t0):
                return True
            if isinstance(v0, np.ndarray) and not np.array_equal(v1, v0):
                return True
            if not isinstance(v0, np.ndarray) and list(v1) != list(v0):
                return True
    return False


def mutated(rite: Rite, muts: Sequence[Mutant]) -> Rite:
    """A copy of the rite with these mutants' edits (the rite itself is not changed)."""
    ed = _Edits(rite)
    for m in muts:
        ed.apply(m)
    return ed.rite_copy()
