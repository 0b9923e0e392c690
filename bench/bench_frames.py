"""The director's shot of every step of the rite, measured in the browser (issue 27).

``python bench/bench_frames.py [--limit N] [--scale S] [--json out.json]``: starts the app, opens it as a
class sees it (classroom mode, the director's camera), and for every step the Python audit judges
(:func:`scene.render.shot_audit.audit`: each step that names someone on stage, at its middle) sets the
moment, lets the page draw it (the director's camera, the labels and the caption line of that moment) and
measures the step's people from the rendered frame (assets/web/framecheck.js: an id buffer, the page's
overlays subtracted), judged as tests/test_lesson45.py judges a stop (tests/frametools.py).  Prints the
share of steps that pass, the Python audit's share, and where the two disagree and why."""
from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from frametools import COVERED, FRAMECHECK, UNOCCLUDED, judge, needs  # noqa: E402
from webtools import READY, chromium, free_port, start_app  # noqa: E402


def kind(why: str) -> str:
    """A failure's kind, for the tally (the person's id and the figures taken out)."""
    w = re.sub(r"^\S+ ", "", why)
    if w.startswith("seen"):
        if "by the scene" not in w:
            return "covered by the page"
        m = re.search(r"\((\d+)% by the hall or things, (-?\d+)% by other people\)", w)
        return "hidden mostly by the hall or things" if m and int(m[1]) >= int(m[2]) else "hidden mostly by other people"
    if w.startswith("under"):
        return "under " + ("a label" if "label:" in w else "a caption or the toolbar")
    if w.startswith("figure"):
        return "figure too small"
    return w


#: the last run's figures (for tests/test_lesson45.py's whole-rite test)
LAST: dict = {}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N steps (0: all)")
    ap.add_argument("--scale", type=float, default=0.5, help="the id buffer's size, of the view's CSS pixels")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--json", type=Path, help="write every step's figures here")
    a = ap.parse_args(argv)
    from scene.rite.timeline import build_rite
    t0 = time.time()
    rule = needs(build_rite())
    t_audit = time.time() - t0
    steps = sorted(rule.values(), key=lambda n: n.t)
    if a.limit:
        steps = steps[:a.limit]
    port = free_port()
    proc = start_app(port)
    out = []
    try:
        with chromium() as b:
            page = b.new_page(viewport={"width": a.width, "height": a.height})
            page.goto(f"http://127.0.0.1:{port}/?classroom=1")
            page.wait_for_function(READY, timeout=240000)
            page.evaluate("window.__xslPlayer.pause()")
            t1 = time.time()
            for k in range(0, len(steps), 100):
                chunk = [{"t": n.t, "who": list(n.who), "key": f"{n.section}.{n.index}"} for n in steps[k:k + 100]]
                got = page.evaluate(f"([s, o]) => import('{FRAMECHECK}').then((f) => f.sweep(window.__xslPlayer, s, o))",
                                    [chunk, {"scale": a.scale}])
                out.extend(got)
                print(f"  {len(out)}/{len(steps)} steps measured ({time.time() - t1:.0f} s)", file=sys.stderr)
            t_browser = time.time() - t1
    finally:
        proc.terminate()
        proc.wait(10)
    rows = []
    tally: collections.Counter = collections.Counter()
    both = {"pass/pass": 0, "pass/fail": 0, "fail/pass": 0, "fail/fail": 0}
    for n, m in zip(steps, out):
        why = judge(m["people"], n.height)
        if m["view"] != "auto":
            why.append(f"view {m['view']} (not the director's)")
        ok = not why
        for w in why:
            tally[kind(w)] += 1
        both[f"{'pass' if n.ok_python else 'fail'}/{'pass' if ok else 'fail'}"] += 1
        rows.append({"step": f"§{n.section}.{n.index + 1}", "t": n.t, "who": n.who, "need": n.height, "ok": ok,
                     "why": why, "python_ok": n.ok_python, "python_why": n.why_python, "people": m["people"]})
    share = sum(r["ok"] for r in rows) / max(1, len(rows))
    py = sum(n.ok_python for n in steps) / max(1, len(steps))
    if a.json:
        a.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), "utf-8")
    for r in rows:
        if not r["ok"]:
            print(f"  {r['step']} t={r['t']:.1f} ({', '.join(r['who'])}): {'; '.join(r['why'])}"
                  f"  [python: {r['python_why']}]")
    print(f"failures by kind (a step may have several): {dict(tally.most_common())}")
    print(f"python audit / browser: {both}")
    print(f"browser: {sum(r['ok'] for r in rows)}/{len(rows)} steps pass = {share:.1%} (seen ≥ {UNOCCLUDED:.0%}, "
          f"covered ≤ {COVERED:.0%}, in frame, figure ≥ the rule; {a.width}×{a.height}, id buffer ×{a.scale}); "
          f"python audit {py:.1%}; audit {t_audit:.0f} s, browser {t_browser:.0f} s")
    LAST.update(share=share, python=py, steps=len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
