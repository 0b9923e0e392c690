"""Bench of the browser player (assets/web/player.js) in real headless Chromium (Mesa llvmpipe).

    python bench/bench_player.py [--pack DIR] [--stage 21] [--size 1280x720] [--seconds 5] [--speed 8]
                                 [--scale 1] [--jumps 10] [--plain] [--quality auto|fast|high]
                                 [--adaptive 1|0] [--load both|idle|busy] [--compare QUERY] [--repeat N] [--json]

A run: the time from navigation to the first drawn frame, the stage-jump latency (PageDown
keydown → the animation frame after the one that drew the new stage; median of N jumps), and
the frame rate during playback at the given size and speed in a busy stage.  It runs twice
(``--load both``, the default): on the machine as it is ("idle"), and with one core kept busy by
a child process the bench starts itself ("busy": a school laptop with something else running).
``--adaptive 0`` turns the player's adaptive render scale off (assets/web/adaptive.js) to see
what it saves (it was not passed to the page before 2026-12-08: every run had it on).  ``--compare rest=0``
runs each load condition with and without those page parameters, alternately ``--repeat`` times, in the one
run (the machine is shared: only ratios taken in one run say what a change saves); ``--against /work/main``
runs another checkout's player (its assets/web) on the same pack as the second variant, alternately with this one's
(the player before a branch's change, in the same run).  ``rest=0`` is the player
before issue 42's rest cache (every person and thing drawn every frame).  Without --pack the pack is written to a temporary folder.  The machine is
shared with other processes: the reference loop (bench/reference.py) and the load average are
printed with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import webtools  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import subprocess  # noqa: E402

import reference  # noqa: E402


def _chromium_cpu_ms() -> dict[str, float]:
    """CPU time (user + system, ms) of this process's Chromium descendants by process type (Linux /proc).
    Per drawn frame it says what a frame costs whatever else the machine is doing (steal and load
    change the frame rate, much less the CPU a frame needs)."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    out: dict[str, float] = {}
    stack, tick = [os.getpid()], os.sysconf("SC_CLK_TCK")
    while stack:
        pid = stack.pop()
        stack += kids.get(pid, [])
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
            if not cmd or "chrom" not in cmd[0]:
                continue
            typ = next((c.split("=", 1)[1] for c in cmd if c.startswith("--type=")), "browser")
            st = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[typ] = out.get(typ, 0.0) + (int(st[11]) + int(st[12])) * 1000.0 / tick
        except (OSError, IndexError, ValueError):
            pass
    return out


def _steal_fraction(seconds: float = 1.0) -> float:
    """The share of CPU time the hypervisor took from this machine over a second (/proc/stat)."""
    def read():
        f = Path("/proc/stat").read_text().split("\n")[0].split()[1:]
        return [int(x) for x in f]
    try:
        a = read()
        time.sleep(seconds)
        b = read()
    except OSError:
        return float("nan")
    d = [y - x for x, y in zip(a, b)]
    return d[7] / max(1, sum(d)) if len(d) > 7 else float("nan")


JUMP_JS = """() => {
  const p = window.__xslPlayer;
  window.__jump = new Promise((resolve) => {
    const on = (ev) => {
      window.removeEventListener('keydown', on, true);
      const t0 = ev.timeStamp, f0 = p._frameCount;
      const wait = () => {
        if (p._frameCount > f0) requestAnimationFrame(() => resolve({ms: performance.now() - t0,
            drawn: p._lastRender - t0, stage: p.state().stage}));
        else requestAnimationFrame(wait);
      };
      requestAnimationFrame(wait);
    };
    window.addEventListener('keydown', on, true);
  });
}"""

