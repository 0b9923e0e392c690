"""Chapter 4, 鄉飲酒禮, §13–§25 as the text has them, read from the compiled tracks: the music, the 司正 at 楹間 and
at his 觶 階間當中庭, the 酬 and the 旅 going round, the 二人's 觶 left at 薦西 / 薦南, each 俎 passing from its
owner's hands to the one who takes it down (and out: 記27, 記28), the 賓 leaving by the 門 and the 主人 bowing
outside it, the 遵者's entry told and not acted out of its place, and the next day.

The steps are found by the words of the 經 they act (``at_words``), not by how a file cut the text into phrases:
§13–§23 are another file's (the merge keeps them), §24–§25 this branch's (9_mingri.toml).  The 記 items the data
of §13–§23 does not act yet are ``xfail`` with what is missing."""
from __future__ import annotations

import math

import numpy as np
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


def at_words(rite, n, words, do=None, who=None):
    """The spans of §n whose phrase covers the start of ``words`` (however the data cut the text into phrases)."""
    text = T.passage(n, chapter=FOUR).text
    k = text.index(words)
    return [s for s in rite.spans if s.section == n and s.offset <= k < s.offset + len(s.phrase)
            and (do is None or s.do in ((do,) if isinstance(do, str) else do)) and (who is None or who in s.who)]


def obj_at(rite, obj, t):
    p = rite.pose_at(t)
    return tuple(float(c) / CHI for c in p.object_xyz_m[p.object_ids.index(obj)])


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

def test_sections_13_to_25_load_with_the_passages_titles():
    secs = {s.n: s for s in CHORE.sections}
    for n in MINE:
        s = secs[n]
        assert s.title == T.passage(n, chapter=FOUR).title
        assert s.steps, f"§{n} has no step"
        for st in s.steps:
            assert st.phrase in T.passage(n, chapter=FOUR).text
    assert secs[24].source_file == secs[25].source_file == "9_mingri.toml"


def test_steps_follow_the_text_order():
    """A step not acted alongside the one before cites words at or after those of the step before it."""
    for n in MINE:
        s = CHORE.section(n)
        cursor = 0
        for i, st in enumerate(s.steps):
            if st.with_prev and st.offset > cursor:
                continue                         # acted alongside, citing words further on
            assert st.offset >= cursor, f"§{n} step {i + 1} {st.phrase!r} goes back in the text"
            cursor = st.offset


def test_every_section_compiles_with_and_without_the_zunzhe():
    """§24 (既一人舉觶乃入) is played right after §10 when the 遵者 comes; without him, where the text tells it."""
    assert [s.n for s in RITE.stages] == [*range(1, 11), 24, *range(11, 24), 25]
    assert [s.n for s in NO_DAFU.stages] == list(range(1, 26))
    for rite in (RITE, NO_DAFU):
        runs = [p for k, p in enumerate(s.phase for s in rite.stages) if k == 0 or rite.stages[k - 1].phase != p]
        assert len(runs) == len(set(runs)), runs        # the navigator's groups (app.js fillNav): one per phase
        for n in MINE:
            st = stage(rite, n)
            assert st.end_s > st.start_s, n


# ---------------------------------------------------------------- §13–§14 music

def test_jian_ge_alternates_song_and_pipes_and_he_yue_plays_them_together():
    sung = spans(RITE, 13, do="play")
    who = ["gong" if any(a.startswith("gong") for a in s.who) else "sheng" for s in sung]
    assert who == ["gong", "sheng"] * 3                          # 閒: 一歌則一吹, 三終
    for a, b in zip(sung, sung[1:]):
        assert b.start_s >= a.end_s - 0.01                       # never together
    he = spans(RITE, 14, do="play")
    gong = [s for s in he if any(a.startswith("gong") for a in s.who)]
    sheng = [s for s in he if any(a.startswith("sheng") for a in s.who)]
    assert gong and sheng
    for g in gong:                                               # 合樂: 鄭 歌樂與眾聲俱作
        assert any(min(g.end_s, h.end_s) - max(g.start_s, h.start_s) > 1.0 for h in sheng)
    down = at_words(RITE, 14, "乃降", who="yuezheng")[-1]
    (x, y, z), hd, *_ = where(RITE, "yuezheng", down.end_s)
    assert z < 1 and near((x, y), place(RITE, "pos.yuezheng_below"), 3.0)   # 鄭 降立西階東北面
    assert abs((hd + 180) % 360 - 180) < 25


