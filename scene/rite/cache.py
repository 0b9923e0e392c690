"""The compiled rite, cached on disk: keyed by the reading, the seed and the bytes of everything the
compilation reads (the choreography, the texts and the code of the pure layers), so a cold start does
not pay for the whole rite's compilation again, and any edit of those makes a new entry.

The cache is trusted only as far as it is ours (issue 26): a folder not owned by the user, or writable by
others (a shared ``/tmp/x`` of mode 1777), is refused with one line (:func:`cache_dir`); an entry is a pickle
**signed** with HMAC-SHA256 under a per-user key file (``.hmac-key``, mode 0600, in the folder), and its
signature is checked before a byte is unpickled — a planted or altered entry, or one of the wrong type,
is rebuilt with one log line, never run."""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import pickle
import secrets
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .. import progress, settings
from ..build_once import building, lock_file
from ..paths import ASSETS, PACKAGE, SEEDS, source_name
from ..paths import cache_dir as _cache_path

if TYPE_CHECKING:
    from ..chapter import Chapter
    from ..geometry.readings import Reading
    from .timeline import Rite

log = logging.getLogger("xiangsheli.cache")

#: the layers a compiled rite depends on (the cache key hashes every module in them)
PURE_LAYERS = ("text", "geometry", "rite")
MAGIC = b"XSLSIG1\n"
KEY_FILE = ".hmac-key"
T = TypeVar("T")


class CacheError(ValueError):
    """A cache folder or key that is not safely ours (one line)."""


_checked: set[str] = set()


