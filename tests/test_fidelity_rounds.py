"""The rounds (§14–§37) and the standard forms against the text, read from the compiled tracks (default reading):
one test per rule that the readings of December 2026 found broken (audits/fidelity-2026-12*.md)."""
from __future__ import annotations

import numpy as np
import pytest

from scene.rite.cache import load_rite


@pytest.fixture(scope="module")
def rite():
    return load_rite("zheng")


def _chi(rite):
    return rite.reading.chi_m


def _pos(rite, aid, t):
    p = rite.pose_at(t)
    i = p.actor_ids.index(aid)
    return p.actor_xyz_m[i] / _chi(rite), float(p.heading_deg[i]), p.posture[i], p.holding[i]


def _events(rite, aid, value):
    ts, vs = rite._postures[aid]
    return [float(t) for t, v in zip(ts, vs) if v == value]


def _facing(h, want, tol=35.0):
    return abs((h - want + 180.0) % 360.0 - 180.0) <= tol


def _spans(rite, section, do=None):
    return [s for s in rite.spans if s.section == section and (do is None or s.do == do)]


@pytest.mark.parametrize("section", [24, 37, 43])
def test_pairs_picking_arrows_meet_on_the_left_and_salute(rite, section):
    """與進者相左相揖 (鄭 相左皆由進者之北): the next pair goes forward while the pair before comes back, the two
    stop with the pair coming back on the north (each on the other's left) and all four salute together.
    §43 拾取矢如初: the same, the pairs setting out from 堂西 and going back there (不反位)."""
    picks = [s for s in _spans(rite, section, "pick_arrows") if s.who[0].startswith(("ou", "zhongbin"))]
    assert len(picks) >= 3
    for a, b in zip(picks, picks[1:]):
        if b.who[0] == "zhongbin_5":
            continue                     # the 大夫 and his 耦 come between (their own steps)
        back, fwd = a.who, b.who
        sal = {x: [t for t in _events(rite, x, "salute") if b.start_s <= t <= min(a.end_s, b.end_s)]
               for x in (*back, *fwd)}
        both = [t for t in sal[back[0]] if all(any(abs(t - u) < 0.05 for u in sal[x]) for x in (*back[1:], *fwd))]
        assert both, f"§{section}: {back} and {fwd} never salute together"
        t = both[0] + 0.3
        pb = [_pos(rite, x, t) for x in back]
        pf = [_pos(rite, x, t) for x in fwd]
        assert all(p[0][2] < 0.1 for p in pb + pf)
        # the pair coming back is north of the pair going forward, both in the court between the 射位 and the 楅
        assert min(p[0][1] for p in pb) > max(p[0][1] for p in pf) + 1.0
        assert all(-35 < p[0][0] < -5 for p in pb + pf)
        assert all(_facing(p[1], 180, 60) for p in pb) and all(_facing(p[1], 0, 60) for p in pf)
        # 上射於右: coming back the 上射 is the northern of the two; going forward the 上射 on the left (north)
        assert pb[0][0][1] > pb[1][0][1] and pf[0][0][1] > pf[1][0][1]
        # the pair before is not back at its place when the next pair leaves its own
        assert b.start_s < a.end_s


def test_two_salutes_at_the_bi_before_picking(rite):
    """§24 當楅北面揖 及楅揖: a 揖 south of the 楅 facing north, then another at the 楅, before the first arrow."""
    bi = rite.layout["court.bi"].xyz_chi
    for s in _spans(rite, 24, "pick_arrows"):
        for k, aid in enumerate(s.who):
            sit = next(t for t in _events(rite, aid, "sit") if t > s.start_s)
            sal = [t for t in _events(rite, aid, "salute") if s.start_s <= t < sit]
            north = [t for t in sal if _pos(rite, aid, t + 0.3)[0][1] < bi[1] - 2 and _facing(_pos(rite, aid, t + 0.3)[1], 0)]
            at_bi = [t for t in sal if abs(_pos(rite, aid, t + 0.3)[0][1] - bi[1]) < 1.0 and north and t > north[0]]
            assert north and at_bi, (aid, sal)
            assert _facing(_pos(rite, aid, at_bi[0] + 0.3)[1], 90 if k == 0 else 270)   # 上射東面 下射西面


