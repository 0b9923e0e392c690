"""The long steps of the rite: every step longer than a minute, and how much of it anybody it names is acting.

A step's caption and its 經 highlight stay on one phrase for as long as the step lasts; a class follows it only
while somebody it names is seen doing something.  "Acting" at a moment (sampled every 0.5 s): one of the step's
people moves (≥ 0.05 尺 in the half second) or turns (≥ 2°), or is in a posture other than standing or sitting
still (kneeling down, bowing, saluting, shooting …), or speaks, or his holding changes.

    python bench/bench_long_steps.py [--reading zheng] [--over 60]
"""
from __future__ import annotations

import argparse

import numpy as np

DT = 0.5
STILL = ("stand", "sit", "")


def busy(rite, span, dt: float = DT) -> float:
    """Seconds of ``span`` during which at least one of its people is acting (see the module's docstring)."""
    if span.end_s - span.start_s < dt or not span.who:
        return 0.0
    ts = np.arange(span.start_s, span.end_s, dt)
    ks = [rite.actor_ids.index(a) for a in span.who if a in rite.actor_ids]
    S = rite.sample(np.append(ts, ts[-1] + dt))
    xyz = S["actor_xyz_m"][:, ks] / rite.reading.chi_m
    hd = S["heading_deg"][:, ks]
    moved = np.linalg.norm(np.diff(xyz, axis=0), axis=2) >= 0.05
    turned = np.abs((np.diff(hd, axis=0) + 180.0) % 360.0 - 180.0) >= 2.0
    act = (moved | turned).any(axis=1)
    for i, t in enumerate(ts):
        if act[i]:
            continue
        now, nxt = rite.pose_at(t), rite.pose_at(t + dt)
        act[i] = any(now.posture[k] not in STILL or now.say[k] or now.holding[k] != nxt.holding[k]
                     or now.posture[k] != nxt.posture[k] for k in ks)
    return float(act.sum() * dt)


def long_steps(rite, over: float = 60.0) -> list[tuple]:
    """(section, step index, phrase, seconds, seconds acting) of every step longer than ``over`` seconds."""
    out = []
    for sp in rite.spans:
        d = sp.end_s - sp.start_s
        if d > over:
            out.append((sp.section, sp.index, sp.phrase, d, busy(rite, sp)))
    return out


def main() -> None:
    from scene.rite.cache import load_rite
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reading", default="zheng")
    ap.add_argument("--over", type=float, default=60.0)
    a = ap.parse_args()
    rite = load_rite(a.reading)
    rows = long_steps(rite, a.over)
    print(f"{len(rite.spans)} steps, {rite.duration:.0f} s; {len(rows)} longer than {a.over:.0f} s "
          f"(reading {a.reading}):")
    for n, i, phrase, d, b in sorted(rows, key=lambda r: -r[3]):
        print(f"  §{n:<3} step {i + 1:<3} {d:6.0f} s  acting {b:6.0f} s ({100 * b / d:3.0f} %)  "
              f"idle {d - b:5.0f} s  {phrase}")
    print(f"longest step {max((r[3] for r in rows), default=0):.0f} s; caption seconds with nobody acting "
          f"in these steps: {sum(r[3] - r[4] for r in rows):.0f} s")


if __name__ == "__main__":
    main()
