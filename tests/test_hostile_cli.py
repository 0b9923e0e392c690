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
