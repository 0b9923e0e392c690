"""What the command line checks before any work: numbers finite and in range, output paths writable and
never a special file, echoed input shortened and escaped.

Every check raises :class:`ValueError` (or argparse's type error) with one line naming the input; the
command then exits 2 (:func:`scene.cli.main.main`) before anything is compiled or rendered.
"""
from __future__ import annotations

import argparse
import math
import os
import stat
from pathlib import Path


def short(value, limit: int = 80) -> str:
    """An input as it may be echoed: at most ``limit`` characters, control characters escaped."""
    text = str(value)
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def number(lo: float, hi: float, *, lo_open: bool = False, integer: bool = False):
    """An argparse type: a finite number in [lo, hi] (``lo_open``: (lo, hi])."""
    def parse(text: str) -> float:
        try:
            if len(text) > 40:
                raise ValueError
            v = int(text) if integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{short(text, 40)!r} is not a {'whole ' if integer else ''}number") from None
        if not math.isfinite(v) or v < lo or v > hi or (lo_open and v == lo):
            raise argparse.ArgumentTypeError(
                f"{short(text, 40)} is outside {'(' if lo_open else '['}{lo:g}, {hi:g}]")
        return v
    return parse


def _nearest_dir(p: Path) -> Path:
    q = p
    while not q.exists() and not q.is_symlink():
        if q.parent == q:
            break
        q = q.parent
    return q


def _name_ok(opt: str, p: Path) -> None:
    if not str(p).strip():
        raise ValueError(f"{opt}: empty")
    for part in p.parts:
        if len(part.encode("utf-8", "surrogateescape")) > 255:
            raise ValueError(f"{opt} {short(p)}: a name longer than 255 bytes")
    if "\x00" in str(p):
        raise ValueError(f"{opt}: a NUL character")


def out_file(path, opt: str = "--out", force: bool = False) -> Path:
    """A file the command will write: a regular file or nothing there (never a FIFO, a device, a directory
    or a symlink, which writing would replace), in a folder that exists or can be made, writable. A file
    already there is replaced only when this program wrote it and nobody changed it since
    (:mod:`scene.written`), or with ``force`` (``--force``); else one line, before any work."""
    p = Path(path)
    _name_ok(opt, p)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise ValueError(f"{opt} {short(p)}: a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise ValueError(f"{opt} {short(p)}: {exc.strerror or exc}") from None
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise ValueError(f"{opt} {short(p)}: is a symbolic link (not replaced; remove it or choose another name)")
        if stat.S_ISDIR(st.st_mode):
            raise ValueError(f"{opt} {short(p)}: is a directory (give a file name)")
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{opt} {short(p)}: is a special file (not replaced)")
        if not os.access(p, os.W_OK):
            raise ValueError(f"{opt} {short(p)}: not writable")
        from ..written import ours
        if not force and not ours(p):
            raise ValueError(f"{opt} {short(p)}: exists and is not a file this program wrote (not replaced; "
                             "give --force to replace it, or another name)")
    _dir_ok(opt, p, p.parent if str(p.parent) else Path("."))
    return p


class written_file:
    """``with written_file(args.out, args.force) as out:`` — :func:`out_file` first, and the file recorded as
    this program's once the block ends without an error (:func:`scene.written.remember`)."""

    def __init__(self, path, force: bool = False, opt: str = "--out") -> None:
        self.path = out_file(path, opt, force)

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, kind, *exc) -> None:
        if kind is None:
            from ..written import remember
            remember(self.path)


def _dir_ok(opt: str, p: Path, folder: Path) -> None:
    base = _nearest_dir(folder)
    if base.exists() and not base.is_dir():
        raise ValueError(f"{opt} {short(p)}: {short(base)} is a file, not a folder")
    if not base.exists():
        raise ValueError(f"{opt} {short(p)}: no folder to write into")
    if not os.access(base, os.W_OK | os.X_OK):
        raise ValueError(f"{opt} {short(p)}: {short(base)} is not writable")


