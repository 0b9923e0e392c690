"""``python -m scene review --section N``: the scholar's report of one section (考), clause by clause."""
from __future__ import annotations

import argparse
import sys
import time

from .checks import number, out_kind, written_file
from .common import add_force, add_reading


def cmd_review(args: argparse.Namespace) -> None:
    from ..geometry import readings
    from ..rite.cache import load_rite
    from ..rite.review import review_section
    as_html = args.html or (args.out is not None and str(args.out).lower().endswith((".html", ".htm")))
    target = None
    if args.out is not None:                     # a bad --out or --reading fails before the rite is compiled
        if as_html:
            out_kind(args.out, (".html", ".htm"))
        target = written_file(args.out, args.force)    # nor a file the program did not write (--force)
    readings.get(args.reading)
    from ..chapter import resolve
    last = resolve(getattr(args, "chapter", None)).sections
    if not 1 <= int(args.section) <= last:        # the chapter's own count, before the rite is compiled
        raise ValueError(f"python -m scene review: argument --section: {int(args.section)} is outside [1, {last}]")
    rite = load_rite(args.reading, chapter=getattr(args, "chapter", None))
    t0 = time.perf_counter()
    rv = review_section(rite, int(args.section))
    if as_html:
        from ..web.review import page
        text = page(rv)
    else:
        from ..print.review import render_text
        text = render_text(rv)
    if target is None:
        sys.stdout.write(text)
        return
    from ..atomic import write_text
    with target:
        write_text(args.out, text)              # the one safe writer: no link written through, no FIFO
    print(f"{args.out}: §{rv.n} {rv.title}, {len(rv.clauses)} clauses ({'HTML' if as_html else 'text'}, "
          f"{time.perf_counter() - t0:.2f} s after the rite)")


def register(sub) -> None:
    from ..chapter import MAX_COUNT
    from ..text.jing import N_SECTIONS
    rv = sub.add_parser("review", help="a scholar's report of one section, clause by clause (考)",
                        description="Clause by clause: the words (經, and the 記 items that apply), who acts, "
                                    "where (尺, and the nearest named place), facing, the postures, what each "
                                    "holds before and after, the times, the evidence of each step and the checks "
                                    "that hold or fail.")
    # bounded by the chapter's count once the chapter is known (cmd_review), by any chapter's here
    rv.add_argument("--section", required=True, type=number(1, MAX_COUNT, integer=True),
                    help=f"the section, 1–{N_SECTIONS} in chapter 5 (1–N of the --chapter)")
    rv.add_argument("--html", action="store_true", help="one self-contained HTML page instead of text")
    rv.add_argument("--out", default=None, help="write to FILE (FILE.html: HTML) instead of the terminal")
    add_reading(rv)
    add_force(rv)
    rv.set_defaults(func=cmd_review)
