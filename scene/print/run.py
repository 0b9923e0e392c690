"""Writing the printed matter to disk: the checks that come before any work (where it goes, that nothing
unexpected is overwritten), the booklets of many roles on two processes, the call sheet, the book."""
from __future__ import annotations

import os
from pathlib import Path

#: a folder of sheets carries this file, so a second run may write into it (and no other folder is filled)
MARK = ".xiangsheli-sheets"
FORMATS = ("pdf", "html")


def check_sheets_dir(out: str) -> Path:
    """``--out DIR`` for sheets: missing, empty or a sheets folder of ours, and writable; else one line."""
    d = Path(out)
    if d.exists() and not d.is_dir():
        raise ValueError(f"--out {out}: is a file, not a folder")
    if d.is_dir() and any(d.iterdir()) and not (d / MARK).exists():
        raise ValueError(f"--out {out}: the folder holds other files (not a sheets folder); choose an empty or new one")
    from ..atomic import check_folder, write_text
    try:
        check_folder(d)                                   # a link to a folder elsewhere: refused (one line)
        write_text(d / MARK, "role sheets of python -m scene sheets\n")   # never through a planted link
    except OSError as exc:
        raise ValueError(f"--out {out}: cannot write there ({exc.strerror or exc})") from None
    return d


def check_book_file(out: str) -> tuple[Path, str]:
    """``--out FILE.pdf|FILE.html`` for the book: its folder exists and is writable, and a file already
    there is a PDF or an HTML book (never something else)."""
    f = Path(out)
    fmt = f.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"--out {out}: the book is written as .pdf or .html")
    parent = f.parent if str(f.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"--out {out}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"--out {out}: cannot write into {parent}")
    if f.exists():
        if f.is_dir():
            raise ValueError(f"--out {out}: is a folder")
        head = f.read_bytes()[:512]
        if not (head.startswith(b"%PDF") if fmt == "pdf" else b"<!doctype html>" in head.lower()):
            raise ValueError(f"--out {out}: exists and is not a {fmt.upper()} file; not overwriting it")
    return f, fmt


# the state a forked worker inherits (the compiled rite is not sent to it: it is already there)
_WORK: dict = {}


def _one(aid: str) -> tuple[str, int, int]:
    from .canvas import write_pdf
    from .html import write_html
    from .roles import title
    from .sheets import booklet
    rite, ix, out, fmt, fonts = (_WORK[k] for k in ("rite", "ix", "out", "fmt", "fonts"))
    pages = booklet(rite, ix, aid)
    if not pages:
        return aid, 0, 0
    path = out / f"{aid}.{fmt}"
    name = f"{title(rite, aid)} — {rite.title} role sheet"
    if fmt == "pdf":
        write_pdf(pages, path, name, fonts=fonts)
    else:
        write_html(pages, path, name, fonts=fonts)
    return aid, len(pages), path.stat().st_size


def write_sheets(rite, aids: list[str], out: Path, fmt: str, jobs: int = 2,
                 call: bool = True) -> list[tuple[str, int, int]]:
    """One booklet per role (``<id>.pdf|html``) and the call sheet (``call-sheet.pdf|html``); returns
    (id, pages, bytes) per file, an actor who acts in no stage with 0 pages and no file."""
    from .fonts import print_fonts
    from .roles import RoleIndex
    from .sheets import call_sheet
    ix = RoleIndex(rite)
    fonts = print_fonts(rite.reading.title + rite.reading.name + _picks(rite))
    _WORK.update(rite=rite, ix=ix, out=out, fmt=fmt, fonts=fonts)
    from .. import progress
    rows: list[tuple[str, int, int]] = []
    with progress.phase("role sheets", total=len(aids) + (1 if call else 0)) as ph:
        if jobs > 1 and len(aids) > 1:
            import multiprocessing as mp
            with mp.get_context("fork").Pool(jobs) as pool:
                pending = pool.imap(_one, aids, chunksize=1)        # the workers start now, in order
                if call:
                    rows.append(_call(rite, ix, out, fmt, fonts, call_sheet))
                    ph.advance()
                done = []
                for row in pending:                                  # counted as each booklet is written
                    done.append(row)
                    ph.advance()
                rows = done + rows
        else:
            for a in aids:
                rows.append(_one(a))
                ph.advance()
            if call:
                rows.append(_call(rite, ix, out, fmt, fonts, call_sheet))
                ph.advance()
    return rows


def _call(rite, ix, out, fmt, fonts, call_sheet) -> tuple[str, int, int]:
    from .canvas import write_pdf
    from .html import write_html
    pages = call_sheet(rite, ix)
    path = out / f"call-sheet.{fmt}"
    (write_pdf if fmt == "pdf" else write_html)(pages, path, f"{rite.title} call sheet 場記單", fonts=fonts)
    return "call-sheet", len(pages), path.stat().st_size


def write_book(rite, out: Path, fmt: str) -> tuple[int, int]:
    """The book of plans; returns (pages, bytes)."""
    from .. import progress
    from .book import book
    from .canvas import write_pdf
    from .fonts import print_fonts
    from .html import write_html
    with progress.phase("the book of plans: a plan for each stage"):
        pages = book(rite)
    fonts = print_fonts(rite.reading.title + rite.reading.name + _picks(rite))
    name = f"{rite.title} 禮圖 — the book of plans ({rite.reading.name})"
    with progress.phase(f"writing its {len(pages)} pages"):
        (write_pdf if fmt == "pdf" else write_html)(pages, out, name, fonts=fonts)
    return len(pages), out.stat().st_size


def _picks(rite) -> str:
    """The chapter's choices as the pages print them (their characters go into the font subset)."""
    from ..geometry.reading_picks import summary
    return summary(rite.reading)
