"""Lessons (tours) a teacher authors: TOML files in a chapter's ``[data] lessons`` folder (chapter 5's:
``assets/lessons/``), resolved against the compiled rite.

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
    act = "三耦卒射"        # optional: the act the caption names, a phrase of the rite's steps; the first step
                          # with it from t on must end inside the stop's span [t, t + play] (issue 42)

Bad files get one line naming the file, the stop and what is wrong (:class:`LessonError`).
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Annotated, Any

import msgspec

from ..atomic import InputFileError, read_input
from ..chapter import Chapter
from ..chapter import resolve as resolve_chapter
from ..validation import MAX_BYTES, InputError, Name, Text, convert, count, finite

#: chapter 5's lessons (``assets/lessons``)
LESSON_DIR: Path = resolve_chapter(None).lessons or Path("lessons")
VIEWS = ("auto", "overview", "hall", "range", "plan", "archer", "target", "guest")
STOP_KEYS = {"stage", "step", "t", "view", "camera", "caption", "en", "play", "speed", "act"}
#: the longest rite is ~ 3 hours: a lesson's times are bounded well above it, then checked against the rite
MAX_S = 1e6


class LessonError(InputError):
    """A lesson file that cannot be played (one line: file, stop, what)."""


class LessonCamera(msgspec.Struct, forbid_unknown_fields=True):
    """``camera = {position, focal_point, view_angle}`` of a stop (metres, degrees)."""
    position: tuple[finite(-1e4, 1e4), finite(-1e4, 1e4), finite(-1e4, 1e4)]
    focal_point: tuple[finite(-1e4, 1e4), finite(-1e4, 1e4), finite(-1e4, 1e4)]
    view_angle: finite(1.0, 120.0) = 30.0


class Stop(msgspec.Struct, forbid_unknown_fields=True):
    """One ``[[stop]]``: where (stage, step, t), how (view or camera), what is said (caption, en), and
    whether the rite plays on (play seconds at speed)."""
    stage: count(1, 10_000) | Annotated[str, msgspec.Meta(max_length=80)] | None = None   # §n or an id
    step: count(0, 100_000) | None = None
    t: finite(0.0, MAX_S) = 0.0
    view: Annotated[str, msgspec.Meta(max_length=40)] = "auto"
    camera: LessonCamera | None = None
    caption: Text = ""
    en: Text | None = None
    play: finite(0.1, MAX_S) | None = None
    speed: finite(0.5, 8.0) = 8.0
    act: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] | None = None


def act_span(rite, phrase: str, t: float) -> tuple[float, float] | None:
    """The act a stop names: the first step of the rite with this phrase that starts at t or later (to the ms),
    as (start, end) in rite seconds; None when there is none."""
    hits = [s for s in rite.spans if s.phrase == phrase and s.start_s >= t - 1e-3]
    if not hits:
        return None
    first = min(hits, key=lambda s: (s.start_s, s.index))
    return first.start_s, first.end_s


class Lesson(msgspec.Struct, forbid_unknown_fields=True):
    """A lesson file: a title (繁), an optional English one, and at least one stop."""
    title: Name
    stop: list[Stop] = []
    en: Text = ""


def lessons_of(where: Path | Chapter | None = None) -> Path | None:
    """The lessons' folder: a folder as given, a chapter's (None when it has none), chapter 5's for None."""
    if where is None:
        return LESSON_DIR
    if isinstance(where, Chapter):
        return LESSON_DIR if where == resolve_chapter(None) else where.lessons
    return Path(where)


def lesson_files(folder: Path | Chapter | None = None) -> list[Path]:
    """The lesson files of a folder or a chapter (chapter 5's by default), by name."""
    d = lessons_of(folder)
    return sorted(d.glob("*.toml")) if d is not None else []


