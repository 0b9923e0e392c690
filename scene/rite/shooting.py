"""Shooting (射): who shoots when, where each arrow lands, and how the hits are scored.

The rules implemented, with the passages of the 經 (``seeds/xiangsheli_jing.txt``):

* 拾發以將乘矢 (§21 上射既發挾弓矢而后下射射拾發以將乘矢) — each archer of a pair
  (耦) shoots 乘矢, four arrows, the 上射 and the 下射 alternating, 上射 first:
  U1 L1 U2 L2 U3 L3 U4 L4.
* 獲 — an arrow is a hit when it strikes the 中 of the 侯 (the 10-尺 square
  centre panel, ``target.centre`` in the layout).  鄭 on §26 不貫不釋 glosses 貫猶中也,
  不中正不釋 ("not hitting the 正, no counter"); we follow the 中 square instead, as
  §21's 獲 (the 獲者 calls a hit on the 侯) does.
* Round 1, 第一番射 (§21): only the 三耦 shoot; hits are called but not scored
  (獲而未釋獲).
* Round 2, 第二番射 (§27–30): every pair shoots and each hit is scored — one 筭 per
  arrow, the 上射's to the right, the 下射's to the left (每一个釋一筭上射於右下射於左).
* Round 3, 樂射 (§38–39): shot to 騶虞 with the drum; a hit off the drum is not
  scored (不鼓不釋).  鄭 on §38: 鄉射之鼓五節…一節之間當拾發四節四拾其一節先以聽也 —
  five 節 evenly spaced (間若一); the first is listened to, each of the other four
  carries one 拾 (the 上射's arrow, then the 下射's).
* 數獲 (§32, §41): counters are counted in 純 (二筭為純) and 奇 (一筭為奇); the
  surplus (賢獲) is announced 右賢於左…純…奇 / 左賢於右…, or 左右鈞 on a tie.
* 飲不勝者 (§33, §42): the archers of the side with fewer counters drink.  On a
  tie (鈞) there is no 不勝者, so nobody drinks — the text names only the 鈞
  announcement (§32) and never a drinking for it; this is our reading.

Probability model (an assumption; nothing in the text fixes it).  Each archer has
a hit probability (default drawn from the seed, uniform in 0.2–0.6) and, for round
3, a probability of releasing on the drum (default uniform in 0.6–0.95).  Both are
drawn from a generator keyed by (seed, archer id) so an archer keeps them in every
round and whatever pairs he is put in.  The shots of a round use
``numpy.random.default_rng((seed, round_no))``.  A hit lands in the 中 (normal
scatter about its centre, kept inside the square); a miss falls short on the ground
in front of the 侯, lands on the ground beside it, or sticks in the cloth above or
below the 中 (躬 / 个).  We do not model arrows passing over the 侯: at the assumed
45 m/s a flight clearing the 侯's top (19.2 尺) comes down far beyond the 30 尺 of
court behind it.  Every landing is reachable by a ballistic flight that meets no
cloth before it (misses in front end before the 侯's plane).

Everything is in 周尺 (``*_chi``); ``chi_m`` converts only where gravity and speed
(metric) meet the scene.  Pure Python + numpy, deterministic, no rendering.
"""
from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..geometry.layout import Layout
from ..geometry.places import Place
from ..geometry.units import to_numeral

__all__ = [
    "ARROWS", "HAND_CHI", "G_M_S2", "ARROW_SPEED_M_S", "JIE_S",
    "Shot", "RoundResult", "shoot_round", "demonstrate",
    "count_display", "announce", "flight_time", "arrow_path",
]

ARROWS = 4                 # 乘矢: four arrows each (§21 以將乘矢)
HAND_CHI = 4.5             # release height above the 物 (assumed: a standing archer's draw hand)
G_M_S2 = 9.81
ARROW_SPEED_M_S = 45.0     # assumed horizontal speed of a 弓 of the period
JIE_S = 8.0                # assumed length of one 節 (one 終 of 騶虞) in seconds

