"""Commands of the printed matter: ``sheets`` (a booklet per role and the call sheet) and ``book`` (the
book of plans, one page per stage).  Every check of the input comes before the rite is compiled."""
from __future__ import annotations

import argparse
import time

from .common import MAX_JOBS, add_force, add_reading, add_seed, jobs


def cmd_sheets(args: argparse.Namespace) -> None:
    from ..geometry import readings
    from ..print import roles, run
    from ..rite import choreography as chor
    reading = readings.get(args.reading)                         # a bad reading: one line, before any work
    from ..chapter import resolve as resolve_chapter
    cast = chor.load(resolve_chapter(getattr(args, "chapter", None)))   # the chapter's own cast
    aids = roles.resolve(args.roles, cast, reading)              # an unknown role: one line
    from .checks import mark_dir, own_dir
    if not args.force:
        own_dir(args.out)                    # every file there one of ours, as it was left (else --force)
    out = run.check_sheets_dir(args.out)                         # an unwritable or foreign folder: one line
    from ..rite.cache import load_rite
    t0 = time.perf_counter()
    rite = load_rite(args.reading, args.seed, chapter=getattr(args, "chapter", None))
    try:
        rows = run.write_sheets(rite, aids, out, args.format, jobs=args.jobs, call=args.call_sheet)
    finally:
        mark_dir(out)                        # the files of this run are the program's own
    pages = total = 0
    for aid, n, size in rows:
        if n:
            name = rite.names.get(aid, "call sheet 場記單")
            print(f"{out / f'{aid}.{args.format}'}: {name}, {n} pages, {size:,} bytes")
            pages += n
            total += size
        else:
            print(f"{rite.names[aid]} ({aid}) acts in no stage: no sheet")
    print(f"{sum(1 for r in rows if r[1])} files, {pages} pages, {total / 1e6:.1f} MB in "
          f"{time.perf_counter() - t0:.1f} s")


def cmd_book(args: argparse.Namespace) -> None:
    from ..geometry import readings
    from ..print import run
    from .checks import written_file
    readings.get(args.reading)
    target = written_file(args.out, args.force)    # never a FIFO (it would hang), a link, nor a file not of ours
    out, fmt = run.check_book_file(args.out)
    from ..rite.cache import load_rite
    t0 = time.perf_counter()
    rite = load_rite(args.reading, args.seed, chapter=getattr(args, "chapter", None))
    with target:
        n, size = run.write_book(rite, out, fmt)
    print(f"{out}: the book of plans, {n} pages, {size:,} bytes ({time.perf_counter() - t0:.1f} s)")


def register(sub) -> None:
    sh = sub.add_parser("sheets", help="role sheets: a booklet per performer and the call sheet",
                        description="One booklet per role (cover, then a page per stage he acts in: a to-scale "
                                    "plan of his path and his cue list) and the call sheet for whoever directs "
                                    "the rehearsal, written into --out as <id>.pdf|html and call-sheet.pdf|html.")
    sh.add_argument("--out", required=True, help="the folder to write (new, empty, or an earlier sheets folder)")
    sh.add_argument("--roles", default="all",
                    help="all, or a comma list of cast names (上耦上射), ids (ou1_up) or the text's roles "
                         "(獲者, 釋獲者, 上射 = every 上射)")
    sh.add_argument("--format", choices=("pdf", "html"), default="pdf", help="pdf (default) or html")
    sh.add_argument("--jobs", type=jobs, default=2, help=f"processes, 1–{MAX_JOBS} (default 2)")
    sh.add_argument("--no-call-sheet", dest="call_sheet", action="store_false",
                    help="the booklets only (the app's 'print the sheet of this role')")
    sh.set_defaults(func=cmd_sheets)
    bk = sub.add_parser("book", help="the book of plans (禮圖): one page per stage",
                        description="One A4 page per stage: the plan at its key moment with every person, the "
                                    "dimension lines, the 經 with its phrases numbered against the plan, and the "
                                    "evidence legend.")
    bk.add_argument("--out", default="rite.pdf", help="FILE.pdf (default rite.pdf) or FILE.html")
    add_force(bk)
    bk.set_defaults(func=cmd_book)
    for sp in (sh, bk):
        add_reading(sp)
        add_seed(sp)
    add_force(sh)