# ---------------------------------------------------------------- §15–§16 the 司正

def test_sizheng_stands_between_the_pillars_for_the_bows_at_the_two_stairs():
    bow = at_words(RITE, 15, "主人阼階上再拜", do="bow_twice", who="zhuren")[0]
    answer = at_words(RITE, 15, "賓西階上答拜", do=("answer_bow", "answer_bow_twice", "bow"), who="bin")[0]
    zx = where(RITE, "zhuren", act_mid(bow, "zhuren"))
    bx = where(RITE, "bin", act_mid(answer, "bin"))
    assert zx[0][2] > 3 and near(zx[0], place(RITE, "hall.east_steps_top"), 4.5) and zx[2] == "bow"
    assert bx[0][2] > 3 and near(bx[0], place(RITE, "hall.west_steps_top"), 4.5) and bx[2] == "bow"
    xiang = at_words(RITE, 15, "司正立于楹間以相拜", who="xiang")[-1]
    (x, y, z), *_ = where(RITE, "xiang", xiang.end_s)
    assert z > 3 and near((x, y), place(RITE, "hall.between_pillars"), 2.0)
    roles = RITE.pose_at(xiang.end_s).role
    assert roles[RITE.actor_ids.index("xiang")] == "司正"


def test_sizheng_kneels_north_facing_between_the_stairs_mid_court_to_set_his_zhi():
    st = at_words(RITE, 16, "階間北面坐奠觶", do="set_down", who="xiang")[0]
    (x, y, z), hd, posture, _ = where(RITE, "xiang", act_mid(st, "xiang"))
    east, west = place(RITE, "hall.east_steps"), place(RITE, "hall.west_steps")
    gate, lian = place(RITE, "hall.gate"), place(RITE, "hall.tang_lian")
    assert posture == "sit" and z < 1
    assert west[0] < x < east[0] and abs(x) < 1.5                # 階間: 東西節也
    assert abs(y - (gate[1] + lian[1]) / 2) < 4.0                # 其南北當中庭
    assert abs((hd + 180) % 360 - 180) < 20                      # 北面
    cup = obj_at(RITE, "zhi_sizheng", st.end_s + 0.5)
    assert near(cup, place(RITE, "pos.sizheng_zhi"), 1.5)
    stand = at_words(RITE, 16, "退立于觶南", who="xiang")[-1]
    (sx, sy, _), *_ = where(RITE, "xiang", stand.end_s)
    assert sy < cup[1] - 1.5 and abs(sx - cup[0]) < 1.0          # 立于觶南


def test_sizheng_gets_his_jian_by_his_place():
    """記23 司正既舉觶而薦諸其位."""
    dish = obj_at(RITE, "jian_sizheng", stage(RITE, 17).start_s)
    assert near(dish, place(RITE, "pos.sizheng"), 4.0)


# ---------------------------------------------------------------- §17–§19 the 酬 and the 旅

def test_bin_toasts_the_host_at_the_east_stairs_and_the_host_the_jie_at_the_west():
    assert holders(RITE, "zhi_juzhi", 17) == ["bin", "zhuren"]
    toast = at_words(RITE, 17, "賓坐奠觶遂拜執觶興", do="bow", who="bin")[0]
    (x, y, z), _, posture, _ = where(RITE, "bin", act_mid(toast, "bin"))
    assert z > 3 and near((x, y), place(RITE, "hall.east_steps_top"), 4.5)
    assert where(RITE, "zhuren", act_mid(toast, "bin"))[0][0] > x + 2          # 主人…立于賓東
    assert holders(RITE, "zhi_juzhi", 18) == ["zhuren", "jie"]
    got = at_words(RITE, 18, "如賓酬主人之禮", do="receive", who="jie") or spans(RITE, 18, do="receive", who="jie")
    assert near(where(RITE, "jie", got[0].start_s)[0], place(RITE, "hall.west_steps_top"), 5.0)   # 西階上
    west = at_words(RITE, 18, "立于主人之西", who="jie")[-1]
    assert where(RITE, "jie", west.end_s)[0][0] < where(RITE, "zhuren", west.end_s)[0][0] - 2     # 立于主人之西


