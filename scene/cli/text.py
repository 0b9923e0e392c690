"""``python -m scene [--chapter ID] text``: a chapter's 經 and 記 as the text layer reads them, with their clauses.

The one command that reads any chapter so far (issue 43): the others play chapter 5, 鄉射禮.
"""
from __future__ import annotations

import argparse

from .checks import number
from .common import add_json, dump, table


def chapter_id(value: str) -> str:
    """A --chapter value: the id of a folder of ``assets/chapters/`` (else the parser's one line, the known ones)."""
    from ..chapter import chapters
    known = chapters()
    if value not in known:
        raise argparse.ArgumentTypeError(f"unknown chapter {value[:40]!r} (known: {', '.join(known)})")
    return value


def _clauses(cls) -> list[dict]:
    return [{"start": c.start, "text": c.text, "subject": c.subject, "named": c.named} for c in cls]


def cmd_text(args: argparse.Namespace) -> None:
    from .. import chapter as chapters
    from ..text import clauses, jing
    ch = chapters.resolve(args.chapter)
    script = "simplified" if args.simplified else "traditional"
    if args.section is not None or args.ji is not None:
        if args.section is not None:
            p = jing.passage(int(args.section), script, chapter=ch)
            name, title, text = f"§{p.n}", p.title, p.text
            cls = clauses.section_clauses(p.n, chapter=ch)
        else:
            k = int(args.ji)
            name, title, text = f"記{k:02d}", "", jing.ji(k, script, chapter=ch)
            cls = clauses.ji_clauses(k, chapter=ch)
        if args.json:
            dump({"chapter": ch.id, "passage": name, "title": title, "text": text, "clauses": _clauses(cls)})
            return
        print(f"{ch.title} {name} {title}".rstrip())
        print(text)
        print(table([["start", "subject", "clause"]] + [[str(c.start), c.subject or "—", c.text] for c in cls]))
        return
    rows = [(p, clauses.section_clauses(p.n, chapter=ch)) for p in jing.passages(script, chapter=ch)]
    ji_cls = sum(len(clauses.ji_clauses(k, chapter=ch)) for k in range(1, ch.ji + 1))
    if args.json:
        dump({"chapter": ch.id, "number": ch.number, "title": ch.title, "title_en": ch.title_en,
              "sections": [{"n": p.n, "title": p.title, "characters": len(p.text), "clauses": len(cls)}
                           for p, cls in rows],
              "ji": ch.ji, "ji_clauses": ji_cls})
        return
    print(f"{ch.id}: {ch.number} {ch.title} ({ch.title_en}): {ch.sections} sections, {ch.ji} 記 items")
    print(table([["§", "title", "characters", "clauses"]]
                + [[str(p.n), p.title, str(len(p.text)), str(len(cls))] for p, cls in rows]))
    print(f"{sum(len(c) for _, c in rows)} clauses in the 經, {ji_cls} in the 記")


def cmd_compare(args: argparse.Namespace) -> None:
    from ..text import parallel as par
    a = par.ref(args.a)
    if args.b is None:
        others = par.parallels_of(a)
        if not others:
            _, lone = par.load()
            why = next((u.why for u in lone if str(u.a) == str(a)), "no row in assets/parallels.toml")
            raise ValueError(f"{a} ({a.title}) has no parallel section: {why}")
        b = others[0]
    else:
        b = par.ref(args.b)
    m = par.measure(a, b)
    diffs = par.differences(a, b)
    if args.json:
        dump({"a": {"ref": str(a), "title": a.title, "text": a.text}, "b": {"ref": str(b), "title": b.title, "text": b.text},
              "ratio": m.ratio, "part": m.part, "mutual_best": m.mutual_best,
              "differences": [{"after": c, "a": x, "b": y} for c, x, y in diffs]})
        return
    print(f"{a.chapter.title} §{a.n} {a.title}  ·  {b.chapter.title} §{b.n} {b.title}")
    print(f"shared: ratio {m.ratio:.2f}, {m.part:.0%} of §{a.n}'s characters"
          f"{', each the other' + chr(39) + 's best match' if m.mutual_best else ''}")
    print("".join(s.a if s.same else f"〔{s.a or '—'}｜{s.b or '—'}〕" for s in par.align(a, b)))
    print(table([["after", a.chapter.title, b.chapter.title]] + [[c or "—", x or "—", y or "—"] for c, x, y in diffs]))


def _section_ref(value: str) -> str:
    from ..text import parallel as par
    try:
        par.ref(value)
    except par.ParallelError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def register(sub) -> None:
    cp = sub.add_parser("compare", help="a section beside its parallel in another chapter (鄉飲酒 §5 and 鄉射 §6)",
                        description="Two sections of two chapters aligned character by character: what both say, "
                                    "what only one says (assets/parallels.toml pairs them).")
    cp.add_argument("a", type=_section_ref, help="a section, chapter:n (e.g. xiangyinjiu:5)")
    cp.add_argument("b", type=_section_ref, nargs="?", default=None,
                    help="the other (default: its parallel in assets/parallels.toml)")
    add_json(cp)
    cp.set_defaults(func=cmd_compare, needs=())

    tx = sub.add_parser("text", help="a chapter's sections and 記 items and their clauses (--chapter ID)",
                        description="The text layer of a chapter: its sections (title, characters, clauses), or "
                                    "one section or 記 item cut into clauses with the subject of each.")
    which = tx.add_mutually_exclusive_group()
    which.add_argument("--section", type=number(1, 999, integer=True), default=None,
                       help="one section, cut into clauses")
    which.add_argument("--ji", type=number(1, 999, integer=True), default=None,
                       help="one 記 item, cut into clauses")
    tx.add_argument("--simplified", action="store_true", help="the simplified text")
    tx.add_argument("--chapter", type=chapter_id, default=argparse.SUPPRESS,
                    help="the chapter's id (python -m scene --chapter ID text works too)")
    add_json(tx)
    tx.set_defaults(func=cmd_text, needs=())