def cache_dir() -> Path:
    """The cache folder (``XIANGSHELI_CACHE``, else ``~/.cache/xiangsheli-scene``), made 0700 when missing;
    refused when another user owns it or others may write into it."""
    d = _cache_path()
    tag = str(d)
    if tag in _checked:
        return d
    try:
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(d)
    except OSError as exc:
        raise CacheError(f"cache folder {_short(d)}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise CacheError(f"cache folder {_short(d)}: not a folder")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise CacheError(f"cache folder {_short(d)}: owned by another user (set XIANGSHELI_CACHE to a folder of yours)")
    if st.st_mode & 0o022:
        raise CacheError(f"cache folder {_short(d)}: others may write into it (mode {stat.S_IMODE(st.st_mode):o}; "
                         f"chmod go-w it, or set XIANGSHELI_CACHE to a folder of yours)")
    _checked.add(tag)
    return d


def _short(p: object) -> str:
    text = str(p)
    text = text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 80 else text[:79] + "…"


def _key() -> bytes:
    """The per-user signing key (made once, 0600; refused when it is not a private file of ours)."""
    f = cache_dir() / KEY_FILE
    try:
        fd = os.open(f, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    except FileExistsError:
        pass
    try:
        fd = os.open(f, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise CacheError(f"cache key {_short(f)}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()) \
                or st.st_mode & 0o077:
            raise CacheError(f"cache key {_short(f)}: not a private file of yours (remove it)")
        key = fh.read(64)
    if len(key) < 32:
        raise CacheError(f"cache key {_short(f)}: too short (remove it)")
    return key


def signed_dump(obj: object, f: Path) -> None:
    """Write ``obj`` as a signed pickle (atomically: a temporary file, then a rename)."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    mac = hmac.new(_key(), data, hashlib.sha256).digest()
    tmp = f.with_name(f".{f.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as fh:
        fh.write(MAGIC + mac + data)
    os.replace(tmp, f)


def signed_load(f: Path) -> Any:
    """The object of a signed pickle, or None when there is none; :class:`CacheEntryError` when the file is
    not what this user wrote (its signature is checked before anything is unpickled)."""
    try:
        fd = os.open(f, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CacheEntryError(f"cannot be read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise CacheEntryError("not a regular file")
        blob = fh.read()
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + 32:
        raise CacheEntryError("not a signed entry")
    mac, data = blob[len(MAGIC):len(MAGIC) + 32], blob[len(MAGIC) + 32:]
    if not hmac.compare_digest(mac, hmac.new(_key(), data, hashlib.sha256).digest()):
        raise CacheEntryError("its signature is wrong")
    try:
        return pickle.loads(data)
    except Exception as exc:                 # noqa: BLE001  (our own entry from another version)
        raise CacheEntryError(f"does not load ({type(exc).__name__})") from None


class CacheEntryError(ValueError):
    """A cache entry that is not trusted (rebuilt)."""


def source_files(layers: Iterable[str] = PURE_LAYERS) -> list[Path]:
    """Every Python module of the given layers of ``scene`` (sorted: the order of a hash)."""
    return sorted(f for layer in layers for f in (PACKAGE / layer).rglob("*.py"))


def chapter_files(ch: Chapter) -> list[Path]:
    """The files a chapter's compilation reads: its manifest, its texts and its data (every file of its data
    folders), sorted — what a key of that chapter hashes beyond the code."""
    files = {ch.folder / "chapter.toml", ch.jing, ch.jing_simplified, ch.zhengzhu}
    files |= {p for p in (ch.seed, ch.cast, ch.grammar, ch.clauses, ch.words) if p is not None}
    for d in (ch.rite, ch.lessons):
        if d is not None:
            files |= {p for p in d.rglob("*") if p.is_file()}
    return sorted(files)


def rite_key(reading: Reading, seed: int | None, layers: Iterable[str] = PURE_LAYERS, versions: bool = True,
             chapter: Chapter | None = None) -> str:
    """The hash of a reading, a seed and the bytes of everything their compilation reads (the TOML of
    ``assets/``, the seeds, the modules of ``layers``); another layer added (``render``) keys what is made
    from the compiled rite by that layer's code too (the director's track).

    ``versions``: Python's minor version and numpy's are hashed too — what a *pickle* of this cache needs (one
    written under numpy 2 names ``numpy._core``, which numpy 1 cannot load).  Without them, the key names the
    output alone (what ships prebuilt: :mod:`scene.render.track_store`).

    ``chapter``: another chapter than chapter 5 hashes its id and its own files too (:func:`chapter_files`, a
    folder outside ``assets/`` among them), so two chapters never share an entry; chapter 5's key (None, or
    the default chapter) is what it always was."""
    from ..chapter import resolve as resolve_chapter
    h = hashlib.sha256()
    h.update(repr((reading, seed, sys.version_info[:2], np.__version__) if versions else (reading, seed)).encode())
    files = sorted(ASSETS.rglob("*.toml")) + sorted(SEEDS.glob("*.txt")) + source_files(layers) + \
        [PACKAGE / "paths.py", PACKAGE / "chapter.py"]
    if chapter is not None and chapter != resolve_chapter(None):
        h.update(f"chapter {chapter.id}".encode())
        files += chapter_files(chapter)
    for f in files:
        try:
            h.update(source_name(f).encode())      # the same in a checkout and a wheel
            h.update(f.read_bytes())
        except (OSError, ValueError):
            h.update(b"?")
    return h.hexdigest()[:24]


def entry(prefix: str, key: str, build: Callable[[], T], kind: type[T], what: str, keep: int = 4) -> T:
    """The object of the signed cache entry ``<prefix>-<key>.pickle``, built and written when it
    is missing, or not trusted (a planted, altered or stale entry, or one not a ``kind``: one line, then
    rebuilt, never run); entries of the same prefix beyond the newest ``keep`` are removed."""
    d = cache_dir()
    f = d / f"{prefix}-{key}.pickle"
    seen = _stamp(f)
    obj = _trusted(f, kind, what)
    if obj is not None:
        return obj
    # one process builds it, the others wait and read what it wrote (build_once)
    with building(lock_file(d, f.stem)):
        if _stamp(f) != seen:
            obj = _trusted(f, kind, what)
            if obj is not None:
                return obj
        built = build()
        try:
            signed_dump(built, f)
            old = sorted(d.glob(f"{prefix}-*.pickle"), key=lambda p: p.stat().st_mtime)
            for stale in old[:-keep]:
                stale.unlink(missing_ok=True)
        except OSError:
            pass
    return built


def _stamp(f: Path) -> tuple[int, int] | None:
    try:
        st = f.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _trusted(f: Path, kind: type[T], what: str) -> T | None:
    """The entry's object when it is there and trusted; else None (after one line when it is not trusted)."""
    try:
        obj = signed_load(f)
        if obj is not None and not isinstance(obj, kind):
            raise CacheEntryError(f"a {type(obj).__name__}, not {what}")
    except CacheEntryError as exc:
        print(f"cache: {f.name}: {exc}; rebuilding it", file=sys.stderr, flush=True)
        return None
    return obj


_rites: dict[tuple[Reading, int | None, str], Rite] = {}


def _here(rite: Rite, ch: Chapter) -> None:
    """Point a rite from the disk cache at this install's chapter files.  The key hashes the files' bytes, not
    where they are: an entry another checkout (or a removed one) compiled holds that checkout's paths, and its
    lessons, texts and data were read from there — or from nowhere (a test saw "the pack carries no lesson")."""
    import dataclasses
    stored = getattr(getattr(rite, "choreography", None), "chapter", None)   # (a test's bare Rite has none)
    if stored is not None and stored.id == ch.id and stored != ch:
        rite.choreography = dataclasses.replace(rite.choreography, chapter=ch)
        director = getattr(rite, "director", None)
        if director is not None and hasattr(director, "choreo"):
            director.choreo = rite.choreography


def load_rite(reading: Reading | str | None = None, seed: int | None = None, chapter: Chapter | str | None = None
              ) -> Rite:
    """The compiled rite under a reading, from the disk cache when its inputs are unchanged.

    Parameters
    ----------
    reading : str or Reading or None
        As :func:`scene.geometry.readings.get` takes it.
    seed : int, optional
        The shooting's seed (who hits, how often); default: the reading's.
    chapter : Chapter or str, optional
        The chapter (default chapter 5); one without a rite is one line (``ChoreographyError``).

    Returns
    -------
    Rite
        Its stages (51 in chapter 5), every step's tracks and the shooting; ``rite.pose_at(t)`` evaluates a
        moment.
    """
    from ..chapter import resolve as resolve_chapter
    from ..geometry import readings
    from .timeline import Rite, build_rite
    ch = resolve_chapter(chapter)
    # the chapter's own choices filled in (another chapter's refused): the key, the memo and the entry's name
    # differ with every choice, so a reading with another choice never reuses this one's compiled rite
    r = readings.get(reading, chapter=ch)
    other = ch if ch != resolve_chapter(None) else None     # chapter 5 keeps its key and its entry's name
    memo = (r, seed, ch.id)
    if memo in _rites:
        return _rites[memo]
    if settings.no_cache():
        built = build_rite(r, seed, chapter=other)
        _rites[memo] = built
        return built
    key = rite_key(r, seed, chapter=other)

    def build() -> Rite:
        with progress.phase(f"compiling the rite ({r.name})"):
            return build_rite(r, seed, chapter=other)
    prefix = f"rite-{r.name}" if other is None else f"rite-{ch.id}-{r.name}"
    if r.picks:
        prefix += "-" + readings.safe_name("-".join(v for _, v in r.picks))
    rite = entry(prefix, key, build, Rite, "a compiled rite")
    _here(rite, ch)
    rite.cache_key = key
    rite.content_key = rite_key(r, seed, versions=False, chapter=other)
    _rites[memo] = rite
    return rite
