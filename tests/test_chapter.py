"""A chapter is data (issue 43): the manifest of a chapter's folder, its checks, and the text layer reading any
chapter — 5 (鄉射禮, the default), 4 (鄉飲酒禮) and a toy chapter from a folder of tests/ (no change to scene/)."""
import re
import shutil
from pathlib import Path

import pytest

from scene import chapter as C
from scene import text as T
from scene.text import clauses, zheng

TOY = Path(__file__).resolve().parent / "chapters" / "toy"
BRACKETS = re.compile(r"[（）()【】]")


# ---------------------------------------------------------------- the registry and chapter 5

def test_the_registry_lists_the_chapters_and_defaults_to_chapter_5():
    assert C.chapters() == ["xiangshe", "xiangyinjiu"]
    five = C.chapter()
    assert five is C.chapter("xiangshe") is C.resolve(None) is C.resolve("xiangshe") is C.resolve(five)
    assert (five.number, five.title, five.sections, five.ji) == (5, "鄉射禮", 51, 73)
    assert (five.jing.name, five.jing_simplified.name, five.zhengzhu.name) == (T.JING, T.JING_SIMPLIFIED, T.ZHENGZHU)
    assert (T.N_SECTIONS, T.N_JI) == (five.sections, five.ji)
    # the data files it names are those the later layers read today
    assert five.cast.name == "cast.toml" and five.rite.is_dir() and five.lessons.is_dir()
    assert five.seed is not None and five.seed.name == T.SEED


def test_an_unknown_chapter_is_one_line_naming_the_known():
    with pytest.raises(C.ChapterError) as e:
        C.chapter("xiangyin")
    assert str(e.value) == "unknown chapter 'xiangyin' (known: xiangshe, xiangyinjiu)"
    with pytest.raises(ValueError, match="unknown chapter"):
        T.passage(1, chapter="../xiangshe")


def test_chapter_5_read_through_its_chapter_is_the_default():
    five = C.chapter("xiangshe")
    for n in (1, 20, 51):
        assert T.passage(n, chapter=five) == T.passage(n) == T.passage(n, chapter="xiangshe")
        assert clauses.section_clauses(n, chapter=five) == clauses.section_clauses(n)
    assert T.ji_items(chapter=five) == T.ji_items()
    assert T.zheng_notes(2, chapter=five) == T.zheng_notes(2)
    with pytest.raises(ValueError, match=r"sections are 1–51"):
        T.passage(52, chapter=five)


# ---------------------------------------------------------------- chapter 4, 鄉飲酒禮

def test_chapter_4_texts_read_whole():
    four = "xiangyinjiu"
    ps = T.passages(chapter=four)
    assert [p.n for p in ps] == list(range(1, 26))
    assert ps[0].title == "謀賓戒賓" and ps[-1].title == "明日拜賜息司正"
    assert ps[0].text.startswith("鄉飲酒之禮主人就先生而謀賓介")
    assert "尊兩壺于房戶間斯禁" in T.passage(2, chapter=four).text
    items = T.ji_items(chapter=four)
    assert list(items) == list(range(1, 32)) and all(items.values())
    assert not any(BRACKETS.search(p.text) for p in ps)             # no note left in the 經
    simp = T.passages("simplified", chapter=four)
    assert [len(p.text) for p in simp] == [len(p.text) for p in ps]
    assert simp[1].text == T.to_simplified(ps[1].text)
    with pytest.raises(ValueError, match=r"sections are 1–25"):
        T.passage(26, chapter=four)
    with pytest.raises(ValueError, match=r"記01–記31"):
        T.zheng_notes("記32", chapter=four)


def test_chapter_4_notes_stand_in_its_brackets_and_tile_the_passage():
    four = "xiangyinjiu"
    assert T.zhengzhu_differences(chapter=four) == {}
    notes = T.zheng_notes(2, chapter=four)
    assert notes[0] == zheng.Gloss("乃席賓主人介", notes[0].note, 6) and notes[0].note.startswith("席敷席也")
    for key in list(range(1, 26)) + [f"記{i:02d}" for i in range(1, 32)]:
        text = T.passage(key, chapter=four).text if isinstance(key, int) else T.ji(int(key[1:]), chapter=four)
        gs = T.zheng_notes(key, chapter=four)
        assert "".join(g.anchor for g in gs) == text[:gs[-1].offset] if gs else True, key
        assert all(not BRACKETS.search(g.note) for g in gs), key


