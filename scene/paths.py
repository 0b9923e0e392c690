"""Where the project's own files are: ``assets/`` and ``seeds/`` (below every layer), and the cache folder.

In the checkout the two folders stay at its top (the design card); the build maps them into the package
(``pyproject.toml``: ``package-dir``), so an installed wheel carries them as ``scene/assets`` and
``scene/seeds``.  Both are found here through :mod:`importlib.resources`: the package's own copy when it has
one (a wheel), else the checkout's folder beside the package (``PYTHONPATH`` on a checkout, or
``pip install -e .``).  The checkout is asked second, and only when the package holds no copy, so that a
checkout on ``PYTHONPATH`` reads its own files and never those of another tree's editable install.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _data_folder(name: str) -> Path:
    """``scene/<name>`` as the package ships it (a wheel), else ``<checkout>/<name>``; a one-line error if
    neither is there (a package built without its data)."""
    shipped = resources.files(__package__ or "scene") / name
    if shipped.is_dir():
        return Path(str(shipped))
    beside = PACKAGE.parent / name
    if beside.is_dir():
        return beside
    try:                                    # an editable install whose finder maps scene.<name> elsewhere
        mapped = resources.files(f"scene.{name}")
        if mapped.is_dir():
            return Path(str(mapped))
    except (ModuleNotFoundError, TypeError, NotADirectoryError):
        pass
    raise FileNotFoundError(f"the package's {name}/ folder is missing (looked in {shipped} and {beside}): "
                            f"reinstall xiangsheli-scene")


ASSETS = _data_folder("assets")
SEEDS = _data_folder("seeds")
WEB_ASSETS = ASSETS / "web"
LESSONS = ASSETS / "lessons"
#: the checkout's root when running from one (the folder holding assets/), else the package's folder
ROOT = ASSETS.parent


def source_name(f: Path) -> str:
    """The name a hash of sources gives ``f``: ``assets/…``, ``seeds/…`` or ``scene/…`` — the same in a checkout
    (where assets/ sits beside the package) and in a wheel (where it is scene/assets/), so a key made from a
    checkout's files is the key of a wheel's."""
    for root, name in ((ASSETS, "assets"), (SEEDS, "seeds"), (PACKAGE, "scene")):   # the data first: inside scene/ in a wheel
        if f.is_relative_to(root):
            return f"{name}/{f.relative_to(root).as_posix()}"
    return f.name


def cache_dir() -> Path:
    """The cache folder (compiled rites, scene packs, font subsets).

    Returns
    -------
    pathlib.Path
        ``XIANGSHELI_CACHE`` when set, else the platform's user cache folder for ``xiangsheli-scene``
        (:func:`scene.settings.cache_dir`).
    """
    from .settings import cache_dir as _cache_dir
    return _cache_dir()
