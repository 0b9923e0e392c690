"""Posture words: 坐 (kneel: 坐X = X done kneeling), 立 (立飲, 立卒觶: standing), 拜 / 不拜, 揖, 興.

坐 governs the act its next act-character names (坐奠爵 → the 奠; 坐左執爵 → the 執); a step that does
that act must show its actor kneeling (posture ``sit``) while he does it.  興 after a kneeling act means
he is up before his next act.
"""
from __future__ import annotations

from ..state import StepSpan
from . import phrase as ph
from .context import Ctx, Finding
from .words import KNEEL_ACTS, KNEEL_SKIP, NOT_KNEEL_BEFORE, VERB_CHARS

BOW_VERBS = ("bow", "bow_twice", "answer_bow", "answer_bow_twice")


def _governed(text: str, i: int, end: int) -> str | None:
    """The act-character a 坐 at text[i] governs (None: 坐 alone — he sits down)."""
    j = i + 1
    while j < end and text[j] in KNEEL_SKIP:
        j += 1
    return text[j] if j < end and text[j] in KNEEL_ACTS else None


def kneel_required(ctx: Ctx, span: StepSpan, aid: str) -> str | None:
    """The 坐-word of the step's phrase that governs this step's act, if any."""
    text = ctx.text(span.section)
    for seg in ctx.own_segments(span, aid):
        for i in range(seg.start, seg.end):
            if text[i] != "坐" or text[max(0, i - 1)] in NOT_KNEEL_BEFORE:
                continue
            c = _governed(text, i, min(len(text), seg.end + 3))
            if c is None and span.do == "sit":
                return "坐"
            if c is not None and span.do in KNEEL_ACTS[c]:
                return "坐" + text[i + 1:text.index(c, i) + 1]
            # 坐X遂Y (坐祭遂飲卒觶興): what 遂 joins to the kneeling act is done kneeling too, up to 興 / 立
            if c is not None:
                j = text.index(c, i) + 1
                rest = text[j:min(len(text), seg.end + 3)]
                rest = rest[:min([rest.find(w) for w in "興立" if w in rest] or [len(rest)])]
                if "遂" in rest:
                    for d in rest[rest.index("遂") + 1:]:
                        if d in KNEEL_ACTS and span.do in KNEEL_ACTS[d]:
                            return "坐" + text[i + 1:j] + "…遂…" + d
    return None


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for span in ctx.rite.spans:
        for aid in span.who:
            act = span.act_of(aid)
            if act is None:
                continue
            t0, t1 = act
            mid = (t0 + t1) / 2
            word = kneel_required(ctx, span, aid)
            if word:
                ps = [p for _, p in ctx.postures(aid, t0, t1)] if span.do in KNEEL_FORMS else [ctx.posture(aid, mid)]
                if "sit" not in ps:
                    out.append(Finding("posture", span.section, span.index, span.phrase, word,
                                       f"{aid} kneeling (sit) while he does it",
                                       f"{'/'.join(sorted(set(ps)))} at {mid:.1f} s", aid, mid))
                continue
            segs = "".join(s.text for s in ctx.segments_of(span, aid))
            if span.do == "drink" and ("立飲" in segs or "立卒" in segs):
                if ctx.posture(aid, mid) == "sit":
                    out.append(Finding("posture", span.section, span.index, span.phrase, "立",
                                       f"{aid} standing while he drinks", f"sit at {mid:.1f} s", aid, mid))
            if span.do in BOW_VERBS and "拜" in segs.replace("不拜", ""):
                if ctx.posture(aid, mid) != "bow":
                    out.append(Finding("posture", span.section, span.index, span.phrase, "拜",
                                       f"{aid} bowing (拜)", f"{ctx.posture(aid, mid)} at {mid:.1f} s", aid, mid))
            if span.do in BOW_VERBS and "不拜" in segs and "拜" not in segs.replace("不拜", ""):
                out.append(Finding("posture", span.section, span.index, span.phrase, "不拜",
                                   f"{aid} not bowing", f"a bow step ({span.do})", aid, mid))
            if span.do == "salute" and "揖" in segs and ctx.posture(aid, mid) != "salute":
                out.append(Finding("posture", span.section, span.index, span.phrase, "揖",
                                   f"{aid} saluting (揖)", f"{ctx.posture(aid, mid)} at {mid:.1f} s", aid, mid))
    out += _rise(ctx)
    out += _kneel_through(ctx)
    out += _bow_empty_handed(ctx)
    return out


#: characters that take a kneeling man somewhere: a 坐 does not carry past them (he must rise to go)
MOVE_CHARS = "適進退升降出入就還"


def _kneel_span(ctx: Ctx, span: StepSpan, aid: str) -> tuple[int, int] | None:
    """(i, k): the 坐 of the step's own words at passage offset i and the 興 / 立 that ends its kneeling at k
    (坐實八筭于中橫委其餘于中西興: 橫委 is done kneeling too); None when no 興 comes before he moves or
    another subject takes over."""
    text = ctx.text(span.section)
    own = ctx.own_segments(span, aid)
    i = next((j for sg in own for j in range(sg.start, sg.end)
              if text[j] == "坐" and text[max(0, j - 1)] not in NOT_KNEEL_BEFORE), None)
    if i is None:
        return None
    for sg in ph.segments(span.section, i + 1, text[i + 1:], ctx.chapter):
        if sg.subject is not None and sg.start > span.offset + len(span.phrase) - 1 \
                and not ctx.means(sg.subject, aid, span.section, span.start_s):
            return None
        for j in range(sg.start, sg.end):
            if text[j] in "興立" and text[j - 1] != "不":
                return i, j
            if text[j] in MOVE_CHARS or text[j] == "坐" and j > i:
                return None
    return None