def test_chapter_4_clauses_cut_every_section():
    four = C.chapter("xiangyinjiu")
    total = 0
    for n in range(1, 26):
        cs = clauses.section_clauses(n, chapter=four)
        assert "".join(c.text for c in cs) == T.passage(n, chapter=four).text, n
        assert all(c.section == n and c.source == "經" for c in cs)
        total += len(cs)
    assert total > 400
    assert [c.text for c in clauses.section_clauses(4, chapter=four)][:3] == ["主人坐取爵于篚", "降", "洗"]
    # the subject carries over from the section before, as in chapter 5
    carried = [n for n in range(2, 26) if not clauses.section_clauses(n, chapter=four)[0].named]
    assert carried
    for n in carried:
        first, before = clauses.section_clauses(n, chapter=four)[0], clauses.section_clauses(n - 1, chapter=four)[-1]
        assert first.subject == before.subject, n
    ji = [c for k in range(1, 32) for c in clauses.ji_clauses(k, chapter=four)]
    assert len(ji) > 31 and all(isinstance(c.subject, str) and c.source.startswith("記") for c in ji)
    assert ("主人介凡升席自北方", "主人、介") in [(c.text, c.subject) for c in ji]     # 記: both go up to their mats


# ---------------------------------------------------------------- a toy chapter from tests/

def test_a_toy_chapter_from_a_folder_reads_through_the_same_layer():
    toy = C.load(TOY)
    assert (toy.id, toy.number, toy.title, toy.sections, toy.ji, toy.notes) == ("toy", 99, "試禮", 2, 2, "【】")
    assert toy.jing == TOY / "jing.txt" and toy.cast == TOY / "cast.toml" and toy.seed is None
    assert (toy.words, toy.rite) == (TOY / "words.toml", TOY / "rite")      # (its rite: tests/test_chapter_rite.py)
    ps = T.passages(chapter=toy)
    assert [(p.n, p.title, p.text) for p in ps] == [
        (1, "戒賓", "主人戒賓賓出迎再拜主人答再拜"), (2, "迎賓", "主人迎賓于門外再拜賓答再拜主人揖先入")]
    assert T.passage(2, "simplified", chapter=toy).title == "迎宾"
    assert T.ji_items(chapter=toy) == {1: "賓至主人拜", 2: "主人坐取爵"}
    # its words are those of chapter 5's §1 and §4: the same splitter cuts them the same way
    assert [(c.text, c.subject) for c in clauses.section_clauses(1, chapter=toy)] == [
        ("主人戒賓", "主人"), ("賓出", "賓"), ("迎再拜主人答再拜", "賓")]
    assert [c.text for c in clauses.section_clauses(1)][1:4] == [c.text for c in clauses.section_clauses(1, chapter=toy)]
    assert [c.text for c in clauses.section_clauses(2, chapter=toy)] == ["主人迎賓于門外再拜賓答再拜", "主人揖先", "入"]
    assert [c.text for c in clauses.ji_clauses(2, chapter=toy)] == ["主人坐取爵"]
    assert T.zheng_notes(1, chapter=toy) == [zheng.Gloss("主人戒賓", "戒警也", 4)]
    assert [g.note for g in T.zheng_notes("記02", chapter=toy)] == ["爵觴也"]
    assert T.find_phrase(2, "門外", chapter=toy) == 5
    with pytest.raises(ValueError, match=r"sections are 1–2\)"):
        T.passage(3, chapter=toy)


# ---------------------------------------------------------------- the manifest's checks: one line per bad field

