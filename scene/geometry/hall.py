"""The building (宮室): the 堂 of a 州序 or a 鄉庠, its roof and its court, in 周尺.

Only the 堂高 and its steps have an ancient number for this rank; the plan
sizes come from the reading's stated assumptions (尚書大傳 士 proportions and
the 考工記 ratio).  Everything here is arithmetic on a :class:`Reading`.
"""
from __future__ import annotations

from dataclasses import dataclass

from .readings import Reading


@dataclass(frozen=True)
class Hall:
    """Plan and section of the hall.  x east, y north (0 at the 堂廉), z up; 尺."""

    reading: Reading
    height: float            # 堂高
    steps: int               # 等 of each stair
    tread: float
    stair_width: float
    house_depth: float       # 前庪 to 後庪 of the five-架 house
    tang_depth: float        # 堂深: 堂廉 to the back wall (序) or to the 房室 wall (庠)
    rong_x: float            # 榮 (gable ends) at ±rong_x
    xu_x: float              # 序 (side walls) at ±xu_x
    platform_x: float        # the platform's east/west edges (堂東廉/堂西廉) at ±platform_x
    ying_x: float            # 楹 at ±ying_x
    stairs_x: float          # 阼階 at +stairs_x, 西階 at −stairs_x
    y_yan: float             # 庪: front eave purlin, over the 堂廉
    y_mei: float             # 楣: front lintel purlin
    y_dong: float            # 棟: ridge
    z_eave: float
    z_mei: float
    z_dong: float
    overhang: float          # eave beyond the 堂廉 (階當霤: the drip falls at the foot of the steps)

    @property
    def has_shi(self) -> bool:
        """A 庠 has a 室 (and 房) behind the 堂; a 序 has none (鄭 §20)."""
        return self.reading.building == "庠"

    @property
    def stair_run(self) -> float:
        return self.steps * self.tread

    def tread_top(self, k: int) -> float:
        """Height of the k-th 等 (1 = lowest); the last is level with the 堂."""
        return self.height * k / self.steps


def build_hall(r: Reading) -> Hall:
    inner = r.hall_width_chi * r.inner_ratio            # 序 to 序
    bay = inner / r.ying_bays
    ying_x = bay / 2.0 if r.ying_bays % 2 else bay      # the two 楹 flank the middle bay
    xu_x = inner / 2.0
    depth = r.house_depth_chi
    rise = inner / 5.0                                  # 尚書大傳 五分內以一為高 (穹高)
    height = r.hall_height_chi
    return Hall(
        reading=r, height=height, steps=r.steps, tread=r.tread_chi, stair_width=r.stair_width_chi,
        house_depth=depth,
        tang_depth=depth / 2.0 if r.building == "庠" else depth,
        rong_x=r.hall_width_chi / 2.0, xu_x=xu_x, platform_x=xu_x + r.east_west_tang_chi,
        ying_x=ying_x, stairs_x=(ying_x + xu_x) / 2.0,
        y_yan=0.0, y_mei=depth / 4.0, y_dong=depth / 2.0,
        z_eave=height + r.eave_height_chi, z_mei=height + r.eave_height_chi + rise / 2.0,
        z_dong=height + r.eave_height_chi + rise,
        overhang=r.steps * r.tread_chi,
    )
