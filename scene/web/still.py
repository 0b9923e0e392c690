"""The still of the current moment, for a browser without WebGL (issue 27).

A school browser with a blocklisted GPU (or hardware acceleration turned off) makes no WebGL context, so the
page's 3D view cannot run; ``assets/web/still-view.js`` then shows, in its place, the picture the still
exporter draws of the moment the teacher is at (``python -m scene still``: the same labels and caption band),
asked again at each step.  It is an export job like the PNG (one at a time on the server, the tab's own),
at the size of a projector's picture, so a class can still be run from a clicker.
"""
from __future__ import annotations

import math
import time
from pathlib import Path

#: the size of the no-WebGL still (a projector's 720p: about 2–4 s a still on this machine's exporter)
STILL_SIZE = (1280, 720)
ROOFS = ("cutaway", "solid", "ghost", "none")


def moment_error(t, view, roof) -> tuple[str | None, str]:
    """A tab's moment checked before any work (the still and the remote view's frames): (one line or None, the
    view — a name not known is the director's)."""
    from ..render import views as views_mod
    from .guard import short
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or not 0 <= t <= 1e6:
        return f"t {short(t)}: not a time", "auto"
    if not isinstance(roof, str) or roof not in ROOFS:
        return f"roof {short(roof)}: cutaway, solid, ghost or none", "auto"
    if not isinstance(view, str) or (view != "auto" and view not in views_mod.VIEWS):
        view = "auto"
    return None, view


async def still(service, query=None, t=0.0, view="auto", labels=True, roof="cutaway", chapter=None) -> dict:
    """The still of the moment t (rite seconds) of the tab's chapter under its reading, by the named view: {url,
    t} or {error: one line}."""
    from ..geometry import readings as readings_mod
    from .guard import CLIENT
    from .jobs import JobError
    bad, view = moment_error(t, view, roof)
    if bad:
        return {"error": bad}
    from .chapters import chapter_argv
    try:
        # the one parser with its cap (issue 45: the still had none; a 200 KB reading froze every tab for 24 s)
        r = readings_mod.from_query("zheng" if query is None or query == "" else query)
        extra = chapter_argv(chapter)
    except ValueError as exc:                     # a reading's or a chapter's: one line
        return {"error": str(exc)}
    w, h = STILL_SIZE

    def make(folder: Path):
        out = folder / f"still-{int(time.time() * 1000)}-{w}x{h}.png"
        return (["still", "--t", f"{float(t):.3f}", "--view", view, "--size", f"{w}x{h}",
                 "--reading", readings_mod.to_query(r), "--labels" if labels else "--no-labels",
                 "--roof", roof, "--out", str(out), *extra], out, None)
    try:
        out, folder = await service.jobs.run(CLIENT.get(), "still", make)
    except JobError as exc:
        return {"error": str(exc)}
    return {"url": service._served(out, folder), "t": float(t)}


def register(server, service) -> None:
    """The ``xsl_still`` trigger (the page asks only for its own tab)."""
    async def xsl_still(query=None, t=0.0, view="auto", labels=True, roof="cutaway", chapter=None) -> dict:
        return await still(service, query, t, view, labels, roof, chapter)
    server.controller.trigger("xsl_still")(xsl_still)
