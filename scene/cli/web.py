"""Commands for the web and open data: ``pack``, ``site``, ``export``."""
from __future__ import annotations

import argparse
import gzip
import time

from .checks import number, out_kind, owned, written_file
from .common import add_force, add_reading, add_seed, check_stage


def cmd_pack(args: argparse.Namespace) -> None:
    from ..geometry import readings
    from ..web import pack as webpack
    readings.get(args.reading)                 # a bad reading fails before anything is built
    with owned(args.out):                      # never a file of the user's replaced, no link followed
        t0 = time.perf_counter()
        files = webpack.write_playable(args.out, args.reading, args.seed, getattr(args, "chapter", None))
    dt = time.perf_counter() - t0
    for f in files:
        raw = f.read_bytes()
        print(f"{f}: {len(raw):,} bytes ({len(gzip.compress(raw, 6)):,} gzipped)")
    print(f"pack {args.out} in {dt:.1f} s")


def cmd_site(args: argparse.Namespace) -> None:
    from ..geometry import readings
    from ..web import pack as webpack
    readings.get(args.reading)
    with owned(args.out):                      # never a file of the user's replaced, no link followed
        t0 = time.perf_counter()
        out = webpack.write_site(args.out, args.reading, args.seed, opens=getattr(args, "chapter", None))
    files = [f for f in out.rglob("*") if f.is_file()]
    size = sum(f.stat().st_size for f in files)
    print(f"{out}/index.html: the static web edition, {len(files)} files, {size / 1e6:.1f} MB "
          f"({time.perf_counter() - t0:.1f} s); serve the folder with any static web server")


def cmd_export(args: argparse.Namespace) -> None:
    from ..geometry import readings
    from ..web import export
    fmt = export.resolve_format(args.out, args.format)     # bad names and formats fail before any work
    target = written_file(args.out, args.force)            # never a FIFO, a link, nor a file not of ours
    readings.get(args.reading)
    if fmt == "gltf" and args.stage is not None:
        check_stage(args.stage, getattr(args, "chapter", None))
    t0 = time.perf_counter()
    with target:
        done = export.export(args.out, fmt, args.reading, args.stage, args.t, shadows=args.shadows,
                             chapter=getattr(args, "chapter", None))
    print(f"{done.summary} ({time.perf_counter() - t0:.2f} s)")


def cmd_captions(args: argparse.Namespace) -> None:
    from ..rite.cache import load_rite
    from ..web.captions import write_vtt
    if args.lang not in ("trad", "simp"):
        raise ValueError(f"--lang {args.lang!r}: trad or simp")
    out_kind(args.out, (".vtt",))
    with written_file(args.out, args.force):
        n = write_vtt(args.out, load_rite(args.reading, chapter=getattr(args, "chapter", None)), args.lang)
    print(f"{args.out}: {n} cues ({args.lang})")


def register(sub) -> None:
    cap = sub.add_parser("captions", help="the rite's captions as WebVTT (one cue a step)")
    cap.add_argument("--out", required=True, help="FILE.vtt")
    cap.add_argument("--lang", default="trad", help="trad (繁, default) or simp (简)")
    add_reading(cap)
    add_force(cap)
    cap.set_defaults(func=cmd_captions)

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
                    help="json (the layout), csv, gltf, or steps (every step with its evidence, .json) "
                         "(default: from the extension of --out)")
    ex.add_argument("--stage", default=None,
                    help="glTF only: section number (21) or id (sanou_she); without it, the static scene only")
    ex.add_argument("--t", type=number(0, 1e6), default=None,
                    help="glTF only: seconds from the start of the stage (default: its representative moment); "
                         "without --stage, seconds from the start of the rite")
    ex.add_argument("--shadows", action="store_true",
                    help="glTF only: add the baked planar shadows as their own nodes")
    add_reading(ex)
    add_force(ex)
    ex.set_defaults(func=cmd_export)

    for sp in (pk, sit):
        add_reading(sp)
        add_seed(sp)
