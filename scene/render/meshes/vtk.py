"""Batches as VTK polydata (vtkmodules: the only module of the mesh package that imports VTK); ``to_polydata``
wraps one as pyvista's ``PolyData`` (the extra ``[pyvista]``: :mod:`scene.api`, tests)."""
from __future__ import annotations

import numpy as np

from ..shapes import Batch


def to_vtk(batch: Batch, scale: float = 1.0, normals: bool = True):
    """One vtkPolyData for a batch: point normals, point colours ``rgb``, cell ``part`` ids and the
    ids themselves in the field data ``part_ids`` (built straight from the arrays: no per-cell Python)."""
    from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
    from vtkmodules.vtkCommonCore import vtkPoints, vtkStringArray
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
    a = batch.arrays()
    poly = vtkPolyData()
    if not len(a["tris"]):
        return poly
    pts = vtkPoints()
    pts.SetData(numpy_to_vtk(np.ascontiguousarray(a["points"] * np.float32(scale), dtype=np.float32), deep=True))
    poly.SetPoints(pts)
    n = len(a["tris"])
    offsets = numpy_to_vtkIdTypeArray(np.arange(0, 3 * n + 1, 3, dtype=np.int64), deep=True)
    conn = numpy_to_vtkIdTypeArray(np.ascontiguousarray(a["tris"].ravel(), dtype=np.int64), deep=True)
    cells = vtkCellArray()
    cells.SetData(offsets, conn)
    poly.SetPolys(cells)
    if normals:               # (baked layers are drawn unlit: without them the mapper sends less per vertex)
        nrm = numpy_to_vtk(np.ascontiguousarray(a["normals"], dtype=np.float32), deep=True)
        nrm.SetName("Normals")
        poly.GetPointData().SetNormals(nrm)
    col = numpy_to_vtk(np.ascontiguousarray(a["rgb"], dtype=np.uint8), deep=True)
    col.SetName("rgb")
    poly.GetPointData().AddArray(col)
    part = numpy_to_vtk(np.ascontiguousarray(a["part"], dtype=np.int32), deep=True)
    part.SetName("part")
    poly.GetCellData().AddArray(part)
    names = vtkStringArray()
    names.SetName("part_ids")
    for nm in batch.names:
        names.InsertNextValue(nm)
    poly.GetFieldData().AddArray(names)
    return poly


def to_polydata(batch: Batch, scale: float = 1.0):
    """The same as a pyvista PolyData (for scripts and inspection; needs the extra ``[pyvista]``)."""
    import pyvista as pv
    return pv.wrap(to_vtk(batch, scale))