def _toy(tmp_path: Path, edit=None, name: str = "toy") -> Path:
    folder = tmp_path / name
    shutil.copytree(TOY, folder)
    if edit:
        m = folder / "chapter.toml"
        m.write_text(edit(m.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


def _lines(folder: Path) -> list[str]:
    with pytest.raises(C.ChapterError) as e:
        C.load(folder)
    return str(e.value).splitlines()


def test_a_wrong_count_is_one_line(tmp_path):
    lines = _lines(_toy(tmp_path, lambda s: s.replace("sections = 2", "sections = 3")))
    assert len(lines) == 3                                        # one a file: jing, simplified, zhengzhu
    assert lines[0].endswith("chapter.toml: text.sections = 3 but jing.txt has 2 sections")
    lines = _lines(_toy(tmp_path, lambda s: s.replace("ji = 2", "ji = 1").replace('"toy"', '"toy2"'), "toy2"))
    assert lines[0].endswith("text.ji = 1 but jing.txt has 2 記 items")


def test_a_missing_file_is_one_line(tmp_path):
    folder = _toy(tmp_path)
    (folder / "zhengzhu.txt").unlink()
    assert [ln.split("chapter.toml: ")[1] for ln in _lines(folder)] == [
        f"text.zhengzhu = 'zhengzhu.txt': no such file ({folder / 'zhengzhu.txt'})"]


def test_every_bad_field_is_its_own_line(tmp_path):
    def edit(s: str) -> str:
        s = s.replace('title_en = "A Toy Rite"', 'title_en = "A Toy Rite"\ncolour = "red"')
        s = s.replace('jing = "jing.txt"', 'jing = "../../etc/passwd"').replace("ji = 2", 'ji = "two"')
        return s.replace('notes = "【】"', 'notes = "【"').replace("number = 99", "").replace('"toy"', '"Toy"')
    got = [ln.split("chapter.toml: ")[1] for ln in _lines(_toy(tmp_path, edit))]
    assert got == [
        "unknown key colour (known: id, number, title, title_en, text, data, layout, reading)",
        "missing key number",
        "text.ji must be a whole number, not str",
        "id 'Toy' must be lower-case letters, digits or _ (a name in a URL)",
        "text.notes must be two different characters, the brackets of a note (e.g. '（）')",
        "text.jing = '../../etc/passwd': must be a relative path inside the chapter's folder (or under assets/ or "
        "seeds/), without '..'",
    ]


def test_a_bad_manifest_or_folder(tmp_path):
    assert _lines(tmp_path) == [f"{tmp_path / 'chapter.toml'}: no such file (a chapter is a folder with a chapter.toml)"]
    (tmp_path / "chapter.toml").write_text("id = [", encoding="utf-8")
    assert _lines(tmp_path)[0].startswith(f"{tmp_path / 'chapter.toml'}: cannot read: ")
    folder = _toy(tmp_path, lambda s: s.replace('rite = "rite"', 'rite = "none"').replace('cast = "cast.toml"',
                                                                                          'cast = "assets/none.toml"'))
    got = [ln.split("chapter.toml: ")[1] for ln in _lines(folder)]
    assert got[0] == f"data.cast = 'assets/none.toml': no such file ({C.ASSETS / 'none.toml'})"
    assert got[1] == f"data.rite = 'none': no such folder ({folder / 'none'})"
    assert _lines(_toy(tmp_path, name="other"))[0].endswith("id 'toy' is not the folder's name 'other'")


# ---------------------------------------------------------------- python -m scene --chapter ID text

def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    from scene.cli.main import main
    try:
        rc = main(list(argv))
    except SystemExit as e:                      # the parser's one line
        rc = int(e.code or 0)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_the_text_command_reads_a_chapter(capsys):
    import json
    rc, out, err = _cli(capsys, "--chapter", "xiangyinjiu", "text", "--json")
    got = json.loads(out)
    assert rc == 0 and not err
    assert (got["chapter"], got["number"], len(got["sections"]), got["ji"]) == ("xiangyinjiu", 4, 25, 31)
    assert sum(s["clauses"] for s in got["sections"]) == sum(
        len(clauses.section_clauses(n, chapter="xiangyinjiu")) for n in range(1, 26))
    rc, out, _ = _cli(capsys, "text", "--chapter", "xiangyinjiu", "--section", "4")
    assert rc == 0 and out.startswith("鄉飲酒禮 §4 主人獻賓\n主人坐取爵于篚")
    rc, out, _ = _cli(capsys, "text", "--ji", "61")                 # the default: chapter 5
    assert rc == 0 and out.splitlines()[0] == "鄉射禮 記61" and "侯道五十弓" in out


@pytest.mark.parametrize("argv, line", [
    (("--chapter", "nope", "text"),
     "error: python -m scene: argument --chapter: unknown chapter 'nope' (known: xiangshe, xiangyinjiu)"),
    (("text", "--chapter", "../tests"),
     "error: python -m scene text: argument --chapter: unknown chapter '../tests' (known: xiangshe, xiangyinjiu)"),
    (("--chapter", "xiangyinjiu", "text", "--section", "26"), "error: unknown section 26 (sections are 1–25)"),
    (("review", "--chapter", "xiangshe", "--section", "52"),
     "error: python -m scene review: argument --section: 52 is outside [1, 51]"),
])
def test_the_cli_refuses_in_one_line(capsys, argv, line):
    rc, out, err = _cli(capsys, *argv)
    assert (rc, out, err) == (2, "", line + "\n")


# ---------------------------------------------------------------- --chapter on every command (issue 43, step 2)

#: every command that plays a rite, with the arguments its parser requires
PLAYING = [("still", "--out", "x.png"), ("stills", "--out", "d"), ("clip", "--stage", "1", "--out", "x.mp4"),
           ("camera", "--t", "1"), ("sheets", "--out", "d"), ("book", "--out", "b.pdf"),
           ("review", "--section", "3"), ("export", "--out", "x.json"), ("check",), ("steps",), ("stages",),
           ("pose", "--t", "1"), ("audit",), ("captions", "--out", "x.vtt"), ("pack", "--out", "d"),
           ("site", "--out", "d")]


def test_every_command_takes_chapter_and_those_that_play_are_all_listed():
    from scene.cli.common import Parser
    from scene.cli.main import COMMAND_MODULES
    p = Parser(prog="t")
    sub = p.add_subparsers(dest="cmd")
    for mod in COMMAND_MODULES:
        mod.register(sub)
    plays = {c for c, sp in sub.choices.items() if sp.get_default("needs") is None}
    assert plays == {argv[0] for argv in PLAYING}


@pytest.fixture
def riteless(tmp_path_factory, monkeypatch):
    """A registry whose chapter 4 has no rite (its manifest without ``[data] rite``, as before its rite was
    written): the package's chapters copied, the registry pointed at the copy; returns that manifest."""
    root = tmp_path_factory.mktemp("registry") / "chapters"
    for cid in C.chapters():
        shutil.copytree(C.CHAPTERS / cid, root / cid)
    m = root / "xiangyinjiu" / "chapter.toml"
    m.write_text("".join(line for line in m.read_text(encoding="utf-8").splitlines(keepends=True)
                         if not line.startswith("rite =")), encoding="utf-8")
    monkeypatch.setattr(C, "CHAPTERS", root)
    C._known.cache_clear()
    yield m
    C._known.cache_clear()


def test_the_riteless_registry_is_a_copy_but_for_the_rite(riteless):
    assert C.chapters() == ["xiangshe", "xiangyinjiu"]
    assert C.chapter("xiangyinjiu").rite is None and C.chapter("xiangyinjiu").cast is not None
    assert C.chapter("xiangyinjiu").folder == riteless.parent


@pytest.mark.parametrize("argv", PLAYING, ids=[a[0] for a in PLAYING])
@pytest.mark.parametrize("where", ["before", "after"])
def test_a_chapter_without_a_rite_is_one_line_before_any_work(capsys, tmp_path, monkeypatch, riteless, argv, where):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "cache"))
    args = ("--chapter", "xiangyinjiu", *argv) if where == "before" else (argv[0], "--chapter", "xiangyinjiu",
                                                                       *argv[1:])
    rc, out, err = _cli(capsys, *args)
    assert (rc, out) == (2, "")
    assert err == (f"error: python -m scene {argv[0]}: chapter xiangyinjiu (鄉飲酒禮) has no rite yet "
                   f"(no [data] rite in {riteless})\n")
    assert list(tmp_path.iterdir()) == []             # nothing written, nothing compiled


