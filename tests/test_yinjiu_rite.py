"""Chapter 4's rite (issue 43, "a chapter is data, and 鄉飲酒禮 plays on the same engine"): its choreography
(assets/chapters/xiangyinjiu/rite/) loads, section by section, and compiles on chapter 5's engine into a rite
with no range — no 侯, no bow, no round, no shooting sound — with people where the 經 puts them.  Chapter 5's
tracks are held bit for bit by tests/test_golden.py."""
import math
import shutil

import numpy as np
import pytest

from scene import chapter as C
from scene.geometry.layout import build_layout
from scene.geometry.places import FACING_DEG
from scene.geometry.readings import get as reading
from scene.rite import archery
from scene.rite import choreography as chor
from scene.rite.audit import audit
from scene.rite.timeline import Rite
from scene.text import passage

FOUR = "xiangyinjiu"


@pytest.fixture(scope="module")
def choreo():
    return chor.load(FOUR)


@pytest.fixture(scope="module")
def rite(choreo):
    return Rite(reading(None), choreo)


@pytest.fixture(scope="module")
def lay():
    return build_layout(None, chapter=FOUR)


def _span(rite, n, phrase, who, last=False):
    """The first (or last) span of section ``n`` citing ``phrase`` that ``who`` acts."""
    found = [sp for sp in rite.spans if sp.section == n and sp.phrase == phrase and who in sp.who]
    assert found, f"§{n} has no step {phrase!r} of {who}"
    return found[-1] if last else found[0]


def _at(rite, who, t):
    """(x, y) in 尺 and the heading of ``who`` at ``t``."""
    p = rite.pose_at(t)
    i = p.actor_ids.index(who)
    x, y, _ = p.actor_xyz_m[i] / rite.reading.chi_m
    return (float(x), float(y)), float(p.heading_deg[i])


def _turned(h, facing):
    return abs(((h - FACING_DEG[facing] + 180) % 360) - 180) < 1.0


# ---------------------------------------------------------------- the data

def test_the_sections_run_in_text_order_from_1_and_every_phrase_is_its_section_s(choreo):
    ns = [s.n for s in choreo.sections]
    assert ns == list(range(1, len(ns) + 1)) and len(ns) >= 12
    for sec in choreo.sections:
        text = passage(sec.n, chapter=FOUR)
        assert sec.title == text.title
        for st in sec.steps:
            assert st.phrase in text.text, (sec.n, st.phrase)
            if "如" in st.phrase and st.as_before is not None:     # 如賓禮 / 如初: the words it repeats, earlier
                assert st.as_before[0] < sec.n and st.as_before[1] in passage(st.as_before[0], chapter=FOUR).text
        assert any(st.note for st in sec.steps), sec.n                 # each section says what it assumes
    # the 介 acts (鄉射 無介): 獻介 and 介酢 are his
    acting = {a for sec in choreo.sections if sec.n in (7, 8) for st in sec.steps for a in st.who}
    assert "jie" in acting


def test_a_partial_rite_loads_section_by_section(tmp_path):
    src = C.chapter(FOUR).folder
    files = sorted((src / "rite").glob("*.toml"))
    assert len(files) >= 2
    for k in range(1, len(files) + 1):
        dst = tmp_path / str(k) / FOUR
        dst.mkdir(parents=True)
        for f in ("chapter.toml", "cast.toml", "words.toml", "grammar.toml", "clauses.toml"):
            shutil.copy(src / f, dst / f)
        shutil.copytree(src / "lessons", dst / "lessons")          # the manifest names it (its class)
        (dst / "rite").mkdir()
        for f in files[:k]:
            shutil.copy(f, dst / "rite" / f.name)
        got = chor.load(C.load(dst))
        ns = [s.n for s in got.sections]
        assert ns == list(range(1, len(ns) + 1))
        assert len(ns) == sum(len(chor._load_toml(f).get("section", [])) for f in files[:k])
    # a gap is refused: the sections must run from §1
    gap = tmp_path / "gap" / FOUR
    (gap / "rite").mkdir(parents=True)
    for f in ("chapter.toml", "cast.toml", "words.toml", "grammar.toml", "clauses.toml"):
        shutil.copy(src / f, gap / f)
    shutil.copytree(src / "lessons", gap / "lessons")
    shutil.copy(files[-1], gap / "rite" / files[-1].name)
    with pytest.raises(chor.ChoreographyError, match="run 1, 2, 3"):
        chor.load(C.load(gap))


# ---------------------------------------------------------------- the engine: no range in the 庠

