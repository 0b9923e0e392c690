"""Command line: ``python -m scene {measure,layout,readings,stages,pose,audit,still,stills,clip,pack,export} …``.

Every failure the user can cause (a bad measurement, an unknown reading, a
broken TOML file) prints one line naming what was wrong and exits 2.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _dump(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=1))


def _named_lengths(reading) -> dict[str, float]:
    """The lengths the text's relational forms refer to (倍中, 參侯道 …), in 尺, from 記61."""
    from .layout import build_layout
    lay = build_layout(reading)
    return {"侯道": lay["range.houdao"].size_chi[1], "中": lay["target.centre"].size_chi[0],
            "躬": lay["target.body_upper"].size_chi[0], "上舌": lay["target.upper_strip"].size_chi[0]}


def cmd_measure(args: argparse.Namespace) -> None:
    from . import readings, units
    reading = readings.get(args.reading)
    refs = _named_lengths(reading)
    try:
        found = [units.parse_length(args.text, reading, refs)]
    except ValueError as whole_error:
        # a sentence: report every measure in it — but a measure left hanging on 有 is malformed
        found = units.find_measures(args.text, reading, refs)
        if not found or any(args.text[m.span[1]:m.span[1] + 1] == "有" for m in found):
            raise whole_error
    rows = [{"text": m.text, "chi": round(m.chi, 6), "metres": round(m.metres, 4),
             "derivation": m.derivation, "span": list(m.span)} for m in found]
    if args.json:
        _dump(rows[0] if len(rows) == 1 else rows)
    else:
        for row in rows:
            print(f"{row['text']}: {row['derivation']}")


def _table(rows: list[list[str]]) -> str:
    def width(s: str) -> int:  # CJK characters take two columns in a terminal
        return sum(2 if ord(c) > 0x2E80 else 1 for c in s)
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c + " " * (w - width(c)) for c, w in zip(r, widths)).rstrip() for r in rows)


def cmd_layout(args: argparse.Namespace) -> None:
    from .layout import build_layout
    lay = build_layout(args.reading)
    data = lay.as_dict()
    if args.json:
        _dump(data)
        return
    r, hall = data["reading"], data["hall"]
    print(f"reading {r['name']}: {r['title']}  (周尺 = {r['chi_m']} m)")
    print(f"hall: {hall['building']}, 堂深 {hall['depth_m']} m, platform {hall['width_m']} m wide, "
          f"堂高 {hall['height_m']} m ({hall['steps']} 等)")
    rows = [["id", "name", "x m", "y m", "z m", "status", "derivation"]]
    for p in data["places"]:
        x, y, z = p["xyz_m"]
        rows.append([p["id"], p["name"], f"{x:.2f}", f"{y:.2f}", f"{z:.2f}", p["status"], p["derivation"]])
    print(_table(rows))


def cmd_readings(args: argparse.Namespace) -> None:
    from .readings import PRESETS
    if args.json:
        _dump([{"name": r.name, "title": r.title, "choices": r.choices()} for r in PRESETS.values()])
        return
    for r in PRESETS.values():
        print(f"{r.name:10} {r.title}")


def cmd_stages(args: argparse.Namespace) -> None:
    from .timeline import build_rite
    rite = build_rite(args.reading, args.seed)
    rows = [{"n": s.n, "id": s.id, "title": s.title, "phase": s.phase, "start_s": round(s.start_s, 2),
             "end_s": round(s.end_s, 2), "incipit": s.incipit} for s in rite.stages]
    if args.json:
        _dump(rows)
        return
    table = [["§", "id", "title", "phase", "start s", "end s", "incipit"]]
    table += [[str(r["n"]), r["id"], r["title"], r["phase"], f"{r['start_s']:.1f}", f"{r['end_s']:.1f}",
               r["incipit"]] for r in rows]
    print(_table(table))
    for t, rnd, text in rite.announcements:
        print(f"round {rnd} 數獲 at {t:.1f} s: {text}")


