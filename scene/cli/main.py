"""``python -m scene <command> …``: the parser and the one-line failure of every command.

Each module of this package registers its commands (``register(sub)``): ``geometry`` (measure, layout,
readings), ``rite`` (stages, pose, audit), ``render`` (still, stills, clip), ``web`` (pack, site, export), ``print``
(sheets, book), ``review`` (review), ``text`` (text).
``--chapter ID`` (before or after the command) names the chapter (a folder of ``assets/chapters/``; default
chapter 5, 鄉射禮): ``text`` reads any; every other command needs the chapter's rite (its ``[data] cast`` and
``rite``), and a chapter without them is refused in one line before any work (:func:`.common.chapter_gate`).
Every failure the user can cause prints one line naming what was wrong and exits 2.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..chapter import DEFAULT_ID
from . import geometry, render, review, rite, text, web
from . import print as printed
from .common import Parser, chapter_gate, fail

COMMAND_MODULES = (geometry, rite, render, web, printed, review, text)


def version() -> str:
    """The installed distribution's version (a checkout on ``PYTHONPATH`` without one: ``0+unknown``)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version
    try:
        return _version("xiangsheli-scene")
    except PackageNotFoundError:
        return "0+unknown"


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in[:1] == ["app"]:
        # the app's flags are trame's parser's (--port, --host, --server …), not ours: handed over whole
        from ..launch import main as launch
        return launch(args_in[1:], prog="python -m scene app")
    p = Parser(prog="python -m scene", description="鄉射禮 reconstruction from the text")
    p.add_argument("--version", action="version", version=f"xiangsheli-scene {version()}")
    p.add_argument("--chapter", type=text.chapter_id, default=DEFAULT_ID,
                   help=f"the chapter, a folder of assets/chapters/ (default {DEFAULT_ID}, 鄉射禮)")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    # listed for --help only: `app …` never reaches this parser (above)
    sub.add_parser("app", help="start the browser app (the flags of app.py and xiangsheli: app --help)",
                   add_help=False)
    for mod in COMMAND_MODULES:
        mod.register(sub)
    # every command takes --quiet too (after its name, where a user writes it)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines (none either when standard "
                   "error is not a terminal)")
    for sp in sub.choices.values():
        if sp.prog.split()[-1] != "app" and not any("--quiet" in a.option_strings for a in sp._actions):
            sp.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS,
                            help="no progress lines")
        # and --chapter, where a user writes it too (the top level's is the default)
        if sp.prog.split()[-1] != "app" and not any("--chapter" in a.option_strings for a in sp._actions):
            sp.add_argument("--chapter", type=text.chapter_id, default=argparse.SUPPRESS,
                            help=f"the chapter, a folder of assets/chapters/ (default {DEFAULT_ID}, 鄉射禮)")
    args = p.parse_args(args_in)
    if (line := chapter_gate(args)) is not None:
        return fail(line)
    from .. import progress
    if progress.wanted(args.quiet):
        progress.enable()
    try:
        return _run(args)
    finally:
        progress.disable()


def _run(args: argparse.Namespace) -> int:
    from ..geometry.readings import ReadingError
    from ..render.glprobe import GLUnavailable
    try:
        args.func(args)
    except (ReadingError, ValueError, KeyError, GLUnavailable) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return fail(str(msg).splitlines()[0] if str(msg) else type(exc).__name__)
    except BrokenPipeError:
        return 0
    except RecursionError:
        return fail("an input nested too deeply")
    except OSError as exc:                    # a full disk, a folder that vanished: one line, no traceback
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return fail(f"cannot write: {where}{exc.strerror or exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
