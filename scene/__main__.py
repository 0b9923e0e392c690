"""``python -m scene …``: the command line (:mod:`scene.cli`)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