def test_the_file_stands_south_west_of_the_sima(rite):
    """§24 進立于司馬之西南 (賈 今立於司馬之西南亦東面北上): every one of the 三耦, head included, west and south of the 司馬."""
    s = next(s for s in _spans(rite, 24) if s.phrase == "進立于司馬之西南")
    sima, _, _, _ = _pos(rite, "xiang", s.end_s + 0.1)
    for aid in s.who:
        p, h, _, _ = _pos(rite, aid, s.end_s + 0.1)
        assert p[0] < sima[0] - 3 and p[1] < sima[1] - 1, (aid, p, sima)
        assert _facing(h, 90, 10)


def test_bin_and_zhuren_make_no_north_salute_at_the_bi(rite):
    """§37 鄭 主人西面賓東面相揖拾取矢不北面揖由便也: from the 階前 straight to the 楅's ends, the 揖 there facing
    each other, none facing north."""
    s = next(s for s in _spans(rite, 37, "pick_arrows") if "bin" in s.who)
    for aid, want in (("bin", 90), ("zhuren", 270)):
        sit = next(t for t in _events(rite, aid, "sit") if t > s.start_s)
        sal = [t for t in _events(rite, aid, "salute") if s.start_s <= t < sit]
        assert sal and all(_facing(_pos(rite, aid, t + 0.3)[1], want) for t in sal), (aid, sal)


def test_dafu_and_his_ou_tuck_their_arrows_south_of_the_bi(rite):
    """§37 大夫…如其耦北面搢三挾一个 (鄭 亦於三耦為之位): at the 楅南, where the 三耦 did it, facing north."""
    bi = rite.layout["court.bi"].xyz_chi
    steps = [s for s in _spans(rite, 37) if s.phrase == "如其耦北面搢三挾一个"]
    assert {a for s in steps for a in s.who} == {"zhongbin_4", "dafu"}
    for s in steps:
        for aid in s.who:
            p, h, _, _ = _pos(rite, aid, s.end_s - 0.05)
            assert bi[1] - 4 < p[1] < bi[1] - 1.5 and abs(p[0] - bi[0]) < 2.0, (aid, p)
            assert _facing(h, 0, 10)
    # the 三耦's own place for it, for comparison (皆少進當楅南)
    ou = next(s for s in _spans(rite, 37, "pick_arrows") if "ou1_up" in s.who)
    tucks = [t for t in _events(rite, "ou1_up", "salute") if ou.start_s < t < ou.end_s and
             _pos(rite, "ou1_up", t + 0.3)[0][1] < bi[1] - 1.5 and abs(_pos(rite, "ou1_up", t + 0.3)[0][0]) < 2]
    assert tucks


@pytest.mark.parametrize("aid", ["zhongbin_4", "dafu"])
def test_the_four_arrows_are_taken_kneeling(rite, aid):
    """§37 耦…進坐兼取乘矢順羽而興 / 大夫進坐亦兼取乘矢: the arrows come into his hands while he kneels; he rises after."""
    s = next(s for s in _spans(rite, 37, "take") if aid in s.who and "兼取乘矢" in s.phrase)
    t = next(t for t in np.arange(s.start_s - 1.0, s.end_s + 3.0, 0.1) if "矢×4" in _pos(rite, aid, t)[3])
    assert _pos(rite, aid, t)[2] == "sit"
    assert _pos(rite, aid, t + 0.05)[2] == "sit"


def test_the_huozhe_carries_the_jian_and_the_attendant_the_zu(rite):
    """§34 獲者執其薦使人執俎從之辟設于乏南: two things, each in his own hands, set down together."""
    s = next(s for s in _spans(rite, 34) if s.phrase == "辟設于乏南" and "huozhe" in s.who)
    t = s.start_s + 0.5
    assert "薦" in _pos(rite, "huozhe", t)[3] and "俎" not in _pos(rite, "huozhe", t)[3]
    assert "俎" in _pos(rite, "zhijue", t)[3]
    p = rite.pose_at(s.end_s + 30)
    o = {oid: p.object_xyz_m[i] / _chi(rite) for i, oid in enumerate(p.object_ids)}
    assert np.hypot(*(o["jian_huozhe"][:2] - o["zu_huozhe"][:2])) < 4.0       # set down side by side


def _stair_pairs(rite):
    for s in rite.spans:
        if s.do in ("approach", "retire") and len(s.who) == 2 and s.section in (21, 27, 39) and \
                len({rite.choreography.actors[a].stairs for a in s.who}) == 1:      # not 賓主人, each by his stairs
            yield s


