"""The scene pack (``xiangsheli-pack/1``): what the browser player needs, in two files.

``scene.json`` (the manifest) and ``scene.bin`` (one little-endian buffer the
manifest's accessors point into); the format is ``assets/web/PACK.md``.  Every
triangle comes from :mod:`scene.meshes` / :mod:`scene.figures` — the static
layers as they are, the figures per posture in their own frame, every movable
object as a set of *variants* in its own frame — and every track from the
compiled :class:`~scene.timeline.Rite`, so the player only places, shows and
hides.  Colours are lit here (the still renderer's lights, baked per vertex).

Pure numpy: no VTK, no GL.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "xiangsheli-pack/1"
VIEW_ORDER = ("overview", "hall", "range", "plan", "archer", "target", "guest")

def _lights() -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The stills' light rig (:data:`scene.palette.LIGHTS`), directions normalised."""
    from .palette import LIGHTS
    return [(np.asarray(d, float) / np.linalg.norm(d), np.asarray(c, float), k) for d, c, k in LIGHTS]


def light(rgb: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Per-vertex lit colours (u8) from base colours (u8) and unit normals:
    colour × (AMBIENT + DIFFUSE × Σ kᵢ cᵢ max(0, n·lᵢ)), the still renderer's material and lights."""
    from .palette import AMBIENT, DIFFUSE
    n = np.asarray(normals, dtype=np.float64)
    gain = np.full((len(n), 3), AMBIENT)
    for d, colour, k in _lights():
        gain += DIFFUSE * k * np.maximum(0.0, n @ d)[:, None] * colour[None, :]
    out = np.asarray(rgb, dtype=np.float64) * gain
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------
# the binary buffer

_DTYPES = {"f32": np.float32, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32}


class _Bin:
    """Accessors appended to one buffer, each starting on a multiple of 4 bytes.  Identical data is
    stored once (the figures of one headwear share their positions and triangles; only colours differ):
    two accessors may then point at the same bytes."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self._seen: dict[tuple[str, int, bytes], dict[str, Any]] = {}

    def add(self, array: np.ndarray, t: str, c: int) -> dict[str, Any]:
        a = np.ascontiguousarray(np.asarray(array), dtype=np.dtype(_DTYPES[t]).newbyteorder("<"))
        n = a.size // c if c else 0
        assert a.size == n * c, (a.shape, c)
        data = a.tobytes()
        key = (t, c, hashlib.sha1(data).digest())
        if key in self._seen:
            return dict(self._seen[key])
        acc = {"o": self.size, "n": int(n), "t": t, "c": c}
        self._seen[key] = dict(acc)
        self.parts.append(data)
        self.size += len(data)
        pad = (-self.size) % 4
        if pad:
            self.parts.append(b"\0" * pad)
            self.size += pad
        return acc

    def bytes(self) -> bytes:
        return b"".join(self.parts)


def _geo(bn: _Bin, points, normals, tris, rgb, part, names, scale: float = 1.0) -> dict[str, Any]:
    """A Geo: positions (metres), lit colours, triangles, per-triangle part index, the part names."""
    pts = np.asarray(points, dtype=np.float64) * scale
    return {"position": bn.add(pts.astype(np.float32), "f32", 3),
            "colour": bn.add(light(rgb, normals), "u8", 3),
            "index": bn.add(np.asarray(tris, dtype=np.uint32), "u32", 3),
            "part": bn.add(np.asarray(part, dtype=np.uint16), "u16", 1),
            "parts": list(names)}


def _geo_batch(bn: _Bin, batch, scale: float = 1.0) -> dict[str, Any]:
    a = batch.arrays()
    return _geo(bn, a["points"], a["normals"], a["tris"], a["rgb"], a["part"], batch.names, scale)


def _times_f32(t: np.ndarray) -> np.ndarray:
    """Key times as f32, kept strictly increasing (keys 1 µs apart would otherwise collapse)."""
    out = np.asarray(t, dtype=np.float32).copy()
    while len(out) > 1:
        bad = np.flatnonzero(out[1:] <= out[:-1]) + 1
        if not len(bad):
            break
        out[bad] = np.nextafter(out[bad - 1], np.float32(np.inf))
    return out


def _steps(t, values, conv=lambda v: v) -> dict[str, list]:
    """Steps {"t", "v"}: consecutive repeats dropped."""
    ts, vs = [], []
    for tt, v in zip(np.asarray(t, dtype=float), values):
        v = conv(v)
        if vs and v == vs[-1]:
            continue
        if ts and round(float(tt), 3) <= ts[-1]:
            vs[-1] = v            # several changes at one instant: the last one holds
            if len(vs) > 1 and vs[-1] == vs[-2]:
                ts.pop()
                vs.pop()
            continue
        ts.append(round(float(tt), 3))
        vs.append(v)
    if ts:
        ts[0] = min(ts[0], 0.0)
    return {"t": ts, "v": vs}


def _r(x: float, nd: int = 4) -> float:
    return float(round(float(x), nd))


def _xyz(p, nd: int = 4) -> list[float]:
    return [_r(c, nd) for c in p]


# ---------------------------------------------------------------------------
# pieces of the manifest

def _reading_dict(reading) -> dict[str, Any]:
    import dataclasses
    fields = {f.name: getattr(reading, f.name) for f in dataclasses.fields(reading)}
    return {"name": reading.name, "title": reading.title, "fields": fields, "chi_m": reading.chi_m,
            "seed": reading.seed, "label": reading.title}


def _stages(rite) -> list[dict[str, Any]]:
    from . import choreography as chor
    secs = {s.n: s for s in rite.choreography.sections}
    out = []
    for st in rite.stages:
        src = secs[st.n].source_file if st.n in secs else ""
        m = re.match(r"\d+_round(\d)\.toml$", src)
        phase_title = chor.PHASES.get(st.phase, st.phase).split(" — ")[0]
        out.append({"n": st.n, "id": st.id, "title": st.title, "phase": st.phase, "phase_title": phase_title,
                    "round": int(m.group(1)) if m else None, "start": _r(st.start_s, 3), "end": _r(st.end_s, 3),
                    "incipit": st.incipit})
    return out


def _steps_list(rite) -> list[dict[str, Any]]:
    spans = sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index))
    return [{"start": _r(s.start_s, 3), "end": _r(s.end_s, 3), "section": s.section, "index": s.index,
             "phrase": s.phrase, "offset": s.offset, "who": list(s.who), "do": s.do} for s in spans]


@lru_cache(maxsize=1)
def _font_cmap() -> frozenset[int]:
    """The code points the CJK font and its fallback have between them."""
    from .labels import _cmap, fallback_font_path, font_path
    fb = fallback_font_path()
    return _cmap(font_path()) | (_cmap(fb) if fb else frozenset())


def _simplified(trad: str) -> str:
    """The simplified text, except where OpenCC gives a character neither CJK font has (豵 → 𫎆):
    there the traditional one is kept, so that the page shows a glyph, not a box."""
    from . import texts
    simp = texts.to_simplified(trad)
    have = _font_cmap()
    if len(simp) != len(trad) or all(ord(c) in have or ord(c) < 0x2E80 for c in simp):
        return simp
    return "".join(s if ord(s) in have or ord(s) < 0x2E80 else t for s, t in zip(simp, trad))


def _texts(rite) -> dict[str, Any]:
    from . import texts
    out = {}
    for st in rite.stages:
        n = st.n
        p = texts.passage(n)
        notes = [{"at": g.offset, "anchor": g.anchor, "text": g.note, "text_s": _simplified(g.note)}
                 for g in texts.zheng_notes(n)]
        seed = [{"n": s.n, "text": texts.to_traditional(s.text), "text_s": s.text}
                for s in texts.seed_notes_for_section(n)]
        out[str(n)] = {"title": p.title, "jing": p.text, "jing_s": texts.passage(n, "simplified").text,
                       "notes": notes, "seed": seed}
    return out


def _views(rite) -> dict[str, Any]:
    from . import views
    from .stills import representative_t
    by_stage = {}
    for st in rite.stages:
        pose = rite.pose_at(representative_t(rite, st))
        cams = {}
        for v in VIEW_ORDER:
            c = views.camera(v, rite, pose, aspect=16 / 9)
            cams[v] = {"position": _xyz(c.position, 3), "focal_point": _xyz(c.focal_point, 3),
                       "view_up": _xyz(c.view_up, 4), "view_angle": _r(c.view_angle, 3), "parallel": bool(c.parallel),
                       "parallel_scale": _r(c.parallel_scale, 3), "title": c.title}
        by_stage[str(st.n)] = cams
    return {"order": list(VIEW_ORDER), "titles": {v: views.VIEWS[v] for v in VIEW_ORDER}, "by_stage": by_stage}


def _places(lay) -> list[dict[str, Any]]:
    chi = lay.reading.chi_m
    out = []
    for p in lay.places.values():
        d = p.as_dict(chi)
        d.pop("xyz_chi", None)
        out.append(d)
    return out


def _place_labels(lay) -> list[dict[str, Any]]:
    """The stills' fixed place labels (scene.stills._place_labels), once each, with the views that show
    them and their priority (the stills place higher priorities first)."""
    from .stills import PLACE_LABELS, _place_labels as labels_for
    seen: dict[str, dict[str, Any]] = {}
    for v in VIEW_ORDER:
        rows = [(pid, prio) for pid, _, _, prio, views in PLACE_LABELS if pid in lay and (views is None or v in views)]
        labels = labels_for(lay, v)
        assert len(rows) == len(labels)
        for (pid, prio), lb in zip(rows, labels):
            if pid not in seen:
                seen[pid] = {"id": pid, "text": lb.text, "xyz_m": _xyz(lb.anchor), "priority": prio, "views": []}
            seen[pid]["views"].append(v)
    return list(seen.values())


def _dims(lay) -> list[dict[str, Any]]:
    """Dimension lines with the text's arithmetic (units.parse_length, as the layout measures them):
    the 侯道, the 乏's two offsets (參侯道 north of the 侯, 西五步), the 洗's (南北以堂深, 東西當東榮)."""
    from .units import format_derivation, parse_length
    r = lay.reading
    chi = r.chi_m
    def short(derivation: str) -> str:
        return derivation.split(" @ ")[0]
    def m(x, y, z=0.0) -> list[float]:
        return _xyz((x * chi, y * chi, z * chi))
    out = []
    hd = lay["range.houdao"]
    y0, y1 = hd.extra["start_y"], hd.extra["end_y"]
    houdao = parse_length("五十弓", r)
    zline = lay.hall.height if y0 > 0 else 0.0
    out.append({"id": "range.houdao", "text": f"侯道 五十弓 = {short(houdao.derivation)}（自{r.houdao_from}）",
                "a": m(0.0, y0, zline), "b": m(0.0, y1), "source": hd.source})
    fa = lay["range.fa"]
    fx, fy, _ = fa.xyz_chi
    north = parse_length("參侯道", r, {"侯道": houdao.chi})
    west = parse_length("五步", r)
    base_x = fx + west.chi
    out.append({"id": "range.fa.north", "text": f"乏 參侯道 = {short(north.derivation)}（侯北）",
                "a": m(fx, y1), "b": m(fx, y1 + north.chi), "source": fa.source})
    out.append({"id": "range.fa.west", "text": f"乏 西五步 = {short(west.derivation)}（自{r.fa_west_from}）",
                "a": m(base_x, fy), "b": m(fx, fy), "source": fa.source})
    xi = lay["court.xi"]
    xx, xy, _ = xi.xyz_chi
    h = lay.hall
    out.append({"id": "court.xi.ns", "text": f"洗 南北以{short(format_derivation('堂深', h.tang_depth, r))}",
                "a": m(xx, 0.0), "b": m(xx, xy), "source": xi.source})
    out.append({"id": "court.xi.ew", "text": f"洗 東西當{short(format_derivation('東榮', h.rong_x, r))}",
                "a": m(0.0, xy), "b": m(xx, xy), "source": xi.source})
    return out


# ---------------------------------------------------------------------------
# actors

def _figure_steps(rite, i: int, held: dict[str, tuple[np.ndarray, list]]) -> tuple[dict, set]:
    """Which figure an actor shows when: the posture, plus the props build_dynamic gives the figure
    (the words of what he holds that no tracked object in his hands draws: a 笙, food …).
    Returns (Steps of figure keys, the keys); a key is the posture, or 'posture+word、word'."""
    from .meshes import _holding_words, _object_word
    aid = rite.actor_ids[i]
    pt, pv = rite._posture.tracks[i]
    ht, hv = rite._holding.tracks[i]
    times = [np.asarray(pt, float), np.asarray(ht, float), np.array([0.0])]
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
    mids = _mids(t, rite.duration)
    posture = _at((np.asarray(pt, float), list(pv)), mids)
    holding = _at((np.asarray(ht, float), list(hv)), mids)
    held_words: list[set[str]] = [set() for _ in mids]
    for word, ot, mask in mine:
        idx = np.maximum(np.searchsorted(ot, mids, side="right") - 1, 0)
        for j in np.flatnonzero(mask[idx]):
            held_words[j].add(word)
    keys = []
    for j in range(len(mids)):
        extra = sorted(set(w for w in _holding_words(holding[j] or "") if w not in held_words[j]))
        keys.append(posture[j] + ("+" + "、".join(extra) if extra else ""))
    return _steps(t, keys), set(keys)


def _actors(bn: _Bin, rite, held: dict[str, tuple[np.ndarray, list]]) -> list[dict[str, Any]]:
    from . import figures
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
            figs[key] = _geo(bn, f.points, f.normals, f.tris, f.rgb, np.zeros(len(f.tris)), [f"actor.{aid}"])
        tk = rite._posture.tracks[i], rite._visible.tracks[i], rite._holding.tracks[i], rite._role.tracks[i], \
            rite._say.tracks[i]
        out.append({
            # the label above the standing figure's head, as build_dynamic anchors it (height + 0.15 m)
            "id": aid, "name": a.name, "colour": a.colour, "label_z": _r(figures.figure(st, "stand").height + 0.15, 3),
            "track": {"t": bn.add(_times_f32(t), "f32", 1), "v": bn.add(np.asarray(v, np.float32), "f32", 4)},
            "posture": _steps(*tk[0]), "visible": _steps(*tk[1], conv=bool), "holding": _steps(*tk[2]),
            "role": _steps(*tk[3]), "say": _steps(*tk[4]), "figure": fig_steps, "figures": figs})
    return out


# ---------------------------------------------------------------------------
# objects: variants in their own frame, chosen by Steps

def _held_steps(events) -> tuple[np.ndarray, list]:
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


def _at(steps: tuple[np.ndarray, list], t: np.ndarray) -> list:
    tt, vs = steps
    idx = np.searchsorted(tt, t, side="right") - 1
    return [vs[max(int(i), 0)] for i in idx]


def _crossings(t: np.ndarray, y: np.ndarray, y0: float) -> list[float]:
    """Times at which a piecewise-linear y(t) crosses y0."""
    s = np.sign(y - y0)
    k = np.flatnonzero(s[1:] != s[:-1])
    out = []
    for i in k:
        if y[i + 1] != y[i]:
            out.append(float(t[i] + (y0 - y[i]) / (y[i + 1] - y[i]) * (t[i + 1] - t[i])))
    return out


def _mids(times: np.ndarray, end: float) -> np.ndarray:
    nxt = np.append(times[1:], max(end, times[-1] + 1.0))
    return (times + nxt) / 2


def _stored_arrow(state: str) -> bool:
    """An arrow not held that build_dynamic lays with the stored bows (the last branch of meshes._arrow)."""
    return not ("flight" in state or ("侯" in state and "stuck" in state) or state.startswith("miss")
                or "ground" in state or "楅" in state)


class _Objects:
    """Every movable object's variants and Steps, reproducing :func:`scene.meshes.build_dynamic`'s choices."""

    def __init__(self, rite) -> None:
        from .meshes import _OFFSTAGE_MARGIN_M
        self.rite = rite
        self.lay = rite.layout
        self.chi = self.lay.reading.chi_m
        self.y_off = self.lay["hall.gate"].xyz_chi[1] * self.chi - _OFFSTAGE_MARGIN_M
        self.ids = rite.object_ids
        self.kind = {oid: _kind(rite, oid) for oid in self.ids}
        self.held = {oid: _held_steps(rite.director.objects[oid].events) for oid in self.ids}
        self.track = {oid: rite._objects.tracks[k] for k, oid in enumerate(self.ids)}
        self.state = {oid: rite._ostate.tracks[k] for k, oid in enumerate(self.ids)}
        self.actor_index = {aid: i for i, aid in enumerate(rite.actor_ids)}
        self.ranks = self._stored_ranks()
        self._desc: dict[str, dict[tuple, str]] = {}                  # per object: description → variant key
        self.geos_of: dict[str, dict[str, tuple[str, Any]]] = {}      # per object: key → (signature, Batch)

    def pos(self, oid: str, t: np.ndarray) -> np.ndarray:
        tt, v = self.track[oid]
        return np.column_stack([np.interp(t, tt, v[:, c]) for c in range(3)])

    def _own_times(self, oid: str) -> np.ndarray:
        tt, v = self.track[oid]
        ev = [float(e[0]) for e in self.rite.director.objects[oid].events]
        return np.array(sorted(set([0.0] + ev + _crossings(tt, v[:, 1], self.y_off))))

    def _stored_ranks(self) -> dict[str, tuple[np.ndarray, list]]:
        """meshes._stored_offset's rank of every stored bow and arrow, as Steps: a row of bows (and the
        arrows at their foot) at one spot is spread by its order in the rite's object list."""
        ids = [o for o in self.ids if self.kind[o] in ("bow", "arrow")]
        times = np.array(sorted(set(np.concatenate([self._own_times(o) for o in ids]).tolist())))
        mids = _mids(times, self.rite.duration)
        pos = {o: self.pos(o, mids) for o in ids}
        held = {o: _at(self.held[o], mids) for o in ids}
        state = {o: _at(self.state[o], mids) for o in ids}
        rank: dict[str, list] = {o: [] for o in ids}
        for j in range(len(mids)):
            count: dict[tuple[float, float], int] = {}
            for o in ids:
                p = pos[o][j]
                r = None
                if p[1] >= self.y_off and held[o][j] is None and (
                        self.kind[o] == "bow" or _stored_arrow(state[o][j] or "")):
                    key = (round(float(p[0]), 2), round(float(p[1]), 2))
                    r = count.get(key, 0)
                    count[key] = r + 1
                rank[o].append(r)
        return {o: (times, rank[o]) for o in ids}

    def timeline(self, oid: str) -> tuple[dict, dict]:
        """(variant Steps, orient Steps); the variants' geometry is collected in ``geos_of[oid]``."""
        kind = self.kind[oid]
        times = [self._own_times(oid)]
        if kind in ("bow", "arrow"):
            rt, rv = self.ranks[oid]
            times.append(rt[1:][np.array([a != b for a, b in zip(rv[1:], rv[:-1])], dtype=bool)])
            # the holder's posture changes how a held bow or arrow looks (drawn in 'shoot')
            ht, hv = self.held[oid]
            for k, holder in enumerate(hv):
                if holder is None:
                    continue
                t1 = ht[k + 1] if k + 1 < len(ht) else self.rite.duration
                pt, _ = self.rite._posture.tracks[self.actor_index[holder]]
                times.append(pt[(pt > ht[k]) & (pt < t1)])
        t = np.array(sorted(set(np.concatenate(times).tolist())))
        mids = _mids(t, self.rite.duration)
        pos = self.pos(oid, mids)
        held = _at(self.held[oid], mids)
        state = _at(self.state[oid], mids)
        rank = _at(self.ranks[oid], mids) if oid in self.ranks else [None] * len(mids)
        keys, orients = [], []
        for j in range(len(mids)):
            holder = held[j]
            posture = ""
            if holder is not None:
                pt, pv = self.rite._posture.tracks[self.actor_index[holder]]
                posture = pv[max(int(np.searchsorted(pt, mids[j], side="right")) - 1, 0)]
            key, orient = self.variant(oid, kind, pos[j], state[j] or "", holder, posture, rank[j])
            keys.append(key)
            orients.append(orient)
        return _steps(t, keys), _steps(t, orients)

    def variant(self, oid, kind, pos, state, holder, posture, rank) -> tuple[str, str]:
        """The variant key (building its geometry once) and the orientation at one moment."""
        from . import meshes
        from .shapes import Batch
        if pos[1] < self.y_off or kind == "rope":
            return "", "fixed"
        chi = self.chi
        pid = oid if "." in oid else f"object.{oid}"
        orient = f"holder:{holder}" if holder is not None else "fixed"
        origin = np.zeros(3)
        p = np.asarray(pos, dtype=float)
        if kind == "counters":
            try:
                n = int(state)
            except ValueError:
                n = 0
            if n <= 0:
                return "", "fixed"
            desc, label = ("counters", n, round(float(p[2]), 4)), str(n)
            build = lambda b: meshes._counters(b, pid, p, state, chi, oid.endswith("zhong"))  # noqa: E731
            at = p
        elif kind == "arrow":
            n = int(oid.rsplit(".", 1)[-1]) if oid.rsplit(".", 1)[-1].isdigit() else 1
            at = origin
            if "flight" in state:
                desc, label, orient = ("flight",), "flight", "velocity"
                build = lambda b: meshes._arrow(b, pid, origin, state, None, 0.0, "", np.array([0.0, 1.0, 0.0]),  # noqa: E731
                                                chi, oid, {})
            elif holder is None and _stored_arrow(state):
                desc, label = ("stored", rank), f"stored.{rank}"
                at = p
                build = lambda b: meshes._arrow(b, pid, p, state, None, 0.0, "", None, chi, oid,  # noqa: E731
                                                {(round(float(p[0]), 2), round(float(p[1]), 2)): rank or 0})
            elif holder is None and (state.startswith("miss") or "ground" in state) and not ("侯" in state and "stuck" in state):
                desc, label = ("ground", n % 3, round(float(p[2]), 4)), "ground"
                at = p
                build = lambda b: meshes._arrow(b, pid, p, state, None, 0.0, "", None, chi, oid, {})  # noqa: E731
            elif holder is None:
                desc, label = (state,), ("stuck" if "侯" in state else "rack")
                build = lambda b: meshes._arrow(b, pid, origin, state, None, 0.0, "", None, chi, oid, {})  # noqa: E731
            else:
                nocked = posture == "shoot" and n == 1
                desc, label = (("nocked",), "nocked") if nocked else (("held", n), "held")
                build = lambda b: meshes._arrow(b, pid, origin, state, 0, 0.0, posture, None, chi, oid, {})  # noqa: E731
        elif kind == "bow":
            at = origin
            if holder is None:
                desc, label = ("stored", rank), f"stored.{rank}"
                at = p
                build = lambda b: meshes._bow(b, pid, p, state, None, 0.0, "", chi,  # noqa: E731
                                              {(round(float(p[0]), 2), round(float(p[1]), 2)): rank or 0})
            else:
                shoot = posture == "shoot"
                desc, label = (("shoot",), "shoot") if shoot else (("held",), "held")
                build = lambda b: meshes._bow(b, pid, origin, state, 0, 0.0, posture, chi, {})  # noqa: E731
        else:
            if holder is not None:
                desc, label, at = ("held", state), "held", origin
                def build(b):
                    mesh, colour = meshes._thing(kind, oid, state, 0.0, True, chi)
                    b.add(pid, mesh, colour)
            else:
                # set down: on the surface below (meshes._rest_z), turned as it rests
                dz = meshes._rest_z(self.lay, p, chi) - float(p[2])
                desc, label, at = ("rest", state, round(dz, 4)), "rest", origin
                def build(b):
                    mesh, colour = meshes._thing(kind, oid, state, meshes._rest_heading(self.lay, oid), False, chi)
                    b.add(pid, mesh.moved(None, (0.0, 0.0, dz)), colour)
            if state:
                label += ":" + state.split(" ")[0]
        per = self._desc.setdefault(oid, {})
        key = per.get(desc)
        if key is None:
            b = Batch()
            build(b)
            if not len(b):
                per[desc] = ""
                return "", "fixed"
            local = Batch()
            for part, pts, nrm, tri, col in b.chunks():
                local.add_arrays(part, np.asarray(pts, float) - at, nrm, tri, col)
            a = local.arrays()
            sig = hashlib.sha1(a["points"].tobytes() + a["tris"].tobytes() + a["rgb"].tobytes()).hexdigest()
            geos = self.geos_of.setdefault(oid, {})
            key = next((k for k, (s, _) in geos.items() if s == sig), None)
            if key is None:
                key = label
                k = 2
                while key in geos:
                    key = f"{label}#{k}"
                    k += 1
                geos[key] = (sig, local)
            per[desc] = key
        return key, (orient if key else "fixed")


