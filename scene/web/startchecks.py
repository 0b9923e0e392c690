"""What stops the app before it starts, each in one line: a port that is taken or out of range, a machine
without OpenGL for the still exporter."""
from __future__ import annotations

import socket

from .guard import short as guard_short


class AppError(Exception):
    """Something that stops the app from starting (one line)."""


def check_port(host: str, port: int) -> None:
    """Fail with one line when the port is taken (before trame prints its banner)."""
    if port == 0:
        return
    if not 1 <= port <= 65535:
        raise AppError(f"--port {port}: a port is 1–65535")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as the server binds: a restart works
        try:
            s.bind((host, port))
        except (OSError, OverflowError) as exc:
            raise AppError(f"cannot listen on {guard_short(host, 60)}:{port}: {getattr(exc, 'strerror', None) or exc} "
                           f"(another server there? start with --port N)") from None


def check_gl() -> None:
    """The exporter renders with OpenGL: say so at start, in one line, if there is none."""
    from ..render import glprobe
    glprobe.configure()
    try:
        glprobe.start()
        glprobe.ensure()
    except glprobe.GLUnavailable as exc:
        raise AppError(f"no OpenGL for the still exporter: {exc}") from None
