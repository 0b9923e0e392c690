"""What every command shares: a parser that fails in one line, the error line itself, JSON and table
output, and the options most commands take (--reading, --seed, --json)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        raise SystemExit(fail(f"{self.prog}: {message}"))


def fail(message: str) -> int:
    from .checks import short
    print(f"error: {short(message, 400)}", file=sys.stderr)
    return 2


def dump(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=1, allow_nan=False))


def table(rows: list[list[str]]) -> str:
    def width(s: str) -> int:  # CJK characters take two columns in a terminal
        return sum(2 if ord(c) > 0x2E80 else 1 for c in s)
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c + " " * (w - width(c)) for c, w in zip(r, widths)).rstrip() for r in rows)


#: the most processes --jobs may ask for (each holds a compiled rite: ~200 MB; 100 000 were accepted)
MAX_JOBS = 16


def jobs(text: str) -> int:
    """A --jobs value: a whole number 1–MAX_JOBS (argparse's type: a bad one is the parser's one line)."""
    try:
        n = int(str(text).strip()) if len(str(text)) <= 12 else 0
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"{str(text)[:20]!r}: a whole number of processes, 1–{MAX_JOBS}")
    return n


def add_reading(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--reading", default=None, help="a preset name, a TOML file, or preset,key=value,…")


def add_seed(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--seed", type=int, default=None, help="the shooting seed (default: the reading's)")


def add_force(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--force", action="store_true",
                    help="replace --out even when it is a file this program did not write (or one changed since)")


def chapter_gate(args: argparse.Namespace) -> str | None:
    """The line refusing a command on a chapter that lacks the data it needs (``args.needs``: keys of the
    manifest's ``[data]``, default the cast and the rite), before any work; None when it has them."""
    from ..chapter import resolve
    from ..rite.choreography import source_path
    ch = resolve(args.chapter)
    lacks = [k for k in getattr(args, "needs", ("rite", "cast")) if getattr(ch, k) is None]
    if not lacks:
        return None
    what = "rite" if {"rite", "cast"} & set(lacks) else " or ".join(lacks)
    return (f"python -m scene {args.cmd}: chapter {ch.id} ({ch.title}) has no {what} yet "
            f"(no [data] {' or '.join(lacks)} in {source_path(ch.folder / 'chapter.toml')})")


def add_json(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--json", action="store_true", help="machine-readable output")


def check_stage(key: str, chapter: Any = None) -> None:
    """A bad --stage fails before the rite is compiled (the sections of the chapter's rite are the stages;
    ``chapter``: a :class:`~scene.chapter.Chapter` or its id, chapter 5 by default)."""
    import re

    from ..rite import choreography as chor
    from ..rite.moments import StageError
    _, _, rite_dir = chor.data_of(chapter)          # a chapter without a rite: one line
    # the section headers only (n = …, id = …): parsing and checking the whole choreography takes longer
    ns, ids = [], []
    for f in sorted(rite_dir.glob("*.toml")):
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
        raise StageError(f"unknown stage {key!r} (stages are 1–{len(ns)} or an id such as "
                         f"{ids[min(20, len(ids) - 1)] if ids else 'sanou_she'})")
