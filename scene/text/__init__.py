"""Texts (文本): the 經 and 記 of a chapter, 鄭玄注 and the notes of the modern seed page.

Every reader takes ``chapter=`` (a :class:`scene.chapter.Chapter` or its id: the files and counts its manifest
names); left out, the chapter is 5, 鄉射禮, whose sources are in ``seeds/`` (read only, never modified):

* ``xiangsheli_jing.txt`` – the 經 (classic) in 51 節 (sections, after 張爾岐《句讀》)
  and the 記 (appended record) in 73 items, traditional characters, unpunctuated;
* ``xiangsheli_jing_simplified.txt`` – the same, simplified (OpenCC ``t2s``);
* ``xiangsheli_zhengzhu.txt`` – the 經 with 鄭玄注 (Zheng Xuan's commentary) in （…）
  right after the words each note explains;
* ``000_f61d8bf8bcd3beb8.txt`` – the *seed*: one page of a modern annotated edition,
  注釋 (notes) （22）…（164） followed by the start of its 譯文 (modern translation).

A passage is named by a section number ``1``–``51`` or a 記 item ``"記01"``–``"記73"`` (chapter 4, 鄉飲酒禮:
``1``–``25``, ``"記01"``–``"記31"``).  Bad names raise a one-line :class:`ValueError` that names what was wrong.

The package is the first layer: it reads files and imports nothing else of ``scene`` but the modules below every
layer (``paths``, ``chapter``).
``jing`` (經 and 記), ``zheng`` (鄭注), ``seed`` (the seed's notes and translation), ``script`` (繁/简).
"""
from __future__ import annotations

from ..paths import SEEDS  # noqa: F401  (re-exported: the seeds' folder)
from .jing import (  # noqa: F401
                   JING,
                   JING_SIMPLIFIED,
                   N_JI,
                   N_SECTIONS,
                   SCRIPTS,
                   SEED,
                   ZHENGZHU,
                   ChapterLike,
                   Key,
                   Passage,
                   find_phrase,
                   ji,
                   ji_items,
                   passage,
                   passages,
)
from .script import to_simplified, to_traditional  # noqa: F401
from .seed import FIRST_SEED_SECTION, SeedNote, seed_note, seed_notes, seed_notes_for_section, seed_translation  # noqa: F401
from .zheng import KNOWN_ZHENGZHU_DIFFERENCES, Gloss, annotated, zheng_notes, zhengzhu_differences  # noqa: F401

__all__ = [  # the names the layer offers (the later layers import them from here)
    "SEEDS", "ChapterLike", "JING", "JING_SIMPLIFIED", "N_JI", "N_SECTIONS", "SCRIPTS", "SEED", "ZHENGZHU", "Key", "Passage",
    "find_phrase", "ji", "ji_items", "passage", "passages", "to_simplified", "to_traditional", "FIRST_SEED_SECTION",
    "SeedNote", "seed_note", "seed_notes", "seed_notes_for_section", "seed_translation", "KNOWN_ZHENGZHU_DIFFERENCES",
    "Gloss", "annotated", "zheng_notes", "zhengzhu_differences",
]
