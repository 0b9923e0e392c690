"""A chapter's own readings (issue 43, build item 4): the choices of its manifest's ``[reading]`` where the
commentaries disagree over an act (chapter 4's 介 席末, 鄭 north / 賈 south), the presets of them (``jia``), the
steps that follow one (``when = "jie_ximo=south"``), the cache keyed by them, the checker under each."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scene import chapter as chapters
from scene.geometry import reading_picks
from scene.geometry import readings as R
from scene.rite import choreography as chor
from scene.rite import grammar
from scene.rite.cache import load_rite, rite_key
from scene.rite.evidence import step_table

FOUR = "xiangyinjiu"
CH4 = chapters.chapter(FOUR)


def toy(tmp_path: Path, edit) -> Path:
    """A copy of chapter 4's folder (its id is its name), its manifest or a rite file changed by ``edit``."""
    d = tmp_path / FOUR
    shutil.copytree(CH4.folder, d)
    edit(d)
    return d


def manifest_with(extra: str):
    def edit(d: Path) -> None:
        m = d / "chapter.toml"
        text = m.read_text(encoding="utf-8")
        m.write_text(text[:text.index("[[reading.choice]]")] + extra, encoding="utf-8")
    return edit


# ---------------------------------------------------------------- the manifest

def test_chapter_4_declares_the_jie_ximo_choice_and_the_jia_preset():
    c, guan = CH4.choices
    assert c.key == "jie_ximo" and c.default == "north" and [v for v, _ in c.options] == ["north", "south"]
    assert "記22" in c.source_of("north") and "介於席南東面答拜" in c.source_of("south")
    assert guan.key == "sizheng_guan" and guan.default == "guan" and "此俗本有盥者誤" in guan.source_of("none")
    assert [(p.name, p.values) for p in CH4.presets] == [("jia", (("jie_ximo", "south"), ("sizheng_guan", "none")))]
    assert chapters.chapter("xiangshe").choices == () and chapters.chapter("xiangshe").presets == ()


def test_the_sources_are_quoted_from_the_commentaries():
    """Each option quotes its 注/疏: the words stand in the 注疏 of chapter 4 (賈 §20, 鄭 記22)."""
    shushu = (Path(__file__).resolve().parents[2] / "shared" / "texts" / "xiangyinjiu_zhushu_wyg.txt")
    if not shushu.is_file():
        pytest.skip("the 注疏 text is not beside the checkout")
    text = shushu.read_text(encoding="utf-8").replace("賔", "賓")
    for quote in ("賓於席西南面答拜介於席南東面答拜", "賓在席西南面介在席南東面", "席南上升由下降由上由便",
                  "此俗本有盥者誤", "金石經洗字上有盥字", "監本已經刪正從之"):
        assert quote in text


@pytest.mark.parametrize("extra, line", [
    ('[[reading.choice]]\nkey = "jie_ximo"\nlabel = "x"\noptions = { north = "a", south = "b" }\ndefault = "east"\n',
     "reading.choice[1] (jie_ximo): default 'east' is not one of north, south"),
    ('[[reading.choice]]\nkey = "jie_ximo"\nlabel = "x"\noptions = { north = "a" }\ndefault = "north"\n',
     "options must be a table of two or more values"),
    ('[[reading.choice]]\nkey = "Jie"\nlabel = "x"\noptions = { a = "a", b = "b" }\ndefault = "a"\n',
     "reading.choice[1]: key must be lower-case letters"),
    ('[[reading.choice]]\nkey = "jie_ximo"\nlabel = "x"\noptions = { north = "a", south = "b" }\ndefault = "north"\n'
     '[[reading.preset]]\nname = "jia"\ntitle = "t"\njie_ximo = "west"\n',
     "reading.preset[1] (jia): jie_ximo = 'west' is not one of north, south"),
    ('[[reading.choice]]\nkey = "jie_ximo"\nlabel = "x"\noptions = { north = "a", south = "b" }\ndefault = "north"\n'
     '[[reading.preset]]\nname = "jia"\ntitle = "t"\nbin_ximo = "south"\n',
     "reading.preset[1] (jia): unknown key 'bin_ximo' (choices: jie_ximo)"),
    ('[reading]\nchooses = 1\n', "unknown key reading.chooses (known: choice, preset)"),
])
def test_a_bad_reading_table_is_one_line(tmp_path, extra, line):
    d = toy(tmp_path, manifest_with(extra))
    with pytest.raises(chapters.ChapterError) as e:
        chapters.load(d)
    assert line in str(e.value) and "\n" not in str(e.value)


