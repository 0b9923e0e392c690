"""The app's command line and its presenter key, checked (issue 26): one line for each bad input.

argparse answers ``--port abc`` with its usage (ten lines); trame's parser is wrapped so any error is one
line. ``--host ''`` would listen on every interface (the README promises loopback unless told): refused, as
are a port or a timeout that are not whole numbers in range and a presenter key shorter than
:data:`MIN_KEY` characters. Wrong presenter keys are counted per address (:class:`KeyGuesses`).
"""
from __future__ import annotations

import sys
import time

from .quietlog import clean, note

#: the shortest presenter key (a guess a second for a year does not find 12 random url-safe characters)
MIN_KEY = 12
#: wrong presenter keys an address may give in WINDOW seconds; then it waits
GUESSES = 5
WINDOW = 60.0


class ArgError(ValueError):
    """A bad command-line value (one line)."""


#: the name the user started the app by (``xiangsheli``, ``app.py``, ``python -m scene app`` …): the app's error
#: lines begin with it (:func:`set_prog`, from :func:`scene.launch.main`)
_PROG = ["app.py"]


def prog_of(argv0: str) -> str:
    """The program a user ran, from ``sys.argv[0]``: the console script's or the file's name (``xiangsheli``,
    ``app.py``); ``python -m …`` when Python ran a package's module by path (its ``__main__.py``)."""
    import os
    name = os.path.basename(argv0 or "") or "xiangsheli"
    return "python -m scene" if name == "__main__.py" else name


def set_prog(name: str) -> None:
    _PROG[0] = name


def prog() -> str:
    """The name the app's error lines begin with (see :func:`set_prog`)."""
    return _PROG[0]


def error_line(message: str) -> str:
    """``PROG: error: message`` (the one line every refusal of the app prints)."""
    return f"{prog()}: error: {message}"


def one_line_errors(parser) -> None:
    """argparse's errors as one line and exit 2 (not the usage block)."""
    def error(message: str):
        print(error_line(f"{clean(message, 200)} ({prog()} --help lists the options)"),
              file=sys.stderr, flush=True)
        sys.exit(2)
    parser.error = error


def _whole(opt: str, value, lo: int, hi: int) -> int:
    try:
        text = str(value).strip()
        if len(text) > 12:
            raise ValueError
        n = int(text)
    except ValueError:
        raise ArgError(f"{opt} {clean(value, 40)!r}: not a whole number") from None
    if not lo <= n <= hi:
        raise ArgError(f"{opt} {n}: outside {lo}–{hi}")
    return n


def check_args(args) -> int:
    """The port, after every check of the app's own options."""
    host = args.host
    if not isinstance(host, str) or not host.strip():
        raise ArgError("--host '': give an address (127.0.0.1: this machine only; 0.0.0.0: every interface)")
    if len(host) > 253 or not host.isprintable() or any(c.isspace() for c in host):
        raise ArgError(f"--host {clean(host, 60)!r}: not an address or a host name")
    port = _whole("--port", args.port, 0, 65535)
    _whole("--timeout", getattr(args, "timeout", 0), 0, 10 ** 7)
    key = args.presenter_key = presenter_key(args)
    if key is not None and not (MIN_KEY <= len(key) <= 100 and key.isprintable() and not any(c.isspace() for c in key)):
        raise ArgError(f"--presenter-key: {MIN_KEY} to 100 printable characters without spaces "
                       "(leave it out for a fresh one)")
    return port


#: the environment variable that may hold the presenter key (not in the process list, unlike an option)
KEY_ENV = "XSL_PRESENTER_KEY"
#: the largest presenter key file read
MAX_KEY_FILE = 4096


def presenter_key(args) -> str | None:
    """The presenter key: ``--presenter-key``, else ``--presenter-key-file`` (a regular file of at most
    :data:`MAX_KEY_FILE` bytes: its first line), else the environment's :data:`KEY_ENV`, else None (a fresh one)."""
    import os
    import stat
    if args.presenter_key is not None:
        return args.presenter_key
    path = getattr(args, "presenter_key_file", None)
    if path is not None:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))     # a FIFO must not block us
        except OSError as exc:
            raise ArgError(f"--presenter-key-file {clean(path, 60)!r}: {exc.strerror}") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_KEY_FILE:
                raise ArgError(f"--presenter-key-file {clean(path, 60)!r}: not a regular file of at most "
                               f"{MAX_KEY_FILE} bytes")
            text = os.read(fd, MAX_KEY_FILE + 1).decode("utf-8", "replace")
        finally:
            os.close(fd)
        lines = text.splitlines()
        return lines[0].strip() if lines else ""
    env = os.environ.get(KEY_ENV)
    return env.strip() if env is not None else None


class KeyGuesses:
    """Wrong presenter keys per address: after GUESSES in WINDOW s, that address's keys are not even
    compared until the window passes; every wrong key is logged (rate-limited, one line)."""

    def __init__(self) -> None:
        self.wrong: dict[str, list[float]] = {}

    def locked(self, address: str) -> bool:
        now = time.monotonic()
        times = [t for t in self.wrong.get(address, ()) if now - t < WINDOW]
        if times:
            self.wrong[address] = times
        else:
            self.wrong.pop(address, None)
        return len(times) >= GUESSES

    def failed(self, address: str) -> None:
        if len(self.wrong) > 4096:
            self.wrong.clear()
        self.wrong.setdefault(address, []).append(time.monotonic())
        note("presenter-key", "a wrong presenter key from %s (%d in the last minute)", address,
             len(self.wrong[address]))
