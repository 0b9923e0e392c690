"""Chapter 4, 鄉飲酒禮, §13–§25 as the text has them, read from the compiled tracks: the music, the 司正 at 楹間 and
at his 觶 階間當中庭, the 酬 and the 旅 going round, the 二人's 觶 left at 薦西 / 薦南, each 俎 passing from its
owner's hands to the one who takes it down and out (記27, 記28), the 賓 leaving by the 門 and the 主人 bowing
outside it, the 遵者's entry told and not acted out of its place, and the next day."""
from __future__ import annotations

import math
import re

import pytest

from scene import text as T
from scene.rite import choreography as chor
from scene.rite.timeline import build_rite

FOUR = "xiangyinjiu"
CHORE = chor.load(FOUR)
RITE = build_rite(chapter=FOUR)
NO_DAFU = build_rite("zheng,dafu_present=false", chapter=FOUR)
MINE = range(13, 26)
ZHONGBIN = tuple(f"zhongbin_{i}" for i in range(1, 6))
#: 1 尺 in metres under the reading
CHI = RITE.reading.chi_m


def stage(rite, n):
    return next(s for s in rite.stages if s.n == n)


def place(rite, pid):
    return rite.layout[pid].xyz_chi


def where(rite, aid, t):
    """(x, y, z) in 尺, heading, posture, visible of one actor at t."""
    p = rite.pose_at(t)
    i = p.actor_ids.index(aid)
    return tuple(float(c) / CHI for c in p.actor_xyz_m[i]), float(p.heading_deg[i]), p.posture[i], p.visible[i]


def spans(rite, n, phrase=None, do=None, who=None):
    return [s for s in rite.spans if s.section == n and (phrase is None or s.phrase == phrase)
            and (do is None or s.do == do) and (who is None or who in s.who)]


def act_mid(span, aid):
    t0, t1 = span.act_of(aid)
    return (t0 + t1) / 2


def holders(rite, obj, n):
    """Who has ``obj`` in his hands during §n, in order (each once per holding)."""
    st = stage(rite, n)
    out = []
    for t, kind, v in sorted(rite.director.objects[obj].events, key=lambda e: e[0]):
        if kind == "held" and st.start_s - 0.01 <= t <= st.end_s + 0.01 and (not out or out[-1] != v):
            out.append(v)
    return out


def near(a, b, tol):
    return math.dist(a[:2], b[:2]) <= tol


# ---------------------------------------------------------------- the data

def test_sections_13_to_25_load_from_their_own_files_with_the_passages_titles():
    secs = {s.n: s for s in CHORE.sections}
    for n in MINE:
        s = secs[n]
        assert s.title == T.passage(n, chapter=FOUR).title
        assert re.match(r"[5-9]_", s.source_file), (n, s.source_file)
        assert s.steps, f"§{n} has no step"
        for st in s.steps:
            assert st.phrase in T.passage(n, chapter=FOUR).text


def test_steps_follow_the_text_order():
    """A step not acted alongside the one before cites words at or after those of the step before it."""
    for n in MINE:
        s = CHORE.section(n)
        cursor = 0
        for i, st in enumerate(s.steps):
            if st.with_prev and st.offset > cursor:
                continue                         # acted alongside, citing words further on (賈: 相拜 before the bows)
            assert st.offset >= cursor, f"§{n} step {i + 1} {st.phrase!r} goes back in the text"
            cursor = st.offset


def test_every_section_compiles_with_and_without_the_zunzhe():
    for rite in (RITE, NO_DAFU):
        ns = [s.n for s in rite.stages]
        assert ns == list(range(1, 26))
        for n in MINE:
            st = stage(rite, n)
            assert st.end_s > st.start_s, n


# ---------------------------------------------------------------- §13–§14 music

def test_jian_ge_alternates_song_and_pipes_and_he_yue_plays_them_together():
    sung = [s for s in spans(RITE, 13, do="play")]
    who = ["gong" if "gong_1" in s.who else "sheng" for s in sung]
    assert who == ["gong", "sheng"] * 3                          # 閒: 一歌則一吹
    for a, b in zip(sung, sung[1:]):
        assert b.start_s >= a.end_s - 0.01                       # never together
    he = spans(RITE, 14, do="play")
    assert len(he) == 2 and abs(he[0].start_s - he[1].start_s) < 0.5   # 合樂: 眾聲俱作
    down = spans(RITE, 14, phrase="乃降", who="yuezheng")[0]
    (x, y, z), hd, *_ = where(RITE, "yuezheng", down.end_s)
    assert z < 1 and near((x, y), place(RITE, "pos.yuezheng_below"), 2.0)   # 鄭 降立西階東北面
    assert abs((hd + 180) % 360 - 180) < 20


