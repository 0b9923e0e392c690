"""Order words: the text's order (a step does not act a phrase that comes before the one its predecessor
acts, unless they act together), 先 (X先V: X's act begins before the others'), 遂 (遂V: he goes straight on,
no pause after his previous act)."""
from __future__ import annotations

from ..state import StepSpan
from . import phrase as ph
from .context import Ctx, Finding

GAP_S = 3.0        # 遂: at most this long between his previous act and this one


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for n, spans in ctx.spans_by_section.items():
        text = ctx.text(n)
        sec = ctx.sections[n]
        acted: dict[tuple[int, str], set[tuple[tuple[str, ...], str | None]]] = {}     # phrase → the (who, to) it was acted for
        a = spans[0] if spans else None      # the step the next one follows in the text
        for prev, b in zip(spans, spans[1:]):
            assert a is not None                 # (spans[0], there being two)
            acted.setdefault((prev.offset, prev.phrase), set()).add((prev.who, sec.steps[prev.index].to))
            sb = sec.steps[b.index]
            part = prev.index == b.index and b.phrase != sb.phrase       # a form's sub-steps (Acts.part)
            if sb.with_prev or (part and b.start_s < prev.end_s and not set(b.who) & set(prev.who)):
                # acted alongside the step before; one that cites words further on (司射進與司馬交于階前 as
                # the 司馬 goes back) does not move the reading past the words in between — as the loader reads
                if b.offset <= a.offset:
                    a = b
                continue
            # a run of phrases done again for the next one of a group (命上射…命下射… for each 耦; 眾賓之長
            # 升拜受 for each of the three): going back is allowed to a phrase already acted, for someone new
            # (a form's sub-steps go through its routine again for each pair or drinker in turn, 升飲者如初: going
            # back is allowed to any words the form has acted)
            before = acted.get((b.offset, b.phrase), set())
            again = bool(before) and (part or (b.who, sb.to) not in before)
            if not again and b.offset + len(b.phrase) <= a.offset:
                out.append(Finding("order", n, b.index, b.phrase, "(text order)",
                                   f"after 「{a.phrase}」 (step {a.index + 1}) only what the text says after it",
                                   f"it acts words at {b.offset}–{b.offset + len(b.phrase)}, before {a.offset}", "",
                                   b.start_s))
            a = b
        for sp in spans:
            i = sp.phrase.find("先")
            if i > 0:
                out += _first(ctx, spans, sp, text)
        out += _sui(ctx, spans, text)
    return out


def _first(ctx: Ctx, spans: list[StepSpan], sp: StepSpan, text: str) -> list[Finding]:
    """X先V: among the steps that act this phrase, those of the people named before 先 begin first."""
    seg = [s for s in ctx.segments_of(sp, sp.who[0])]
    # the others who do the same act of this phrase (not his own earlier act in it: 主人以賓揖先入 — the 揖)
    # (not the same sub-step of a form for another pair: 勝者先升 is each pair's own — tests/test_forfeit_steps.py)
    same = [o for o in spans if o.offset == sp.offset and o.phrase == sp.phrase and o is not sp
            and not set(o.who) & set(sp.who) and o.do == sp.do and o.index != sp.index]
    if not same or not seg:
        return []
    names = [n for n in ph.names_in(sp.section, ctx.chapter) if sp.offset <= n.start < sp.offset + len(sp.phrase)]
    head = next((n for n in names if ctx.means(n.word, sp.who[0], sp.section, sp.start_s)), None)
    if head is not None and head.start > 0 and text[head.start - 1] in "以與及":
        return []               # 主人以賓…先入: the 賓 goes with him; the 先 is the 主人's
    if head is not None and head.word in ctx.groups:
        # X先V puts the group X before the others, not one of X before another (工四人二瑟瑟先: the two with
        # the 瑟 go first, neither before the other)
        same = [o for o in same if not ctx.means(head.word, o.who[0], o.section, o.start_s)]
        if not same:
            return []
    mine = min(t0 for _, t0, _ in sp.acts) if sp.acts else sp.start_s
    theirs = min(min(t0 for _, t0, _ in o.acts) if o.acts else o.start_s for o in same)
    if mine <= theirs + 0.05:
        return []
    return [Finding("order", sp.section, sp.index, sp.phrase, "先", f"{'/'.join(sp.who)} first",
                    f"begins at {mine:.1f} s, after the other at {theirs:.1f} s", sp.who[0], mine)]


def _sui(ctx: Ctx, spans: list[StepSpan], text: str) -> list[Finding]:
    out = []
    last: dict[str, float] = {}
    prev_phrase: dict[str, tuple[int, str]] = {}
    for sp in spans:
        for aid, t0, t1 in sp.acts:
            segs = ctx.segments_of(sp, aid)
            starts_sui = any(s.text.startswith("遂") for s in segs) and sp.phrase.startswith("遂")
            # 遂授矢 acted for each of six archers in turn: the 遂 joins it to the act before, once
            again = prev_phrase.get(aid) == (sp.offset, sp.phrase)
            prev_phrase[aid] = (sp.offset, sp.phrase)
            if starts_sui and not again and aid in last and t0 - last[aid] > GAP_S:
                # one who must first walk to where he acts (a walk, or a step with an `at`) goes on
                # when he sets out
                walk = sp.do in ("walk", "ascend", "descend", "enter", "exit") or ctx.step_of(sp).at is not None
                start = sp.start_s if walk else t0
                if start - last[aid] > GAP_S:
                    out.append(Finding("order", sp.section, sp.index, sp.phrase, "遂",
                                       f"{aid} going straight on from his previous act (≤ {GAP_S:.0f} s)",
                                       f"{start - last[aid]:.1f} s later", aid, start))
            last[aid] = t1
    return out
