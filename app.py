"""鄉射禮 — the browser app. ``python app.py`` serves it on http://127.0.0.1:8080/ (trame: --host,
--port, --server, --timeout; ``--reading`` the reading new tabs open with)."""
import sys

from scene.web.app import main

if __name__ == "__main__":
    sys.exit(main())
