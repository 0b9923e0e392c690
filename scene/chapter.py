"""A chapter of the 儀禮 as data: a folder with a manifest, ``chapter.toml``, that names its texts and its data.

Below every layer (beside :mod:`scene.paths`): each layer may take a :class:`Chapter`; this module imports
nothing of ``scene`` but ``paths``.  The chapters the package carries are the folders of ``assets/chapters/``
(:func:`chapters`, :func:`chapter`); any other folder with a manifest loads through :func:`load` (a test's toy
chapter).  :data:`DEFAULT` is chapter 5, 鄉射禮.

The manifest::

    id = "xiangshe"                       # the folder's name
    number = 5                            # 儀禮 chapter number
    title = "鄉射禮"
    title_en = "The District Archery Rite"

    [text]
    jing = "seeds/xiangsheli_jing.txt"    # the 經 and 記 (traditional): '## <n> <title>' and '## 記NN' headings
    jing_simplified = "…"                 # the same, simplified (OpenCC t2s)
    zhengzhu = "…"                        # the 經 with 鄭注 in brackets right after the words each note explains
    notes = "（）"                        # the brackets of the 鄭注 in that file (optional, default （）)
    seed = "…"                            # a modern edition's page of notes (optional)
    names = ["介"]                        # people the clause splitter must know beyond its own (optional)
    not_names = ["介右"]                  # words holding a name that name nobody acting (optional)
    sections = 51                         # 節 of the 經: the files hold exactly §1…§sections
    ji = 73                               # items of the 記: exactly 記01…記<ji>

    [data]                                # optional: what the later layers read (each must exist)
    cast = "assets/cast.toml"
    grammar = "assets/grammar.toml"
    clauses = "assets/clauses.toml"
    words = "words.toml"                  # its words: who it names, its place words (below)
    rite = "assets/rite"                  # a folder
    lessons = "assets/lessons"            # a folder

    [layout]                              # optional: the hall's parts (scene/geometry/layout.py)
    plan = "she"                          # "she": the 序 or 庠 of 鄉射禮 with its range (the default);
                                          # "yinjiu": the 庠 of 鄉飲酒禮, 房 室 戶 牖, the 磬 階間, no range
    building = "庠"                       # the text's building, whatever the reading says (optional)
    rank = "大夫"                         # the host's rank, the 堂's height (optional)

    [[reading.choice]]                    # optional: a dispute of the commentaries over an act of the rite
    key = "jie_ximo"                      #   (a step plays it with when = "jie_ximo=south"); a key no other
    label = "介's 席末 (§20 答拜)"          #   chapter and no geometry field uses
    options = { north = "鄭 記22 …", south = "賈 §20 …" }   # value → its source
    default = "north"
    [[reading.preset]]                    # optional: a named reading of this chapter (zheng's geometry)
    name = "jia"
    title = "賈公彥's readings"
    jie_ximo = "south"                    # a value for any of its choices (the others: their default)

The words file (``[data] words``, :mod:`scene.text.words`; without one the chapter names nobody)::

    names = ["眾賓之長", "眾賓", "賓", …]   # the clause splitter's names of people, the first that matches wins
    not_names = ["相揖", "賓席", …]         # words holding a name's characters that name nobody acting
    subjects = ["眾賓之長", …]              # the names the checker cuts a phrase at (each one of names)
    not_subjects = ["相左", "相者", …]      # words holding a subject's characters that name none
    lead_subjects = ["賓", "主人"]          # a not_subject beginning with one of these still names him (賓席)
    not_at = ["賓席", "楹"]                 # place words that put nobody at a spot (each one of [places])
    ji_rules = ["記20", "記26"]             # the 記 rules of the checker that hold here (grammar/ji.py RULES)
    [places]                              # a place word → the ids of the chapter's layout it means (the
    "西階上" = ["hall.west_steps_top"]     #   first the layout has): python -m scene --chapter <id> layout
    [means]                               # a subject → actor ids it means beyond the cast's groups and names
    "弟子" = ["ou1_up", "huozhe"]
    [by_role]                             # a subject → actors it means while their role begins with it
    "司正" = ["xiang"]
    [unpaired]                            # a subject → actors it means in a section whose steps act no pair
    "上射" = ["sishe"]

Every bad field of it is one line of a :class:`scene.text.words.WordsError`.

A path is relative to the chapter's folder, except one that begins with ``assets/`` or ``seeds/``: that names
the package's own folders (:mod:`scene.paths`, in a checkout or a wheel).  No absolute path, no ``..``.

Every bad field is one line of the :class:`ChapterError` (the manifest's path, the field, what is wrong); all of
them are found before it is raised.
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from .paths import ASSETS, SEEDS

CHAPTERS = ASSETS / "chapters"
MANIFEST = "chapter.toml"
DEFAULT_ID = "xiangshe"

#: a heading of a text file: '## 12 獻工與笙' (a section), '## 記07' (a 記 item), '## 記' (opens the 記)
HEADING = re.compile(r"## (?:(\d+) (\S+)|[記记](\d+)\s*(.*))")

_TOP = {"id": str, "number": int, "title": str, "title_en": str, "text": dict, "data": dict, "layout": dict,
        "reading": dict}
#: the hall plans a chapter may name (``[layout] plan``), with the values its building and rank may take
PLANS = ("she", "yinjiu")
_LAYOUT_VALUES = {"plan": PLANS, "building": ("序", "庠"), "rank": ("士", "大夫")}
_TEXT = {"jing": str, "jing_simplified": str, "zhengzhu": str, "notes": str, "seed": str, "sections": int,
         "ji": int, "names": list, "not_names": list}
_TEXT_REQUIRED = ("jing", "jing_simplified", "zhengzhu", "sections", "ji")
_DATA_FILES = ("cast", "grammar", "clauses", "words")
_DATA_FOLDERS = ("rite", "lessons")
_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
MAX_COUNT = 999
_KIND = {str: "a string", int: "a whole number", dict: "a table", list: "a list of words"}


class ChapterError(ValueError):
    """A chapter folder or manifest that cannot be read: one line per bad field."""


@dataclass(frozen=True)
class ReadingChoice:
    """A choice of the chapter's own (``[[reading.choice]]``): where the commentaries disagree over an act of
    its rite.  ``options``: (value, its source) in the manifest's order."""

    key: str
    label: str
    options: tuple[tuple[str, str], ...]
    default: str

    def source_of(self, value: str) -> str:
        return dict(self.options).get(value, "")