def _kind(rite, oid: str) -> str:
    from .meshes import _object_kind
    return _object_kind(rite, oid)


def _objects(bn: _Bin, rite) -> list[dict[str, Any]]:
    ob = _Objects(rite)
    out = []
    for k, oid in enumerate(ob.ids):
        variant, orient = ob.timeline(oid)
        tt, v = ob.track[oid]
        st, sv = ob.state[oid]
        geos = ob.geos_of.get(oid, {})
        out.append({"id": oid, "name": rite._object_name(oid), "kind": ob.kind[oid],
                    "track": {"t": bn.add(_times_f32(tt), "f32", 1), "v": bn.add(np.asarray(v, np.float32), "f32", 3)},
                    "state": _steps(st, sv, conv=lambda x: x or ""), "variant": variant, "orient": orient,
                    "variants": {key: _geo_batch(bn, b) for key, (_, b) in geos.items()}})
    return out


def _hou_rope(bn: _Bin, rite) -> dict[str, Any]:
    """The 侯's 下个 and 左下綱 as meshes._hou_lower draws them for each state (chosen by prefix)."""
    from types import SimpleNamespace

    from .meshes import _hou_lower
    from .shapes import Batch
    variants = {}
    for state in ("rolled", "tied", "untied"):
        b = Batch()
        _hou_lower(b, rite.layout, SimpleNamespace(object_ids=("hou_rope",), object_state=[state]))
        variants[state] = _geo_batch(bn, b)
    return {"track_object": "hou_rope", "variants": variants}