def test_the_range_part_is_plugged_in_only_where_the_hall_has_a_range(lay):
    assert archery.has_range(build_layout(None)) and not archery.has_range(lay)


def test_chapter_4_s_tracks_hold_no_archery(rite):
    assert rite.director.range is None and rite.results == {} and rite.director.round_pairs == {}
    assert not [o for o in rite.object_ids if o.startswith(("bow.", "arrow.", "counters."))
                or o in ("jing", "hou_rope", chor.SISHE_ONE)]
    assert not [sp for sp in rite.spans if sp.do in chor.ROUND_VERBS | chor.PAIR_VERBS]
    assert not rite.director.site.range_obstacles


def test_no_shooting_sound_and_no_hou_in_chapter_4_s_pack_parts(rite):
    from scene.web.pack.buffer import Bin
    from scene.web.pack.objects import hou_rope_variants
    from scene.web.pack.sounds import call_cues, drum_cues, nuo_cues
    assert hou_rope_variants(Bin(), rite) is None
    assert drum_cues(rite) == [] and call_cues(rite) == [] and nuo_cues(rite) == []


def test_chapter_4_compiles_deterministically(rite, choreo):
    again = Rite(reading(None), choreo)
    assert again.duration == rite.duration and again.spans == rite.spans
    ts = np.linspace(0.0, rite.duration, 400)
    a, b = rite.sample(ts), again.sample(ts)
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_nobody_stands_on_another_s_spot_or_in_a_wall(rite):
    found = audit(rite, hz=5.0)
    assert found == [], "\n".join(map(str, found))


# ---------------------------------------------------------------- people where the text puts them

def test_bai_zhi_on_the_lintel_line_facing_north(rite, lay):
    """§3 主人阼階上當楣北面再拜, 賓西階上當楣北面答拜."""
    mei_y = lay["hall.front_lintel"].xyz_chi[1]
    sp = _span(rite, 3, "主人阼階上當楣北面再拜", "zhuren")
    t = (sp.start_s + sp.end_s) / 2
    for who, stairs in (("zhuren", "hall.east_steps_top"), ("bin", "hall.west_steps_top")):
        (x, y), h = _at(rite, who, t)
        assert abs(y - mei_y) < 1.0 and abs(x - lay[stairs].xyz_chi[0]) < 1.5, (who, x, y)
        assert _turned(h, "北面"), (who, h)


def test_the_xian_before_the_bin_s_mat_facing_north_west(rite, lay):
    """§4 賓之席前西北面獻賓: the 主人 south-east of the front of the 賓's mat (牖前, facing south)."""
    sp = _span(rite, 4, "賓之席前西北面獻賓", "zhuren")
    (x, y), h = _at(rite, "zhuren", sp.end_s)
    mx, my, _ = lay["mat.bin"].xyz_chi
    assert _turned(h, "西北面")
    assert x > mx and y < my and math.dist((x, y), (mx, my)) < 6.0
    sp = _span(rite, 4, "賓進受爵以復位", "bin")          # he receives it before the mat …
    (x, y), _ = _at(rite, "bin", sp.end_s)
    assert y < my and math.dist((x, y), (mx, my)) < 6.0
    sp = _span(rite, 4, "賓進受爵以復位", "bin", last=True)    # … and goes back to 西階上 (以復位)
    (x, y), _ = _at(rite, "bin", sp.end_s)
    assert math.dist((x, y), lay["hall.west_steps_top"].xyz_chi[:2]) < 1.0


def test_the_jie_at_his_place(rite, lay):
    """§7 介升席自北方: on the 介席 (西階上東面); §9 介降立于賓南."""
    sp = _span(rite, 7, "介升席自北方", "jie")
    (x, y), h = _at(rite, "jie", sp.end_s)
    assert math.dist((x, y), lay["mat.jie"].xyz_chi[:2]) < 0.5 and _turned(h, "東面")
    sp = _span(rite, 9, "介降立于賓南", "jie")
    (jx, jy), _ = _at(rite, "jie", sp.end_s)
    (bx, by), _ = _at(rite, "bin", sp.end_s)
    assert jy < by and abs(jx - bx) < 1.0
    sp = _span(rite, 7, "主人介右北面拜送爵", "zhuren")      # 介右: east of the 介, who faces north
    (zx, _), h = _at(rite, "zhuren", sp.end_s)
    (jx, _), _ = _at(rite, "jie", sp.end_s)
    assert zx > jx and _turned(h, "北面")


