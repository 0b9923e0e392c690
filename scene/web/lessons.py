"""Lessons (tours) a teacher authors: TOML files in ``assets/lessons/``, resolved against the compiled rite.

A lesson::

    title = "鄉射禮十分鐘"
    en = "The whole rite in ten minutes"        # optional
    [[stop]]
    stage = 21            # section number or id (optional: without it, t is seconds from the rite's start)
    step = 3              # optional: the n-th step (from 0) of the stage, by start time
    t = 12.5              # optional: seconds from the start of the stage (or of the step)
    view = "auto"         # auto (the director's camera), overview, hall, …; or a camera table instead:
    # camera = {position = [x, y, z], focal_point = [x, y, z], view_angle = 30}
    caption = "三耦射"     # 繁; the 简 is made by OpenCC
    en = "The three pairs shoot"   # optional
    play = 60             # optional: play this many rite seconds (at `speed`, default 8×) — else hold
    speed = 8

Bad files get one line naming the file, the stop and what is wrong (:class:`LessonError`).
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

from ..paths import LESSONS

LESSON_DIR = LESSONS
VIEWS = ("auto", "overview", "hall", "range", "plan", "archer", "target", "guest")
STOP_KEYS = {"stage", "step", "t", "view", "camera", "caption", "en", "play", "speed"}


class LessonError(ValueError):
    """A lesson file that cannot be played (one line: file, stop, what)."""


def lesson_files(folder: Path = LESSON_DIR) -> list[Path]:
    return sorted(Path(folder).glob("*.toml"))


def _num(v, what: str, where: str, lo: float = 0.0, hi: float = 1e9) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= float(v) <= hi:
        raise LessonError(f"{where}: {what} = {v!r} is not a number in [{lo:g}, {hi:g}]")
    return float(v)


def _vec(v, what: str, where: str) -> list[float]:
    if not isinstance(v, list) or len(v) != 3 or not all(isinstance(c, (int, float)) for c in v):
        raise LessonError(f"{where}: camera.{what} must be three numbers")
    return [float(c) for c in v]


def load_lesson(path: Path | str, rite, text: str | None = None) -> dict[str, Any]:
    """A lesson resolved to absolute times: {"name", "title", "en", "stops": [...]} (see the module doc)."""
    from ..text.script import to_simplified
    path = Path(path)
    name = path.stem
    try:
        data = tomllib.loads(text if text is not None else path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LessonError(f"{path.name}: not a lesson file ({str(exc).splitlines()[0]})") from None
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise LessonError(f"{path.name}: needs a title")
    stops = data.get("stop")
    if not isinstance(stops, list) or not stops:
        raise LessonError(f"{path.name}: needs at least one [[stop]]")
    stages = {str(s.n): s for s in rite.stages} | {s.id: s for s in rite.stages}
    out = []
    for k, st in enumerate(stops, 1):
        where = f"{path.name}: stop {k}"
        if not isinstance(st, dict):
            raise LessonError(f"{where}: not a table")
        extra = set(st) - STOP_KEYS
        if extra:
            raise LessonError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(STOP_KEYS))})")
        base = 0.0
        stage = None
        if "stage" in st:
            stage = stages.get(str(st["stage"]).lstrip("§"))
            if stage is None:
                raise LessonError(f"{where}: no stage {st['stage']!r} (1–{len(rite.stages)} or an id)")
            base = stage.start_s
            if "step" in st:
                spans = sorted((s for s in rite.spans if s.section == stage.n), key=lambda s: (s.start_s, s.index))
                i = st["step"]
                if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(spans):
                    raise LessonError(f"{where}: step {i!r} is not a step of §{stage.n} (0–{len(spans) - 1})")
                base = spans[i].start_s
        elif "step" in st:
            raise LessonError(f"{where}: step needs a stage")
        t = base + _num(st.get("t", 0.0), "t", where, 0.0, rite.duration)
        if t > rite.duration:
            raise LessonError(f"{where}: t is past the end of the rite ({rite.duration:.0f} s)")
        # to the ms, never before the moment named (a stop at a stage's start must land in that stage)
        stop: dict[str, Any] = {"t": math.ceil(t * 1000 - 1e-6) / 1000}
        if "camera" in st:
            c = st["camera"]
            if not isinstance(c, dict):
                raise LessonError(f"{where}: camera must be a table (position, focal_point, view_angle)")
            stop["camera"] = {"position": _vec(c.get("position"), "position", where),
                              "focal_point": _vec(c.get("focal_point"), "focal_point", where),
                              "view_up": [0.0, 0.0, 1.0], "parallel": False, "parallel_scale": 1.0,
                              "view_angle": _num(c.get("view_angle", 30.0), "camera.view_angle", where, 1, 120)}
        else:
            view = st.get("view", "auto")
            if view not in VIEWS:
                raise LessonError(f"{where}: view {view!r} is not one of {', '.join(VIEWS)}")
            stop["view"] = view
        cap = st.get("caption", "")
        if not isinstance(cap, str):
            raise LessonError(f"{where}: caption must be text")
        stop["caption"] = cap
        stop["caption_s"] = to_simplified(cap)
        if "en" in st:
            if not isinstance(st["en"], str):
                raise LessonError(f"{where}: en must be text")
            stop["en"] = st["en"]
        if "play" in st:
            stop["play"] = _num(st["play"], "play", where, 0.1, rite.duration)
            stop["speed"] = _num(st.get("speed", 8.0), "speed", where, 0.5, 8.0)
        out.append(stop)
    return {"name": name, "title": title, "title_s": to_simplified(title), "en": str(data.get("en", "")),
            "stops": out}


def lesson_block(rite, folder: Path = LESSON_DIR) -> list[dict[str, Any]]:
    """Every lesson of the folder, resolved (the pack's ``lessons``)."""
    return [load_lesson(p, rite) for p in lesson_files(folder)]


def lesson_bytes(folder: Path = LESSON_DIR) -> bytes:
    """The lesson files' bytes (part of the pack's key)."""
    return b"".join(p.name.encode() + p.read_bytes() for p in lesson_files(folder))
