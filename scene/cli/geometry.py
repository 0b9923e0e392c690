"""Commands of the geometry: ``measure``, ``layout``, ``readings``."""
from __future__ import annotations

import argparse

from .common import add_json, add_reading, dump, table


def _named_lengths(reading) -> dict[str, float]:
    """The lengths the text's relational forms refer to (倍中, 參侯道 …), in 尺, from 記61."""
    from ..geometry.layout import build_layout
    lay = build_layout(reading)
    return {"侯道": lay["range.houdao"].size_chi[1], "中": lay["target.centre"].size_chi[0],
            "躬": lay["target.body_upper"].size_chi[0], "上舌": lay["target.upper_strip"].size_chi[0]}


def cmd_measure(args: argparse.Namespace) -> None:
    from ..geometry import readings, units
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
        dump(rows[0] if len(rows) == 1 else rows)
    else:
        for row in rows:
            print(f"{row['text']}: {row['derivation']}")


def cmd_layout(args: argparse.Namespace) -> None:
    from ..geometry.layout import build_layout
    ch = getattr(args, "chapter", None)
    lay = build_layout(args.reading, chapter=ch) if ch is not None else build_layout(args.reading)
    data = lay.as_dict()
    if args.json:
        dump(data)
        return
    r, hall = data["reading"], data["hall"]
    print(f"reading {r['name']}: {r['title']}  (周尺 = {r['chi_m']} m)")
    print(f"hall: {hall['building']}, 堂深 {hall['depth_m']} m, platform {hall['width_m']} m wide, "
          f"堂高 {hall['height_m']} m ({hall['steps']} 等)")
    rows = [["id", "name", "x m", "y m", "z m", "status", "derivation"]]
    for p in data["places"]:
        x, y, z = p["xyz_m"]
        rows.append([p["id"], p["name"], f"{x:.2f}", f"{y:.2f}", f"{z:.2f}", p["status"], p["derivation"]])
    print(table(rows))


def cmd_readings(args: argparse.Namespace) -> None:
    from ..chapter import resolve
    from ..geometry.readings import PRESETS, get
    ch = resolve(getattr(args, "chapter", None))
    # the chapter's own presets after the geometry's, each with the chapter's choices filled in
    shown = [get(name, chapter=ch) for name in [*PRESETS, *(p.name for p in ch.presets)]]
    if args.json:
        dump([{"name": r.name, "title": r.title, "choices": r.choices()} for r in shown])
        return
    for r in shown:
        print(f"{r.name:10} {r.title}")


def register(sub) -> None:
    m = sub.add_parser("measure", help="parse a classical length expression")
    m.add_argument("text")
    m.set_defaults(func=cmd_measure, needs=())          # a length is no chapter's: any --chapter reads it
    lay = sub.add_parser("layout", help="every place with its position and derivation")
    lay.set_defaults(func=cmd_layout, needs=())       # the hall is the chapter's plan ([layout]), no rite needed
    rd = sub.add_parser("readings", help="list the built-in readings")
    rd.set_defaults(func=cmd_readings, needs=())
    for sp in (m, lay, rd):
        add_json(sp)
    for sp in (m, lay):
        add_reading(sp)
