"""A chapter's words are its data (issue 43): who its text names and what its place words mean in its hall, in
its folder's ``words.toml`` (scene/text/words.py) — chapter 5's reproducing the tables the checker had in code,
chapter 4's read from its 經 — and every bad field of the file is one line."""
import hashlib
import re
import shutil
from pathlib import Path

import pytest

from scene import chapter as C
from scene import text as T
from scene.text import clauses
from scene.text import words as W

ROOT = Path(__file__).resolve().parent.parent
TOY = Path(__file__).resolve().parent / "chapters" / "toy"
PLACE_ID = re.compile(r"\"(?:hall|mat|court|target|tang|range|pos)\.[a-z_]+")


def _cast(ch):
    from scene.rite.choreography import load_cast
    actors, _, named, _ = load_cast(ch.cast)
    return actors, named["groups"], named["names"]


def _layout_ids(ch):
    from scene.geometry.layout import build_layout
    return list(build_layout(chapter=ch).places)


# ---------------------------------------------------------------- chapter 5: the tables the checker had in code

def test_chapter_5s_file_is_the_checkers_old_tables_exactly():
    w = W.words()
    assert W.words("xiangshe") is w and C.chapter().words == C.CHAPTERS / "xiangshe" / "words.toml"
    # the hash of (NAMES, NOT_NAMES, SUBJECTS, NOT_SUBJECTS, PLACES) as scene/ held them before (commit 770d7b5)
    t = (w.names, w.not_names, w.subjects, w.not_subjects, tuple(w.places.items()))
    assert hashlib.sha256(repr(t).encode()).hexdigest()[:16] == "e562669628646850"
    # the order is the data's: the first that matches wins
    assert w.subjects[:3] == ("眾賓之長", "眾賓", "賓") and w.places["西階上"] == ("hall.west_steps_top",)
    assert w.lead_subjects == ("賓", "主人", "大夫", "眾賓") and w.not_at == ("賓席", "主人席", "楹")
    # who the context assumed: 三耦 and 獲者 are 弟子, the 相 is 司正 / 司馬 by his role, the 司射 the lone 上射
    assert w.means == {"弟子": ("ou1_up", "ou1_low", "ou2_up", "ou2_low", "ou3_up", "ou3_low", "huozhe")}
    assert w.by_role == {"司馬": ("xiang",), "司正": ("xiang",)} and w.unpaired == {"上射": ("sishe",)}
    actors, _, _ = _cast(C.chapter())
    assert sorted(a for a in actors if a.startswith("ou")) == sorted(w.means["弟子"][:-1])   # (the old aid.startswith("ou"))
    assert clauses.lexicon() == (w.names, w.not_names)
    # the 記's rules the checker held for every rite are chapter 5's, in the order it held them
    from scene.rite.grammar import ji
    assert w.ji_rules == tuple(ji.RULES) and len(ji.RULES) == 10
    assert W.words("xiangyinjiu").ji_rules == ()


def test_the_grammar_code_names_no_chapter_and_no_place_of_it():
    """The modules that read the words hold no chapter's words: no layout id, no chapter id, no toy."""
    files = [ROOT / "scene" / "rite" / "grammar" / f for f in ("words.py", "phrase.py", "placewords.py", "context.py",
                                                                 "coverage.py", "where.py", "clausedata.py")]
    files += [ROOT / "scene" / "rite" / f for f in ("evidence.py", "evidence_whose.py")]
    files += sorted((ROOT / "scene" / "text").glob("*.py"))
    for f in files:
        src = f.read_text(encoding="utf-8")
        assert not PLACE_ID.search(src), (f.name, PLACE_ID.search(src))
        assert not re.search(r"[\"'](?:xiangshe|xiangyinjiu|toy)[\"']", src), f.name
        assert "SUBJECTS" not in src and "NOT_NAMES" not in src, f.name
    assert not [p for p in (ROOT / "scene").rglob("*.py") if "chapters/toy" in p.read_text(encoding="utf-8")
                or '"toy"' in p.read_text(encoding="utf-8")]


