"""The flat names of the first version (``scene.timeline``, ``scene.layout`` …) as aliases of the
modules that now live in the layer packages, so scripts written against them keep working — until
:data:`REMOVED_IN`: each import of an old name warns (``DeprecationWarning``) with the new import to write.

An alias *is* the module (the same object in ``sys.modules``), not a copy: patching
``scene.stills.X`` patches ``scene.render.stills.X``.  Nothing is imported until asked for,
so ``import scene.layout`` still loads no renderer.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

#: the version that drops the old names (the warning says so, so that a script's author can plan)
REMOVED_IN = "0.3"

#: old flat name → the module it now is
ALIASES: dict[str, str] = {
    "texts": "scene.text",
    "units": "scene.geometry.units",
    "readings": "scene.geometry.readings",
    "hall": "scene.geometry.hall",
    "places": "scene.geometry.places",
    "layout": "scene.geometry.layout",
    "choreography": "scene.rite.choreography",
    "routes": "scene.rite.routes",
    "shooting": "scene.rite.shooting",
    "director": "scene.rite.director",
    "timeline": "scene.rite.timeline",
    "audit": "scene.rite.audit",
    "shapes": "scene.render.shapes",
    "palette": "scene.render.palette",
    "figures": "scene.render.figures",
    "meshes": "scene.render.meshes",
    "views": "scene.render.views",
    "labels": "scene.render.labels",
    "stills": "scene.render.stills",
    "glprobe": "scene.render.glprobe",
    "webpack": "scene.web.pack",
    "export": "scene.web.export",
    "webapp": "scene.web.app",
    "ui": "scene.web.ui",
    "wsviewer": "scene.web.wsviewer",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        pkg, _, name = fullname.rpartition(".")
        if pkg != "scene" or name not in ALIASES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = ALIASES[spec.name.rpartition(".")[2]]
        # stacklevel 2: the import machinery's own frames are skipped, so the warning names the script's line
        warnings.warn(f"{spec.name} is deprecated and goes in xiangsheli-scene {REMOVED_IN}: "
                      f"import {new} instead", DeprecationWarning, stacklevel=2)
        real = importlib.import_module(new)
        self._specs[real.__name__] = real.__spec__
        return real

    def exec_module(self, module: types.ModuleType) -> None:
        # the import machinery has stamped the alias's spec on the real module: give it its own back
        module.__spec__ = self._specs.pop(module.__name__, module.__spec__)


def install() -> None:
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
