"""Hostile and careless command lines (issue 11): each gets one line naming what was wrong and exit 2, before
any work is done — no traceback, no special file replaced, no false pass, nothing that runs forever."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HUGE = "1" * 300
NESTED = "[" * 3000 + "]" * 1000          # under the length cap: json itself recurses too deep
CAM = '{"position": %s, "focal_point": [0, 0, 0], "view_up": [0, 0, 1], "parallel": true, "parallel_scale": %s}'


def run(*args: str, timeout: float = 60, cwd=ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "scene", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def spots(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    (d / "a_file").write_text("x")
    os.mkfifo(d / "fifo")
    (d / "target.json").write_text("keep me")
    (d / "link.json").symlink_to(d / "target.json")
    (d / "folder.png").mkdir()
    (d / "bom.toml").write_bytes("\ufeffbase = \"zheng\"\nname = \"bom\"\n".encode("utf-8"))
    # folders of the user's (issue 26): their files are never replaced, no link in them is followed
    for name, own in (("usersite", "index.html"), ("userstills", "index.html"), ("userpack", "scene.json")):
        (d / name).mkdir()
        (d / name / own).write_text("the user's own")
    (d / "linksite").mkdir()
    (d / "linksite" / "index.html").symlink_to(d / "target.json")
    os.mkfifo(d / "fifo.pdf")
    return d


def cases(d: Path) -> list[tuple[str, list[str], str]]:
    """(what, argv, a word the error line must name)."""
    return [
        ("empty reading", ["layout", "--reading", ""], "empty"),
        ("a directory as reading", ["layout", "--reading", str(d)], "not a regular file"),
        ("300-digit chi_m", ["layout", "--reading", f"zheng,chi_m={HUGE}"], "chi_m"),
        ("/dev/zero as reading", ["layout", "--reading", "/dev/zero"], "not a regular file"),
        ("camera with Infinity", ["still", "--out", str(d / "x.png"), "--camera", CAM % ("[1e999, 0, 0]", 1)],
         "finite"),
        ("camera parallel_scale 0", ["still", "--out", str(d / "x.png"), "--camera", CAM % ("[10, 0, 5]", 0)],
         "parallel_scale"),
        ("camera nested deeply", ["still", "--out", str(d / "x.png"), "--camera", NESTED], "camera"),
        ("still --out a directory", ["still", "--out", str(d / "folder.png")], "directory"),
        ("still --out under a file", ["still", "--out", str(d / "a_file" / "x.png")], "not a folder"),
        ("stills --out a file", ["stills", "--out", str(d / "a_file")], "not a folder"),
        ("pack --out under a file", ["pack", "--out", str(d / "a_file" / "p")], "is a file"),
        ("site --out a file", ["site", "--out", str(d / "a_file")], "not a folder"),
        ("clip --out under a file", ["clip", "--stage", "1", "--out", str(d / "a_file" / "c.gif")], "not a folder"),
        ("export --out a FIFO", ["export", "--out", str(d / "fifo"), "--format", "json"], "special file"),
        ("export --out a symlink", ["export", "--out", str(d / "link.json")], "symbolic link"),
        ("export --out a device", ["export", "--out", "/dev/null", "--format", "json"], "special file"),
        ("export --out /dev/full", ["export", "--out", "/dev/full", "--format", "json"], "special file"),
        ("clip --speed 0", ["clip", "--stage", "1", "--out", str(d / "c.gif"), "--speed", "0"], "--speed"),
        ("clip --speed -1", ["clip", "--stage", "1", "--out", str(d / "c.gif"), "--speed", "-1"], "--speed"),
        ("clip --speed 1e-9", ["clip", "--stage", "1", "--out", str(d / "c.gif"), "--speed", "1e-9"], "--speed"),
        ("clip --fps nan", ["clip", "--stage", "1", "--out", str(d / "c.gif"), "--fps", "nan"], "--fps"),
        ("audit --hz 0", ["audit", "--hz", "0"], "--hz"),
        ("audit --hz -1", ["audit", "--hz", "-1"], "--hz"),
        ("audit --hz 1e9", ["audit", "--hz", "1e9"], "--hz"),
        ("pose --t nan", ["pose", "--t", "nan"], "--t"),
        ("pose --t inf", ["pose", "--t", "inf"], "--t"),
        ("still --t nan", ["still", "--out", str(d / "x.png"), "--t", "nan"], "--t"),
        ("export --t -inf", ["export", "--out", str(d / "s.glb"), "--t", "-inf"], "--t"),
        ("camera --t nan", ["camera", "--t", "nan"], "--t"),
        ("camera --view unknown", ["camera", "--t", "1", "--view", "nowhere"], "nowhere"),
        ("captions --out a FIFO", ["captions", "--out", str(d / "fifo")], ".vtt"),
        ("captions --out a directory", ["captions", "--out", str(d / "folder.png")], ".vtt"),
        ("captions --out under a file", ["captions", "--out", str(d / "a_file" / "r.vtt")], "not a folder"),
        ("captions --lang latin", ["captions", "--out", str(d / "r.vtt"), "--lang", "latin"], "--lang"),
        ("site --out a user's index.html", ["site", "--out", str(d / "usersite")], "not a file this program wrote"),
        ("site --out a link out of it", ["site", "--out", str(d / "linksite")], "symbolic link"),
        ("stills --out a user's index.html", ["stills", "--out", str(d / "userstills")], "not a file this program wrote"),
        ("pack --out a user's scene.json", ["pack", "--out", str(d / "userpack")], "not a file this program wrote"),
        ("book --out a FIFO", ["book", "--out", str(d / "fifo.pdf")], "special file"),
        ("40 KB input with escapes", ["layout", "--reading", "\x1b[31m" + "a" * 40000], "reading"),
    ]


@pytest.mark.slow
def test_every_hostile_command_line_is_one_line_and_exit_2(spots):
    before = (spots / "target.json").read_text()
    failures = []
    for what, argv, word in cases(spots):
        t0 = time.perf_counter()
        r = run(*argv)
        dt = time.perf_counter() - t0
        lines = r.stderr.strip().splitlines()
        ok = (r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:") and word in lines[0]
              and "Traceback" not in r.stderr and "\x1b" not in r.stderr and len(lines[0]) <= 500 and dt < 30)
        if not ok:
            failures.append(f"{what}: rc={r.returncode} {dt:.1f}s {r.stderr.strip()[:300]!r}")
    assert not failures, "\n".join(failures)
    assert stat.S_ISFIFO(os.lstat(spots / "fifo").st_mode)          # special files are never replaced
    assert (spots / "link.json").is_symlink() and (spots / "target.json").read_text() == before
    assert not (spots / "x.png").exists()
    for name, own in (("usersite", "index.html"), ("userstills", "index.html"), ("userpack", "scene.json")):
        assert (spots / name / own).read_text() == "the user's own" and len(list((spots / name).iterdir())) == 1


def test_an_out_folder_of_its_own_is_written_again_and_a_changed_file_is_not(tmp_path):
    """The folder check: a folder the program wrote (its list of files) is its own; a file the user changed
    or added there is not, nor is a FIFO (one line each)."""
    from scene.cli.checks import mark_dir, own_dir
    out = tmp_path / "site"
    own_dir(out)
    out.mkdir()
    (out / "index.html").write_text("made by the program")
    (out / "pack").mkdir()
    (out / "pack" / "scene.json").write_text("{}")
    mark_dir(out)
    assert own_dir(out) == out                                   # a rerun may replace its own files
    (out / "notes.txt").write_text("the user's")
    with pytest.raises(ValueError, match="notes.txt is not a file this program wrote"):
        own_dir(out)
    (out / "notes.txt").unlink()
    (out / "index.html").write_text("edited by the user")
    with pytest.raises(ValueError, match="index.html is not a file this program wrote"):
        own_dir(out)
    mark_dir(out)
    os.mkfifo(out / "pack" / "pipe")
    with pytest.raises(ValueError, match="special file"):
        own_dir(out)


def test_the_cache_trusts_only_its_own_signed_entries(tmp_path, monkeypatch, capsys):
    """A cache folder others may write is refused (one line); a planted pickle is never run, and an entry of
    the wrong type is rebuilt (one line)."""
    import pickle

    from scene.rite import cache, timeline
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    monkeypatch.setenv("XIANGSHELI_CACHE", str(shared))
    monkeypatch.setattr(cache, "_rites", {})
    with pytest.raises(cache.CacheError, match="others may write into it"):
        cache.load_rite("zheng")
    mine = tmp_path / "mine"
    monkeypatch.setenv("XIANGSHELI_CACHE", str(mine))
    marker = tmp_path / "ran"

    class Planted:
        def __reduce__(self):
            return (open, (str(marker), "w"))
    built = []
    monkeypatch.setattr(timeline, "build_rite", lambda r, s, **kw: built.append(r) or object.__new__(timeline.Rite))
    from scene.geometry import readings
    r = readings.get("zheng")
    f = cache.cache_dir() / f"rite-{r.name}-{cache.rite_key(r, None)}.pickle"
    f.write_bytes(pickle.dumps(Planted()))
    rite = cache.load_rite("zheng")
    assert not marker.exists() and isinstance(rite, timeline.Rite) and len(built) == 1
    assert "not a signed entry" in capsys.readouterr().err
    monkeypatch.setattr(cache, "_rites", {})
    cache.signed_dump({"not": "a rite"}, f)                      # signed, but of the wrong type
    cache.load_rite("zheng")
    err = capsys.readouterr().err
    assert len(built) == 2 and "not a compiled rite" in err and len(err.strip().splitlines()) == 1
    assert stat.S_IMODE(os.stat(cache.cache_dir() / cache.KEY_FILE).st_mode) == 0o600


def test_a_toml_reading_with_a_bom_is_read(spots):
    r = run("layout", "--reading", str(spots / "bom.toml"), "--json")
    assert r.returncode == 0, r.stderr
    assert '"name": "bom"' in r.stdout


def test_a_reading_name_is_sanitised_for_file_names(tmp_path):
    (tmp_path / "star.toml").write_text('name = "*"\nbase = "zheng"\nbu_chi = 8.0\n')
    from scene.geometry import readings
    assert readings.load_toml(tmp_path / "star.toml").name == "user"
    (tmp_path / "dots.toml").write_text('name = "../../x y"\n')
    assert "/" not in readings.load_toml(tmp_path / "dots.toml").name


def test_measure_prints_every_digit():
    r = run("measure", "九千九百九十九萬九千九百九十九尺")
    assert r.returncode == 0, r.stderr
    assert "99999999 尺" in r.stdout and "e+" not in r.stdout


def test_app_bad_port_is_one_line():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "app.py", "--port", "99999"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "99999" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_app_port_is_free_again_right_after_a_stop():
    """SO_REUSEADDR: a restart within seconds of a stop binds (check_port binds as the server does)."""
    import socket

    from scene.web.app import check_port
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    srv.listen()
    c = socket.create_connection(("127.0.0.1", port))
    conn, _ = srv.accept()
    conn.close()                 # the server closes first: its side goes to TIME_WAIT
    c.close()
    srv.close()
    check_port("127.0.0.1", port)
