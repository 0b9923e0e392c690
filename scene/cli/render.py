"""Commands that render: ``still``, ``stills``, ``clip`` (off-screen, through the OpenGL probe)."""
from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from .checks import mark_dir, number, out_kind, own_dir, written_file
from .common import add_force, add_reading, check_stage


def _size(text: str) -> tuple[int, int]:
    from ..render.stills import parse_size
    return parse_size(text)


def _check_views(text: str) -> list[str]:
    from ..render.views import parse
    views = [v.strip() for v in text.split(",") if v.strip()]
    if not views:
        raise ValueError("--view is empty")
    for v in views:
        parse(v)
    return views


def _render_args(args: argparse.Namespace, stages: Sequence[str]) -> tuple[tuple[int, int], list[str]]:
    """Check everything a rendering command was given, then start the OpenGL probe (it runs
    while the rite is loaded); returns (size, views)."""
    from ..geometry import readings
    from ..render import glprobe
    size = _size(args.size)
    views = _check_views(args.view)
    readings.get(args.reading)
    for s in stages:
        check_stage(s, getattr(args, "chapter", None))
    glprobe.configure()
    glprobe.start()
    return size, views


def cmd_still(args: argparse.Namespace) -> None:
    from ..render import stills, views
    if len(_check_views(args.view)) != 1:
        raise ValueError("--view: one view for a still (stills takes a list)")
    out_kind(args.out, (".png",))
    target = written_file(args.out, args.force)     # never a FIFO, a link, nor a file the program did not write
    if args.camera is not None:
        from ..render.views import camera_from_json
        camera_from_json(args.camera, "free")          # a bad camera fails before the rite is loaded
    size, view = _render_args(args, [] if args.stage is None else [args.stage])
    t0 = time.perf_counter()
    cam = views.camera_from_json(args.camera, view[0]) if args.camera else None
    with target:
        still = stills.export_still(args.out, args.stage, args.t, view[0], size, args.reading, args.labels,
                                    args.caption, args.roof, camera=cam, chapter=getattr(args, "chapter", None))
    print(f"{args.out}: §{still.stage.n} {still.stage.title}, t = {still.t:.1f} s, view {still.view}, "
          f"{size[0]}x{size[1]} ({time.perf_counter() - t0:.2f} s)")


def cmd_stills(args: argparse.Namespace) -> None:
    from ..render import stills
    own_dir(args.out)                          # never a file of the user's replaced, no link followed
    size, views = _render_args(args, args.stage.split(",") if args.stage else [])
    t0 = time.perf_counter()
    try:
        done = stills.export_stills(args.out, views, size, args.reading,
                                    args.stage.split(",") if args.stage else None, args.labels, args.caption,
                                    args.roof, progress=(lambda st, v, f: print(f, flush=True)) if args.verbose else None,
                                    chapter=getattr(args, "chapter", None))
    finally:
        mark_dir(args.out)
    n = len(done)
    dt = time.perf_counter() - t0
    print(f"{n} stills in {args.out} ({dt:.1f} s, {dt / max(n, 1):.2f} s a still); contact sheet: "
          f"{Path(args.out) / 'index.html'}")


def cmd_clip(args: argparse.Namespace) -> None:
    from ..render import stills
    out_kind(args.out, (".mp4", ".gif"))
    target = written_file(args.out, args.force)
    size, view = _render_args(args, [args.stage])
    subtitles = None
    if args.captions:
        from ..web import captions
        subtitles = lambda rite: captions.cues(rite, args.captions)  # noqa: E731
    with target:
        n = stills.export_clip(args.out, args.stage, view[0], size, args.reading, args.fps, args.speed,
                               args.labels, args.caption, roof=args.roof, subtitles=subtitles)
    print(f"{args.out}: {n} frames at {args.fps:g} fps")


