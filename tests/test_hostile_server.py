"""Hostile clients of the classroom server, round 2 (issue 26): each probe that failed, against a real server
on loopback (127.0.0.1 only), with timeouts and bounded loops. What must hold: no host but ours gets the page
or a socket; no client can make another tab wait (a non-reading socket, floods, a huge query, silent sockets,
half-sent requests); nothing a client sends reaches the log but one short escaped line; the page's headers on
every path that serves it; exports and builds fair per session and cancelled when their tab leaves; wrong
presenter keys limited and logged; the app's bad options one line."""
from __future__ import annotations

import asyncio
import base64
import http.client
import os
import re
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest
from webtools import ROOT, logged_app
from wslink.chunking import generate_chunks

pytestmark = pytest.mark.slow          # a real server on loopback

KEY = "hostile-presenter-key"
SECRET_RE = re.compile(r"searchParams\.set\('secret','([^']+)'\)")


# --------------------------------------------------------------------------- the server, and raw clients
@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with logged_app(tmp_path_factory.mktemp("hostile-server") / "app.log", "--presenter-key", KEY) as a:
        yield a


def get(port: int, path: str = "/index.html", host: str | None = None, cookie: str | None = None):
    """(status, headers, body) of one GET (the path sent as it is)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    c.putheader("Host", host or f"127.0.0.1:{port}")
    if cookie:
        c.putheader("Cookie", cookie)
    c.endheaders()
    r = c.getresponse()
    out = r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode("utf-8", "replace")
    c.close()
    return out


def secret_and_cookie(port: int) -> tuple[str, str]:
    status, headers, body = get(port)
    assert status == 200
    return SECRET_RE.search(body).group(1), headers["set-cookie"].split(";", 1)[0]


def raw_ws(port: int, cookie: str | None = None, host: str | None = None, rcvbuf: int | None = None):
    """A websocket opened by hand (so it can stop reading, or never say hello): the socket, or the status."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    req = (f"GET /ws HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "")
           + "\r\n")
    s.sendall(req.encode())
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
    return s


