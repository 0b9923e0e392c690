"""The shooting rules of §21, §27, §32–33, §38–39: order, scoring, 數獲, flights."""
from __future__ import annotations

import re

import numpy as np
import pytest

from scene.geometry.layout import build_layout
from scene.geometry.units import parse_numeral
from scene.rite.shooting import (
    ARROW_SPEED_M_S,
    RoundResult,
    announce,
    arrow_path,
    count_display,
    flight_time,
    shoot_round,
)

LAY = build_layout("zheng")
CHI_M = LAY.reading.chi_m
SEEDS = range(12)


def rite_pairs(round_no: int, dafu_present: bool = True) -> list[tuple[str, str]]:
    """Test pairs shaped like the rite's (the real ones come from the choreography: see
    tests/test_timeline.py): the 三耦; then 賓/主人, a 眾賓 with the 大夫, two 眾賓."""
    pairs = [(f"ou{k}_up", f"ou{k}_low") for k in (1, 2, 3)]
    if round_no == 1:
        return pairs
    return pairs + [("bin", "zhuren")] + ([("zhongbin_4", "dafu")] if dafu_present else []) + \
        [("zhongbin_5", "zhongbin_6")]


def rounds(seed, pairs_of=rite_pairs):
    return [shoot_round(r, pairs_of(r), LAY, seed) for r in (1, 2, 3)]


def parse_surplus(text: str) -> int:
    """右賢於左…純…奇 → right − left (independent of announce's code)."""
    if text == "左右鈞":
        return 0
    m = re.fullmatch(r"(右賢於左|左賢於右)(?:(.+?)純)?(?:(.+?)奇)?", text)
    assert m and (m[2] or m[3]), text
    n = 2 * (parse_numeral(m[2]) if m[2] else 0) + (parse_numeral(m[3]) if m[3] else 0)
    return n if m[1] == "右賢於左" else -n


# ------------------------------------------------------------------ order (拾發, 乘矢)
@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_pairs_alternate_upper_first_four_arrows_each(round_no):
    pairs = rite_pairs(round_no)
    res = shoot_round(round_no, pairs, LAY, seed=3)
    assert len(res.shots) == 8 * len(pairs)
    assert [s.order for s in res.shots] == list(range(len(res.shots)))
    for k, (upper, lower) in enumerate(pairs):
        block = res.shots[8 * k: 8 * k + 8]
        assert [(s.archer, s.n) for s in block] == [(a, n) for n in (1, 2, 3, 4) for a in (upper, lower)]
        assert all(s.pair == k for s in block)
        assert [s.side for s in block] == ["right", "left"] * 4
        wu = {"right": LAY["tang.wu_right"].xyz_chi, "left": LAY["tang.wu_left"].xyz_chi}
        for s in block:
            x, y, z = wu[s.side]
            assert s.start_chi == pytest.approx((x, y, z + 4.5))


# ------------------------------------------------------------------ scoring
@pytest.mark.parametrize("seed", SEEDS)
def test_round_one_calls_hits_but_scores_nothing(seed):
    r1 = shoot_round(1, rite_pairs(1), LAY, seed)
    assert not any(s.scored for s in r1.shots)
    assert all(s.on_beat and s.release_s is None for s in r1.shots)
    assert (r1.right, r1.left, r1.announcement, r1.winner, r1.losers) == (0, 0, "", None, ())


@pytest.mark.parametrize("seed", SEEDS)
def test_round_two_one_counter_per_hit_upper_right_lower_left(seed):
    r2 = shoot_round(2, rite_pairs(2), LAY, seed)
    assert all(s.scored == s.hit for s in r2.shots)
    assert r2.right == sum(s.hit for s in r2.shots if s.side == "right")
    assert r2.left == sum(s.hit for s in r2.shots if s.side == "left")


@pytest.mark.parametrize("seed", SEEDS)
def test_round_three_scores_only_hits_on_the_drum(seed):
    r3 = shoot_round(3, rite_pairs(3), LAY, seed)
    assert all(s.scored == (s.hit and s.on_beat) for s in r3.shots)
    assert r3.right == sum(s.scored for s in r3.shots if s.side == "right")
    assert r3.left == sum(s.scored for s in r3.shots if s.side == "left")
    # releases follow the 節 in shooting order; on-beat ones fall on the evenly spaced strokes
    times = [s.release_s for s in r3.shots]
    for k in range(len(rite_pairs(3))):
        assert times[8 * k: 8 * k + 8] == sorted(times[8 * k: 8 * k + 8])
    strokes = {s.release_s for s in r3.shots if s.on_beat}
    steps = np.diff(sorted(strokes))
    assert np.allclose(steps, steps[0])                    # 間若一


def test_some_seed_gives_an_off_beat_hit():
    found = next((seed for seed in range(300)
                  if any(s.hit and not s.on_beat for s in shoot_round(3, rite_pairs(3), LAY, seed).shots)), None)
    assert found is not None
    shot = next(s for s in shoot_round(3, rite_pairs(3), LAY, found).shots if s.hit and not s.on_beat)
    assert not shot.scored


def test_skill_override():
    pairs = rite_pairs(2)
    ids = [a for p in pairs for a in p]
    r = shoot_round(2, pairs, LAY, 5, skill={a: (1.0 if a.endswith("shang") or a == "bin" else 0.0) for a in ids})
    for s in r.shots:
        assert s.hit == (s.archer.endswith("shang") or s.archer == "bin")
    always = shoot_round(3, pairs, LAY, 5, skill=dict.fromkeys(ids, 1.0), beat_skill=dict.fromkeys(ids, 1.0))
    assert always.right == always.left == 4 * len(pairs) and always.announcement == "左右鈞"
    with pytest.raises(ValueError):
        shoot_round(2, pairs, LAY, 5, skill={"bin": 1.5})


