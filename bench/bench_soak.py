"""Soak: many viewers on one app for minutes, with a presenter, exports and reading switches.

    python bench/bench_soak.py [--viewers 40] [--minutes 5] [--export-every 60] [--switch-every 30]
                               [--stalled 1000] [--slow 100]

Starts ``python app.py`` (a fresh presenter key), connects the viewers (``scene/web/wsviewer.py``, trame's
wire protocol), and for the duration: a presenter (one more websocket client, with the key) publishes a
state twice a second; every ``--switch-every`` s a viewer asks for a reading (the presets in turn); every
``--export-every`` s a viewer asks for a PNG export. Prints the server's memory (start, end, peak), every
error, the disconnects, and the lag from the presenter's publish to each viewer's receipt (median, p95, max).
Two hostile clients run beside them the whole time (issue 26): a tab that says hello and then never reads
its socket while it keeps calling (the server must drop it, and it comes back), and a slowloris that keeps
up to 200 half-sent HTTP requests open. Every 2 s five viewers in turn ask a small call (their place in the
export queue): the slowest answer is printed. Exit 1 when a viewer saw an error or a disconnect, the memory
grew more than 25 % after the warm-up, or a tab waited more than 1 s for an answer.

Downloads (issue 45, :mod:`tests.downloads`): ``--stalled`` downloads of the pack that never read a byte (a
hundred per loopback address, 127.0.0.2 on) and ``--slow`` ones read at 50 KB/s, all started once the class is
in. Prints the server's open files (before, peak, after the stalled sockets were closed), how many slow readers
got the whole pack, and each viewer's longest wait for a presenter update; exit 1 as well when a slow reader did
not get its pack, the open files did not come back to their count before, or a viewer waited more than 2 s.
"""
from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from downloads import Crowd, files_named, gaps, open_files  # noqa: E402
from test_hostile_server import raw_ws, rpc, secret_and_cookie  # noqa: E402
from webtools import free_port, rss_mb, start_app  # noqa: E402

KEY = "soak-presenter-key"
READINGS = ("xiang", "wu1991", "zheng", "zhou8cun", "wangzhi")


async def ask(v, method, args, timeout=300.0):
    a = await v.ask(method, args, timeout)
    return a if a is not None else {"error": f"{method}: no answer in {timeout:.0f} s"}


def non_reader(port: int, halt: threading.Event, out: dict) -> None:
    """A tab that stops reading: hello, then calls whose answers it never reads; dropped, it comes back."""
    burst = b"".join(rpc("trame.state.get", [], n=i) for i in range(100))
    while not halt.is_set():
        try:
            secret, cookie = secret_and_cookie(port)
            s = raw_ws(port, cookie, rcvbuf=4096)
            if not isinstance(s, socket.socket):
                out["refused"] = out.get("refused", 0) + 1
                time.sleep(1)
                continue
            s.sendall(rpc("wslink.hello", [{"secret": secret}], system=True))
            s.settimeout(20)
            while not halt.is_set():
                s.sendall(burst)
                time.sleep(0.05)
        except OSError:
            out["dropped"] = out.get("dropped", 0) + 1
        time.sleep(0.5)