# ---------------------------------------------------------------- chapter 4: its people and the 庠's places

def test_chapter_4s_people_are_its_casts():
    four = C.chapter("xiangyinjiu")
    w = W.words(four)
    actors, groups, names = _cast(four)
    assert W.unknown_ids(w, actors, _layout_ids(four)) == []
    # every name the cast gives (a group or a man) is a subject the checker cuts a phrase at, and the splitter's
    assert [k for k in (*groups, *names) if k not in w.subjects] == []
    assert {"主人", "賓", "介", "眾賓", "遵者", "諸公", "大夫", "司正", "樂正", "工", "笙", "相者", "弟子",
            "主人之贊者"} <= set(w.subjects)
    # each subject means someone of the cast (its groups, names or [means]: 諸公 and 大夫 are the one 遵者)
    assert [s for s in w.subjects if s not in groups and s not in names and s not in w.means] == []
    assert w.means["諸公"] == names["遵者"] == ("dafu",)
    # longer names first: 主人之贊者 before 主人, 眾賓之長 before 眾賓 before 賓
    assert w.names.index("主人之贊者") < w.names.index("主人") and w.names.index("眾賓") < w.names.index("賓")


def test_chapter_4s_place_words_are_its_texts_and_the_yinjiu_halls():
    four = C.chapter("xiangyinjiu")
    w = W.words(four)
    text = four.jing.read_text(encoding="utf-8") + four.zhengzhu.read_text(encoding="utf-8")
    assert [k for k in w.places if k not in text] == []
    ids = set(_layout_ids(four))
    assert all(w.places[k][0] in ids for k in w.places)     # the first id of each is the 庠's
    for word, pid in (("房戶間", "tang.zun"), ("賓席", "mat.bin"), ("牖前", "mat.bin"), ("阼階上", "hall.east_steps_top"),
                      ("西階上", "hall.west_steps_top"), ("西序", "hall.west_xu"), ("東序端", "hall.east_xu_end"),
                      ("兩楹之間", "hall.between_pillars"), ("西楹南", "hall.west_pillar_south"),
                      ("堂廉", "hall.tang_lian"), ("階間", "hall.between_steps"), ("磬南", "court.sheng"),
                      ("門外", "hall.outside_gate"), ("介席", "mat.jie")):
        assert w.places[word][0] == pid, word
    # 適洗南面: the 洗, then 南面 — no 洗南 that would swallow the facing
    assert "洗南" not in w.places and "洗北" not in w.places


def test_chapter_4s_clauses_read_its_names():
    four = C.chapter("xiangyinjiu")
    cs = clauses.section_clauses(8, chapter=four)
    assert ("授主人爵于兩楹之間", "介") in [(c.text, c.subject) for c in cs]        # 介揖讓升授主人爵
    # 受酬者自介右: at the 介's right, not the 介 acting; 主人之贊者 one name
    cs = clauses.section_clauses(19, chapter=four)
    assert ("受酬者自介右眾受酬者受自左", "受酬者") in [(c.text, c.subject) for c in cs]
    ji30 = clauses.ji_clauses(30, chapter=four)
    assert ji30[0].subject == "主人之贊者"