def test_the_lv_goes_round_every_zhongbin_from_the_jie_the_first_on_his_right():
    got = holders(RITE, "zhi_juzhi", 19)
    assert got[0] == "jie" and got[1] == "zhongbin_1"
    for aid in ZHONGBIN:
        assert aid in got, f"{aid} never receives in the 旅"    # 辯
    assert [got.index(z) for z in ZHONGBIN] == sorted(got.index(z) for z in ZHONGBIN)   # 以齒
    assert "zanzhe_1" not in got and "zanzhe_2" not in got          # 記30 主人之贊者…不與
    xu = at_words(RITE, 19, "司正退立于序端東面", who="xiang")[-1]
    (x, y, z), hd, *_ = where(RITE, "xiang", xu.end_s)
    assert z > 3 and near((x, y), place(RITE, "hall.west_xu_end"), 4.0) and abs(hd - 90) < 25
    end = stage(RITE, 20).start_s
    assert near(obj_at(RITE, "zhi_juzhi", end), place(RITE, "court.xi_basket"), 2.5)   # 卒受者以觶降坐奠于篚
    assert near(where(RITE, "xiang", end)[0], place(RITE, "pos.sizheng"), 1.5)         # 司正降復位 (觶南之位)


def test_the_first_receives_on_the_jies_right():
    """受酬者自介右 (鄭 由介東也, 尊介使不失故位); 眾受酬者受自左 (鄭 後將受酬者皆由西, 變於介也)."""
    first = next(t for t, k, v in sorted(RITE.director.objects["zhi_juzhi"].events, key=lambda e: e[0])
                 if k == "held" and v == "zhongbin_1" and t >= stage(RITE, 19).start_s)
    assert where(RITE, "zhongbin_1", first)[0][0] > where(RITE, "jie", first)[0][0]
    second = next(t for t, k, v in sorted(RITE.director.objects["zhi_juzhi"].events, key=lambda e: e[0])
                  if k == "held" and v == "zhongbin_2" and t >= stage(RITE, 19).start_s)
    assert where(RITE, "zhongbin_2", second)[0][0] < where(RITE, "zhongbin_1", second)[0][0]      # 受自左


def test_the_yuezheng_drinks_in_the_lv_with_those_standing():
    """記16 樂正與立者皆薦以齒 (鄭 謂其飲之次也): he drinks in the 旅 with those below, and goes back to his place."""
    got = holders(RITE, "zhi_juzhi", 19)
    assert "yuezheng" in got and got.index("zhongbin_3") < got.index("yuezheng") < got.index("zhongbin_4")
    (x, y, z), *_ = where(RITE, "yuezheng", stage(RITE, 20).start_s)
    assert z < 1 and near((x, y), place(RITE, "pos.yuezheng_below"), 2.0)


# ---------------------------------------------------------------- §20 二人舉觶

def test_the_two_zhi_are_left_west_of_the_bins_jian_and_south_of_the_jies():
    t = stage(RITE, 21).start_s
    bin_mat, jie_mat = place(RITE, "mat.bin"), place(RITE, "mat.jie")
    z2, z3 = obj_at(RITE, "zhi_2", t), obj_at(RITE, "zhi_3", t)
    assert z2[0] < bin_mat[0] - 1 and z2[1] < bin_mat[1]                 # 薦西 (his 薦 south of his mat)
    assert z3[0] > jie_mat[0] and z3[1] < jie_mat[1] - 1                 # 薦南 (his 薦 east of his mat)
    for cup in ("zhi_2", "zhi_3"):
        assert RITE.director.objects[cup].events and not any(
            k == "held" and abs(tt - t) < 0.01 for tt, k, v in RITE.director.objects[cup].events)
    ans = at_words(RITE, 20, "賓介席末答拜", who="bin", do=("answer_bow", "bow"))[0]
    assert where(RITE, "bin", act_mid(ans, "bin"))[0][0] < bin_mat[0] - 1           # 賈 賓於席西南面


def test_the_jie_answers_at_the_north_end_of_his_mat_under_zheng():
    """鄭 記22 席南上 (升由下降由上): the 介's mat is 南上, its 末 the north end (the default reading, zheng)."""
    jie_mat = place(RITE, "mat.jie")
    jans = at_words(RITE, 20, "賓介席末答拜", who="jie", do=("answer_bow", "bow"))[0]
    assert where(RITE, "jie", act_mid(jans, "jie"))[0][1] > jie_mat[1] + 1


