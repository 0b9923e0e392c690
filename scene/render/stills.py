"""Still export: one off-screen render window, the scene, labels, a caption band; stills, a contact sheet, clips.

:class:`Studio` owns one off-screen VTK render window for a batch (vtkmodules; pyvista is not used).  The static
scene of the reading is added once (merged into a few polydata by layer); per
still only the dynamic polydata, the camera, the labels and the caption change.
The picture is the 3D viewport over a caption band: the stage's number and
title, the 經 phrase being animated, the reading, and a scale bar in 尺 and
metres (exact in the plan; at the focal point in a perspective view).

Modules: ``studio`` (the render window and the picture), ``annotate`` (what is labelled), ``contact`` (the
contact sheet), ``clip`` (clips); this one writes stills and batches of them.  The compiled rite comes
from :func:`scene.rite.cache.load_rite`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ..rite.cache import load_rite  # noqa: F401  (re-exported: stills.load_rite)
from ..rite.moments import StageError, find_stage, representative_t  # noqa: F401  (re-exported)
from . import glprobe
from .annotate import PLACE_LABELS, place_labels  # noqa: F401  (re-exported)
from .clip import export_clip  # noqa: F401  (re-exported)
from .contact import write_index
from .studio import MAX_SIZE, MIN_SIZE, Still, StillError, Studio, parse_size  # noqa: F401  (re-exported)


def save_png(img: np.ndarray, path: str | Path) -> None:
    from PIL import Image

    from ..atomic import replacing
    with replacing(path) as tmp:                # the one safe writer: no link written through, no FIFO
        Image.fromarray(img).save(tmp, format="PNG", compress_level=1)   # speed over a few % of size


def export_still(out: str | Path, stage: str | int | None = None, t: float | None = None, view: str = "overview",
                 size: tuple[int, int] = (1920, 1080), reading=None, labels: bool = True,
                 caption: bool = True, roof: str = "cutaway", camera=None, chapter=None) -> Still:
    """``python -m scene still``: one stage (or an absolute time) to a PNG (from ``camera`` if given);
    ``chapter``: another chapter's rite than chapter 5's."""
    from . import views
    views.parse(view)
    glprobe.configure()
    glprobe.start()
    rite = load_rite(reading, chapter=chapter)
    st, tt = stage_and_time(rite, stage, t)
    studio = Studio(reading, size, roof=roof, rite=rite)
    try:
        still = studio.render(tt, view, labels=labels, caption=caption, stage=st, camera=camera)
    finally:
        studio.close()
    save_png(still.image, out)
    return still


def stage_and_time(rite, stage, t):
    if stage is None:
        if t is None:
            raise StillError("give --stage, or --t (seconds from the start of the rite)")
        if not 0 <= t <= rite.duration:
            raise StillError(f"--t {t:g} is outside the rite (0 to {rite.duration:.1f} s)")
        return rite.stage_at(t), t
    st = find_stage(rite, stage)
    if t is None:
        return st, representative_t(rite, st)
    length = st.end_s - st.start_s
    if not 0 <= t <= length:
        raise StillError(f"--t {t:g} is outside §{st.n} (0 to {length:.1f} s from its start)")
    return st, st.start_s + t


def file_name(stage, view: str | None = None) -> str:
    title = re.sub(r"[\\/:*?\"<>|\s]+", "_", stage.title)
    return f"{stage.n:02d}_{title}" + (f".{view.replace(':', '-')}" if view else "") + ".png"


def export_stills(out_dir: str | Path, views_: Sequence[str] = ("overview",), size: tuple[int, int] = (1920, 1080),
                  reading=None, stages: Iterable | None = None, labels: bool = True, caption: bool = True,
                  roof: str = "cutaway", progress=None, chapter=None) -> list[tuple[object, str, Path, Still]]:
    """``python -m scene stills``: every stage in every view, one plotter, and ``index.html`` (``chapter``:
    another chapter's rite than chapter 5's)."""
    from . import views
    for v in views_:
        views.parse(v)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    studio = Studio(reading, size, roof=roof, rite=None if chapter is None else load_rite(reading, chapter=chapter))
    rite = studio.rite
    chosen = list(rite.stages) if stages is None else [find_stage(rite, s) for s in stages]
    done = []
    from .. import progress as shown
    try:
        with shown.phase("stills", total=len(chosen) * len(views_)) as ph:
            for st in chosen:
                t = representative_t(rite, st)
                for v in views_:
                    still = studio.render(t, v, labels=labels, caption=caption, stage=st)
                    f = out_dir / file_name(st, v if len(views_) > 1 else None)
                    save_png(still.image, f)
                    done.append((st, v, f, still))
                    ph.advance()
                    if progress:
                        progress(st, v, f)
    finally:
        studio.close()
    write_index(out_dir, done, rite, views_)
    return done