def load_lesson(path: Path | str, rite, text: str | None = None, fit_acts: bool = False) -> dict[str, Any]:
    """A lesson resolved to absolute times: {"name", "title", "en", "stops": [...]} (see the module doc).

    ``fit_acts``: a stop whose act ends after its span plays on until it ends, and an act this rite does not
    have is left out, instead of refusing the lesson — for the shipped lessons in a pack of another reading
    (written for the default one: another reading's 侯道 or cast moves the acts a few seconds, or leaves one out).

    The file is checked whole against :class:`Lesson` first (types, ranges, finite numbers, nesting, unknown
    keys: :mod:`scene.validation`), then against the rite (the stage exists, the step is one of it, the time
    is inside the rite)."""
    from ..text.script import to_simplified
    path = Path(path)
    name = path.stem
    try:
        if text is None:                    # a regular file of bounded size (not a FIFO, not /dev/zero)
            text = read_input(path, MAX_BYTES, "lesson file").decode("utf-8")
        data = tomllib.loads(text)
    except InputFileError as exc:
        raise LessonError(f"{path.name}: not a lesson file ({str(exc).split(': ', 1)[-1]})") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).splitlines()[0]
        raise LessonError(f"{path.name}: not a lesson file ({why})") from None
    lesson = convert(data, Lesson, path.name, error=LessonError)
    if not lesson.title.strip():
        raise LessonError(f"{path.name}: needs a title")
    if not lesson.stop:
        raise LessonError(f"{path.name}: needs at least one [[stop]]")
    stages = {str(s.n): s for s in rite.stages} | {s.id: s for s in rite.stages}
    out = []
    for k, st in enumerate(lesson.stop, 1):
        where = f"{path.name}: stop {k}"
        base = 0.0
        if st.stage is not None:
            stage = stages.get(str(st.stage).lstrip("§"))
            if stage is None:
                raise LessonError(f"{where}: no stage {st.stage!r} (1–{len(rite.stages)} or an id)")
            base = stage.start_s
            if st.step is not None:
                spans = sorted((s for s in rite.spans if s.section == stage.n), key=lambda s: (s.start_s, s.index))
                if not st.step < len(spans):
                    raise LessonError(f"{where}: step {st.step!r} is not a step of §{stage.n} (0–{len(spans) - 1})")
                base = spans[st.step].start_s
        elif st.step is not None:
            raise LessonError(f"{where}: step needs a stage")
        t = base + st.t
        if t > rite.duration:
            raise LessonError(f"{where}: t is past the end of the rite ({rite.duration:.0f} s)")
        # to the ms, never before the moment named (a stop at a stage's start must land in that stage)
        stop: dict[str, Any] = {"t": math.ceil(t * 1000 - 1e-6) / 1000}
        if st.camera is not None:
            c = st.camera
            stop["camera"] = {"position": list(c.position), "focal_point": list(c.focal_point),
                              "view_up": [0.0, 0.0, 1.0], "parallel": False, "parallel_scale": 1.0,
                              "view_angle": c.view_angle}
        elif st.view not in VIEWS:
            raise LessonError(f"{where}: view {st.view!r} is not one of {', '.join(VIEWS)}")
        else:
            stop["view"] = st.view
        stop["caption"] = st.caption
        stop["caption_s"] = to_simplified(st.caption)
        if st.en is not None:
            stop["en"] = st.en
        if st.play is not None:
            if st.play > rite.duration:
                raise LessonError(f"{where}: play = {st.play:g} is longer than the rite ({rite.duration:.0f} s)")
            stop["play"] = st.play
            stop["speed"] = st.speed
        if st.act is not None:
            span = act_span(rite, st.act, stop["t"])
            if span is None and fit_acts:
                out.append(stop)
                continue
            if span is None:
                raise LessonError(f"{where}: act {st.act!r} is no step of the rite from t on")
            end = stop["t"] + (st.play or 0.0)
            if span[1] > end + 1e-3 and fit_acts and "play" in stop:
                stop["play"] = math.ceil(span[1] - stop["t"]) + 1.0
            elif span[1] > end + 1e-3:
                raise LessonError(f"{where}: act {st.act!r} ends at {span[1]:.1f} s, after the stop's span "
                                  f"[{stop['t']:.1f}, {end:.1f}] (play = {span[1] - stop['t']:.0f} would hold it)")
            stop["act"] = st.act
        out.append(stop)
    return {"name": name, "title": lesson.title, "title_s": to_simplified(lesson.title), "en": lesson.en,
            "stops": out}


def lesson_block(rite, folder: Path | Chapter | None = None) -> list[dict[str, Any]]:
    """Every lesson of the folder (default: the rite's chapter's), resolved (the pack's ``lessons``)."""
    where = folder if folder is not None else getattr(getattr(rite, "choreography", None), "chapter", None)
    return [load_lesson(p, rite, fit_acts=True) for p in lesson_files(where)]


def lesson_bytes(folder: Path | Chapter | None = None) -> bytes:
    """The lesson files' bytes (part of the pack's key)."""
    return b"".join(p.name.encode() + read_input(p, MAX_BYTES, "lesson file") for p in lesson_files(folder))
