"""Printed-matter figures (issue 14), in one run: whole-process times of

1. ``python -m scene sheets --roles all --out DIR`` (every booklet and the call sheet), cold (a cache folder
   of its own: the rite is compiled and the font subsets are made) and warm (both cached);
2. ``python -m scene book --out rite.pdf``, warm;

with the files' page counts and sizes.                                Target: each under 60 s on 2 cores.

    python bench/bench_print.py [--keep DIR]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "scene", *argv], capture_output=True, text=True, env=env, cwd=ROOT)
    dt = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit(r.stderr.strip())
    return dt


def pages(pdf: Path) -> int:
    from pypdf import PdfReader
    return len(PdfReader(pdf).pages)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", default=None, help="write the files here (default: a temporary folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep or tmp)
        base.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PYTHONPATH=str(ROOT), XIANGSHELI_CACHE=str(base / "cache"))
        sheets = base / "sheets"
        cold = run(["sheets", "--roles", "all", "--out", str(sheets)], env)
        warm = run(["sheets", "--roles", "all", "--out", str(sheets)], env)
        book_t = run(["book", "--out", str(base / "rite.pdf")], env)
        files = sorted(sheets.glob("*.pdf"))
        n_pages = {f.stem: pages(f) for f in files}
        size = sum(f.stat().st_size for f in files)
        print(f"sheets --roles all: {cold:.1f} s cold (rite compiled, fonts subset), {warm:.1f} s warm")
        print(f"  {len(files)} PDFs, {sum(n_pages.values())} pages, {size / 1e6:.2f} MB "
              f"(call sheet {n_pages.get('call-sheet', 0)} pages)")
        for aid in ("ou1_up", "huozhe", "shihuozhe"):
            f = sheets / f"{aid}.pdf"
            print(f"  {aid}: {n_pages[aid]} pages, {f.stat().st_size / 1e3:.0f} kB")
        book = base / "rite.pdf"
        print(f"book: {book_t:.1f} s, {pages(book)} pages, {book.stat().st_size / 1e3:.0f} kB")
        ok = cold < 60 and warm < 60 and book_t < 60
        print("target (each < 60 s):", "met" if ok else "NOT met")


if __name__ == "__main__":
    main()
