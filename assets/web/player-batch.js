// The people and things drawn as one buffer (split out of player.js, issue 24: one idea a module).
import * as THREE from './vendor/three.module.js';

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

  // list: meshes (geometry + up-to-date .matrix) to draw this frame
  update(list) {
    const items = this.items;
    let same = items.length === list.length;
    for (let k = 0; same && k < list.length; k++) same = items[k] === list[k];
    if (!same) this._layout(list);
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