def test_the_jie_answers_at_the_south_end_of_his_mat():
    """賈 §20 疏 介於席南東面答拜: under the preset jia (chapter 4's own reading, its manifest's [reading])."""
    jia = build_rite("jia", chapter=FOUR)
    jie_mat = place(jia, "mat.jie")
    for words in ("賓介席末答拜", "賓介皆拜"):      # 鄭 於席末拜, 賈 介在席南東面: the second too
        jans = at_words(jia, 20, words, who="jie", do=("answer_bow", "bow"))[-1]
        (x, y, _), heading, _, _ = where(jia, "jie", act_mid(jans, "jie"))
        assert y < jie_mat[1] - 1 and abs(heading - 90) < 20                         # 賈 介於席南東面


# ---------------------------------------------------------------- §21 徹俎

@pytest.mark.parametrize("zu, chain", [
    ("zu_bin", ["bin", "xiang"]),                  # 賓取俎還授司正
    ("zu_zhuren", ["zhuren", "dizi_1"]),           # 主人取俎還授弟子
    ("zu_jie", ["jie", "dizi_2"]),                 # 介取俎還授弟子
])
def test_each_zu_passes_from_its_owner_to_the_one_who_takes_it_down(zu, chain):
    assert holders(RITE, zu, 21)[:2] == chain


def test_the_hosts_zu_goes_east_and_the_bins_out_of_the_gate():
    t = stage(RITE, 22).start_s
    assert obj_at(RITE, "zu_zhuren", t)[0] > place(RITE, "hall.east_lian")[0] - 2   # 記28 主人之俎以東
    assert holders(RITE, "zu_bin", 21)[-1] == "congzhe"                            # 記27 遂出授從者
    take = at_words(RITE, 21, "賓取俎還授司正", do="take", who="bin")[0]
    assert abs((where(RITE, "bin", act_mid(take, "bin"))[1] + 180) % 360 - 180) < 25   # 鄭 取俎者皆鄉其席: 北面


def test_the_jies_zu_goes_out_to_an_attendant():
    """記27 徹俎賓介遵者之俎受者以降遂出授從者: the 弟子 takes the 介's 俎 down and out of the 門 to a 從者."""
    assert holders(RITE, "zu_jie", 21)[-1] == "congzhe"
    assert obj_at(RITE, "zu_jie", stage(RITE, 22).start_s)[1] < place(RITE, "hall.gate")[1]


def test_all_go_down_after_the_zu():
    end = stage(RITE, 22).start_s
    for aid in ("bin", "jie", "zhuren") + ZHONGBIN:
        assert where(RITE, aid, end)[0][2] < 1, f"{aid} still on the 堂 after 眾賓皆降"


# ---------------------------------------------------------------- §22 坐燕

def test_they_go_up_again_as_at_first_and_sit():
    s22 = CHORE.section(22)
    cited = [st.as_before for st in s22.steps if st.as_before]
    assert cited and all("揖" in w for _, w in cited)              # 揖讓如初: the earlier words cited
    t = stage(RITE, 23).start_s - 0.5
    for aid, mat in (("zhuren", "mat.zhuren"), ("bin", "mat.bin"), ("jie", "mat.jie"),
                     ("zhongbin_1", "mat.zhongbin_1")):
        (x, y, z), _, posture, _ = where(RITE, aid, t)
        assert near((x, y), place(RITE, mat), 2.5) and posture == "sit", (aid, posture)   # 升坐


def test_the_hosts_officers_drink_in_the_wusuanjue():
    """記31 主人之贊者…無筭爵然後與: the 主人's men have a cup in hand at the 無筭爵."""
    got = set()
    for cup in ("zhi_2", "zhi_3", "zhi_juzhi"):
        got |= set(holders(RITE, cup, 22))
    assert {"zanzhe_1", "zanzhe_2"} & got


# ---------------------------------------------------------------- §23 賓出