def cmd_pose(args: argparse.Namespace) -> None:
    from .timeline import build_rite
    rite = build_rite(args.reading, args.seed)
    if args.t < 0 or args.t > rite.duration:
        raise ValueError(f"--t {args.t:g} is outside the rite (0 to {rite.duration:.1f} s)")
    data = rite.as_pose_dict(args.t)
    if args.json:
        _dump(data)
        return
    st = data["stage"]
    print(f"t = {data['t']} s — §{st['n']} {st['title']} — {data['phrase']}")
    table = [["id", "name", "role", "x m", "y m", "z m", "heading", "posture", "holding"]]
    for a in data["actors"]:
        if a["visible"]:
            x, y, z = a["xyz_m"]
            table.append([a["id"], a["name"], a["role"], f"{x:.2f}", f"{y:.2f}", f"{z:.2f}",
                          f"{a['heading_deg']:.0f}", a["posture"], a["holding"]])
    print(_table(table))


def cmd_audit(args: argparse.Namespace) -> None:
    from .audit import audit
    from .timeline import build_rite
    rite = build_rite(args.reading, args.seed)
    found = audit(rite, hz=args.hz)
    for v in found:
        print(v)
    print(f"{len(found)} violation(s) in {rite.duration:.0f} s sampled at {args.hz:g} Hz")
    if found:
        raise SystemExit(1)


def _size(text: str) -> tuple[int, int]:
    from .stills import parse_size
    return parse_size(text)


def _check_stage(key: str) -> None:
    """A bad --stage fails before the rite is compiled (the sections are the stages)."""
    import re
    from . import choreography as chor
    from .stills import StillError
    # the section headers only (n = …, id = …): parsing and checking the whole choreography takes longer
    ns, ids = [], []
    for f in sorted((chor.ASSETS / "rite").glob("*.toml")):
        text = f.read_text(encoding="utf-8")
        for block in re.split(r"^\[\[section\]\]\s*$", text, flags=re.M)[1:]:
            n = re.search(r"^n\s*=\s*(\d+)", block, re.M)
            i = re.search(r'^id\s*=\s*"([^"]+)"', block, re.M)
            if n:
                ns.append(n.group(1))
            if i:
                ids.append(i.group(1))
    k = str(key).strip().lstrip("§")
    if k not in ns and k not in ids:
        raise StillError(f"unknown stage {key!r} (stages are 1–{len(ns)} or an id such as "
                         f"{ids[min(20, len(ids) - 1)] if ids else 'sanou_she'})")


def _check_views(text: str) -> list[str]:
    from .views import parse
    views = [v.strip() for v in text.split(",") if v.strip()]
    if not views:
        raise ValueError("--view is empty")
    for v in views:
        parse(v)
    return views


def _render_args(args: argparse.Namespace, stages: Sequence[str]) -> tuple[tuple[int, int], list[str]]:
    """Check everything a rendering command was given, then start the OpenGL probe (it runs
    while the rite is loaded); returns (size, views)."""
    from . import glprobe, readings
    size = _size(args.size)
    views = _check_views(args.view)
    readings.get(args.reading)
    for s in stages:
        _check_stage(s)
    glprobe.configure()
    glprobe.start()
    return size, views


def cmd_still(args: argparse.Namespace) -> None:
    from . import stills, views
    if len(_check_views(args.view)) != 1:
        raise ValueError("--view: one view for a still (stills takes a list)")
    size, view = _render_args(args, [] if args.stage is None else [args.stage])
    t0 = time.perf_counter()
    cam = views.camera_from_json(args.camera, view[0]) if args.camera else None
    still = stills.export_still(args.out, args.stage, args.t, view[0], size, args.reading, args.labels,
                                args.caption, args.roof, camera=cam)
    print(f"{args.out}: §{still.stage.n} {still.stage.title}, t = {still.t:.1f} s, view {still.view}, "
          f"{size[0]}x{size[1]} ({time.perf_counter() - t0:.2f} s)")


