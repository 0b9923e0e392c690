"""One way to write a file (issue 45, item 4): every single-file ``--out`` silently replaced a user's file. Now
a file already there is replaced only when the program wrote it and nobody changed it since (its path, size,
time and inode recorded in the cache: :mod:`scene.written`), or with ``--force``; else one line, exit 2,
before any work, and the file untouched."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def scene(*argv: str, cwd: Path, cache: Path, timeout: float = 120.0):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XIANGSHELI_CACHE": str(cache)}
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "scene", *argv], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()], time.perf_counter() - t0


USERS = {                                     # what a user may have at the name a command writes
    "x.png": b"\x89PNG\r\n\x1a\n the user's picture",
    "c.gif": b"GIF89a the user's animation",
    "a.json": b'{"mine": true}',
    "r.vtt": b"WEBVTT\n\nthe user's captions\n",
    "rite.pdf": b"%PDF-1.7 the user's own PDF, named as the book's default",
    "r.html": b"<!doctype html><title>the user's page</title>",
}


@pytest.mark.parametrize("argv", [
    ["still", "--stage", "2", "--size", "160x90", "--out", "x.png"],
    ["clip", "--stage", "2", "--size", "160x90", "--out", "c.gif"],
    ["export", "--out", "a.json"],
    ["captions", "--out", "r.vtt"],
    ["book", "--out", "rite.pdf"],
    ["review", "--section", "2", "--out", "r.html"],
], ids=lambda a: a[0])
def test_a_users_file_at_out_is_refused_without_force(tmp_path, argv):
    for name, data in USERS.items():
        (tmp_path / name).write_bytes(data)
    code, lines, dt = scene(*argv, cwd=tmp_path, cache=tmp_path / "cache")
    assert code == 2 and len(lines) == 1 and "--force" in lines[0] and "not a file this program wrote" in lines[0], \
        (code, lines)
    assert dt < 30, dt                                     # before any work (no rite, no OpenGL)
    for name, data in USERS.items():
        assert (tmp_path / name).read_bytes() == data, name


def test_its_own_file_is_written_again_a_changed_one_is_not_and_force_replaces_it(tmp_path):
    cache = tmp_path / "cache"
    assert scene("export", "--out", "a.json", cwd=tmp_path, cache=cache)[0] == 0
    first = (tmp_path / "a.json").read_bytes()
    assert scene("export", "--out", "a.json", cwd=tmp_path, cache=cache)[0] == 0          # its own, untouched
    code, _, _ = scene("export", "--out", str(tmp_path / "a.json"), cwd=ROOT, cache=cache)   # the same file by
    assert code == 0                                                                         # another spelling
    with open(tmp_path / "a.json", "ab") as fh:                                             # the user edits it
        fh.write(b"\n")
    code, lines, _ = scene("export", "--out", "a.json", cwd=tmp_path, cache=cache)
    assert code == 2 and "--force" in lines[0]
    assert (tmp_path / "a.json").read_bytes() == first + b"\n"
    code, _, _ = scene("export", "--out", "a.json", "--force", cwd=tmp_path, cache=cache)
    assert code == 0 and (tmp_path / "a.json").read_bytes() == first
    # another cache (or none): nothing is known to be ours, so nothing is replaced
    code, lines, _ = scene("export", "--out", "a.json", cwd=tmp_path, cache=tmp_path / "other-cache")
    assert code == 2 and "--force" in lines[0]


def test_force_still_never_writes_through_a_link_or_over_a_special_file(tmp_path):
    victim = tmp_path / "victim.json"
    victim.write_text("the user's")
    (tmp_path / "link.json").symlink_to(victim)
    os.mkfifo(tmp_path / "fifo.json")
    for name, word in (("link.json", "symbolic link"), ("fifo.json", "special file")):
        code, lines, _ = scene("export", "--out", name, "--force", cwd=tmp_path, cache=tmp_path / "cache")
        assert code == 2 and len(lines) == 1 and word in lines[0], (name, lines)
    assert victim.read_text() == "the user's"


def test_a_sheets_folder_with_a_users_file_is_refused(tmp_path):
    """A sheets folder (its mark) where the user put a file of the name a sheet takes: it was replaced."""
    out = tmp_path / "sheets"
    out.mkdir()
    (out / ".xiangsheli-sheets").write_text("role sheets of python -m scene sheets\n")
    (out / "huozhe.pdf").write_bytes(b"%PDF-1.7 the user's notes on the huozhe")
    code, lines, dt = scene("sheets", "--roles", "獲者", "--out", str(out), cwd=tmp_path, cache=tmp_path / "cache")
    assert code == 2 and len(lines) == 1 and "not a file this program wrote" in lines[0], (code, lines)
    assert (out / "huozhe.pdf").read_bytes() == b"%PDF-1.7 the user's notes on the huozhe"


def test_the_record_is_bounded_and_forgets_the_oldest(tmp_path, monkeypatch):
    from scene import written
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(written, "MAX_RECORDS", 3)
    files = []
    for i in range(5):
        f = tmp_path / f"{i}.json"
        f.write_text(str(i))
        written.remember(f)
        files.append(f)
    assert [written.ours(f) for f in files] == [False, False, True, True, True]
    os.utime(files[4], ns=(1, 1))                          # touched since: not as the program left it
    assert not written.ours(files[4])
    (tmp_path / "cache" / written.RECORD).write_text("[not a record")     # a damaged record: nothing is ours
    assert not written.ours(files[3])