def test_bin_leaves_by_the_gate_and_the_host_bows_outside_it_facing_west():
    gate_y = place(RITE, "hall.gate")[1]
    bow = at_words(RITE, 23, "主人送于門外再拜", do="bow_twice", who="zhuren")[0]
    (x, y, z), hd, posture, _ = where(RITE, "zhuren", act_mid(bow, "zhuren"))
    assert y < gate_y and posture == "bow" and abs(hd - 270) < 25       # 鄭 門東西面拜
    assert x > place(RITE, "hall.gate")[0]                               # 門東
    b = where(RITE, "bin", act_mid(bow, "zhuren"))
    assert b[3] and b[0][1] < gate_y                                      # the 賓 outside the 門
    end = stage(RITE, 25).start_s
    for aid in ("bin", "jie") + ZHONGBIN:
        assert not where(RITE, aid, end)[3], f"{aid} still here after 賓出"


def test_the_gai_is_played_as_the_bin_reaches_the_stairs():
    """記29 樂正命奏陔賓出至于階陔作: the 樂正 orders the 陔 and it is played as the 賓 goes out."""
    assert spans(RITE, 23, do="play") and at_words(RITE, 23, "奏陔", who="yuezheng")


# ---------------------------------------------------------------- §24–§25 (9_mingri.toml)

def test_without_the_zunzhe_his_entry_is_only_told_after_the_guests_have_gone():
    st = stage(NO_DAFU, 24)
    a, b = NO_DAFU.pose_at(st.start_s), NO_DAFU.pose_at(st.end_s)
    moved = [aid for i, aid in enumerate(a.actor_ids) if math.dist(a.actor_xyz_m[i], b.actor_xyz_m[i]) > 0.05]
    assert moved == []
    assert len(spans(NO_DAFU, 24)) == 1 and spans(NO_DAFU, 24)[0].do == "wait"     # 若有遵者: the rest only with him
    assert len(spans(RITE, 24)) > 20 and not any(s.do == "wait" for s in spans(RITE, 24))
    assert not any("dafu" in s.who for s in spans(NO_DAFU, 24) + spans(NO_DAFU, 25))


def test_next_day_the_bin_bows_outside_the_host_follows_and_the_sizheng_sits_as_guest():
    gate_y = place(RITE, "hall.gate")[1]
    bai = at_words(RITE, 25, "明日賓服鄉服以拜賜", do="bow_twice", who="bin")[0]
    assert where(RITE, "bin", act_mid(bai, "bin"))[0][1] < gate_y          # 拜賜 at the 門 (鄉射 于門外)
    ru = at_words(RITE, 25, "主人如賓服以拜辱", do="bow_twice", who="zhuren")[0]
    assert where(RITE, "zhuren", act_mid(ru, "zhuren"))[0][1] < gate_y     # he goes out to the 賓 (拜辱)
    end = RITE.duration
    (x, y, z), _, _, vis = where(RITE, "xiang", end)
    assert vis and z > 3 and near((x, y), place(RITE, "mat.bin"), 2.0)    # 鄭 司正為賓
    assert not where(RITE, "bin", end)[3] and not where(RITE, "jie", end)[3]   # 賓介不與, 無介
    jian = at_words(RITE, 25, "薦脯醢", do="set_down")[0]
    assert near(where(RITE, jian.who[0], act_mid(jian, jian.who[0]))[0], place(RITE, "mat.bin"), 6.0)   # 薦 before him
    assert jian.start_s > at_words(RITE, 25, "乃息司正", who="xiang")[-1].end_s - 0.01
    seen = [a for a in RITE.actor_ids if where(RITE, a, bai.start_s)[3] and a not in ("zhuren", "bin")]
    assert seen == [], f"yesterday's company still in the hall the next day: {seen}"


# ---------------------------------------------------------------- nobody on one spot

def test_no_two_people_stand_on_one_spot():
    """Sampled at 2 Hz over §13–§25: two visible people both standing still are never within 0.4 m (a
    hand-over excepted)."""
    t0, t1 = stage(RITE, 13).start_s, RITE.duration
    times = np.arange(t0, t1, 0.5)
    s = RITE.sample(times, objects=False)
    xyz, vis = s["actor_xyz_m"], s["visible"]
    still = np.zeros(vis.shape, dtype=bool)
    still[1:-1] = ((np.linalg.norm(xyz[2:] - xyz[1:-1], axis=2) < 0.02)
                   & (np.linalg.norm(xyz[1:-1] - xyz[:-2], axis=2) < 0.02))
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


