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

    for sp in (m, lay, rd):
        sp.add_argument("--json", action="store_true", help="machine-readable output")
    for sp in (m, lay):
        sp.add_argument("--reading", default=None, help="a preset name or a TOML file")

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
