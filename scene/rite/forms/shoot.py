"""拾發: a pair's eight arrows (or the 誘射's four), the 獲者's calls and, in rounds 2–3, the 筭."""
from __future__ import annotations

from typing import cast

from .. import choreography as chor
from ..shooting import JIE_S, Shot, arrow_path
from .base import Acts

DRAW_S = 2.5          # drawing and aiming, from raising the bow to the release (assumed)
MIN_DRAW_S = 1.0      # the shortest draw, when the drum's next stroke comes soon after the last arrow
STROKE_S = JIE_S / 2  # the drum's strokes in round 3: one for each arrow of a 拾 (scene.rite.shooting)
OFF_BEAT_S = 0.6      # an arrow off the drum leaves at least this far from the stroke (shooting: 0.15 × stroke)
OU_BACK = 1.0         # 尺: 耦少退于物 — how far back from his 物 the 大夫's 耦 stands (our figure for 少)

def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """拾發: the pair's eight arrows (or the 誘射's four), with the 獲者's calls and the counters."""
    rnd = step.round
    assert rnd is not None                # (the loader holds a shoot step to its round)
    if rnd == 0:
        shots = list(acts.demo)
    else:
        res = acts.results[rnd]
        pair_index = acts.round_pairs[rnd].index(cast("tuple[str, str]", tuple(step.who)))
        shots = [s for s in res.shots if s.pair == pair_index]
    for a in step.who:
        acts.hold(a, t0)
    if rnd in (2, 3):
        if sum(acts.counters.values()) == 0:
            acts.load_zhong(t0)
        acts.ready_counters(t0)
    t = t0 + 1.0
    last_call = t
    # 記46 大夫與士射…耦少退于物 (鄭 下大夫也，既發則然): once he has shot, the 大夫's 耦 stands a little back
    ou = next((a for a in step.who if a != "dafu"), None) if "dafu" in step.who and len(step.who) == 2 else None
    for shot in shots:
        a = shot.archer
        if rnd != 3 or shot.release_s is None:
            t_draw = t
            t_rel = t_draw + DRAW_S
        else:
            t_rel = _on_the_drum(shot, t0, t)
            t_draw = max(t, t_rel - DRAW_S)
        acts.pose(a, t_draw, "shoot")
        acts.pose(a, t_rel + 0.6, "stand")
        t_land = _release(acts, a, f"arrow.{a}.{shot.n}", t_rel, shot)
        if a == ou:
            here = acts.pos(a)
            acts.hold(a, t_rel + 0.6)
            acts.place(a, t_rel + 1.4, (here[0], here[1] + OU_BACK, here[2]), 180.0)
            ou = None                         # …and shoots the rest from there
        t = t_rel + 1.2
        if rnd >= 1 and shot.hit:
            last_call = _call(acts, t_land, shot, rnd)
    # the 筭 left in his hand stay there: the data's next steps (反委之, 又取中之八筭 …) or the next pair's
    # start (ready_counters) move them
    return max(t, last_call + (1.8 if rnd in (2, 3) else 0.0)) + 1.0


def _on_the_drum(shot: Shot, t0: float, ready: float) -> float:
    """When a round-3 arrow leaves the bow (不鼓不釋, §38): an arrow shot on the drum leaves on its stroke
    (the drum's strokes are ``t0 + release_s`` for those, ``scene.web.pack.sounds`` sounds them), even when
    the arrow before came late — the draw is shortened, down to :data:`MIN_DRAW_S`; an arrow off the drum
    stays at least :data:`OFF_BEAT_S` from the stroke it missed."""
    assert shot.release_s is not None     # (round 3's arrows are timed to the drum)
    t_rel = max(ready + MIN_DRAW_S, t0 + shot.release_s)
    if not shot.on_beat:
        beat = t0 + round(shot.release_s / STROKE_S) * STROKE_S
        if abs(t_rel - beat) < OFF_BEAT_S:
            t_rel = beat + OFF_BEAT_S
    return t_rel


def _release(acts: Acts, archer: str, oid: str, t_rel: float, shot: Shot) -> float:
    """The arrow's flight; returns when it lands."""
    ts, xyz = arrow_path(shot.start_chi, shot.landing_chi, acts.reading.chi_m)
    acts.obj(oid, t_rel, "path", (t_rel + ts, xyz))
    acts.obj(oid, t_rel, "state", "in flight")
    where = "stuck in the 侯" if shot.landing_chi[2] > 0.01 else "on the ground"
    t_land = t_rel + float(ts[-1])
    acts.obj(oid, t_land, "state", ("hit (獲) — " if shot.hit else "miss — ") + where)
    acts.drop_label(archer, t_rel, "矢")
    return t_land


def _call(acts: Acts, t: float, shot: Shot, rnd: int) -> float:
    """獲者坐而獲，舉旌以宮，偃旌以商: the 獲者 calls kneeling behind the 乏; in rounds 2–3 the 釋獲者 lays
    one 筭 (釋獲, 上射's to the right, 下射's to the left)."""
    hz = "huozhe"
    acts.pose(hz, t, "sit")
    acts.say(hz, t, "獲")
    acts.obj("jing", t, "state", "raised (舉旌以宮)")
    acts.say(hz, t + 1.2, "")
    acts.obj("jing", t + 1.2, "state", "lowered (偃旌以商)")
    if shot.scored:
        s = "shihuozhe"
        acts.pose(s, t + 0.3, "sit")
        acts.say(s, t + 0.3, "釋獲")
        acts.say(s, t + 1.3, "")
        pile = "right" if shot.side == "right" else "left"
        acts.set_counters(t + 0.8, hand=acts.counters["hand"] - 1, **{pile: acts.counters[pile] + 1})
    return t + 1.2
