// The pack's data as the player reads it (PACK.md): the step and keyframe tracks looked up at a time T,
// the binary buffer's accessors and geometries, and two small helpers.  Split out of player.js (issue 24:
// modules of one idea, ≤ 560 lines); the player's modules (player-*.js) import what they use from here.
import * as THREE from './vendor/three.module.js';

// ---------------------------------------------------------------- time look-ups
// Last index i with ts[i] <= T (-1 before the first), trying the cached hint and its
// successor first: playback is monotonic, so this is O(1) per frame almost always.
export function lastLE(ts, T, hint) {
  const n = ts.length;
  if (n === 0 || T < ts[0]) return -1;
  if (hint >= 0 && hint < n && ts[hint] <= T) {
    if (hint + 1 >= n || ts[hint + 1] > T) return hint;
    if (hint + 2 >= n || ts[hint + 2] > T) return hint + 1;
  }
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ts[mid] <= T) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// A Steps {t, v}: the value in force at T (v[0] before the first key).
export class StepsTrack {
  constructor(s) {
    this.t = (s && s.t) || [];
    this.v = (s && s.v) || [];
    this.i = 0;
  }
  at(T) {
    if (this.v.length === 0) return undefined;
    const i = lastLE(this.t, T, this.i);
    this.i = i < 0 ? 0 : i;
    return this.v[i < 0 ? 0 : i];
  }
}

// A keyframe track: times (f32) and values (f32 × c), linear, clamped.
export class KeyTrack {
  constructor(t, v, c) {
    this.t = t; this.v = v; this.c = c; this.i = 0;
  }
  // writes the value at T into out (array of length c); returns out
  at(T, out) {
    const { t, v, c } = this;
    const n = t.length;
    if (n === 0) { for (let k = 0; k < c; k++) out[k] = 0; return out; }
    let i = lastLE(t, T, this.i);
    if (i < 0) { this.i = 0; for (let k = 0; k < c; k++) out[k] = v[k]; return out; }
    this.i = i;
    if (i >= n - 1) { const o = (n - 1) * c; for (let k = 0; k < c; k++) out[k] = v[o + k]; return out; }
    const t0 = t[i], t1 = t[i + 1];
    const f = t1 > t0 ? (T - t0) / (t1 - t0) : 1;
    const o = i * c;
    for (let k = 0; k < c; k++) out[k] = v[o + k] + (v[o + c + k] - v[o + k]) * f;
    return out;
  }
  // the velocity (value units per second) of the segment in force at T; returns out
  velocity(T, out) {
    const { t, v, c } = this;
    const n = t.length;
    for (let k = 0; k < c; k++) out[k] = 0;
    if (n < 2) return out;
    let i = lastLE(t, T, this.i);
    if (i < 0) i = 0;
    if (i >= n - 1) i = n - 2;
    // skip zero-length or still segments backwards/forwards a little to find motion
    for (let j = i; j >= Math.max(0, i - 2); j--) {
      const dt = t[j + 1] - t[j];
      if (dt <= 0) continue;
      let moving = false;
      for (let k = 0; k < c; k++) {
        out[k] = (v[(j + 1) * c + k] - v[j * c + k]) / dt;
        if (out[k] !== 0) moving = true;
      }
      if (moving) return out;
    }
    return out;
  }
}

// ---------------------------------------------------------------- pack reading
export function accessor(buf, a) {
  if (!a) return null;
  const n = a.n * (a.c || 1);
  switch (a.t) {
    case 'f32': return new Float32Array(buf, a.o, n);
    case 'u8': return new Uint8Array(buf, a.o, n);
    case 'u16': return new Uint16Array(buf, a.o, n);
    case 'u32': return new Uint32Array(buf, a.o, n);
    default: throw new Error(`pack: unknown accessor type ${a.t}`);
  }
}

export function makeGeometry(buf, geo) {
  if (!geo || !geo.position || geo.position.n === 0) return null;
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(accessor(buf, geo.position), 3));
  if (geo.colour) g.setAttribute('color', new THREE.BufferAttribute(accessor(buf, geo.colour), 3, true));
  if (geo.index) g.setIndex(new THREE.BufferAttribute(accessor(buf, geo.index), 1));
  g.computeBoundingBox();
  g.computeBoundingSphere();
  g.userData.part = accessor(buf, geo.part);
  g.userData.parts = geo.parts || [];
  return g;
}

export function joinUrl(base, rel) {
  return new URL(rel, new URL(base, document.baseURI)).href;
}

export function fmt(x, d = 2) { return Math.round(x * 10 ** d) / 10 ** d; }
