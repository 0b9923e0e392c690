"""Chapter 4's hall (issue 43): the 庠 of 鄉飲酒禮 placed from its text and its commentaries — 房, 室, 戶, 牖,
the 尊 房戶間, the mats, the 洗 by the 堂深, the 磬 階間縮霤 — with no range; chapter 5's layout untouched.
Pure Python (no GL)."""
import shutil
from pathlib import Path

import pytest

from scene import chapter as C
from scene.geometry.layout import build_layout
from scene.geometry.places import STATUSES
from scene.geometry.readings import PRESETS

TOY = Path(__file__).resolve().parent / "chapters" / "toy"


@pytest.fixture(scope="module", params=sorted(PRESETS))
def lay(request):
    return build_layout(request.param, chapter="xiangyinjiu")


def test_chapter_5s_layout_is_its_own_plan_unchanged():
    for name in PRESETS:
        assert build_layout(name, chapter="xiangshe").as_dict() == build_layout(name).as_dict()
    assert C.chapter().plan == "she" and (C.chapter().building, C.chapter().rank) == (None, None)


def test_chapter_4_is_a_dafu_s_xiang_without_a_range(lay):
    assert (lay.reading.building, lay.reading.rank) == ("庠", "大夫")      # the chapter's, whatever the reading
    assert not [p for p in lay.places if p.startswith(("range.", "target.", "tang.wu"))]
    for pid in ("hall.shi", "hall.fang", "hall.door", "hall.window", "hall.back_lintel", "tang.zun", "mat.bin",
                "mat.jie", "mat.zunzhe", "court.xi", "court.qing", "court.sheng", "hall.gate", "court.bei"):
        assert pid in lay


def test_every_place_says_where_it_comes_from(lay):
    for p in lay.places.values():
        assert p.source and p.derivation and p.status in STATUSES, p.id
    # the building is chapter 5's arithmetic: its passages are named as 鄉射禮's
    assert lay["hall.west_pillar"].source.startswith("鄉射禮 經 §10")
    for pid in ("hall.door", "hall.window", "tang.zun", "mat.bin", "mat.zunzhe", "court.xi", "court.qing",
                "court.sheng", "hall.tang_depth", "hall.back_lintel"):
        p = lay[pid]
        assert p.commentary and ("鄭" in p.commentary or "賈" in p.commentary), pid
        assert p.source.startswith(("經 §", "記")), pid           # chapter 4's own words


def test_the_rooms_and_the_zun_follow_the_commentaries(lay):
    h = lay.hall
    wall = 3 * h.house_depth / 4                                 # 賈疏 §3 後梁為室戶上: the back 楣
    assert h.tang_depth == wall and lay["hall.back_lintel"].xyz_chi[1] == wall
    door, window, zun = lay["hall.door"], lay["hall.window"], lay["tang.zun"]
    fang, shi = lay["hall.fang"], lay["hall.shi"]
    fang_west = fang.xyz_chi[0] - fang.size_chi[0] / 2
    assert door.xyz_chi[1] == window.xyz_chi[1] == wall
    assert window.xyz_chi[0] < door.xyz_chi[0]                   # 戶 east, 牖 west in the 室's wall
    # 房戶間: the 尊 between the 戶's east jamb and the 房's west wall …
    assert door.xyz_chi[0] + door.size_chi[0] / 2 < zun.xyz_chi[0] - zun.size_chi[0] / 2
    assert zun.xyz_chi[0] + zun.size_chi[0] / 2 < fang_west
    # … north of the 兩楹間 (賈疏 §8 房戶間當兩楹之北)
    between = (door.xyz_chi[0] + door.size_chi[0] / 2 + fang_west) / 2
    assert abs(between) < h.ying_x and zun.xyz_chi[1] > h.y_mei
    assert shi.xyz_chi[0] + shi.size_chi[0] / 2 == pytest.approx(fang_west)      # 東房西室, wall to wall
    assert shi.xyz_chi[0] - shi.size_chi[0] / 2 == pytest.approx(-h.xu_x)
    assert [x for x, _, _ in zun.extra["jars"]][0] < zun.xyz_chi[0]              # 玄酒在西


def test_the_mats(lay):
    h = lay.hall
    bin_, window = lay["mat.bin"], lay["hall.window"]
    assert bin_.xyz_chi[0] == window.xyz_chi[0] and bin_.facing == "南面"     # 賓席牖前南面
    mats = [bin_] + [lay[f"mat.zhongbin_{k}"] for k in (1, 2, 3)]
    for east, west in zip(mats, mats[1:]):                       # west of the 賓, 不屬 (not joined)
        gap = (east.xyz_chi[0] - east.size_chi[0] / 2) - (west.xyz_chi[0] + west.size_chi[0] / 2)
        assert gap > 0 and west.facing == "南面"
    assert mats[-1].xyz_chi[0] - mats[-1].size_chi[0] / 2 > -h.xu_x             # inside the 西序
    assert lay["mat.zunzhe"].xyz_chi[0] > lay["tang.zun"].xyz_chi[0]          # 遵者 east of the 尊
    assert lay["mat.jie"].facing == "東面" and lay["mat.jie"].xyz_chi[0] < -h.stairs_x
    assert lay["mat.zhuren"].facing == "西面" and lay["mat.zhuren"].xyz_chi[0] > h.stairs_x


