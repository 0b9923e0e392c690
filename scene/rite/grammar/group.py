"""Group words: 皆 (every member of the group named does it), 辯 (each of them in turn), 北上 / 東上 / 西上 / 南上
(the senior at that end of a file)."""
from __future__ import annotations

from ...text import passage
from . import phrase as ph
from .context import Ctx, Finding

#: the names a 皆 is checked for: people the text can only mean one way
GROUP_NAMES = ("三耦", "眾賓", "眾賓之長", "二人", "舉觶者", "工", "笙", "弟子", "賓", "主人", "大夫", "司射",
               "司馬", "獲者", "釋獲者", "上射", "下射", "耦")


def _rank(ctx: Ctx, aid: str) -> int:
    """Seniority within a group: the cast's order."""
    return list(ctx.chor.actors).index(aid)


def _members(ctx: Ctx, name: str, section: int, t: float) -> set[str]:
    return {a for a in ctx.rite.actor_ids if ctx.visible(a, t) and ctx.means(name, a, section, t)}


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for n, spans in ctx.spans_by_section.items():
        text = passage(n).text
        names = ph.names_in(n)
        covered: dict[int, set[str]] = {}
        for sp in spans:
            for i in range(sp.offset, sp.offset + len(sp.phrase)):
                covered.setdefault(i, set()).update(sp.who)
        for i, c in enumerate(text):
            if c != "皆":
                continue
            # the group: the names just before 皆 (賓與大夫皆, 三耦皆, 眾賓皆 …), back to the previous verb
            before = [nm for nm in names if nm.end <= i and i - nm.end <= 4]
            if not before:
                continue
            group = [nm.word for nm in before if i - nm.end <= 4 and nm.start >= before[-1].start - 4]
            if not all(g in GROUP_NAMES for g in group) or "若" in text[max(0, i - 8):i]:
                continue            # 勝者 / 射者 change with the round; 若皆… is a condition, not a statement
            sps = [sp for sp in spans if sp.offset <= i < sp.offset + len(sp.phrase)]
            if not sps:
                continue                    # acts not acted at all are the order rule's
            t = min(sp.start_s for sp in sps)
            want: set[str] = set()
            for g in group:
                want |= _members(ctx, g, n, t)
            got = set().union(*(set(sp.who) for sp in sps)) | {ctx.step_of(sp).to for sp in sps if ctx.step_of(sp).to}
            missing = want - got
            if missing and len(want) > 1:
                out.append(Finding("group", n, sps[0].index, text[before[0].start:i + 3], "皆",
                                   f"every one of {'、'.join(group)} ({len(want)}) acting",
                                   f"{len(missing)} not: {', '.join(sorted(missing))}", "", t))
        out += _files(ctx, n, spans, text)
    return out


def _files(ctx: Ctx, n: int, spans, text: str) -> list[Finding]:
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
                    people[a] = ctx.pos(a, sp.end_s)
            if len(people) < 2:
                continue
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

