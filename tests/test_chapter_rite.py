"""A third chapter needs no change to scene/ (issue 43): the toy chapter of tests/chapters/toy — its texts, cast,
words and two sections of rite — loads, compiles and is checked by the same code as chapter 5, with its own words;
the correct toy has no finding, and an error seeded in a copy of it is found."""
import shutil
from pathlib import Path

import pytest

from scene import chapter as C
from scene.rite import choreography as chor
from scene.rite import grammar
from scene.rite.cache import load_rite
from scene.rite.grammar.context import Ctx
from scene.rite.grammar.coverage import summary
from scene.rite.timeline import build_rite
from scene.text import words as W

TOY = Path(__file__).resolve().parent / "chapters" / "toy"
RITE_FILE = Path("rite") / "1_toy.toml"


@pytest.fixture(scope="module")
def toy():
    return C.load(TOY)


@pytest.fixture(scope="module")
def toy_rite(toy):
    return load_rite("zheng", chapter=toy)


def _copy(tmp_path: Path, old: str, new: str, file: Path = RITE_FILE) -> C.Chapter:
    folder = tmp_path / "toy"     # (a chapter's words are read once per chapter: a new copy is a new folder)
    shutil.copytree(TOY, folder)
    f = folder / file
    text = f.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    f.write_text(text.replace(old, new), encoding="utf-8")
    return C.load(folder)


def _findings(ch: C.Chapter) -> list[tuple[str, int, str, str]]:
    rite = build_rite(load_rite("zheng").reading, None, chapter=ch)
    return [(f.rule, f.section, f.word, f.who) for f in grammar.check(rite)]


def test_the_toy_loads_and_compiles_through_the_cache(toy, toy_rite):
    c = chor.load(toy)
    assert c.chapter == toy and [(s.n, s.title, len(s.steps)) for s in c.sections] == [(1, "戒賓", 4), (2, "迎賓", 4)]
    assert set(c.actors) == {"zhuren", "bin"} and c.names == {"主人": ("zhuren",), "賓": ("bin",)}
    assert toy_rite.choreography.chapter == toy and len(toy_rite.spans) == 8 and toy_rite.duration > 10
    assert load_rite("zheng", chapter=toy) is toy_rite
    assert load_rite("zheng").cache_key != toy_rite.cache_key


def test_the_checker_reads_the_toys_own_text_and_words(toy, toy_rite):
    ctx = Ctx(toy_rite)
    assert ctx.chapter == toy and ctx.words is W.words(toy) and ctx.words.places["門外"][0] == "hall.outside_gate"
    assert ctx.text(2) == "主人迎賓于門外再拜賓答再拜主人揖先入"
    # the 門 its 入 is held to is its words' (no 洗 named: the toy has none, its washing would go unchecked)
    assert list(ctx.place_of("門")) == list(ctx.at("hall.gate")) and ctx.place_of("洗") is None
    assert W.unknown_ids(ctx.words, toy_rite.actor_ids, toy_rite.layout.places) == []


def test_the_correct_toy_has_no_finding_and_every_clause_is_checked(toy_rite):
    assert [f.line() for f in grammar.check(toy_rite)] == []
    cov = summary(Ctx(toy_rite))
    assert {n: (s["clauses"], s["acted"], s["checked"]) for n, s in cov.items()} == {1: (3, 3, 3), 2: (3, 3, 3)}


def test_a_missing_bow_is_found(tmp_path):
    ch = _copy(tmp_path, 'phrase = "賓出迎再拜"\nwho = "bin"\ndo = "bow_twice"', 'phrase = "賓出迎再拜"\nwho = "bin"\ndo = "wait"')
    assert ("postures", 1, "拜", "bin") in _findings(ch)


def test_the_wrong_man_bowing_is_found(tmp_path):
    ch = _copy(tmp_path, 'phrase = "賓出迎再拜"\nwho = "bin"\ndo = "bow_twice"\nfacing = "東面"',
               'phrase = "賓出迎再拜"\nwho = "zhuren"\ndo = "bow_twice"\nfacing = "西面"')
    assert ("postures", 1, "拜", "bin") in _findings(ch)


def test_a_bow_at_the_wrong_place_is_found_by_the_toys_place_words(tmp_path):
    old = 'phrase = "主人迎賓于門外再拜"\nwho = "zhuren"\ndo = "bow_twice"'
    ch = _copy(tmp_path, old, old + '\nat = "hall.gate_right"')
    found = _findings(ch)
    assert ("places", 2, "門外", "zhuren") in found
    # the place word is the toy's data: without 門外 in its words file the checker has no place to hold him to
    ch = _copy(tmp_path / "without", old, old + '\nat = "hall.gate_right"')
    words = ch.folder / "words.toml"
    words.write_text(words.read_text(encoding="utf-8").replace('"門外" = ["hall.outside_gate", "hall.gate"]\n', ""),
                     encoding="utf-8")
    assert ("places", 2, "門外", "zhuren") not in _findings(C.load(ch.folder))


def test_a_ji_rule_the_checker_does_not_have_is_one_line(tmp_path):
    ch = _copy(tmp_path, 'lead_subjects = ["賓"]\n', 'lead_subjects = ["賓"]\nji_rules = ["記99"]\n', Path("words.toml"))
    rite = build_rite(load_rite("zheng").reading, None, chapter=ch)
    with pytest.raises(ValueError) as e:
        grammar.check(rite)
    assert str(e.value).startswith("ji_rules: '記99' is no 記 rule of the checker (known: 記20, 記26,")
