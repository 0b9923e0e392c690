"""The pack cache on disk, as the app serves it: normalised readings, whole folders or none, verified.

* A reading is **normalised** first (:func:`normalise`): a variant that changes nothing (``zheng,bu_chi=6``)
  *is* the preset, so it is the same pack.
* Every folder (a pack, a font subset) is built in ``<cache>/packs-tmp/`` — outside the served tree — with
  ``MANIFEST.json`` (every file's size and sha256) written last, then renamed into ``<cache>/packs/`` in one
  step: a ``kill -9`` mid-build leaves nothing in the served folder (the next start removes the leftover).
* A folder is **verified** against its manifest before it is handed out (hashes once per process and file
  version, sizes every time); a bad one is rebuilt, with one log line.
* **Eviction** is least-recently-used under a disk budget (``XIANGSHELI_PACK_BUDGET_MB``, default 300);
  the folders handed out by this process (the default among them) are never evicted.
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

log = logging.getLogger("xiangsheli.packs")

MANIFEST = "MANIFEST.json"
#: folders this process handed out: never evicted while it runs
_handed: set[Path] = set()
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
        if pid == os.getpid():
            continue
        if pid > 0:
            try:
                os.kill(pid, 0)
                continue                        # a live process is building it
            except ProcessLookupError:
                pass
            except PermissionError:
                continue
        shutil.rmtree(d, ignore_errors=True)


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


def _touch(folder: Path) -> None:
    _handed.add(folder)
    try:
        os.utime(folder / MANIFEST)          # the LRU clock
    except OSError:
        pass


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def evict(budget: int | None = None) -> list[Path]:
    """Remove the least recently used folders not handed out by this process until the cache fits."""
    served, _ = roots()
    budget = budget_bytes() if budget is None else budget
    entries = []
    for d in served.iterdir() if served.exists() else ():
        if d.is_dir():
            try:
                used = (d / MANIFEST).stat().st_mtime
            except OSError:
                used = 0.0
            entries.append((used, d, _size(d)))
    total = sum(e[2] for e in entries)
    gone = []
    for used, d, size in sorted(entries, key=lambda e: e[0]):
        if total <= budget:
            break
        if d in _handed:
            continue
        shutil.rmtree(d, ignore_errors=True)
        total -= size
        gone.append(d)
    return gone


def pack_dir(reading=None, seed: int | None = None, director=None) -> Path:
    """A verified pack folder in the served cache (built when missing or damaged; ``director``: see
    :func:`~scene.web.pack.build_pack`)."""
    from . import build_pack, dumps                    # late: tests replace build_pack
    r = normalise(reading)

    def build(tmp: Path) -> None:
        manifest, data = build_pack(r, seed, **({"director": director} if director is not None else {}))
        (tmp / "scene.bin").write_bytes(data)
        (tmp / "scene.json").write_bytes(dumps(manifest))
        del manifest, data

    return ready(_pack_name(r, seed), build, ("scene.json", "scene.bin"))


def _pack_name(r, seed) -> str:
    from ...geometry.readings import safe_name
    from . import pack_key
    return f"pack-{safe_name(r.name)}-{pack_key(r, seed)}"


def existing(reading=None, seed: int | None = None) -> Path | None:
    """The pack folder when it is in the cache and sound (nothing is built), else None."""
    r = normalise(reading)
    d = roots()[0] / _pack_name(r, seed)
    return d if d.exists() and verify(d, ("scene.json", "scene.bin")) is None else None


def build_elsewhere(reading, protect: list[str], seed: int | None = None) -> str:
    """:func:`pack_dir` in a child process, keeping the folders the parent handed out."""
    _handed.update(Path(p) for p in protect)
    return str(pack_dir(reading, seed))


def font_key() -> str:
    """The font subset's key, the hash of :func:`~scene.web.pack.font.font_chars`. Reading and converting
    every source takes a few tenths of a second, so the key is remembered in the cache with the size and
    mtime of each source (and OpenCC's version): a start whose sources are unchanged reads none of them."""
    from importlib.metadata import PackageNotFoundError, version
    from .font import font_chars, font_sources
    try:
        cc = version("opencc-purepy")
    except PackageNotFoundError:
        cc = "?"
    stats = []
    for f in font_sources():
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
    key = hashlib.sha256(font_chars().encode()).hexdigest()[:12]
    try:
        from ...atomic import write_text
        write_text(memo, json.dumps({"opencc": cc, "files": stats, "key": key}, allow_nan=False))
    except OSError:
        pass
    return key


def existing_font() -> tuple[Path, list[Path]] | None:
    """:func:`font_dir` when it is in the cache and sound (nothing is built), else None."""
    d = roots()[0] / f"webfont-{font_key()}"
    if d.exists() and verify(d, ("cjk.otf",)) is None:
        return d, sorted(d.glob("cjk*.otf"), key=lambda f: len(f.name))
    return None


def font_dir() -> tuple[Path, list[Path]]:
    """The verified CJK font subset folder and its files (OTF first, the fallback after)."""
    from . import write_font
    key = font_key()
    d = ready(f"webfont-{key}", lambda tmp: write_font(tmp / "cjk.otf"), ("cjk.otf",))
    return d, sorted(d.glob("cjk*.otf"), key=lambda f: len(f.name))