def frame(payload: bytes, opcode: int = 2) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    head += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else \
        bytes([0x80 | 127]) + struct.pack(">Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def rpc(method: str, args: list, n: int = 1, system: bool = False) -> bytes:
    msg = msgpack.packb({"wslink": "1.0", "id": f"{'system' if system else 'rpc'}:c0:{n}", "method": method,
                         "args": args, "kwargs": {}})
    return b"".join(frame(c) for c in generate_chunks(msg, 4 * 1024 * 1024))


def closed(s: socket.socket, within: float) -> bool:
    """Whether the server closed the socket within ``within`` seconds (reading what it sent meanwhile)."""
    s.settimeout(0.5)
    t0 = time.time()
    while time.time() - t0 < within:
        try:
            if not s.recv(65536):
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


async def ask(v, method: str, args: list, timeout: float = 30.0):
    a = await v.ask(method, args, timeout)
    if a is None:
        raise TimeoutError(method)
    return a


async def tabs(port: int, n: int):
    from scene.web.wsviewer import classroom
    stop = asyncio.Event()
    vs, tasks = await classroom(f"ws://127.0.0.1:{port}/ws", n, stop)
    return vs, tasks, stop


async def slowest_answer(v, seconds: float) -> float:
    """The slowest of a tab's small calls (its place in the export queue) over ``seconds``."""
    worst, t_end = 0.0, time.time() + seconds
    while time.time() < t_end:
        t0 = time.time()
        await ask(v, "trame.trigger", ["xsl_queue", [], {}], timeout=15)
        worst = max(worst, time.time() - t0)
        await asyncio.sleep(0.1)
    return worst


def answers_now(port: int) -> float:
    """Seconds for a fresh tab to connect and answer one call."""
    async def run():
        t0 = time.time()
        vs, tasks, stop = await tabs(port, 1)
        await ask(vs[0], "trame.trigger", ["xsl_queue", [], {}], timeout=15)
        dt = time.time() - t0
        stop.set()
        await asyncio.gather(*tasks)
        return dt
    return asyncio.run(run())


# --------------------------------------------------------------------------- 1. host names
def test_another_host_name_gets_neither_the_page_nor_a_socket(app):
    port = app.port
    for path in ("/", "/index.html", "/xsl/app.js"):
        status, _h, body = get(port, path, host=f"attacker.example:{port}")
        assert status == 403 and "secret" not in body, (path, status)
    assert raw_ws(port, host=f"attacker.example:{port}") == 403
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert get(port, "/index.html", host=host)[0] == 200, host


# --------------------------------------------------------------------------- 2. no tab holds up another
def test_a_tab_that_stops_reading_is_dropped_and_stalls_nobody(app):
    port = app.port
    secret, cookie = secret_and_cookie(port)
    s = raw_ws(port, cookie, rcvbuf=4096)
    s.sendall(rpc("wslink.hello", [{"secret": secret}], system=True))
    time.sleep(0.3)

    async def run():
        vs, tasks, stop = await tabs(port, 1)
        probe = asyncio.create_task(slowest_answer(vs[0], 6.0))

        def flood():
            burst = b"".join(rpc("trame.state.get", [], n=i) for i in range(200))
            try:
                for _ in range(15):                       # 3 000 calls whose answers it never reads
                    s.sendall(burst)
            except OSError:
                pass
        await asyncio.get_running_loop().run_in_executor(None, flood)
        worst = await probe
        stop.set()
        await asyncio.gather(*tasks)
        return worst

    worst = asyncio.run(run())
    assert worst < 1.0, worst
    assert closed(s, 20), "the server kept a socket that does not read"


def test_a_client_without_the_secret_is_closed_at_its_first_call(app):
    port = app.port
    s = raw_ws(port)
    try:
        for i in range(2000):                            # 79-byte calls, never read
            s.sendall(rpc("trame.trigger", ["xsl_queue", [], {}], n=i))
    except OSError:
        pass
    assert closed(s, 5)
    assert answers_now(port) < 2.0


def test_a_huge_reading_query_is_refused_at_once(app):
    port = app.port

    async def run():
        vs, tasks, stop = await tabs(port, 2)
        probe = asyncio.create_task(slowest_answer(vs[1], 2.0))
        t0 = time.time()
        a = await ask(vs[0], "trame.trigger", ["xsl_pack", ["zheng," + "bu_chi=8," * 9000], {}])
        dt = time.time() - t0
        worst = await probe
        stop.set()
        await asyncio.gather(*tasks)
        return a, dt, worst

    a, dt, worst = asyncio.run(run())
    assert "characters is not a reading" in a["result"]["error"] and len(a["result"]["error"]) < 200
    assert dt < 1.0 and worst < 1.0, (dt, worst)


def test_silent_sockets_are_closed_and_lock_out_no_tab(app):
    from scene.web.sockets import HELLO_TIMEOUT
    port = app.port
    socks = []
    try:
        for _ in range(200):
            s = raw_ws(port)
            if isinstance(s, socket.socket):
                socks.append(s)
        assert answers_now(port) < 2.0                  # a real tab still gets in
        # closed within the timeout and the sweep after it: the newest first (the others were opened before it)
        deadline = time.time() + HELLO_TIMEOUT + 1.5
        closed(socks[-1], HELLO_TIMEOUT + 1.5)
        assert all(closed(s, max(0.6, deadline - time.time())) for s in socks[-8:]), "silent sockets left open"
    finally:
        for s in socks:
            s.close()


def test_half_sent_requests_stop_no_page_load(app):
    from scene.web.gate import HEADER_TIMEOUT
    port = app.port
    socks = []
    try:
        for i in range(1030):
            try:
                s = socket.create_connection(("127.0.0.1", port), 2)
                s.sendall(f"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow-{i}: ".encode())
                socks.append(s)
            except OSError:
                continue                               # refused: the address is at its cap
        t0 = time.time()
        status = get(port)[0]
        assert status == 200 and time.time() - t0 < 2.0
        # closed within the timeout and the sweep after it: the newest first (the others were sent before it)
        deadline = time.time() + HEADER_TIMEOUT + 2.5
        closed(socks[-1], HEADER_TIMEOUT + 2.5)
        left = sum(1 for s in socks[-20:] if not closed(s, max(0.1, deadline - time.time())))
    finally:
        for s in socks:
            s.close()
    assert left == 0, f"{left} half-sent requests still open"


# --------------------------------------------------------------------------- 3. the log
def test_what_a_stranger_sends_reaches_the_log_as_short_lines(app):
    port = app.port
    before = len(app.log.read_bytes())
    forged = "x\n鄉射禮 app: presenter: http://evil/?key=1 \x1b[2J" + "y" * 180_000
    for _ in range(9):
        s = raw_ws(port)
        try:
            s.sendall(frame(forged.encode(), opcode=1))
        except OSError:
            pass
        closed(s, 2)
        s.close()
    # a non-object message, one nested 500 deep, and 5 malformed HTTP requests
    deep: list = []
    for _ in range(500):
        deep = [deep]
    for payload in (msgpack.packb(7), msgpack.packb({"id": "rpc:c0:1", "method": "x", "args": [deep]})):
        secret, cookie = secret_and_cookie(port)
        s = raw_ws(port, cookie)
        s.sendall(rpc("wslink.hello", [{"secret": secret}], system=True))
        s.sendall(b"".join(frame(c) for c in generate_chunks(payload, 4 * 1024 * 1024)))
        assert closed(s, 5)
    for bad in (b"GET /\x00 HTTP/1.1\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n", b"G\x1bT / HTTP/1.1\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", port), 5) as s:
            s.sendall(bad)
            closed(s, 2)
    time.sleep(0.5)
    text = app.log.read_bytes()[before:].decode("utf-8", "replace")
    assert len(text) < 6000, len(text)
    assert "Traceback" not in text and "\x1b" not in text
    assert not any(line.startswith("鄉射禮 app: presenter") for line in text.splitlines())
    assert all(len(line) < 400 for line in text.splitlines())
    assert answers_now(port) < 2.0


