"""Hostile clients of the classroom server, round 3 (issue 45): each probe that failed, against a real server on
loopback, with timeouts and bounded loops. What must hold: a tab's queued calls are bounded in bytes before
they are decoded; every entry point that takes a reading (the still too) refuses a huge one at once."""
from __future__ import annotations

import asyncio
import random
import socket
import subprocess
import time

import pytest
from test_hostile_server import answers_now, ask, closed, raw_ws, rpc, secret_and_cookie, tabs
from webtools import free_port, launch_logged, logged_app

pytestmark = pytest.mark.slow          # a real server on loopback

KEY = "hostile-45-presenter-key"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with logged_app(tmp_path_factory.mktemp("hostile-45") / "app.log", "--presenter-key", KEY) as a:
        yield a


def test_a_tabs_queued_bytes_are_capped_before_its_calls_are_decoded(app):
    """Four calls wait on a reading build; behind them, calls of 200 KB each. Before: only their number was
    capped (64), each was decoded as it came and held until its turn (sixty of 234 KB held ~1 GB); now the
    tab is closed once its waiting calls pass 1 MB, while the build still runs, and other tabs answer."""
    secret, cookie = secret_and_cookie(app.port)
    s = raw_ws(app.port, cookie)
    assert isinstance(s, socket.socket), s
    s.sendall(rpc("wslink.hello", [{"secret": secret}], system=True))
    time.sleep(0.5)
    fresh = f"zheng,seed={random.randrange(10**6, 10**9)}"           # not in the cache: a build of seconds
    s.sendall(b"".join(rpc("trame.trigger", ["xsl_pack", [fresh], {}], n=i) for i in range(4)))
    time.sleep(1.0)
    big = ["xsl_queue", ["x" * 200_000], {}]
    t0 = time.time()
    for i in range(8):
        try:
            s.sendall(rpc("trame.trigger", big, n=10 + i))
        except OSError:                  # closed already: what we want
            break
    assert closed(s, 5.0), "the tab with 1.6 MB of calls waiting was not closed"
    assert time.time() - t0 < 6.0
    s.close()
    assert answers_now(app.port) < 5.0
    assert "calls of" in app.log_text()


def test_the_still_refuses_a_huge_reading_at_once(app):
    """The still took its reading without the query cap (one 200 KB reading froze every tab for 24 s)."""
    async def run():
        vs, tasks, stop = await tabs(app.port, 1)
        t0 = time.time()
        a = await ask(vs[0], "trame.trigger", ["xsl_still", ["zheng," + "bu_chi=8," * 20000, 0.0], {}], 60)
        dt = time.time() - t0
        stop.set()
        await asyncio.gather(*tasks)
        return a, dt

    a, dt = asyncio.run(run())
    assert "characters is not a reading" in a["result"]["error"] and len(a["result"]["error"]) < 200, a
    assert dt < 1.0, dt


def _hello(port: int, secret: str) -> bool:
    """Whether a websocket that says hello with ``secret`` stays open (a wrong secret is closed at once)."""
    _, cookie = secret_and_cookie(port)
    s = raw_ws(port, cookie)
    assert isinstance(s, socket.socket), s
    s.sendall(rpc("wslink.hello", [{"secret": secret}], system=True))
    ok = not closed(s, 3.0)
    s.close()
    return ok


