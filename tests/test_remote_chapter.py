"""Without WebGL, the tab's chapter (issue 43): the remote view's frames and the no-WebGL still are of the chapter
the tab plays — a class on 鄉飲酒禮 on a school laptop with a blocklisted GPU saw 鄉射禮's hall and people, because
``xsl_frame`` and ``xsl_still`` took no chapter.  The server's own RemoteView, its worker process and VTK."""
from __future__ import annotations

import asyncio
import base64
import io
import os

import numpy as np
import pytest

os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")
pytestmark = pytest.mark.slow


def _picture(frame: dict) -> np.ndarray:
    from PIL import Image
    assert "error" not in frame, frame
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(frame["jpeg"]))).convert("L"), dtype=float)


def test_the_remote_view_draws_the_tabs_chapter():
    from scene.rite.cache import load_rite
    from scene.web.remote import RemoteView
    four = load_rite("zheng", chapter="xiangyinjiu")
    t = next(s for s in four.stages if s.n == 11).start_s + 60          # 升歌: the 工 on the 堂 of the 庠
    rv = RemoteView()

    async def frames():
        a = await rv.frame("zheng", t, "overview", None, False, "cutaway", None)
        b = await rv.frame("zheng", t, "overview", None, False, "cutaway", "xiangyinjiu")
        c = await rv.frame("zheng", t, "overview", None, False, "cutaway", "xiangyinjiu")
        bad = await rv.frame("zheng", t, "overview", None, False, "cutaway", "../etc")
        return a, b, c, bad
    try:
        a, b, c, bad = asyncio.run(frames())
    finally:
        rv.close()
    five_pic, four_pic, again = _picture(a), _picture(b), _picture(c)
    # the same moment and view of the two chapters: another hall (the 庠 with no range) and other people
    assert np.mean(np.abs(five_pic - four_pic) > 24) > 0.05
    assert np.mean(np.abs(four_pic - again) > 24) < 0.01                 # and the chapter's own, drawn again
    assert list(bad) == ["error"] and "not a chapter the app plays" in bad["error"] and "\n" not in bad["error"]


def test_the_no_webgl_still_takes_the_tabs_chapter(monkeypatch):
    """The still's job runs the still exporter with the tab's chapter (``--chapter``), and a chapter that is not
    one is one line before any job."""
    from scene.web import still as still_mod

    asked: list[list[str]] = []

    class Jobs:
        async def run(self, client, kind, make):
            argv, out, _ = make(__import__("pathlib").Path("/tmp"))
            asked.append(argv)
            return out, __import__("pathlib").Path("/tmp")

    class Service:
        jobs = Jobs()

        def _served(self, out, folder):
            return f"xslout/{out.name}"
    got = asyncio.run(still_mod.still(Service(), "zheng", 10.0, "auto", True, "cutaway", "xiangyinjiu"))
    assert "url" in got and asked[-1][-2:] == ["--chapter", "xiangyinjiu"]
    asyncio.run(still_mod.still(Service(), "zheng", 10.0, "auto", True, "cutaway", None))
    assert "--chapter" not in asked[-1]
    bad = asyncio.run(still_mod.still(Service(), "zheng", 10.0, "auto", True, "cutaway", "toy"))
    assert list(bad) == ["error"] and len(asked) == 2
