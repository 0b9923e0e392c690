"""Texts (文本): the 經 and 記 of 鄉射禮, 鄭玄注 and the notes of the modern seed page.

Sources in ``seeds/`` (read only, never modified):

* ``xiangsheli_jing.txt`` – the 經 (classic) in 51 節 (sections, after 張爾岐《句讀》)
  and the 記 (appended record) in 73 items, traditional characters, unpunctuated;
* ``xiangsheli_jing_simplified.txt`` – the same, simplified (OpenCC ``t2s``);
* ``xiangsheli_zhengzhu.txt`` – the 經 with 鄭玄注 (Zheng Xuan's commentary) in （…）
  right after the words each note explains;
* ``000_f61d8bf8bcd3beb8.txt`` – the *seed*: one page of a modern annotated edition,
  注釋 (notes) （22）…（164） followed by the start of its 譯文 (modern translation).

A passage is named by a section number ``1``–``51`` or a 記 item ``"記01"``–``"記73"``.
Bad names raise a one-line :class:`ValueError` that names what was wrong.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from opencc_purepy import OpenCC

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
JING = "xiangsheli_jing.txt"
JING_SIMPLIFIED = "xiangsheli_jing_simplified.txt"
ZHENGZHU = "xiangsheli_zhengzhu.txt"
SEED = "000_f61d8bf8bcd3beb8.txt"

N_SECTIONS = 51  # 節 of the 經
N_JI = 73        # items of the 記
SCRIPTS = {"traditional": JING, "simplified": JING_SIMPLIFIED}

# Sections of the zhengzhu file whose 經 (notes stripped) differs from the jing file.
# The two files agree everywhere today; keep this in step with the data.
KNOWN_ZHENGZHU_DIFFERENCES: frozenset[int | str] = frozenset()

Key = int | str  # 1..51 or "記01".."記73"


# ---------------------------------------------------------------- passages

@dataclass(frozen=True)
class Passage:
    """One 節 (section) of the 經: its number, 節名 (title) and unpunctuated text."""

    n: int
    title: str
    text: str


_HEADING = re.compile(r"## (?:(\d+) (\S+)|[記记](\d+)\s*(.*))")


@lru_cache(maxsize=None)
def _sections(filename: str) -> dict[Key, tuple[str, str]]:
    """Parse a text file into ``{key: (title, text)}``, whitespace removed."""
    out: dict[Key, tuple[str, str]] = {}
    key: Key | None = None
    for line in (SEEDS / filename).read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            m = _HEADING.fullmatch(line.strip())
            # The bare '## 記' heading only opens the 記; it carries no text.
            key = None if m is None else int(m[1]) if m[1] else f"記{int(m[3]):02d}"
            if key is not None:
                out[key] = (m[2] or m[4] or "", "")
        elif key is not None and not line.startswith("# "):
            title, text = out[key]
            out[key] = (title, text + "".join(line.split()))
    return out


def _key(n: int | str) -> Key:
    """Validate a passage name: section ``1``–``51`` or 記 item ``"記01"``–``"記73"``."""
    if isinstance(n, int) and not isinstance(n, bool):
        if 1 <= n <= N_SECTIONS:
            return n
        raise ValueError(f"unknown section {n} (sections are 1–{N_SECTIONS})")
    m = re.fullmatch(r"\s*[記记](\d+)\s*", n) if isinstance(n, str) else None
    if m is None:
        raise ValueError(f"unknown passage {n!r} (use a section 1–{N_SECTIONS} or a 記 item '記01'–'記{N_JI}')")
    if not 1 <= int(m[1]) <= N_JI:
        raise ValueError(f"unknown 記 item {n} (記 items are 記01–記{N_JI})")
    return f"記{int(m[1]):02d}"


def _file(script: str) -> str:
    if script not in SCRIPTS:
        raise ValueError(f"unknown script {script!r} (use 'traditional' or 'simplified')")
    return SCRIPTS[script]


def _text(n: int | str, script: str = "traditional") -> str:
    return _sections(_file(script))[_key(n)][1]


def passage(n: int, script: str = "traditional") -> Passage:
    """Section *n* (1–51) of the 經; ``script="simplified"`` reads the provided simplified file."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"unknown section {n!r} (sections are 1–{N_SECTIONS})")
    title, text = _sections(_file(script))[_key(n)]
    return Passage(n, title, text)


def passages(script: str = "traditional") -> list[Passage]:
    """All 51 sections of the 經, in order."""
    return [passage(n, script) for n in range(1, N_SECTIONS + 1)]


