"""The text's standard forms (the 經 writes them once and says 如之 / 如初 after), one module each.

A form is a module here whose name is its verb in the rite data (``do = "approach"``) and which
defines ``run(acts, step, t0) -> end time``; ``acts`` (:class:`.base.Acts`) is all it may touch.
To add one: write ``forms/<verb>.py``, add the verb to ``choreography.VERBS`` (the data's vocabulary),
and document it in ``assets/rite/README.md``.  The director finds it here by name.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from .. import choreography as chor
from .base import Acts

#: a form's ``run(acts, step, t0) -> end time``
Form = Callable[[Acts, chor.Step, float], float]

__all__ = ["Acts", "FORMS"]


def _discover() -> dict[str, Form]:
    out: dict[str, Form] = {}
    for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if m.name.startswith("_") or m.name == "base":
            continue
        mod = importlib.import_module(f"{__name__}.{m.name}")
        if hasattr(mod, "run"):             # (pair.py and the like are what forms share, not forms)
            out[m.name] = mod.run
    return out


#: verb → the form's ``run``
FORMS: dict[str, Form] = _discover()
