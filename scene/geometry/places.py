"""A placed thing (位 / 器) with its provenance.

Positions are kept in 周尺 (the text's own unit) and converted to metres only
at the edge, so a reading's 周尺 length scales everything and nothing else.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Facing (面) → compass heading in degrees (0 = north, 90 = east), the way
#: the text names directions.  The 侯 and the 堂 face each other along N–S.
FACING_DEG: dict[str, float] = {
    "北面": 0.0, "東北面": 45.0, "東面": 90.0, "東南面": 135.0,
    "南面": 180.0, "西南面": 225.0, "西面": 270.0, "西北面": 315.0,
}

STATUSES = ("stated", "derived", "assumed")


@dataclass(frozen=True)
class Place:
    """One named place or object of the rite.

    ``status`` says how much the text fixes it: *stated* — a number or a
    position the 經/記 gives outright; *derived* — computed from stated rules;
    *assumed* — a modelling choice no ancient text fixes (the basis is named).
    """

    id: str
    name: str                          # the classical term as the text writes it
    xyz_chi: tuple[float, float, float]
    source: str                        # passage: "經 §2 …" / "記61 …"
    derivation: str                    # the arithmetic, readable
    status: str
    commentary: str = ""               # 鄭注 / 賈疏 / 張爾岐 … used
    size_chi: tuple[float, float, float] | None = None   # (E–W, N–S, up)
    facing: str | None = None          # 北面, 東面 …
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"place {self.id}: status {self.status!r} not in {STATUSES}")
        if self.facing is not None and self.facing not in FACING_DEG:
            raise ValueError(f"place {self.id}: facing {self.facing!r} not in {list(FACING_DEG)}")

    @property
    def heading_deg(self) -> float | None:
        return None if self.facing is None else FACING_DEG[self.facing]

    def xyz_m(self, chi_m: float) -> tuple[float, float, float]:
        return tuple(round(c * chi_m, 4) for c in self.xyz_chi)  # type: ignore[return-value]

    def as_dict(self, chi_m: float) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "xyz_m": list(self.xyz_m(chi_m)),
                             "xyz_chi": [round(c, 4) for c in self.xyz_chi]}
        if self.size_chi is not None:
            d["size_m"] = [round(s * chi_m, 4) for s in self.size_chi]
        if self.facing is not None:
            d["facing"] = self.facing
            d["heading_deg"] = self.heading_deg
        d.update(source=self.source, commentary=self.commentary,
                 derivation=self.derivation, status=self.status)
        return d
