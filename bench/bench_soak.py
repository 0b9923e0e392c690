"""Soak: many viewers on one app for minutes, with a presenter, exports and reading switches.

    python bench/bench_soak.py [--viewers 40] [--minutes 5] [--export-every 60] [--switch-every 30]

Starts ``python app.py`` (a fresh presenter key), connects the viewers (``scene/web/wsviewer.py``, trame's
wire protocol), and for the duration: a presenter (one more websocket client, with the key) publishes a
state twice a second; every ``--switch-every`` s a viewer asks for a reading (the presets in turn); every
``--export-every`` s a viewer asks for a PNG export. Prints the server's memory (start, end, peak), every
error, the disconnects, and the lag from the presenter's publish to each viewer's receipt (median, p95, max).
Exit 1 when a viewer saw an error or a disconnect, or the memory grew more than 25 % after the warm-up.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from webtools import free_port, rss_mb, start_app  # noqa: E402

KEY = "soak-presenter-key"
READINGS = ("xiang", "wu1991", "zheng", "zhou8cun", "wangzhi")


async def ask(v, method, args, timeout=300.0):
    await v.call(method, args)
    rid = f"rpc:c0:{v._rpc}"
    t0 = time.time()
    while time.time() - t0 < timeout:
        for a in v.answers:
            if a.get("id") == rid:
                v.answers.remove(a)
                return a
        await asyncio.sleep(0.05)
    return {"error": f"{method}: no answer in {timeout:.0f} s"}


async def soak(port: int, pid: int, n: int, seconds: float, export_every: float, switch_every: float) -> dict:
    from scene.web.wsviewer import classroom
    stop = asyncio.Event()
    viewers, tasks = await classroom(f"ws://127.0.0.1:{port}/ws", n + 1, stop)
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

    k = 0
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
        if now >= next_mem:
            mem.append((now - t0, rss_mb(pid)))
            next_mem = now + 5
        await asyncio.sleep(0.5)
    if busy:
        await asyncio.wait(busy, timeout=300)
    mem.append((time.time() - t0, rss_mb(pid)))
    stop.set()
    await asyncio.gather(*tasks)
    lags = []
    for v in crowd:
        for at, live in v.received:
            lags.append(at - live["server_ms"])
    return {"mem": mem, "errors": errors, "viewer_errors": [e for v in viewers for e in v.errors],
            "lags": lags, "sent": seq, "received": [len(v.received) for v in crowd]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--export-every", type=float, default=60.0)
    ap.add_argument("--switch-every", type=float, default=30.0)
    a = ap.parse_args(argv)
    port = free_port()
    proc = start_app(port, "--presenter-key", KEY)
    try:
        out = asyncio.run(soak(port, proc.pid, a.viewers, a.minutes * 60, a.export_every, a.switch_every))
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
    grew = mem[-1] > 1.25 * warm
    if grew:
        print("memory grew more than 25 % after the warm-up")
    return 1 if out["errors"] or out["viewer_errors"] or grew else 0


if __name__ == "__main__":
    sys.exit(main())
