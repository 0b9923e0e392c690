"""A compiled rite from the disk cache reads this install's chapter files, not those of the checkout that
compiled it: the cache key hashes the files' bytes, not where they were (a rite pickled by another checkout
made packs without lessons)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from scene.chapter import resolve
from scene.rite import cache


def test_a_cached_rite_compiled_elsewhere_is_pointed_at_this_installs_chapter(monkeypatch):
    here = resolve(None)
    elsewhere = dataclasses.replace(here, folder=Path("/gone/assets/chapters/xiangshe"),
                                    lessons=Path("/gone/assets/lessons"))
    real_entry = cache.entry

    def entry_from_elsewhere(prefix, key, build, kind, what):
        rite = real_entry(prefix, key, build, kind, what)
        rite.choreography = dataclasses.replace(rite.choreography, chapter=elsewhere)
        return rite
    monkeypatch.setattr(cache, "entry", entry_from_elsewhere)
    monkeypatch.setattr(cache, "_rites", {})
    rite = cache.load_rite("zheng")
    assert rite.choreography.chapter == here and rite.chapter.lessons == here.lessons
    assert rite.chapter.lessons is not None and rite.chapter.lessons.is_dir()
