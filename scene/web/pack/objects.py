"""The movable objects in the pack: each a set of variants (held, in flight, lying, stored …) in its own frame
with an orientation rule, and the 侯's lower rope per state."""
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from .buffer import Bin, batch_geometry, step_track, times_f32
from .cast import crossings, held_steps, midpoints, value_at


def _stored_arrow(state: str) -> bool:
    """An arrow not held that build_dynamic lays with the stored bows (the last branch of meshes.props.arrow)."""
    return not ("flight" in state or ("侯" in state and "stuck" in state) or state.startswith("miss")
                or "ground" in state or "楅" in state)


class _Objects:
    """Every movable object's variants and Steps, reproducing :func:`scene.meshes.build_dynamic`'s choices."""

    def __init__(self, rite) -> None:
        from ...render.meshes import OFFSTAGE_MARGIN_M as _OFFSTAGE_MARGIN_M
        self.rite = rite
        self.lay = rite.layout
        self.chi = self.lay.reading.chi_m
        self.y_off = self.lay["hall.gate"].xyz_chi[1] * self.chi - _OFFSTAGE_MARGIN_M
        self.ids = rite.object_ids
        self.kind = {oid: _kind(rite, oid) for oid in self.ids}
        self.held = {oid: held_steps(rite.director.objects[oid].events) for oid in self.ids}
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
        return np.array(sorted(set([0.0] + ev + crossings(tt, v[:, 1], self.y_off))))

    def _stored_ranks(self) -> dict[str, tuple[np.ndarray, list]]:
        """meshes.props.stored_offset's rank of every stored bow and arrow, as Steps: a row of bows (and the
        arrows at their foot) at one spot is spread by its order in the rite's object list."""
        ids = [o for o in self.ids if self.kind[o] in ("bow", "arrow")]
        times = np.array(sorted(set(np.concatenate([self._own_times(o) for o in ids]).tolist())))
        mids = midpoints(times, self.rite.duration)
        pos = {o: self.pos(o, mids) for o in ids}
        held = {o: value_at(self.held[o], mids) for o in ids}
        state = {o: value_at(self.state[o], mids) for o in ids}
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
        from ...render.meshes import props as _props
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
            if kind == "arrow":      # the arrow on the string changes as the lower-numbered ones leave the hand
                head, _, n = oid.rpartition(".")
                for m in range(1, int(n) if n.isdigit() else 1):
                    if f"{head}.{m}" in self.held:
                        times.append(self.held[f"{head}.{m}"][0])
        t = np.array(sorted(set(np.concatenate(times).tolist())))
        mids = midpoints(t, self.rite.duration)
        pos = self.pos(oid, mids)
        held = value_at(self.held[oid], mids)
        state = value_at(self.state[oid], mids)
        rank = value_at(self.ranks[oid], mids) if oid in self.ranks else [None] * len(mids)
        keys, orients = [], []
        for j in range(len(mids)):
            holder = held[j]
            posture = ""
            if holder is not None:
                pt, pv = self.rite._posture.tracks[self.actor_index[holder]]
                posture = pv[max(int(np.searchsorted(pt, mids[j], side="right")) - 1, 0)]
                if kind == "arrow" and posture == "shoot" and not _props.nocked_arrow(
                        oid, holder, lambda o: value_at(self.held[o], [mids[j]])[0] if o in self.held else None):
                    posture = ""
            key, orient = self.variant(oid, kind, pos[j], state[j] or "", holder, posture, rank[j])
            keys.append(key)
            orients.append(orient)
        return step_track(t, keys), step_track(t, orients)

    def variant(self, oid, kind, pos, state, holder, posture, rank) -> tuple[str, str]:
        """The variant key (building its geometry once) and the orientation at one moment."""
        from ...render import meshes
        from ...render.shapes import Batch
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
            orient = "fixed"          # a pile in the hand is drawn as build_dynamic draws it: not turned with him
            desc, label = ("counters", n, round(float(p[2]), 4)), str(n)
            build = lambda b: meshes.props.counters(b, pid, p, state, chi, oid.endswith("zhong"))  # noqa: E731
            at = p
        elif kind == "arrow":
            n = int(oid.rsplit(".", 1)[-1]) if oid.rsplit(".", 1)[-1].isdigit() else 1
            at = origin
            if "flight" in state:
                desc, label, orient = ("flight",), "flight", "velocity"
                build = lambda b: meshes.props.arrow(b, pid, origin, state, None, 0.0, "", np.array([0.0, 1.0, 0.0]),  # noqa: E731
                                                chi, oid, {})
            elif holder is None and _stored_arrow(state):
                desc, label = ("stored", rank), f"stored.{rank}"
                at = p
                build = lambda b: meshes.props.arrow(b, pid, p, state, None, 0.0, "", None, chi, oid,  # noqa: E731
                                                {(round(float(p[0]), 2), round(float(p[1]), 2)): rank or 0})
            elif holder is None and (state.startswith("miss") or "ground" in state) and not ("侯" in state and "stuck" in state):
                desc, label = ("ground", n % 3, round(float(p[2]), 4)), "ground"
                at = p
                build = lambda b: meshes.props.arrow(b, pid, p, state, None, 0.0, "", None, chi, oid, {})  # noqa: E731
            elif holder is None:
                desc, label = (state,), ("stuck" if "侯" in state else "rack")
                build = lambda b: meshes.props.arrow(b, pid, origin, state, None, 0.0, "", None, chi, oid, {})  # noqa: E731
            else:
                nocked = posture == "shoot"
                desc, label = (("nocked",), "nocked") if nocked else (("held", n), "held")
                build = lambda b: meshes.props.arrow(b, pid, origin, state, 0, 0.0, posture, None, chi, oid, {})  # noqa: E731
        elif kind == "bow":
            at = origin
            if holder is None:
                desc, label = ("stored", rank), f"stored.{rank}"
                at = p
                build = lambda b: meshes.props.bow(b, pid, p, state, None, 0.0, "", chi,  # noqa: E731
                                              {(round(float(p[0]), 2), round(float(p[1]), 2)): rank or 0})
            else:
                shoot = posture == "shoot"
                desc, label = (("shoot",), "shoot") if shoot else (("held",), "held")
                build = lambda b: meshes.props.bow(b, pid, origin, state, 0, 0.0, posture, chi, {})  # noqa: E731
        else:
            if holder is not None:
                desc, label, at = ("held", state), "held", origin
                def build(b):
                    mesh, colour = meshes.props.thing(kind, oid, state, 0.0, True, chi,
                                                      meshes.props.thing_size(self.lay, oid))
                    b.add(pid, mesh, colour)
            else:
                # set down: on the surface below (meshes.props.rest_z), turned as it rests
                dz = meshes.props.rest_z(self.lay, p, chi) - float(p[2])
                desc, label, at = ("rest", state, round(dz, 4)), "rest", origin
                def build(b):
                    mesh, colour = meshes.props.thing(kind, oid, state, meshes.props.rest_heading(self.lay, oid), False, chi,
                                                      meshes.props.thing_size(self.lay, oid))
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
    from ...render.meshes import object_kind as _object_kind
    return _object_kind(rite, oid)