def test_a_bad_when_is_one_line_at_load(tmp_path):
    for bad, says in (('when = "jie_ximo=east"', "'east' is not a value of jie_ximo (north, south)"),
                      ('when = "jie_xim=south"', "is not a reading switch or a choice of this chapter"),
                      ('when = "bu_chi=8"', "is not a reading switch or a choice of this chapter")):
        def edit(d: Path, bad=bad) -> None:
            f = d / "rite" / "7_erren_juzhi.toml"
            f.write_text(f.read_text(encoding="utf-8").replace('when = "jie_ximo=south"', bad), encoding="utf-8")
        d = toy(tmp_path / bad.split('"')[1], edit)
        with pytest.raises(chor.ChoreographyError) as e:
            chor.load(chapters.load(d))
        assert "7_erren_juzhi.toml §20 step" in str(e.value) and says in str(e.value) and "\n" not in str(e.value)


def test_a_chapter_choice_in_chapter_5s_rite_is_refused():
    """A ``key=value`` when names a choice of the step's own chapter: chapter 5 has none."""
    with pytest.raises(chor.ChoreographyError, match="not a reading switch or a choice of this chapter"):
        chor._when("jie_ximo=south", "x.toml §1 step 1", chapters.chapter("xiangshe"))


# ---------------------------------------------------------------- the reading

def test_a_reading_carries_the_chapters_choices():
    jia = R.get("jia")
    assert jia.picks == (("jie_ximo", "south"), ("sizheng_guan", "none")) and jia.pick("jie_ximo") == "south"
    assert R.get("zheng").picks == () and R.get("zheng").pick("jie_ximo") == "north"       # its default
    assert R.get("zheng", chapter=FOUR).picks == (("jie_ximo", "north"), ("sizheng_guan", "guan"))   # filled
    assert R.get("zheng", chapter="xiangshe") is R.PRESETS["zheng"]                        # ch.5 untouched
    row = next(c for c in R.get("jia", chapter=FOUR).choices() if c["key"] == "jie_ximo")
    assert row["key"] == "jie_ximo" and row["value"] == "south" and row["chapter"] == FOUR
    assert "介於席南東面答拜" in row["source"]
    assert [c["key"] for c in R.get("zheng").choices()] == [f.key for f in R.FIELDS]


def test_queries_and_files_round_trip(tmp_path):
    for q in ("jia", "zheng,jie_ximo=south", "xiang,jie_ximo=south", "jia,chi_m=0.1991", "jia,jie_ximo=north"):
        r = R.from_query(q)
        assert R.to_query(r) == q and R.from_query(R.to_query(r)) == r
    assert R.to_query(R.get("zheng", chapter=FOUR)) == "zheng"          # the default is not spelled out
    f = tmp_path / "mine.toml"
    f.write_text('base = "jia"\nchi_m = 0.1991\n', encoding="utf-8")
    assert R.load_toml(f).picks == R.get("jia").picks and R.load_toml(f).chi_m == 0.1991
    f.write_text('jie_ximo = "south"\n', encoding="utf-8")
    assert R.load_toml(f).pick("jie_ximo") == "south"
    assert R.get("zheng").replace(jie_ximo="south").picks == (("jie_ximo", "south"),)


@pytest.mark.parametrize("spec, line", [
    ("zheng,jie_ximo=east", "key 'jie_ximo' = 'east' is not allowed (allowed: north, south; a choice of chapter "
                            "xiangyinjiu)"),
    ("zheng,jie_xim=south", "is not key=value with a known key"),
    ("jiaa", "unknown reading 'jiaa' (presets: zheng, xiang, wu1991, zhou8cun, wangzhi, jia;"),
])
def test_a_bad_choice_is_one_line(spec, line):
    with pytest.raises(R.ReadingError) as e:
        R.get(spec)
    assert line in str(e.value) and "\n" not in str(e.value)