def out_dir(path, opt: str = "--out") -> Path:
    """A folder the command will write into: a folder or nothing there, inside a writable folder."""
    p = Path(path)
    _name_ok(opt, p)
    if p.exists() or p.is_symlink():
        if not p.is_dir():
            raise ValueError(f"{opt} {short(p)}: exists and is not a folder")
        if not os.access(p, os.W_OK | os.X_OK):
            raise ValueError(f"{opt} {short(p)}: not writable")
        return p
    _dir_ok(opt, p, p)
    return p


def out_kind(path, suffixes: tuple[str, ...], opt: str = "--out") -> None:
    if Path(path).suffix.lower() not in suffixes:
        raise ValueError(f"{opt} {short(path)}: name it {' or '.join(suffixes)}")


#: the list of the files a command wrote into its --out folder (so a later run knows which are its own)
MARK = ".xiangsheli-out.json"
#: entries an --out folder may hold for the check (a site has ~40 files, the stills ~60)
MAX_ENTRIES = 20000


def _read_mark(folder: Path) -> dict:
    import json
    f = folder / MARK
    try:
        st = os.lstat(f)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4 * 1024 * 1024:
            return {}
        got = json.loads(f.read_text(encoding="utf-8"))
        return got.get("files", {}) if isinstance(got, dict) and isinstance(got.get("files"), dict) else {}
    except (OSError, ValueError):
        return {}


def own_dir(path, opt: str = "--out") -> Path:
    """A folder the command will write into and may replace files in: new, empty, or one it wrote before
    whose every file is still as it left it (:data:`MARK` lists them). A file of the user's there — or one
    changed since — a symbolic link anywhere in it (a write would follow it out of the folder), a FIFO or
    a device: refused with one line, before any work."""
    p = out_dir(path, opt)
    if p.is_symlink():
        raise ValueError(f"{opt} {short(p)}: is a symbolic link (give the folder itself)")
    if not p.exists():
        return p
    listed = _read_mark(p)
    seen = 0
    for root, dirs, files in os.walk(p, followlinks=False):
        for name in [*dirs, *files]:
            seen += 1
            if seen > MAX_ENTRIES:
                raise ValueError(f"{opt} {short(p)}: holds more than {MAX_ENTRIES:,} files (choose an empty or new folder)")
            f = Path(root) / name
            rel = f.relative_to(p).as_posix()
            if rel == MARK:
                continue
            try:
                st = os.lstat(f)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                raise ValueError(f"{opt} {short(p)}: {short(rel, 60)} is a symbolic link (not followed; "
                                 "choose an empty or new folder)")
            if stat.S_ISDIR(st.st_mode):
                continue
            if not stat.S_ISREG(st.st_mode):
                raise ValueError(f"{opt} {short(p)}: {short(rel, 60)} is a special file (choose an empty or new folder)")
            if listed.get(rel) != [st.st_size, st.st_mtime_ns]:
                raise ValueError(f"{opt} {short(p)}: {short(rel, 60)} is not a file this program wrote (not "
                                 "replaced; choose an empty or new folder)")
    return p


def mark_dir(path) -> None:
    """Record every file of an --out folder as this program's (after a command wrote it, or failed in it:
    :func:`own_dir` made sure nothing else was there)."""
    import json
    p = Path(path)
    if not p.is_dir() or p.is_symlink():
        return
    files = {}
    for root, _dirs, names in os.walk(p, followlinks=False):
        for name in names:
            f = Path(root) / name
            try:
                st = os.lstat(f)
            except OSError:
                continue
            rel = f.relative_to(p).as_posix()
            if stat.S_ISREG(st.st_mode) and rel != MARK:
                files[rel] = [st.st_size, st.st_mtime_ns]
    tmp = p / f".{MARK}.{os.getpid()}"
    try:
        tmp.write_text(json.dumps({"files": files}, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, p / MARK)
    except OSError:
        pass


class owned:
    """``with owned(args.out):`` — the folder checked by :func:`own_dir` first, its files marked after."""

    def __init__(self, path, opt: str = "--out") -> None:
        self.path = own_dir(path, opt)

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc) -> None:
        mark_dir(self.path)