def test_commands_of_no_chapter_read_any(capsys):
    import json
    rc, out, _ = _cli(capsys, "--chapter", "xiangyinjiu", "measure", "五十弓", "--json")
    assert rc == 0 and json.loads(out)["chi"] == 300.0
    rc, out, _ = _cli(capsys, "readings", "--chapter", "xiangyinjiu")
    assert rc == 0 and out.startswith("zheng")


# ---------------------------------------------------------------- the data below a chapter (issue 43, step 1)

def test_the_readers_of_the_data_take_the_chapter(riteless):
    from scene.rite import choreography as chor
    from scene.rite.grammar import clausedata, exceptions
    from scene.web import lessons
    five, four = C.chapter(), C.chapter("xiangyinjiu")
    c5 = chor.default()
    # (the registry here is a copy: chapter 5's folder differs, its texts and data are the same files)
    assert c5.chapter.id == five.id and c5.chapter.jing == five.jing and c5.chapter.rite == five.rite
    assert c5.passage(21).text == T.passage(21).text
    assert len(c5.sections) == five.sections
    with pytest.raises(chor.ChoreographyError) as e:
        chor.load(four)
    assert str(e.value) == f"chapter xiangyinjiu (鄉飲酒禮) has no rite yet (no [data] rite in {riteless})"
    # the package's chapter 4 has its rite (tests/test_yinjiu_rite.py): its sections are its own
    c4 = chor.load(C.load(chor.ASSETS / "chapters" / "xiangyinjiu"))
    assert c4.chapter.id == "xiangyinjiu" and c4.passage(1).text.startswith("鄉飲酒之禮")
    with pytest.raises(chor.ChoreographyError, match="unknown chapter 'nope'"):
        chor.load("nope")
    # chapter 5's files are the module's (a test may point them elsewhere); chapter 4's are its own (issue 43:
    # its subjects where the names are objects, the implicit ones, no exception), a chapter without data has none
    assert clausedata.file_of(five) == clausedata.FILE == five.clauses
    assert exceptions.file_of(None) == exceptions.FILE == five.grammar
    assert clausedata.file_of(four) == four.clauses == four.folder / "clauses.toml"
    assert {e.section for e in clausedata.load(four).subjects} == {2, 9, 20, 24}    # §24 公升如賓禮…: the 遵者 (the subject of 如賓禮)
    assert exceptions.load(four)[0] == () and {s.section for s in exceptions.load(four)[1]} == {10, 20}
    # §21 眾賓皆降 and §24 眾賓皆降復初位: the three on the 堂 (鄭), an entry each
    assert [(g.name, g.members) for g in exceptions.group_readings(four)] == [
        ("眾賓", ("zhongbin_1", "zhongbin_2", "zhongbin_3"))] * 2
    toy = C.load(TOY)
    assert clausedata.load(toy).subjects == () and exceptions.load(toy) == ((), ())
    assert [f.name for f in lessons.lesson_files(four)] == ["yinjiu_class.toml"]      # its 45-minute class
    assert lessons.lesson_files(five) == lessons.lesson_files()
    assert lessons.lesson_files() and lessons.LESSON_DIR == five.lessons