def cmd_stills(args: argparse.Namespace) -> None:
    from . import stills
    size, views = _render_args(args, args.stage.split(",") if args.stage else [])
    t0 = time.perf_counter()
    done = stills.export_stills(args.out, views, size, args.reading,
                                args.stage.split(",") if args.stage else None, args.labels, args.caption,
                                args.roof, progress=(lambda st, v, f: print(f, flush=True)) if args.verbose else None)
    n = len(done)
    dt = time.perf_counter() - t0
    print(f"{n} stills in {args.out} ({dt:.1f} s, {dt / max(n, 1):.2f} s a still); contact sheet: "
          f"{Path(args.out) / 'index.html'}")


def cmd_clip(args: argparse.Namespace) -> None:
    from . import stills
    if args.fps <= 0 or args.fps > 60:
        raise ValueError(f"--fps {args.fps:g} must be in (0, 60]")
    size, view = _render_args(args, [args.stage])
    n = stills.export_clip(args.out, args.stage, view[0], size, args.reading, args.fps, args.speed,
                           args.labels, args.caption, roof=args.roof)
    print(f"{args.out}: {n} frames at {args.fps:g} fps")


def cmd_pack(args: argparse.Namespace) -> None:
    from . import readings, webpack
    readings.get(args.reading)                 # a bad reading fails before anything is built
    t0 = time.perf_counter()
    files = webpack.write_playable(args.out, args.reading, args.seed)
    dt = time.perf_counter() - t0
    for f in files:
        raw = f.read_bytes()
        print(f"{f}: {len(raw):,} bytes ({len(gzip.compress(raw, 6)):,} gzipped)")
    print(f"pack {args.out} in {dt:.1f} s")


def cmd_site(args: argparse.Namespace) -> None:
    from . import readings, webpack
    readings.get(args.reading)
    t0 = time.perf_counter()
    out = webpack.write_site(args.out, args.reading, args.seed)
    files = [f for f in out.rglob("*") if f.is_file()]
    size = sum(f.stat().st_size for f in files)
    print(f"{out}/index.html: the static web edition, {len(files)} files, {size / 1e6:.1f} MB "
          f"({time.perf_counter() - t0:.1f} s); serve the folder with any static web server")


