"""Collecting places: the builder every placing module writes into, the spacing of a file of people, and the
compact numbers of the derivations shown to a reader."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .places import Place
from .readings import Reading
from .units import Measure, parse_length

#: 尺 between people standing in a file (行): about 0.6–0.7 m under every reading (assumed)
FILE = 3.0


def fmt(x: float) -> str:
    """Compact number for derivations: 300, 1.2, 33.33."""
    return f"{round(x, 2):g}"


class PlaceBuilder:
    """Collects places; refuses duplicate ids (a typo would silently hide one)."""

    def __init__(self, reading: Reading) -> None:
        self.r = reading
        self.places: dict[str, Place] = {}

    def measure(self, text: str, **refs: float) -> Measure:
        return parse_length(text, self.r, refs or None)

    def put(self, pid: str, name: str, xyz: Iterable[float], *, source: str, derivation: str,
            status: str, commentary: str = "", size: Iterable[float] | None = None,
            facing: str | None = None, **extra: Any) -> Place:
        if pid in self.places:
            raise ValueError(f"duplicate place id {pid!r}")
        p = Place(pid, name, _triple(xyz), source, derivation, status, commentary,
                  None if size is None else _triple(size), facing, extra)
        self.places[pid] = p
        return p


def _triple(v: Iterable[float]) -> tuple[float, float, float]:
    """Three numbers as floats (a position or a size); anything else is a programming error."""
    x, y, z = (float(c) for c in v)
    return (x, y, z)