# ---------------------------------------------------------------- §15–§16 the 司正

def test_sizheng_stands_between_the_pillars_as_the_host_and_guest_bow():
    xiang = spans(RITE, 15, phrase="司正立于楹間以相拜", do="speak")[0]
    bow = spans(RITE, 15, phrase="主人阼階上再拜", do="bow_twice")[0]
    answer = spans(RITE, 15, phrase="賓西階上答拜", do="answer_bow")[0]
    (x, y, z), *_ = where(RITE, "xiang", act_mid(xiang, "xiang"))
    assert z > 3 and near((x, y), place(RITE, "hall.between_pillars"), 1.5)
    zx = where(RITE, "zhuren", act_mid(bow, "zhuren"))
    bx = where(RITE, "bin", act_mid(answer, "bin"))
    assert near(zx[0], place(RITE, "hall.east_steps_top"), 4.0) and zx[2] == "bow"
    assert near(bx[0], place(RITE, "hall.west_steps_top"), 4.0) and bx[2] == "bow"
    # 賈: the 相拜 comes before the bows — he is at 楹間 by the time the 主人 bows
    assert near(where(RITE, "xiang", act_mid(bow, "zhuren"))[0], place(RITE, "hall.between_pillars"), 1.5)
    assert RITE.pose_at(act_mid(xiang, "xiang")).role[RITE.actor_ids.index("xiang")] == "司正"


def test_sizheng_kneels_north_facing_between_the_stairs_mid_court_to_set_his_zhi():
    st = spans(RITE, 16, phrase="階間北面坐奠觶", do="set_down")[0]
    (x, y, z), hd, posture, _ = where(RITE, "xiang", act_mid(st, "xiang"))
    east, west = place(RITE, "hall.east_steps"), place(RITE, "hall.west_steps")
    gate, lian = place(RITE, "hall.gate"), place(RITE, "hall.tang_lian")
    assert posture == "sit" and z < 1
    assert west[0] < x < east[0] and abs(x) < 1.5                # 階間: 東西節也
    assert abs(y - (gate[1] + lian[1]) / 2) < 4.0                # 其南北當中庭
    assert abs((hd + 180) % 360 - 180) < 20                      # 北面
    zhi = RITE.pose_at(st.end_s + 0.5)
    j = zhi.object_ids.index("zhi_sizheng")
    cup = tuple(float(c) / CHI for c in zhi.object_xyz_m[j])
    assert near(cup, place(RITE, "pos.sizheng_zhi"), 1.0)
    stand = spans(RITE, 16, phrase="退立于觶南", who="xiang")[0]
    (sx, sy, _), *_ = where(RITE, "xiang", stand.end_s)
    assert sy < cup[1] - 1.5 and abs(sx - cup[0]) < 1.0          # 立于觶南


def test_sizheng_gets_his_jian_by_his_place():
    """記23 司正既舉觶而薦諸其位."""
    st = stage(RITE, 16)
    p = RITE.pose_at(st.end_s)
    j = p.object_ids.index("jian_sizheng")
    dish = tuple(float(c) / CHI for c in p.object_xyz_m[j])
    assert near(dish, place(RITE, "pos.sizheng"), 4.0)


# ---------------------------------------------------------------- §17–§19 the 酬 and the 旅

def test_bin_toasts_the_host_at_the_east_stairs_and_the_host_the_jie_at_the_west():
    assert holders(RITE, "zhi_juzhi", 17) == ["bin", "zhuren"]
    toast = spans(RITE, 17, phrase="賓坐奠觶遂拜執觶興", do="bow")[0]
    (x, y, z), _, posture, _ = where(RITE, "bin", act_mid(toast, "bin"))
    assert z > 3 and near((x, y), place(RITE, "hall.east_steps_top"), 4.0)
    zx = where(RITE, "zhuren", act_mid(toast, "bin"))[0]
    assert zx[0] > x + 2                                          # 主人…立于賓東
    assert holders(RITE, "zhi_juzhi", 18) == ["zhuren", "jie"]
    give = spans(RITE, 18, do="receive", who="jie")[0]
    jx = where(RITE, "jie", give.start_s)[0]
    assert near(jx, place(RITE, "hall.west_steps_top"), 5.0)       # 西階上
    first = spans(RITE, 18, phrase="介降席自南方立于主人之西")[0]
    assert where(RITE, "jie", first.end_s)[0][0] < where(RITE, "zhuren", first.end_s)[0][0] - 2   # 立于主人之西


