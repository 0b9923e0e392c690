"""Where the project's own files are: the checkout's root, ``assets/``, ``seeds/`` (below every layer), and
the cache folder."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
SEEDS = ROOT / "seeds"
WEB_ASSETS = ASSETS / "web"
PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path:
    """The cache folder: ``XIANGSHELI_CACHE``, else ``$XDG_CACHE_HOME/xiangsheli-scene`` (``~/.cache``)."""
    base = os.environ.get("XIANGSHELI_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xiangsheli-scene")
    return Path(base)