# ------------------------------------------------------------------ 數獲 and 飲不勝者
@pytest.mark.parametrize("right,left,text", [
    (5, 2, "右賢於左一純一奇"), (2, 2, "左右鈞"), (1, 0, "右賢於左一奇"),
    (0, 4, "左賢於右二純"), (26, 3, "右賢於左十一純一奇"), (0, 0, "左右鈞"), (9, 3, "右賢於左三純"),
])
def test_announce_exact(right, left, text):
    assert announce(right, left) == text


def test_count_display():
    assert count_display(0) == (0, 0)
    assert count_display(7) == (3, 1)
    assert count_display(20) == (10, 0)
    with pytest.raises(ValueError):
        count_display(-1)


def test_announced_surplus_matches_the_counters():
    for seed in range(60):
        for r in rounds(seed)[1:]:
            assert parse_surplus(r.announcement) == r.right - r.left
    rng = np.random.default_rng(0)
    for right, left in rng.integers(0, 60, size=(300, 2)):
        assert parse_surplus(announce(int(right), int(left))) == right - left


@pytest.mark.parametrize("seed", range(40))
def test_losers_are_the_side_with_fewer_counters(seed):
    for r in rounds(seed)[1:]:
        pairs = rite_pairs(r.round_no)
        if r.right == r.left:
            assert r.winner is None and r.losers == ()
        elif r.right > r.left:
            assert r.winner == "right" and r.losers == tuple(low for _, low in pairs)
        else:
            assert r.winner == "left" and r.losers == tuple(up for up, _ in pairs)


# ------------------------------------------------------------------ determinism
def test_same_seed_same_rite_other_seeds_differ():
    for r in (1, 2, 3):
        a = shoot_round(r, rite_pairs(r), LAY, 11)
        b = shoot_round(r, rite_pairs(r), LAY, 11)
        assert isinstance(a, RoundResult) and a == b
        others = [shoot_round(r, rite_pairs(r), LAY, s) for s in (12, 13, 14, 15)]
        assert any(o.shots != a.shots for o in others)
        assert len({tuple(s.hit for s in o.shots) for o in [a, *others]}) > 1


def test_bad_arguments():
    with pytest.raises(ValueError):
        shoot_round(4, rite_pairs(1), LAY, 0)
    with pytest.raises(ValueError):
        shoot_round(1, [("a", "b"), ("a", "c")], LAY, 0)
    with pytest.raises(ValueError):
        shoot_round(1, rite_pairs(1), LAY, -1)


# ------------------------------------------------------------------ where arrows land
def zhong():
    c = LAY["target.centre"]
    (x, y, z), (w, _, h) = c.xyz_chi, c.size_chi
    return x, y, z, w / 2, h / 2


def in_zhong(p) -> bool:
    x, y, z, hw, hh = zhong()
    return p[1] == pytest.approx(y) and abs(p[0] - x) <= hw and abs(p[2] - z) <= hh


@pytest.mark.parametrize("seed", SEEDS)
def test_hits_in_the_zhong_misses_not(seed):
    _, hou_y, *_ = zhong()
    for r in rounds(seed):
        for s in r.shots:
            assert in_zhong(s.landing_chi) == s.hit, s
            if not s.hit:
                x, y, z = s.landing_chi
                # on the ground in front of the 侯, or in its plane (stuck in the cloth)
                assert z == 0.0 or y == pytest.approx(hou_y)
                assert y >= hou_y - 1e-9
                if z == 0.0:
                    assert y > hou_y


def test_arrow_path_is_a_parabola_between_the_exact_ends():
    shots = [s for r in rounds(2) for s in r.shots]
    for s in shots[:40]:
        t, xyz = arrow_path(s.start_chi, s.landing_chi, CHI_M, samples=16)
        assert xyz.shape == (16, 3) and t.shape == (16,)
        assert tuple(xyz[0]) == tuple(s.start_chi) and tuple(xyz[-1]) == tuple(s.landing_chi)
        assert t[0] == 0.0
        d2 = np.diff(xyz[:, 2], 2)
        assert np.allclose(d2, d2[0], atol=1e-9)
        dt = t[1] - t[0]
        assert d2[0] == pytest.approx(-9.81 / CHI_M * dt * dt)
        assert xyz[:, 2].max() > max(s.start_chi[2], s.landing_chi[2])
        horiz = np.hypot(s.landing_chi[0] - s.start_chi[0], s.landing_chi[1] - s.start_chi[1])
        assert t[-1] == pytest.approx(horiz * CHI_M / ARROW_SPEED_M_S)
        assert flight_time(s.start_chi, s.landing_chi, CHI_M) == pytest.approx(t[-1])
        # horizontal motion is uniform
        assert np.allclose(np.diff(xyz[:, 0]), np.diff(xyz[:, 0])[0])
        # a flight never passes the 侯's plane before it ends
        assert (xyz[:-1, 1] > LAY["target.centre"].xyz_chi[1] - 1e-9).all()


def test_flight_time_scales_with_speed_and_chi():
    a, b = (0.0, 24.0, 7.5), (0.0, -300.0, 10.2)
    assert flight_time(a, b, 0.231, 45.0) == pytest.approx(324 * 0.231 / 45.0)
    assert flight_time(a, b, 0.231, 90.0) == pytest.approx(flight_time(a, b, 0.231, 45.0) / 2)
    with pytest.raises(ValueError):
        flight_time(a, a, 0.231)
    with pytest.raises(ValueError):
        arrow_path(a, b, 0.231, samples=1)
