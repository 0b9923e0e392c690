"""Tests for scene.text: 經/記 passages, 鄭注 glosses, seed notes, 繁简 conversion."""
import re

import pytest

from scene import text as T
from scene.text import zheng

ALL_KEYS = list(range(1, 52)) + [f"記{i:02d}" for i in range(1, 74)]


# ---------------------------------------------------------------- passages

def test_fifty_one_passages_in_order():
    ps = T.passages()
    assert [p.n for p in ps] == list(range(1, 52))
    assert ps[0].title == "戒賓" and ps[-1].title == "息司正"
    assert T.passage(20).title == "司射誘射"
    assert all(p.text and not re.search(r"\s", p.text) for p in ps)


def test_passage_2_has_the_fa_distance():
    assert "乏參侯道居侯黨之一西五步" in T.passage(2).text


def test_simplified_passages_parallel_the_traditional():
    simp = T.passages("simplified")
    assert [p.n for p in simp] == list(range(1, 52))
    assert simp[0].title == "戒宾"
    # The provided simplified file is OpenCC t2s of the jing file.
    for t, s in zip(T.passages(), simp):
        assert len(t.text) == len(s.text)
    assert T.passage(2, "simplified").text == T.to_simplified(T.passage(2).text)


def test_ji_items():
    items = T.ji_items()
    assert list(items) == list(range(1, 74))
    assert "侯道五十弓" in T.ji(61)
    assert T.ji(1) == "大夫與則公士為賓使能不宿戒"
    assert T.ji(61, "simplified").startswith("侯道五十弓弓二寸")


def test_find_phrase():
    text = T.passage(2).text
    i = T.find_phrase(2, "乏參侯道")
    assert text[i:i + 4] == "乏參侯道"
    assert T.find_phrase("記61", "侯道五十弓") == 0
    with pytest.raises(ValueError, match=r"'侯道百步'.*section 2"):
        T.find_phrase(2, "侯道百步")


@pytest.mark.parametrize(
    "call, number",
    [
        (lambda: T.passage(99), "99"),
        (lambda: T.passage(0), "0"),
        (lambda: T.ji(74), "74"),
        (lambda: T.zheng_notes(52), "52"),
        (lambda: T.zheng_notes("記99"), "記99"),
        (lambda: T.seed_note(21), "21"),
        (lambda: T.seed_note(165), "165"),
        (lambda: T.seed_notes_for_section(52), "52"),
        (lambda: T.find_phrase(60, "射"), "60"),
    ],
)
def test_bad_numbers_raise_value_error_naming_them(call, number):
    with pytest.raises(ValueError) as err:
        call()
    msg = str(err.value)
    assert number in msg and "\n" not in msg


def test_passage_99_message():
    with pytest.raises(ValueError, match=r"^unknown section 99 \(sections are 1–51\)$"):
        T.passage(99)


def test_bad_script():
    with pytest.raises(ValueError, match="'pinyin'"):
        T.passage(1, "pinyin")


# ---------------------------------------------------------------- 鄭注

def test_zheng_note_on_the_seat_of_the_guest():
    g = T.zheng_notes(2)[0]
    assert g.anchor == "乃席賓南面東上"
    assert "此射於序" in g.note
    assert g.offset == len("乃席賓南面東上")


def test_glosses_tile_the_passage():
    for key in ALL_KEYS:
        text = T.ji(int(key[1:])) if isinstance(key, str) else T.passage(key).text
        glosses = T.zheng_notes(key)
        end = glosses[-1].offset if glosses else 0
        assert "".join(g.anchor for g in glosses) == text[:end]
        for g in glosses:
            assert text[g.offset - len(g.anchor):g.offset] == g.anchor


def test_annotated_keeps_the_notes():
    assert T.annotated(2).startswith("乃席賓南面東上（不言於戶牖之間者此射於序）")
    assert T.zheng_notes("記27") == T.zheng_notes("记27")  # either script names the 記


