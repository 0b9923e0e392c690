"""Past one server (issue 44 item 7): the docs' recipe for many sessions — wslink's launcher starting one app per
session — run as written in docs/sharing.md: two sessions, each its own process on its own port, and both
pages play."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import webtools

pytestmark = [pytest.mark.slow, pytest.mark.browser,
              pytest.mark.skipif(webtools.chromium_missing_reason() is not None,
                                 reason=str(webtools.chromium_missing_reason()))]

ROOT = Path(__file__).resolve().parent.parent


def _config(tmp_path: Path) -> dict:
    """docs/sharing.md's launcher.json, on free ports, with the checkout's app for the console script."""
    text = (ROOT / "docs" / "sharing.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```json\n(.*?)```", text, re.S)
    cfg = json.loads(block)
    app = cfg["apps"]["xiangsheli"]
    assert app["cmd"][0] == "xiangsheli"
    app["cmd"][:1] = [sys.executable, str(ROOT / "app.py")]         # the same launcher (scene.launch)
    c = cfg["configuration"]
    c["port"] = webtools.free_port()
    c["log_dir"] = str(tmp_path / "logs")
    c["proxy_file"] = str(tmp_path / "logs" / "proxy.txt")
    lo = webtools.free_port()
    cfg["resources"][0]["port_range"] = [lo, lo + 40]
    return cfg


def _post(url: str, body: dict | None = None, method: str = "POST") -> dict:
    req = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(), method=method)
    with urllib.request.urlopen(req, timeout=300) as r:
        return json.loads(r.read())


def _pids_on(port: int) -> set[int]:
    """The processes listening on ``port`` (from /proc: no tool needed)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            f = row.split()
            if int(f[1].rsplit(":", 1)[1], 16) == port and f[3] == "0A":
                inodes.add(f[9])
    pids = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd).removeprefix("socket:[").removesuffix("]") in inodes:
                    pids.add(int(proc.name))
        except OSError:
            continue
    return pids


def test_the_launcher_gives_each_session_its_own_app_and_both_pages_play(tmp_path):
    cfg = _config(tmp_path)
    (tmp_path / "logs").mkdir()
    conf = tmp_path / "launcher.json"
    conf.write_text(json.dumps(cfg), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XIANGSHELI_SKIP_GLPROBE": "1"}
    launcher = subprocess.Popen([sys.executable, "-m", "wslink.launcher", str(conf)], cwd=tmp_path, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{cfg['configuration']['port']}/paraview/"
    sessions = []
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{cfg['configuration']['port']}/", timeout=2)
                break
            except urllib.error.HTTPError:
                break                                                     # it answers (404 on /): it is up
            except OSError:
                time.sleep(0.2)
        for _ in range(2):
            sessions.append(_post(base, {"application": "xiangsheli"}))
        ports = [s["port"] for s in sessions]
        assert len(set(ports)) == 2 and all(cfg["resources"][0]["port_range"][0] <= p <= cfg["resources"][0]["port_range"][1]
                                            for p in ports), sessions
        # the launcher answers on the app's ready line, printed just before its server binds the port
        deadline = time.monotonic() + 120
        while not all(pids := [_pids_on(p) for p in ports]) and time.monotonic() < deadline:
            time.sleep(0.3)
        assert all(pids) and not (pids[0] & pids[1]), pids              # two processes, one a session
        with webtools.chromium() as browser:
            for port in ports:
                webtools.plays(browser, f"http://127.0.0.1:{port}/")
    finally:
        for s in sessions:
            try:
                _post(base + s["id"], method="DELETE")
            except OSError:
                pass
        launcher.terminate()
        launcher.wait(30)