def cmd_camera(args: argparse.Namespace) -> None:
    """The camera of a view at t (``auto``: the director's) as the PACK.md Camera dict."""
    import json

    from ..render import views
    from ..rite.cache import load_rite
    views.parse(args.view)
    rite = load_rite(args.reading, chapter=getattr(args, "chapter", None))
    t = float(min(max(args.t, 0.0), rite.duration))
    pose = rite.pose_at(t)
    focus = tuple(rite.span_at(t).who) if rite.span_at(t) else ()
    c = views.camera(args.view, rite, pose, aspect=16 / 9, focus=focus)
    d = {"position": [round(x, 3) for x in c.position], "focal_point": [round(x, 3) for x in c.focal_point],
         "view_up": [round(x, 4) for x in c.view_up], "view_angle": round(c.view_angle, 3), "parallel": c.parallel,
         "parallel_scale": round(c.parallel_scale, 3), "title": c.title}
    if args.json:
        print(json.dumps(d, ensure_ascii=False, allow_nan=False))
    else:
        st = rite.stage_at(t)
        print(f"t = {t:.1f} s (§{st.n} {st.title}), view {args.view} ({c.title}): from "
              f"({', '.join(f'{x:.2f}' for x in c.position)}) to ({', '.join(f'{x:.2f}' for x in c.focal_point)}), "
              + (f"parallel, half height {c.parallel_scale:.2f} m" if c.parallel else f"view angle {c.view_angle:.1f}°"))


def register(sub) -> None:
    cam = sub.add_parser("camera", help="the camera of a view at a moment (auto: the director's)")
    cam.add_argument("--t", type=number(0, 1e6), required=True, help="seconds from the start of the rite")
    cam.add_argument("--view", default="auto", help="auto (the director's), overview, hall, range, plan, archer, "
                                                    "guest, target, follow[:ACTOR]")
    cam.add_argument("--json", action="store_true", help="print the PACK.md Camera dict as JSON")
    add_reading(cam)
    cam.set_defaults(func=cmd_camera)

    st1 = sub.add_parser("still", help="one stage (or moment) as a PNG")
    st1.add_argument("--stage", default=None, help="section number (21) or id (sanou_she)")
    st1.add_argument("--t", type=number(0, 1e6), default=None,
                     help="seconds from the start of the stage (default: a representative moment); "
                          "without --stage, seconds from the start of the rite")
    st1.add_argument("--out", required=True, help="the PNG to write")
    st1.add_argument("--camera", default=None,
                     help="a camera as JSON (position, focal_point, view_up, view_angle, parallel, "
                          "parallel_scale; the app's export) instead of the named view")
    add_force(st1)
    st1.set_defaults(func=cmd_still)

    stl = sub.add_parser("stills", help="every stage as a PNG, and an index.html contact sheet")
    stl.add_argument("--out", required=True, help="the folder to write")
    stl.add_argument("--stage", default=None, help="only these stages (comma-separated)")
    stl.add_argument("--verbose", action="store_true", help="print each file as it is written")
    stl.set_defaults(func=cmd_stills)

    clp = sub.add_parser("clip", help="a stage as an MP4 or a GIF")
    clp.add_argument("--stage", required=True)
    clp.add_argument("--out", required=True, help="FILE.mp4 or FILE.gif")
    clp.add_argument("--fps", type=number(0, 60, lo_open=True), default=10.0)
    clp.add_argument("--speed", type=number(0.25, 1000), default=None,
                     help="rite seconds per clip second (default: fit the stage into 30 s)")
    clp.add_argument("--captions", nargs="?", const="trad", default=None, choices=("trad", "simp"),
                     help="burn in the captions (the phrase, and the seed's modern sentence where it reaches), "
                          "as the player's caption line; trad (default) or simp")
    add_force(clp)
    clp.set_defaults(func=cmd_clip)

    for sp, size in ((st1, "1920x1080"), (stl, "1920x1080"), (clp, "960x540")):
        sp.add_argument("--view", default="overview" if sp is not stl else "overview",
                        help="auto (the director's camera), overview, hall, range, plan, archer, guest, target, follow[:ACTOR]"
                             + (" (comma-separated for several)" if sp is stl else ""))
        sp.add_argument("--size", default=size, help="WxH, up to 7680x4320")
        add_reading(sp)
        sp.add_argument("--labels", action=argparse.BooleanOptionalAction, default=True,
                        help="Chinese labels on places and actors")
        sp.add_argument("--caption", action=argparse.BooleanOptionalAction, default=True,
                        help="the caption band (stage, 經, reading, scale bar)")
        sp.add_argument("--roof", default="cutaway", help="cutaway (default), solid, ghost or none")