def test_the_xi_and_the_qing(lay):
    h = lay.hall
    assert lay["court.xi"].xyz_chi[:2] == (h.rong_x, -h.tang_depth)          # 東榮, 南北以堂深
    qing = lay["court.qing"]
    assert qing.xyz_chi[0] == 0 and -h.stairs_x < qing.xyz_chi[0] < h.stairs_x   # 階間
    assert qing.xyz_chi[1] == -h.overhang                        # under the 霤
    assert qing.size_chi[0] > qing.size_chi[1]                   # 縮霤: along the drip, east–west
    player, sheng = lay["pos.qing_player"], lay["court.sheng"]
    assert player.facing == sheng.facing == "北面"               # 北面鼓之; 笙 磬南北面
    assert sheng.xyz_chi[1] < player.xyz_chi[1] < qing.xyz_chi[1]
    assert len(sheng.extra["slots"]) == 4                        # 笙三人和一人凡四人


def test_a_bad_layout_in_a_manifest_is_one_line(tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    m = folder / "chapter.toml"
    m.write_text(m.read_text(encoding="utf-8") + '\n[layout]\nplan = "tent"\nrank = 3\n', encoding="utf-8")
    with pytest.raises(C.ChapterError) as e:
        C.load(folder)
    lines = [ln.split("chapter.toml: ")[1] for ln in str(e.value).splitlines()]
    assert lines == ["layout.rank must be a string, not int", "layout.plan = 'tent' is not one of she, yinjiu"]
    m.write_text(m.read_text(encoding="utf-8").replace('"tent"', '"yinjiu"').replace("rank = 3", 'rank = "大夫"'),
                 encoding="utf-8")
    toy = C.load(folder)
    assert (toy.plan, toy.rank) == ("yinjiu", "大夫")
    assert build_layout("zheng", chapter=toy).reading.rank == "大夫"


def test_the_layout_command_shows_a_chapter_s_hall(capsys):
    import json

    from scene.cli.main import main
    assert main(["--chapter", "xiangyinjiu", "layout", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["hall"]["building"] == "庠" and "court.qing" in {p["id"] for p in got["places"]}


def test_chapter_4s_cast_is_checked_by_chapter_5s_code_and_stands_in_its_hall():
    from scene.rite import choreography as chor
    actors, things = chor.cast_of("xiangyinjiu")
    ids = set(actors)
    assert {"zhuren", "bin", "jie", "dafu", "xiang", "yuezheng", "congzhe"} <= ids
    for group, n in (("zhongbin_", 5), ("gong_", 4), ("xiangzhe_", 4), ("sheng_", 4), ("zanzhe_", 2), ("dizi_", 2)):
        assert len([a for a in ids if a.startswith(group)]) == n, group
    _, _, named, every = chor.load_cast(C.chapter("xiangyinjiu").cast)
    assert named["groups"]["笙"] == tuple(f"sheng_{k}" for k in range(1, 5)) and "介" in every
    assert named["names"]["介"] == ("jie",)
    lay = build_layout(None, chapter="xiangyinjiu")
    for what in (*actors.values(), *things.values()):
        if what.start != "offstage":
            ref = chor.parse_ref(what.start)
            assert ref.place in lay, (what.id, what.start)
    # chapter 5's cast is read by the same function
    assert set(chor.load_cast(C.chapter().cast)[0]) == set(chor.default().actors)


def test_a_bad_chapter_cast_is_one_line(tmp_path):
    from scene.rite import choreography as chor
    f = tmp_path / "cast.toml"
    f.write_text(C.chapter("xiangyinjiu").cast.read_text(encoding="utf-8").replace('"介" = ["jie"]', '"介" = ["jia"]'),
                 encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        chor.load_cast(f)
    assert str(e.value) == "cast.toml: names.介: unknown actor 'jia'"
    # a chapter folder without [data] cast (the toy's texts alone): one line
    bare = tmp_path / "toy"
    shutil.copytree(TOY, bare)
    manifest = bare / "chapter.toml"
    manifest.write_text("\n".join(line for line in manifest.read_text(encoding="utf-8").splitlines()
                                  if not line.startswith(("cast =", "rite =", "words ="))) + "\n", encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        chor.cast_of(C.load(bare))
    assert str(e.value).startswith("chapter toy (試禮) has no cast yet (no [data] cast in ")