# ---------------------------------------------------------------- the checker (issue 43)

def test_the_checker_finds_nothing_in_chapter_4_with_and_without_the_zunzhe():
    """python -m scene --chapter xiangyinjiu check: 0 findings, with the 大夫 and without (若有遵者)."""
    from scene.rite import grammar
    assert grammar.check(RITE) == []
    assert grammar.check(NO_DAFU) == []


# ---------------------------------------------------------------- §24 遵者入 (played after §10)

def test_the_zunzhe_enters_after_the_yiren_juzhi_and_before_the_music():
    """既一人舉觶乃入 (記18 樂作大夫不入): he comes through the 門 after §10's last act and is on his mat before §11."""
    s10, s24, s11 = stage(RITE, 10), stage(RITE, 24), stage(RITE, 11)
    assert s10.end_s <= s24.start_s < s24.end_s <= s11.start_s
    comes = at_words(RITE, 24, "乃入", who="dafu", do="enter")[0]
    assert comes.start_s >= s10.end_s
    assert not where(RITE, "dafu", s10.end_s)[3] and where(RITE, "dafu", comes.end_s)[3]
    (x, y, z), hd, *_ = where(RITE, "dafu", s11.start_s)
    assert z > 3 and near((x, y), place(RITE, "mat.zunzhe"), 1.5)          # 席于賓東
    assert x > place(RITE, "mat.bin")[0] + 5 and abs((hd - 180 + 180) % 360 - 180) < 25   # 賓東, 南面
    assert not any(s.section == 24 and "dafu" in s.who for s in NO_DAFU.spans)
    assert stage(NO_DAFU, 24).start_s > stage(NO_DAFU, 23).end_s                   # nobody comes: told at its place


def test_all_go_down_for_him_and_the_host_meets_him_inside_the_gate():
    """主人降, 賓介降, 眾賓皆降復初位, 主人迎 (鄭 迎之於門內): then 揖讓升, each back to his mat."""
    meet = at_words(RITE, 24, "主人迎", who="zhuren")[0]
    gate = place(RITE, "hall.gate")
    (x, y, z), *_ = where(RITE, "zhuren", meet.end_s)
    assert z < 1 and gate[1] < y < gate[1] + 30 and near((x, y), where(RITE, "dafu", meet.end_s)[0], 5)
    for aid in ("bin", "jie") + ZHONGBIN:
        (_, ay, az), *_ = where(RITE, aid, meet.end_s)
        assert az < 1 and ay < gate[1] + 30, f"{aid} not back in the file by the 門"
    s11 = stage(RITE, 11).start_s
    for aid, mat in (("bin", "mat.bin"), ("jie", "mat.jie"), ("zhongbin_1", "mat.zhongbin_1"), ("zhuren", "mat.zhuren")):
        assert near(where(RITE, aid, s11)[0], place(RITE, mat), 1.5), f"{aid} not back on his mat"


def test_the_dafu_declines_the_upper_mat_and_the_host_answers():
    """無諸公則大夫辭加席主人對不去加席."""
    dec = at_words(RITE, 24, "無諸公則大夫辭加席", who="dafu", do="decline")[0]
    ans = at_words(RITE, 24, "主人對不去加席", who="zhuren", do="reply")[0]
    assert dec.end_s <= ans.start_s + 0.01
    bow = at_words(RITE, 24, "大夫則如介禮", who="dafu")[0]
    assert near(where(RITE, "dafu", act_mid(bow, "dafu"))[0], place(RITE, "hall.west_steps_top"), 7)


def test_the_zunzhe_is_on_his_mat_for_the_che_zu_and_the_zuo_yan_and_gone_with_the_guests():
    for n in (21, 23):
        (x, y, z), _, _, seen = where(RITE, "dafu", stage(RITE, n).start_s + 0.1)
        assert seen and z > 3 and near((x, y), place(RITE, "mat.zunzhe"), 1.5), n
    (x, y, z), _, pose, seen = where(RITE, "dafu", stage(RITE, 22).end_s - 0.1)      # 坐: seated on his mat
    assert seen and z > 3 and near((x, y), place(RITE, "mat.zunzhe"), 1.5) and pose == "sit"
    assert not where(RITE, "dafu", stage(RITE, 23).end_s)[3]                     # out after the 眾賓 (鄉射記 大夫後出)
    out = at_words(RITE, 23, "主人送于門外再拜", who="dafu")[0]
    gone = [at_words(RITE, 23, "賓出奏陔", who=a)[0].start_s for a in ZHONGBIN]
    assert out.start_s > max(gone)
    assert not any(s.section == 25 and "dafu" in s.who for s in RITE.spans)     # nothing left for 明日 to clear


