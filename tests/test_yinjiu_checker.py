"""Chapter 4's checker held to chapter 5's bars (issue 43): 0 findings under the short 周尺 readings too (the body's
0.4 m at the head of the 西階), and the rules added to kill the survivors of its mutation run — each shown to fail
on the seeded error it is for, in one section's view, and to name it (as tests/test_checker_rules.py does for
chapter 5)."""
from __future__ import annotations

import pytest

from scene.rite import grammar
from scene.rite.cache import load_rite
from scene.rite.grammar import mutate
from scene.rite.grammar.coverage import _ctx_of
from scene.rite.grammar.placewords import _beside_whom, _place_word
from scene.rite.grammar.where import level_word, seat_of

FOUR = "xiangyinjiu"


@pytest.fixture(scope="module")
def four():
    return load_rite(None, None, chapter=FOUR)


def _new_findings(rite, op, n, want):
    """The findings a mutant of ``op`` in §n (the first that ``want`` picks and that changes the tracks) adds
    to the section's own, and the mutant."""
    ctx = _ctx_of(rite)
    view = mutate.windowed(rite, n)
    m = next(m for m in mutate.mutants_of(ctx, [n], (op,)) if want(m) and mutate.changes(view, m))
    base = {f.key() for f in grammar.check(view)}
    return [f for f in grammar.check(mutate.mutated(view, [m])) if f.key() not in base], m


@pytest.mark.parametrize("reading", ["wu1991", "zhou8cun"])
def test_no_two_bodies_meet_under_a_short_chi(reading):
    """Under a short 周尺 every offset in 尺 is fewer metres: the 樂正 stands clear of the 工's way along the 堂廉,
    the pairs come in and the 相者 go down one by one, the one whose place is on the other's way goes second."""
    rite = load_rite(reading, None, chapter=FOUR)
    found = grammar.check(rite, ("world",))
    assert not found, [f.line() for f in found]


def test_the_front_of_a_man_s_mat_is_a_place(four):
    """主人…實之賓之席前西北面獻賓 (§4): 賓之席前 is where he stands, though no 于 leads it; 西北面 is his facing,
    not a side of it."""
    ch = _ctx_of(four).chapter
    text = "取爵實之賓之席前西北面獻賓"
    assert _place_word(text, text.index("賓之席前"), chapter=ch) == "賓之席前"
    assert _place_word("自席前適阼階上", 1, chapter=ch) is None          # (自席前: a way)
    found, m = _new_findings(four, "place-off", 4, lambda m: "賓之席前" in m.clause)
    assert any(f.rule == "places" and f.word == "賓之席前" and f.who == m.aid for f in found), found


def test_bowing_west_of_the_host_is_by_the_host(four):
    """賓拜送于主人之西 (§17) 10 尺 off: 主人之 is no name to the splitter (主人之贊者), but a side after it is a
    place by him."""
    ch = _ctx_of(four).chapter
    full = "賓拜送于主人之西"
    assert _beside_whom(full, full.index("主人"), ch) == "主人"
    assert _beside_whom("主人之贊者洗", 0, ch) is None          # (a man, no side of him)
    found, m = _new_findings(four, "place-off", 17, lambda m: m.clause == "賓拜送于主人之西")
    assert any(f.rule == "places" and "主人" in f.word and f.who == m.aid for f in found), found


def test_back_to_his_place_level_with_the_west_xu(four):
    """復位當西序 (§4) 10 尺 east: he is not level with the 西序 any more."""
    places = _ctx_of(four).words.places
    assert level_word("復位當西序東面", 2, places) == "西序"
    assert level_word("設中南當楅西當西序東面", 6, places) is None    # (the 中's place, not his)
    found, m = _new_findings(four, "place-off", 4, lambda m: m.clause == "復位當西序")
    assert any(f.rule == "places" and f.word == "當西序" and f.who == m.aid for f in found), found


def test_the_gong_tell_the_yuezheng_from_their_mat(four):
    """乃合樂…工告于樂正曰正歌備 (§14): the eldest 工 telling the 樂正 10 尺 off his mat on the 堂廉 — the 工's 位
    on the 堂 is the 工席; the 賓席 is a mat named as a thing (not_at), no 位."""
    ctx = _ctx_of(four)
    assert seat_of(ctx, "工", "工告于樂正", set()) == "工席"
    assert seat_of(ctx, "工", "工入升自西階北面坐", set()) is None          # (a move: he is going there)
    assert seat_of(ctx, "賓", "賓坐祭", set()) is None
    found, m = _new_findings(four, "place-off", 14, lambda m: m.aid == "gong_1")
    assert any(f.rule == "places" and f.word == "工席" and f.who == m.aid for f in found), found


def test_reaching_the_stairs_is_at_the_foot_of_one(four):
    """主人與賓三揖至于階三讓 (§3): each at the foot of his own stairs (the words file's 階) — the 賓 10 尺 off it
    has not reached them."""
    found, m = _new_findings(four, "place-off", 3, lambda m: "至于階" in m.clause and m.aid == "bin")
    assert any(f.rule == "places" and f.word == "階" and f.who == m.aid for f in found), found


def test_below_the_tang_south_of_the_qing_is_a_place(four):
    """笙入堂下磬南北面立 (§12): 磬南 after 堂下 is where the 笙 stand; a 笙 who never comes in is not there (a way,
    由堂下西階之東, is not a place)."""
    ch = _ctx_of(four).chapter
    text = "笙入堂下磬南北面立"
    assert _place_word(text, text.index("磬南"), chapter=ch) == "磬南"
    found, m = _new_findings(four, "no-move", 12, lambda m: m.word == "入" and m.aid == "sheng_4")
    assert any(f.rule == "places" and f.word == "磬南" and f.who == m.aid for f in found), found
