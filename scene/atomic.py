"""Atomic writes: a file is written beside its place under a temporary name and renamed over it when complete,
so a reader (another process, the next run, the browser) sees the old file or the new one, never half of
one; a failed write leaves no temporary file behind.  Every file the program writes goes through here.

It is also the one safe writer (issue 45): it never writes through a symbolic link — neither the file's
name nor the temporary one (made fresh, exclusively, under an unguessable name) — and never replaces
anything but a regular file: a link, a folder, a FIFO or a device in the file's place is a
:class:`WriteError` (one line), and nothing is written.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path


class WriteError(ValueError):
    """A place the program will not write (one line)."""


def temporary_name(path: Path) -> Path:
    """``.name.<pid>.<random>.tmp.ext`` beside ``path``: hidden, unguessable (no link can be planted there
    beforehand), with the same extension (np.savez and fpdf2 look at it)."""
    return path.with_name(f".{path.stem}.{os.getpid()}.{secrets.token_hex(6)}.tmp{path.suffix}")


def read_input(path: Path | str, limit: int, what: str = "file") -> bytes:
    """The bytes of an input file (a lesson, a reading) that is a regular file of at most ``limit`` bytes;
    else WriteError's sibling, an :class:`InputFileError` (one line). Opened without blocking (a FIFO named
    like a lesson hung the build) and checked on the open file itself (no swap between a check and the
    read); at most ``limit`` + 1 bytes are read, whatever the size said (``/dev/zero`` behind a link)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputFileError(f"{path}: not a regular file (a {what} must be one)")
        if st.st_size > limit:
            raise InputFileError(f"{path}: {st.st_size:,} bytes (a {what} is at most {limit:,})")
        chunks, n = [], 0
        while n <= limit:
            got = os.read(fd, min(1 << 20, limit + 1 - n))
            if not got:
                break
            chunks.append(got)
            n += len(got)
        if n > limit:
            raise InputFileError(f"{path}: more than {limit:,} bytes (a {what} is at most {limit:,})")
        return b"".join(chunks)
    finally:
        os.close(fd)


class InputFileError(ValueError):
    """An input file the program will not read (one line)."""


def check_target(path: Path | str) -> Path:
    """``path`` may be written: nothing there, or a regular file (not a link to one); else WriteError."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise WriteError(f"{path}: cannot write there ({exc.strerror})") from None
    if stat.S_ISLNK(st.st_mode):
        raise WriteError(f"{path}: a symbolic link; not writing through it")
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(f"{path}: not a regular file; not replacing it")
    return path


def check_folder(folder: Path | str) -> Path:
    """A folder the program writes into (made when missing) that is not a symbolic link (its files would land
    elsewhere: the fonts beside an HTML sheet once went wherever ``font`` pointed); else WriteError."""
    folder = Path(folder)
    if folder.is_symlink():
        raise WriteError(f"{folder}: a symbolic link; not writing through it")
    if folder.exists() and not folder.is_dir():
        raise WriteError(f"{folder}: not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.contextmanager
def replacing(path: Path | str, *, mkdir: bool = True) -> Iterator[Path]:
    """``with replacing(p) as tmp: write tmp`` → ``p`` replaced by ``tmp`` when the block ends without an
    error; on an error the temporary file is removed and the error goes on."""
    path = check_target(path)
    if mkdir:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    # made here, exclusively and not following a link: the writer then opens a regular file of ours
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644))
    try:
        yield tmp
        check_target(path)                   # a link put in its place meanwhile is not replaced either
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(path: Path | str, data: bytes) -> Path:
    with replacing(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text(path: Path | str, text: str, encoding: str = "utf-8") -> Path:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding=encoding)
    return Path(path)