def test_the_lv_goes_round_every_zhongbin_from_the_jie_the_first_on_his_right():
    got = holders(RITE, "zhi_juzhi", 19)
    assert got[0] == "jie" and got[1] == "zhongbin_1"
    for aid in ZHONGBIN + ("yuezheng",):
        assert aid in got, f"{aid} never receives in the 旅"    # 辯
    assert [got.index(z) for z in ZHONGBIN] == sorted(got.index(z) for z in ZHONGBIN)
    assert "zanzhe_1" not in got and "zanzhe_2" not in got          # 記30 主人之贊者…不與
    right = spans(RITE, 19, phrase="受酬者自介右")[0]
    assert where(RITE, "zhongbin_1", right.end_s)[0][0] > where(RITE, "jie", right.end_s)[0][0] + 2   # 由介東
    xu = spans(RITE, 19, phrase="司正退立于序端東面")[0]
    (x, y, z), hd, *_ = where(RITE, "xiang", xu.end_s)
    assert z > 3 and near((x, y), place(RITE, "hall.west_xu_end"), 4.0) and abs(hd - 90) < 20
    end = stage(RITE, 19).end_s
    p = RITE.pose_at(end)
    j = p.object_ids.index("zhi_juzhi")
    assert near(tuple(float(c) / CHI for c in p.object_xyz_m[j]), place(RITE, "court.xi_basket"), 2.0)  # 奠于篚
    assert near(where(RITE, "xiang", end)[0], place(RITE, "pos.sizheng"), 1.5)                        # 降復位


# ---------------------------------------------------------------- §20 二人舉觶

def test_the_two_zhi_are_left_west_of_the_bins_jian_and_south_of_the_jies():
    st = stage(RITE, 20)
    p = RITE.pose_at(st.end_s)
    cup = {o: tuple(float(c) / CHI for c in p.object_xyz_m[p.object_ids.index(o)]) for o in ("zhi_2", "zhi_3")}
    bin_mat, jie_mat = place(RITE, "mat.bin"), place(RITE, "mat.jie")
    assert cup["zhi_2"][0] < bin_mat[0] - 1 and cup["zhi_2"][1] < bin_mat[1]      # 薦西 (his 薦 is south of his mat)
    assert cup["zhi_3"][0] > jie_mat[0] and cup["zhi_3"][1] < jie_mat[1] - 1      # 薦南 (his 薦 east of his mat)
    assert holders(RITE, "zhi_2", 20)[-1] == "bin" and holders(RITE, "zhi_3", 20)[-1] == "jie"
    ans = spans(RITE, 20, phrase="賓介席末答拜", who="bin")[0]
    bx = where(RITE, "bin", act_mid(ans, "bin"))[0]
    assert bx[0] < bin_mat[0] - 1                                                # 賈 賓於席西
    jx = where(RITE, "jie", act_mid(spans(RITE, 20, phrase="賓介席末答拜", who="jie")[0], "jie"))[0]
    assert jx[1] < jie_mat[1] - 1                                                # 賈 介於席南


# ---------------------------------------------------------------- §21 徹俎

@pytest.mark.parametrize("zu, chain", [
    ("zu_bin", ["bin", "xiang", "congzhe"]),       # 賓取俎還授司正, 記27 遂出授從者
    ("zu_zhuren", ["zhuren", "dizi_1"]),           # 主人取俎還授弟子
    ("zu_jie", ["jie", "dizi_2", "congzhe"]),      # 介取俎還授弟子, 記27
])
def test_each_zu_passes_from_its_owner_to_the_one_who_takes_it_down(zu, chain):
    assert holders(RITE, zu, 21) == chain


def test_the_hosts_zu_goes_east_and_the_guests_zu_out_of_the_gate():
    st = stage(RITE, 21)
    p = RITE.pose_at(st.end_s)
    pos = {o: tuple(float(c) / CHI for c in p.object_xyz_m[p.object_ids.index(o)]) for o in ("zu_zhuren", "zu_bin", "zu_jie")}
    assert pos["zu_zhuren"][0] > place(RITE, "hall.east_lian")[0]             # 記28 主人之俎以東
    gate_y = place(RITE, "hall.gate")[1]
    assert pos["zu_bin"][1] < gate_y and pos["zu_jie"][1] < gate_y           # 記27 遂出授從者
    take = spans(RITE, 21, phrase="賓取俎還授司正", do="take")[0]
    assert abs((where(RITE, "bin", act_mid(take, "bin"))[1] + 180) % 360 - 180) < 20   # 鄭 取俎者皆鄉其席: 北面


def test_all_go_down_after_the_zu():
    end = stage(RITE, 21).end_s
    for aid in ("bin", "jie", "zhuren") + ZHONGBIN:
        assert where(RITE, aid, end)[0][2] < 1, f"{aid} still on the 堂 after 眾賓皆降"


def test_zunzhe_steps_only_with_him():
    got = {a for s in NO_DAFU.spans if s.section in MINE for a in s.who}
    assert "dafu" not in got
    with_him = {a for s in RITE.spans if s.section in MINE for a in s.who}
    assert "dafu" in with_him


