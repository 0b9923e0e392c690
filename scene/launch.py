"""The browser app's one launcher: the console script ``xiangsheli``, ``python -m scene app`` and the
checkout's ``python app.py`` all call :func:`main`, so the three take the same flags (``--port``, ``--host``,
``--reading``, ``--presenter-key`` … : ``xiangsheli --help``).  A wheel carries no ``app.py``; this module is
what it starts instead."""
from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Start the app with ``argv`` (default: the process's arguments); its exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        The app's flags (``--port 8081`` …); the process's own arguments when None.
    prog : str, optional
        The name the user started it by, which its usage and every error line begin with; when None, the
        name of what Python ran (``sys.argv[0]``: ``xiangsheli``, ``app.py``).
    """
    from .web.appargs import prog_of, set_prog
    set_prog(prog or prog_of(sys.argv[0]))
    from .render import glprobe
    glprobe.configure()
    glprobe.start()          # the OpenGL probe (a child process, ~1 s) first: it runs while trame imports
    from .web.app import main as app_main
    return app_main(list(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main(prog="python -m scene.launch"))