@dataclass(frozen=True)
class ReadingPreset:
    """A named reading of the chapter (``[[reading.preset]]``): zheng's geometry and these choices."""

    name: str
    title: str
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Chapter:
    """One chapter: its names, its text files (resolved paths) and the counts they hold, and its data files."""

    id: str
    number: int
    title: str
    title_en: str
    folder: Path
    jing: Path
    jing_simplified: Path
    zhengzhu: Path
    sections: int
    ji: int
    notes: str = "（）"
    seed: Path | None = None
    names: tuple[str, ...] = ()
    not_names: tuple[str, ...] = ()
    cast: Path | None = None
    grammar: Path | None = None
    clauses: Path | None = None
    words: Path | None = None
    rite: Path | None = None
    lessons: Path | None = None
    #: the hall's plan (``[layout]``): :data:`PLANS`; the building and the rank the text fixes (None: the reading's)
    plan: str = "she"
    building: str | None = None
    rank: str | None = None
    #: the chapter's own reading choices and presets (``[reading]``): none in chapter 5
    choices: tuple[ReadingChoice, ...] = ()
    presets: tuple[ReadingPreset, ...] = ()

    @property
    def scripts(self) -> dict[str, Path]:
        """The 經 by script: ``{"traditional": …, "simplified": …}``."""
        return {"traditional": self.jing, "simplified": self.jing_simplified}

    def __str__(self) -> str:
        return f"{self.id} ({self.number} {self.title}, {self.title_en})"