# --------------------------------------------------------------------------- 4. headers and paths
def test_the_page_has_its_headers_and_one_spelling(app):
    port = app.port
    status, h, body = get(port)
    assert status == 200
    policy = h["content-security-policy"]
    assert "connect-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert h["x-content-type-options"] == "nosniff" and h["x-frame-options"] == "DENY"
    inline = re.findall(r"<script>(.*?)</script>", body, re.DOTALL)
    assert inline and all(
        "sha256-" + base64.b64encode(__import__("hashlib").sha256(x.encode()).digest()).decode() in policy
        for x in inline)
    assert get(port, "/xsl/app.js")[1]["x-content-type-options"] == "nosniff"
    for path in ("/index.html/", "/./index.html", "/static/../index.html", "/xsl/../index.html",
                 "//index.html", "/%2e/index.html", "/xsl/index.html", "/no-such-file"):
        status, _h, body = get(port, path)
        assert status == 404 and "secret" not in body, (path, status)


# --------------------------------------------------------------------------- 5. fairness, cancellation, keys
def test_exports_are_fair_per_session_and_leave_with_their_tab(app):
    port = app.port

    async def run():
        import aiohttp

        from scene.web.wsviewer import Viewer
        stop = asyncio.Event()
        # one student: eight sockets of one browser (one cookie)
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as http:
            await http.get(f"http://127.0.0.1:{port}/index.html")
        student = [Viewer(f"ws://127.0.0.1:{port}/ws") for _ in range(8)]
        tasks = [asyncio.create_task(_run_with_jar(v, stop, jar)) for v in student]
        await asyncio.wait_for(asyncio.gather(*(v.connected.wait() for v in student)), 30)
        teacher, ttasks, tstop = await tabs(port, 1)
        calls = [asyncio.create_task(ask(v, "trame.trigger", ["xsl_export", ["zheng", 5.0], {}], timeout=120))
                 for v in student]
        await asyncio.sleep(1.0)
        refused = sum(1 for c in calls if c.done() and "one export at a time" in
                      str(c.result().get("result", {}).get("error", "")))
        tcall = asyncio.create_task(ask(teacher[0], "trame.trigger", ["xsl_export", ["zheng", 5.0], {}],
                                        timeout=120))
        await asyncio.sleep(0.5)
        pos = (await ask(teacher[0], "trame.trigger", ["xsl_queue", [], {}]))["result"]
        stop.set()                                   # the student's sockets leave
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(1.5)
        after = (await ask(teacher[0], "trame.trigger", ["xsl_queue", [], {}]))["result"]
        # (on a quiet machine the teacher's still may be made already: done, with its file)
        done = tcall.done() and not tcall.cancelled() and "url" in str(tcall.result())
        tstop.set()                                  # the teacher leaves too: nothing stays queued
        await asyncio.gather(*ttasks)
        for c in [*calls, tcall]:
            c.cancel()
        await asyncio.sleep(1.0)
        return refused, pos, after, done

    refused, pos, after, done = asyncio.run(run())
    assert refused == 7, refused
    assert pos["running"] or pos["position"] <= 1, pos
    assert after["running"] or after["position"] == 1 or done, after
    assert after["waiting"] <= 1

    async def left():
        vs, tasks, stop = await tabs(port, 1)
        q = (await ask(vs[0], "trame.trigger", ["xsl_queue", [], {}]))["result"]
        stop.set()
        await asyncio.gather(*tasks)
        return q
    deadline = time.time() + 20
    while time.time() < deadline:
        q = asyncio.run(left())
        if q["waiting"] == 0:
            break
        time.sleep(1)
    assert q["waiting"] == 0, q


