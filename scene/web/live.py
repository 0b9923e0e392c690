"""The presenter's state, checked: a key to present, and a payload every follower can apply as it is.

A tab presents with the presenter key (made at each start and printed with the address, or
``--presenter-key``); the server keeps only the fields a follower uses, each checked for type and range,
and refuses a payload over :data:`MAX_PAYLOAD` bytes.  A reading in it is kept only when it is a preset or a
pack this server has already built (so a rogue presenter cannot make every follower ask for new builds).
The page checks the same again before applying (``assets/web/app.js``: ``liveOk``).
"""
from __future__ import annotations

import json
import math
import secrets

#: the most a presenter's payload may weigh (JSON bytes)
MAX_PAYLOAD = 4096
VIEWS = ("auto", "overview", "hall", "range", "plan", "archer", "target", "guest")   # auto: the director's camera
#: a coordinate beyond this (metres) is not a camera of this scene
MAX_COORD = 10_000.0


class LiveError(ValueError):
    """A refused presenter payload (one line)."""


def new_key() -> str:
    """A fresh presenter key: 32 url-safe characters (192 bits), so guessing is hopeless and no lockout is
    needed that would also refuse the teacher behind the same address (issue 45)."""
    return secrets.token_urlsafe(24)


def key_ok(given, key: str) -> bool:
    return isinstance(given, str) and len(given) < 200 and secrets.compare_digest(given.encode(), key.encode())


def _num(d: dict, k: str, lo: float, hi: float, default=None) -> float:
    v = d.get(k, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not lo <= v <= hi:
        raise LiveError(f"{k}: not a number in {lo:g}…{hi:g}")
    return float(v)


def _vec(d: dict, k: str) -> list[float]:
    v = d.get(k)
    if not isinstance(v, list) or len(v) != 3:
        raise LiveError(f"camera.{k}: three numbers")
    out = []
    for c in v:
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) or abs(c) > MAX_COORD:
            raise LiveError(f"camera.{k}: three finite numbers")
        out.append(float(c))
    return out


def clean_camera(c) -> dict | None:
    """The camera fields the player applies, checked; None stays None (the named view)."""
    if c is None:
        return None
    if not isinstance(c, dict):
        raise LiveError("camera: not an object")
    cam = {k: _vec(c, k) for k in ("position", "focal_point", "view_up")}
    if math.dist(cam["position"], cam["focal_point"]) < 1e-6:
        raise LiveError("camera: position equals focal_point")
    if math.hypot(*cam["view_up"]) < 1e-6:
        raise LiveError("camera: view_up is zero")
    cam["view_angle"] = _num(c, "view_angle", 1.0, 120.0, 30.0)
    parallel = c.get("parallel", False)
    if not isinstance(parallel, bool):
        raise LiveError("camera.parallel: true or false")
    cam["parallel"] = parallel
    cam["parallel_scale"] = _num(c, "parallel_scale", 1e-3, MAX_COORD, 1.0)
    return cam


def clean_payload(p, reading_known, chapter_known=None) -> dict:
    """The presenter's payload reduced to what a follower applies; ``reading_known(q)`` → the normalised
    query when the reading may be followed, else None; ``chapter_known(id)`` the same for the chapter."""
    if not isinstance(p, dict):
        raise LiveError("not an object")
    try:
        size = len(json.dumps(p, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        raise LiveError("not plain JSON") from None
    if size > MAX_PAYLOAD:
        raise LiveError(f"{size:,} bytes (the cap is {MAX_PAYLOAD:,})")
    stage = p.get("stage")
    if isinstance(stage, bool) or not isinstance(stage, int) or not 0 <= stage <= 1000:
        raise LiveError("stage: a section number")
    playing = p.get("playing", False)
    if not isinstance(playing, bool):
        raise LiveError("playing: true or false")
    view = p.get("view", "overview")
    if view not in VIEWS:
        raise LiveError(f"view: one of {', '.join(VIEWS)}")
    out = {"stage": stage, "t": _num(p, "t", 0.0, 1e6), "playing": playing,
           "speed": _num(p, "speed", 0.1, 16.0, 1.0), "view": view, "camera": clean_camera(p.get("camera")),
           "reading": None, "client_ms": _num(p, "client_ms", 0.0, 1e14, 0.0),
           "seq": int(_num(p, "seq", 0, 1e12, 0))}
    # what the presenter's class sees besides the picture (issue 27): the script (繁/简) and the caption of
    # the lesson's stop, as text (a follower may not have the lesson: a teacher's own lives in her browser)
    lang = p.get("lang", "trad")
    if lang not in ("trad", "simp"):
        raise LiveError("lang: trad or simp")
    out["lang"] = lang
    out["lesson"] = _lesson(p.get("lesson"))
    q = p.get("reading")
    if q is not None:
        if not isinstance(q, str) or len(q) > 300:
            raise LiveError("reading: a reading's query")
        out["reading"] = reading_known(q)
    c = p.get("chapter")
    out["chapter"] = None
    if c is not None and chapter_known is not None:
        if not isinstance(c, str) or len(c) > 40:
            raise LiveError("chapter: a chapter's id")
        out["chapter"] = chapter_known(c)
    return out


def _text(d: dict, k: str, most: int) -> str:
    v = d.get(k, "")
    if not isinstance(v, str) or len(v) > most:
        raise LiveError(f"lesson.{k}: text of at most {most} characters")
    return v


def _lesson(v) -> dict | None:
    """The lesson caption a presenter shows (or None): its words and which stop of how many."""
    if v is None:
        return None
    if not isinstance(v, dict):
        raise LiveError("lesson: not an object")
    out = {k: _text(v, k, 400) for k in ("caption", "caption_s", "en", "title")}
    for k in ("stop", "of"):
        n = v.get(k, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 10_000:
            raise LiveError(f"lesson.{k}: a stop number")
        out[k] = n
    return out
