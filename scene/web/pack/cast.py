"""The cast in the pack: each figure per posture in its own frame, and the tracks that place, turn and pose it."""
from __future__ import annotations

from typing import Any

import numpy as np

from .buffer import Bin, mesh_accessors, rounded, step_track, times_f32


def _figure_steps(rite, i: int, held: dict[str, tuple[np.ndarray, list]]) -> tuple[dict, set]:
    """Which figure an actor shows when: the posture, plus the props build_dynamic gives the figure
    (the words of what he holds that no tracked object in his hands draws: a 笙, food …) and what he wears on
    his left arm (袒決遂, 袒決, 袒: scene/rite/dress.py).
    Returns (Steps of figure keys, the keys); a key is the posture, or 'posture+word、word'."""
    from ...render.meshes import holding_words as _holding_words
    from ...render.meshes import object_word as _object_word
    from ...render.meshes import undrawn
    aid = rite.actor_ids[i]
    pt, pv = rite._posture.tracks[i]
    ht, hv = rite._holding.tracks[i]
    dt, dv = rite._dress.tracks[i]
    times = [np.asarray(pt, float), np.asarray(ht, float), np.asarray(dt, float), np.array([0.0])]
    mine = []
    for oid, (ot, ov) in held.items():
        mask = np.array([v == aid for v in ov], dtype=bool)
        if mask.any():
            mine.append((_object_word(rite, oid), ot, mask))
            change = np.flatnonzero(np.diff(mask.astype(np.int8)) != 0) + 1
            times.append(ot[change])
            if mask[0]:
                times.append(ot[:1])
    t = np.array(sorted(set(np.concatenate(times).tolist())))
    mids = midpoints(t, rite.duration)
    posture = value_at((np.asarray(pt, float), list(pv)), mids)
    holding = value_at((np.asarray(ht, float), list(hv)), mids)
    dress = value_at((np.asarray(dt, float), list(dv)), mids)
    held_words: list[set[str]] = [set() for _ in mids]
    for word, ot, mask in mine:
        idx = np.maximum(np.searchsorted(ot, mids, side="right") - 1, 0)
        for j in np.flatnonzero(mask[idx]):
            held_words[j].add(word)
    keys = []
    for j in range(len(mids)):
        extra = sorted(set(undrawn(_holding_words(holding[j] or ""), held_words[j])) | ({dress[j]} - {""}))
        keys.append(posture[j] + ("+" + "、".join(extra) if extra else ""))
    return step_track(t, keys), set(keys)


def actor_tracks(bn: Bin, rite, held: dict[str, tuple[np.ndarray, list]]) -> list[dict[str, Any]]:
    from ...render import figures
    styles = figures.styles(rite.choreography)
    out = []
    for i, aid in enumerate(rite.actor_ids):
        t, v = rite._actors.tracks[i]
        a = rite.choreography.actors[aid]
        st = styles[aid]
        fig_steps, fig_keys = _figure_steps(rite, i, held)
        figs = {}
        for key in list(figures.POSTURES) + sorted(k for k in fig_keys if k not in figures.POSTURES):
            posture, _, words = key.partition("+")
            f = figures.figure(st, posture, words.split("、") if words else ())
            figs[key] = mesh_accessors(bn, f.points, f.normals, f.tris, f.rgb, np.zeros(len(f.tris)), [f"actor.{aid}"])
            # the label over the head of this figure (a kneeling or bowing man's is lower), as the stills do
            figs[key]["label_z"] = rounded(f.height + 0.15, 3)
            # the vertices in the cast colour, for a role palette in the page (palette.js)
            figs[key]["tint"] = bn.add(figures.tinted(st, posture, words.split("、") if words else ()).astype(np.uint8),
                                       "u8", 1)
        tk = rite._posture.tracks[i], rite._visible.tracks[i], rite._holding.tracks[i], rite._role.tracks[i], \
            rite._say.tracks[i]
        out.append({
            # the label above the standing figure's head (each figure has its own: figures[key].label_z)
            "id": aid, "name": a.name, "colour": a.colour, "label_z": rounded(figures.figure(st, "stand").height + 0.15, 3),
            "track": {"t": bn.add(times_f32(t), "f32", 1), "v": bn.add(np.asarray(v, np.float32), "f32", 4)},
            "posture": step_track(*tk[0]), "visible": step_track(*tk[1], conv=bool), "holding": step_track(*tk[2]),
            "role": step_track(*tk[3]), "say": step_track(*tk[4]), "figure": fig_steps, "figures": figs})
    return out


def held_steps(events) -> tuple[np.ndarray, list]:
    """Who holds an object when: 'held' events (value: actor id) start it, 'at' and 'path' end it."""
    evs = sorted((e for e in events if e[1] in ("at", "held", "path")), key=lambda e: e[0])
    ts, vs = [0.0], [None]
    for t, kind, v in evs:
        holder = v if kind == "held" else None
        if float(t) <= ts[-1]:
            vs[-1] = holder
        else:
            ts.append(float(t))
            vs.append(holder)
    return np.array(ts), vs


def value_at(steps: tuple[np.ndarray, list], t: np.ndarray) -> list:
    tt, vs = steps
    idx = np.searchsorted(tt, t, side="right") - 1
    return [vs[max(int(i), 0)] for i in idx]


def crossings(t: np.ndarray, y: np.ndarray, y0: float) -> list[float]:
    """Times at which a piecewise-linear y(t) crosses y0."""
    s = np.sign(y - y0)
    k = np.flatnonzero(s[1:] != s[:-1])
    out = []
    for i in k:
        if y[i + 1] != y[i]:
            out.append(float(t[i] + (y0 - y[i]) / (y[i + 1] - y[i]) * (t[i + 1] - t[i])))
    return out


def midpoints(times: np.ndarray, end: float) -> np.ndarray:
    nxt = np.append(times[1:], max(end, times[-1] + 1.0))
    return (times + nxt) / 2
