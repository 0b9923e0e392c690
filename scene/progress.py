"""What long work is doing and how far (issue 44): a first ``still`` took 55 s and ``site`` 146 s without a word.

The work itself names its phases — ``with progress.phase("compiling the rite"):`` around a build, and
``progress.phase("review pages", total=51)`` whose ``advance()`` counts the items done — and says nothing by
default: a library call, a test, a server's worker process print nothing.  The command line turns the
reporting on (:func:`enable`) when it talks to a person: standard error is a terminal and ``--quiet`` was not
given (a pipe, a log file, CI: nothing is drawn).  It is drawn by ``rich`` on standard error, so what a command
prints on standard output is unchanged.

Only the process that enabled it draws: a forked worker (the pack's builds, the sheets' pool) inherits the
module's state but not the terminal's lines, which two processes drawing at once would garble.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_progress: Any = None          # a rich.progress.Progress while enabled
_pid: int | None = None        # the process that enabled it


class Phase:
    """One phase under way: :meth:`advance` counts what is done of its ``total``."""

    def __init__(self, task: Any = None) -> None:
        self._task = task

    def advance(self, n: int = 1, what: str | None = None) -> None:
        if self._task is not None and _active():
            _progress.update(self._task, advance=n, **({"description": what} if what else {}))


def _active() -> bool:
    return _progress is not None and _pid == os.getpid()


def wanted(quiet: bool = False, stream: Any = None) -> bool:
    """Whether to draw progress: not ``--quiet``, and the stream (standard error) is a terminal;
    ``XIANGSHELI_PROGRESS=1`` forces it on (a test, a terminal that does not say it is one), ``0`` off."""
    forced = os.environ.get("XIANGSHELI_PROGRESS", "")
    if quiet or forced == "0":
        return False
    if forced == "1":
        return True
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def enable() -> None:
    """Draw the phases of this process on standard error (until :func:`disable`)."""
    global _progress, _pid
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    console = Console(file=sys.stderr, force_terminal=True if os.environ.get("XIANGSHELI_PROGRESS") == "1" else None)
    _progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                         TimeElapsedColumn(), console=console, transient=False,
                         redirect_stdout=False, redirect_stderr=False)   # the command's own output stays where it goes
    _progress.start()
    _pid = os.getpid()


def disable() -> None:
    global _progress, _pid
    if _progress is not None and _pid == os.getpid():
        _progress.stop()
    _progress, _pid = None, None


@contextmanager
def phase(what: str, total: int | None = None) -> Iterator[Phase]:
    """A phase of the work, shown while it runs (a spinner, or a bar when ``total`` is known) and left as a
    line with its time when it ends."""
    if not _active():
        yield Phase()
        return
    task = _progress.add_task(what, total=total)
    try:
        yield Phase(task)
    finally:
        if _active():                  # a phase without a total is one thing, done; with one, all of it
            _progress.update(task, total=total or 1, completed=total or 1)