# ---------------------------------------------------------------------------
# the pack

def _bounds(static, lay) -> list[float]:
    x0, x1, y0, y1 = static.bounds_m
    chi = lay.reading.chi_m
    z1 = (lay.hall.z_dong + 4.0) * chi
    return [_r(x0, 3), _r(x1, 3), _r(y0, 3), _r(y1, 3), 0.0, _r(z1, 3)]


def build_pack(reading=None, seed: int | None = None, *, rite=None) -> tuple[dict[str, Any], bytes]:
    """The manifest and the binary buffer of the pack for a reading (deterministic)."""
    from . import meshes, readings
    from .stills import load_rite
    r = readings.get(reading)
    rite = rite if rite is not None else load_rite(r, seed)
    lay = rite.layout
    static = meshes.build_static(r)
    bn = _Bin()
    layers = {name: _geo_batch(bn, b, static.scale) for name, b in static.batches().items()}
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "key": pack_key(r, seed),
        "reading": _reading_dict(rite.reading),
        "duration_s": _r(rite.duration, 3),
        "bounds_m": _bounds(static, lay),
        "layers": layers,
    }
    held = {oid: _held_steps(rite.director.objects[oid].events) for oid in rite.object_ids}
    manifest["hou_rope"] = _hou_rope(bn, rite)
    manifest["actors"] = _actors(bn, rite, held)
    manifest["objects"] = _objects(bn, rite)
    manifest["stages"] = _stages(rite)
    manifest["steps"] = _steps_list(rite)
    manifest["texts"] = _texts(rite)
    manifest["views"] = _views(rite)
    manifest["places"] = _places(lay)
    manifest["place_labels"] = _place_labels(lay)
    manifest["dims"] = _dims(lay)
    return manifest, bn.bytes()


