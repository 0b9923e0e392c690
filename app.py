"""鄉射禮 — the browser app from a checkout: ``python app.py`` serves it on http://127.0.0.1:8080/.

The same as the installed console script ``xiangsheli`` and ``python -m scene app`` (:mod:`scene.launch`):
``--help`` lists the flags."""
import sys

from scene.launch import main

if __name__ == "__main__":
    sys.exit(main())
