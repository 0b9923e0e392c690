"""Command line: ``python -m scene {measure,layout,readings} …``.

Every failure the user can cause (a bad measurement, an unknown reading, a
broken TOML file) prints one line naming what was wrong and exits 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _dump(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=1))


def cmd_measure(args: argparse.Namespace) -> None:
    from . import readings, units
    reading = readings.get(args.reading)
    try:
        found = [units.parse_length(args.text, reading)]
    except ValueError as whole_error:
        found = units.find_measures(args.text, reading)
        if not found:
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


def main(argv: Sequence[str] | None = None) -> int:
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

    for sp in (m, lay, rd, stg, pose):
        sp.add_argument("--json", action="store_true", help="machine-readable output")
    for sp in (m, lay, stg, pose, aud):
        sp.add_argument("--reading", default=None, help="a preset name or a TOML file")
    for sp in (stg, pose, aud):
        sp.add_argument("--seed", type=int, default=None, help="the shooting seed (default: the reading's)")

    args = p.parse_args(argv)
    try:
        args.func(args)
    except (ReadingError, ValueError, KeyError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return _fail(str(msg).splitlines()[0] if str(msg) else type(exc).__name__)
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