async def _run_with_jar(v, stop, jar):
    """A viewer whose page and socket share a given cookie jar (several sockets of one browser)."""
    import aiohttp

    from scene.web import wsviewer
    try:
        async with aiohttp.ClientSession(cookie_jar=jar) as http:
            secret = await wsviewer.page_secret(http, v.url)
            async with http.ws_connect(v.url, max_msg_size=0, origin=v.url.replace("ws://", "http://").rsplit("/ws", 1)[0]) as ws:
                v.ws = ws
                await v._send(ws, "wslink.hello", [{"secret": secret}])
                await v._loop(ws, stop)
    except Exception as exc:                          # noqa: BLE001
        v.errors.append(f"{type(exc).__name__}: {exc}")


def _builders(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == pid and b"multiprocessing" in cmd and b"spawn_main" in cmd:
            out.append(int(d.name))
    return out


def test_reading_builds_one_per_session_and_cancelled_when_the_tab_leaves(app):
    port = app.port

    async def run():
        vs, tasks, stop = await tabs(port, 1)
        student = vs[0]
        import random
        widths = [round(random.uniform(60, 250), 3) for _ in range(4)]      # readings no cache has
        first = asyncio.create_task(ask(student, "trame.trigger", ["xsl_pack", [f"zheng,hall_width_chi={widths[0]}"],
                                                                 {}], timeout=120))
        await asyncio.sleep(0.3)
        more = [await ask(student, "trame.trigger", ["xsl_pack", [f"zheng,hall_width_chi={w}"], {}])
                for w in widths[1:]]
        teacher, ttasks, tstop = await tabs(port, 1)
        t0 = time.time()
        tq = await ask(teacher[0], "trame.trigger", ["xsl_pack", ["zheng"], {}])
        teacher_dt = time.time() - t0
        deadline = time.time() + 30
        while not _builders(app.proc.pid) and time.time() < deadline and not first.done():
            await asyncio.sleep(0.2)
        building = bool(_builders(app.proc.pid))
        stop.set()                                   # the student leaves mid-build
        await asyncio.gather(*tasks)
        first.cancel()
        deadline = time.time() + 10
        while _builders(app.proc.pid) and time.time() < deadline:
            await asyncio.sleep(0.2)
        gone = not _builders(app.proc.pid)
        tstop.set()
        await asyncio.gather(*ttasks)
        return more, tq, teacher_dt, building, gone

    more, tq, teacher_dt, building, gone = asyncio.run(run())
    assert all("building the reading" in m["result"]["error"] for m in more), more
    assert "url" in tq["result"] and teacher_dt < 1.0, (tq, teacher_dt)
    assert building and gone, (building, gone)


def test_wrong_presenter_keys_are_limited_and_logged(app):
    port = app.port
    before = len(app.log.read_bytes())
    good = {"stage": 3, "t": 10.0, "playing": False, "speed": 1, "view": "plan", "camera": None,
            "reading": "zheng", "client_ms": time.time() * 1000, "seq": 1}

    async def run():
        vs, tasks, stop = await tabs(port, 1)
        out = [await ask(vs[0], "trame.trigger", ["xsl_present", [good, f"guess-{i:08d}"], {}]) for i in range(40)]
        right = await ask(vs[0], "trame.trigger", ["xsl_present", [good, KEY], {}])
        stop.set()
        await asyncio.gather(*tasks)
        return out, right

    out, right = asyncio.run(run())
    compared = sum(1 for a in out if "presenter key (printed" in a["result"]["error"])
    assert compared <= 5 and sum(1 for a in out if "too many wrong" in a["result"]["error"]) >= 35
    # issue 45: the right key is never refused for others' wrong ones (a student behind the teacher's NAT
    # address stopped her presenting with five wrong keys); guessing is hopeless instead (a 32-character key)
    assert right["result"] == {"ok": True}, right
    time.sleep(0.3)
    assert "wrong presenter key" in app.log.read_bytes()[before:].decode("utf-8", "replace")


# --------------------------------------------------------------------------- 9. the small ones
@pytest.mark.parametrize("argv, word", [
    (["--host", ""], "--host"), (["--port", "abc"], "--port"), (["--timeout", "abc"], "--timeout"),
    (["--presenter-key", "abcd"], "--presenter-key")])
def test_bad_options_are_one_line(argv, word):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "app.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=60)
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
    assert p.returncode == 2 and len(lines) == 1 and word in lines[0], (p.returncode, lines)
    assert lines[0].startswith("app.py: error: ")


#: what pip writes for a console script (``xiangsheli = scene.launch:main``): sys.argv[0] is the script's path
CONSOLE_SCRIPT = """import re, sys
from scene.launch import main
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


@pytest.mark.parametrize("how", ["xiangsheli", "python -m scene app", "python -m scene.web.app"])
def test_an_error_names_the_program_the_user_ran(how, tmp_path):
    """Started as ``xiangsheli`` (or ``python -m scene app``), the app's error lines and its usage name that,
    not ``app.py`` (issue 44)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if how == "xiangsheli":
        script = tmp_path / "bin" / "xiangsheli"
        script.parent.mkdir()
        script.write_text(CONSOLE_SCRIPT)
        argv = [sys.executable, str(script)]
    else:
        argv = [sys.executable, *how.split()[1:]]
    p = subprocess.run([*argv, "--port", "abc"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
    assert p.returncode == 2 and len(lines) == 1, (p.returncode, lines)
    assert lines[0].startswith(f"{how}: error: ") and "--port" in lines[0] and "'abc'" in lines[0], lines
    assert f"({how} --help lists the options)" in lines[0]
    usage = subprocess.run([*argv, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert usage.returncode == 0 and usage.stdout.startswith(f"usage: {how} "), usage.stdout[:200]


# --------------------------------------------------------------------------- the cache's budget
def test_every_cache_file_counts_against_the_budget(tmp_path, monkeypatch):
    """Compiled rites and baked light count (they were counted against nothing); a pack handed out is kept
    GRACE s, not for the life of the server; the pinned default is kept."""
    from scene.web.pack import store
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "c"))
    monkeypatch.setattr(store, "_handed", {})
    monkeypatch.setattr(store, "_pinned", set())
    served, _ = store.roots()
    packs = []
    for name in ("pack-default", "pack-old", "pack-fresh"):
        d = served / name
        d.mkdir(parents=True)
        (d / "scene.bin").write_bytes(b"x" * 1000)
        (d / store.MANIFEST).write_text("{}")
        packs.append(d)
    baked = served.parent / "bake-123.npz"
    baked.write_bytes(b"y" * 5000)
    store.pin(packs[0])
    store._handed[packs[1]] = time.time() - store.GRACE - 1      # handed out long ago
    store._handed[packs[2]] = time.time()                        # just handed out
    gone = store.evict(budget=2500)
    assert baked in gone and packs[1] in gone
    assert packs[0].exists() and packs[2].exists()


def test_a_bad_chapter_is_one_line_at_once_and_builds_nothing(app):
    """xsl_pack's chapter (issue 43): anything but a chapter the app plays is one line, answered at once."""
    port = app.port

    async def run():
        vs, tasks, stop = await tabs(port, 1)
        t0 = time.time()
        out = [await ask(vs[0], "trame.trigger", ["xsl_pack", ["zheng", c], {}])
               for c in ("nope", "x" * 3000, ["xiangshe"], 5, {"id": "xiangyinjiu"}, "../xiangshe")]
        dt = time.time() - t0
        stop.set()
        await asyncio.gather(*tasks)
        return out, dt

    out, dt = asyncio.run(run())
    for a in out:
        err = a["result"]["error"]
        assert "not a chapter the app plays (xiangshe, xiangyinjiu)" in err and "\n" not in err and len(err) < 200, err
    assert dt < 2.0, dt
