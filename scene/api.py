"""The scene for those who script it: one moment of the rite as a pyvista ``MultiBlock``, and a plotter for a
notebook (the extra ``[pyvista]``: ``pip install 'xiangsheli-scene[pyvista]'``).

    import scene
    mb = scene.to_pyvista(stage=21)                  # §21 三耦射, at its representative moment
    mb["static"]["hall.west_steps"]                  # one part of the set (a PolyData, metres)
    mb["dynamic"]["actor.bin"]                       # the 賓, as posed then
    mb.field_data["layout"][0]                       # the layout's provenance (JSON: every place's source)
    scene.plotter(stage=21).show()                   # in Jupyter: jupyter_backend="trame" where installed

The meshes are the program's own (:mod:`scene.render.meshes`: ``build_static``, ``build_dynamic``, wrapped by
:func:`scene.render.meshes.vtk.to_vtk`): this module only cuts them by part and labels them.  Units are
metres, +x east, +y north, +z up, as in the stills and the web pack.
"""
from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from .extras import need

#: the static set's layers as blocks (shadows are left out unless asked: they are a rendering aid)
STATIC_LAYERS = ("main", "roof_south", "roof_north")


def _pv():
    import os
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        from .render import glprobe  # no display (a server, CI, a remote kernel): EGL, off-screen
        glprobe.configure()
    return need("pyvista", "pyvista", "scene.to_pyvista")


def _moment(rite, t, stage):
    """(stage, absolute t) as the ``still`` command reads --stage / --t: t from the stage's start, or from the
    rite's start without a stage; neither: the rite's first moment."""
    from .render.stills import stage_and_time
    if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t)):
        raise ValueError(f"t = {t!r}: seconds, a finite number")
    if stage is None and t is None:
        t = 0.0
    return stage_and_time(rite, stage, None if t is None else float(t))


def _parts(batch, scale: float) -> dict[str, Any]:
    """The batch cut into one vtkPolyData per part id (each through ``to_vtk``, so with the same arrays)."""
    from .render.meshes.vtk import to_vtk
    from .render.shapes import Batch
    a = batch.arrays()
    out: dict[str, Any] = {}
    if not len(a["tris"]):
        return out
    order = np.argsort(a["part"], kind="stable")
    part_sorted = a["part"][order]
    cuts = np.flatnonzero(np.diff(part_sorted)) + 1
    for cells in np.split(order, cuts):
        k = int(a["part"][cells[0]])
        tris = a["tris"][cells]
        used, local = np.unique(tris, return_inverse=True)
        one = Batch()
        one.add_arrays(batch.names[k], a["points"][used], a["normals"][used], local.reshape(-1, 3),
                       a["rgb"][used])
        out[batch.names[k]] = to_vtk(one, scale)
    return out


def _provenance(lay, pid: str) -> dict[str, str] | None:
    """The place a part draws, with its provenance: the part id itself, else its longest dotted prefix."""
    bits = pid.split(".")
    for n in range(len(bits), 0, -1):
        key = ".".join(bits[:n])
        if key in lay:
            p = lay[key]
            return {"place": p.id, "name": p.name, "source": p.source, "derivation": p.derivation,
                    "status": p.status}
    return None


def _add_field(block, key: str, value) -> None:
    """A field-data array; text as a vtkStringArray of UTF-8 (pyvista's own setter refuses non-ASCII: 經 §2 …)."""
    if not isinstance(value, str):
        block.field_data[key] = np.atleast_1d(value)
        return
    from vtkmodules.vtkCommonCore import vtkStringArray
    arr = vtkStringArray()
    arr.SetName(key)
    arr.InsertNextValue(value)
    block.GetFieldData().AddArray(arr)


