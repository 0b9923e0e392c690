"""鄉射禮 — the browser app. ``python app.py`` serves it on http://127.0.0.1:8080/ (trame: --host,
--port, --server, --timeout; ``--reading`` the reading new tabs open with; ``--presenter-key`` at least 12
characters; ``--allow-host NAME`` another host name the page may be asked for — addresses and this machine's
names need none; ``--host ''`` is refused: 0.0.0.0 listens on every interface)."""
import sys

from scene.render import glprobe

if __name__ == "__main__":
    glprobe.configure()
    glprobe.start()          # the OpenGL probe (a child process, ~1 s) first: it runs while the app imports
    from scene.web.app import main
    sys.exit(main())
