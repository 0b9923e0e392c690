"""Group words: 皆 (every member of the group named does it), 辯 (each of them in turn), 北上 / 東上 / 西上 / 南上
(the senior at that end of a file)."""
from __future__ import annotations

from collections.abc import Sequence

from ..state import StepSpan
from . import phrase as ph
from .context import Ctx, Finding

#: the names a 皆 is checked for (people the text can only mean one way) are the chapter's: its cast file's
#: ``every`` (``Choreography.every``)


def _rank(ctx: Ctx, aid: str) -> int:
    """Seniority within a group: the cast's order."""
    return list(ctx.chor.actors).index(aid)


def _members(ctx: Ctx, name: str, section: int, t: float, at: int | None = None) -> set[str]:
    return {a for a in ctx.rite.actor_ids if ctx.visible(a, t) and ctx.means(name, a, section, t, at)}


#: what joins two names of one list (三耦及眾賓, 賓與大夫, 賓、主人); names may also follow each other (賓主人大夫)
JOINS = "及與、"
#: before a list of names, a word that makes the list what is acted on, not who acts
OBJECT_MARKS = "于於"


def _gathered(names: Sequence[ph.Name], text: str, i: int) -> list[ph.Name] | None:
    """The names a 皆 at ``i`` gathers: the list that ends just before it (a few words may come between:
    耦少退皆), each name joined to the next by nothing or by 及 / 與 / 、.  A list preceded by 于 / 於 is the
    object of the act before it, up to the first two names joined by nothing: 使二人舉觶于賓與大夫舉觶者皆 —
    the 賓 and the 大夫 receive, the 舉觶者 act.  None when the list is commanded (命三耦及眾賓皆袒決: what is
    commanded is acted by its own phrase later)."""
    real = [nm for nm in names if nm.end > nm.start]
    # a subject the data says the text changes to unnamed (grammar.toml [[subject]], a name of no width) between
    # the list and the 皆 is the one it gathers: 賓介席末答拜皆坐祭 — the 二人 kneel, not the 賓 and 介
    last = [nm for nm in names if nm.end <= i and i - nm.end <= 4]
    if last and last[-1].end == last[-1].start:
        return [last[-1]]
    last = [nm for nm in real if nm.end <= i and i - nm.end <= 4]
    if not last:
        return []
    chain = [last[-1]]
    while True:
        head = chain[0].start
        prev = next((nm for nm in reversed(real) if nm.end == head
                     or (nm.end == head - 1 and text[head - 1] in JOINS)), None)
        if prev is None:
            break
        chain.insert(0, prev)
    if chain[0].start > 0 and text[chain[0].start - 1] == "命":
        return None
    if chain[0].start > 0 and text[chain[0].start - 1] in OBJECT_MARKS:
        cut = next((k for k in range(1, len(chain)) if chain[k].start == chain[k - 1].end), None)
        chain = chain[cut:] if cut is not None else []
    return chain


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for n, spans in ctx.spans_by_section.items():
        text = ctx.text(n)
        names = ph.names_in(n, ctx.chapter)
        covered: dict[int, set[str]] = {}
        for sp in spans:
            for i in range(sp.offset, sp.offset + len(sp.phrase)):
                covered.setdefault(i, set()).update(sp.who)
        for i, c in enumerate(text):
            if c != "皆":
                continue
            gathered = _gathered(names, text, i)
            if not gathered:
                continue
            group = [nm.word for nm in gathered]
            if not all(g in ctx.chor.every for g in group) or "若" in text[max(0, i - 8):i]:
                continue            # 勝者 / 射者 change with the round; 若皆… is a condition, not a statement
            sps = [sp for sp in spans if sp.offset <= i < sp.offset + len(sp.phrase)]
            if not sps:
                continue                    # acts not acted at all are the order rule's
            t = min(sp.start_s for sp in sps)
            got = set().union(*(set(sp.who) for sp in sps)) | {ctx.step_of(sp).to for sp in sps if ctx.step_of(sp).to}
            want: set[str] = set()
            for g, nm in zip(group, gathered):
                if g == "耦" and len(group) == 1:
                    # a bare 耦 … 皆 is the pair the passage is about (大夫…就其耦…耦少退皆釋弓: the 大夫 and his 耦)
                    want |= {a for p in ctx.pairs.get(n, []) if set(p) & got for a in p}
                else:
                    want |= _members(ctx, g, n, t, nm.start)
            missing = want - got
            if missing and len(want) > 1:
                out.append(Finding("group", n, sps[0].index, text[gathered[0].start:i + 3], "皆",
                                   f"every one of {'、'.join(group)} ({len(want)}) acting",
                                   f"{len(missing)} not: {', '.join(sorted(missing))}", "", t))
        out += _files(ctx, n, spans, text)
    return out


def _files(ctx: Ctx, n: int, spans: list[StepSpan], text: str) -> list[Finding]:
    """北上 / 東上: the people who take their places by the phrase stand with the senior at that end."""
    out = []
    for word, axis, sign in (("北上", 1, 1), ("東上", 0, 1), ("西上", 0, -1), ("南上", 1, -1)):
        start = 0
        while (i := text.find(word, start)) >= 0:
            start = i + 1
            sps = [sp for sp in spans if sp.offset <= i < sp.offset + len(sp.phrase)
                   and sp.do in ("walk", "enter", "wait", "stand", "sit")]
            people = {}
            for sp in sps:
                for a in sp.who:
                    # only those the words name (眾賓…北上: not the 司正 whose step cites the phrase)
                    if any(sg.start <= i < sg.end for sg in ctx.segments_of(sp, a)):
                        people[a] = ctx.pos(a, sp.end_s)
            if len(people) < 2:
                continue
            pairs = ctx.pairs.get(n) or ctx.all_pairs
            shooting = [a for p in pairs for a in p]          # the order they shoot in: pair by pair, 上射 first
            if sum(a in shooting for a in people) * 2 > len(people):
                # a file of pairs (射位北上): the first pair at the head; one who has no 耦 under this reading
                # (the 大夫's 耦 without the 大夫) stands where his cast order puts him among them
                cast = list(ctx.chor.actors)

                def rank(a: str) -> float:
                    if a in shooting:
                        return float(shooting.index(a))
                    nxt = next((b for b in cast[cast.index(a) + 1:] if b in shooting), None)
                    return shooting.index(nxt) - 0.5 if nxt else float(len(shooting))
                order = sorted(people, key=rank)
            else:
                order = sorted(people, key=lambda a: _rank(ctx, a))
            vals = [sign * people[a][axis] for a in order]
            bad = [(a, b) for (a, b), (va, vb) in zip(zip(order, order[1:]), zip(vals, vals[1:])) if va < vb - 0.3]
            if bad:
                a, b = bad[0]
                out.append(Finding("group", n, sps[0].index, text[max(0, i - 6):i + 2], word,
                                   f"the senior at the {'north' if word == '北上' else 'east' if word == '東上' else 'west' if word == '西上' else 'south'} end: "
                                   f"{a} beyond {b}", f"{a} at {people[a][axis]:.1f}, {b} at {people[b][axis]:.1f} 尺",
                                   a, None))
    return out