def test_the_dafu_is_given_the_xian_as_the_jie_with_his_own_jue_jian_and_zu():
    """大夫則如介禮 (記 鄭 上篚三爵…獻大夫亦然; 凡舉爵三作而不徒爵, 鄭 獻賓獻大夫獻工皆有薦): the 主人 takes the third
    爵, washes it, fills it and offers it at his 席前; he takes it there, his 薦 and 俎 are set at his mat, he drinks at
    西階上; and the 酢 of the 介 (§8): he hands the 主人 the 爵 between the pillars, and it ends south of the 西楹."""
    steps = at_words(RITE, 24, "大夫則如介禮")
    got = next(s for s in steps if s.do == "receive" and "dafu" in s.who)
    p = RITE.pose_at(got.end_s + 0.5)
    assert "爵" in p.holding[p.actor_ids.index("dafu")]
    assert near(where(RITE, "dafu", got.end_s)[0], place(RITE, "mat.zunzhe"), 7)
    drink = next(s for s in steps if s.do == "drink" and "dafu" in s.who)
    assert near(where(RITE, "dafu", drink.end_s)[0], place(RITE, "hall.west_steps_top"), 3)
    for obj, near_to in (("jian_zunzhe", 5), ("zu_zunzhe", 7)):
        assert near(obj_at(RITE, obj, drink.start_s), place(RITE, "mat.zunzhe"), near_to), obj
    assert near(obj_at(RITE, "jue_3", stage(RITE, 24).end_s), place(RITE, "hall.west_pillar_south"), 2)
    assert any(s.do == "hand" and "dafu" in s.who for s in steps)                 # 授主人爵于兩楹之間
    assert not any(s.section == 24 and s.do in ("take", "receive", "drink") for s in NO_DAFU.spans)


def test_the_dafus_zu_is_taken_like_the_bins_and_carried_out_to_his_congzhe():
    """§21 遵者降席席東南面; 若有諸公大夫則使人受俎如賓禮 (記27 賓介遵者之俎受者以降遂出授從者)."""
    (x, y, z), hd, *_ = where(RITE, "dafu", at_words(RITE, 21, "遵者降席", who="dafu")[0].end_s)
    assert x > place(RITE, "mat.zunzhe")[0] + 2 and abs((hd - 180 + 180) % 360 - 180) < 25     # 席東, 南面
    steps = at_words(RITE, 21, "若有諸公大夫則使人受俎如賓禮")
    t = max(s.end_s for s in steps)
    gate = place(RITE, "hall.gate")
    assert not where(RITE, "congzhe", t)[3]
    handed = next(s for s in steps if s.do == "hand" and "dizi_1" in s.who)
    assert near(obj_at(RITE, "zu_zunzhe", handed.end_s - 0.1), gate, 14)
    (_, y, z), *_ = where(RITE, "dafu", at_words(RITE, 21, "眾賓皆降", who="zhongbin_1")[0].end_s)
    assert z < 1 and y < gate[1] + 30                                            # 皆降復初入之位


# ---------------------------------------------------------------- the checker's rules for §19 and §24 (mutants)

def _new_findings(rite, op, n, want):
    """The findings a mutant of ``op`` in §n (the first ``want`` picks that changes the tracks) adds to the
    section's own, and the mutant (as tests/test_checker_rules.py)."""
    from scene.rite import grammar
    from scene.rite.grammar import mutate
    from scene.rite.grammar.coverage import _ctx_of
    ctx = _ctx_of(rite)
    view = mutate.windowed(rite, n)
    m = next(m for m in mutate.mutants_of(ctx, [n], (op,)) if want(m) and mutate.changes(view, m))
    base = {f.key() for f in grammar.check(view)}
    return [f for f in grammar.check(mutate.mutated(view, [m])) if f.key() not in base], m