def ji(n: int, script: str = "traditional") -> str:
    """Text of 記 item *n* (1–73)."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= N_JI:
        raise ValueError(f"unknown 記 item {n!r} (記 items are 1–{N_JI})")
    return _text(f"記{n:02d}", script)


def ji_items(script: str = "traditional") -> dict[int, str]:
    """All 記 items, ``{1: …, …, 73: …}``."""
    return {n: ji(n, script) for n in range(1, N_JI + 1)}


def find_phrase(n: int | str, phrase: str, script: str = "traditional") -> int:
    """Offset of *phrase* (verbatim) in passage *n*; ``ValueError`` naming both if absent."""
    text = _text(n, script)
    i = text.find(phrase) if phrase else -1
    if i < 0:
        where = f"section {n}" if isinstance(n, int) else f"{_key(n)}"
        raise ValueError(f"phrase {phrase!r} does not occur in {where}")
    return i


# ---------------------------------------------------------------- 鄭玄注

@dataclass(frozen=True)
class Gloss:
    """One 鄭注: the 經 words it follows (*anchor*) and the note.

    *offset* is where the note attaches in the plain 經 passage, i.e. just after
    the anchor: ``passage_text[offset - len(anchor):offset] == anchor``.
    """

    anchor: str
    note: str
    offset: int


_ZHU = re.compile(r"（([^（）]*)）")


def annotated(n: int | str) -> str:
    """Passage *n* as printed with 鄭注, each note in （…）."""
    return _sections(ZHENGZHU)[_key(n)][1]


def _map_offset(src: str, dst: str, p: int) -> int:
    """Carry position *p* in *src* over to *dst* (identity when they are equal)."""
    if src == dst:
        return p
    for _, i1, i2, j1, j2 in SequenceMatcher(None, src, dst, autojunk=False).get_opcodes():
        if p <= i2:
            return j1 + min(p - i1, j2 - j1)
    return len(dst)


def zheng_notes(n: int | str) -> list[Gloss]:
    """The 鄭注 of section *n* (int) or 記 item (``"記27"``), in order."""
    return list(_glosses(_key(n)))


@lru_cache(maxsize=None)
def _glosses(key: Key) -> tuple[Gloss, ...]:
    raw, jing = annotated(key), _text(key)
    plain = _ZHU.sub("", raw)
    out, pos, last = [], 0, 0
    for m in _ZHU.finditer(raw):
        anchor = raw[last:m.start()]
        pos += len(anchor)
        # Offsets index the jing file, even where the zhengzhu file's 經 differs.
        out.append(Gloss(anchor, m[1], _map_offset(plain, jing, pos)))
        last = m.end()
    return tuple(out)


def zhengzhu_differences() -> dict[Key, tuple[str, str]]:
    """Passages whose 經 differs between the two files: ``{key: (jing, zhengzhu stripped)}``."""
    out = {}
    for key in _sections(JING):
        jing, plain = _text(key), _ZHU.sub("", annotated(key))
        if jing != plain:
            out[key] = (jing, plain)
    return out


# ---------------------------------------------------------------- seed notes

@dataclass(frozen=True)
class SeedNote:
    """One 注釋 of the modern edition (simplified).

    *sections*: the 經 section(s) it explains; *ji*: the 記 item(s) it explains;
    *corrections*: misprints read differently, as ``"wrong→right"``.
    """

    n: int
    text: str
    sections: tuple[int, ...] = ()
    corrections: tuple[str, ...] = ()
    ji: tuple[int, ...] = ()

    @property
    def is_section_note(self) -> bool:
        """A note that opens a 節: ``此节述…之仪`` ('this section describes the rite of …')."""
        return self.text.startswith(_SECTION_NOTE) or f"以节述→{_SECTION_NOTE}" in self.corrections


_SECTION_NOTE = "此节述"
FIRST_SEED_SECTION = 15  # note 23 此节述纳射器之事 opens §15 弟子納射器
# Misprints fixed in the text: 小巨 for 小臣 (note 158 itself glosses 小臣).
_FIXES = (("小巨", "小臣"),)
# Misprints only *read* as corrected (the text is kept): note 97 has 以节述 for 此节述.
_READINGS = (("以节述", _SECTION_NOTE),)
_MARKER = re.compile(r"（(\d+)）")
_TRANSLATION = "【译文】"
_PAGE_FOOTER = re.compile(r"\n?（本[章篇]未完[^（）]*）\s*$")  # web-page footer, not translation
# Glyphs the seed writes differently from the (OpenCC-simplified) 經, for matching only:
# 算 for 筭, 纁 for OpenCC's 𫄸, and 胑 (a misprint) for 膱 in note 125.
_FOLD = str.maketrans({"筭": "算", "𫄸": "纁", "膱": "胑"})


@lru_cache(maxsize=None)
def _seed() -> tuple[str, str]:
    """The seed split into (notes part, translation part)."""
    notes, _, translation = (SEEDS / SEED).read_text(encoding="utf-8").partition(_TRANSLATION)
    return notes, translation


def _raw_seed_notes() -> dict[int, str]:
    """``{n: text}`` split at the markers （N）.

    The first marker that begins a line starts the sequence; after it only （N+1）
    is a marker, so cross-references such as 参阅注（55） and garbled pinyin such as
    笴（g7） stay inside the note text.  Several notes may share one line.
    """
    notes = _seed()[0]
    starts: list[tuple[int, int, int]] = []
    for m in _MARKER.finditer(notes):
        n = int(m[1])
        opens = not starts and (m.start() == 0 or notes[m.start() - 1] == "\n")
        follows = bool(starts) and n == starts[-1][0] + 1
        if opens or follows:
            starts.append((n, m.start(), m.end()))
    ends = [s for _, s, _ in starts[1:]] + [len(notes)]
    return {n: notes[e:end].strip() for (n, _, e), end in zip(starts, ends)}


def _headwords(text: str) -> list[str]:
    """The 經 words a note explains: what precedes its first '：', pinyin dropped."""
    if text.startswith((_SECTION_NOTE, "以节述")):
        text = text.partition("。")[2]  # skip '此节述…之仪。'
    head = re.sub(r"（[^（）]*）", "", text.partition("：")[0])
    return [w.translate(_FOLD) for w in re.split(r"[，、“”《》。；]", head) if w]


def _contains(key: Key, words: list[str]) -> bool:
    text = _text(key, "simplified").translate(_FOLD)
    return all(w in text for w in words)


@lru_cache(maxsize=None)
def _seed_notes() -> dict[int, SeedNote]:
    out: dict[int, SeedNote] = {}
    # The page begins inside §14 司射請射 (notes 1–21 are on the previous page):
    # note 22 glosses 某不能為二三子 of §14.
    section = FIRST_SEED_SECTION - 1
    ji_item = 0  # last 記 item matched; 0 while still in the 經
    for n, raw in _raw_seed_notes().items():
        text, corrections = raw, []
        for wrong, right in _FIXES:
            if wrong in text:
                text = text.replace(wrong, right)
                corrections.append(f"{wrong}→{right}")
        for wrong, right in _READINGS:
            if text.startswith(wrong):
                corrections.append(f"{wrong}→{right}")
        note = SeedNote(n, text, corrections=tuple(corrections))
        words = _headwords(text)
        if note.is_section_note:
            section += 1  # each 此节述 note opens the next section, in order
        elif section == N_SECTIONS and not ji_item and words and not _contains(N_SECTIONS, words):
            ji_item = 1   # past the last section the notes gloss the 記, not §51
        if ji_item:
            # 記 notes go in 記 order: the first item from the last match on that has the words.
            found = [i for i in range(ji_item, N_JI + 1) if _contains(f"記{i:02d}", words)]
            ji_item = found[0] if found else ji_item
            out[n] = SeedNote(n, text, (), note.corrections, tuple(found[:1]))
        else:
            out[n] = SeedNote(n, text, (section,), note.corrections)
    return out


def seed_notes() -> dict[int, SeedNote]:
    """All notes of the seed page, ``{22: …, …, 164: …}``."""
    return dict(_seed_notes())


def seed_note(n: int) -> SeedNote:
    """Seed note *n* (22–164)."""
    notes = _seed_notes()
    if n not in notes or isinstance(n, bool):
        raise ValueError(f"unknown seed note {n!r} (seed notes are {min(notes)}–{max(notes)})")
    return notes[n]


def seed_notes_for_section(n: int | str) -> list[SeedNote]:
    """Seed notes explaining section *n* (int), or 記 item *n* (``"記61"``)."""
    key = _key(n)
    if isinstance(key, int):
        return [s for s in _seed_notes().values() if key in s.sections]
    return [s for s in _seed_notes().values() if int(key[1:]) in s.ji]


def seed_translation() -> str:
    """The seed's 譯文 (modern translation, simplified) verbatim, without the page footer.

    Only the beginning of the translation is on the page (it stops mid-sentence).
    """
    return _PAGE_FOOTER.sub("", _seed()[1].strip("\n"))


# ---------------------------------------------------------------- scripts

@lru_cache(maxsize=None)
def _opencc(config: str) -> OpenCC:
    return OpenCC(config)


def to_simplified(s: str) -> str:
    """Traditional → simplified (繁→简, OpenCC ``t2s``)."""
    return _opencc("t2s").convert(s)


def to_traditional(s: str) -> str:
    """Simplified → traditional (简→繁, OpenCC ``s2t``); one-to-many characters may need checking."""
    return _opencc("s2t").convert(s)