def test_authkey_does_not_override_the_secret_and_the_key_comes_from_the_environment(tmp_path):
    """``--authKey wslink-secret`` (wslink's option; launchers pass it) set trame's token after the guard had
    set its own: the page's secret failed and the public default worked. The presenter key came only from
    argv, readable by every user in the process list: now also from XSL_PRESENTER_KEY."""
    import os
    port = free_port()
    env_key = "key-from-the-environment-0123456789"
    os.environ["XSL_PRESENTER_KEY"] = env_key
    try:
        proc = launch_logged(port, "--authKey", "wslink-secret", log=tmp_path / "app.log")
    finally:
        del os.environ["XSL_PRESENTER_KEY"]
    try:
        secret, _ = secret_and_cookie(port)
        assert secret != "wslink-secret"
        assert _hello(port, secret), "the page's own secret was refused"
        assert not _hello(port, "wslink-secret"), "the public default secret was accepted"
        good = {"stage": 3, "t": 10.0, "playing": False, "speed": 1, "view": "plan", "camera": None,
                "reading": "zheng", "client_ms": time.time() * 1000, "seq": 1}

        async def run():
            vs, tasks, stop = await tabs(port, 1)
            a = await ask(vs[0], "trame.trigger", ["xsl_present", [good, env_key], {}])
            stop.set()
            await asyncio.gather(*tasks)
            return a
        assert asyncio.run(run())["result"] == {"ok": True}
        assert env_key in (tmp_path / "app.log").read_text()          # printed for the operator, as before
        with open(f"/proc/{proc.pid}/cmdline", "rb") as fh:
            assert env_key.encode() not in fh.read()
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_default_presenter_key_is_long(tmp_path):
    from scene.web import live
    assert len(live.new_key()) >= 32


