"""The static set of a reading: everything that never moves, by layer (main, the two roof slopes, shadows),
in 尺 and scaled to metres once; cached per reading."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...chapter import DEFAULT_ID as DEFAULT_CHAPTER
from ...geometry.layout import Layout, build_layout
from ..palette import COLOURS as C
from ..palette import SUN_DIR
from ..shapes import Z_SHADOW, Batch, box
from . import building, grounds

#: roof modes: the whole roof; the south slope cut away (purlins and rafters left, 庪 楣 棟 readable);
#: both slopes see-through; no roof at all
ROOF_MODES = ("cutaway", "solid", "ghost", "none")




@dataclass
class StaticSet:
    """Static geometry of one reading, in metres, by layer.

    ``main`` everything opaque that never moves; ``roof_south`` / ``roof_north``
    the two tiled slopes (the renderer shows, hides or ghosts them by roof
    mode); ``shadows`` the planar shadows of all of it (of the full roof).
    """

    layout: Layout
    main: Batch
    roof_south: Batch
    roof_north: Batch
    shadows: Batch
    scale: float                            # metres per 尺
    bounds_m: tuple[float, float, float, float] = (0, 0, 0, 0)   # court x0 x1 y0 y1
    _baked: dict | None = None
    _sun: object = None

    def batches(self) -> dict[str, Batch]:
        """Layers, all in 尺 (scale by ``scale``): ``main``, ``shadows``, ``roof_south``, ``roof_north``.

        The renderer shows the slopes by roof mode: ``solid`` both; ``ghost`` both see-through;
        ``cutaway`` hides the slope between the camera and the 堂 (both, seen from above); ``none`` neither."""
        return {"main": self.main, "shadows": self.shadows, "roof_south": self.roof_south,
                "roof_north": self.roof_north}

    def baked(self) -> dict:
        """The layers subdivided and lit, with occlusion and the sun's shadows baked in (:mod:`.bake`):
        what the pack ships and the stills draw unlit.  Cached in memory and on disk."""
        if self._baked is None:
            from .bake import baked
            self._baked = baked(self.batches(), self.scale)
        return self._baked

    def sunlit(self, points_m: np.ndarray, soft: bool = True) -> np.ndarray:
        """Share (0–1) of the sun each point (metres) gets past the building and the walls (:func:`.bake.sun_map`);
        ``soft``: over a 3×3 neighbourhood of the map, else its one pixel."""
        if self._sun is None:
            from .bake import sun_map
            self._sun = sun_map(self.batches())
        p = np.asarray(points_m, float) / self.scale
        return self._sun.lit(p + (0.0, 0.0, 0.3), bias=0.5, filt=1 if soft else 0)

    def sunlit_floors(self) -> list[list[float]]:
        """The part of the 堂 floor the sun reaches, (x0, x1, y0, y1, z) in metres: its front strip, out from
        under the eaves (scanned along the axis)."""
        h = self.layout.hall
        ys = np.arange(0.0, h.house_depth, 0.25)
        pts = np.column_stack([np.zeros_like(ys), ys, np.full_like(ys, h.height)]) * self.scale
        lit = self.sunlit(pts) > 0.5
        y1 = float(ys[np.argmin(lit)]) if not lit.all() else h.house_depth
        s = self.scale
        return [[-h.platform_x * s, h.platform_x * s, 0.0, y1 * s, h.height * s]]

    def part_ids(self) -> list[str]:
        ids: list[str] = []
        for b in (self.main, self.roof_south, self.roof_north):
            ids += [n for n in b.names if n not in ids]
        return ids


def _floor_of(lay: Layout):
    """The surface (尺) a static part's shadow falls on: the 堂 floor for things on it, else the ground."""
    fl = lay.hall.height
    on_tang = re.compile(r"^(hall\.(west|east)_pillar|mat\.|tang\.)")
    def floor(pid: str, pts: np.ndarray) -> float:
        return fl if on_tang.match(pid) else 0.0
    return floor


@lru_cache(maxsize=8)
def static_set(reading_key, chapter: str | None = None) -> StaticSet:
    """The static scene of a reading in a chapter's hall (``chapter``: its id; None, chapter 5's); the range
    (侯, 乏, 侯道, 物) only where the hall has one (鄉飲酒禮's 庠 has none)."""
    lay = build_layout(reading_key) if chapter is None else build_layout(reading_key, chapter=chapter)
    main, rs, rn = Batch(), Batch(), Batch()
    bounds = grounds.court(main, lay)
    building.hall(main, lay, rs, rn)
    if "target.hou" in lay:
        grounds.shooting_range(main, lay)
    grounds.furniture(main, lay)
    # shadows: of the whole building (the full roof, whatever the roof mode) on the court or the 堂
    both = Batch()
    both.extend(main)
    both.extend(rs)
    both.extend(rn)
    fl = lay.hall.height
    zs = Z_SHADOW / lay.reading.chi_m
    def colour_of(z):
        return C["shadow_tang"] if z > 0.5 else C["shadow_ground"]
    floor = _floor_of(lay)
    skip = [n for n in both.names if n.startswith(("ground.", "hall.court", "range.houdao", "tang.wu", "hall.tang"))
            or n.endswith(("rafters",)) or n in ("hall.roof.tiles", "hall.roof.eave_tiles")]   # the slab casts theirs
    sh = both.shadow(SUN_DIR, colour_of, skip=skip, floor_of=lambda pid, p: floor(pid, p) + (zs if floor(pid, p) == 0 else 0.05))
    # the platform itself casts onto the ground
    plat = Batch()
    hx, d = lay.hall.platform_x, lay.hall.house_depth
    plat.add("hall.tang", box((2 * hx, d, fl), (0, d / 2, fl / 2)), "#000000")
    sh.extend(plat.shadow(SUN_DIR, colour_of, floor_of=lambda pid, p: zs))
    chi = lay.reading.chi_m
    x0, x1, y0, y1 = bounds
    return StaticSet(lay, main, rs, rn, sh, chi, (x0 * chi, x1 * chi, y0 * chi, y1 * chi))


def build_static(reading=None, chapter: str | None = None) -> StaticSet:
    """The static scene of a reading (cached: a reading's building never changes); ``chapter``: another
    chapter's hall than chapter 5's (its id)."""
    from ...geometry import readings as readings_mod
    return static_set(readings_mod.get(reading)) if chapter is None else static_set(readings_mod.get(reading), chapter)


def static_of(rite) -> StaticSet:
    """The static scene of a compiled rite: its reading's, in the hall of its own chapter."""
    ch = rite.choreography.chapter
    return build_static(rite.reading, None if ch is None or ch.id == DEFAULT_CHAPTER else ch.id)