FPS_JS = """(seconds) => new Promise((resolve) => {
  const p = window.__xslPlayer;
  let n = 0, t0 = null, f0 = 0, t_start = p.t;
  const gaps = [];
  let last = null;
  const tick = (now) => {
    if (t0 === null) { t0 = now; f0 = p._frameCount; last = now; }
    else { n++; gaps.push(now - last); last = now; }
    if (now - t0 < seconds * 1000) requestAnimationFrame(tick);
    else {
      gaps.sort((a, b) => a - b);
      resolve({raf_fps: n / ((now - t0) / 1000), drawn_fps: (p._frameCount - f0) / ((now - t0) / 1000),
               worst_ms: gaps[gaps.length - 1], p95_ms: gaps[Math.floor(gaps.length * 0.95)],
               t_advanced: p.t - t_start, stats: p.stats(),
               actors_shown: p.actors.filter((a) => a.shown).length,
               objects_shown: p.objects.filter((o) => o.shown).length});
    }
  };
  requestAnimationFrame(tick);
})"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pack", type=Path, help="a pack folder (default: write one with scene.web.pack)")
    ap.add_argument("--stage", type=int, default=21, help="the busy stage to play (section number)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--speed", type=float, default=8.0)
    ap.add_argument("--scale", type=float, default=1.0, help="renderScale (1 = full resolution)")
    ap.add_argument("--jumps", type=int, default=10)
    ap.add_argument("--plain", action="store_true",
                    help="without the static cache and the batched figures (what they save)")
    ap.add_argument("--quality", choices=("auto", "fast", "high"), default=None,
                    help="force the player's tier (quality.js); default: the page's auto")
    ap.add_argument("--adaptive", choices=("1", "0"), default="1",
                    help="the player's adaptive render scale (default on)")
    ap.add_argument("--load", choices=("both", "idle", "busy"), default="both",
                    help="idle: the machine as it is; busy: one core kept busy by a child process")
    ap.add_argument("--compare", default="", metavar="QUERY",
                    help="also run with these page parameters (e.g. rest=0), alternately, and print the ratios")
    ap.add_argument("--against", type=Path, default=None, metavar="CHECKOUT",
                    help="another checkout (e.g. /work/main): its assets/web run as a second variant, alternately "
                         "with this one's, on the same pack (the player before a change, in the same run)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each variant per load condition")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    why = webtools.chromium_missing_reason()
    if why:
        print(f"bench_player: {why}", file=sys.stderr)
        return 2
    w, h = (int(x) for x in a.size.lower().split("x"))
    tmp = None
    if a.pack is None:
        from scene.web.pack import shipped
        if shipped.current() is not None:
            a.pack = shipped.PREBUILT / f"pack-{shipped.READING}"
    if a.pack is None:
        from scene.web import pack as webpack
        tmp = tempfile.TemporaryDirectory(prefix="xsl-bench-pack-")
        t = time.perf_counter()
        webpack.write_pack(Path(tmp.name))
        print(f"pack written in {time.perf_counter() - t:.1f} s")
        a.pack = Path(tmp.name)
    print(reference.line(), flush=True)
    results = []
    try:
        variants = [""] + ([a.compare.lstrip("&?")] if a.compare else []) \
            + ([f"{AGAINST}{a.against.resolve()}"] if a.against else [])
        for busy in {"both": (False, True), "idle": (False,), "busy": (True,)}[a.load]:
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
            try:
                if hog is not None:
                    time.sleep(1.0)                     # let the scheduler see it
                for _ in range(max(1, a.repeat)):
                    for extra in variants:
                        out = run(a, w, h, extra)
                        out["busy_core"] = busy
                        results.append(out)
                        report(a, out)
            finally:
                if hog is not None:
                    hog.kill()
                    hog.wait()
    finally:
        if tmp is not None:
            tmp.cleanup()
    summary(results, variants)
    return 0


def summary(results: list[dict], variants: list[str]) -> None:
    """One line per load condition and variant (the median of its runs), and the variants' ratios."""
    print("\ncondition | page parameters | fps (drawn) | render scale | triangles (each frame) | draw calls | CPU ms/frame "
          "(Chromium; gpu-process) | load during")
    by: dict = {}
    for r in results:
        by.setdefault((r["busy_core"], r["extra"]), []).append(r)
    for (busy, extra), rs in by.items():
        def med(k: str, rs: list[dict] = rs) -> float:
            return statistics.median(x[k] for x in rs)
        cpu = statistics.median(sum(x["cpu_ms_per_frame"].values()) for x in rs)
        gpu = statistics.median(x["cpu_ms_per_frame"].get("gpu-process", 0.0) for x in rs)
        print(f"{'one core busy' if busy else 'idle'} | {extra or '(as shipped)'} | {med('fps_drawn'):.1f} "
              f"({', '.join(str(x['fps_drawn']) for x in rs)}) | {med('scale_end'):.0%} | {med('triangles'):.0f} "
              f"({med('triangles_per_frame'):.0f}) | "
              f"{med('draw_calls'):.0f} | {cpu:.1f}; {gpu:.1f} | {rs[0]['load_during']}")
    if len(variants) == 2:
        for busy in (False, True):
            a, b = by.get((busy, variants[0])), by.get((busy, variants[1]))
            if a and b:
                fa = statistics.median(x["fps_drawn"] for x in a)
                fb = statistics.median(x["fps_drawn"] for x in b)
                print(f"{'one core busy' if busy else 'idle'}: as shipped ÷ {variants[1]} frame rate {fa / max(0.1, fb):.2f}")


