"""The command line, ``python -m scene <command> …``: the last layer, over all the others.

Every failure the user can cause prints one line naming what was wrong and exits 2.
"""
from .main import main  # noqa: F401