def _resolve(folder: Path, value: str) -> Path | str:
    """The path a manifest names, or the line saying why it cannot be one."""
    p = PurePosixPath(value)
    if not value or p.is_absolute() or "\\" in value or ".." in p.parts or ":" in value:
        return "must be a relative path inside the chapter's folder (or under assets/ or seeds/), without '..'"
    if p.parts[0] == "assets" and len(p.parts) > 1:
        return ASSETS.joinpath(*p.parts[1:])
    if p.parts[0] == "seeds" and len(p.parts) > 1:
        return SEEDS.joinpath(*p.parts[1:])
    return folder.joinpath(*p.parts)


def text_keys(path: Path) -> tuple[list[int], list[int]]:
    """The section numbers and the 記 item numbers of a text file's headings, in file order."""
    sections, ji = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## ") and (m := HEADING.fullmatch(line.strip())):
            if m[1]:
                sections.append(int(m[1]))
            elif m[3]:
                ji.append(int(m[3]))
    return sections, ji


def _check_counts(where: str, name: str, path: Path, sections: int, ji: int) -> list[str]:
    """The lines saying how the headings of a text file differ from the counts of the manifest."""
    try:
        got_s, got_j = text_keys(path)
    except (OSError, UnicodeDecodeError) as exc:
        return [f"{where}: text.{name}: cannot read {path.name}: {exc}"]
    bad = []
    if got_s != list(range(1, sections + 1)):
        bad.append(f"{where}: text.sections = {sections} but {path.name} has {len(got_s)} sections"
                   + ("" if got_s == list(range(1, len(got_s) + 1)) else " (not numbered 1, 2, … in order)"))
    if got_j != list(range(1, ji + 1)):
        bad.append(f"{where}: text.ji = {ji} but {path.name} has {len(got_j)} 記 items"
                   + ("" if got_j == list(range(1, len(got_j) + 1)) else " (not numbered 記01, 記02, … in order)"))
    return bad


def _typed(where: str, table: dict[str, object], spec: dict[str, type], prefix: str = "") -> list[str]:
    bad = []
    for key, value in table.items():
        if key not in spec:
            bad.append(f"{where}: unknown key {prefix}{key} (known: {', '.join(spec)})")
        elif not isinstance(value, spec[key]) or isinstance(value, bool):
            bad.append(f"{where}: {prefix}{key} must be {_KIND[spec[key]]}, not {type(value).__name__}")
    return bad


_READING_KEYS = {"choice", "preset"}
_CHOICE_KEYS = {"key", "label", "options", "default"}


def _rows(where: str, table: dict[str, object], name: str, bad: list[str]) -> Iterator[tuple[str, dict[str, object]]]:
    """(the row's place in an error line, the row) for each table of ``[[reading.<name>]]``; a row that is not a
    table is one line of ``bad``."""
    rows = table.get(name, [])
    for i, row in enumerate(rows if isinstance(rows, list) else [rows]):
        at = f"{where}: reading.{name}[{i + 1}]"
        if isinstance(row, dict):
            yield at, row
        else:
            bad.append(f"{at} must be a table")


