"""Facing words (北面, 東面, 西南面 …): the heading while the act they govern is done, and — where the
phrase also names what the act is done to or at (北面坐委于楅, 南面坐奠于豐上) — the side of that thing the
facing implies (facing north at the 楅 means standing south of it).
"""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from ..state import StepSpan
from .context import Ctx, Finding, angle_diff, bearing
from .words import FACING_TOLERANCE_DEG, FACINGS, VERB_CHARS

_FACING = re.compile("|".join(sorted(FACINGS, key=len, reverse=True)))
#: things small enough that "facing F, act 于X" puts the actor on the far side of X from F
_SMALL = ("楅", "豐", "中", "篚", "洗", "乏", "侯", "物")
_AT_THING = re.compile(r"于(" + "|".join(_SMALL) + r")")
SIDE_TOLERANCE_DEG = 60.0
WALKS = ("walk", "ascend", "descend", "enter", "exit", "approach", "retire")
#: a character that ends a place word: before 東南面 / 西南面 … it makes the first character the place's side
PLACE_END = "堂階楹序中洗篚席門侯乏楅物庭豐之"
_FORMS = ("approach", "retire", "shoot", "pick_arrows", "collect_arrows", "count", "forfeit")


def governing_facing(ctx: Ctx, span: StepSpan, aid: str) -> tuple[str, int] | None:
    """The facing word of the actor's part of the phrase that governs the step's act, with its offset."""
    text = ctx.text(span.section)
    found: list[tuple[int, str]] = []
    verb_at: int | None = None
    chars = VERB_CHARS.get(span.do, "")
    for seg in ctx.segments_of(span, aid):
        for m in _FACING.finditer(text, seg.start, seg.end):
            word, start = m.group(0), m.start()
            if len(word) == 3 and start > 0 and text[start - 1] in PLACE_END:
                # 堂西南面, 阼階之東南面, 席東南面: a place and its side, then the facing (南面)
                word, start = word[1:], start + 1
            found.append((start, word))
        if verb_at is None and chars:
            verb_at = next((i for i in range(seg.start, seg.end) if text[i] in chars), None)
    if not found:
        return None
    if verb_at is None or span.do in WALKS:
        pos, word = found[-1]
    else:
        before = [f for f in found if f[0] < verb_at]
        if not before:
            return None          # the facing word comes after this act: it is a later act's
        pos, word = before[-1]
    return word, pos


def check(ctx: Ctx) -> list[Finding]:
    out = []
    text_of: dict[int, str] = {}
    for span in ctx.rite.spans:
        if span.do in _FORMS:
            continue          # the standard forms are checked by their own rules (forms.py)
        for aid in span.who:
            act = span.act_of(aid)
            if act is None:
                continue
            g = governing_facing(ctx, span, aid)
            if g is None:
                continue
            word, pos = g
            want = FACINGS[word]
            t = act[0] + min(0.5, (act[1] - act[0]) / 2)
            got = ctx.heading(aid, t)
            if angle_diff(got, want) > FACING_TOLERANCE_DEG:
                out.append(Finding("facing", span.section, span.index, span.phrase, word,
                                   f"{aid} heading {want:.0f}° ± {FACING_TOLERANCE_DEG:.0f}",
                                   f"heading {got:.0f}° at {t:.1f} s", aid, t))
            text = text_of.setdefault(span.section, ctx.text(span.section))
            seg_end = next(s.end for s in ctx.segments_of(span, aid) if s.start <= pos < s.end)
            m = _AT_THING.search(text, pos, seg_end)
            if m:
                out += _side(ctx, span, aid, word, m.group(1), t)
    return out + _as_model(ctx)


def _as_model(ctx: Ctx) -> list[Finding]:
    """A step reused from a model (``like``: 如賓禮, 如初) holds to the facing word of the model's clause, as
    its model actor's, turned as the place he stands on is (the 介's 席 faces east where the 賓's faces
    south): the copy is checked against the words it repeats, so an error in the model shows in the copy too."""
    out = []
    for span in ctx.rite.spans:
        like = ctx.step_of(span).like
        if like is None or like.chapter is not None or span.do in _FORMS:
            continue
        model = ctx.sections[like.section].steps[like.step]
        back = {us: them for them, us in like.actors}
        at = replace(span, section=like.section, index=like.step, offset=model.offset, phrase=model.phrase)
        for aid in span.who:
            act = span.act_of(aid)
            g = governing_facing(ctx, at, back.get(aid, aid)) if act else None
            if act is None or g is None:
                continue
            want = (FACINGS[g[0]] + like.turn) % 360.0
            t = act[0] + min(0.5, (act[1] - act[0]) / 2)
            got = ctx.heading(aid, t)
            if angle_diff(got, want) > FACING_TOLERANCE_DEG:
                out.append(Finding("facing", span.section, span.index, span.phrase, f"{g[0]} (§{like.section})",
                                   f"{aid} heading {want:.0f}° ± {FACING_TOLERANCE_DEG:.0f}, as the words it "
                                   f"repeats: {like.says()}", f"heading {got:.0f}° at {t:.1f} s", aid, t))
    return out


def _side(ctx: Ctx, span: StepSpan, aid: str, word: str, thing: str, t: float) -> list[Finding]:
    """Facing F toward X: X lies ahead of him within the tolerance (so he stands on X's far side)."""
    me = ctx.pos(aid, t)
    xs = [ctx.at(p) for p in ctx.words.places.get(thing, ()) if p in ctx.lay]
    if not xs:
        return []
    x = min(xs, key=lambda p: float(np.hypot(*(p[:2] - me[:2]))))
    if float(np.hypot(*(x[:2] - me[:2]))) < 0.5:
        return []                # on it (the 物): no side to speak of
    b = bearing(me, x)
    if angle_diff(b, FACINGS[word]) <= SIDE_TOLERANCE_DEG:
        return []
    return [Finding("facing", span.section, span.index, span.phrase, f"{word}…于{thing}",
                    f"{aid} on the side of the {thing} that faces {word[:-1]} toward it (bearing to it "
                    f"{FACINGS[word]:.0f}° ± {SIDE_TOLERANCE_DEG:.0f})",
                    f"the {thing} lies at bearing {b:.0f}° from him at {t:.1f} s", aid, t)]
