"""The 經 in 51 節 and the 記 in 73 items, by name (section ``1``–``51`` or ``"記01"``–``"記73"``).

Read from ``seeds/`` (never modified), whitespace removed; bad names raise a one-line ``ValueError``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..paths import SEEDS

JING = "xiangsheli_jing.txt"
JING_SIMPLIFIED = "xiangsheli_jing_simplified.txt"
ZHENGZHU = "xiangsheli_zhengzhu.txt"
SEED = "000_f61d8bf8bcd3beb8.txt"

N_SECTIONS = 51  # 節 of the 經
N_JI = 73        # items of the 記
SCRIPTS = {"traditional": JING, "simplified": JING_SIMPLIFIED}

Key = int | str  # 1..51 or "記01".."記73"


@dataclass(frozen=True)
class Passage:
    """One 節 (section) of the 經: its number, 節名 (title) and unpunctuated text."""

    n: int
    title: str
    text: str


_HEADING = re.compile(r"## (?:(\d+) (\S+)|[記记](\d+)\s*(.*))")


@cache
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
                assert m is not None                  # a key comes only from a heading's match
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
