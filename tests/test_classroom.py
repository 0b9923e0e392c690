"""A classroom on one server: a presenter tab drives, follower tabs (Chromium) and headless viewers
(websocket clients, scene/wsviewer.py) follow; tabs without ?follow stay independent."""
from __future__ import annotations

import asyncio
import threading

import pytest

from webtools import READY, chromium, chromium_missing_reason, free_port, start_app

KEY = "classroom-test-key"
pytestmark = [pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason())),
              pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def port():
    p = free_port()
    proc = start_app(p, "--presenter-key", KEY)
    yield p
    proc.terminate()
    proc.wait(10)


def test_presenter_drives_followers_and_viewers_while_others_explore(port):
    from scene.web.wsviewer import classroom
    url = f"http://127.0.0.1:{port}/"
    result: dict = {}

    def browsers(ready: threading.Event, done: threading.Event):
        try:
            drive(ready)
        except Exception as exc:                          # reported by the assertions below
            result["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
        done.set()

    def drive(ready: threading.Event):
        with chromium() as b:
            ctx = b.new_context(viewport={"width": 1024, "height": 640})
            pres, f1, f2, solo = (ctx.new_page() for _ in range(4))
            pres.goto(url + f"?present=1&key={KEY}&stage=14")
            f1.goto(url + "?follow=1")
            f2.goto(url + "?follow=1&classroom=1")
            solo.goto(url)
            for p in (pres, f1, f2, solo):
                p.wait_for_function(READY, timeout=120000)
            ready.wait(60)
            for n in (15, 16, 17):
                pres.keyboard.press("PageDown")
                pres.wait_for_function(f"window.trame.state.get('stage_n') === {n}", timeout=10000)
            want = 17
            for f in (f1, f2):
                f.wait_for_function(f"window.trame.state.get('stage_n') === {want}", timeout=10000)
            pres.keyboard.press("4")                      # the presenter's view reaches the followers
            f1.wait_for_function("window.trame.state.get('view') === 'plan'", timeout=10000)
            result.update(want=want, solo=solo.evaluate("window.trame.state.get('stage_n')"),
                          banner=f1.inner_text("#xsl-live"), seen=f2.evaluate("window.trame.state.get('live_seen')"))
            # a follower can leave and explore on its own
            f1.click("#xsl-explore")
            f1.keyboard.press("PageDown")
            f1.wait_for_function(f"window.trame.state.get('stage_n') === {want + 1}")
            for n in (18, 19):
                pres.keyboard.press("PageDown")
                pres.wait_for_function(f"window.trame.state.get('stage_n') === {n}", timeout=10000)
            final = 19
            f2.wait_for_function(f"window.trame.state.get('stage_n') === {final}", timeout=10000)
            result["left"] = f1.evaluate("window.trame.state.get('stage_n')")
            result["pres_final"] = final
            ctx.close()

    async def run():
        stop = asyncio.Event()
        viewers, tasks = await classroom(f"ws://127.0.0.1:{port}/ws", 5, stop)
        ready, done = threading.Event(), threading.Event()
        th = threading.Thread(target=browsers, args=(ready, done), daemon=True)
        th.start()
        ready.set()
        while not done.is_set() and th.is_alive():
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*tasks)
        return viewers

    viewers = asyncio.run(run())
    assert "error" not in result, result["error"]
    assert result.get("want") == 17, result
    assert result["solo"] == 1                            # a tab without ?follow is not moved
    assert "following" in result["banner"]
    assert result["seen"]["stage"] == 17
    assert result["left"] == result["want"] + 1            # left the presenter: stays where it went
    assert result["pres_final"] == 19
    for v in viewers:
        assert not v.errors, v.errors
        stages = [live["stage"] for _, live in v.received]
        assert result["want"] in stages and stages == sorted(stages)