AGAINST = "against:"      # a variant that is another checkout's player (--against), not page parameters


def run(a, w: int, h: int, extra: str = "") -> dict:
    web = webtools.WEB
    if extra.startswith(AGAINST):
        web, extra_q = Path(extra[len(AGAINST):]) / "assets" / "web", ""
    else:
        extra_q = extra
    out: dict = {"size": [w, h], "stage": a.stage, "speed": a.speed, "scale": a.scale, "plain": a.plain, "extra": extra,
                 "cpus": os.cpu_count(), "load_before": [round(x, 2) for x in os.getloadavg()]}
    with webtools.site(a.pack, web) as (_root, url), webtools.chromium() as browser:
        page = browser.new_page(viewport={"width": w, "height": h})
        rec = webtools.RequestRecorder(page)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # 1. navigation → first drawn frame
        t = time.perf_counter()
        plain = "&cache=0&batch=0" if a.plain else ""
        quality = f"&quality={a.quality}" if a.quality else ""
        adaptive = "&adaptive=0" if a.adaptive == "0" else ""
        more = f"&{extra_q}" if extra_q else ""
        page.goto(f"{url}player.html?stage={a.stage}&scale={a.scale}{plain}{quality}{adaptive}{more}")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        out["first_frame_ms_wall"] = round((time.perf_counter() - t) * 1000, 1)
        out["first_frame_ms_page"] = round(page.evaluate("window.__xslFirstFrame"), 1)
        out["canvas"] = page.evaluate("(() => { const c = document.querySelector('canvas');"
                                      " return [c.width, c.height]; })()")
        # 2. stage jumps: PageDown from stage 12 on (a real key press through the input pipeline)
        page.evaluate("window.__xslPlayer.gotoStage(12)")
        page.wait_for_timeout(300)
        jumps = []
        for _ in range(a.jumps):
            page.evaluate(JUMP_JS)
            page.keyboard.press("PageDown")
            r = page.evaluate("window.__jump")
            jumps.append(r)
            page.wait_for_timeout(150)
        ms = [j["ms"] for j in jumps]
        out["jump_ms_median"] = round(statistics.median(ms), 1)
        out["jump_ms_max"] = round(max(ms), 1)
        out["jump_drawn_ms_median"] = round(statistics.median(j["drawn"] for j in jumps), 1)
        out["jump_stages"] = [j["stage"] for j in jumps]
        # 3. playback
        page.evaluate(f"(() => {{ const p = window.__xslPlayer; p.gotoStage({a.stage}); p.setSpeed({a.speed});"
                      f" p.play(); }})()")
        page.wait_for_timeout(500)
        out["load_during"] = [round(x, 2) for x in os.getloadavg()]
        out["steal"] = round(_steal_fraction(), 3)
        c0, f0 = _chromium_cpu_ms(), page.evaluate("window.__xslPlayer._frameCount")
        r = page.evaluate(FPS_JS, a.seconds)
        c1, f1 = _chromium_cpu_ms(), page.evaluate("window.__xslPlayer._frameCount")
        n = max(1, f1 - f0)
        out["cpu_ms_per_frame"] = {k: round((c1[k] - c0.get(k, 0.0)) / n, 1) for k in c1
                                   if c1[k] - c0.get(k, 0.0) > 0}
        out["adaptive"] = page.evaluate("(() => { const p = window.__xslPlayer;"
                                        " return p.adaptive ? p.adaptive.describe() : 'not in this player'; })()")
        out["scale_end"] = page.evaluate("window.__xslPlayer.renderer.getPixelRatio()")
        page.evaluate("window.__xslPlayer.pause()")
        out.update({"fps_raf": round(r["raf_fps"], 1), "fps_drawn": round(r["drawn_fps"], 1),
                    "frame_worst_ms": round(r["worst_ms"], 1), "frame_p95_ms": round(r["p95_ms"], 1),
                    "t_advanced_s": round(r["t_advanced"], 2), "draw_calls": r["stats"]["drawCalls"],
                    "triangles": r["stats"]["triangles"],
                    "triangles_per_frame": r["stats"]["dynamicTriangles"], "actors_shown": r["actors_shown"],
                    "objects_shown": r["objects_shown"]})
        out["gl_renderer"] = page.evaluate("""(() => { const gl = window.__xslPlayer.renderer.getContext();
            const e = gl.getExtension('WEBGL_debug_renderer_info');
            return e ? gl.getParameter(e.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER); })()""")
        out["foreign_requests"] = rec.foreign
        out["page_errors"] = errors
    out["load_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


def report(a, out: dict) -> None:
    w, h = out["size"]
    if a.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(f"player bench  {'ONE CORE BUSY  ' if out.get('busy_core') else 'idle  '}"
              f"{w}×{h}  stage {a.stage}  {a.speed}× speed  renderScale {a.scale}  "
              f"{'PLAIN (no static cache, no batch)  ' if a.plain else ''}{out['extra'] and out['extra'] + '  '}"
              f"({out['cpus']} CPUs, {out['gl_renderer']})")
        print(f"  load average      before {out['load_before']}  during {out['load_during']}  after {out['load_after']}"
              f"  (CPU stolen by the hypervisor during playback: {out['steal']:.0%})")
        print(f"  first frame       {out['first_frame_ms_page']} ms after navigation start "
              f"({out['first_frame_ms_wall']} ms wall, incl. browser round trips)")
        print(f"  stage jump        median {out['jump_ms_median']} ms, max {out['jump_ms_max']} ms "
              f"(keydown → next rAF after the new pose drawn; drawn after {out['jump_drawn_ms_median']} ms)")
        print(f"  playback          {out['fps_raf']} fps (rAF), {out['fps_drawn']} drawn/s, p95 frame "
              f"{out['frame_p95_ms']} ms, worst {out['frame_worst_ms']} ms; t advanced {out['t_advanced_s']} s")
        print(f"  adaptive          {out['adaptive']}")
        cpu = out["cpu_ms_per_frame"]
        print(f"  CPU per frame     {sum(cpu.values()):.1f} ms in Chromium: "
              + ", ".join(f"{k} {v}" for k, v in sorted(cpu.items(), key=lambda kv: -kv[1])))
        print(f"  scene             {out['draw_calls']} draw calls, {out['triangles']} triangles in the picture "
              f"({out['triangles_per_frame']} drawn each frame, the rest from the static cache), "
              f"{out['actors_shown']} actors and {out['objects_shown']} objects shown; canvas {out['canvas']}")
        if out["foreign_requests"] or out["page_errors"]:
            print(f"  !! foreign requests {out['foreign_requests']}  page errors {out['page_errors']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
