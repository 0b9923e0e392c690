"""Pictures of the model: numpy triangle primitives (``shapes``), the palette and the light rig
(``palette``), the posed figures (``figures``), the one place that builds meshes (``meshes``), named
cameras (``views``), CJK labels (``labels``), off-screen stills, contact sheets and clips (``stills``,
…) and the OpenGL probe (``glprobe``).

May import: ``scene.text``, ``scene.geometry``, ``scene.rite``, ``scene.paths``; VTK (vtkmodules) only in the
modules that draw (``shapes``, ``figures`` and ``meshes`` are numpy); pyvista only where asked for: ``meshes.vtk``'s
``to_polydata`` and ``labels.label_image`` (tests), for :mod:`scene.api` (the extra ``[pyvista]``).
"""