def test_one_empty_step_between_the_pair_on_the_stairs(rite):
    """上射先升三等下射從之中等 (鄭 中猶間也) / 上射降三等下射少右從之中等: the 下射 on 等1 as the 上射 reaches 等3
    going up; on the top 等 (not yet down) as the 上射 reaches 等1 coming down."""
    chi = _chi(rite)
    ids = list(rite.actor_ids)
    n = 0
    for s in _stair_pairs(rite):
        up, low = s.who
        ts = np.arange(s.start_s, s.end_s, 0.02)
        xyz = rite.sample(ts)["actor_xyz_m"][:, [ids.index(up), ids.index(low)], :] / chi
        z = xyz[:, :, 2]
        if s.do == "approach":
            k = int(np.argmax(z[:, 0] >= 2.99))
            assert abs(z[k, 1] - 1.0) < 0.15, (s.section, up, ts[k], z[k])
        else:
            down = np.flatnonzero(z[:, 0] < 2.99)
            k = int(down[np.argmax(z[down, 0] <= 1.01)])
            assert z[k, 1] > 2.85 and xyz[k, 1, 1] < 0.0, (s.section, up, ts[k], z[k], xyz[k, 1])
        n += 1
    assert n >= 6


@pytest.mark.parametrize("section", [32, 41])
def test_counting_goes_by_pairs_and_round_the_east_of_the_zhong(rite, section):
    """§32 二筭為純，一純以取實于左手，十純則縮而委之 … 坐兼斂筭實于左手，一純以委; 鄭 起由中東: the counters move two
    at a time, and between the piles he passes east of the 中."""
    s = next(s for s in _spans(rite, section, "count"))
    zx = rite.layout["court.zhong"].xyz_chi[0]
    xs = [_pos(rite, "shihuozhe", t)[0][0] for t in np.arange(s.start_s, s.end_s, 0.2)]
    assert max(xs) > zx + 1.0
    d = rite.director
    for pile in ("right", "left"):
        evs = [(t, int(v)) for t, k, v in d.objects[f"counters.{pile}"].events
               if k == "state" and s.start_s - 0.01 <= t <= s.end_s + 0.01]
        before = int(rite.pose_at(s.start_s - 0.01).object_state[rite.object_ids.index(f"counters.{pile}")])
        if before < 2:
            continue
        steps = [b - a for (_, a), (_, b) in zip([(None, before)] + evs, evs)]
        # one 純 at a time into (right) or out of (left) the hand, and the pile whole again at the end
        assert sum(1 for x in steps if abs(x) in (1, 2)) >= before // 2, (pile, steps)
        assert evs[-1][1] == before


class _Piles:
    """A stand-in for the form's hands on the 筭 (Acts.counters / set_counters), keeping every change."""

    def __init__(self, right: int, left: int) -> None:
        self.counters = {"zhong": 0, "hand": 0, "right": right, "left": left, "spare": 80 - right - left}
        self.log: list[dict] = []

    def set_counters(self, t: float, **changes: int) -> None:
        assert all(v >= 0 for v in changes.values()), changes
        self.counters.update(changes)
        assert sum(self.counters.values()) == 80
        self.log.append(dict(self.counters))


@pytest.mark.parametrize("right", [0, 1, 7, 19, 20, 21, 33, 40, 45])
def test_counting_lays_ten_chun_at_a_time(right):
    """二筭為純，一純以取實于左手，十純則縮而委之 (a pile of 20 or more: the hand never holds more than ten 純, and
    lays them down at ten), 一純以委 for the left; every pile whole again, the hand empty, 80 筭 throughout."""
    from scene.rite.forms import count
    p = _Piles(right, 45 - right)
    count._take_by_pairs(p, 0.0, "right")
    assert p.counters["right"] == right and p.counters["hand"] == 0
    assert max((x["hand"] for x in p.log), default=0) == min(20, right)
    assert sum(1 for x in p.log if x["hand"] == 20) == right // 20
    n = len(p.log)
    count._lay_by_pairs(p, 0.0, "left")
    assert p.counters["left"] == 45 - right and p.counters["hand"] == 0
    steps = [b["left"] - a["left"] for a, b in zip(p.log[n:], p.log[n + 1:])]
    assert all(s in (1, 2) for s in steps) and len(steps) == (45 - right + 1) // 2


# -- X10 (audits/fidelity-2026-12-07.md) §26/§27 坐取中之八筭改實八筭于中興: the refill kneeling, the 興 after it

