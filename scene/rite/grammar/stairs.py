"""Stair and floor words: 升 (he ends on the 堂), 降 (he ends on the ground; 降席 is leaving a mat), 升/降 自西階
/ 自阼階 / 由其階 (by those stairs), 盡階不升堂 (to the top 等 and not onto the 堂).

(中等, 升三等, 當階, 及階, 當物, 及物 belong to the standard forms of the pair and are read in ``forms``.)
"""
from __future__ import annotations

import numpy as np

from .context import Ctx, Finding

#: 由其階: one's own stairs — the 主人 (and the officers of his house who act as he does) 阼階, the rest 西階
OWN_EAST = ("zhuren",)
_NOT_ASCENT = ("升射", "升堂者", "升者", "升歌")    # nouns of people going up, and 升歌 (the singers' part)


def stairs_used(ctx: Ctx, aid: str, t0: float, t1: float) -> set[str]:
    """Which stairs he set foot on between t0 and t1 ("west" / "east")."""
    h = ctx.hall
    _, xyz = ctx.path(aid, t0, t1, 0.1)
    on = (xyz[:, 1] > -h.steps * h.tread - 0.3) & (xyz[:, 1] < 0.3) & (xyz[:, 2] > 0.05) & \
         (xyz[:, 2] < h.height - 0.05)
    out = set()
    for x in xyz[on, 0]:
        if abs(abs(x) - h.stairs_x) <= h.stair_width / 2 + 1.0:
            out.add("west" if x < 0 else "east")
    return out


def _level(ctx: Ctx, aid: str, t: float) -> str:
    z = ctx.pos(aid, t)[2]
    return "tang" if z >= ctx.hall.height - 0.05 else ("ground" if z <= 0.05 else "stairs")


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for span in ctx.rite.spans:
        if span.do in ("approach", "retire", "forfeit", "count"):
            continue           # forms: their own rules
        for aid in span.who:
            segs = ctx.segments_of(span, aid)
            words = "".join(s.text for s in segs)
            if not words:
                continue
            before = ctx.step_of(span).as_before
            if before:
                words += before[1]           # 如初: the earlier words it repeats hold here too
            t0, t1 = span.start_s, span.end_s
            if any(w in words for w in ("自西階", "自阼階", "由其階")):
                want = "west" if "自西階" in words else "east" if "自阼階" in words else \
                    ("east" if aid in OWN_EAST else "west")
                used = stairs_used(ctx, aid, t0, t1)
                word = next(w for w in ("自西階", "自阼階", "由其階") if w in words)
                if used and used != {want}:
                    out.append(Finding("stairs", span.section, span.index, span.phrase, word,
                                       f"{aid} by the {want} stairs", f"the {'/'.join(sorted(used))} stairs",
                                       aid, t0))
            ascent = words
            for w in _NOT_ASCENT:
                ascent = ascent.replace(w, "")
            end_level = _level(ctx, aid, t1)
            if "盡階" in words and "不升堂" in words:
                zmax = float(ctx.path(aid, t0, t1)[1][:, 2].max())
                top = ctx.hall.height - ctx.hall.height / ctx.hall.steps
                if not (top - 0.1 <= zmax < ctx.hall.height - 0.05):
                    out.append(Finding("stairs", span.section, span.index, span.phrase, "盡階不升堂",
                                       f"{aid} up to the top 等 ({top:.1f} 尺) and not onto the 堂",
                                       f"highest {zmax:.2f} 尺", aid, t0))
                continue
            if span.do in ("ascend",) and "升" in ascent and end_level != "tang":
                out.append(Finding("stairs", span.section, span.index, span.phrase, "升",
                                   f"{aid} on the 堂 at the end", f"on the {end_level} at {t1:.1f} s", aid, t1))
            if span.do in ("descend",) and "降" in words.replace("降席", "") and end_level != "ground":
                out.append(Finding("stairs", span.section, span.index, span.phrase, "降",
                                   f"{aid} on the ground at the end", f"on the {end_level} at {t1:.1f} s", aid, t1))
    return out + _east_is_the_hosts(ctx)


def _east_is_the_hosts(ctx: Ctx) -> list[Finding]:
    """A step whose own words put him 西階上 (舉觶者…升實之西階上北面, 立于西階上) does not take him up the
    阼階, the 主人's stairs: he comes up by the 西階 whose head he stands at.  (The 主人's servers bringing
    the 薦 by the 阼階 are the data's reading of 主黨, cast.toml; no word places them.)"""
    out = []
    for span in ctx.rite.spans:
        for aid, _t0, t1 in span.acts:
            if aid in OWN_EAST:
                continue
            words = "".join(s.text for s in ctx.own_segments(span, aid))
            if "西階上" not in words or "阼階" in words:
                continue
            if "east" in stairs_used(ctx, aid, span.start_s, max(span.end_s, t1)):
                out.append(Finding("stairs", span.section, span.index, span.phrase, "西階上",
                                   f"{aid} up by the 西階 to its head, not by the 主人's 阼階",
                                   "the east stairs", aid, span.start_s))
    return out


def tread_index(ctx: Ctx, z: np.ndarray) -> np.ndarray:
    """Which 等 a height is on (0 = the ground, steps = the 堂)."""
    h = ctx.hall
    index: np.ndarray = np.rint(np.asarray(z) / (h.height / h.steps)).astype(int)
    return index
