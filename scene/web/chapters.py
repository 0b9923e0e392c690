"""The chapters the app plays (issue 43): 鄉射禮 (``xiangshe``, the default) and 鄉飲酒禮 (``xiangyinjiu``) —
the list its chapter switch shows, and a tab's ``chapter`` checked (one line when it is not one)."""
from __future__ import annotations

from functools import lru_cache

from .guard import short as guard_short

DEFAULT_CHAPTER = "xiangshe"


def app_chapters() -> list[dict]:
    """The chapters the app plays (those with a rite, chapter 5 first): {id, number, title, title_en}."""
    return [dict(c) for c in _chapters()]


@lru_cache(maxsize=1)
def _chapters() -> tuple[dict, ...]:                # (read once: a client's every ask checks against it)
    from .pack.site import site_chapters
    return tuple({"id": c.id, "number": c.number, "title": c.title, "title_en": c.title_en} for c in site_chapters())


def chapter_of(value) -> str:
    """A tab's chapter (an id; None or "" the default) checked against the chapters with a rite, or
    ValueError (one line)."""
    if value is None or value == "":
        return DEFAULT_CHAPTER
    known = [c["id"] for c in _chapters()]
    if not isinstance(value, str) or value not in known:
        raise ValueError(f"chapter {guard_short(value, 40)}: not a chapter the app plays ({', '.join(known)})")
    return value


def known_chapter(value) -> str | None:
    """The chapter a follower may be sent to, else None."""
    try:
        return chapter_of(value)
    except ValueError:
        return None


def chapter_argv(value) -> list[str]:
    """The exporters' arguments for a tab's chapter: none for chapter 5, else ``--chapter ID`` (ValueError: one
    line)."""
    ch = chapter_of(value)
    return [] if ch == DEFAULT_CHAPTER else ["--chapter", ch]
