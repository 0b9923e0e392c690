"""Tests for scene.geometry.units: numerals, length expressions, finding lengths in the text."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scene.geometry.readings import DEFAULT, PRESETS
from scene.geometry.units import (
    Measure,
    convert,
    find_measures,
    format_derivation,
    parse_length,
    parse_numeral,
    to_numeral,
)

SEED = Path(__file__).resolve().parents[1] / "seeds" / "xiangsheli_jing.txt"


def sections() -> dict[str, str]:
    """Section id (the first word of a '## n title' line: '2', '記61') → its 經 text."""
    out, key = {}, None
    for line in SEED.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            key = line[3:].split()[0]
            out[key] = ""
        elif key and line.strip() and not line.startswith("#"):
            out[key] += line.strip()
    return out


TEXT = sections()


def found(passage: str, **kw) -> list[tuple[str, float]]:
    return [(m.text, m.chi) for m in find_measures(passage, **kw)]


# ------------------------------------------------------------ numerals
@pytest.mark.parametrize("s, n", [
    ("一", 1), ("兩", 2), ("二", 2), ("十", 10), ("十二", 12), ("十有二", 12), ("二十", 20),
    ("三十有六", 36), ("五十", 50), ("八十", 80), ("百", 100), ("百有二十", 120), ("一百二十", 120),
    ("三百", 300), ("百零五", 105), ("千二百", 1200), ("一千二百", 1200), ("千有二百", 1200),
    ("萬", 10000), ("三萬二千", 32000), ("零", 0), ("〇", 0),
])
def test_parse_numeral(s, n):
    assert parse_numeral(s) == n


@pytest.mark.parametrize("n, plain, you", [
    (10, "十", "十"), (12, "十二", "十有二"), (36, "三十六", "三十有六"), (50, "五十", "五十"),
    (120, "百二十", "百有二十"), (300, "三百", "三百"), (1005, "千零五", "千有五"), (1200, "千二百", "千有二百"),
])
def test_to_numeral(n, plain, you):
    assert to_numeral(n) == plain
    assert to_numeral(n, you=True) == you


@given(st.integers(1, 9999), st.booleans())
def test_numeral_round_trip_property(n, you):
    assert parse_numeral(to_numeral(n, you=you)) == n


def test_numeral_round_trip_exhaustive():
    assert all(parse_numeral(to_numeral(n, you)) == n for n in range(1, 10000) for you in (False, True))


@pytest.mark.parametrize("s, pos, char", [
    ("五五", 1, "五"), ("十十", 1, "十"), ("十有", 2, None), ("有二", 0, "有"), ("零五", 0, "零"),
    ("十马", 1, "马"), ("", 0, None),
])
def test_bad_numeral(s, pos, char):
    where = f"'{char}'" if char else "end of input"
    with pytest.raises(ValueError, match=re.escape(f"at position {pos} ({where})")):
        parse_numeral(s)


@pytest.mark.parametrize("bad", [0, -1, 10000, 1.5, True])
def test_to_numeral_range(bad):
    with pytest.raises(ValueError):
        to_numeral(bad)


# ------------------------------------------------------------ lengths (default reading)
@pytest.mark.parametrize("text, chi", [
    ("五十弓", 300), ("十尺", 10), ("三丈", 30), ("三仞", 21), ("二尋", 16), ("五尋", 40),
    ("三笴", 9), ("三步", 18), ("五步", 30), ("一笴", 3), ("笴", 3), ("武", 1.2),
    ("丈有六尺", 16), ("尺有握", 1.4), ("寸有半", 0.15), ("尺二寸", 1.2), ("尺半", 1.5),
    ("十有二尺", 12), ("三尺有半", 3.5), ("如笴", 3), ("容弓", 6), ("倍尋", 16), ("半步", 3),
    ("一雉", 30), ("一筵", 9), ("一咫", 0.8), ("二跬", 6),
])
def test_parse_length_values(text, chi):
    m = parse_length(text)
    assert m.chi == pytest.approx(chi)
    assert m.metres == pytest.approx(chi * 0.231)
    assert m.span == (0, len(text)) and m.text == text and m.dimension == ""


@pytest.mark.parametrize("text, dim, body, chi", [
    ("博三寸", "博", "三寸", 0.3), ("厚寸有半", "厚", "寸有半", 0.15), ("長如笴", "長", "如笴", 3),
    ("長三仞", "長", "三仞", 21), ("長尺有握", "長", "尺有握", 1.4), ("長武", "長", "武", 1.2),
])
def test_dimension_word_is_skipped_and_recorded(text, dim, body, chi):
    m = parse_length(text)
    assert (m.dimension, m.text, m.span) == (dim, body, (1, len(text)))
    assert m.chi == pytest.approx(chi)


def test_derivation_strings():
    assert parse_length("侯道五十弓").derivation == "50 弓 × 6 尺 = 300 尺 = 69.30 m @ 0.231 m/尺"
    assert parse_length("五十弓").derivation == "50 弓 × 6 尺 = 300 尺 = 69.30 m @ 0.231 m/尺"
    assert parse_length("尺有握").derivation == "1 尺 + 1 握 × 0.4 尺 = 1.4 尺 = 0.32 m @ 0.231 m/尺"
    assert parse_length("丈有六尺").derivation == "1 丈 × 10 尺 + 6 尺 = 16 尺 = 3.70 m @ 0.231 m/尺"
    assert parse_length("寸有半").derivation == "1.5 寸 × 0.1 尺 = 0.15 尺 = 0.03 m @ 0.231 m/尺"
    assert parse_length("十尺").derivation == "10 尺 = 2.31 m @ 0.231 m/尺"
    assert parse_length("倍中", refs={"中": 10}).derivation == "2 × 中 10 尺 = 20 尺 = 4.62 m @ 0.231 m/尺"
    assert parse_length("十尺", PRESETS["wu1991"]).derivation == "10 尺 = 1.99 m @ 0.1991 m/尺"


def test_subject_name_is_skipped():
    m = parse_length("侯道五十弓")
    assert (m.text, m.span, m.chi) == ("五十弓", (2, 5), 300)


# ------------------------------------------------------------ relational forms
def test_relational_forms():
    refs = {"侯道": 300, "中": 10, "躬": 20, "上舌": 40}
    assert parse_length("倍中", refs=refs).chi == 20
    assert parse_length("倍躬", refs=refs).chi == 40
    assert parse_length("半上舌", refs=refs).chi == 20          # literal half (see module docstring)
    assert parse_length("參侯道", refs=refs).chi == 100
    m = parse_length("參侯道居侯黨之一", refs=refs)
    assert (m.chi, m.span) == (100, (0, 8))
    assert m.derivation == "1/3 × 侯道 300 尺 = 100 尺 = 23.10 m @ 0.231 m/尺"
    assert parse_length("居侯黨之一", refs={"侯黨": 300, "parts": 3}).chi == 100
    assert parse_length("長如笴").chi == 3


def test_per_gong_rate():
    # 記61 弓二寸以為侯中: 50 弓 × 2 寸 = 100 寸 = 10 尺
    for refs in ({"侯道弓": 50}, {"侯道": 300}):
        m = parse_length("弓二寸", refs=refs)
        assert m.chi == 10
        assert m.derivation == "侯道 50 弓 × 2 寸 × 0.1 尺 = 10 尺 = 2.31 m @ 0.231 m/尺"
    # the 弓 stays 6 尺 under every reading, so 侯道 300 尺 is 50 弓 under 王制 too
    assert parse_length("弓二寸", PRESETS["wangzhi"], refs={"侯道": 300}).chi == 10


def test_aliases():
    assert parse_length("半上舌", refs={"左右舌": 40}).chi == 20
    assert parse_length("倍侯中", refs={"中": 10}).chi == 20


@pytest.mark.parametrize("text, name", [
    ("倍中", "中"), ("半上舌", "上舌"), ("參侯道", "侯道"), ("參侯道居侯黨之一", "侯道"), ("弓二寸", "侯道"),
])
def test_missing_reference_is_named(text, name):
    with pytest.raises(ValueError, match=re.escape(f"reference '{name}'")):
        parse_length(text, refs={"躬": 20})


def test_lone_ju_needs_parts():
    with pytest.raises(ValueError, match="居侯黨之一 is one part"):
        parse_length("居侯黨之一", refs={"侯道": 300})


# ------------------------------------------------------------ readings
def test_reading_switches_only_what_it_should():
    wz = PRESETS["wangzhi"]
    assert parse_length("五步").chi == 30 and parse_length("五步", wz).chi == 40
    assert parse_length("三仞").chi == 21 and parse_length("三仞", wz).chi == 24
    assert parse_length("武").chi == 1.2 and parse_length("武", wz).chi == 3
    assert parse_length("五十弓", wz).chi == 300                 # 弓 is 6 尺 everywhere
    for name, reading in PRESETS.items():
        m = parse_length("十尺", reading)
        assert m.chi == 10, name
        assert m.metres == pytest.approx(10 * reading.chi_m), name
    assert {parse_length("十尺", r).metres for r in PRESETS.values()} == {2.31, 1.991, 1.848}
    assert parse_length("五步", "wangzhi").chi == 40             # a preset name also works


def test_convert_and_format():
    assert convert(300) == pytest.approx(69.3)
    assert convert(10, PRESETS["zhou8cun"]) == pytest.approx(1.848)
    assert format_derivation("50 弓 × 6 尺", 300, DEFAULT) == "50 弓 × 6 尺 = 300 尺 = 69.30 m @ 0.231 m/尺"


def test_measure_default_span():
    assert Measure("十尺", 10, 2.31, "").span == (0, 2)


# ------------------------------------------------------------ errors
@pytest.mark.parametrize("text, pos, what, expect", [
    ("五十马", 2, "'马'", "expected a unit (寸 尺 丈"),
    ("", 0, "end of input", "expected a length"),
    ("五十", 2, "end of input", "expected a unit"),
    ("五五尺", 1, "'五'", "two digits in a row"),
    ("十十尺", 1, "'十'", "cannot follow"),
    ("尺有丈", 2, "'丈'", "丈 is not shorter than 尺"),
    ("三尺x", 2, "'x'", "expected the end"),
    ("十有尺", 1, "'有'", "expected a unit"),
    ("马", 0, "'马'", "expected a numeral or a unit"),
    ("長", 0, "'長'", "expected a numeral or a unit"),
])
def test_errors_name_character_and_position(text, pos, what, expect):
    with pytest.raises(ValueError) as info:
        parse_length(text)
    msg = str(info.value)
    assert msg.startswith(f"cannot parse '{text}' at position {pos} ({what}): ")
    assert expect in msg and "\n" not in msg


# ------------------------------------------------------------ finding lengths in the text
def test_seed_wording():
    # the exact wording the finder tests rely on
    assert TEXT["記61"] == "侯道五十弓弓二寸以為侯中倍中以為躬倍躬以為左右舌下舌半上舌"
    assert TEXT["記62"] == "箭籌八十長尺有握握素"
    assert TEXT["記63"] == "楚扑長如笴刊本尺"
    assert TEXT["記32"].endswith("杠長三仞以鴻脰韜上二尋")
    assert TEXT["記38"].startswith("楅長如笴博三寸厚寸有半")
    assert TEXT["記27"] == "物長如笴其間容弓距隨長武"
    assert TEXT["記60"] == "鄉侯上个五尋中十尺"
    assert "下綱不及地武" in TEXT["2"] and TEXT["2"].endswith("乏參侯道居侯黨之一西五步")
    assert "堂前三笴" in TEXT["18"] and "左个之西北三步" in TEXT["34"]


def test_find_houdao_span():
    (m,) = find_measures("侯道五十弓")
    assert (m.text, m.chi, m.span) == ("五十弓", 300, (2, 5))
    assert m.derivation == "50 弓 × 6 尺 = 300 尺 = 69.30 m @ 0.231 m/尺"


def test_find_ji61_resolves_from_its_own_definitions():
    ms = find_measures(TEXT["記61"])
    assert [(m.text, m.chi, m.span) for m in ms] == [
        ("五十弓", 300, (2, 5)),      # 侯道五十弓 defines 侯道
        ("弓二寸", 10, (5, 8)),       # 50 弓 × 2 寸; 以為侯中 defines 中
        ("倍中", 20, (12, 14)),       # 以為躬
        ("倍躬", 40, (17, 19)),       # 以為左右舌 = 上舌
        ("半上舌", 20, (26, 29)),     # literal ½ × 上舌 (鄭 reads 30: half the part beyond the 躬)
    ]
    # caller refs win over what the passage defines
    assert found(TEXT["記61"], refs={"中": 12})[2] == ("倍中", 24)


def test_find_ji61_rate_without_houdao_is_skipped_whole():
    # with no 侯道, 弓二寸 is not resolvable and must not turn into 二寸 = 0.2 尺
    assert found("弓二寸以為侯中") == []


def test_find_fa_passage():
    assert found("乏參侯道居侯黨之一西五步") == [("五步", 30)]
    ms = find_measures("乏參侯道居侯黨之一西五步", refs={"侯道": 300})
    assert [(m.text, m.chi, m.span) for m in ms] == [("參侯道居侯黨之一", 100, (1, 9)), ("五步", 30, (10, 12))]
    assert found("乏參侯道居侯黨之一西五步", reading=PRESETS["wangzhi"]) == [("五步", 40)]


def test_find_section_2():
    ms = find_measures(TEXT["2"])
    assert [(m.text, m.chi) for m in ms] == [("武", 1.2), ("五步", 30)]
    wu = ms[0]
    assert TEXT["2"][wu.span[0] - 2:wu.span[1]] == "及地武"
    assert found("下綱不及地武", reading=PRESETS["wangzhi"]) == [("武", 3)]


@pytest.mark.parametrize("key, expected", [
    ("記60", [("五尋", 40), ("十尺", 10)]),
    ("記62", [("尺有握", 1.4)]),                      # 握素 (the grip is left white) is no length
    ("記63", [("如笴", 3), ("尺", 1)]),               # 刊本尺: pare the base 尺
    ("記32", [("三仞", 21), ("二尋", 16)]),
    ("記38", [("如笴", 3), ("三寸", 0.3), ("寸有半", 0.15)]),
    ("記27", [("如笴", 3), ("容弓", 6), ("武", 1.2)]),
    ("記08", [("尺二寸", 1.2)]),
    ("記64", [("一笴", 3)]),
    ("18", [("三笴", 9)]),
    ("34", [("三步", 18)]),
])
def test_find_on_real_passages(key, expected):
    got = found(TEXT[key])
    assert [t for t, _ in got] == [t for t, _ in expected]
    assert [c for _, c in got] == pytest.approx([c for _, c in expected])


def test_find_records_dimensions_and_spans():
    ms = find_measures(TEXT["記38"])
    assert [m.dimension for m in ms] == ["長", "博", "厚"]
    for m in ms:
        assert TEXT["記38"][m.span[0]:m.span[1]] == m.text
    assert [m.dimension for m in find_measures(TEXT["記27"])] == ["長", "", "長"]


def test_no_false_positives_in_the_whole_text():
    # every length the finder sees in 經 + 記 (no refs): 執弓, 三耦, 四矢, 再拜, 一人, 八十 … are not
    hits = {key: [m.text for m in find_measures(text)] for key, text in TEXT.items()}
    hits = {key: h for key, h in hits.items() if h}
    assert hits == {
        "2": ["武", "五步"], "18": ["三笴"], "34": ["三步"], "記08": ["尺二寸"],
        "記27": ["如笴", "容弓", "武"], "記32": ["三仞", "二尋"], "記38": ["如笴", "三寸", "寸有半"],
        "記60": ["五尋", "十尺"], "記61": ["五十弓", "弓二寸", "倍中", "倍躬", "半上舌"],
        "記62": ["尺有握"], "記63": ["如笴", "尺"], "記64": ["一笴"],
    }


@pytest.mark.parametrize("passage", ["三耦", "四矢", "再拜", "三揖", "一人", "執弓", "釋弓矢", "兩壺", "箭籌八十"])
def test_numbers_that_are_not_lengths(passage):
    assert find_measures(passage) == []
