"""The single files the command line wrote (issue 45, item 4): a file at a command's ``--out`` is replaced
only when this program wrote it and nobody changed it since, or when the user gives ``--force``.

The rule: after a command writes its ``--out`` file (a still, a clip, an export, the captions, the book, a
review page), the file's full path, size, modification time (ns) and inode are recorded in the cache folder
(:data:`RECORD`, the last :data:`MAX_RECORDS` files). A later command may replace the file when all four still
match — the program's own product, untouched. A file of the user's, or one of ours the user edited, copied
over or touched since, does not match: the command refuses it in one line before any work, unless
``--force``. Nothing is ever recognised by its name or its contents alone (a user's ``rite.pdf`` is a PDF
too). Without a cache (``XIANGSHELI_NO_CACHE``) or after the cache was cleared nothing is recorded, and a file
there needs ``--force``: the rule errs on the side of the user's file.

Folders (``site``, ``stills``, ``pack``, ``sheets``) keep their own list inside them (:mod:`scene.cli.checks`).
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path

#: the record's name in the cache folder (kept from the cache's eviction)
RECORD = "written-files.json"
#: files remembered (the oldest forgotten first)
MAX_RECORDS = 2000
#: the record's largest size when read (2 000 entries of a long path each)
MAX_BYTES = 4 << 20


def _record() -> Path | None:
    from .settings import cache_dir, no_cache
    return None if no_cache() else cache_dir() / RECORD


def _key(path: Path | str) -> str:
    """The file's full path: its folder resolved (``./a.png`` and ``a.png`` are one file), its own name not
    (the file itself is never a link: the writer refuses one)."""
    p = Path(path)
    return str(Path(os.path.abspath(p.parent if str(p.parent) else ".")).resolve() / p.name)


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _load() -> dict[str, list[int]]:
    f = _record()
    if f is None:
        return {}
    from .atomic import InputFileError, read_input
    try:
        got = json.loads(read_input(f, MAX_BYTES, "record of written files"))
    except (InputFileError, ValueError):
        return {}
    return got if isinstance(got, dict) else {}


def ours(path: Path | str) -> bool:
    """The regular file at ``path`` is one this program wrote and nobody changed since."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and _load().get(_key(path)) == _stamp(st)


def remember(path: Path | str) -> None:
    """Record the file just written at ``path`` as the program's own (best effort: a cache that cannot be
    written means the next run asks for ``--force``)."""
    f = _record()
    if f is None:
        return
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not stat.S_ISREG(st.st_mode):
        return
    from .atomic import WriteError, write_text
    got = _load()
    key = _key(path)
    got.pop(key, None)
    got[key] = _stamp(st)
    while len(got) > MAX_RECORDS:
        got.pop(next(iter(got)))
    with contextlib.suppress(OSError, WriteError):
        f.parent.mkdir(parents=True, exist_ok=True)
        write_text(f, json.dumps(got, ensure_ascii=False))
