"""Serving that cannot be stalled (issue 45): downloads of the 4 MB pack that never read and others on a
50 KB/s link (80 s each), beside a presenter and a follower, against a real server on loopback.

What failed before: the gate's idle sweep counted a response still being sent as idle and aborted it
mid-``sendfile`` after 10 s — a reader slower than the pack's size per 10 s never got it, and every aborted
download left its file open in the server (asyncio's sendfile waited for ever on the aborted socket). What must
hold: every slow reader gets its whole file, every stalled one is closed by the send timeout, the server's open
files come back to where they were, and the follower keeps its presenter's updates (no gap over 2 s).
"""
from __future__ import annotations

import asyncio
import os
import time

import pytest
from downloads import Crowd, files_named, gaps, open_files
from webtools import free_port, rss_mb, start_app

#: the follower's 2 s is a time: the test runs alone, after the others (tests/run.sh), as the other timing tests do
pytestmark = [pytest.mark.slow, pytest.mark.timing]

KEY = "soak-presenter-key-45"
#: stalled downloads (a hundred per address) and readers at 50 KB/s: the issue's 1 000 and 100. The downloaders run
#: in a process of their own (:class:`downloads.Crowd`); in the test's own process they delayed its follower (2.0 s
#: there with 1 000, 1.3 s from a child process on the same machine). ``XSL_SOAK_STALLED`` / ``XSL_SOAK_SLOW`` set
#: other figures (300 and 30: the size this test ran at beside another worker before)
STALLED, SLOW, RATE = (int(os.environ.get("XSL_SOAK_STALLED", 1000)), int(os.environ.get("XSL_SOAK_SLOW", 100)),
                       50_000)


async def publish(presenter, stop: asyncio.Event, out: list) -> None:
    """The presenter: a state twice a second (what a teacher's tab sends as she plays)."""
    seq = 0
    while not stop.is_set():
        seq += 1
        payload = {"stage": 1 + seq % 40, "t": float(seq % 600), "playing": True, "speed": 1.0,
                   "view": "overview", "camera": None, "reading": "zheng", "client_ms": time.time() * 1000,
                   "seq": seq}
        res = await presenter.ask("trame.trigger", ["xsl_present", [payload, KEY], {}], 30)
        if (res or {}).get("result") != {"ok": True}:
            out.append(f"presenter: {res}")
        await asyncio.sleep(0.5)


def test_stalled_and_slow_downloads_stall_nobody_and_leak_no_file():
    from scene.web.wsviewer import classroom
    port = free_port()
    proc = start_app(port, "--presenter-key", KEY)
    try:
        async def run():
            stop = asyncio.Event()
            (presenter, follower), tasks = await classroom(f"ws://127.0.0.1:{port}/ws", 2, stop)
            got = await presenter.ask("trame.trigger", ["xsl_pack", ["zheng"], {}], 120)
            url = "/" + got["result"]["url"]
            await asyncio.sleep(1.0)
            base_fds, base_mb = open_files(proc.pid), rss_mb(proc.pid)
            errors: list[str] = []
            playing = asyncio.create_task(publish(presenter, stop, errors))
            t0 = time.time()
            # the downloaders in a process of their own (a classroom's other machines), all at once
            crowd = Crowd(port, url + "scene.bin", STALLED, SLOW, RATE)
            peak = [base_fds, base_mb]

            async def sample():
                while not stop.is_set():
                    peak[0], peak[1] = max(peak[0], open_files(proc.pid)), max(peak[1], rss_mb(proc.pid))
                    await asyncio.sleep(1.0)
            sampler = asyncio.create_task(sample())
            try:
                got = await crowd.done()
                # every stalled download is closed by the server (its send timeout), none waits for us: its open
                # files come back to the baseline while the stalled sockets are still open on our side (reading
                # them to see their end would un-stall them)
                deadline = time.time() + 60
                while open_files(proc.pid) > base_fds + 2 and time.time() < deadline:
                    await asyncio.sleep(1.0)
                t1 = time.time()
                closed_fds = open_files(proc.pid)
            finally:
                crowd.close()
            slow, stalled = got["slow"], got["stalled"]
            await asyncio.sleep(3.0)
            after_fds, after_mb = open_files(proc.pid), rss_mb(proc.pid)
            left_open = files_named(proc.pid, "scene.bin") + files_named(proc.pid, "scene.json")
            stop.set()
            await playing
            await sampler
            peak_fds, peak_mb = peak
            await asyncio.gather(*tasks)
            gap, gap_at = gaps([at / 1000.0 for at, _ in follower.received], t0, t1)
            return dict(slow=slow, stalled=stalled, closed_fds=closed_fds, fds=(base_fds, peak_fds, after_fds), settled=t1 - t0,
                        mb=(base_mb, peak_mb, after_mb), left_open=left_open, gap=gap, gap_at=gap_at, errors=errors,
                        viewer_errors=presenter.errors + follower.errors, seconds=t1 - t0,
                        received=len(follower.received))

        out = asyncio.run(run())
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"\nsoak: {out['stalled']} stalled, {SLOW} slow in {out['seconds']:.0f} s (files back in {out['settled']:.0f} s); open files "
          f"{out['fds'][0]} → peak {out['fds'][1]} → {out['fds'][2]}; memory {out['mb'][0]:.0f} → peak "
          f"{out['mb'][1]:.0f} → {out['mb'][2]:.0f} MB; follower's longest gap {out['gap']:.2f} s at {out['gap_at']:.0f} s "
          f"({out['received']} updates)")
    bad = [r for r in out["slow"] if not r["ok"]]
    assert not bad, f"{len(bad)} of {SLOW} slow readers did not get their file: {bad[:3]}"
    assert out["stalled"] >= 0.95 * STALLED, out["stalled"]
    assert out["closed_fds"] <= out["fds"][0] + 2, f"{out['closed_fds']} files open with the stalled sockets"
    assert out["left_open"] == 0, f"{out['left_open']} files still open in the server"
    assert out["fds"][2] <= out["fds"][0] + 2, f"open files {out['fds']} (before, peak, after)"
    assert not out["errors"] and not out["viewer_errors"], (out["errors"][:3], out["viewer_errors"][:3])
    assert out["gap"] <= 2.0, f"the follower waited {out['gap']:.1f} s for its presenter"
