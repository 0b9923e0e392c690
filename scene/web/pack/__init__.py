"""The scene pack (``xiangsheli-pack/1``): what the browser player needs, in two files.

``scene.json`` (the manifest) and ``scene.bin`` (one little-endian buffer the
manifest's accessors point into); the format is ``assets/web/PACK.md``.  Every
triangle comes from :mod:`scene.render.meshes` / :mod:`scene.render.figures` — the static
layers as they are, the figures per posture in their own frame, every movable
object as a set of *variants* in its own frame — and every track from the
compiled :class:`~scene.timeline.Rite`, so the player only places, shows and
hides.  Colours are lit here (the still renderer's lights, baked per vertex; the static layers with
occlusion and the sun's shadows too, :mod:`scene.render.meshes.bake`).

Pure numpy: no VTK, no GL.  Modules: ``buffer`` (the binary buffer, tracks, baked light), ``cast``,
``objects``, ``texts`` (words, cameras, places), ``sounds`` (the cues the page sounds), ``font`` (the CJK subset), ``site`` (the static edition);
this one assembles, writes and caches the pack.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from .buffer import (
    Bin,
    batch_geometry,
    light,  # noqa: F401  (re-exported)
    rounded,
    times_f32,
)
from .cast import actor_tracks, held_steps
from .font import font_chars, write_font  # noqa: F401  (re-exported)
from .objects import hou_rope_variants, object_tracks
from .texts import (  # noqa: F401
    VIEW_ORDER,
    camera_block,
    dim_rows,
    place_label_rows,
    place_rows,
    reading_block,
    stage_rows,
    step_rows,
    text_block,
)

FORMAT = "xiangsheli-pack/1"




def _bounds(static, lay) -> list[float]:
    x0, x1, y0, y1 = static.bounds_m
    chi = lay.reading.chi_m
    z1 = (lay.hall.z_dong + 4.0) * chi
    return [rounded(x0, 3), rounded(x1, 3), rounded(y0, 3), rounded(y1, 3), 0.0, rounded(z1, 3)]


def build_pack(reading=None, seed: int | None = None, *, rite=None, director=None, chapter=None
               ) -> tuple[dict[str, Any], bytes]:
    """The manifest and the binary buffer of the pack for a reading of a chapter's rite (deterministic;
    ``chapter``: a :class:`~scene.chapter.Chapter` or its id, chapter 5 by default, or the given rite's).

    ``director(rite)``, when given, starts the director's track elsewhere (another process: it is most of
    the pack's work) and returns a function that waits for it; the pack is the same either way."""
    from ... import progress
    from ...geometry import readings
    with progress.phase(f"the scene pack ({readings.get(reading).name}): meshes, the light bake, the tracks"):
        return _build_pack(reading, seed, rite=rite, director=director, chapter=chapter)


