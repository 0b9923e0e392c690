"""The scholar's report of a section (考) for the terminal: clause by clause, aligned in columns that count a
CJK character as two (a terminal draws it two cells wide).  The data is :mod:`scene.rite.review`'s."""
from __future__ import annotations

import unicodedata

from ..web.review import basis_line

STATUS_MARK = {"stated": "S", "commentary": "C", "assumed": "a"}


def cells(s: str) -> int:
    """Terminal columns of a string: wide and full-width characters (CJK, 「」) take two."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 0 if unicodedata.combining(c) else 1
               for c in s)


def pad(s: str, width: int) -> str:
    return s + " " * max(0, width - cells(s))


def table(rows: list[list[str]], indent: str = "") -> list[str]:
    widths = [max(cells(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(pad(c, w) for c, w in zip(r, widths)).rstrip() for r in rows]


def render_text(rv) -> str:
    """The report as lines for a terminal."""
    out = [f"§{rv.n} {rv.title} ({rv.id}) — reading {rv.reading}"
           + (f" — {rv.start_s:.1f}–{rv.end_s:.1f} s in the rite" if rv.start_s is not None else
              " — not played under this reading"),
           basis_line(rv), f"經 {rv.jing}", ""]
    for c in rv.clauses:
        head = f"[c{c.k}] {c.source} 「{c.text}」"
        when = "not played" if c.t0 is None else f"{c.t0:.1f}–{c.t1:.1f} s"
        out.append(f"{head}  {when}  {c.status}")
        if c.source != "經" and c.source in rv.ji_texts:
            out.append(f"  記      {c.source} {rv.ji_texts[c.source]}")
        if c.ji:
            out += [f"  記      {j} {rv.ji_texts.get(j, '')}" for j in c.ji]
        subject = c.subject or "(implicit)"
        out.append(f"  who     {subject} → " + (", ".join(f"{a.name} ({a.id})" for a in c.actors) or
                                                ", ".join(c.actor_ids) or "nobody is played"))
        if c.actors:
            rows = [["actor", "at s", "x 尺", "y 尺", "z 尺", "nearest place", "facing", "postures", "holds before → after"]]
            for a in c.actors:
                rows.append([f"{a.role} ({a.id})", f"{a.t:.1f}", f"{a.xyz_chi[0]:.2f}", f"{a.xyz_chi[1]:.2f}",
                             f"{a.xyz_chi[2]:.2f}", f"{a.place_name} ({a.place_dist_chi:g} 尺)",
                             f"{a.facing_word} {a.heading_deg:.0f}°", " → ".join(a.postures),
                             f"{a.holding_before or '—'} → {a.holding_after or '—'}"])
            out += table(rows, "    ")
        for e in c.evidence:
            out.append(f"  step {e.index + 1:<3} {e.verb} ({', '.join(e.who)})")
            out += table([[a, s, src] for a, s, src in e.evidence], "      ")
        if c.checks:
            out.append("  holds   " + ", ".join(c.checks))
        elif rv.basis == "steps" and c.steps and not c.failures:
            out.append("  holds   no rule of the checker finds anything on its steps")
        out += [f"  FAILS   {f}" for f in c.failures]
        out += [f"  excepted {f}" for f in c.excepted]
        if c.reason and c.status != "checked":
            out.append(f"  note    {c.reason}")
        out.append("")
    out += [f"section: FAILS {f}" for f in rv.section_failures]
    return "\n".join(out).rstrip() + "\n"