def test_the_relay_leaves_each_drinkers_turns_and_the_cup_is_in_his_hands_by_the_end_of_his_coming():
    """受…拜興飲 (§19): each one toasted has a turn of his own that ends with the 觶 in his hands; the toasters
    (the 介 first) a turn to the 興 and one after it."""
    from scene.rite.grammar.turns import relay_turns
    relay = at_words(RITE, 19, "受酬者自介右", do="relay")[0]
    turns = [tr for tr in relay_turns(RITE) if relay.start_s - 1e-6 <= tr[1] and tr[2] <= relay.end_s + 1e-6]
    who = next(st.who for st in CHORE.section(19).steps if st.do == "relay")
    for aid in who[1:]:
        first = next(tr for tr in turns if tr[0] == aid)
        p = RITE.pose_at(first[2] + 0.01)
        assert p.holding[p.actor_ids.index(aid)], (aid, first)
    for aid in who[:-1]:
        assert sum(tr[0] == aid for tr in turns) >= 2, aid                      # 坐奠觶拜…興, then 飲 實 授


@pytest.mark.parametrize("op, aid, word", [("no-hold", "yuezheng", "受"), ("no-hold", "yuezheng", "飲"),
                                           ("no-hold", "jie", "飲"), ("drop-posture", "yuezheng", "興")])
def test_a_relay_drinker_who_never_takes_the_cup_or_never_rises_is_found(op, aid, word):
    """In one span of the whole relay (330 s), a 受 never done is hidden by his taking the cup up again after
    the 坐奠觶, a 興 never done by the relay's end: held in each of his turns, it is found (grammar/turns.py)."""
    found, m = _new_findings(RITE, op, 19, lambda m: m.aid == aid and m.word == word)
    assert any(f.who == aid for f in found), (m.label(), found)


@pytest.mark.parametrize("words", ["乃入", "公如大夫入"])
def test_the_dafu_who_never_comes_in_is_found(words):
    """乃入 not walked (he appears and stays in the wings: his coming into sight is no 入 unless he is inside
    the 門 as his step ends), 公如大夫入 not walked (he stays in the gateway: the next step's walk is not
    his 入)."""
    found, m = _new_findings(RITE, "no-move", 24, lambda m: m.aid == "dafu" and m.word == "入" and words in m.clause)
    assert any(f.who == "dafu" and "入" in f.word for f in found), (m.label(), found)


def test_the_dafu_comes_through_the_gate_at_nai_ru_and_on_to_his_place():
    gate = place(RITE, "hall.gate")
    comes = at_words(RITE, 24, "乃入", who="dafu", do="enter")[0]
    (_, y, _), *_ = where(RITE, "dafu", comes.end_s)
    assert gate[1] - 0.5 <= y <= gate[1] + 2                                   # just inside the 門
    on = at_words(RITE, 24, "公如大夫入", who="dafu")[0]
    (_, y1, _), *_ = where(RITE, "dafu", on.end_s)
    assert y1 > y + 10


def test_only_the_three_elders_come_down_for_him():
    """眾賓皆降復初位: the two below never went up (§9); no step of §24 is theirs (grammar.toml [[group]])."""
    assert not any(s.section == 24 and {"zhongbin_4", "zhongbin_5"} & set(s.who) for s in RITE.spans)
    assert all(at_words(RITE, 24, "眾賓皆降", who=a) for a in ZHONGBIN[:3])


@pytest.mark.parametrize("reading", ["zheng", "zheng,dafu_present=false"])
def test_the_jie_goes_back_to_his_mat_after_his_toast(reading):
    """§19 介酬眾賓…皆如賓酬主人之禮 (§17 賓揖復席): once he has handed the 觶 on, the 介 goes back to his mat on the 堂.
    The relay's look-back for his 位 found his stair foot (without the 遵者) or the 初位 by the 門 (with them: §24's
    復初位), and he stood in the court until §20 (seen on a still; 0 findings)."""
    from scene.rite.cache import load_rite
    r = load_rite(reading, chapter=FOUR)
    nineteen = stage(r, 19)
    t = nineteen.start_s + 0.75 * (nineteen.end_s - nineteen.start_s)
    (x, y, z), *_ = where(r, "jie", t)
    mx, my, mz = place(r, "mat.jie")
    assert z == pytest.approx(mz, abs=0.5) and math.hypot(x - mx, y - my) < 3.0, ((x, y, z), (mx, my, mz))
