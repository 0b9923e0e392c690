"""The app's chapters on the server (issue 43): a tab's chapter checked (one line), two chapters of one reading
are two builds of the fair queue (:class:`scene.web.builds.Builds`, its child process replaced by a timer), and
a presenter's chapter reaches the followers only when the app plays it."""
from __future__ import annotations

import asyncio

import pytest

from scene.web import builds as builds_mod
from scene.web import live as live_mod
from scene.web.chapters import DEFAULT_CHAPTER, app_chapters, chapter_of, known_chapter


class Store:
    def __init__(self) -> None:
        self.done: set[tuple] = set()

    def existing(self, r, seed=None, chapter=None):
        return r if (r, chapter) in self.done else None


def test_two_chapters_of_one_reading_are_two_builds(monkeypatch):
    built: list[tuple] = []

    async def in_child(self, loop, r, chapter=None):
        built.append((r, chapter))
        await asyncio.sleep(0.1)
        self.store.done.add((r, chapter))

    monkeypatch.setattr(builds_mod.Builds, "_in_child", in_child)

    async def run():
        b = builds_mod.Builds(Store(), lambda r, ch=None: f"url/{ch or DEFAULT_CHAPTER}/{r}", lambda c: f"s:{c}")
        five = asyncio.create_task(b.get("zheng", "zheng", "tab1"))
        four = asyncio.create_task(b.get("zheng", "zheng", "tab2", "xiangyinjiu"))
        await asyncio.sleep(0.02)
        keys = sorted(b.building)
        # the same tab asking chapter 4 while its chapter 5 builds: refused, one line
        with pytest.raises(builds_mod.BuildRefused, match="building the reading zheng"):
            await b.get("zheng", "zheng", "tab1", "xiangyinjiu")
        return keys, await five, await four

    keys, five, four = asyncio.run(run())
    assert keys == ["xiangyinjiu:zheng", "zheng"]
    assert (five, four) == ("url/xiangshe/zheng", "url/xiangyinjiu/zheng")
    assert sorted(built, key=str) == [("zheng", "xiangyinjiu"), ("zheng", None)]


def test_a_tabs_chapter_is_one_it_plays_or_one_line():
    assert [c["id"] for c in app_chapters()][:2] == ["xiangshe", "xiangyinjiu"]
    assert app_chapters()[1]["title"] == "鄉飲酒禮"
    assert chapter_of(None) == chapter_of("") == DEFAULT_CHAPTER
    assert chapter_of("xiangyinjiu") == "xiangyinjiu"
    for bad in ("nope", "x" * 5000, 4, ["xiangshe"], {"a": 1}):
        with pytest.raises(ValueError) as e:
            chapter_of(bad)
        msg = str(e.value)
        assert "\n" not in msg and len(msg) < 200 and "xiangshe, xiangyinjiu" in msg


def test_the_presenters_chapter_is_passed_on_only_when_known():
    base = {"stage": 3, "t": 1.0, "playing": False, "view": "overview", "client_ms": 1.0}
    known = lambda q: q  # noqa: E731
    assert live_mod.clean_payload({**base, "chapter": "xiangyinjiu"}, known, known_chapter)["chapter"] == "xiangyinjiu"
    assert live_mod.clean_payload({**base, "chapter": "nope"}, known, known_chapter)["chapter"] is None
    assert live_mod.clean_payload(base, known, known_chapter)["chapter"] is None
    with pytest.raises(live_mod.LiveError):
        live_mod.clean_payload({**base, "chapter": ["x"]}, known, known_chapter)