def object_tracks(bn: Bin, rite) -> list[dict[str, Any]]:
    ob = _Objects(rite)
    out = []
    for _k, oid in enumerate(ob.ids):
        variant, orient = ob.timeline(oid)
        tt, v = ob.track[oid]
        st, sv = ob.state[oid]
        geos = ob.geos_of.get(oid, {})
        out.append({"id": oid, "name": rite._object_name(oid), "kind": ob.kind[oid],
                    "track": {"t": bn.add(times_f32(tt), "f32", 1), "v": bn.add(np.asarray(v, np.float32), "f32", 3)},
                    "state": step_track(st, sv, conv=lambda x: x or ""), "variant": variant, "orient": orient,
                    "variants": {key: batch_geometry(bn, b) for key, (_, b) in geos.items()}})
    return out


def hou_rope_variants(bn: Bin, rite) -> dict[str, Any] | None:
    """The 侯's 下个 and 左下綱 as meshes.props.hou_lower draws them for each state (chosen by prefix); None in
    a hall without a range (鄉飲酒禮: no 侯, the player draws none)."""
    if "target.hou" not in rite.layout or "hou_rope" not in rite.object_ids:
        return None
    from types import SimpleNamespace

    from ...render.meshes.props import hou_lower as _hou_lower
    from ...render.shapes import Batch
    variants = {}
    for state in ("rolled", "tied", "untied"):
        b = Batch()
        _hou_lower(b, rite.layout, SimpleNamespace(object_ids=("hou_rope",), object_state=[state]))
        variants[state] = batch_geometry(bn, b)
    return {"track_object": "hou_rope", "variants": variants}
