"""One build of a cache entry at a time, across processes: an app switching a reading, a second app, a
``python -m scene …`` and the app's build workers share one cache, and each of them finding a pack or a
compiled rite missing at the same moment would build it again (a pack of another reading is most of a minute
of both cores on a school laptop).  The first takes the entry's lock and builds; the others wait for it, then
find the entry and read it.

The lock is a POSIX record lock (``fcntl.lockf``) on a file under ``<cache>/locks/``: the kernel drops it when
its process ends, however it ends (a kill -9 mid-build leaves no stale lock), and a forked child does not
inherit it (the director's worker is forked mid-build).  Threads of one process queue on a
:class:`threading.Lock` first (a record lock belongs to the process, not the thread).  Where there is no
``fcntl`` (Windows) only the threads queue: two processes may then build the same entry, as before — each
build is written atomically, so the cache stays sound either way.  A lock held longer than ``wait_s`` (a
stopped process) is not waited for further: the entry is built beside it."""
from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:                 # pragma: no cover  (Windows)
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("xiangsheli.cache")

#: how long to wait for another process's build of the same entry, s (the slowest build seen, a pack of
#: another reading on a loaded 2-core machine, takes ~2 min)
WAIT_S = 900.0
POLL_S = 0.1

_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def _forget_in_child() -> None:
    # a lock another thread held at the fork would stay locked for ever in the child
    global _guard
    _locks.clear()
    _guard = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def lock_file(cache: Path, name: str) -> Path:
    """The lock file of the entry ``name`` of the cache folder ``cache``."""
    return Path(cache) / "locks" / f"{name}.lock"


@contextlib.contextmanager
def building(lock: Path, wait_s: float = WAIT_S) -> Iterator[None]:
    """``with building(lock_file(cache, name)):`` — held while this process builds the entry; the block is
    entered once no other process (or thread) holds it, or when the wait ran out or no lock could be made (a
    read-only cache): it then runs anyway."""
    with _guard:
        mine = _locks.setdefault(str(lock), threading.Lock())
    with mine:
        fd = _open(lock)
        try:
            if fd is not None:
                _take(fd, lock, wait_s)
            yield
        finally:
            if fd is not None:
                os.close(fd)             # closing the file drops the record lock


def _open(lock: Path) -> int | None:
    if fcntl is None:
        return None
    try:
        lock.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        return os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return None


def _take(fd: int, lock: Path, wait_s: float) -> None:
    """The record lock on ``fd``, polled (a blocking lock cannot give up after ``wait_s``)."""
    end = time.monotonic() + wait_s
    said = False
    while True:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError:
            if time.monotonic() >= end:
                log.warning("cache: %s was held for %.0f s; building beside it", lock.name, wait_s)
                return
            if not said:
                log.info("cache: another process is building %s; waiting for it", lock.stem)
                said = True
            time.sleep(POLL_S)
