"""The remote view (issue 42): without WebGL the class still sees the rite move, and can orbit and zoom.

A browser with no WebGL (a blocklisted school GPU) cannot run the player; the page then shows frames the server
renders of the same scene the stills use (:class:`scene.render.studio.Studio`: the pack's baked static layers,
the figures posed at t, labels and the caption band), one after the other as fast as the server draws them —
trame's remote-view design (server-side VTK, images streamed to the page) without its widget: the page
(``assets/web/still-view.js``) asks for the next frame as soon as one arrives, with the moment and, once the
teacher has dragged or zoomed, its own camera; the latest request wins.

The renderer lives in one worker process (VTK's drawing would stall the server's event loop), which keeps one
Studio per reading and roof; a frame is a JPEG (quality 80) at 1280×720, about 60–120 kB.
"""
from __future__ import annotations

import asyncio
import base64
import io
import math
import time
from concurrent.futures import ProcessPoolExecutor

#: the remote view's size: a projector's 720p
SIZE = (1280, 720)
ROOFS = ("cutaway", "solid", "ghost", "none")
_studios: dict = {}


def _studio(query: str, roof: str, chapter: str | None = None):
    from ..render.studio import Studio
    from ..rite.cache import load_rite
    key = (query, roof, chapter)
    if key not in _studios:
        while len(_studios) >= 2:                     # two readings (or chapters) at most in memory
            _studios.pop(next(iter(_studios))).close()
        # the tab's chapter: without it a class on 鄉飲酒禮 with no WebGL saw 鄉射禮's hall and people
        rite = load_rite(query, chapter=chapter) if chapter else None
        _studios[key] = Studio(query, SIZE, roof=roof, antialias=False, rite=rite)
    return _studios[key]


def render_frame(query: str, t: float, view: str, camera: dict | None, labels: bool, roof: str,
                 chapter: str | None = None) -> dict:
    """One frame (in the worker): {"jpeg": base64, "camera": the camera used, "ms": render time}."""
    from PIL import Image

    from ..render import views as views_mod
    t0 = time.perf_counter()
    studio = _studio(query, roof, chapter)
    t = min(max(0.0, t), studio.rite.duration)
    cam = views_mod.camera_from_json(camera) if camera else None
    still = studio.render(t, view, labels=labels, caption=True, camera=cam)
    buf = io.BytesIO()
    Image.fromarray(still.image).save(buf, format="JPEG", quality=80)
    c = still.camera
    used = {"position": list(c.position), "focal_point": list(c.focal_point), "view_up": list(c.view_up),
            "view_angle": c.view_angle, "parallel": c.parallel, "parallel_scale": c.parallel_scale}
    return {"jpeg": base64.b64encode(buf.getvalue()).decode("ascii"), "camera": used, "t": t,
            "ms": round(1000 * (time.perf_counter() - t0), 1)}


class RemoteView:
    """The worker and the one frame in flight per tab (a new request while one renders waits for it)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing as mp
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"))
        return self._pool

    async def frame(self, query, t, view, camera, labels, roof, chapter=None) -> dict:
        from ..geometry import readings as readings_mod
        from .chapters import DEFAULT_CHAPTER, chapter_of
        from .still import moment_error
        bad, view = moment_error(t, view, roof)
        if bad:
            return {"error": bad}
        try:
            chapter = chapter_of(chapter)
        except ValueError as exc:
            return {"error": str(exc)}
        if camera is not None and not _camera_ok(camera):
            return {"error": "camera: not a camera"}
        try:
            r = readings_mod.from_query(query or "zheng") if isinstance(query, (str, type(None))) else None
            if r is None:
                raise readings_mod.ReadingError("reading: not a reading's query")
        except readings_mod.ReadingError as exc:
            return {"error": str(exc)}
        loop = asyncio.get_running_loop()
        async with self._lock:                       # one frame at a time: the worker draws one
            try:
                return await loop.run_in_executor(self._executor(), render_frame, readings_mod.to_query(r),
                                                  float(t), view, camera, bool(labels), roof,
                                                  None if chapter == DEFAULT_CHAPTER else chapter)
            except Exception as exc:                 # a worker that died: the next frame starts a new one
                self.close()
                return {"error": f"the remote view could not draw: {type(exc).__name__}: {exc}"[:300]}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _camera_ok(c) -> bool:
    def vec(v):
        return isinstance(v, (list, tuple)) and len(v) == 3 and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and abs(x) <= 1e4 for x in v)
    if not isinstance(c, dict) or not vec(c.get("position")) or not vec(c.get("focal_point")):
        return False
    if c.get("view_up") is not None and not vec(c.get("view_up")):
        return False
    va = c.get("view_angle", 30.0)
    return isinstance(va, (int, float)) and 1 <= va <= 120


def register(server, service) -> RemoteView:
    """The ``xsl_frame`` trigger (a tab without WebGL asks for its next frame)."""
    rv = RemoteView()

    async def xsl_frame(query=None, t=0.0, view="auto", camera=None, labels=True, roof="cutaway",
                        chapter=None) -> dict:
        return await rv.frame(query, t, view, camera, labels, roof, chapter)
    server.controller.trigger("xsl_frame")(xsl_frame)
    return rv