def pack_key(reading, seed) -> str:
    """Short hash of the reading, the seed and the bytes of the code and data the pack comes from."""
    from .stills import _rite_key
    h = hashlib.sha256(_rite_key(reading, seed).encode())
    here = Path(__file__).resolve().parent
    for m in ("webpack", "meshes", "figures", "shapes", "palette", "views", "stills", "director", "labels"):
        f = here / f"{m}.py"
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:16]


def dumps(manifest: dict[str, Any]) -> bytes:
    return json.dumps(manifest, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def write_pack(out_dir, reading=None, seed: int | None = None) -> Path:
    """Write ``scene.json`` and ``scene.bin`` into ``out_dir``; returns the folder."""
    out = Path(out_dir)
    manifest, data = build_pack(reading, seed)
    out.mkdir(parents=True, exist_ok=True)
    for name, blob in (("scene.bin", data), ("scene.json", dumps(manifest))):
        tmp = out / f".{name}.tmp{os.getpid()}"
        tmp.write_bytes(blob)
        os.replace(tmp, out / name)
    return out


def write_playable(out_dir, reading=None, seed: int | None = None) -> list[Path]:
    """A pack with its font beside it (``font/cjk*.otf``), as the standalone player page loads it;
    returns the files written."""
    out = write_pack(out_dir, reading, seed)
    fonts = write_font(out / "font" / "cjk.otf", (out / "scene.json").read_text(encoding="utf-8"))
    return [out / "scene.json", out / "scene.bin", *fonts]


def pack_dir(reading=None, seed: int | None = None) -> Path:
    """A ready pack folder in the disk cache (built when missing)."""
    from . import readings
    from .stills import _cache_dir
    r = readings.get(reading)
    root = _cache_dir() / "packs"          # its own folder: the app serves it (and nothing else of the cache)
    d = root / f"pack-{r.name}-{pack_key(r, seed)}"
    if (d / "scene.json").exists() and (d / "scene.bin").exists():
        return d
    write_pack(d, r, seed)
    old = sorted((p for p in root.glob(f"pack-{r.name}-*") if p.is_dir() and p != d), key=lambda p: p.stat().st_mtime)
    for stale in old[:-3]:                # keep a few (other seeds), drop the oldest
        for f in stale.iterdir():
            f.unlink(missing_ok=True)
        stale.rmdir()
    return d


# ---------------------------------------------------------------------------
# the font subset

def font_chars(extra: str = "") -> str:
    """Every character the web edition can show: seeds/* (as written, and converted to either script),
    assets/**/*.toml, assets/web/*.js|html|css, scene/*.py and app.py, plus ``extra``; sorted."""
    root = Path(__file__).resolve().parent.parent
    files = sorted((root / "seeds").glob("*")) + sorted((root / "assets").rglob("*.toml"))
    for ext in ("js", "html", "css"):
        files += sorted((root / "assets" / "web").glob(f"*.{ext}"))
    files += sorted((root / "scene").glob("*.py")) + [root / "app.py"]
    from . import texts
    chars = set(extra)
    for f in files:
        if f.is_file():
            try:
                text = f.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            chars.update(text)
            if f.parent.name == "seeds":
                # the pack shows the 經 and notes in both scripts, converted by OpenCC phrase by phrase
                chars.update(texts.to_simplified(text))
                chars.update(texts.to_traditional(text))
    chars.update(chr(c) for c in range(0x20, 0x7F))        # ASCII, always
    return "".join(sorted(ch for ch in chars if ch.isprintable() or ch == "\u3000"))


def _subset(src: str, codepoints: set[int], out: Path, flavor: str | None) -> None:
    from fontTools import subset
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    opts.desubroutinize = False
    opts.flavor = flavor
    font = subset.load_font(src, opts, lazy=True)
    try:
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=sorted(codepoints))
        sub.subset(font)
        tmp = out.with_name(f".{out.name}.tmp{os.getpid()}")
        subset.save_font(font, str(tmp), opts)
        os.replace(tmp, out)
    finally:
        font.close()


