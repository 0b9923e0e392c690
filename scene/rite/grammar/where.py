"""Where a clause puts a man: at a place of the layout (于X, 適X, 阼階前, 堂西, 賓之席前 …: :func:`at_place`), on a
side of it (阼階東, 階下之東南), by another man (立于司射之南, 拜送于主人之西: :func:`beside`), level with a 序
(復位當西序: :func:`level_with`), or, for the 工, on their mat when the clause names no place (:func:`on_seat`) —
read from his track at his act.  Evaluated by :mod:`.coverage` (family ``places``)."""
from __future__ import annotations

import numpy as np

from .context import Ctx
from .placewords import MAT_FRONT
from .predicates import Span

#: places where many stand at once, in a row (三耦…適堂西: six men and the 眾賓 behind them) — 尺
AT_PLACE = {"堂西": 30.0, "堂東": 30.0, "西方": 30.0}


#: the compass in plan (x east, y north: the 堂 to the north, the 門 to the south)
COMPASS = {"東": np.array([1.0, 0.0]), "西": np.array([-1.0, 0.0]), "北": np.array([0.0, 1.0]),
           "南": np.array([0.0, -1.0])}
SIDE_SLACK = 1.0         # 尺 short of a place's line that still counts as its side


#: 尺 more for a man of a row the clause ranks (西面北上: the 工's row of four, the last 9 尺 down it)
ROW_SLACK_CHI = 10.0


def at_place(ctx: Ctx, word: str, after: str, w: Span, row: bool = False, way: bool = False) -> tuple[bool, str]:
    """He is at the place the clause names (within the motion rule's reach of it: 5 尺 at a 階上, 7 尺 most
    places, 14 at the 堂西 or the 侯) at some moment of his act in the steps that cite it; a side of it (X之東,
    洗南, 西階前) is farther: 8 尺 more; in a row the clause ranks (北上, 東上), ``ROW_SLACK_CHI`` more.
    ``way``: a place met on the way (交于階前: the two cross there), at some moment of his steps, walk included."""
    from .motion import NEAR, NEAR_DEFAULT
    ps = [p for pid in ctx.words.places[word] if (p := ctx.place(pid)) is not None]
    if not ps:
        return True, "no such place in this layout"
    if word.endswith(MAT_FRONT):
        after = ""          # (賓之席前西北面: the word is the side of the mat; 西北面 is how he faces)
    # a side of it (X之東, 洗南, 西階前) — but not a facing that follows the place (西階上北面)
    side = bool(after) and (after[0] in "之前下外當" or (after[0] in "東西南北" and after[1:2] != "面"))
    r = AT_PLACE.get(word, NEAR.get(word, NEAR_DEFAULT)) + (8.0 if side else 0.0) + (ROW_SLACK_CHI if row else 0.0)
    # the side named (阼階東, 西階之西, 洗南): on that side of it (not more than a 尺 short of its line; not
    # a facing, 西階上北面, nor the way arrows lie, 委于楅北括, nor a rank, 東上)
    ds = _sides(after)
    best, wrong = 1e9, 0.0
    for sp in w.spans:
        a, b = (sp.start_s, sp.end_s) if way else sp.act_of(w.aid) or (sp.start_s, sp.end_s)
        _, xyz = ctx.path(w.aid, a, b, 0.25)
        for p in ps:
            dist = np.hypot(xyz[:, 0] - p[0], xyz[:, 1] - p[1])
            k = int(np.argmin(dist))
            if dist[k] < best:
                best = float(dist[k])
                wrong = max((-float(np.dot(xyz[k, :2] - p[:2], COMPASS[d])) for d in ds), default=0.0)
    if wrong > SIDE_SLACK:
        return False, f"{wrong:.1f} 尺 on the wrong side of the {word} (the text: {word}{after})"
    return best <= r, f"{best:.1f} 尺 from the {word} at the nearest (within {r:.0f})"


def _sides(after: str) -> str:
    """The side of a place the words after it name (阼階東, 西階之西, 阼階下之東南: 東 and 南) — not a facing
    (西階上北面, 阼階前西面), the way arrows lie (委于楅北括) nor a rank (東上)."""
    if after[:1] in "下前" and after[1:2] == "之":
        after = after[1:]               # (階下之東南: the side of the foot of the stairs)
    if after[:1] == "之":
        after = after[1:]
    ds = ""
    for c in after[:2]:
        if c not in COMPASS:
            break
        ds += c
    nxt = after[len(ds):len(ds) + 1]
    if ds and nxt == "面":
        return ds[:-1]                  # (西階之東北面: 之東, then 北面)
    return "" if ds and nxt in ("括", "上") else ds


#: 尺: by a man (立于司射之南, 立于大夫之南少退): within this of him; of a group's row (三耦之北), of its nearest
BESIDE_CHI = 8.0
BESIDE_ROW_CHI = 20.0         # (三耦進立于司馬之西南: a file of three pairs, the last 18 尺 from him)
#: seconds: where the man he stands by stands — a place he stood at (not walking) since this long before
#: (司馬反位立于司射之南 as the 司射 goes forward: the 司射's 位 he has just left) until a moment after (one
#: still arriving: 主人降席立于賓東 as the 賓 comes to the 阼階上)
BESIDE_BEFORE_S, BESIDE_AFTER_S = 60.0, 10.0