@pytest.mark.parametrize("make, word", [
    (lambda d: "/dev/zero", "regular file"),
    (lambda d: str(d / "missing"), "No such file"),
    (lambda d: (d / "big").write_text("k" * 10_000) and str(d / "big"), "regular file"),
])
def test_a_bad_presenter_key_file_is_one_line(tmp_path, make, word):
    import os
    import sys

    from webtools import ROOT
    p = subprocess.run([sys.executable, "app.py", "--presenter-key-file", make(tmp_path)], cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
    assert p.returncode == 2 and len(lines) == 1 and word in lines[0], (p.returncode, lines)


def test_the_start_refuses_when_a_patch_did_not_take(monkeypatch):
    """A new aiohttp without ``_request_in_progress`` (the gate's test of a response being sent) or with
    sendfile back on: the check names it, and the app refuses to run (guard.check, at bind)."""
    import aiohttp.web_fileresponse as wf
    import aiohttp.web_protocol as wp

    from scene.web import gate
    gate._patch_server()
    assert gate.check() == []

    class Older:
        __slots__ = ("_keepalive",)
    monkeypatch.setattr(wp, "RequestHandler", Older)
    monkeypatch.setattr(wf, "NOSENDFILE", False)
    problems = gate.check()
    assert any("_request_in_progress" in p for p in problems) and any("sendfile" in p for p in problems)


def test_the_presenters_export_goes_before_the_students(app):
    """Five students' tabs queue exports; the teacher's (a session that presented with the key) waited at
    position 5 behind them — now it is next."""
    good = {"stage": 3, "t": 10.0, "playing": False, "speed": 1, "view": "plan", "camera": None,
            "reading": "zheng", "client_ms": time.time() * 1000, "seq": 1}
    export = ["xsl_export", ["zheng", 60.0, None, "plan", "1080p", False, "none"], {}]

    async def run():
        vs, tasks, stop = await tabs(app.port, 6)
        teacher, students = vs[0], vs[1:]
        assert (await ask(teacher, "trame.trigger", ["xsl_present", [good, KEY], {}]))["result"] == {"ok": True}
        waiting = [asyncio.create_task(ask(v, "trame.trigger", export, 120)) for v in students]
        await asyncio.sleep(1.5)
        mine = asyncio.create_task(ask(teacher, "trame.trigger", export, 120))
        await asyncio.sleep(1.0)
        where = await ask(teacher, "trame.trigger", ["xsl_queue", [], {}])
        others = [await ask(v, "trame.trigger", ["xsl_queue", [], {}]) for v in students]
        stop.set()                                   # the tabs leave: their exports are cancelled
        await asyncio.gather(*tasks)
        for t in [*waiting, mine]:
            t.cancel()
        await asyncio.gather(*waiting, mine, return_exceptions=True)
        return where["result"], [o["result"] for o in others]

    where, others = asyncio.run(run())
    assert where["running"] or where["position"] == 1, (where, others)
    assert sum(1 for o in others if o["position"] > 0) >= 3, others


@pytest.mark.parametrize("value", ["100000", "0", "-3", "many"])
def test_sheets_jobs_is_bounded(tmp_path, value):
    """``sheets --jobs 100000`` was accepted (a process each, ~200 MB each): one line, exit 2, nothing written."""
    import os
    import sys

    from webtools import ROOT
    out = tmp_path / "sheets"
    p = subprocess.run([sys.executable, "-m", "scene", "sheets", "--out", str(out), "--jobs", value], cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
    assert p.returncode == 2 and len(lines) == 1 and "--jobs" in lines[0], (p.returncode, lines)
    assert not out.exists()


def test_every_served_page_has_its_headers(app):
    """A served HTML file (the review pages, an exported sheet) had no CSP, framing or referrer policy: the
    gate set them from the response's content type, which a file answer knows only once it is sent."""
    import re

    from test_hostile_server import get
    status, _, page = get(app.port)
    assert status == 200
    for link in re.findall(r"xslreview/[^\\s\"'<>]*\\.html", page)[:1] or ["xslreview/1.html"]:
        status, headers, body = get(app.port, "/" + link)
        assert status == 200, (link, status)
        assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), headers
        assert headers.get("x-frame-options") == "DENY" and headers.get("referrer-policy") == "no-referrer"
        assert headers.get("x-content-type-options") == "nosniff"
        if "<script>" in body:                       # its own inline script is allowed, by its hash
            assert "'sha256-" in headers["content-security-policy"]


def _ws_from(port: int, address: str, cookie: str | None, secret: str):
    """A websocket opened by hand from ``address`` (a loopback address of its own) that says hello at once:
    the socket, or the HTTP status it was refused with."""
    import base64
    import os
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((address, 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        got = s.recv(1)
        if not got:
            break
        head += got
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    if status != 101:
        s.close()
        return status
    s.sendall(rpc("wslink.hello", [{"secret": secret}], system=True))
    return s


def test_the_teacher_can_connect_when_students_fill_the_server(tmp_path):
    """96 + 96 + 8 sockets of three addresses filled the server's 200 and the teacher's new tab got 503 like
    everyone's; now some are reserved for the presenter's session (her page, opened with the key)."""
    import http.client
    port = free_port()
    proc = launch_logged(port, "--presenter-key", KEY, log=tmp_path / "app.log")
    socks: list[socket.socket] = []
    try:
        secret, _ = secret_and_cookie(port)
        refused = 0
        for address, n in (("127.0.0.2", 96), ("127.0.0.3", 96), ("127.0.0.4", 8)):
            for _ in range(n):
                s = _ws_from(port, address, None, secret)
                if isinstance(s, socket.socket):
                    socks.append(s)
                else:
                    refused += 1
            time.sleep(0.5)
        # the teacher opens the presenter address: her page's cookie is the presenter's session
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", f"/index.html?present=1&key={KEY}", headers={"Host": f"127.0.0.1:{port}"})
        r = c.getresponse()
        cookie = r.getheader("Set-Cookie").split(";", 1)[0]
        r.read()
        c.close()
        teacher = _ws_from(port, "127.0.0.1", cookie, secret)
        assert isinstance(teacher, socket.socket), f"the teacher's tab got {teacher} ({len(socks)} students in)"
        assert not closed(teacher, 2.0)
        teacher.close()
        assert refused > 0                     # the students could not take the reserved ones
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(10)


def test_page_loads_without_a_cookie_mint_a_bounded_number_of_sessions(app):
    """Every page load without a cookie minted a session: a script's sixty tabs were sixty people to the
    fairness of exports and builds. One address now gets at most 48 (a classroom behind one NAT)."""
    import http.client

    def get(cookie=None):                 # from an address of its own (the other tests' sessions untouched)
        c = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10, source_address=("127.0.0.9", 0))
        c.request("GET", "/index.html", headers={"Host": f"127.0.0.1:{app.port}", **({"Cookie": cookie} if cookie else {})})
        r = c.getresponse()
        r.read()
        c.close()
        return r.status, r.getheader("Set-Cookie")
    cookies = set()
    for _ in range(60):
        status, set_cookie = get()
        assert status == 200
        cookies.add(set_cookie.split(";", 1)[0])
    assert len(cookies) <= 48, len(cookies)
    # a browser that keeps its cookie keeps its session: no new one
    status, set_cookie = get(next(iter(cookies)))
    assert status == 200 and set_cookie is None


# --------------------------------------------------------------------------- one safe writer, bounded inputs
def _scene(*argv: str, cwd, timeout: float = 120.0):
    import os
    import sys

    from webtools import ROOT
    p = subprocess.run([sys.executable, "-m", "scene", *argv], cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)},
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode, [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]


def test_sheets_does_not_write_through_a_link_in_its_folder(tmp_path):
    """``sheets`` checked its folder, then wrote its mark file by name: a link planted there under that name
    sent the write to a file outside --out. Now: one line, exit 2, the file untouched."""
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    out = tmp_path / "sheets"
    out.mkdir()
    (out / ".xiangsheli-sheets").symlink_to(victim)
    code, lines = _scene("sheets", "--out", str(out), "--roles", "ou1_up", cwd=tmp_path)
    assert code == 2 and len(lines) == 1 and "symbolic link" in lines[0], (code, lines)
    assert victim.read_text() == "the user's own file\n"


def test_the_writer_refuses_links_and_special_files_and_plants_nothing(tmp_path):
    import os

    from scene import atomic
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    link = tmp_path / "out.html"
    link.symlink_to(victim)
    with pytest.raises(atomic.WriteError, match="symbolic link"):
        atomic.write_text(link, "<!doctype html>")
    fifo = tmp_path / "out.png"
    os.mkfifo(fifo)
    with pytest.raises(atomic.WriteError, match="not a regular file"):
        atomic.write_bytes(fifo, b"png")          # (a FIFO is not opened: nothing blocks)
    fonts = tmp_path / "font"
    fonts.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir()
    from scene.print.html import write_fonts
    with pytest.raises(atomic.WriteError, match="symbolic link"):
        write_fonts(fonts, {"sans": str(victim)})
    assert victim.read_text() == "mine\n" and not list((tmp_path / "elsewhere").iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "font", "out.html", "out.png", "victim.txt"]


def test_a_lesson_that_is_not_a_regular_file_is_one_line(tmp_path):
    """A FIFO named like a lesson hung the pack's build for ever; a link to /dev/zero read without end."""
    import os
    import sys

    from webtools import ROOT
    os.mkfifo(tmp_path / "a.toml")
    (tmp_path / "b.toml").symlink_to("/dev/zero")
    code = ("import sys; from scene.web.lessons import load_lesson, LessonError\n"
            "for f in sys.argv[1:]:\n"
            "    try: load_lesson(f, None)\n"
            "    except LessonError as e: print(e)\n")
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path / "a.toml"), str(tmp_path / "b.toml")],
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=30)
    lines = p.stdout.splitlines()
    assert len(lines) == 2 and all("not a regular file" in ln for ln in lines), (lines, p.stderr[-500:])