def test_jing_equals_zhengzhu_without_notes():
    assert set(T.zhengzhu_differences()) == set(T.KNOWN_ZHENGZHU_DIFFERENCES)


def test_offsets_survive_a_differing_zhengzhu_text():
    # Where the zhengzhu 經 has extra or missing characters, offsets still index the jing text.
    assert zheng._map_offset("甲乙丙丁", "甲乙丙丁", 2) == 2
    assert zheng._map_offset("甲乙X丙丁", "甲乙丙丁", 4) == 3
    assert zheng._map_offset("甲乙丙丁", "甲乙丙Y丁", 4) == 5


# ---------------------------------------------------------------- seed notes

def test_seed_notes_22_to_164_exactly_once():
    notes = T.seed_notes()
    assert list(notes) == list(range(22, 165))
    assert all(n.text and not n.text.startswith("（") for n in notes.values())


def test_run_together_line_splits_into_58_59_60():
    assert T.seed_note(58).text.startswith("不索：") and T.seed_note(58).text.endswith("不够用。")
    assert T.seed_note(59).text.startswith("此节述司射请射比耦之仪")
    assert T.seed_note(60).text.startswith("以耦告于大夫曰")


def test_garbled_pinyin_stays_inside_notes():
    assert "笴（g7）" in T.seed_note(31).text
    assert "楅（f＊）" in T.seed_note(56).text
    assert "拾（ji8）" in T.seed_note(32).text
    # cross-references are not markers either
    assert "参阅注（55）" in T.seed_note(66).text


def test_note_97_is_a_section_note():
    n97 = T.seed_note(97)
    assert n97.is_section_note and n97.text.startswith("以节述")
    assert "以节述→此节述" in n97.corrections
    assert n97.sections == (35,)  # 司射獻釋獲者
    assert T.passage(35).title.startswith("司射獻釋獲者")


def test_xiaochen_misprint_corrected():
    n = T.seed_note(158)
    assert "小臣" in n.text and "小巨" not in n.text
    assert n.corrections == ("小巨→小臣",)
    assert all("小巨" not in s.text for s in T.seed_notes().values())


def test_section_notes_open_sections_15_to_51_in_order():
    openers = [s for s in T.seed_notes().values() if s.is_section_note]
    assert [s.sections for s in openers] == [(k,) for k in range(15, 52)]
    assert (T.seed_note(23).sections, T.seed_note(25).sections, T.seed_note(27).sections) == ((15,), (16,), (17,))


def test_note_36_belongs_to_section_20():
    n = T.seed_note(36)
    assert n.sections == (20,) and "钩楹内" in n.text
    assert "鉤楹內" in T.passage(20).text
    assert n in T.seed_notes_for_section(20)


@pytest.mark.parametrize(
    "n, section, words",
    [(22, 14, "某不能为二三子"), (24, 15, "倚于西序"), (57, 22, "左右抚矢而乘之"),
     (89, 33, "却左手右加弛弓于其上"), (121, 50, "主人不见")],
)
def test_notes_quote_their_section(n, section, words):
    assert T.seed_note(n).sections == (section,)
    assert words in T.passage(section, "simplified").text


def test_tail_notes_gloss_the_ji():
    assert T.seed_note(122).sections == (51,)
    assert T.seed_note(123).sections == () and T.seed_note(123).ji == (1,)
    assert T.seed_note(151).ji == (61,)
    assert all(T.seed_note(n).ji for n in range(123, 165))
    assert [s.n for s in T.seed_notes_for_section("記61")] == [151, 152, 153]


def test_seed_translation():
    tr = T.seed_translation()
    assert tr.startswith("乡射的礼仪：主人前往告请宾。")
    assert "【译文】" not in tr and "未完" not in tr


# ---------------------------------------------------------------- 繁简

def test_script_conversion():
    assert T.to_simplified("鄉射禮") == "乡射礼"
    assert T.to_traditional("乡射礼") == "鄉射禮"
