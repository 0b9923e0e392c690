"""The look of the reconstruction (issue 15): the same five moments as stills and as player screenshots.

    python bench/bench_look.py --out bench/look/after [--size 960x540] [--pack DIR]
    python bench/bench_look.py --director --out bench/look/after      (issue 27: director_N.png, 1280×720)

Views: overview §5, hall §21, archer §21, target §33, plan §32 — each still at the stage's representative
moment (``python -m scene still``'s default) and the player page (assets/web/player.html, headless Chromium
on llvmpipe) at the same moment (``?t=T``, then the view; the 經 panel hidden).  Prints the pack build time (cold bake unless
the bake cache is warm) and the time of each still; writes still_V_N.png and player_V_N.png.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")

import webtools  # noqa: E402

SHOTS = (("overview", 5), ("hall", 21), ("archer", 21), ("target", 33), ("plan", 32))
# issue 27: the director's camera (view auto) at 1280×720 — the count, the drink, a bow answered on the 門's
# outside (the kneeling labels), the 賓 going out; a phrase picks the step (its middle), else the stage's moment
DIRECTOR = ((32, None), (33, None), (4, "賓答再拜"), (49, None))


def director_moments(rite):
    from scene.render import stills
    out = []
    for n, phrase in DIRECTOR:
        st = stills.find_stage(rite, n)
        sp = next((s for s in rite.spans if s.section == n and phrase and phrase in s.phrase), None)
        out.append(("auto", st, (sp.start_s + sp.end_s) / 2 if sp else stills.representative_t(rite, st)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", default="960x540")
    ap.add_argument("--pack", default=None, help="a pack folder (default: built now, timed)")
    ap.add_argument("--no-stills", action="store_true")
    ap.add_argument("--no-player", action="store_true")
    ap.add_argument("--quality", default=None, help="the player's tier: fast | high (default: the page's auto)")
    ap.add_argument("--director", action="store_true",
                    help="issue 27: the director's view (auto) of §32 §33 §4 §49 in the player, 1280×720 by default")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.director:
        a.no_stills = True
        a.size = "1280x720" if a.size == "960x540" else a.size
    w, h = (int(v) for v in a.size.lower().split("x"))
    from scene.render import stills
    from scene.rite.cache import load_rite
    rite = load_rite(None)
    moments = []
    for view, n in () if a.director else SHOTS:
        st = stills.find_stage(rite, n)
        moments.append((view, st, stills.representative_t(rite, st)))
    if a.director:
        moments = director_moments(rite)
    if not a.no_stills:
        studio = stills.Studio(None, (w, h), rite=rite)
        for view, st, t in moments:
            t0 = time.perf_counter()
            still = studio.render(t, view, stage=st)
            dt = time.perf_counter() - t0
            stills.save_png(still.image, out / f"still_{view}_{st.n}.png")
            print(f"still {view} §{st.n}: {dt:.2f} s")
        studio.close()
    if a.no_player:
        return
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(a.pack) if a.pack else Path(tmp) / "pack"
        if not a.pack:
            from scene.web import pack as webpack
            t0 = time.perf_counter()
            webpack.write_pack(pack)
            print(f"pack build: {time.perf_counter() - t0:.1f} s")
            webpack.write_font(pack / "font" / "cjk.otf")
        with webtools.site(pack) as (_root, url), webtools.chromium() as browser:
            for view, st, t in moments:
                page = browser.new_page(viewport={"width": w, "height": h})
                # the page's t is absolute; the view is set after it (t re-aims the stage's camera)
                q = f"&quality={a.quality}" if a.quality else ""
                page.goto(f"{url}player.html?t={t:.2f}{q}")
                page.wait_for_function("document.body.dataset.ready", timeout=120_000)
                page.add_style_tag(content="#xsl-text { display: none !important; }")
                page.evaluate(f"window.__xslPlayer.setView('{view}')")
                if view == "auto":                      # the director's camera re-aimed at t (t, then the view)
                    page.evaluate(f"window.__xslPlayer.setTime({t:.3f})")
                page.evaluate("window.__xslPlayer._nextFrame().then(() => new Promise(requestAnimationFrame))")
                page.wait_for_timeout(400)
                tag = f"_{a.quality}" if a.quality else ""
                name = f"director_{st.n}" if view == "auto" else f"player{tag}_{view}_{st.n}"
                webtools.save_png(webtools.screenshot(page), out / f"{name}.png")
                tier = page.evaluate("window.__xslPlayer.quality().tier") \
                    if page.evaluate("typeof window.__xslPlayer.quality") == "function" else "fast"
                print(f"player {view} §{st.n} t={t:.1f} (tier {tier})")
                if a.quality:
                    page.evaluate("localStorage.removeItem('xsl-quality')")
                page.close()


if __name__ == "__main__":
    main()
