// Contact shadows (issue 15): a soft dark disc on the floor under each person and each thing set down,
// drawn as one instanced mesh (one draw call, 48 triangles a disc) from the pack's `contact` block
// (PACK.md; the stills draw the same discs, scene/render/meshes/contact.py).
import * as THREE from './vendor/three.module.js';

const SEGMENTS = 16;

function discGeometry(inner, innerAlpha) {
  // centre, a ring at `inner`, the rim: alpha as a per-vertex attribute (fades to 0 at the rim)
  const pos = [0, 0, 0], a = [1];
  for (const [r, al] of [[inner, innerAlpha], [1, 0]]) {
    for (let k = 0; k < SEGMENTS; k++) {
      const t = (2 * Math.PI * k) / SEGMENTS;
      pos.push(r * Math.cos(t), r * Math.sin(t), 0);
      a.push(al);
    }
  }
  const idx = [];
  for (let i = 0; i < SEGMENTS; i++) {
    const j = (i + 1) % SEGMENTS;
    idx.push(0, 1 + i, 1 + j, 1 + i, 1 + SEGMENTS + i, 1 + SEGMENTS + j, 1 + i, 1 + SEGMENTS + j, 1 + j);
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.setAttribute('shade', new THREE.Float32BufferAttribute(a, 1));
  g.setIndex(idx);
  return g;
}

export class ContactShadows {
  constructor(block, maxCount) {
    this.block = block;
    this.radius = block.radius || {};
    this.floors = block.floors || [];
    this.skip = new Set(block.skip_kinds || []);
    const mat = new THREE.ShaderMaterial({
      uniforms: { alpha: { value: block.alpha || 0.5 } },
      vertexShader: `attribute float shade; varying float vShade;
        void main() { vShade = shade; gl_Position = projectionMatrix * modelViewMatrix * instanceMatrix * vec4(position, 1.0); }`,
      fragmentShader: `uniform float alpha; varying float vShade;
        void main() { gl_FragColor = vec4(0.0, 0.0, 0.0, alpha * vShade); }`,
      transparent: true, depthWrite: false, polygonOffset: true, polygonOffsetFactor: -2, polygonOffsetUnits: -8,
    });
    this.mesh = new THREE.InstancedMesh(discGeometry(block.inner || 0.6, block.inner_alpha || 0.8), mat,
      Math.max(1, maxCount));
    this.mesh.name = 'contact-shadows';
    this.mesh.frustumCulled = false;
    this.mesh.renderOrder = 5;              // over the ground, under nothing (people write depth first)
    this.mesh.count = 0;
    this._m = new THREE.Matrix4();
  }

  floorZ(x, y) {
    for (const [x0, x1, y0, y1, z] of this.floors) if (x >= x0 && x <= x1 && y >= y0 && y <= y1) return z;
    return 0;
  }

  // actors / objects of the player after _applyPose (their .shown, .xyzh / .xyz, posture, orient); `skip`: a Set
  // of them left out, `only`: a Set of the only ones drawn (the pieces at rest go into the static cache, issue 42)
  update(actors, objects, T, skip = null, only = null) {
    const lift = this.block.lift || 0.02, tol = this.block.rest_tol || 0.3;
    const m = this._m, im = this.mesh;
    let n = 0;
    const put = (x, y, z, r) => {
      if (n >= im.instanceMatrix.count) return;
      m.makeScale(r, r, 1);
      m.setPosition(x, y, z + lift);
      im.setMatrixAt(n++, m);
    };
    const out = (x) => (skip && skip.has(x)) || (only && !only.has(x));
    for (const A of actors) {
      if (!A.shown || out(A)) continue;
      put(A.xyzh[0], A.xyzh[1], A.xyzh[2], this.radius[A.postureNow] || this.radius.stand || 0.5);
    }
    for (const O of objects) {
      if (!O.shown || out(O) || this.skip.has(O.kind) || String(O.id).startsWith('bow.')) continue;
      if (String(O.orient.at(T) || '').startsWith('holder:')) continue;
      const fz = this.floorZ(O.xyz[0], O.xyz[1]);
      if (Math.abs(O.xyz[2] - fz) <= tol) put(O.xyz[0], O.xyz[1], fz, this.block.object_radius || 0.3);
    }
    im.count = n;
    im.instanceMatrix.needsUpdate = true;
    return n;
  }

  dispose() {
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
  }
}