# ---------------------------------------------------------------- §22 坐燕

def test_they_go_up_again_as_at_first_and_sit():
    s22 = CHORE.section(22)
    assert any(st.as_before == (3, "主人與賓三揖至于階三讓") for st in s22.steps)
    sit = spans(RITE, 22, phrase="升坐", do="sit")[0]
    t = sit.end_s + 0.5
    for aid, mat in (("zhuren", "mat.zhuren"), ("bin", "mat.bin"), ("jie", "mat.jie"),
                     ("zhongbin_1", "mat.zhongbin_1")):
        (x, y, z), _, posture, _ = where(RITE, aid, t)
        assert posture == "sit" and near((x, y), place(RITE, mat), 2.0), aid
    # 記31 無筭爵然後與: the 主人之贊者 drink now
    assert "zanzhe_1" in holders(RITE, "zhi_3", 22)


# ---------------------------------------------------------------- §23 賓出

def test_bin_leaves_by_the_gate_and_the_host_bows_outside_it_facing_west():
    gate_y = place(RITE, "hall.gate")[1]
    bow = spans(RITE, 23, phrase="主人送于門外再拜", do="bow_twice")[0]
    (x, y, z), hd, posture, _ = where(RITE, "zhuren", act_mid(bow, "zhuren"))
    assert y < gate_y and posture == "bow" and abs(hd - 270) < 20       # 鄭 門東西面拜
    assert x > place(RITE, "hall.gate")[0]                               # 門東
    bxy = where(RITE, "bin", act_mid(bow, "zhuren"))
    assert bxy[3] and bxy[0][1] < gate_y                                  # the 賓 outside the 門
    end = stage(RITE, 23).end_s
    for aid in ("bin", "jie") + ZHONGBIN:
        assert not where(RITE, aid, end)[3], f"{aid} still here after 賓出"
    drum = spans(RITE, 23, do="play")[0]
    reach = spans(RITE, 23, phrase="賓出奏陔", do="walk", who="bin")[0]
    assert drum.start_s >= reach.end_s - 0.01                           # 記29 賓出至于階陔作


# ---------------------------------------------------------------- §24–§25

def test_the_zunzhe_entry_is_told_not_acted_after_the_guests_have_gone():
    st = stage(RITE, 24)
    a, b = RITE.pose_at(st.start_s), RITE.pose_at(st.end_s)
    moved = [aid for i, aid in enumerate(a.actor_ids) if math.dist(a.actor_xyz_m[i], b.actor_xyz_m[i]) > 0.05]
    assert moved == []
    assert all(s.do == "wait" for s in spans(RITE, 24))


def test_next_day_the_sizheng_sits_as_guest_and_no_jie():
    end = RITE.duration
    (x, y, z), _, _, vis = where(RITE, "xiang", end)
    assert vis and near((x, y), place(RITE, "mat.bin"), 2.0)             # 鄭 司正為賓
    assert not where(RITE, "bin", end)[3] and not where(RITE, "jie", end)[3]   # 賓介不與, 無介
    bai = spans(RITE, 25, phrase="明日賓服鄉服以拜賜", do="bow_twice")[0]
    assert where(RITE, "bin", act_mid(bai, "bin"))[0][1] < place(RITE, "hall.gate")[1]


# ---------------------------------------------------------------- nobody on one spot

def test_no_two_people_stand_on_one_spot():
    """Sampled at 2 Hz over §13–§25: two visible people both standing still are never within 0.4 m (a
    hand-over excepted)."""
    t0, t1 = stage(RITE, 13).start_s, RITE.duration
    import numpy as np
    times = np.arange(t0, t1, 0.5)
    s = RITE.sample(times, objects=False)
    xyz, vis = s["actor_xyz_m"], s["visible"]
    still = np.zeros(vis.shape, dtype=bool)
    still[1:-1] = (np.linalg.norm(xyz[2:] - xyz[1:-1], axis=2) < 0.02) & (np.linalg.norm(xyz[1:-1] - xyz[:-2], axis=2) < 0.02)
    ids = RITE.actor_ids
    bad = []
    for k, t in enumerate(times):
        on = np.flatnonzero(vis[k] & still[k])
        for a in range(len(on)):
            for b in range(a + 1, len(on)):
                i, j = on[a], on[b]
                if np.linalg.norm(xyz[k, i] - xyz[k, j]) < 0.4:
                    pair = {ids[i], ids[j]}
                    if any(h0 <= t <= h1 and {g, r} == pair for h0, h1, g, r in RITE.handovers):
                        continue
                    bad.append((round(float(t), 1), ids[i], ids[j]))
    assert not bad, bad[:10]