def _build_pack(reading, seed: int | None, *, rite, director, chapter=None) -> tuple[dict[str, Any], bytes]:
    from ...chapter import resolve
    from ...geometry import readings
    from ...render import meshes
    from ...rite.cache import load_rite
    r = readings.get(reading)
    rite = rite if rite is not None else load_rite(r, seed, chapter)
    ch = rite.choreography.chapter
    track = director(rite) if director is not None else None
    lay = rite.layout
    static = meshes.static_of(rite)                 # the hall of the rite's own chapter
    bn = Bin()
    # the static layers with occlusion and the sun's shadows baked in (meshes.bake), as the stills draw them
    layers = {name: batch_geometry(bn, b, static.scale, baked=True) for name, b in static.baked().items()}
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "key": pack_key(r, seed, ch),
        "chapter": {"id": ch.id, "number": ch.number, "title": ch.title, "title_en": ch.title_en,
                    "default": ch == resolve(None)},
        "reading": reading_block(rite.reading),
        "duration_s": rounded(rite.duration, 3),
        "bounds_m": _bounds(static, lay),
        "layers": layers,
    }
    held = {oid: held_steps(rite.director.objects[oid].events) for oid in rite.object_ids}
    manifest["hou_rope"] = hou_rope_variants(bn, rite)
    manifest["actors"] = actor_tracks(bn, rite, held)
    manifest["objects"] = object_tracks(bn, rite)
    manifest["stages"] = stage_rows(rite)
    sources: list[str] = []
    manifest["steps"] = step_rows(rite, sources)
    from ...rite.evidence import ASPECTS, STATUSES
    manifest["evidence"] = {"aspects": list(ASPECTS), "statuses": list(STATUSES), "sources": sources}
    manifest["texts"] = text_block(rite)
    manifest["views"] = camera_block(rite)
    manifest["places"] = place_rows(lay)
    manifest["place_labels"] = place_label_rows(lay)
    manifest["dims"] = dim_rows(lay)
    manifest["contact"] = meshes.contact.pack_block(lay)
    from ...render.palette import SUN_DIR
    manifest["sun"] = {"dir": [float(v) for v in SUN_DIR],
                       "lit_floors": [[rounded(v, 4) for v in r] for r in static.sunlit_floors()]}
    manifest["director"] = director_block(bn, rite, track() if track is not None else None)
    from ..lessons import lesson_block
    manifest["lessons"] = lesson_block(rite)
    from ..captions import seed_lines, step_notes
    manifest["captions"] = {"seed": seed_lines(rite), "notes": step_notes(rite)}
    from .sounds import sound_block
    manifest["sounds"] = sound_block(rite)
    return manifest, bn.bytes()


def director_block(bn: Bin, rite, tr=None) -> dict[str, Any]:
    """The director's camera (view ``auto``) as a track (``tr``, or made here): see ``scene.render.shots``
    and PACK.md."""
    from ...render import shots
    tr = tr if tr is not None else shots.track(rite)
    return {"title": shots.TITLE, "t": bn.add(times_f32(tr.t), "f32", 1),
            "v": bn.add(np.asarray(tr.v, np.float32), "f32", 7), "ease": bn.add(tr.ease.astype(np.uint8), "u8", 1)}


def pack_key(reading, seed, chapter=None) -> str:
    """Short hash of the reading, the seed, the chapter and the bytes of the code and data the pack comes
    from (chapter 5's key is what it was before chapters: its rite key and lessons as then)."""
    from ...chapter import resolve
    from ...rite.cache import rite_key
    ch = resolve(chapter)
    h = hashlib.sha256(rite_key(reading, seed, chapter=ch).encode())
    from ...rite.cache import source_files
    from ..lessons import lesson_bytes
    h.update(lesson_bytes(ch) if ch.lessons is not None else b"")
    for f in source_files(("render", "web")):
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:16]


def dumps(manifest: dict[str, Any]) -> bytes:
    return json.dumps(manifest, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def write_pack(out_dir, reading=None, seed: int | None = None, chapter=None) -> Path:
    """Write ``scene.json`` and ``scene.bin`` into ``out_dir``; returns the folder.  They are copies of the
    verified pack of the disk cache (:func:`pack_dir`: the shipped one for the default reading, else built
    once there), the very bytes the app serves — a site or a pack of the default reading costs no build."""
    out = Path(out_dir)
    src = pack_dir(reading, seed, chapter)
    out.mkdir(parents=True, exist_ok=True)
    from ...atomic import write_bytes
    for name in ("scene.bin", "scene.json"):
        write_bytes(out / name, (src / name).read_bytes())
    return out


def write_playable(out_dir, reading=None, seed: int | None = None, chapter=None) -> list[Path]:
    """A pack with its font beside it (``font/cjk*.otf``), as the standalone player page loads it;
    returns the files written."""
    out = write_pack(out_dir, reading, seed, chapter)
    fonts = write_font(out / "font" / "cjk.otf", (out / "scene.json").read_text(encoding="utf-8"))
    return [out / "scene.json", out / "scene.bin", *fonts]


def pack_dir(reading=None, seed: int | None = None, chapter=None) -> Path:
    """A ready, verified pack folder in the disk cache (built when missing or damaged): :mod:`.store`."""
    from .store import pack_dir as _pack_dir
    return _pack_dir(reading, seed, chapter=chapter)


from .site import SITE_FILES, write_site  # noqa: E402,F401  (re-exported)
