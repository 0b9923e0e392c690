"""The pack cache on disk, as the app serves it: normalised readings, whole folders or none, verified.

* A reading is **normalised** first (:func:`normalise`): a variant that changes nothing (``zheng,bu_chi=6``)
  *is* the preset, so it is the same pack.
* Every folder (a pack, a font subset) is built in ``<cache>/packs-tmp/`` — outside the served tree — with
  ``MANIFEST.json`` (every file's size and sha256) written last, then renamed into ``<cache>/packs/`` in one
  step: a ``kill -9`` mid-build leaves nothing in the served folder (the next start removes the leftover).
* A folder is **verified** against its manifest before it is handed out (hashes once per process and file
  version, sizes every time); a bad one is rebuilt, with one log line.
* **Eviction** is least-recently-used under a disk budget (``XIANGSHELI_PACK_BUDGET_MB``, default 300) that
  counts every file of the cache (packs, fonts, compiled rites, baked light); the folders a live process
  pinned (the default pack, the font: :func:`pin`, seen by every process) are kept, and a folder handed out
  stays :data:`GRACE` s (its tab loads it at once) — the others go, oldest use first.
* Names in file names are sanitised (:func:`~scene.geometry.readings.safe_name`).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from pathlib import Path

from ...build_once import building, lock_file
from ...written import RECORD
from . import shipped

log = logging.getLogger("xiangsheli.packs")

MANIFEST = "MANIFEST.json"
#: folders this process handed out → when (kept GRACE s after)
_handed: dict[Path, float] = {}
#: folders never evicted while this process runs (the default pack, the font)
_pinned: set[Path] = set()
#: seconds a handed-out folder is kept from eviction (its tab fetches it at once)
GRACE = 300.0
#: files of the cache folder that are never evicted
KEEP = frozenset({".hmac-key", "webfont-key.json", "packs", "packs-tmp", RECORD})
#: (path, size, mtime_ns) → verified
_verified: set[tuple[str, int, int]] = set()


def normalise(reading):
    """The reading a pack is built for: the preset itself when the variant changes nothing, else the
    reading its canonical query names (so two spellings of one reading share a pack)."""
    from ...geometry import readings
    r = readings.get(reading)
    q = readings.to_query(r)
    return readings.PRESETS[q] if q in readings.PRESETS else readings.from_query(q)


def roots() -> tuple[Path, Path]:
    from ...rite.cache import cache_dir
    return cache_dir() / "packs", cache_dir() / "packs-tmp"


def budget_bytes() -> int:
    from ... import settings
    return settings.pack_budget_bytes()


def _sha(f: Path) -> str:
    h = hashlib.sha256()
    with open(f, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_manifest(folder: Path) -> None:
    files = {f.relative_to(folder).as_posix(): {"bytes": f.stat().st_size, "sha256": _sha(f)}
             for f in sorted(folder.rglob("*")) if f.is_file() and f.name != MANIFEST}
    (folder / MANIFEST).write_text(json.dumps({"files": files}, indent=1, allow_nan=False), encoding="utf-8")


def verify(folder: Path, want: tuple[str, ...] = ()) -> str | None:
    """None when every file of the folder's manifest is there with its size and hash (and the ``want``
    files are among them); else what is wrong (one line)."""
    try:
        files = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return "no manifest"
    for name in want:
        if name not in files:
            return f"{name} is not in the manifest"
    for name, meta in files.items():
        f = folder / name
        try:
            st = f.stat()
        except OSError:
            return f"{name} is missing"
        if st.st_size != meta.get("bytes"):
            return f"{name} has {st.st_size:,} bytes, not {meta.get('bytes'):,}"
        tag = (str(f), st.st_size, st.st_mtime_ns)
        if tag not in _verified:
            if _sha(f) != meta.get("sha256"):
                return f"{name} does not match its hash"
            _verified.add(tag)
    return None


def publish(tmp: Path, final: Path) -> Path:
    """Manifest last, then the rename into the served tree (a folder already there and good wins)."""
    write_manifest(tmp)
    try:
        os.rename(tmp, final)
    except OSError:
        if final.exists() and verify(final) is None:
            shutil.rmtree(tmp, ignore_errors=True)
            return final
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
    return final


def _fresh_tmp(tmp_root: Path, name: str) -> Path:
    tmp_root.mkdir(parents=True, exist_ok=True)
    d = tmp_root / f"{name}.{os.getpid()}.{time.monotonic_ns()}"
    d.mkdir()
    return d


def clean_tmp() -> None:
    """Leftovers of builds whose process is gone (a kill -9 mid-build)."""
    _served, tmp_root = roots()
    for d in tmp_root.glob("*") if tmp_root.exists() else ():
        try:
            pid = int(d.name.rsplit(".", 2)[-2])
        except (ValueError, IndexError):
            pid = -1
        if pid == os.getpid() or (pid > 0 and _alive(pid)):
            continue                            # a live process is building it
        shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    """A process of that id runs (another user's counts: it may not be signalled, but it is there)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def ready(name: str, build, want: tuple[str, ...]) -> Path:
    """The served folder ``name``: verified, or (re)built by ``build(tmp_folder)``; marked used and kept."""
    served, tmp_root = roots()
    final = served / name
    if final.exists():
        bad = verify(final, want)
        if bad is None:
            _touch(final)
            return final
        log.warning("cache folder %s is damaged (%s): rebuilding it", name, bad)
        print(f"cache: {name} is damaged ({bad}); rebuilding it", flush=True)
        shutil.rmtree(final, ignore_errors=True)
    served.mkdir(parents=True, exist_ok=True)
    # one process builds it, the others wait and serve what it published (build_once)
    with building(lock_file(served.parent, name)):
        if final.exists() and verify(final, want) is None:
            _touch(final)
            return final
        tmp = _fresh_tmp(tmp_root, name)
        try:
            build(tmp)
            out = publish(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    _touch(out)
    evict()
    return out


PIN = ".pin-"
#: the mark of a folder handed out by a process (its mtime: when): kept GRACE s from every process's eviction
HANDED = ".handed-"


def pin(folder: Path) -> None:
    """Keep a folder for as long as this process runs (the default pack, the font) — from every process's
    eviction, not only this one's: a pin file ``.pin-<pid>`` in the folder (the app serves its default pack
    for hours, while a ``python -m scene …`` or a second app on the same cache builds and evicts)."""
    _pinned.add(Path(folder))
    try:
        (Path(folder) / f"{PIN}{os.getpid()}").touch()
    except OSError:
        pass


def _pinned_elsewhere(folder: Path) -> bool:
    """A live process other than this one pinned the folder, or handed it out within GRACE s (a dead one's
    marks are removed). Issue 45: the hand-out was known to the app's process only, and the build workers'
    eviction removed a pack 45 s after its tab was given it (the README promises 5 minutes)."""
    live = False
    now = time.time()
    for f in [*folder.glob(f"{PIN}*"), *folder.glob(f"{HANDED}*")]:
        pin_mark = f.name.startswith(PIN)
        try:
            pid = int(f.name[len(PIN if pin_mark else HANDED):])
        except ValueError:
            continue
        if pid == os.getpid():
            continue
        if not _alive(pid):
            f.unlink(missing_ok=True)
            continue
        try:
            recent = now - f.stat().st_mtime < GRACE
        except OSError:
            continue
        if pin_mark or recent:
            live = True
    return live


def protected() -> list[str]:
    """The folders eviction must keep now (pinned, or handed out within GRACE s)."""
    now = time.time()
    handed = _handed if isinstance(_handed, dict) else dict.fromkeys(_handed, now)   # tests give a set
    return sorted({str(p) for p in _pinned} | {str(p) for p, t in handed.items() if now - t < GRACE})


def _touch(folder: Path) -> None:
    if isinstance(_handed, dict):
        _handed[folder] = time.time()
    else:
        _handed.add(folder)
    try:
        os.utime(folder / MANIFEST)          # the LRU clock
        (folder / f"{HANDED}{os.getpid()}").touch()      # for the other processes' eviction (the workers')
    except OSError:
        pass


def _size(folder: Path) -> int:
    total = 0
    for f in folder.rglob("*"):
        try:
            if f.is_file():
                total += f.stat().st_size
        except OSError:
            pass
    return total


def evict(budget: int | None = None) -> list[Path]:
    """Remove the least recently used entries of the cache — pack and font folders, compiled rites, baked
    light: every file counts — until it fits the budget; the protected folders are kept."""
    served, _ = roots()
    top = served.parent
    budget = budget_bytes() if budget is None else budget
    keep = {Path(p) for p in protected()}
    entries = []
    for d in served.iterdir() if served.exists() else ():
        try:
            if d.is_dir() and not d.is_symlink():
                try:
                    used = (d / MANIFEST).stat().st_mtime
                except OSError:
                    used = 0.0
                entries.append((used, d, _size(d)))
        except OSError:
            pass
    for f in top.iterdir() if top.exists() else ():
        try:
            st = f.lstat()
            if f.name not in KEEP and not f.is_dir():
                entries.append((max(st.st_mtime, st.st_atime), f, st.st_size))
        except OSError:
            pass
    total = sum(e[2] for e in entries)
    gone = []
    for _used, d, size in sorted(entries, key=lambda e: e[0]):
        if total <= budget:
            break
        if d in keep or (d.is_dir() and _pinned_elsewhere(d)):
            continue
        if d.is_dir() and not d.is_symlink():
            shutil.rmtree(d, ignore_errors=True)
        else:
            d.unlink(missing_ok=True)
        if isinstance(_handed, dict):
            _handed.pop(d, None)
        total -= size
        gone.append(d)
    return gone


def pack_dir(reading=None, seed: int | None = None, director=None, chapter=None) -> Path:
    """A verified pack folder in the served cache (built when missing or damaged; ``director``: see
    :func:`~scene.web.pack.build_pack`; ``chapter``: its id or :class:`~scene.chapter.Chapter`, chapter 5 by
    default)."""
    from . import build_pack, dumps  # late: tests replace build_pack
    r = normalise(reading)
    ch = _chapter(chapter)

    def build(tmp: Path) -> None:
        if ch is None and shipped.fill_pack(r, seed, tmp):   # the default reading, made from these very sources
            return
        extra = {"director": director} if director is not None else {}
        if ch is not None:
            extra["chapter"] = ch
        manifest, data = build_pack(r, seed, **extra)
        (tmp / "scene.bin").write_bytes(data)
        (tmp / "scene.json").write_bytes(dumps(manifest))
        del manifest, data

    return ready(_pack_name(r, seed, ch), build, ("scene.json", "scene.bin"))


def _chapter(chapter):
    """None for chapter 5 (its packs' names and keys are what they were), else the resolved chapter."""
    from ...chapter import resolve
    ch = resolve(chapter)
    return None if ch == resolve(None) else ch


def _pack_name(r, seed, ch=None) -> str:
    from ...geometry.readings import safe_name
    from . import pack_key
    if ch is None:
        return f"pack-{safe_name(r.name)}-{pack_key(r, seed)}"
    return f"pack-{ch.id}-{safe_name(r.name)}-{pack_key(r, seed, ch)}"


def existing(reading=None, seed: int | None = None, chapter=None) -> Path | None:
    """The pack folder when it is in the cache and sound (nothing is built), else None."""
    r = normalise(reading)
    ch = _chapter(chapter)
    d = roots()[0] / _pack_name(r, seed, ch)
    if not d.exists() and ch is None and shipped.pack_for(r, seed) is not None:
        return pack_dir(r, seed)                        # a copy of the shipped pack: no build
    return d if d.exists() and verify(d, ("scene.json", "scene.bin")) is None else None


def build_elsewhere(reading, protect: list[str], seed: int | None = None, chapter=None) -> str:
    """:func:`pack_dir` in a child process, keeping the folders the parent handed out."""
    _pinned.update(Path(p) for p in protect)
    return str(pack_dir(reading, seed, chapter=chapter))


def font_key() -> str:
    """The font subset's key (:func:`.font.font_key`: the bytes of the font files and the characters the
    sources show).  Reading and converting every source takes a few tenths of a second, so the key is
    remembered in the cache with the size and mtime of each source and font file (and OpenCC's version, which
    converts the characters): a start whose files are unchanged reads none of them."""
    from importlib.metadata import PackageNotFoundError, version

    from .font import font_files, font_sources
    from .font import font_key as content_key
    try:
        cc = version("opencc-purepy")
    except PackageNotFoundError:
        cc = "?"
    stats = []
    for f in font_sources() + font_files():
        try:
            st = f.stat()
            stats.append([str(f), st.st_size, st.st_mtime_ns])
        except OSError:
            stats.append([str(f), -1, -1])
    memo = roots()[0].parent / "webfont-key.json"
    try:
        got = json.loads(memo.read_text(encoding="utf-8"))
        if got["opencc"] == cc and got["files"] == stats and isinstance(got["key"], str):
            return got["key"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    key = content_key()
    try:
        from ...atomic import write_text
        write_text(memo, json.dumps({"opencc": cc, "files": stats, "key": key}, allow_nan=False))
    except OSError:
        pass
    return key


def existing_font() -> tuple[Path, list[Path]] | None:
    """:func:`font_dir` when it is in the cache and sound (nothing is built), else None."""
    key = font_key()
    d = roots()[0] / f"webfont-{key}"
    if not d.exists() and shipped.font_key() == key:
        return font_dir()                               # a copy of the shipped subset: no subsetting
    if d.exists() and verify(d, ("cjk.otf",)) is None:
        return d, sorted(d.glob("cjk*.otf"), key=lambda f: len(f.name))
    return None


def font_dir() -> tuple[Path, list[Path]]:
    """The verified CJK font subset folder and its files (OTF first, the fallback after)."""
    from . import write_font
    key = font_key()
    d = ready(f"webfont-{key}", lambda tmp: shipped.fill_font(key, tmp) or write_font(tmp / "cjk.otf"), ("cjk.otf",))
    return d, sorted(d.glob("cjk*.otf"), key=lambda f: len(f.name))
