"""Atomic writes: a file is written beside its place under a temporary name and renamed over it when complete,
so a reader (another process, the next run, the browser) sees the old file or the new one, never half of
one; a failed write leaves no temporary file behind.  Every file the program writes goes through here."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


def temporary_name(path: Path) -> Path:
    """``.name.<pid>.tmp.ext`` beside ``path``: hidden, per process, with the same extension (np.savez and
    fpdf2 look at it)."""
    return path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")


@contextlib.contextmanager
def replacing(path: Path | str, *, mkdir: bool = True) -> Iterator[Path]:
    """``with replacing(p) as tmp: write tmp`` → ``p`` replaced by ``tmp`` when the block ends without an
    error; on an error the temporary file is removed and the error goes on."""
    path = Path(path)
    if mkdir:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    try:
        yield tmp
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
