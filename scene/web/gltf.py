"""The scene as glTF 2.0, written by hand with numpy and json (the node tree, provenance, axes and colours are
described in :mod:`scene.web.export`)."""
from __future__ import annotations

import base64
import json
import struct
from typing import Any

import numpy as np

from .export import COORDINATES, GENERATOR, place_row, reading_dict

GLTF_AXES = "glTF y-up, applied to the data: gltf (x, y, z) = (east, up, -north) = (x, z, -y) of the layout, metres"

_FLOAT, _UINT = 5126, 5125
_ARRAY_BUFFER, _ELEMENT_ARRAY_BUFFER = 34962, 34963
_TRIANGLES = 4
_GLB_MAGIC, _GLB_JSON, _GLB_BIN = 0x46546C67, 0x4E4F534A, 0x004E4942


def to_gltf_axes(p: np.ndarray) -> np.ndarray:
    """Our z-up (x east, y north, z up) → glTF y-up: (x, y, z) → (x, z, −y). A rotation (det +1),
    so triangle winding is unchanged; applies to positions, normals and translations alike."""
    p = np.asarray(p, dtype=np.float64)
    return np.stack([p[..., 0], p[..., 2], -p[..., 1]], axis=-1)


def srgb_to_linear(rgb_u8: np.ndarray) -> np.ndarray:
    c = np.asarray(rgb_u8, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def owner(pid: str, ids) -> str | None:
    """The longest id in ``ids`` that is ``pid`` itself or a dot-boundary prefix of it."""
    parts = pid.split(".")
    for k in range(len(parts), 0, -1):
        cand = ".".join(parts[:k])
        if cand in ids:
            return cand
    return None


class _Buffer:
    """One little-endian binary buffer; every accessor gets its own bufferView at a 4-byte boundary."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.views: list[dict[str, Any]] = []
        self.accessors: list[dict[str, Any]] = []

    def add(self, array: np.ndarray, kind: str, target: int, minmax: bool = False) -> int:
        a = np.ascontiguousarray(array, dtype="<u4" if kind == "SCALAR" else "<f4")
        raw = a.tobytes()
        self.views.append({"buffer": 0, "byteOffset": self.size, "byteLength": len(raw), "target": target})
        self.chunks.append(raw)
        self.size += len(raw)
        pad = (-self.size) % 4
        if pad:
            self.chunks.append(b"\0" * pad)
            self.size += pad
        acc: dict[str, Any] = {"bufferView": len(self.views) - 1, "byteOffset": 0,
                               "componentType": _UINT if kind == "SCALAR" else _FLOAT,
                               "count": int(a.size if kind == "SCALAR" else len(a)), "type": kind}
        if minmax:
            acc["min"] = [float(v) for v in a.min(axis=0)]
            acc["max"] = [float(v) for v in a.max(axis=0)]
        self.accessors.append(acc)
        return len(self.accessors) - 1

    def bytes(self) -> bytes:
        return b"".join(self.chunks)


def _parts(batch, scale: float):
    """(part id, points m, normals, local triangles, rgb) per part id of a batch, in metres, z-up."""
    a = batch.arrays()
    if not len(a["tris"]):
        return
    pts = a["points"].astype(np.float64) * scale
    tri_part = a["part"]
    for k, pid in enumerate(batch.names):
        tris = a["tris"][tri_part == k]
        if not len(tris):
            continue
        used, local = np.unique(tris, return_inverse=True)
        yield pid, pts[used], a["normals"][used], local.reshape(-1, 3), a["rgb"][used]


def _mesh(buf: _Buffer, meshes: list, name: str, pts_rel: np.ndarray, normals: np.ndarray, tris: np.ndarray,
          rgb: np.ndarray) -> int:
    n = to_gltf_axes(normals)
    length = np.linalg.norm(n, axis=1, keepdims=True)
    n = np.where(length > 1e-9, n / np.maximum(length, 1e-12), np.array([0.0, 1.0, 0.0]))
    attrs = {"POSITION": buf.add(to_gltf_axes(pts_rel), "VEC3", _ARRAY_BUFFER, minmax=True),
             "NORMAL": buf.add(n, "VEC3", _ARRAY_BUFFER),
             "COLOR_0": buf.add(srgb_to_linear(rgb), "VEC3", _ARRAY_BUFFER)}
    idx = buf.add(np.asarray(tris, dtype=np.uint32).reshape(-1), "SCALAR", _ELEMENT_ARRAY_BUFFER)
    meshes.append({"name": name, "primitives": [{"attributes": attrs, "indices": idx, "material": 0,
                                                 "mode": _TRIANGLES}]})
    return len(meshes) - 1


def _place_extras(place, chi_m: float) -> dict[str, Any]:
    row = place_row(place, chi_m)
    return {"place": place.id, "classical_name": place.name, "passage": place.source, "commentary": place.commentary,
            "arithmetic": place.derivation, "status": place.status,
            "xyz_m": [row["x_m"], row["y_m"], row["z_m"]]}


def build_gltf(reading=None, stage=None, t: float | None = None, *, shadows: bool = False,
               rite=None, chapter=None) -> tuple[dict[str, Any], bytes]:
    """The glTF document (without ``buffers[0].uri``) and its binary buffer.

    ``stage`` a section number or id and ``t`` seconds into it (default: the representative moment), or
    ``t`` alone seconds from the start of the rite; neither: the static scene only.  ``chapter``: its hall
    and rite (chapter 5's by default; a given ``rite``'s own)."""
    from ..chapter import resolve
    from ..geometry import readings as readings_mod
    from ..render import meshes as meshes_mod
    r = readings_mod.get(reading)
    ch = rite.chapter if rite is not None else resolve(chapter)
    static = meshes_mod.build_static(r) if ch == resolve(None) else meshes_mod.build_static(r, ch.id)
    lay = static.layout
    chi = r.chi_m
    layers: list[tuple[str, Any, float]] = [("static", static.main, static.scale),
                                            ("roof_south", static.roof_south, static.scale),
                                            ("roof_north", static.roof_north, static.scale)]
    extras_scene: dict[str, Any] = {"reading": reading_dict(r), "coordinates": COORDINATES, "axes": GLTF_AXES,
                                    "stage": None, "t": None}
    moving_info: dict[str, dict[str, Any]] = {}
    dyn = None
    if stage is not None or t is not None:
        from ..render import stills
        rite = rite or stills.load_rite(r, chapter=ch)
        st, t_abs = stills.stage_and_time(rite, stage, t)
        pose = rite.pose_at(t_abs)
        dyn = meshes_mod.build_dynamic(rite, pose)
        layers.append(("moving", dyn.main, 1.0))
        extras_scene.update(stage={"n": st.n, "id": st.id, "title": st.title, "phase": st.phase},
                            t=round(float(t_abs), 3), t_in_stage=round(float(t_abs - st.start_s), 3),
                            phrase=pose.phrase)
        info = rite.as_pose_dict(t_abs)
        for a in info["actors"]:
            moving_info[f"actor.{a['id']}"] = {"kind": "actor", "id": a["id"], "classical_name": a["name"],
                                               "role": a["role"], "xyz_m": a["xyz_m"],
                                               "heading_deg": a["heading_deg"], "posture": a["posture"],
                                               "holding": a["holding"]}
        for o in info["objects"]:
            pid = o["id"] if "." in o["id"] else f"object.{o['id']}"
            moving_info[pid] = {"kind": "object", "id": o["id"], "classical_name": o["name"], "xyz_m": o["xyz_m"],
                                "state": o["state"]}

    seen: dict[str, int] = {}
    for _, batch, _ in layers:
        for pid in set(batch.names):
            seen[pid] = seen.get(pid, 0) + 1

    buf = _Buffer()
    nodes: list[dict[str, Any]] = []
    meshes: list[dict[str, Any]] = []
    roots: list[int] = []
    for layer, batch, scale in layers:
        children: list[int] = []
        for pid, pts, nrm, tris, rgb in _parts(batch, scale):
            place_id = owner(pid, lay.places)
            extras: dict[str, Any] = {"part": pid, "layer": layer}
            if place_id is not None:
                place = lay.places[place_id]
                origin = np.asarray(place.xyz_chi, dtype=np.float64) * chi
                extras.update(_place_extras(place, chi))
            else:
                origin = pts.mean(axis=0)
                mid = owner(pid, moving_info) if layer == "moving" else None
                if mid is not None:
                    extras.update(moving_info[mid])
            name = pid if seen[pid] == 1 else f"{pid}@{layer}"
            mesh = _mesh(buf, meshes, name, pts - origin, nrm, tris, rgb)
            nodes.append({"name": name, "mesh": mesh,
                          "translation": [float(v) for v in to_gltf_axes(origin)], "extras": extras})
            children.append(len(nodes) - 1)
        if children:
            nodes.append({"name": layer, "children": children, "extras": {"layer": layer}})
            roots.append(len(nodes) - 1)
    if shadows:
        children = []
        for name, batch, scale in (("shadows.static", static.shadows, static.scale),
                                   ("shadows.moving", dyn.shadows if dyn is not None else None, 1.0)):
            if batch is None or not len(batch):
                continue
            a = batch.arrays()
            pts = a["points"].astype(np.float64) * scale
            origin = pts.mean(axis=0)
            mesh = _mesh(buf, meshes, name, pts - origin, a["normals"], a["tris"], a["rgb"])
            nodes.append({"name": name, "mesh": mesh, "translation": [float(v) for v in to_gltf_axes(origin)],
                          "extras": {"layer": "shadows",
                                     "note": "planar shadows baked for the still renderer's sun"}})
            children.append(len(nodes) - 1)
        if children:
            nodes.append({"name": "shadows", "children": children, "extras": {"layer": "shadows"}})
            roots.append(len(nodes) - 1)

    data = buf.bytes()
    rite_title = rite.title if rite is not None else ch.title          # the static scene: its chapter's
    doc = {
        "asset": {"version": "2.0", "generator": GENERATOR},
        "scene": 0,
        "scenes": [{"name": f"{rite_title} — {r.name}" + (f" — §{extras_scene['stage']['n']} "
                                                    f"{extras_scene['stage']['title']}" if dyn is not None else ""),
                    "nodes": roots, "extras": extras_scene}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": [{"name": "vertex colour",
                       "pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0], "metallicFactor": 0.0,
                                                "roughnessFactor": 1.0},
                       "doubleSided": True}],
        "accessors": buf.accessors,
        "bufferViews": buf.views,
        "buffers": [{"byteLength": len(data)}],
    }
    return doc, data


def glb_bytes(doc: dict[str, Any], data: bytes) -> bytes:
    """A binary glTF: 12-byte header, the JSON chunk (space-padded), the BIN chunk (zero-padded)."""
    js = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    js += b" " * ((-len(js)) % 4)
    data += b"\0" * ((-len(data)) % 4)
    total = 12 + 8 + len(js) + 8 + len(data)
    return b"".join([struct.pack("<III", _GLB_MAGIC, 2, total), struct.pack("<II", len(js), _GLB_JSON), js,
                     struct.pack("<II", len(data), _GLB_BIN), data])


def gltf_bytes(doc: dict[str, Any], data: bytes) -> bytes:
    """A JSON glTF with the buffer embedded as a base64 data URI."""
    doc = dict(doc, buffers=[{"byteLength": len(data),
                              "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}])
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
