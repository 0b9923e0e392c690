// The people and things drawn as one buffer (split out of player.js, issue 24: one idea a module).
import * as THREE from './vendor/three.module.js';
import { lastLE } from './player-tracks.js';

const _frustum = new THREE.Frustum();
const _pv = new THREE.Matrix4();
const _sphere = new THREE.Sphere();

// ---------------------------------------------------------------- people and things in one draw
// The figures and objects shown at T, gathered into one buffer: their vertices transformed on the
// CPU (a few ten thousand: well under a millisecond), colours and indices rewritten only when the
// set of shown pieces changes (a posture, a variant, someone appearing).  One draw call instead of
// 130: on a software GL each call costs tens of microseconds in ANGLE and llvmpipe.
export class DynamicBatch {
  constructor(maxVerts, maxTris, material) {
    this.pos = new Float32Array(Math.max(3, maxVerts * 3));
    this.col = new Uint8Array(Math.max(3, maxVerts * 3));
    this.idx = new Uint32Array(Math.max(3, maxTris * 3));
    const g = new THREE.BufferGeometry();
    this.aPos = new THREE.BufferAttribute(this.pos, 3).setUsage(THREE.DynamicDrawUsage);
    this.aCol = new THREE.BufferAttribute(this.col, 3, true).setUsage(THREE.DynamicDrawUsage);
    this.aIdx = new THREE.BufferAttribute(this.idx, 1).setUsage(THREE.DynamicDrawUsage);
    g.setAttribute('position', this.aPos);
    g.setAttribute('color', this.aCol);
    g.setIndex(this.aIdx);
    g.setDrawRange(0, 0);
    this.geometry = g;
    this.mesh = new THREE.Mesh(g, material);
    this.mesh.name = 'people-and-things';
    this.mesh.frustumCulled = false;
    this.mesh.matrixAutoUpdate = false;
    this.items = [];
    this.nVerts = 0;
    this.layouts = 0;
  }

  // list: meshes (geometry + up-to-date .matrix) shown at this moment; drawn by the next prepare()
  update(list) {
    this.list = list;
    this.posDirty = true;
  }

  // Before a draw with camera `cam` (null: no culling): the shown pieces inside the camera's view, laid out
  // again only when that set changed, their vertices rewritten only when the pose or the set changed.
  // Issue 42: on a software GL (llvmpipe) every triangle sent costs, on screen or not (35 k triangles took
  // 7 ms of the GPU process a frame, the same with the camera turned away); the director's close shots see a
  // few of the 38 people and 118 things.
  prepare(cam) {
    const list = this.list || [];
    let vis = list;
    if (cam) {
      cam.updateMatrixWorld();
      _frustum.setFromProjectionMatrix(_pv.multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
      vis = this._vis || (this._vis = []);
      vis.length = 0;
      for (const m of list) {
        const bs = m.geometry.boundingSphere;
        if (!bs) { vis.push(m); continue; }
        _sphere.copy(bs).applyMatrix4(m.matrix);
        _sphere.radius = _sphere.radius * 1.05 + 0.05;
        if (_frustum.intersectsSphere(_sphere)) vis.push(m);
      }
    }
    const items = this.items;
    let same = items.length === vis.length;
    for (let k = 0; same && k < vis.length; k++) same = items[k] === vis[k];
    if (!same) { this._layout(vis); this.posDirty = true; }
    if (!this.posDirty) return;
    this.posDirty = false;
    this._write(vis);
  }

  _write(list) {
    const pos = this.pos;
    let o = 0;
    for (let k = 0; k < list.length; k++) {
      const m = list[k];
      const e = m.matrix.elements;
      const src = m.geometry.attributes.position.array;
      const e0 = e[0], e1 = e[1], e2 = e[2], e4 = e[4], e5 = e[5], e6 = e[6], e8 = e[8], e9 = e[9], e10 = e[10];
      const e12 = e[12], e13 = e[13], e14 = e[14];
      for (let i = 0, n = src.length; i < n; i += 3) {
        const x = src[i], y = src[i + 1], z = src[i + 2];
        pos[o++] = e0 * x + e4 * y + e8 * z + e12;
        pos[o++] = e1 * x + e5 * y + e9 * z + e13;
        pos[o++] = e2 * x + e6 * y + e10 * z + e14;
      }
    }
    this.aPos.clearUpdateRanges();
    this.aPos.addUpdateRange(0, Math.max(3, o));
    this.aPos.needsUpdate = true;
  }

  _layout(list) {
    this.items = list.slice();
    let v = 0, t = 0;
    for (const m of list) {
      const g = m.geometry;
      const c = g.attributes.color ? g.attributes.color.array : null;
      const n = g.attributes.position.count;
      if (c) this.col.set(c, v * 3); else this.col.fill(160, v * 3, (v + n) * 3);
      const ix = g.index.array;
      for (let i = 0; i < ix.length; i++) this.idx[t + i] = ix[i] + v;
      m.userData.batchTri = t / 3;              // where its triangles start (picking)
      v += n;
      t += ix.length;
    }
    this.nVerts = v;
    this.geometry.setDrawRange(0, t);
    for (const [a, n] of [[this.aCol, v * 3], [this.aIdx, t]]) {
      a.clearUpdateRanges();
      a.addUpdateRange(0, Math.max(3, n));
      a.needsUpdate = true;
    }
    this.layouts++;
  }
}

// ---------------------------------------------------------------- the pieces at rest
// Issue 42: most of the people and things stand still over the next seconds (in §21 at 8×, 90 % of the
// figures' triangles over the next 60 s of the rite).  Those are drawn into the static cache (the rest batch,
// player.js) and only the moving ones every frame; the split holds until the first piece at rest changes.

// The first moment after T at which a keyframe track's value changes (T itself if it is moving at T), or
// Tmax if not before Tmax (Infinity: never again).
export function keyChange(K, T, Tmax) {
  const { t, v, c } = K;
  const n = t.length;
  if (n < 2) return Infinity;
  let j = Math.max(0, lastLE(t, T, K.i));
  for (; j + 1 < n && t[j] < Tmax; j++) {
    for (let k = 0; k < c; k++) if (v[j * c + k] !== v[(j + 1) * c + k]) return Math.max(T, t[j]);
  }
  return j + 1 >= n ? Infinity : Tmax;
}

// The next key after T of a steps track (Infinity: none).
export function stepsChange(S, T) {
  const i = lastLE(S.t, T, S.i);
  return i + 1 < S.t.length ? S.t[i + 1] : Infinity;
}

// When each actor or object (player-build.js's records) next changes after T; those still for more than
// `hold` seconds make the rest set, valid from T until the first of them changes.
export function restSplit(actors, objects, T, hold) {
  const T1 = T + hold, Tmax = T + 4 * hold;
  const set = new Set();
  let until = Tmax;
  const take = (x, nx) => { if (nx > T1) { set.add(x); until = Math.min(until, nx); } };
  for (const A of actors) {
    take(A, Math.min(stepsChange(A.visible, T), stepsChange(A.posture, T), stepsChange(A.figure, T),
      keyChange(A.track, T, Tmax)));
  }
  for (const O of objects) {
    const o = String(O.orient.at(T) || 'fixed');
    if (o.startsWith('holder:') || o === 'velocity') continue;      // turns with its holder or its flight
    take(O, Math.min(stepsChange(O.variant, T), stepsChange(O.orient, T), keyChange(O.track, T, Tmax)));
  }
  return { t0: T, t1: until, set };
}