def test_the_elders_sit_on_their_mats_and_the_sheng_stand_south_of_the_qing(rite, lay):
    end10 = next(s for s in rite.stages if s.n == 10).end_s
    for k in (1, 2, 3):
        (x, y), h = _at(rite, f"zhongbin_{k}", end10)
        assert math.dist((x, y), lay[f"mat.zhongbin_{k}"].xyz_chi[:2]) < 0.5 and _turned(h, "南面")
    sp = _span(rite, 12, "樂南陔白華華黍", "sheng_1")
    qy = lay["court.qing"].xyz_chi[1]
    for k in range(1, 5):
        (x, y), h = _at(rite, f"sheng_{k}", (sp.start_s + sp.end_s) / 2)
        assert y < qy and _turned(h, "北面")


def test_the_cups_go_where_the_text_sets_them(rite, lay):
    """§5 主人坐奠爵于序端 (the 爵 waits at the 東序端 for §7); §6 the 酬觶 ends 薦東 (酬酒不舉)."""
    chi = rite.reading.chi_m
    i = rite.object_ids.index("jue")
    sp = _span(rite, 5, "主人坐奠爵于序端", "zhuren")
    p = rite.pose_at(sp.end_s + 0.5)
    assert math.dist(p.object_xyz_m[i][:2] / chi, lay["hall.east_xu_end"].xyz_chi[:2]) < 1.0
    end6 = next(s for s in rite.stages if s.n == 6).end_s
    p = rite.pose_at(end6)
    zhi, jian = (p.object_xyz_m[rite.object_ids.index(o)][:2] / chi for o in ("zhi", "jian_bin"))
    assert 0.5 < zhi[0] - jian[0] < 4.0 and abs(zhi[1] - jian[1]) < 1.0


def test_chapter_4_s_still_is_drawn_in_its_own_hall(rite):
    """The still's static scene is the rite's own chapter's: the 庠 with its 室 and 房, and no range."""
    from scene.render import meshes
    ids = meshes.static_of(rite).part_ids()
    assert not [n for n in ids if n.startswith(("target.", "range.", "tang.wu"))]
    assert meshes.static_of(rite).layout["hall.court"].size_chi == rite.layout["hall.court"].size_chi
    five = meshes.build_static(rite.reading).part_ids()
    assert [n for n in five if n.startswith("target.")]          # chapter 5's hall keeps its 侯


def test_the_pack_of_chapter_4_is_chapter_4s_not_chapter_5s_under_its_name(tmp_path, monkeypatch):
    import json

    from scene.cli.main import main
    from scene.text import jing
    monkeypatch.chdir(tmp_path)
    assert main(["--chapter", FOUR, "pack", "--out", "d"]) == 0
    m = json.loads((tmp_path / "d" / "scene.json").read_text(encoding="utf-8"))
    assert m["chapter"]["id"] == FOUR and m["chapter"]["title"] == "鄉飲酒禮" and not m["chapter"]["default"]
    assert [s["title"] for s in m["stages"]][:5] == [jing.passage(n, chapter=FOUR).title for n in range(1, 6)]
    assert m["texts"]["1"]["jing"] == jing.passage(1, chapter=FOUR).text
    assert "hou_rope" not in str(m.get("hou_rope") or "") and (tmp_path / "d" / "font" / "cjk.otf").is_file()


# ---------------------------------------------------------------- a section told out of its time (§24)

def test_a_section_told_out_of_its_time_is_played_after_its_anchor_only_under_its_switch(choreo):
    """§24 (既一人舉觶乃入, told after §23) has played = "after §10" under dafu_present; it keeps its number, its
    steps and its place in the choreography (the text's order); only the rite's order of play moves it."""
    from scene.rite.timeline import play_order
    s24 = choreo.section(24)
    assert (s24.played_after, s24.played_when) == (10, "dafu_present")
    assert [s.n for s in choreo.sections] == list(range(1, 26))
    order = [s.n for s in play_order(choreo.sections, reading(None))]
    assert order == [*range(1, 11), 24, *range(11, 24), 25]
    no_dafu = reading("zheng,dafu_present=false")
    assert [s.n for s in play_order(choreo.sections, no_dafu)] == list(range(1, 26))
    five = chor.default()
    assert play_order(five.sections, reading(None)) == five.sections       # chapter 5: nothing moves


@pytest.mark.parametrize("raw, error", [
    ({"played": "after §30"}, "a section before §24"),
    ({"played": "before §10"}, "after §N"),
    ({"played": "after §10", "played_when": "raining"}, "played_when"),
    ({"played_when": "dafu_present"}, "played_when needs played"),
])
def test_a_bad_played_key_is_one_line(raw, error):
    with pytest.raises(chor.ChoreographyError, match=error):
        chor._played(raw, 24, "9_mingri.toml §24")