def test_a_chapter_without_a_words_file_names_nobody(tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    m = folder / "chapter.toml"
    m.write_text(m.read_text(encoding="utf-8").replace('words = "words.toml"\n', ""), encoding="utf-8")
    toy = C.load(folder)
    assert toy.words is None and W.words(toy) == W.Words()
    assert all(c.subject == "" for c in clauses.section_clauses(1, chapter=toy))


# ---------------------------------------------------------------- the file's checks: one line per bad field

GOOD = ('names = ["主人", "賓"]\nnot_names = ["賓主人"]\nsubjects = ["主人", "賓"]\nnot_at = ["賓席"]\n'
        '[places]\n"門" = ["hall.gate"]\n"賓席" = ["mat.bin"]\n[means]\n"賓" = ["bin"]\n')


def _lines(tmp_path: Path, text: str) -> list[str]:
    f = tmp_path / "words.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(W.WordsError) as e:
        W.load_file(f)
    return [line.split(": ", 1)[1] for line in str(e.value).splitlines()]


def test_a_good_file_loads(tmp_path):
    f = tmp_path / "words.toml"
    f.write_text(GOOD, encoding="utf-8")
    w = W.load_file(f)
    assert w.places == {"門": ("hall.gate",), "賓席": ("mat.bin",)} and w.means == {"賓": ("bin",)}
    assert w.actor_ids == ("bin",) and w.place_ids == ("hall.gate", "mat.bin")
    assert W.unknown_ids(w, ["zhuren"], ["hall.gate"]) == ["actor id 'bin' is not in the cast",
                                                           "place word 賓席: none of mat.bin is in the layout"]


@pytest.mark.parametrize("edit, line", [
    (lambda s: "colour = 1\n" + s, "unknown key colour (known: names, not_names, subjects, not_subjects, "
                                   "lead_subjects, not_at, ji_rules, places, means, by_role, unpaired)"),
    (lambda s: s.replace('names = ["主人", "賓"]', 'names = "主人"'), "names must be a list of words, not str"),
    (lambda s: s.replace('names = ["主人", "賓"]', 'names = ["主人", ""]'), "names: '' is not a word of 1–12 characters"),
    (lambda s: s.replace('names = ["主人", "賓"]', 'names = ["主人", "賓", "主人"]'), "names: '主人' is listed twice"),
    (lambda s: s.replace('"門" = ["hall.gate"]', '"門" = ["Hall Gate"]'), "[places] 門: 'Hall Gate' is not a place id"),
    (lambda s: s.replace('"門" = ["hall.gate"]', '"門" = []'), "[places] 門: must be a non-empty list of place ids"),
    (lambda s: s.replace('"賓" = ["bin"]', '"賓" = ["Bin!"]'), "[means] 賓: 'Bin!' is not an actor id"),
    (lambda s: s.replace('not_at = ["賓席"]', 'not_at = ["堂"]'), "not_at: '堂' is not a word of [places]"),
    (lambda s: s.replace('subjects = ["主人", "賓"]', 'subjects = ["主人", "賓", "介"]'),
     "subjects: '介' is not one of names (the splitter must know whom the checker reads)"),
    (lambda s: s.replace('"賓" = ["bin"]', '"介" = ["jie"]'), "[means] 介: not one of subjects"),
    (lambda s: 'lead_subjects = ["介"]\n' + s, "lead_subjects: '介' is not one of subjects"),
    (lambda s: "means = 1\n" + s.split("[means]")[0], "[means] must be a table, not int"),
    (lambda s: 'ji_rules = ["記20", "ji20"]\n' + s, "ji_rules: 'ji20' is not a 記 item (記01, 記02 …)"),
])
def test_a_bad_field_is_one_line(tmp_path, edit, line):
    assert _lines(tmp_path, edit(GOOD)) == [line]


def test_every_bad_field_is_its_own_line_and_an_unreadable_file_one(tmp_path):
    bad = GOOD.replace('names = ["主人", "賓"]', 'names = 3').replace('"門" = ["hall.gate"]', '"門" = ["門"]')
    assert _lines(tmp_path, "oops = 1\n" + bad) == [
        "unknown key oops (known: names, not_names, subjects, not_subjects, lead_subjects, not_at, ji_rules, places, "
        "means, by_role, unpaired)", "names must be a list of words, not int", "[places] 門: '門' is not a place id"]
    assert len(_lines(tmp_path, "names = [")) == 1
    assert _lines(tmp_path, "names = [")[0].startswith("cannot read:")


def test_the_manifest_names_the_words_file_or_says_it_is_missing(tmp_path):
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    (folder / "words.toml").unlink()
    with pytest.raises(C.ChapterError) as e:
        C.load(folder)
    assert str(e.value) == f"{folder / 'chapter.toml'}: data.words = 'words.toml': no such file ({folder / 'words.toml'})"
    assert T.passage(1, chapter=C.load(TOY)).text.startswith("主人戒賓")