def _reading(where: str, table: dict[str, object]) -> tuple[tuple[ReadingChoice, ...], tuple[ReadingPreset, ...],
                                                             list[str]]:
    """The ``[reading]`` table: its choices and presets, and a line for each bad field of them."""
    bad = [f"{where}: unknown key reading.{k} (known: choice, preset)" for k in table if k not in _READING_KEYS]
    choices: list[ReadingChoice] = []
    for at, c in _rows(where, table, "choice", bad):
        bad += [f"{at}: unknown key {k} (known: {', '.join(sorted(_CHOICE_KEYS))})" for k in c if k not in _CHOICE_KEYS]
        key, label, options, default = c.get("key"), c.get("label"), c.get("options"), c.get("default")
        if not isinstance(key, str) or not _ID.fullmatch(key):
            bad.append(f"{at}: key must be lower-case letters, digits or _")
            continue
        if key in {ch.key for ch in choices}:
            bad.append(f"{at}: key {key!r} twice")
        if not isinstance(label, str) or not label.strip():
            bad.append(f"{at} ({key}): label must be a string")
        if not isinstance(options, dict) or len(options) < 2 or not all(
                isinstance(v, str) and _ID.fullmatch(k) and v.strip() for k, v in options.items()):
            bad.append(f"{at} ({key}): options must be a table of two or more values (lower-case names), "
                       "each with its source")
            continue
        if default not in options:
            bad.append(f"{at} ({key}): default {str(default)[:20]!r} is not one of {', '.join(options)}")
            continue
        choices.append(ReadingChoice(key, str(label), tuple(options.items()), str(default)))
    presets: list[ReadingPreset] = []
    known = {c.key: c for c in choices}
    for at, p in _rows(where, table, "preset", bad):
        name, title = p.get("name"), p.get("title")
        if not isinstance(name, str) or not _ID.fullmatch(name):
            bad.append(f"{at}: name must be lower-case letters, digits or _ (a name in a URL)")
            continue
        if name in {q.name for q in presets}:
            bad.append(f"{at}: name {name!r} twice")
        if not isinstance(title, str) or not title.strip():
            bad.append(f"{at} ({name}): title must be a string")
        values = []
        for k, v in p.items():
            if k in ("name", "title"):
                continue
            if k not in known:
                bad.append(f"{at} ({name}): unknown key {k[:40]!r} (choices: {', '.join(known) or 'none'})")
            elif v not in dict(known[k].options):
                bad.append(f"{at} ({name}): {k} = {str(v)[:20]!r} is not one of {', '.join(dict(known[k].options))}")
            else:
                values.append((k, v))
        presets.append(ReadingPreset(name, str(title), tuple(values)))
    return tuple(choices), tuple(presets), bad


