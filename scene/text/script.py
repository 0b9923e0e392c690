"""繁/简: traditional and simplified characters (OpenCC, pure Python)."""
from __future__ import annotations

from functools import cache

from opencc_purepy import OpenCC


@cache
def _opencc(config: str) -> OpenCC:
    return OpenCC(config)


def to_simplified(s: str) -> str:
    """Traditional → simplified (繁→简, OpenCC ``t2s``)."""
    return _opencc("t2s").convert(s)


def to_traditional(s: str) -> str:
    """Simplified → traditional (简→繁, OpenCC ``s2t``); one-to-many characters may need checking."""
    return _opencc("s2t").convert(s)