def slowloris(port: int, halt: threading.Event, out: dict, n: int = 200) -> None:
    """Up to ``n`` half-sent HTTP requests, a header byte now and then; the closed ones are reopened."""
    socks: list[socket.socket] = []
    i = 0
    while not halt.is_set():
        while len(socks) < n and not halt.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", port), 2)
                s.sendall(f"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                socks.append(s)
            except OSError:
                break
        alive = []
        for s in socks:
            try:
                i += 1
                s.sendall(f"X-{i}: y\r\n".encode())
                alive.append(s)
            except OSError:
                out["closed"] = out.get("closed", 0) + 1
                s.close()
        socks = alive
        halt.wait(2.0)
    for s in socks:
        s.close()


async def soak(port: int, pid: int, n: int, seconds: float, export_every: float, switch_every: float,
               n_stalled: int = 0, n_slow: int = 0) -> dict:
    from scene.web.wsviewer import classroom
    stop = asyncio.Event()
    viewers, tasks = await classroom(f"ws://127.0.0.1:{port}/ws", n + 1, stop)
    got = await ask(viewers[0], "trame.trigger", ["xsl_pack", ["zheng"], {}])
    pack = "/" + got["result"]["url"] + "scene.bin"
    # warm-up: one reading switch and one export before the count of open files, so that what they keep for
    # the next ones (the build's process pool and its pipes) is in the count before, not taken for a leak
    await ask(viewers[1 % len(viewers)], "trame.trigger", ["xsl_pack", [READINGS[-1]], {}])
    await ask(viewers[1 % len(viewers)], "trame.trigger", ["xsl_export", ["zheng", 60.0, None, "plan", "1080p", False,
                                                                         "none"], {}])
    await asyncio.sleep(1.0)
    fds = [open_files(pid)]
    # the downloaders in a process of their own (in this one they delayed the viewers' receipts: the gaps then
    # measured this process, not the server)
    loaders = Crowd(port, pack, n_stalled, n_slow, 50_000) if n_stalled or n_slow else None
    # the hostile clients come once the class is in (on loopback they share its address, and so its caps)
    halt, hostile = threading.Event(), {}
    threads = [threading.Thread(target=f, args=(port, halt, hostile), daemon=True) for f in (non_reader, slowloris)]
    for th in threads:
        th.start()
    presenter, crowd = viewers[0], viewers[1:]
    mem = [(0.0, rss_mb(pid))]
    errors: list[str] = []
    t0 = time.time()
    seq = 0
    next_export, next_switch, next_mem = t0 + 10, t0 + 5, t0 + 5
    busy: set[asyncio.Task] = set()

    async def side(name, coro):
        res = await coro
        if "error" in res or "error" in (res.get("result") or {}):
            errors.append(f"{name}: {res.get('error') or res['result']['error']}")

    answers: list[float] = []

    async def ping(v):
        t1 = time.time()
        res = await ask(v, "trame.trigger", ["xsl_queue", [], {}], 30)
        answers.append(time.time() - t1)
        if "error" in res:
            errors.append(f"queue: {res['error']}")

    k, next_ping = 0, t0 + 2
    while time.time() - t0 < seconds:
        seq += 1
        now = time.time()
        payload = {"stage": 1 + seq % 40, "t": float(seq % 600), "playing": True, "speed": 1.0, "view": "overview",
                   "camera": None, "reading": "zheng", "client_ms": now * 1000, "seq": seq}
        res = await ask(presenter, "trame.trigger", ["xsl_present", [payload, KEY], {}], 30)
        if (res.get("result") or {}) != {"ok": True}:
            errors.append(f"presenter: {res}")
        if now >= next_switch:
            v = crowd[k % len(crowd)]
            t = asyncio.create_task(side("reading", ask(v, "trame.trigger", ["xsl_pack", [READINGS[k % len(READINGS)]], {}])))
            busy.add(t)
            t.add_done_callback(busy.discard)
            k += 1
            next_switch = now + switch_every
        if now >= next_export:
            v = crowd[(k * 7 + 3) % len(crowd)]
            t = asyncio.create_task(side("export", ask(v, "trame.trigger", [
                "xsl_export", ["zheng", 60.0, None, "plan", "1080p", False, "none"], {}])))
            busy.add(t)
            t.add_done_callback(busy.discard)
            next_export = now + export_every
        if now >= next_ping:
            for j in range(5):
                t = asyncio.create_task(ping(crowd[(seq * 5 + j) % len(crowd)]))
                busy.add(t)
                t.add_done_callback(busy.discard)
            next_ping = now + 2
        if now >= next_mem:
            mem.append((now - t0, rss_mb(pid)))
            fds.append(open_files(pid))
            next_mem = now + 5
        await asyncio.sleep(0.5)
    published = time.time()                    # the presenter stops here: the viewers' waits count until now
    if busy:
        await asyncio.wait(busy, timeout=300)
    halt.set()
    for th in threads:
        th.join(10)
    got = await loaders.done() if loaders else {"stalled": 0, "slow": []}
    deadline = time.time() + 60                # the server closes the stalled ones (its send timeout)
    while open_files(pid) > fds[0] + 2 and time.time() < deadline:
        await asyncio.sleep(1.0)
    fds.append(open_files(pid))                # with the stalled sockets still open on our side
    if loaders:
        loaders.close()
    await asyncio.sleep(2.0)
    fds += [open_files(pid), files_named(pid, "scene.bin")]
    mem.append((time.time() - t0, rss_mb(pid)))
    stop.set()
    await asyncio.gather(*tasks)
    lags = []
    for v in crowd:
        for at, live in v.received:
            lags.append(at - live["server_ms"])
    return {"mem": mem, "errors": errors, "viewer_errors": [e for v in viewers for e in v.errors],
            "lags": lags, "sent": seq, "received": [len(v.received) for v in crowd], "answers": answers,
            "hostile": hostile, "fds": fds, "slow": got["slow"], "stalled": got["stalled"],
            "gaps": [gaps([at / 1000.0 for at, _ in v.received], t0 + 1, published)[0] for v in crowd]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--export-every", type=float, default=60.0)
    ap.add_argument("--switch-every", type=float, default=30.0)
    ap.add_argument("--stalled", type=int, default=1000, help="downloads that never read")
    ap.add_argument("--slow", type=int, default=100, help="downloads read at 50 KB/s")
    a = ap.parse_args(argv)
    port = free_port()
    proc = start_app(port, "--presenter-key", KEY)
    try:
        out = asyncio.run(soak(port, proc.pid, a.viewers, a.minutes * 60, a.export_every, a.switch_every,
                             a.stalled, a.slow))
    finally:
        proc.terminate()
        proc.wait(10)
    mem = [m for _, m in out["mem"]]
    warm = mem[min(2, len(mem) - 1)]
    lags = sorted(out["lags"]) or [float("nan")]
    print(f"{a.viewers} viewers × {a.minutes:g} min: presenter sent {out['sent']}, each viewer received "
          f"{min(out['received'])}–{max(out['received'])}")
    print(f"server memory: start {mem[0]:.0f} MB, after warm-up {warm:.0f} MB, end {mem[-1]:.0f} MB, "
          f"peak {max(mem):.0f} MB")
    print(f"lag presenter → viewer: median {statistics.median(lags):.1f} ms, "
          f"p95 {lags[int(0.95 * (len(lags) - 1))]:.1f} ms, max {lags[-1]:.1f} ms")
    print(f"errors: {len(out['errors'])} {out['errors'][:5]}; viewer errors/disconnects: "
          f"{len(out['viewer_errors'])} {out['viewer_errors'][:5]}")
    ans = sorted(out["answers"]) or [float("nan")]
    print(f"small calls: {len(ans)}, median {1000 * statistics.median(ans):.0f} ms, max {1000 * ans[-1]:.0f} ms; "
          f"hostile: the non-reading tab dropped {out['hostile'].get('dropped', 0)} times, slowloris requests "
          f"closed by the server {out['hostile'].get('closed', 0)}")
    fds = out["fds"]
    ok_slow = sum(r["ok"] for r in out["slow"])
    gap = max(out["gaps"] or [float("nan")])
    print(f"downloads: {out['stalled']} stalled, {ok_slow} of {len(out['slow'])} slow readers got the whole pack; "
          f"open files: before {fds[0]}, peak {max(fds[:-3])}, {fds[-3]} once the server closed the stalled ones, "
          f"after {fds[-2]} ({fds[-1]} packs still open); "
          f"longest wait of a viewer for a presenter update {gap:.2f} s")
    leaked = fds[-3] > fds[0] + 2 or fds[-2] > fds[0] + 2 or fds[-1] > 0
    if leaked:
        print("the open files did not come back to their count before")
    cut = ok_slow < len(out["slow"])
    if cut:
        print("a slow reader did not get its pack: " + "; ".join(r["why"] for r in out["slow"] if not r["ok"])[:200])
    starved = gap > 2.0
    if starved:
        print("a viewer waited more than 2 s for a presenter update")
    grew = mem[-1] > 1.25 * warm
    if grew:
        print("memory grew more than 25 % after the warm-up")
    slow = ans[-1] > 1.0
    if slow:
        print("a tab waited more than 1 s for an answer")
    return 1 if out["errors"] or out["viewer_errors"] or grew or slow or leaked or cut or starved else 0


if __name__ == "__main__":
    sys.exit(main())