def _kneel_through(ctx: Ctx) -> list[Finding]:
    """坐X Y … 興: every act of his that the text puts between the 坐 and the 興 is done kneeling — he
    does not stand up in between (a kneeling 拜 counts: he is not up on his feet)."""
    out = []
    for n, spans in ctx.spans_by_section.items():
        for a in spans:
            for aid in a.who:
                act_a = a.act_of(aid)
                if act_a is None or not kneel_required(ctx, a, aid):
                    continue
                ik = _kneel_span(ctx, a, aid)
                if ik is None:
                    continue
                i, k = ik
                sits = [t for t, p in ctx.postures(aid, *act_a) if p == "sit"]
                if not sits:
                    continue          # the posture check above has reported it
                for b in spans:
                    act_b = b.act_of(aid)
                    if b is a or act_b is None or not (i < b.offset and b.offset + len(b.phrase) <= k) \
                            or b.do in ("walk", "ascend", "descend", "rise", "stand") or act_b[1] <= sits[0]:
                        continue
                    up = [(t, p) for t, p in ctx.postures(aid, sits[0], act_b[1] - 0.05)[1:] if p in ("stand", "walk")]
                    if up:
                        t, p = up[0]
                        out.append(Finding("posture", n, b.index, b.phrase, "坐…興",
                                           f"{aid} still kneeling (from the 坐 of step {a.index + 1} to the 興)",
                                           f"{p} at {t:.1f} s", aid, t))
    return out


#: the cups: set down for a bow (坐奠爵拜 … 執爵興), never held through it
CUPS = "爵觶觚"


def _bow_empty_handed(ctx: Ctx) -> list[Finding]:
    """拜: nobody bows with a cup in his hands. Every time the 經 writes a bow out it is 坐奠爵(觶)拜 …
    執爵(觶)興 (§5, §6, §7, §45, §46); 卒爵拜 abbreviates it (記 以爵拜, 鄭 拜既爵: the bow after the cup)."""
    out = []
    for aid, k in ctx.index.items():
        ts, vs = ctx._posture[k]
        mine = [(sp, act) for sp in ctx.rite.spans if aid in sp.who and (act := sp.act_of(aid)) is not None]
        for t, v in zip(ts, vs):
            if v != "bow":
                continue
            held = ctx.holding(aid, float(t) + 0.05)
            cup = next((c for c in CUPS if c in held), None)
            if cup is None:
                continue
            sp = next((s for s, act in mine if act[0] <= t + 0.05 <= act[1] + 0.05), None)
            out.append(Finding("posture", sp.section if sp else ctx.rite.stage_at(float(t)).n,
                               sp.index if sp else None, sp.phrase if sp else "", "奠" + cup + "拜",
                               f"{aid} bowing with no cup in his hands (坐奠{cup}拜 … 執{cup}興)",
                               f"a bow holding {held} at {t:.1f} s", aid, float(t)))
    return out


#: forms that act several things: a 坐 they govern must show kneeling at some moment of the form
KNEEL_FORMS = ("pick_arrows", "collect_arrows", "count", "shoot")


def _act(span: StepSpan, aid: str) -> tuple[float, float]:
    """His act in a step of his (``_rise`` keeps only the steps he acts in)."""
    act = span.act_of(aid)
    assert act is not None
    return act


def _rise(ctx: Ctx) -> list[Finding]:
    """坐X…興: after an act done kneeling, if the text says 興 before his next act, he is up for it."""
    out = []
    by_actor: dict[str, list[StepSpan]] = {}
    for span in ctx.rite.spans:
        for aid in span.who:
            if span.act_of(aid):
                by_actor.setdefault(aid, []).append(span)
    for aid, spans in by_actor.items():
        spans.sort(key=lambda s: _act(s, aid)[0])
        for a, b in zip(spans, spans[1:]):
            if a.section != b.section or b.offset < a.offset:
                continue
            ta0, ta1 = _act(a, aid)
            tb0, _ = _act(b, aid)
            if ctx.posture(aid, (ta0 + ta1) / 2) != "sit" or kneel_required(ctx, b, aid):
                continue
            text = ctx.text(a.section)
            chars = VERB_CHARS.get(a.do, "")
            a_end = a.offset + len(a.phrase)
            j = next((i for i in range(a.offset, a_end) if text[i] in chars), a.offset)
            b_end = b.offset + len(b.phrase)
            if b_end <= j:
                continue
            mine = [sg for sg in ph.segments(a.section, j, text[j:b_end], ctx.chapter)
                    if sg.subject is None or ctx.means(sg.subject, aid, a.section, tb0)]
            if not any(text[i] == "興" and text[i - 1] != "不" for sg in mine for i in range(sg.start, sg.end)):
                continue            # (工不興, 不興取奠觶: a 興 the text denies asks no rise)
            probe = (b.start_s + tb0) / 2 if b.do in ("walk", "ascend", "descend") else tb0 + 0.05
            if b.do in ("rise",) or ctx.posture(aid, probe) != "sit":
                continue
            out.append(Finding("posture", b.section, b.index, b.phrase, "興",
                               f"{aid} up (stand) after the kneeling act of step {a.index + 1}",
                               f"still sit at {tb0:.1f} s", aid, tb0))
    return out
