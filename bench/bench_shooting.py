"""The shooting as the class sees it (issue 42, item 1), measured from the rendered frame.

``python bench/bench_shooting.py [--sections 21,27,39] [--track OLD.npz] [--png DIR]``: starts the app, opens it
as a class sees it (classroom mode, the director's camera) at 1280×720, and at every arrow's loose in the
sections measures the archer who looses (assets/web/framecheck.js: his pixels drawn alone, the share of
them seen in the page's picture, a standing figure's height where he stands as a share of the view's height
— what frame_rules.min_height states its rule in).  With ``--track`` (an ``.npz`` of t, v, ease: e.g. the
track shipped before, assets/prebuilt/director-zheng/track.npz) the same moments are measured again in the
same page with that track put on the director: the two figures side by side, from one run.  ``--png`` saves
the picture of the first loose (and, with ``--track``, the old one's) and of the first landing."""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from frametools import FRAMECHECK  # noqa: E402
from webtools import READY, chromium, free_port, start_app  # noqa: E402

PUT_TRACK = """([t, v, e]) => { const d = window.__xslPlayer.extensions.find((x) => x.track && x.at);
  d.track = { t: new Float32Array(t), v: new Float32Array(v), e: new Uint8Array(e), title: d.track.title, hint: 0 };
  d.enable(); return true; }"""


def looses(rite, sections) -> list[tuple[str, float, float]]:
    """(archer, loose t, landing t) of every arrow shot in the sections."""
    out = []
    for oid in rite.object_ids:
        if not oid.startswith("arrow."):
            continue
        for _t, kind, value in rite.director.objects[oid].events:
            if kind == "path":
                s, e = float(value[0][0]), float(value[0][-1])
                sec = next((sp.section for sp in rite.spans if sp.do == "shoot" and sp.start_s <= s <= sp.end_s), None)
                if sec in sections:
                    out.append((oid.split(".")[1], s + 0.05, e))
    return sorted(out, key=lambda r: r[1])


def measure(page, moments) -> list[dict]:
    steps = [{"t": t, "who": [who], "key": who} for who, t, _e in moments]
    got = page.evaluate(f"([s, o]) => import('{FRAMECHECK}').then((f) => f.sweep(window.__xslPlayer, s, o))",
                        [steps, {"scale": 0.5}])
    return [m["people"][0] if m["people"] else {"standing": 0.0, "share": 0.0, "inFrame": False} for m in got]


def shoot(page, t: float, path: Path) -> None:
    """The page's picture at t (a few frames drawn after the jump: the first may still be the id buffer's)."""
    page.evaluate("(t) => { const p = window.__xslPlayer; p.setTime(t); p._dirty = true; }", t)
    for _ in range(3):
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")
    page.evaluate("() => { window.__xslPlayer._dirty = true; return window.__xslPlayer._nextFrame(); }")
    page.screenshot(path=str(path))


def summary(name: str, rows: list[dict]) -> str:
    st = [r.get("standing") or 0.0 for r in rows]
    seen = [r.get("share") or 0.0 for r in rows]
    return (f"{name}: the archer as he looses, a standing figure {statistics.median(st):.3f} of the picture's height "
            f"(median; min {min(st):.3f}, max {max(st):.3f}; 720 px: {statistics.median(st) * 720:.0f} px), seen "
            f"{statistics.median(seen):.0%} (median), in frame {sum(bool(r.get('inFrame')) for r in rows)}/{len(rows)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", default="21", help="comma-separated sections (21, 27, 39)")
    ap.add_argument("--track", type=Path, help="an older track (.npz t, v, ease) to measure beside")
    ap.add_argument("--png", type=Path, help="save pictures of the first loose and landing here")
    a = ap.parse_args(argv)
    from scene.rite.cache import load_rite
    rite = load_rite("zheng")
    moments = looses(rite, {int(x) for x in a.sections.split(",")})
    port = free_port()
    proc = start_app(port)
    t0 = time.time()
    try:
        with chromium() as b:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"http://127.0.0.1:{port}/?classroom=1")
            page.wait_for_function(READY, timeout=240000)
            page.evaluate("window.__xslPlayer.pause()")
            new = measure(page, moments)
            if a.png:
                a.png.mkdir(parents=True, exist_ok=True)
                for name, t in (("loose", moments[0][1]), ("land", moments[0][2])):
                    shoot(page, t, a.png / f"{name}.png")
            print(summary("now", new))
            if a.track:
                d = np.load(a.track)
                page.evaluate(PUT_TRACK, [d["t"].tolist(), d["v"].ravel().tolist(), d["ease"].astype(int).tolist()])
                old = measure(page, moments)
                if a.png:
                    shoot(page, moments[0][1], a.png / "loose_before.png")
                print(summary(f"with {a.track.name}", old))
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"{len(moments)} looses in §{a.sections}; {time.time() - t0:.0f} s in the browser")
    return 0


if __name__ == "__main__":
    sys.exit(main())
