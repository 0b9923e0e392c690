// Picking and the inspector's info (player.js): what is under a click or a label, and what the pack says
// of a person, a thing, a place or a part — with the step a person is in and its evidence.
// Methods of the Player (player.js), not a class of their own: player.js copies them onto
// Player.prototype, so `this` is the player in every one of them (as when they were one 1 670-line class).
import * as THREE from './vendor/three.module.js';
import { fmt } from './player-tracks.js';

export class Picking {
  _initPicking() { this.lastPick = null; }

  pickAt(x, y) {
    if (!this.root) return null;
    if (this._poseDirty) this._applyPose();
    this.root.updateMatrixWorld();
    const ndc = new THREE.Vector2((x / this._w) * 2 - 1, -(y / this._h) * 2 + 1);
    const rc = new THREE.Raycaster();
    rc.layers.enableAll();
    rc.setFromCamera(ndc, this.cam);
    const targets = [];
    const L = this.layers;
    if (L.main) targets.push(L.main);
    if (this.roof === 'solid' || this.roof === 'cutaway') {
      if (L.roof_south && L.roof_south.visible) targets.push(L.roof_south);
      if (L.roof_north && L.roof_north.visible) targets.push(L.roof_north);
    }
    for (const A of this.actors) if (A.cur) { A.cur.updateMatrixWorld(); targets.push(A.cur); }
    for (const O of this.objects) if (O.cur) { O.cur.updateMatrixWorld(); targets.push(O.cur); }
    if (this.houRope && this.houRope.cur) targets.push(this.houRope.cur);
    const hits = rc.intersectObjects(targets, false);
    if (!hits.length) { this._emitPick(null); return null; }
    const h = hits[0];
    const mesh = h.object;
    const g = mesh.geometry;
    const part = g.userData.part && h.faceIndex != null ? g.userData.parts[g.userData.part[h.faceIndex]] : null;
    let info;
    if (mesh.userData.actor) info = this.actorInfo(mesh.userData.actor.id);
    else if (mesh.userData.object) info = this.objectInfo(mesh.userData.object.id);
    else info = this.partInfo(part, h.point);
    if (info) {
      info.part = part;
      info.point_m = h.point.toArray().map((v) => fmt(v, 3));
    }
    this._emitPick(info);
    return info;
  }

  // the inspector for the screen point of a 3D point (tests): projects and picks
  pickWorld(xyz) {
    const v = new THREE.Vector3().fromArray(xyz).project(this.cam);
    return this.pickAt((v.x + 1) / 2 * this._w, (1 - v.y) / 2 * this._h);
  }

  _emitPick(info) {
    this.lastPick = info;
    if (this.onPick) { try { this.onPick(info); } catch (e) { console.error(e); } }
  }

  _pickLabel(L) {
    let info = null;
    if (L.kind === 'actor') info = this.actorInfo(L.id);
    else if (L.kind === 'place') info = this.placeInfo(L.id) || { kind: 'label', id: L.id, name: L.text };
    else if (L.kind === 'dim') info = { kind: 'dim', id: L.dim.id, name: L.dim.text, text: L.dim.text, source: L.dim.source,
      a: L.dim.a, b: L.dim.b };
    this._emitPick(info);
    return info;
  }

  _placeForPart(part) {
    if (!part) return null;
    let best = null;
    for (const p of this.places) {
      if ((part === p.id || part.startsWith(p.id + '.')) && (!best || p.id.length > best.id.length)) best = p;
    }
    return best;
  }

  placeInfo(id) {
    const p = this.placeById.get(id);
    if (!p) return null;
    const c = this.chi_m;
    return { kind: 'place', id: p.id, name: p.name, xyz_m: p.xyz_m, xyz_chi: p.xyz_m.map((v) => fmt(v / c, 2)),
      size_m: p.size_m, facing: p.facing, source: p.source, commentary: p.commentary, derivation: p.derivation,
      status: p.status };
  }

  partInfo(part, point) {
    const p = this._placeForPart(part);
    if (p) return this.placeInfo(p.id);
    const near = point ? this._nearestPlace(point.toArray(), 1.0) : null;
    return { kind: 'part', id: part || '', name: part || '', near_place: near };
  }

  _nearestPlace(xyz, within) {
    let best = null, bd = within;
    for (const p of this.places) {
      const q = p.xyz_m;
      if (!q) continue;
      const d = Math.hypot(q[0] - xyz[0], q[1] - xyz[1], q[2] - xyz[2]);
      if (d <= bd) { bd = d; best = p; }
    }
    if (!best) return null;
    return { id: best.id, name: best.name, distance_m: fmt(bd, 3), source: best.source, derivation: best.derivation,
      status: best.status };
  }

  _stepFor(actorId) {
    const { step: s, current } = this.stepOf(actorId);
    return s ? { phrase: s.phrase, section: s.section, index: s.index, start: s.start, end: s.end, do: s.do,
      current, evidence: this.evidenceOf(s) } : null;
  }

  // a step's evidence (PACK.md `evidence`): {where: {status, source}, facing: …} or null for an older pack
  evidenceOf(s) {
    const E = this.pack && this.pack.evidence;
    if (!E || !s || !s.ev) return null;
    const out = {};
    E.aspects.forEach((a, k) => {
      out[a] = { status: E.statuses.find((x) => x[0] === s.ev[k]) || s.ev[k], source: E.sources[s.evs[k]] || '' };
    });
    return out;
  }

  // the step an actor is in at T (current), or else the last one he did, as the pack lists it
  stepOf(actorId) {
    const A = this.actorById.get(actorId);
    const T = this.t;
    let cur = null, last = null;
    for (const i of (A ? A.steps : [])) {
      const s = this.steps[i];
      if (s.start <= T && T < s.end) cur = s;
      if (s.start <= T) last = s;
    }
    return { step: cur || last, current: !!cur };
  }

  // where a moving thing is now: metres, 尺, the time, and the layout place it stands at (within 1 m)
  _whereInfo(v) {
    const xyz = [v[0], v[1], v[2]];
    return { xyz_m: xyz.map((x) => fmt(x, 3)), xyz_chi: xyz.map((x) => fmt(x / this.chi_m, 2)), t: fmt(this.t, 2),
      near_place: this._nearestPlace(xyz, 1.0) };
  }

  actorInfo(id) {
    const A = this.actorById.get(id);
    if (!A) return null;
    const T = this.t;
    const v = A.track.at(T, new Float32Array(4));
    return { kind: 'actor', id: A.id, name: A.name, role: A.role.at(T) || '', posture: A.posture.at(T) || '', figure: A.figure.at(T) || '',
      visible: !!A.visible.at(T), holding: A.holding.at(T) || '', say: A.say.at(T) || '',
      ...this._whereInfo(v), heading: ((fmt(v[3], 1) % 360) + 360) % 360, step: this._stepFor(id) };
  }

  objectInfo(id) {
    const O = this.objectById.get(id);
    if (!O) return null;
    const T = this.t;
    const orient = O.orient.at(T) || 'fixed';
    return { kind: 'object', id: O.id, name: O.name, object_kind: O.kind, state: O.state.at(T) || '',
      variant: O.variant.at(T) || '', orient, holder: orient.startsWith('holder:') ? orient.slice(7) : null,
      ...this._whereInfo(O.track.at(T, new Float32Array(3))) };
  }
}