# Where a miss goes (assumed shares): short on the ground, beside on the ground, in the cloth.
_MISS_KINDS = ("short", "beside", "cloth")
_MISS_P = (0.3, 0.3, 0.4)
_HIT_SCATTER_CHI = 3.0     # normal scatter of hits about the centre of the 中
_TRAIT_TAG = 7919          # separates the per-archer trait stream from the per-round streams
_CLOTH_IDS = ("target.upper_strip", "target.body_upper", "target.body_lower", "target.lower_strip")


@dataclass(frozen=True)
class Shot:
    """One arrow (一个).

    ``side`` is "right" for the 上射 (his 筭 go to the right, 右獲) and "left" for the
    下射.  ``pair`` is the pair's index (0-based, in shooting order), ``n`` the arrow
    (1–4), ``order`` the position in the round (0-based).  ``on_beat`` is True
    outside round 3; ``scored`` means a 筭 was laid down (釋獲).  ``start_chi`` is
    the shooter's 物 at hand height, ``landing_chi`` where the arrow comes to rest.
    ``release_s`` (round 3 only) is the release time in seconds from the start of
    the pair's 騶虞 (the first, listened-to 節 included).
    """

    archer: str
    side: str
    pair: int
    n: int
    order: int
    hit: bool
    on_beat: bool
    scored: bool
    landing_chi: tuple[float, float, float]
    start_chi: tuple[float, float, float]
    release_s: float | None = None


@dataclass(frozen=True)
class RoundResult:
    """One round (番) of shooting and its 數獲.

    ``right`` / ``left`` are the scored counters (0 in round 1); ``announcement`` is
    the 釋獲者's words to the 賓 ("" in round 1, where nothing is counted);
    ``winner`` is "right", "left" or None (tie, or round 1); ``losers`` the archer
    ids of the losing side in pair order (who drink, §33), empty on a tie.
    """

    round_no: int
    shots: tuple[Shot, ...]
    right: int
    left: int
    announcement: str
    winner: str | None
    losers: tuple[str, ...]


