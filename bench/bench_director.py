"""Bench of the director's camera in real headless Chromium (Mesa llvmpipe): the frame rate while playing
with view ``auto`` through stretches where the camera eases and cuts (the static cache is redrawn at every
camera move, so this is the player's worst ordinary case).

    python bench/bench_director.py [--pack DIR] [--size 1280x720] [--seconds 6] [--speed 4] [--json]

Prints the frames drawn per second, the number of camera keys passed and of distinct cameras drawn.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import webtools  # noqa: E402

RUN_JS = """([seconds, t0, speed]) => new Promise((resolve) => {
  const p = window.__xslPlayer;
  const d = p.extensions.find((x) => x.track !== undefined && x.enable);
  d.enable(); p.setTime(t0); p.setSpeed(speed); p.play();
  let s = null, f0 = 0; const cams = new Set(); const gaps = []; let last = null;
  const tick = (now) => {
    if (s === null) { s = now; f0 = p._frameCount; last = now; }
    else { gaps.push(now - last); last = now; }
    cams.add(JSON.stringify(p.camera().position));
    if (now - s < seconds * 1000) requestAnimationFrame(tick);
    else {
      p.pause(); gaps.sort((a, b) => a - b);
      resolve({fps: (p._frameCount - f0) / ((now - s) / 1000), p95_ms: gaps[Math.floor(gaps.length * 0.95)],
               cameras: cams.size, t_end: p.t, on: d.on});
    }
  };
  requestAnimationFrame(tick);
})"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default=None)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--speed", type=float, default=4.0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    w, h = (int(x) for x in a.size.split("x"))
    from scene.render import shots
    from scene.rite.timeline import build_rite
    from scene.web import pack as webpack
    tmp = None
    pack = Path(a.pack) if a.pack else None
    if pack is None:
        tmp = tempfile.TemporaryDirectory()
        pack = Path(tmp.name)
        webpack.write_pack(pack)
        webpack.write_font(pack / "font" / "cjk.otf")
    tr = shots.track(build_rite())
    # the busiest stretch of camera moves: the 5-key window with the most eases
    k = max(range(len(tr.t) - 5), key=lambda i: (int(tr.ease[i:i + 5].sum()), -i))
    t0 = float(tr.t[k])
    out = {"size": a.size, "t0": round(t0, 1), "speed": a.speed, "load": os.getloadavg()[0]}
    with webtools.site(pack) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": w, "height": h})
        page.goto(f"{url}player.html")
        page.wait_for_function("document.body.dataset.ready", timeout=180_000)
        r = page.evaluate(RUN_JS, [a.seconds, t0, a.speed])
    keys = int(((tr.t > t0) & (tr.t <= r["t_end"])).sum())
    out.update({"fps": round(r["fps"], 1), "p95_ms": round(r["p95_ms"], 1), "cameras_drawn": r["cameras"],
                "keys_passed": keys, "director_on": r["on"]})
    if a.json:
        print(json.dumps(out))
    else:
        print(f"director's camera at {a.size}: {out['fps']} fps drawn (p95 frame {out['p95_ms']} ms), "
              f"{out['cameras_drawn']} distinct cameras, {keys} keys passed from t = {out['t0']} s at {a.speed}×; "
              f"load {out['load']:.2f}")
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
