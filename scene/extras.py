"""The optional parts of the package (``pyproject.toml``: ``[project.optional-dependencies]``): what a
feature needs that the core install leaves out, and the one line that says which extra brings it."""
from __future__ import annotations

import importlib
from types import ModuleType

DIST = "xiangsheli-scene"


class MissingExtra(ValueError):
    """A feature whose extra is not installed (a ValueError: the command line prints it as one line)."""


def need(module: str, extra: str, feature: str) -> ModuleType:
    """``import module``, or :class:`MissingExtra` naming the extra to install for ``feature``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(f"{feature} needs the extra [{extra}]: pip install '{DIST}[{extra}]' "
                           f"({exc.name or module} is not installed)") from None
