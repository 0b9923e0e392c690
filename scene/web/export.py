"""Open-data exports: the layout as JSON or CSV, the scene at a stage as glTF 2.0.

``python -m scene export --out PATH [--format json|csv|gltf] [--stage ID] [--t S] [--shadows] [--reading R]``
(the format defaults to the extension of PATH: .json, .csv, .glb or .gltf; --stage, --t and --shadows
apply to glTF only and are refused for JSON and CSV).

**JSON / CSV** — one row per place of :func:`scene.geometry.layout.build_layout`, with its provenance: ``id``,
``name`` (the classical term), ``x_m y_m z_m`` and ``x_chi y_chi z_chi``, ``size_ew_m size_ns_m
size_up_m`` (empty / null when the place has no size), ``facing``, ``heading_deg``, ``passage`` (the
sentence that places it), ``commentary``, ``arithmetic`` (the derivation the program ran) and ``status``
(stated / derived / assumed).  The JSON (:data:`FORMAT`) also carries the reading — every choice with its
value and its source — the units and the coordinate frame.  The CSV is a plain table (the reading in a
``reading`` column: the preset's name, or ``name: preset,key=value,…`` for a changed one), UTF-8 with a
byte-order mark so that Excel opens the Chinese correctly.

**glTF** — ``.glb`` (one binary file) or ``.gltf`` (JSON with the buffer embedded as a base64 data URI),
written by hand with numpy and json.  Without ``--stage`` (or ``--t``) the static scene only: the
ground, court, hall, both roof slopes, range and furniture of :func:`scene.render.meshes.build_static`; with it,
also everything that moves at that moment (:func:`scene.render.meshes.build_dynamic` of the pose at the stage's
representative moment, as ``still`` takes it).  Node tree: one group node per layer (``static``,
``roof_south``, ``roof_north``, ``moving``; ``shadows`` with ``--shadows``: the baked planar shadows of the
still renderer, one mesh per layer) whose children are one node per part.

* **Node names** are the meshes' part ids (``hall.west_steps.tread1``, ``target.centre``, ``actor.bin``,
  ``arrow.bin.3`` …).  A part id that occurs in two layers (``hall.rafters`` is in both roof slopes) is
  named ``id@layer`` in each.  ``extras.part`` always holds the bare id (three.js strips the dots from
  node names; it keeps the original in ``userData.name`` and the extras in ``userData``).
* **Provenance**: a part belongs to the layout place whose id is the longest dot-boundary prefix of its
  own (``hall.west_steps.tread1`` → ``hall.west_steps``); its ``extras`` hold ``place``, ``classical_name``,
  ``passage``, ``commentary``, ``arithmetic``, ``status`` and ``xyz_m``.  Actors and movable objects carry
  their ``classical_name``, role, posture, heading, holding or state from the pose.  (Not ``name``:
  three.js merges the extras into ``userData``, where ``name`` is the node's own name.)
* **Translation rule**: a part of a layout place is translated to *the place's position* and its vertices
  are stored relative to it, so a node's translation can be checked against the layout; any other part is
  translated to the centroid of its vertices.  Group nodes have no transform, so a part's translation is
  its position in the world.
* **Axes**: glTF is y-up; the conversion is applied to the data (every vertex, normal and translation),
  not as a root rotation: ``gltf (x, y, z) = (x, z, −y)`` of ours (x east, y north, z up, metres), i.e.
  glTF +x east, +y up, −z north.  ``extras.xyz_m`` stay in our z-up frame.
* **Colours**: ``COLOR_0`` is float VEC3, the palette's sRGB colours decoded to linear (as glTF wants);
  one material (white base colour, metallic 0, roughness 1, double-sided) multiplies them.  Colours are
  unlit (the renderer lights them with the normals).  POSITION has min/max, indices are UNSIGNED_INT,
  every accessor has its own bufferView at a 4-byte-aligned offset.

Pure numpy and the standard library: no VTK, no pyvista.  The glTF writer is :mod:`scene.web.gltf`.
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = "xiangsheli-layout/1"


FORMATS = ("json", "csv", "gltf", "steps")


GENERATOR = "xiangsheli-scene"


COORDINATES = "metres; x east, y north, z up; origin: the 堂's south edge (廉) at its centre"


#: the columns of a layout row (the CSV has ``reading`` first)
COLUMNS = ("id", "name", "x_m", "y_m", "z_m", "x_chi", "y_chi", "z_chi", "size_ew_m", "size_ns_m",
           "size_up_m", "facing", "heading_deg", "passage", "commentary", "arithmetic", "status")


_EXT_FORMAT = {".json": "json", ".csv": "csv", ".glb": "gltf", ".gltf": "gltf"}


class ExportError(ValueError):
    """A bad format, output name or option combination (one line)."""


@dataclass
class Written:
    """What an export wrote: the file, its format, its size and a one-line summary."""

    path: Path
    format: str
    bytes: int
    summary: str


def resolve_format(out: str | os.PathLike, fmt: str | None) -> str:
    """The format from ``--format`` or, when it is omitted, from the extension of ``--out``."""
    ext = Path(out).suffix.lower()
    implied = _EXT_FORMAT.get(ext)
    if fmt is None:
        if implied is None:
            raise ExportError(f"cannot tell the format from --out {str(out)!r}: name it .json, .csv, .glb or "
                              f".gltf, or give --format")
        return implied
    fmt = fmt.strip().lower()
    if fmt not in FORMATS:
        raise ExportError(f"unknown --format {fmt!r} (formats: {', '.join(FORMATS)})")
    if fmt == "gltf" and ext not in (".glb", ".gltf"):
        raise ExportError(f"--format gltf: --out {str(out)!r} must end in .glb (binary) or .gltf "
                          f"(JSON, buffer embedded)")
    if fmt == "steps":
        if ext != ".json":
            raise ExportError(f"--format steps: --out {str(out)!r} must end in .json")
        return fmt
    if implied is not None and implied != fmt:
        raise ExportError(f"--out {str(out)!r} is a .{ext[1:]} name but --format is {fmt}")
    return fmt


def _r(x: float, nd: int = 4) -> float:
    v = round(float(x), nd)
    return 0.0 if v == 0 else v          # no -0.0 in the files


def place_row(place, chi_m: float) -> dict[str, Any]:
    """One layout place as a row (:data:`COLUMNS`); None where the place has no size / facing."""
    x, y, z = place.xyz_chi
    size = place.size_chi
    return {
        "id": place.id, "name": place.name,
        "x_m": _r(x * chi_m), "y_m": _r(y * chi_m), "z_m": _r(z * chi_m),
        "x_chi": _r(x), "y_chi": _r(y), "z_chi": _r(z),
        "size_ew_m": None if size is None else _r(size[0] * chi_m),
        "size_ns_m": None if size is None else _r(size[1] * chi_m),
        "size_up_m": None if size is None else _r(size[2] * chi_m),
        "facing": place.facing, "heading_deg": place.heading_deg,
        "passage": place.source, "commentary": place.commentary, "arithmetic": place.derivation,
        "status": place.status,
    }


def reading_dict(reading) -> dict[str, Any]:
    from ..geometry.readings import to_query
    return {"name": reading.name, "title": reading.title, "query": to_query(reading),
            "choices": reading.choices()}


def reading_label(reading) -> str:
    """The preset's name, or the name and the choices that differ from the nearest preset
    (``xiang: xiang,bu_chi=8``): a changed preset keeps its name, so the name alone would mislead."""
    from ..geometry.readings import PRESETS, to_query
    return reading.name if PRESETS.get(reading.name) == reading else f"{reading.name}: {to_query(reading)}"


def layout_document(reading=None, chapter=None) -> dict[str, Any]:
    """The layout as the ``xiangsheli-layout/1`` JSON document (``chapter``: its hall; chapter 5's by default)."""
    from ..chapter import resolve
    from ..geometry.layout import build_layout
    ch = resolve(chapter)
    lay = build_layout(reading, chapter=ch)
    r = lay.reading
    return {
        "format": FORMAT,
        "generator": GENERATOR,
        "chapter": {"id": ch.id, "number": ch.number, "title": ch.title},
        "reading": reading_dict(r),
        "units": {"x_m": "metre", "x_chi": f"周尺 (尺) of this reading, {r.chi_m:g} m",
                  "chi_m": r.chi_m, "size": "metres east–west, north–south, up",
                  "heading_deg": "compass degrees of the facing (面): 0 = north, 90 = east"},
        "coordinates": COORDINATES,
        "status": {"stated": "a number or position the 經/記 gives outright",
                   "derived": "computed from stated rules", "assumed": "a modelling choice no ancient text fixes"},
        "hall": lay.as_dict()["hall"],
        "places": [place_row(p, r.chi_m) for p in lay.places.values()],
    }


def steps_document(reading=None, chapter=None) -> dict[str, Any]:
    """Every step of the compiled rite with where, facing, posture and the evidence of each aspect
    (:func:`scene.rite.evidence.step_table`; ``--format steps``)."""
    from ..rite.cache import load_rite
    from ..rite.evidence import ASPECTS, STATUSES, rite_evidence, step_table, summary
    rite = load_rite(reading, chapter=chapter)
    ch = rite.chapter
    return {"format": "xiangsheli-steps/1", "generator": GENERATOR,
            "chapter": {"id": ch.id, "number": ch.number, "title": ch.title}, "reading": reading_dict(rite.reading),
            "coordinates": COORDINATES, "aspects": list(ASPECTS), "statuses": list(STATUSES),
            "summary": summary(rite_evidence(rite)), "steps": step_table(rite)}


def layout_csv(reading=None, chapter=None) -> str:
    """The layout as CSV text (header and one row per place; the reading's name in column ``reading``)."""
    from ..geometry.readings import get as readings_get
    doc = layout_document(reading, chapter)
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(("reading",) + COLUMNS)
    label = reading_label(readings_get(reading))
    for row in doc["places"]:
        w.writerow([label] + ["" if row[c] is None else row[c] for c in COLUMNS])
    return buf.getvalue()


def _write(path: Path, raw: bytes) -> None:
    """Write through a temporary file so a failed export never leaves half a file."""
    try:
        from ..atomic import write_bytes
        write_bytes(path, raw)
    except OSError as exc:
        raise ExportError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def export(out: str | os.PathLike, fmt: str | None = None, reading=None, stage=None, t: float | None = None,
           *, shadows: bool = False, chapter=None) -> Written:
    """Write one export of a chapter (chapter 5 by default); options are checked first (one-line
    :class:`ExportError`)."""
    from ..geometry import readings as readings_mod
    path = Path(out)
    fmt = resolve_format(path, fmt)
    if fmt != "gltf":
        given = [n for n, v in (("--stage", stage), ("--t", t), ("--shadows", shadows or None)) if v is not None]
        if given:
            raise ExportError(f"{', '.join(given)} applies to --format gltf only")
    r = readings_mod.get(reading)
    if fmt in ("json", "steps"):
        doc = layout_document(r, chapter) if fmt == "json" else steps_document(r, chapter)
        raw = (json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8")
        _write(path, raw)
        what = (f"layout JSON, {len(doc['places'])} places" if fmt == "json" else
                f"steps JSON with evidence, {len(doc['steps'])} steps")
        return Written(path, fmt, len(raw), f"{path}: {what}, reading {reading_label(r)}, {len(raw):,} bytes")
    if fmt == "csv":
        text = layout_csv(r, chapter)
        # UTF-8 with a byte-order mark: without it Excel reads the file as the local code page and
        # garbles the Chinese; the csv module and every other reader skip it with encoding="utf-8-sig"
        raw = text.encode("utf-8-sig")
        rows = sum(1 for _ in csv.reader(io.StringIO(text, newline=""))) - 1
        _write(path, raw)
        return Written(path, fmt, len(raw), f"{path}: layout CSV (UTF-8 with BOM), {rows} places, "
                                            f"reading {reading_label(r)}, {len(raw):,} bytes")
    doc, data = build_gltf(r, stage, t, shadows=shadows, chapter=chapter)
    binary = path.suffix.lower() == ".glb"
    raw = glb_bytes(doc, data) if binary else gltf_bytes(doc, data)
    _write(path, raw)
    parts = [n for n in doc["nodes"] if "mesh" in n]
    placed = sum(1 for n in parts if "place" in n["extras"])
    tris = sum(doc["accessors"][m["primitives"][0]["indices"]]["count"] // 3 for m in doc["meshes"])
    ex = doc["scenes"][0]["extras"]
    when = (f"§{ex['stage']['n']} {ex['stage']['title']} at t = {ex['t']:.1f} s" if ex["stage"] else
            "static scene only")
    return Written(path, fmt, len(raw),
                   f"{path}: glTF {'binary' if binary else 'JSON, buffer embedded'}, {when}, {len(parts)} part "
                   f"nodes ({placed} at layout places), {tris:,} triangles, reading {reading_label(r)}, "
                   f"{len(raw):,} bytes")


from .gltf import GLTF_AXES, build_gltf, glb_bytes, gltf_bytes  # noqa: E402,F401  (re-exported)