def test_exports_and_builds_are_fair_per_browser_not_per_address(app):
    """Item 3, fair per person: two students behind one address (a classroom's NAT) are two browsers, each
    with its own export and its own reading build — the second is not refused because the first is busy —
    while a second tab of one browser (the same cookie) gets no second export or build."""
    import aiohttp
    from test_hostile_server import _run_with_jar

    from scene.web.wsviewer import Viewer

    async def run():
        stop = asyncio.Event()
        jars = []
        for _ in range(2):                       # two browsers, their pages loaded from one address
            jar = aiohttp.CookieJar(unsafe=True)
            conn = aiohttp.TCPConnector(local_addr=("127.0.0.12", 0))
            async with aiohttp.ClientSession(cookie_jar=jar, connector=conn) as http:
                await (await http.get(f"http://127.0.0.1:{app.port}/index.html")).read()
            jars.append(jar)
        cookies = [{c.key: c.value for c in jar} for jar in jars]
        assert cookies[0] != cookies[1]
        a, b = [Viewer(f"ws://127.0.0.1:{app.port}/ws") for _ in range(2)], Viewer(f"ws://127.0.0.1:{app.port}/ws")
        tasks = [asyncio.create_task(_run_with_jar(v, stop, jars[0])) for v in a]
        tasks.append(asyncio.create_task(_run_with_jar(b, stop, jars[1])))
        await asyncio.wait_for(asyncio.gather(*(v.connected.wait() for v in [*a, b])), 30)
        seeds = random.sample(range(10**6, 10**9), 3)
        pending = [asyncio.create_task(ask(a[0], "trame.trigger", ["xsl_pack", [f"zheng,seed={seeds[0]}"], {}], 120))]
        await asyncio.sleep(0.5)
        pending.append(asyncio.create_task(ask(b, "trame.trigger", ["xsl_pack", [f"zheng,seed={seeds[1]}"], {}], 120)))
        await asyncio.sleep(0.5)
        a_second_build = await ask(a[1], "trame.trigger", ["xsl_pack", [f"zheng,seed={seeds[2]}"], {}])
        export = ["xsl_export", ["zheng", 60.0, None, "plan", "1080p", False, "none"], {}]
        pending.append(asyncio.create_task(ask(a[0], "trame.trigger", export, 120)))
        await asyncio.sleep(0.5)
        pending.append(asyncio.create_task(ask(b, "trame.trigger", export, 120)))
        await asyncio.sleep(0.5)
        a_second_export = await ask(a[1], "trame.trigger", export)
        b_build, b_export = pending[1], pending[3]
        b_refused = [str(t.result().get("result", {}).get("error", "")) for t in (b_build, b_export)
                     if t.done() and "error" in (t.result().get("result") or {})]
        stop.set()                               # every tab leaves: its build and export are cancelled
        await asyncio.gather(*tasks, return_exceptions=True)
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return a_second_build["result"], a_second_export["result"], b_refused

    a_build, a_export, b_refused = asyncio.run(run())
    assert "building the reading" in a_build.get("error", ""), a_build
    assert "one export at a time" in a_export.get("error", ""), a_export
    assert b_refused == [], b_refused


def test_the_app_refuses_to_run_when_a_patch_did_not_take(tmp_path):
    """Nothing checked at start that the patches of aiohttp, wslink and trame-server took: an aiohttp whose
    request handler has no ``_request_in_progress`` (the gate's test of a response being sent) would have run
    with every download "idle". Now the app prints one line and exits 2, and serves nothing."""
    import os
    import sys

    from webtools import ROOT
    port = free_port()
    code = ("import runpy, sys\n"
            "import aiohttp.web_protocol as wp\n"
            "class Older:\n"
            "    __slots__ = ('_keepalive',)\n"
            "wp.RequestHandler = Older\n"
            "sys.argv = ['app.py', '--port', sys.argv[1]]\n"
            "runpy.run_path('app.py', run_name='__main__')\n")
    p = subprocess.run([sys.executable, "-c", code, str(port)], cwd=ROOT, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=240)
    errors = [ln for ln in (p.stdout + p.stderr).splitlines() if "error" in ln.lower() or "Traceback" in ln]
    assert p.returncode == 2, (p.returncode, (p.stdout + p.stderr)[-2000:])
    assert len(errors) == 1 and "a safeguard did not take" in errors[0] and "_request_in_progress" in errors[0], errors
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), 1.0).close()