# ------------------------------------------------------------------ counting
def count_display(n: int) -> tuple[int, int]:
    """數獲: n counters → (純, 奇); 二筭為純, 一筭為奇 (§32)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"count_display: {n!r} is not a non-negative integer")
    return divmod(n, 2)


def announce(right: int, left: int) -> str:
    """The 釋獲者's announcement of the 賢獲 (§32 若右勝則曰右賢於左…以純數告若有奇者亦曰奇).

    (5, 2) → 右賢於左一純一奇; (0, 4) → 左賢於右二純; (1, 0) → 右賢於左一奇;
    equal → 左右鈞.
    """
    count_display(right), count_display(left)   # validation
    if right == left:
        return "左右鈞"
    head = "右賢於左" if right > left else "左賢於右"
    chun, ji = count_display(abs(right - left))
    return head + (f"{to_numeral(chun)}純" if chun else "") + (f"{to_numeral(ji)}奇" if ji else "")


# ------------------------------------------------------------------ flight
def flight_time(start_chi: Sequence[float] | np.ndarray, end_chi: Sequence[float] | np.ndarray, chi_m: float,
                speed_m_s: float = ARROW_SPEED_M_S) -> float:
    """Seconds of flight: horizontal distance ÷ horizontal speed (no drag)."""
    d_chi = float(np.hypot(end_chi[0] - start_chi[0], end_chi[1] - start_chi[1]))
    if d_chi <= 0 or chi_m <= 0 or speed_m_s <= 0:
        raise ValueError("flight_time: need a horizontal distance, a 周尺 length and a speed > 0")
    return d_chi * chi_m / speed_m_s


def arrow_path(start_chi: Sequence[float], end_chi: Sequence[float], chi_m: float,
               speed_m_s: float = ARROW_SPEED_M_S, samples: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """A ballistic flight from start to end: (times in s from release, xyz samples×3 in 尺).

    Horizontal speed is constant; z(t) = z0 + vz·t − g·t²/2 with g = 9.81 m/s² in
    尺/s² under ``chi_m`` and vz chosen so the arrow arrives exactly at ``end``.
    """
    if samples < 2:
        raise ValueError("arrow_path: samples must be ≥ 2")
    p0, p1 = np.asarray(start_chi, float), np.asarray(end_chi, float)
    T = flight_time(p0, p1, chi_m, speed_m_s)
    g = G_M_S2 / chi_m
    vz = (p1[2] - p0[2]) / T + g * T / 2
    t = np.linspace(0.0, T, samples)
    xyz = np.empty((samples, 3))
    xyz[:, :2] = p0[:2] + np.outer(t / T, p1[:2] - p0[:2])
    xyz[:, 2] = p0[2] + vz * t - g * t * t / 2
    xyz[0], xyz[-1] = p0, p1          # exact ends despite rounding
    return t, xyz


# ------------------------------------------------------------------ the target
def _rect(place: Place) -> tuple[float, float, float, float]:
    """(x_min, x_max, z_min, z_max) of a panel of the 侯 from its layout place."""
    assert place.size_chi is not None       # (a panel of the 侯 has its measured size)
    (x, _, z), (w, _, h) = place.xyz_chi, place.size_chi
    return x - w / 2, x + w / 2, z - h / 2, z + h / 2


def _inside(rect: tuple[float, float, float, float], x: float, z: float) -> bool:
    x0, x1, z0, z1 = rect
    return x0 <= x <= x1 and z0 <= z <= z1


def _landing(rng: np.random.Generator, hit: bool, layout: Layout) -> tuple[float, float, float]:
    centre = layout["target.centre"]
    cx, hou_y, cz = centre.xyz_chi
    zhong = _rect(centre)
    margin = 0.1   # keep the arrow's point clear of the panel's edge
    if hit:
        for _ in range(100):
            x, z = rng.normal((cx, cz), _HIT_SCATTER_CHI)
            if _inside((zhong[0] + margin, zhong[1] - margin, zhong[2] + margin, zhong[3] - margin), x, z):
                return (float(x), hou_y, float(z))
        return (cx, hou_y, cz)
    cloth = [_rect(layout[pid]) for pid in _CLOTH_IDS]
    half = max(r[1] - cx for r in cloth)                  # widest cloth (上个), half-width
    post = abs(layout["target.west_post"].xyz_chi[0] - cx)
    kind = _MISS_KINDS[rng.choice(len(_MISS_KINDS), p=_MISS_P)]
    if kind == "short":      # fell short: on the ground in front of the 侯
        return (float(cx + rng.normal(0, 6.0)), float(hou_y + rng.uniform(2.0, 40.0)), 0.0)
    if kind == "beside":     # wide: on the ground beside the 侯, between the cloth and its posts
        side = rng.choice((-1.0, 1.0))
        return (float(cx + side * rng.uniform(half + 0.5, post - 0.5)), float(hou_y + rng.uniform(0.5, 10.0)), 0.0)
    # in the cloth: one of the 躬 / 个 strips above or below the 中 (they do not overlap it)
    x0, x1, z0, z1 = cloth[rng.choice(len(cloth))]
    x, z = rng.uniform(x0 + margin, x1 - margin), rng.uniform(z0 + margin, z1 - margin)
    return (float(x), hou_y, float(z))


def demonstrate(archer: str, layout: Layout, seed: int) -> tuple[Shot, ...]:
    """誘射 (§20): the 司射 shoots 乘矢 alone from the 左物 to teach; nothing is called or scored."""
    rng = np.random.default_rng((int(seed), 0))
    x, y, z = layout["tang.wu_left"].xyz_chi
    p_hit, _ = _traits(int(seed), archer)
    shots = []
    for n in range(1, ARROWS + 1):
        hit = bool(rng.random() < p_hit)
        shots.append(Shot(archer, "left", 0, n, n - 1, hit, True, False, _landing(rng, hit, layout),
                          (x, y, z + HAND_CHI)))
    return tuple(shots)


# ------------------------------------------------------------------ traits
def _traits(seed: int, archer: str) -> tuple[float, float]:
    """(hit probability, on-beat probability) of an archer, fixed by (seed, archer)."""
    rng = np.random.default_rng((seed, _TRAIT_TAG, zlib.crc32(archer.encode("utf-8"))))
    return float(rng.uniform(0.2, 0.6)), float(rng.uniform(0.6, 0.95))


def _prob(table: Mapping[str, float] | None, archer: str, default: float, what: str) -> float:
    p = default if table is None or archer not in table else float(table[archer])
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{what} of {archer!r} = {p} is not a probability")
    return p


def _check_round(round_no: int) -> None:
    if round_no not in (1, 2, 3):
        raise ValueError(f"round_no must be 1, 2 or 3 (三番射), got {round_no!r}")


# ------------------------------------------------------------------ a round
def shoot_round(round_no: int, pairs: Sequence[tuple[str, str]], layout: Layout, seed: int,
                skill: Mapping[str, float] | None = None,
                beat_skill: Mapping[str, float] | None = None) -> RoundResult:
    """Shoot one round (番): every pair in order, 拾發 four arrows each, then 數獲.

    ``pairs`` are (上射 id, 下射 id); ``skill`` / ``beat_skill`` override an archer's
    hit / on-beat probability.  The same (round_no, pairs, layout, seed, skills)
    always gives the same result.
    """
    _check_round(round_no)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    ids = [a for p in pairs for a in p]
    if not pairs or len(set(ids)) != len(ids) or any(len(p) != 2 for p in pairs):
        raise ValueError("pairs must be a non-empty list of (上射, 下射) with no archer twice")
    rng = np.random.default_rng((int(seed), round_no))
    wu = {"right": layout["tang.wu_right"].xyz_chi, "left": layout["tang.wu_left"].xyz_chi}
    start = {s: (x, y, z + HAND_CHI) for s, (x, y, z) in wu.items()}
    stroke = JIE_S / 2   # two drum strokes to a 節, one for each arrow of its 拾 (間若一)

    shots: list[Shot] = []
    for k, (upper, lower) in enumerate(pairs):
        for n in range(1, ARROWS + 1):
            for j, (archer, side) in enumerate(((upper, "right"), (lower, "left"))):
                p_hit, p_beat = _traits(int(seed), archer)
                hit = bool(rng.random() < _prob(skill, archer, p_hit, "skill"))
                release_s, on_beat = None, True
                if round_no == 3:
                    on_beat = bool(rng.random() < _prob(beat_skill, archer, p_beat, "beat_skill"))
                    # 節 0 is listened to (其一節先以聽); 拾 n falls in 節 n.
                    beat_s = n * JIE_S + j * stroke
                    off = 0.0 if on_beat else rng.choice((-1.0, 1.0)) * rng.uniform(0.15, 0.45) * stroke
                    release_s = float(beat_s + off)
                landing = _landing(rng, hit, layout)
                scored = round_no > 1 and hit and on_beat      # 獲而未釋獲 (§21); 不鼓不釋 (§38)
                shots.append(Shot(archer, side, k, n, len(shots), hit, on_beat, scored,
                                  landing, start[side], release_s))

    right = sum(s.scored for s in shots if s.side == "right")
    left = sum(s.scored for s in shots if s.side == "left")
    if round_no == 1:
        return RoundResult(1, tuple(shots), 0, 0, "", None, ())
    winner = None if right == left else ("right" if right > left else "left")
    loser_side = None if winner is None else {"right": 1, "left": 0}[winner]   # the other side's index in a pair
    losers = () if loser_side is None else tuple(p[loser_side] for p in pairs)
    return RoundResult(round_no, tuple(shots), right, left, announce(right, left), winner, losers)