def write_font(out_path, extra: str = "") -> list[Path]:
    """A subset of the CJK font (Noto Sans TC) covering :func:`font_chars`, at ``out_path``; the
    characters the TC font lacks (髤 旜 …) go into a second subset of the fallback (Noto Sans SC),
    ``<stem>-fallback<suffix>`` beside it (CSS: list both in one ``font-family``).  OpenType (.otf),
    or WOFF2 when ``brotli`` is importable and ``out_path`` ends in .woff2.  Returns the files written."""
    from .labels import _cmap, fallback_font_path, font_path
    out = Path(out_path)
    flavor = None
    if out.suffix.lower() == ".woff2":
        try:
            import brotli  # noqa: F401
            flavor = "woff2"
        except ImportError:
            out = out.with_suffix(".otf")
    out.parent.mkdir(parents=True, exist_ok=True)
    want = {ord(ch) for ch in font_chars(extra)}
    main = font_path()
    have = _cmap(main)
    _subset(main, want & have, out, flavor)
    written = [out]
    missing = want - have
    fb = fallback_font_path()
    fb_out = out.with_name(f"{out.stem}-fallback{out.suffix}")
    if fb and missing and (missing & _cmap(fb)):
        _subset(fb, missing & _cmap(fb), fb_out, flavor)
        written.append(fb_out)
    else:
        fb_out.unlink(missing_ok=True)
    return written


def sizes(folder) -> dict[str, tuple[int, int]]:
    """Raw and gzip sizes of the files of a pack folder."""
    out = {}
    for f in sorted(Path(folder).iterdir()):
        if f.is_file():
            raw = f.read_bytes()
            out[f.name] = (len(raw), len(gzip.compress(raw, 6)))
    return out


# ---------------------------------------------------------------------------
# the static web edition

#: the player's files that a site needs (the app's bridge app.js/app.css stays out: no server behind a site)
SITE_FILES = ("player.js", "player-page.js", "player.css")


def write_site(out_dir, reading=None, seed: int | None = None) -> Path:
    """``python -m scene site``: a self-contained folder — ``index.html`` (the standalone player page), the
    player, three.js (vendored, with its licence), the pack at ``pack/`` and the CJK font subset at
    ``pack/font/`` — that any static web server can host with no Python behind it."""
    import shutil
    web = Path(__file__).resolve().parent.parent / "assets" / "web"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(web / "player.html", out / "index.html")
    for name in SITE_FILES:
        shutil.copyfile(web / name, out / name)
    shutil.copytree(web / "vendor", out / "vendor", dirs_exist_ok=True)
    write_playable(out / "pack", reading, seed)
    return out