def cmd_export(args: argparse.Namespace) -> None:
    from . import export, readings
    fmt = export.resolve_format(args.out, args.format)     # bad names and formats fail before any work
    readings.get(args.reading)
    if fmt == "gltf" and args.stage is not None:
        _check_stage(args.stage)
    t0 = time.perf_counter()
    done = export.export(args.out, fmt, args.reading, args.stage, args.t, shadows=args.shadows)
    print(f"{done.summary} ({time.perf_counter() - t0:.2f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    from .glprobe import GLUnavailable
    from .readings import ReadingError
    p = _Parser(prog="python -m scene", description="鄉射禮 reconstruction from the text")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

    m = sub.add_parser("measure", help="parse a classical length expression")
    m.add_argument("text")
    m.set_defaults(func=cmd_measure)

    lay = sub.add_parser("layout", help="every place with its position and derivation")
    lay.set_defaults(func=cmd_layout)

    rd = sub.add_parser("readings", help="list the built-in readings")
    rd.set_defaults(func=cmd_readings)

    stg = sub.add_parser("stages", help="the 51 stages with their times")
    stg.set_defaults(func=cmd_stages)

    pose = sub.add_parser("pose", help="every actor and object at a moment")
    pose.add_argument("--t", type=float, required=True, help="seconds from the start of the rite")
    pose.set_defaults(func=cmd_pose)

    aud = sub.add_parser("audit", help="check spacing, surfaces, speed and obstacles over the whole rite")
    aud.add_argument("--hz", type=float, default=10.0)
    aud.set_defaults(func=cmd_audit)

    st1 = sub.add_parser("still", help="one stage (or moment) as a PNG")
    st1.add_argument("--stage", default=None, help="section number (21) or id (sanou_she)")
    st1.add_argument("--t", type=float, default=None,
                     help="seconds from the start of the stage (default: a representative moment); "
                          "without --stage, seconds from the start of the rite")
    st1.add_argument("--out", required=True, help="the PNG to write")
    st1.add_argument("--camera", default=None,
                     help="a camera as JSON (position, focal_point, view_up, view_angle, parallel, "
                          "parallel_scale; the app's export) instead of the named view")
    st1.set_defaults(func=cmd_still)

    stl = sub.add_parser("stills", help="every stage as a PNG, and an index.html contact sheet")
    stl.add_argument("--out", required=True, help="the folder to write")
    stl.add_argument("--stage", default=None, help="only these stages (comma-separated)")
    stl.add_argument("--verbose", action="store_true", help="print each file as it is written")
    stl.set_defaults(func=cmd_stills)

    clp = sub.add_parser("clip", help="a stage as an MP4 or a GIF")
    clp.add_argument("--stage", required=True)
    clp.add_argument("--out", required=True, help="FILE.mp4 or FILE.gif")
    clp.add_argument("--fps", type=float, default=10.0)
    clp.add_argument("--speed", type=float, default=None,
                     help="rite seconds per clip second (default: fit the stage into 30 s)")
    clp.set_defaults(func=cmd_clip)

    pk = sub.add_parser("pack", help="the scene pack for the browser player (scene.json, scene.bin, font/)")
    pk.add_argument("--out", required=True, help="the folder to write")
    pk.set_defaults(func=cmd_pack)

    sit = sub.add_parser("site", help="the static web edition: a folder any static web server can host")
    sit.add_argument("--out", required=True, help="the folder to write (index.html at its root)")
    sit.set_defaults(func=cmd_site)

    ex = sub.add_parser("export", help="open data: the layout as JSON or CSV, the scene as glTF 2.0",
                        description="The layout with its provenance as JSON or CSV (one row per place), or "
                                    "the scene as glTF 2.0 (.glb binary, or .gltf with the buffer embedded). "
                                    "Without --stage/--t the glTF holds the static scene only; with them, also "
                                    "everything that moves at that moment.")
    ex.add_argument("--out", required=True, help="FILE.json, FILE.csv, FILE.glb or FILE.gltf")
    ex.add_argument("--format", default=None,
                    help="json, csv or gltf (default: from the extension of --out)")
    ex.add_argument("--stage", default=None,
                    help="glTF only: section number (21) or id (sanou_she); without it, the static scene only")
    ex.add_argument("--t", type=float, default=None,
                    help="glTF only: seconds from the start of the stage (default: its representative moment); "
                         "without --stage, seconds from the start of the rite")
    ex.add_argument("--shadows", action="store_true",
                    help="glTF only: add the baked planar shadows as their own nodes")
    ex.add_argument("--reading", default=None, help="a preset name, a TOML file, or preset,key=value,…")
    ex.set_defaults(func=cmd_export)

    for sp, size in ((st1, "1920x1080"), (stl, "1920x1080"), (clp, "960x540")):
        sp.add_argument("--view", default="overview" if sp is not stl else "overview",
                        help="overview, hall, range, plan, archer, guest, target, follow[:ACTOR]"
                             + (" (comma-separated for several)" if sp is stl else ""))
        sp.add_argument("--size", default=size, help="WxH, up to 7680x4320")
        sp.add_argument("--reading", default=None, help="a preset name, a TOML file, or preset,key=value,…")
        sp.add_argument("--labels", action=argparse.BooleanOptionalAction, default=True,
                        help="Chinese labels on places and actors")
        sp.add_argument("--caption", action=argparse.BooleanOptionalAction, default=True,
                        help="the caption band (stage, 經, reading, scale bar)")
        sp.add_argument("--roof", default="cutaway", help="cutaway (default), solid, ghost or none")

    for sp in (m, lay, rd, stg, pose):
        sp.add_argument("--json", action="store_true", help="machine-readable output")
    for sp in (m, lay, stg, pose, aud, pk, sit):
        sp.add_argument("--reading", default=None, help="a preset name, a TOML file, or preset,key=value,…")
    for sp in (stg, pose, aud, pk, sit):
        sp.add_argument("--seed", type=int, default=None, help="the shooting seed (default: the reading's)")

    args = p.parse_args(argv)
    try:
        args.func(args)
    except (ReadingError, ValueError, KeyError, GLUnavailable) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return _fail(str(msg).splitlines()[0] if str(msg) else type(exc).__name__)
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
