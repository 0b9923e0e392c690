"""鄉射禮 reconstruction, in the order the data flows:

``text`` (經, 記, 鄭注, the seed) → ``geometry`` (units, readings, the hall, every place) → ``rite``
(the choreography, routes, shooting, the director and its standard forms, the timeline, the audit)
→ ``render`` (triangles, figures, meshes, cameras, labels, stills) → ``web`` (the scene pack, open
data, the browser app) → ``print`` (role sheets, the call sheet, the book of plans, as PDF or HTML);
``cli`` is the command line over all of them.

A package imports only from packages before it; ``text``, ``geometry`` and ``rite`` are pure Python and
numpy (no pyvista, no VTK).  The first version's flat module names (``scene.timeline``,
``scene.layout`` …) stay importable as aliases (:mod:`scene._aliases`).

For scripts and notebooks (the extra ``[pyvista]``): :func:`scene.to_pyvista` (one moment of the rite as a
``pyvista.MultiBlock``, blocks named by part and actor id) and :func:`scene.plotter` (:mod:`scene.api`).
"""
from ._aliases import install as _install

_install()


__all__ = ["to_pyvista", "plotter"]


def __getattr__(name: str):
    # the scripting API is loaded when first asked for: ``import scene`` stays as light as the command line needs
    if name in __all__:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'scene' has no attribute {name!r}")
