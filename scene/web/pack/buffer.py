"""The pack's binary buffer and the typed accessors into it; keyframes and step tracks as the player reads
them; colours lit with the stills' light rig (baked per vertex)."""
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np


def lights() -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The stills' light rig (:data:`scene.palette.LIGHTS`), directions normalised."""
    from ...render.palette import LIGHTS
    return [(np.asarray(d, float) / np.linalg.norm(d), np.asarray(c, float), k) for d, c, k in LIGHTS]


def light(rgb: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Per-vertex lit colours (u8) from base colours (u8) and unit normals:
    colour × (AMBIENT + DIFFUSE × Σ kᵢ cᵢ max(0, n·lᵢ)), the still renderer's material and lights."""
    from ...render.palette import AMBIENT, DIFFUSE
    n = np.asarray(normals, dtype=np.float64)
    gain = np.full((len(n), 3), AMBIENT)
    for d, colour, k in lights():
        gain += DIFFUSE * k * np.maximum(0.0, n @ d)[:, None] * colour[None, :]
    out = np.asarray(rgb, dtype=np.float64) * gain
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


DTYPES = {"f32": np.float32, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32}


class Bin:
    """Accessors appended to one buffer, each starting on a multiple of 4 bytes.  Identical data is
    stored once (the figures of one headwear share their positions and triangles; only colours differ):
    two accessors may then point at the same bytes."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self._seen: dict[tuple[str, int, bytes], dict[str, Any]] = {}

    def add(self, array: np.ndarray, t: str, c: int) -> dict[str, Any]:
        a = np.ascontiguousarray(np.asarray(array), dtype=np.dtype(DTYPES[t]).newbyteorder("<"))
        n = a.size // c if c else 0
        assert a.size == n * c, (a.shape, c)
        data = a.tobytes()
        key = (t, c, hashlib.sha1(data).digest())
        if key in self._seen:
            return dict(self._seen[key])
        acc = {"o": self.size, "n": int(n), "t": t, "c": c}
        self._seen[key] = dict(acc)
        self.parts.append(data)
        self.size += len(data)
        pad = (-self.size) % 4
        if pad:
            self.parts.append(b"\0" * pad)
            self.size += pad
        return acc

    def bytes(self) -> bytes:
        return b"".join(self.parts)


def mesh_accessors(bn: Bin, points, normals, tris, rgb, part, names, scale: float = 1.0,
                   baked: bool = False) -> dict[str, Any]:
    """A Geo: positions (metres), lit colours (``baked``: the colours are lit already), triangles,
    per-triangle part index, the part names."""
    pts = np.asarray(points, dtype=np.float64) * scale
    return {"position": bn.add(pts.astype(np.float32), "f32", 3),
            "colour": bn.add(np.asarray(rgb, np.uint8) if baked else light(rgb, normals), "u8", 3),
            "index": bn.add(np.asarray(tris, dtype=np.uint32), "u32", 3),
            "part": bn.add(np.asarray(part, dtype=np.uint16), "u16", 1),
            "parts": list(names)}


def batch_geometry(bn: Bin, batch, scale: float = 1.0, baked: bool = False) -> dict[str, Any]:
    a = batch.arrays()
    return mesh_accessors(bn, a["points"], a["normals"], a["tris"], a["rgb"], a["part"], batch.names, scale, baked)


def times_f32(t: np.ndarray) -> np.ndarray:
    """Key times as f32, rounded down (a key at a stage's start is in force at the start itself, not a
    rounding after it: at 4 h an f32 is 1 ms coarse, and the director's cut at §44's start showed the shot
    before it), kept strictly increasing (keys 1 µs apart would otherwise collapse)."""
    t64 = np.asarray(t, dtype=np.float64)
    out = t64.astype(np.float32)
    up = out.astype(np.float64) > t64
    out[up] = np.nextafter(out[up], np.float32(-np.inf))
    while len(out) > 1:
        bad = np.flatnonzero(out[1:] <= out[:-1]) + 1
        if not len(bad):
            break
        out[bad] = np.nextafter(out[bad - 1], np.float32(np.inf))
    return out


def step_track(t, values, conv=lambda v: v) -> dict[str, list]:
    """Steps {"t", "v"}: consecutive repeats dropped."""
    ts, vs = [], []
    for tt, v in zip(np.asarray(t, dtype=float), values):
        v = conv(v)
        if vs and v == vs[-1]:
            continue
        if ts and round(float(tt), 3) <= ts[-1]:
            vs[-1] = v            # several changes at one instant: the last one holds
            if len(vs) > 1 and vs[-1] == vs[-2]:
                ts.pop()
                vs.pop()
            continue
        ts.append(round(float(tt), 3))
        vs.append(v)
    if ts:
        ts[0] = min(ts[0], 0.0)
    return {"t": ts, "v": vs}


def rounded(x: float, nd: int = 4) -> float:
    return float(round(float(x), nd))


def xyz_list(p, nd: int = 4) -> list[float]:
    return [rounded(c, nd) for c in p]