def to_pyvista(t: float | None = None, stage: str | int | None = None, reading: str | None = "zheng", *,
               roof: bool = True, shadows: bool = False):
    """One moment of the rite as a ``pyvista.MultiBlock``, cut into one block per part.

    Parameters
    ----------
    t : float, optional
        Seconds: from the start of ``stage`` when one is given (default: the stage's representative moment, as
        ``python -m scene still`` picks it), else from the rite's start (default 0).
    stage : int or str, optional
        A section number (1–51, or ``"§21"``) or a section id (``"sanou_she"``).
    reading : str, optional
        A preset (``"zheng"``, ``"wu1991"`` …), a reading TOML file, or ``preset,key=value,…``; default
        ``"zheng"``.
    roof : bool, default True
        False leaves out both slopes of the roof (to look into the 堂 from above).
    shadows : bool, default False
        Add the planar shadows, one block ``shadows`` in each set.

    Returns
    -------
    pyvista.MultiBlock
        Two blocks, ``"static"`` (the set: court, 堂, roof, range, furniture) and ``"dynamic"`` (the cast and
        every object in view), each a MultiBlock of PolyData named by part id (``hall.west_steps``,
        ``actor.bin``, ``object.jue``, ``arrow.bin.3`` …), in metres, +x east, +y north, +z up.  Field data on
        the whole: ``reading``, ``stage`` (§n and id), ``t`` (s), ``court_bounds_m`` (x0 x1 y0 y1) and
        ``layout`` (every place's source, derivation and status, as JSON); on each part drawn from a place of
        the layout: its ``place``, ``name``, ``source``, ``derivation`` and ``status``.  Every part keeps the
        cell arrays ``part`` and ``part_ids`` as the meshes have them.

    Raises
    ------
    ValueError
        ``t`` is not a finite number, or the stage is not one of the rite's.

    Examples
    --------
    >>> import scene
    >>> mb = scene.to_pyvista(stage=21)                # doctest: +SKIP
    >>> mb["dynamic"]["actor.bin"].n_points > 0        # doctest: +SKIP
    True
    """
    pv = _pv()
    from .render.meshes import build_dynamic, build_static
    from .render.shapes import Batch
    from .rite.cache import load_rite
    rite = load_rite(reading)
    st, tt = _moment(rite, t, stage)
    static = build_static(reading)
    lay = static.layout

    def blocks(parts: dict[str, Any]):
        mb = pv.MultiBlock()
        for pid, poly in parts.items():
            block = pv.wrap(poly)
            for k, v in (_provenance(lay, pid) or {}).items():
                _add_field(block, k, v)
            mb[pid] = block
        return mb

    whole = Batch()                     # the layers as one batch: a part in both slopes (the tiles) is one block
    for name in STATIC_LAYERS:
        if roof or not name.startswith("roof"):
            whole.extend(getattr(static, name))
    set_mb = blocks(_parts(whole, static.scale))
    if shadows:
        set_mb["shadows"] = pv.wrap(_whole(static.shadows, static.scale))

    pose = rite.pose_at(tt)
    dyn = build_dynamic(rite, pose)
    cast_mb = blocks(_parts(dyn.main, 1.0))
    if shadows:
        cast_mb["shadows"] = pv.wrap(_whole(dyn.shadows, 1.0))

    out = pv.MultiBlock()
    out["static"] = set_mb
    out["dynamic"] = cast_mb
    _add_field(out, "reading", lay.reading.name)
    _add_field(out, "stage", f"§{st.n} {st.id}")
    _add_field(out, "t", float(pose.t))
    _add_field(out, "court_bounds_m", np.asarray(static.bounds_m, dtype=float))     # x0 x1 y0 y1 of the court
    _add_field(out, "layout", json.dumps(lay.as_dict(), ensure_ascii=False, allow_nan=False))
    return out


def _whole(batch, scale: float):
    from .render.meshes.vtk import to_vtk
    return to_vtk(batch, scale)


def plotter(t: float | None = None, stage: str | int | None = None, reading: str | None = "zheng", *,
            roof: bool = True, notebook: bool | None = None, **plotter_kw):
    """A ``pyvista.Plotter`` showing :func:`to_pyvista` in the cast's colours, the camera over the court.

    Parameters
    ----------
    t, stage, reading, roof
        As :func:`to_pyvista`.
    notebook : bool, optional
        Plot in a Jupyter notebook; None (the default) detects one.  In a notebook the jupyter backend is
        ``trame`` when pyvista's trame support is installed (the extra ``[notebook]``), else pyvista's default.
    **plotter_kw
        Passed to ``pyvista.Plotter`` (``off_screen``, ``window_size`` …).

    Returns
    -------
    pyvista.Plotter
        Call ``.show()`` on it, or ``.screenshot(path)`` off-screen.
    """
    pv = _pv()
    mb = to_pyvista(t, stage, reading, roof=roof)
    if notebook is None:
        notebook = _in_notebook()
    if notebook:
        try:
            import trame_vtk  # noqa: F401  (pyvista's trame backend needs it)
            pv.set_jupyter_backend("trame")
        except ImportError:
            pass
    p = pv.Plotter(notebook=notebook, **plotter_kw)
    for group in ("static", "dynamic"):
        for name in mb[group].keys():
            block = mb[group][name]
            if block.n_cells:
                p.add_mesh(block, scalars="rgb", rgb=True)
    p.set_background("#f4efe4")
    # framed on the court (the ground plane runs far beyond it), from above the south-east as the overview
    x0, x1, y0, y1 = (float(v) for v in mb.field_data["court_bounds_m"])
    p.camera_position = "iso"
    p.reset_camera(bounds=(x0, x1, y0, y1, 0.0, 8.0))
    return p


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"