def test_a_bad_choice_in_a_reading_file_is_one_line(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('jie_ximo = "east"\n', encoding="utf-8")
    with pytest.raises(R.ReadingError, match=r"bad.toml: key 'jie_ximo' = 'east' is not allowed"):
        R.load_toml(f)


def test_another_chapters_choice_is_refused():
    """Refused, not ignored: chapter 5's outputs print the reading's name and choices, and a choice that did not
    act would be reported as if it had (one rite cached under two keys)."""
    for spec in ("jia", "zheng,jie_ximo=south"):
        with pytest.raises(R.ReadingError, match=r"'jie_ximo' is a choice of chapter xiangyinjiu \(鄉飲酒禮\), "
                                                 r"not of xiangshe \(鄉射禮\)"):
            R.get(spec, chapter="xiangshe")
        with pytest.raises(R.ReadingError):
            load_rite(spec)


def test_a_clash_with_the_geometry_is_refused(monkeypatch):
    clash = chapters.ReadingChoice("bu_chi", "x", (("a", "a"), ("b", "b")), "a")
    fake = chapters.Chapter(**{**CH4.__dict__, "choices": (clash,)})
    monkeypatch.setattr(reading_picks, "chapters", lambda: [FOUR])
    monkeypatch.setattr(reading_picks, "chapter_of", lambda cid: fake)
    reading_picks.registry.cache_clear()
    try:
        with pytest.raises(R.ReadingError, match="reading choice 'bu_chi' is already a key of the readings"):
            reading_picks.registry()
    finally:
        reading_picks.registry.cache_clear()


def test_chapter_5s_presets_are_unchanged():
    assert list(R.PRESETS) == ["zheng", "xiang", "wu1991", "zhou8cun", "wangzhi"]
    assert all(r.picks == () for r in R.PRESETS.values())
    assert grammar.readings_to_check() == [s for n in R.PRESETS for s in (n, f"{n},dafu_present=false")]
    assert grammar.readings_to_check(FOUR)[-2:] == ["jia", "jia,dafu_present=false"]


# ---------------------------------------------------------------- the rite under each

@pytest.fixture(scope="module")
def rites():
    return {name: load_rite(name, chapter=FOUR) for name in ("zheng", "jia")}


def test_the_cache_keys_differ_with_the_choice(rites):
    zheng, jia = rites["zheng"], rites["jia"]
    assert zheng is not jia and zheng.cache_key != jia.cache_key and zheng.content_key != jia.content_key
    same_name = R.get("zheng,jie_ximo=south", chapter=FOUR)
    assert rite_key(same_name, None, chapter=CH4) != rite_key(R.get("zheng", chapter=FOUR), None, chapter=CH4)
    assert load_rite("zheng,jie_ximo=south", chapter=FOUR).reading.pick("jie_ximo") == "south"


def _jie_answers(rite):
    span = next(s for s in rite.spans if s.section == 20 and s.do == "answer_bow" and "jie" in s.who)
    t = sum(span.act_of("jie")) / 2
    p = rite.pose_at(t)
    return p.actor_xyz_m[p.actor_ids.index("jie")] / rite.reading.chi_m, rite.layout["mat.jie"].xyz_chi


def test_the_preset_changes_the_act(rites):
    (zx, zy, _), mat = _jie_answers(rites["zheng"])
    (jx, jy, _), _ = _jie_answers(rites["jia"])
    assert zy > mat[1] + 1 and jy < mat[1] - 3.5        # 鄭: the north end; 賈: south of the mat (3 尺 half-length)
    assert abs(zx - mat[0]) < 0.5 and abs(jx - mat[0]) < 0.5
    one = load_rite("zheng,jie_ximo=south", chapter=FOUR)            # one choice alone changes its act alone
    assert _jie_answers(one)[0][1] < mat[1] - 3.5 and _sizheng_at_the_xi(one) == ["wash_hands", "wash"]


def _sizheng_at_the_xi(rite):
    return [s.do for s in rite.spans if s.section == 16 and s.who == ("xiang",) and s.phrase == "盥洗"]


def test_the_sizheng_washes_his_hands_only_where_the_text_keeps_the_guan(rites):
    """§16 執觶興盥洗: 盥 as this 經 (the 唐石經) reads it; 賈 此俗本有盥者誤 — the 觶 washed, not his hands."""
    assert _sizheng_at_the_xi(rites["zheng"]) == ["wash_hands", "wash"]
    assert _sizheng_at_the_xi(rites["jia"]) == ["wash"]
    wash = next(s for s in rites["jia"].spans if s.section == 16 and s.do == "wash" and s.who == ("xiang",))
    p = rites["jia"].pose_at(sum(wash.act_of("xiang")) / 2)
    at = p.actor_xyz_m[p.actor_ids.index("xiang")] / rites["jia"].reading.chi_m
    xi = rites["jia"].layout["court.xi"].xyz_chi
    assert abs(at[0] - xi[0]) < 1 and 2 < at[1] - xi[1] < 4          # at the 洗 all the same (court.xi@北3)


def test_the_evidence_says_which_reading_a_step_follows(rites):
    rows = [r for r in step_table(rites["jia"]) if r["section"] == 20 and r["who"] == ["jie"]
            and r["verb"] == "answer_bow"]
    assert rows[0]["when"] == "jie_ximo=south" and "賈 §20" in rows[0]["evidence"]["where"]["source"]
    rows = [r for r in step_table(rites["zheng"]) if r["section"] == 20 and r["who"] == ["jie"]
            and r["verb"] == "answer_bow"]
    assert rows[0]["when"] == "jie_ximo=north" and "記22" in rows[0]["evidence"]["where"]["source"]


@pytest.mark.parametrize("name", ["zheng", "jia"])
def test_the_checker_finds_nothing_under_each_reading(rites, name):
    assert grammar.check(rites[name]) == []