@pytest.mark.parametrize("section", [26, 27])
def test_zhong_refilled_kneeling_before_the_rise(rite, section):
    fills = [s for s in _spans(rite, section, "fill") if s.phrase == "改實八筭于中"]
    assert fills
    for sp in fills:
        for t in np.arange(sp.start_s, sp.end_s, 0.25):
            post = _pos(rite, "shihuozhe", float(t))[2]
            assert post == "sit", f"§{section} 改實八筭于中 at t {t:.1f}: the 釋獲者 is {post} (興 comes after)"


# -- X8 (audits/fidelity-2026-12-07.md) 作射: 還當上耦西面 and 進 (鄭 §38 終始互相明; 賈 進近上耦乃作之)

@pytest.mark.parametrize("section, phrase", [(21, "司射還當上耦西面作上耦射"), (26, "司射作射如初"),
                                             (33, "司射作升飲者如作射"), (38, "司射猶挾一个以進作上射如初")])
def test_sishe_goes_forward_level_with_the_upper_pair_facing_west(rite, section, phrase):
    sp = [s for s in _spans(rite, section, "order") if s.phrase == phrase and "sishe" in s.who][0]
    _, a0, a1 = [a for a in sp.acts if a[0] == "sishe"][0]
    p0 = _pos(rite, "sishe", sp.start_s - 0.01)[0]
    p1, h, _, _ = _pos(rite, "sishe", (a0 + a1) / 2)
    up, low = _pos(rite, "ou1_up", (a0 + a1) / 2)[0], _pos(rite, "ou1_low", (a0 + a1) / 2)[0]
    assert np.hypot(*(p1 - p0)[:2]) >= 3.0, f"§{section} 作: the 司射 does not go forward (進)"
    assert _facing(h, 270, 20), f"§{section} 作: facing {h:.0f}, not 西面"
    assert min(up[1], low[1]) - 1 <= p1[1] <= max(up[1], low[1]) + 1 and p1[0] > up[0], (
        f"§{section} 作: at {p1[:2]}, not 當上耦 ({up[:2]}, {low[:2]})")


# -- X15 (audits/fidelity-2026-12-07.md) §29 大夫為下射揖進: the pair salutes before it sets off

def test_dafu_and_his_pair_salute_before_setting_off(rite):
    arr = [s for s in _spans(rite, 29, "walk") if "dafu" in s.who and s.phrase == "由堂西出于司射之西就其耦"][0].end_s
    ap = [s for s in _spans(rite, 29, "approach") if "dafu" in s.who][0]
    for aid in ("dafu", "zhongbin_4"):
        walks = [t for t in _events(rite, aid, "walk") if arr + 0.05 < t <= ap.end_s]
        sal = [t for t in _events(rite, aid, "salute") if arr - 0.05 <= t <= ap.end_s]
        assert sal and walks and min(sal) < min(walks), f"§29 揖進: {aid} sets off at {min(walks):.1f} before a 揖"


# -- X4 (audits/fidelity-2026-12-07.md) §33 勝者之弟子…降袒執弓反位 (鄭 其少者也…執弓反射位): a winner, 袒, bow, 射位

@pytest.mark.parametrize("section, phrase, rnd", [(33, "降袒執弓反位", 2), (42, "設豐實觶如初", 3)])
def test_the_winners_junior_pours_then_bares_takes_his_bow_and_goes_to_the_shooting_place(rite, section, phrase, rnd):
    res = rite.director.results[rnd]
    pours = [s for s in _spans(rite, section, "fill") if s.phrase in ("升酌", "設豐實觶如初") and s.who[0] != "zhijue"]
    aid = pours[0].who[0]
    assert aid in {s.archer for s in res.shots} and aid not in res.losers, f"§{section}: {aid} is not a 勝者"
    back = [s for s in _spans(rite, section, "walk") if s.phrase == phrase and s.who == (aid,)][-1]
    p, _, _, holding = _pos(rite, aid, back.end_s + 0.5)
    dress = [v for t, k, v in rite.director.actors[aid].events if k == "dress" and t <= back.end_s + 0.5][-1]
    slots = np.array(rite.layout.places["pos.shooters"].extra["slots"], dtype=float)
    assert "袒" in dress and "弓" in holding, f"§{section} {aid}: dress {dress!r}, holding {holding!r}"
    # at his 射位: on the spot, or just in front of it (3 尺 east, clear of the file the others walk down)
    assert np.min(np.hypot(*(slots[:, :2] - p[:2]).T)) <= 3.5, f"§{section} {aid} at {p[:2]}, not at a 射位"