def beside(ctx: Ctx, people: set[str], w: Span, row: bool = False, ranked: bool = False) -> tuple[bool, str]:
    """Where his act ends he stands by one of these men: within ``BESIDE_CHI`` (of a group, its row:
    ``BESIDE_ROW_CHI``; so too a group by one man, ``row``) of where that man stands about then (his track);
    in a row the clause ranks (立于大夫之南…北上: a file of eight) ``ROW_SLACK_CHI`` more, as :func:`at_place`."""
    best = 1e9
    for sp in w.spans:
        end = (sp.act_of(w.aid) or (sp.start_s, sp.end_s))[1]
        here = ctx.pos(w.aid, end)[:2]
        for o in people:
            ts, xyz = ctx.path(o, end - BESIDE_BEFORE_S, end + BESIDE_AFTER_S, 0.5)
            still = np.array([ctx.posture(o, float(t)) != "walk" for t in ts])
            if still.any():
                best = min(best, float(np.min(np.hypot(xyz[still, 0] - here[0], xyz[still, 1] - here[1]))))
    r = (BESIDE_CHI if len(people) == 1 and not row else BESIDE_ROW_CHI) + (ROW_SLACK_CHI if ranked else 0.0)
    return best <= r, f"{best:.1f} 尺 from {', '.join(sorted(people))} at the nearest (within {r:.0f})"


#: 當X where X is a wall running north–south (the 序): level with its line, east–west — 尺
LEVEL_CHI = 4.0
LEVEL_WORDS = ("西序", "東序")


def level_word(text: str, k: int, places: dict[str, tuple[str, ...]]) -> str | None:
    """The 序 the clause stands a man level with at ``text[k]`` (the 當 of 復位當西序, 立當西序, 立于西階西當西序) —
    not where a thing is set (設中南當楅西當西序: the 中's place)."""
    if text[k:k + 1] != "當" or "設" in text[:k] or not (k and text[k - 1] in "位立東西南北"):
        return None
    return next((x for x in LEVEL_WORDS if text.startswith(x, k + 1) and x in places), None)


def level_with(ctx: Ctx, word: str, w: Span) -> tuple[bool, str]:
    """At some moment of his act in the steps that cite it he is level with the 序 the clause names: his x
    within ``LEVEL_CHI`` of its line (in the court or on the 堂; how far south is another word's)."""
    ps = [p for pid in ctx.words.places[word] if (p := ctx.place(pid)) is not None]
    if not ps:
        return True, "no such place in this layout"
    best = 1e9
    for sp in w.spans:
        a, b = sp.act_of(w.aid) or (sp.start_s, sp.end_s)
        _, xyz = ctx.path(w.aid, a, b, 0.25)
        best = min(best, min(float(np.min(np.abs(xyz[:, 0] - p[0]))) for p in ps))
    return best <= LEVEL_CHI, f"{best:.1f} 尺 east or west of the {word}'s line at the nearest (within {LEVEL_CHI:.0f})"


#: 尺 off the edge of his mat that a man seated on it may be (the 工's four along a mat of 10 尺)
SEAT_SLACK_CHI = 3.0
#: the words that move a man: a clause with one of them takes him elsewhere (:data:`.mutants.MOTION`)
MOVES = "進適反退升降入出復還"


def seat_of(ctx: Ctx, subject: str, text: str, placed: set[str]) -> str | None:
    """The mat the clause's people act on, when the words file names one for its subject as a place they are at
    (工席 for the 工: 設席于堂廉, 鄭 為工布席也; not the 賓席, a mat named as a thing, ``not_at``) and the clause
    names no place of its own and no move (工歌, 工告于樂正): their 位."""
    word = subject + "席"
    if (not subject or word not in ctx.words.places or word in ctx.words.not_at or placed
            or any(c in MOVES for c in text)):     # (賓席, 主人席: mats named as things, not_at — not a 位)
        return None
    return word


def on_seat(ctx: Ctx, word: str, w: Span) -> tuple[bool, str]:
    """Up on the 堂 at his act, he is on the mat (within ``SEAT_SLACK_CHI`` of its edge) at some moment of it; down
    in the court (遷樂于下, chapter 5) the mat is not his place."""
    mats = [ctx.lay[pid] for pid in ctx.words.places[word] if pid in ctx.lay]
    best, up = 1e9, False
    for sp in w.spans:
        a, b = sp.act_of(w.aid) or (sp.start_s, sp.end_s)
        _, xyz = ctx.path(w.aid, a, b, 0.25)
        on = xyz[:, 2] > ctx.hall.height - 0.5
        up = up or bool(on.any())
        for m in mats:
            hx, hy = (m.size_chi[0] / 2, m.size_chi[1] / 2) if m.size_chi else (0.0, 0.0)
            gap = np.hypot(np.maximum(np.abs(xyz[on, 0] - m.xyz_chi[0]) - hx, 0),
                           np.maximum(np.abs(xyz[on, 1] - m.xyz_chi[1]) - hy, 0))
            if len(gap):
                best = min(best, float(gap.min()))
    if not up:
        return True, "not on the 堂"
    return best <= SEAT_SLACK_CHI, f"{best:.1f} 尺 off the {word} at the nearest (within {SEAT_SLACK_CHI:.0f})"