def load(folder: Path | str) -> Chapter:
    """The chapter of a folder holding a ``chapter.toml``; :class:`ChapterError` lists every bad field."""
    folder = Path(folder)
    manifest = folder / MANIFEST
    where = str(manifest)
    try:
        raw = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ChapterError(f"{where}: no such file (a chapter is a folder with a {MANIFEST})") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ChapterError(f"{where}: cannot read: {exc}") from None
    bad = _typed(where, raw, _TOP)
    for key in ("id", "number", "title", "title_en", "text"):
        if key not in raw:
            bad.append(f"{where}: missing key {key}")
    text = raw.get("text") if isinstance(raw.get("text"), dict) else {}
    data = raw.get("data") if isinstance(raw.get("data"), dict) else {}
    assert isinstance(text, dict) and isinstance(data, dict)
    bad += _typed(where, text, _TEXT, "text.")
    bad += _typed(where, data, {k: str for k in _DATA_FILES + _DATA_FOLDERS}, "data.")
    layout = raw.get("layout") if isinstance(raw.get("layout"), dict) else {}
    assert isinstance(layout, dict)
    bad += _typed(where, layout, {k: str for k in _LAYOUT_VALUES}, "layout.")
    for key, allowed in _LAYOUT_VALUES.items():
        v = layout.get(key)
        if isinstance(v, str) and v not in allowed:
            bad.append(f"{where}: layout.{key} = {v[:20]!r} is not one of {', '.join(allowed)}")
    bad += [f"{where}: missing key text.{k}" for k in _TEXT_REQUIRED if k not in text]
    reading = raw.get("reading") if isinstance(raw.get("reading"), dict) else {}
    assert isinstance(reading, dict)
    choices, presets, bad_reading = _reading(where, reading)
    bad += bad_reading
    cid = raw.get("id")
    if isinstance(cid, str) and not _ID.fullmatch(cid):
        bad.append(f"{where}: id {cid[:40]!r} must be lower-case letters, digits or _ (a name in a URL)")
    elif isinstance(cid, str) and cid != folder.name:
        bad.append(f"{where}: id {cid!r} is not the folder's name {folder.name!r}")
    for key in ("sections", "ji"):
        n = text.get(key)
        least = 1 if key == "sections" else 0
        if isinstance(n, int) and not isinstance(n, bool) and not least <= n <= MAX_COUNT:
            bad.append(f"{where}: text.{key} = {n} is outside {least}–{MAX_COUNT}")
    notes = text.get("notes", "（）")
    if isinstance(notes, str) and (len(notes) != 2 or notes[0] == notes[1]):
        bad.append(f"{where}: text.notes must be two different characters, the brackets of a note (e.g. '（）')")
    for key in ("names", "not_names"):
        words = text.get(key, [])
        if isinstance(words, list) and not all(isinstance(w, str) and 0 < len(w) <= 12 and w.isprintable()
                                               and not w.isspace() for w in words):
            bad.append(f"{where}: text.{key} must be words of 1–12 characters")
    paths: dict[str, Path] = {}
    for table, keys, name in ((text, ("jing", "jing_simplified", "zhengzhu", "seed"), "text"),
                              (data, _DATA_FILES + _DATA_FOLDERS, "data")):
        for key in keys:
            value = table.get(key)
            if not isinstance(value, str):
                continue
            p = _resolve(folder, value)
            if isinstance(p, str):
                bad.append(f"{where}: {name}.{key} = {value[:80]!r}: {p}")
            elif key in _DATA_FOLDERS and not p.is_dir():
                bad.append(f"{where}: {name}.{key} = {value!r}: no such folder ({p})")
            elif key not in _DATA_FOLDERS and not p.is_file():
                bad.append(f"{where}: {name}.{key} = {value!r}: no such file ({p})")
            else:
                paths[key] = p
    counts = [text.get(k) for k in ("sections", "ji")]
    if not bad and all(isinstance(n, int) for n in counts):
        sections, ji = (int(n) for n in counts)  # type: ignore[arg-type]
        for key in ("jing", "jing_simplified", "zhengzhu"):
            bad += _check_counts(where, key, paths[key], sections, ji)
    if bad:
        raise ChapterError("\n".join(bad))
    return Chapter(id=raw["id"], number=raw["number"], title=raw["title"], title_en=raw["title_en"],
                   folder=folder, jing=paths["jing"], jing_simplified=paths["jing_simplified"],
                   zhengzhu=paths["zhengzhu"], sections=text["sections"], ji=text["ji"], notes=notes,
                   seed=paths.get("seed"), names=tuple(text.get("names", ())),
                   not_names=tuple(text.get("not_names", ())),
                   plan=layout.get("plan", "she"), building=layout.get("building"), rank=layout.get("rank"),
                   choices=choices, presets=presets,
                   **{k: paths.get(k) for k in _DATA_FILES + _DATA_FOLDERS})


def chapters() -> list[str]:
    """The ids of the chapters the package carries: the folders of ``assets/chapters/`` with a manifest."""
    if not CHAPTERS.is_dir():
        return []
    return sorted(p.name for p in CHAPTERS.iterdir() if (p / MANIFEST).is_file())


def chapter(cid: str = DEFAULT_ID) -> Chapter:
    """The chapter ``cid`` of ``assets/chapters/`` (read once); an unknown id is one line listing the known ones."""
    return _known(cid)


@cache
def _known(cid: str) -> Chapter:
    known = chapters()
    if not isinstance(cid, str) or cid not in known:
        shown = cid[:40] if isinstance(cid, str) else cid
        raise ChapterError(f"unknown chapter {shown!r} (known: {', '.join(known) or 'none'})")
    return load(CHAPTERS / cid)


def resolve(ch: Chapter | str | None) -> Chapter:
    """A chapter from what a caller passes: a :class:`Chapter`, an id, or None (the default, chapter 5)."""
    if ch is None:
        return chapter(DEFAULT_ID)
    if isinstance(ch, Chapter):
        return ch
    return chapter(ch)