def test_two_chapters_never_share_a_cache_key_and_chapter_5_keeps_its_own():
    from scene.geometry import readings
    from scene.rite import cache
    r = readings.get("zheng")
    five = cache.rite_key(r, None)
    assert cache.rite_key(r, None, chapter=C.chapter()) == five
    toy = C.load(TOY)
    keys = {five, cache.rite_key(r, None, chapter=C.chapter("xiangyinjiu")), cache.rite_key(r, None, chapter=toy)}
    assert len(keys) == 3
    assert TOY / "jing.txt" in cache.chapter_files(toy)


def test_a_chapter_rite_file_is_bounded_by_its_own_sections(tmp_path):
    from scene.rite import choreography as chor
    folder = _toy(tmp_path, lambda s: s.replace('cast = "cast.toml"', 'cast = "assets/cast.toml"'))
    shutil.rmtree(folder / "rite")
    (folder / "rite").mkdir()
    section = ('[[section]]\nn = {n}\nid = "jie_bin"\ntitle = "戒賓"\nphase = "reception"\ncast = ["zhuren"]\n'
               '[[section.step]]\nphrase = "主人戒賓"\nwho = "zhuren"\ndo = "speak"\n')
    (folder / "rite" / "1_a.toml").write_text(section.format(n=3), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        chor.load(C.load(folder))
    assert str(e.value) == "1_a.toml: section 1: n = 3 must be a whole number ≤ 2"
    (folder / "rite" / "1_a.toml").write_text(section.format(n=1), encoding="utf-8")
    c = chor.load(C.load(folder))
    assert [s.title for s in c.sections] == ["戒賓"] and c.passage(1).text.startswith("主人戒賓")


def test_who_the_names_mean_is_the_cast_files_data(tmp_path):
    from scene.rite import choreography as chor
    c = chor.default()
    # two of the four 笙 still (the Python table's): the four change the pack's evidence labels (the golden)
    assert c.groups["笙"] == ("sheng_1", "sheng_2")
    assert c.groups["三耦"][0] == "ou1_up" and c.names["賓黨"][:2] == ("bin", "zhongbin_1")
    assert "笙" in c.every and "勝者" not in c.every
    assets = tmp_path / "assets"
    shutil.copytree(chor.ASSETS, assets, ignore=shutil.ignore_patterns("prebuilt", "web", "chapters", "lessons"))
    cast = assets / "cast.toml"
    cast.write_text(cast.read_text(encoding="utf-8").replace('"笙" = ["sheng_1", "sheng_2"]', '"笙" = ["sheng_1", "sheng_9"]'), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        chor.load(assets)
    assert str(e.value) == "cast.toml: groups.笙: unknown actor 'sheng_9'"
