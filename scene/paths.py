"""Where the project's own files are: the checkout's root, ``assets/``, ``seeds/`` (below every layer)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
SEEDS = ROOT / "seeds"
WEB_ASSETS = ASSETS / "web"
PACKAGE = Path(__file__).resolve().parent
