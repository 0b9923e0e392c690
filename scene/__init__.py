"""鄉射禮 reconstruction, in the order the data flows:

``text`` (經, 記, 鄭注, the seed) → ``geometry`` (units, readings, the hall, every place) → ``rite``
(the choreography, routes, shooting, the director and its standard forms, the timeline, the audit)
→ ``render`` (triangles, figures, meshes, cameras, labels, stills) → ``web`` (the scene pack, open
data, the browser app) → ``print`` (role sheets, the call sheet, the book of plans, as PDF or HTML);
``cli`` is the command line over all of them.

A package imports only from packages before it; ``text``, ``geometry`` and ``rite`` are pure Python and
numpy (no pyvista, no VTK).  The first version's flat module names (``scene.timeline``,
``scene.layout`` …) stay importable as aliases (:mod:`scene._aliases`).
"""
from ._aliases import install as _install

_install()
