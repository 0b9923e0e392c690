"""The scholar's report of a section (考) as one HTML page: a table a reader can scan, one row per clause
(anchor ``#c<k>``), the section's 經 at the top with each clause linked to its row.

The Chinese is drawn in the shipped CJK font, named by the page: in the static site and the app, the pack's
subset beside it (``font_urls``); alone (``python -m scene review --html``), a subset of just the page's
characters embedded as a data URL, so the one file shows glyphs anywhere.  A link from the player's 經 panel
names the phrase by its offset in the 經 (``#p<offset>``); the page's few lines of script take it to the
clause that covers it (the clauses of the coverage need not be the steps' phrases).
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from pathlib import Path

CSS = """
body { font-family: 'XSLCJK', 'XSLCJK Fallback', serif; margin: 1.2em 2em; color: #2b2118; background: #fbf8f1;
  line-height: 1.45; }
h1 { font-size: 1.4em; margin: 0 0 .2em; } .meta { color: #6b5d4f; font-size: .9em; }
.jing { font-size: 1.15em; letter-spacing: .05em; max-width: 60em; }
.jing a { color: inherit; text-decoration: none; border-bottom: 1px dotted #a08060; }
.jing a:hover { background: #f1e3c6; }
table { border-collapse: collapse; width: 100%; font-size: .9em; }
th, td { border-top: 1px solid #d9cdb8; padding: 4px 6px; vertical-align: top; text-align: left; }
th { position: sticky; top: 0; background: #efe6d4; z-index: 1; }
tr { scroll-margin-top: 2.6em; }
tr:target, tr.target { background: #fff1c9; outline: 2px solid #d2a24c; }
td.words { font-size: 1.1em; min-width: 9em; } .src { color: #8a6d4b; font-size: .8em; }
td.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.ev { font-size: .85em; } .ev b { font-weight: 600; }
.stated { color: #1f6b3a; } .commentary { color: #2d5591; } .assumed { color: #8a5a00; }
.fail { color: #a11d1d; } .ok { color: #1f6b3a; } .dim { color: #8d8073; }
ul { margin: 0; padding-left: 1.1em; }
"""

#: finds the clause row of a ``#p<offset>`` link (a phrase of the player's 經 panel) and goes there
SCRIPT = """
(function () {
  var spans = JSON.parse(document.getElementById('xsl-clauses').textContent);
  function go() {
    var m = /^#p(\\d+)$/.exec(location.hash);
    if (!m) return;
    var at = +m[1], best = null;
    spans.forEach(function (s) { if (s[0] <= at && at < s[1] && (!best || s[1] - s[0] < best[1] - best[0])) best = s; });
    if (best) location.replace('#c' + best[2]);
  }
  go();
  window.addEventListener('hashchange', go);
})();
"""


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def _font_face(font_urls: list[str] | None, text: str) -> str:
    if font_urls is None:
        font_urls = _embedded(text)
    names = ["XSLCJK", "XSLCJK Fallback"]
    return "".join(f"@font-face {{ font-family: '{names[min(i, 1)]}'; src: url('{u}'); }}\n"
                   for i, u in enumerate(font_urls))


def _embedded(text: str) -> list[str]:
    """Data URLs of a subset of the CJK font (and of its fallback for what it lacks) with ``text``'s characters.

    Plain shapes only (no GSUB/GPOS: the page needs no vertical or alternate forms), which makes the subset
    three times quicker; kept in the disk cache under the characters' hash (a report made again is instant)."""
    from ..fonts import cmap as _cmap
    from ..fonts import fallback_font_path, font_path
    from ..paths import cache_dir
    from .pack.font import _subset
    want = {ord(c) for c in text if ord(c) > 0x7F} | set(range(0x20, 0x7F))
    out = []
    main = font_path()
    have = _cmap(main)
    for src, cps in ((main, want & have), (fallback_font_path(), (want - have))):
        if not src or not cps or not (cps & _cmap(src)):
            continue
        cps = cps & _cmap(src)
        key = hashlib.sha256(repr((str(src), os.path.getsize(src), sorted(cps))).encode()).hexdigest()[:20]
        f = cache_dir() / "review-fonts" / f"{key}.otf"
        if not f.is_file():
            f.parent.mkdir(parents=True, exist_ok=True)
            _subset(src, cps, f, layout=False)
            kept = sorted(f.parent.glob("*.otf"), key=lambda p: p.stat().st_mtime)
            for stale in kept[:-200]:            # a few tens of KB each: the last 200 pages' subsets
                stale.unlink(missing_ok=True)
        out.append("data:font/otf;base64," + base64.b64encode(f.read_bytes()).decode("ascii"))
    return out


def _who(c) -> str:
    ids = ", ".join(f"{esc(a.name)} <span class=dim>{esc(a.id)}</span>" for a in c.actors) or \
        esc(", ".join(c.actor_ids)) or "<span class=dim>nobody played</span>"
    return f"{esc(c.subject) or '<span class=dim>(implicit)</span>'}<br>→ {ids}"


def _per_actor(c, fn) -> str:
    if not c.actors:
        return ""
    if len(c.actors) == 1:
        return fn(c.actors[0])
    return "<ul>" + "".join(f"<li>{esc(a.name)}: {fn(a)}</li>" for a in c.actors) + "</ul>"


def _evidence(c) -> str:
    out = []
    for e in c.evidence:
        items = "".join(f"<li><b>{esc(a)}</b> <span class={esc(s)}>{esc(s)}</span> — {esc(src)}</li>"
                        for a, s, src in e.evidence)
        out.append(f"<details><summary>step {e.index + 1} {esc(e.verb)} ({esc(', '.join(e.who))}) "
                   f"{''.join(esc(s[0]) for _, s, _ in e.evidence)}</summary><ul>{items}</ul></details>")
    return "".join(out)


def _checks(rv, c) -> str:
    out = [f"<span class=ok>✓ {esc(x)}</span>" for x in c.checks]
    if not c.checks and rv.basis == "steps" and c.steps and not c.failures:
        out.append("<span class=ok>no finding of the checker on its steps</span>")
    out += [f"<span class=fail>✗ {esc(f)}</span>" for f in c.failures]
    out += [f"<span class=dim>excepted: {esc(f)}</span>" for f in c.excepted]
    if c.reason and c.status != "checked":
        out.append(f"<span class=dim>{esc(c.reason)}</span>")
    return "<br>".join(out)


def _row(rv, c) -> str:
    words = f"<span class=src>{esc(c.source)}</span> {esc(c.text)}"
    if c.ji:
        words += "".join(f"<br><span class=src>{esc(j)}</span> {esc(rv.ji_texts.get(j, ''))}" for j in c.ji)
    where = _per_actor(c, lambda a: f"{a.xyz_chi[0]:.2f}, {a.xyz_chi[1]:.2f}, {a.xyz_chi[2]:.2f} 尺<br>"
                                    f"{esc(a.place_name)} <span class=dim>({a.place_dist_chi:g} 尺)</span>")
    facing = _per_actor(c, lambda a: f"{esc(a.facing_word)} {a.heading_deg:.0f}°")
    posture = _per_actor(c, lambda a: esc(" → ".join(a.postures)))
    holds = _per_actor(c, lambda a: f"{esc(a.holding_before or '—')} → {esc(a.holding_after or '—')}")
    t = "—" if c.t0 is None else f"{c.t0:.1f}–{c.t1:.1f}"
    return (f'<tr id="c{c.k}" data-status="{esc(c.status)}"><td class=num><a href="#c{c.k}">c{c.k}</a></td>'
            f"<td class=words>{words}</td><td>{_who(c)}</td><td class=num>{where}</td><td>{facing}</td>"
            f"<td>{posture}</td><td>{holds}</td><td class=num>{t}</td><td class=ev>{_evidence(c)}</td>"
            f"<td class=ev>{_checks(rv, c)}</td></tr>")


def _jing(rv) -> str:
    """The 經 with each clause a link to its row (the shortest clause at each character wins)."""
    text = rv.jing
    owner = [None] * len(text)
    for c in sorted((c for c in rv.clauses if c.source == "經"), key=lambda c: -len(c.text)):
        for i in range(c.start, min(c.start + len(c.text), len(text))):
            owner[i] = c.k
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and owner[j] == owner[i]:
            j += 1
        seg = esc(text[i:j])
        out.append(f'<a href="#c{owner[i]}">{seg}</a>' if owner[i] else seg)
        i = j
    return "".join(out)


def basis_line(rv) -> str:
    """Where the clauses and their checks come from."""
    if rv.basis == "coverage":
        return "clauses: the checker's clause coverage (scene.rite.grammar.coverage)"
    return ("clauses: the steps grouped by the phrase they act (the clause coverage is not available); checks: "
            "the grammar's findings on their steps")


def _neighbours(rv, back: str | None) -> str:
    """Links to the sections before and after (pages side by side: the site's and the app's, not a lone file)."""
    if not back:
        return ""
    from ..text.jing import N_SECTIONS
    last = getattr(rv, "last", 0) or N_SECTIONS      # the rite's chapter's count (chapter 5's for an old report)
    out = [f'<a href="{n}.html">{label}</a>' for n, label in ((rv.n - 1, f"‹ §{rv.n - 1}"), (rv.n + 1, f"§{rv.n + 1} ›"))
           if 1 <= n <= last]
    return " — " + " · ".join(out)


def page(rv, font_urls: list[str] | None = None, back: str | None = None) -> str:
    """The report as one HTML page.  ``font_urls``: the CJK font files (relative to the page); None embeds a
    subset of the page's characters; ``back``: a link back to the player at this section."""
    when = (f"{rv.start_s:.1f}–{rv.end_s:.1f} s in the rite" if rv.start_s is not None
            else "not played under this reading")
    head = ["#", "words 經 / 記", "who", "where (尺)", "facing", "posture", "holds", "time s", "evidence",
            "checks"]
    spans = [[c.start, c.start + len(c.text), c.k] for c in rv.clauses if c.source == "經"]
    body = (f"<h1>§{rv.n} {esc(rv.title)} <span class=dim>{esc(rv.id)}</span></h1>"
            f"<p class=meta>reading {esc(rv.reading)} — {when} — {esc(basis_line(rv))}"
            + (f' — <a href="{esc(back)}">播放 play</a>' if back else "") + _neighbours(rv, back) + "<br>evidence of each step, in the "
            "order where, facing, posture, route, timing: <span class=stated>s stated</span>, "
            "<span class=commentary>c commentary</span>, <span class=assumed>a assumed</span> (open a step for "
            "the sources)</p>"
            f"<p class=jing lang=zh-Hant>{_jing(rv)}</p>"
            + "".join(f"<p class=fail>section: ✗ {esc(f)}</p>" for f in rv.section_failures)
            + "<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(_row(rv, c) for c in rv.clauses) + "</tbody></table>"
            + f'<script type="application/json" id="xsl-clauses">{json.dumps(spans)}</script>'
            + f"<script>{SCRIPT}</script>")
    title = f"§{rv.n} {esc(rv.title)} · 考 review"
    fonts = _font_face(font_urls, title + body)
    return (f'<!doctype html>\n<html lang="zh-Hant"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{fonts}{CSS}</style></head>"
            f"<body>{body}</body></html>\n")


def section_pages(rite, font_urls: list[str], back: str | None = None) -> dict[int, str]:
    """n → the page of every section of a compiled rite (``back``: the player's address, ``{n}`` the section)."""
    from ..rite.review import review_section
    return {s.n: page(review_section(rite, s.n), font_urls, back.format(n=s.n) if back else None)
            for s in rite.choreography.sections}


def write_pages(folder: Path, pages: dict[int, str]) -> list[Path]:
    """``<n>.html`` in ``folder``, each replaced whole (a reader never sees half a page)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    from ..atomic import write_text
    for n, text in pages.items():
        out.append(write_text(folder / f"{n}.html", text))     # the one safe writer (no planted link followed)
    return out


def app_folder(reading) -> Path:
    """Where the app keeps the review pages of its reading (served as ``xslreview/``)."""
    from ..geometry import readings
    from ..paths import cache_dir
    return cache_dir() / "review-pages" / readings.get(reading).name


def write_app_pages(reading, font_urls: list[str]) -> list[Path]:
    """The app's review pages (its reading; the font as the app serves it, ``xslfont/``): made after the
    scene is ready, in the background — the 經 panel's 考 link opens them.  Chapter 5's in the folder, every
    other chapter's in its subfolder (``xslreview/xiangyinjiu/<n>.html``), each page's link back naming it."""
    from ..rite.cache import load_rite
    from .chapters import DEFAULT_CHAPTER, app_chapters
    out = write_pages(app_folder(reading), section_pages(load_rite(reading), [f"../{u}" for u in font_urls],
                                                         "../?stage={n}"))
    for ch in (c["id"] for c in app_chapters() if c["id"] != DEFAULT_CHAPTER):
        pages = section_pages(load_rite(reading, chapter=ch), [f"../../{u}" for u in font_urls],
                              f"../../?chapter={ch}&stage={{n}}")
        out += write_pages(app_folder(reading) / ch, pages)
    return out


def spawn_app_pages(reading, font_urls: list[str]):
    """Make the app's review pages in a child process below the server's priority (nice 10): the server's
    GIL and its first paint are not touched; the pages appear a few seconds after the scene is ready (the
    first time the checker's findings take ~10 s, then they are cached).  Returns the process."""
    import subprocess
    import sys

    from ..geometry import readings
    app_folder(reading).mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "scene.web.review", readings.to_query(readings.get(reading)),
                             *font_urls], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: os.nice(10), start_new_session=True)


if __name__ == "__main__":          # the app's child: python -m scene.web.review QUERY FONT_URL…
    import sys
    write_app_pages(sys.argv[1], sys.argv[2:])
