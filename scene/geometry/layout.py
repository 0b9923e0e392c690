"""Every named place and object of the rite, computed from the text under a reading.

Each :class:`~scene.geometry.places.Place` carries the sentence that fixes it, the
commentary used, the arithmetic and a status.  Numbers the text states are
parsed from the quoted phrase itself (:func:`scene.geometry.units.parse_length`), so the
derivation shown to a reader is the one the program actually ran.

Coordinates: 周尺; origin on the ground below the midpoint of the 堂廉
(the 堂's south edge); +x east, +y north, +z up.
Placed by ``place_hall`` (the building), ``place_range`` (侯, 乏, 物) and ``place_court`` (the court, the
堂's furniture, the people's places), in that order, into one :class:`~.builder.PlaceBuilder` — chapter 5's plan
(``she``).  A chapter names its plan in its manifest (``[layout] plan``): ``yinjiu``, the 庠 of 鄉飲酒禮
(``place_yinjiu``: 房, 室, 戶, 牖, the 磬 階間, no range).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..chapter import Chapter
from ..chapter import resolve as resolve_chapter
from . import place_court, place_hall, place_range, place_yinjiu
from . import readings as readings_mod
from .builder import FILE, PlaceBuilder, fmt  # noqa: F401  (re-exported)
from .hall import Hall, build_hall
from .places import Place
from .readings import Reading


@dataclass(frozen=True)
class Layout:
    """All placements under one reading."""

    reading: Reading
    hall: Hall
    places: dict[str, Place]

    def __getitem__(self, pid: str) -> Place:
        try:
            return self.places[pid]
        except KeyError:
            raise KeyError(f"unknown place {pid!r}") from None

    def __contains__(self, pid: str) -> bool:
        return pid in self.places

    def xyz_m(self, pid: str) -> tuple[float, float, float]:
        return self[pid].xyz_m(self.reading.chi_m)

    def as_dict(self) -> dict[str, Any]:
        r, h, m = self.reading, self.hall, self.reading.m
        return {
            "reading": {"name": r.name, "title": r.title, "chi_m": r.chi_m,
                        "choices": r.choices()},
            "hall": {
                "building": r.building,
                "depth_m": round(m(h.tang_depth), 4),
                "house_depth_m": round(m(h.house_depth), 4),
                "width_m": round(m(2 * h.platform_x), 4),
                "width_between_xu_m": round(m(2 * h.xu_x), 4),
                "width_between_rong_m": round(m(2 * h.rong_x), 4),
                "height_m": round(m(h.height), 4),
                "steps": h.steps,
                "ridge_height_m": round(m(h.z_dong), 4),
            },
            "places": [p.as_dict(r.chi_m) for p in self.places.values()],
        }


@lru_cache(maxsize=64)
def _build(reading: Reading) -> Layout:
    b = PlaceBuilder(reading)
    h = build_hall(reading)
    place_hall.building(b, h)
    rng = place_range.shooting_range(b, h)
    place_court.court(b, h, rng)
    place_court.tang_things(b, h, rng)
    place_court.people_below(b, h)
    return Layout(reading, h, b.places)


@lru_cache(maxsize=16)
def _build_yinjiu(reading: Reading) -> Layout:
    b = PlaceBuilder(reading)
    h = place_yinjiu.yinjiu_hall(build_hall(reading))
    place_yinjiu.build(b, h)
    return Layout(reading, h, b.places)


def chapter_reading(reading: Reading, ch: Chapter) -> Reading:
    """The reading with what the chapter's text fixes (its ``[layout] building`` and ``rank``) put in."""
    fixed = {k: v for k, v in (("building", ch.building), ("rank", ch.rank)) if v is not None}
    return reading.replace(**fixed) if fixed else reading


def fixed_by_text(reading: Reading, placed: Reading) -> str:
    """What the chapter's text fixed of the reading the layout was placed under (``placed``: its
    :func:`chapter_reading`), said beside the reading's title wherever that title is printed — the zheng title names
    chapter 5's 州序, and 鄉飲酒禮 is in the 庠 of a 大夫 whatever the reading says; "" when nothing was fixed."""
    if (placed.building, placed.rank) == (reading.building, reading.rank):
        return ""
    return f"（本篇 {placed.building}、{placed.rank}：經所定）"


def build_layout(reading: Reading | str | None = None, chapter: Chapter | str | None = None) -> Layout:
    """Every place of the hall, the court and the range under a reading, each with its provenance.

    Parameters
    ----------
    reading : str or Reading or None
        As :func:`scene.geometry.readings.get` takes it; None is the default reading.

    Returns
    -------
    Layout
        Places by id (``layout["hall.tang"]``): position and size in 尺, facing, the sentence that fixes it
        (``source``), the arithmetic (``derivation``) and whether the text states it, it is derived or it is
        assumed (``status``).
    chapter : Chapter or str or None
        Whose hall: its manifest's ``[layout]`` plan (None: chapter 5's).
    """
    r = readings_mod.get(reading)
    if chapter is None:
        return _build(r)
    ch = resolve_chapter(chapter)
    r = chapter_reading(r, ch)
    return _build_yinjiu(r) if ch.plan == "yinjiu" else _build(r)
