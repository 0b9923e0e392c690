// Building a pack into the scene (player.js): the static layers, one mesh per figure posture and object
// variant, the batched draw, contact shadows, the 侯's rope, steps/stages/places, the dimension lines, and
// the grey ghost of the previous pack that a reading is compared with.
// Methods of the Player (player.js), not a class of their own: player.js copies them onto
// Player.prototype, so `this` is the player in every one of them (as when they were one 1 670-line class).
import * as THREE from './vendor/three.module.js';
import { ContactShadows } from './contact.js';
import { HighTier } from './quality.js';
import { DynamicBatch } from './player-batch.js';
import { KeyTrack, StepsTrack, accessor, makeGeometry } from './player-tracks.js';

export class PackBuild {
  _initBuild() {
    this.pack = null;          // the manifest
    this.root = null;          // the pack's THREE.Group
    this._ghost = null;
  }

  _build(m, buf) {
    this.pack = m;
    this.duration = m.duration_s || 0;
    this.chi_m = (m.reading && m.reading.chi_m) || 0.231;
    const root = new THREE.Group();
    root.name = 'pack';
    this.root = root;
    this._geos = [];
    const geo = (g) => { const x = makeGeometry(buf, g); if (x) this._geos.push(x); return x; };
    const staticMesh = (g, mat, order, name) => {
      const gg = geo(g);
      if (!gg) return null;
      const mesh = new THREE.Mesh(gg, mat);
      mesh.name = name;
      mesh.renderOrder = order;
      mesh.matrixAutoUpdate = false;
      mesh.updateMatrix();
      if (this.staticCache) mesh.layers.set(1);    // drawn into the static target
      root.add(mesh);
      return mesh;
    };
    // draw order: people and things first (they cover a little of the big surfaces), then
    // the static main layer, then the shadows (no depth writes, offset onto the ground), then roofs
    const L = m.layers || {};
    this.layers = {
      main: staticMesh(L.main, this.matBasic, 1, 'main'),
      shadows: staticMesh(L.shadows, this.matShadow, 2, 'shadows'),
      roof_south: staticMesh(L.roof_south, this.matBasic, 3, 'roof_south'),
      roof_north: staticMesh(L.roof_north, this.matBasic, 3, 'roof_north'),
    };
    const rs = this.layers.roof_south, rn = this.layers.roof_north;
    if (rs && rn) this._ridgeY = (rs.geometry.boundingBox.max.y + rn.geometry.boundingBox.min.y) / 2;
    else if (rs) this._ridgeY = rs.geometry.boundingBox.max.y;
    else if (rn) this._ridgeY = rn.geometry.boundingBox.min.y;
    else this._ridgeY = 0;

    // actors: one mesh per posture, toggled
    this.actors = [];
    this.actorById = new Map();
    for (const a of m.actors || []) {
      const A = {
        id: a.id, name: a.name, colour: a.colour || '#888888', label_z: a.label_z || 1.9, def: a,
        track: new KeyTrack(accessor(buf, a.track.t), accessor(buf, a.track.v), 4),
        posture: new StepsTrack(a.posture), visible: new StepsTrack(a.visible),
        figure: new StepsTrack(a.figure || a.posture),
        holding: new StepsTrack(a.holding), role: new StepsTrack(a.role), say: new StepsTrack(a.say),
        meshes: {}, labelZ: {}, cur: null, curZ: 0, xyzh: new Float32Array(4), shown: false, label: null,
        baseRole: String((a.role && a.role.v && a.role.v[0]) || '').split(' ')[0],
        steps: [],
      };
      for (const [post, g] of Object.entries(a.figures || {})) {
        const mesh = this._partMesh(geo(g), root, `actor.${a.id}.${post}`, { actor: A, posture: post });
        if (mesh) A.meshes[post] = mesh;
        // the label over this figure's head: a kneeling (坐) or bowing (拜) man's is lower than a standing one's
        A.labelZ[post] = g.label_z || A.label_z;
      }
      this.actors.push(A);
      this.actorById.set(a.id, A);
    }

    // objects: one mesh per variant, toggled
    this.objects = [];
    this.objectById = new Map();
    for (const o of m.objects || []) {
      const O = {
        id: o.id, name: o.name, kind: o.kind, def: o,
        track: new KeyTrack(accessor(buf, o.track.t), accessor(buf, o.track.v), 3),
        state: new StepsTrack(o.state), variant: new StepsTrack(o.variant), orient: new StepsTrack(o.orient),
        meshes: {}, cur: null, xyz: new Float32Array(3), shown: false,
      };
      for (const [key, g] of Object.entries(o.variants || {})) {
        const mesh = this._partMesh(geo(g), root, `object.${o.id}.${key}`, { object: O, variant: key });
        if (mesh) O.meshes[key] = mesh;
      }
      this.objects.push(O);
      this.objectById.set(o.id, O);
    }

    this.batch = null;
    this.restBatch = null;
    this.restAgain();
    this._batchList = [];
    this._restList = [];
    if (this.batchDynamic) {
      let nv = 0, nt = 0;
      const biggest = (meshes) => {
        let v = 0, t = 0;
        for (const m of Object.values(meshes)) {
          v = Math.max(v, m.geometry.attributes.position.count);
          t = Math.max(t, m.geometry.index.count / 3);
        }
        nv += v; nt += t;
      };
      for (const A of this.actors) biggest(A.meshes);
      for (const O of this.objects) biggest(O.meshes);
      this.batch = new DynamicBatch(nv, nt, this.matBasic);
      root.add(this.batch.mesh);
      // the pieces at rest, drawn with the static layers (player-pose.js _restAt)
      if (this.staticCache && this.restCache) {
        this.restBatch = new DynamicBatch(nv, nt, this.matBasic);
        this.restBatch.mesh.name = 'people-and-things-at-rest';
        this.restBatch.mesh.layers.set(1);
        root.add(this.restBatch.mesh);
      }
    }
    // contact shadows: a soft disc under each person and each thing set down (contact.js)
    this.contact = m.contact ? new ContactShadows(m.contact, this.actors.length + this.objects.length) : null;
    if (this.contact) root.add(this.contact.mesh);
    // (those of the pieces at rest with the static layers, as the rest batch)
    this.contactRest = this.contact && this.restBatch ? new ContactShadows(m.contact, this.actors.length + this.objects.length) : null;
    if (this.contactRest) { this.contactRest.mesh.layers.set(1); root.add(this.contactRest.mesh); }
    this.high = this.qualityInfo.tier === 'high' ? new HighTier(this, m, root) : null;

    // the 侯's lower strip and rope, by the state of the object hou_rope
    this.houRope = null;
    if (m.hou_rope && m.hou_rope.variants) {
      const H = { obj: this.objectById.get(m.hou_rope.track_object || 'hou_rope') || null, meshes: {}, keys: [], cur: null };
      for (const [key, g] of Object.entries(m.hou_rope.variants)) {
        const mesh = staticMesh(g, this.matBasic, 0, `hou_rope.${key}`);
        if (!mesh) continue;
        mesh.layers.set(0);                         // changes with time: drawn every frame
        mesh.visible = false;
        H.meshes[key] = mesh;
        H.keys.push(key);
      }
      H.keys.sort((a, b) => b.length - a.length);   // longest prefix first
      this.houRope = H;
    }

    // steps, stages, places
    this.steps = m.steps || [];
    this.stepStarts = this.steps.map((s) => s.start);
    for (let i = 0; i < this.steps.length; i++) {
      for (const who of this.steps[i].who || []) {
        const A = this.actorById.get(who);
        if (A) A.steps.push(i);
      }
    }
    this.stages = (m.stages || []).slice().sort((a, b) => a.start - b.start);
    this.stageStarts = this.stages.map((s) => s.start);
    this.places = m.places || [];
    this.placeById = new Map(this.places.map((p) => [p.id, p]));
    this.views = m.views || { order: [], titles: {}, by_stage: {} };
    this.viewOrder = this.views.order && this.views.order.length ? this.views.order
      : ['overview', 'hall', 'range', 'plan', 'archer', 'target', 'guest'];

    // dimension lines with end ticks
    this.dimsGroup = null;
    const dims = m.dims || [];
    if (dims.length) {
      const pts = [];
      const a = new THREE.Vector3(), b = new THREE.Vector3(), d = new THREE.Vector3(), n = new THREE.Vector3();
      for (const dm of dims) {
        a.fromArray(dm.a); b.fromArray(dm.b);
        pts.push(a.x, a.y, a.z, b.x, b.y, b.z);
        d.subVectors(b, a);
        const len = d.length();
        if (len <= 0) continue;
        d.divideScalar(len);
        n.set(-d.y, d.x, 0);
        if (n.lengthSq() < 1e-6) n.set(1, 0, 0);   // a vertical dimension: ticks along x
        n.normalize().multiplyScalar(Math.min(0.8, Math.max(0.25, len * 0.03)));
        for (const p of [a, b]) pts.push(p.x - n.x, p.y - n.y, p.z - n.z, p.x + n.x, p.y + n.y, p.z + n.z);
      }
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
      this._geos.push(g);
      const lines = new THREE.LineSegments(g, this.matDims);
      lines.renderOrder = 10;
      lines.matrixAutoUpdate = false;
      lines.visible = this.dimsOn;
      lines.name = 'dims';
      root.add(lines);
      this.dimsGroup = lines;
    }

    this.scene.add(root);
    this.redrawStatic();
    this._buildLabels(m);
    this._applyRoof();
    this._warmUp();
    this._initPose();
  }

  // upload every geometry now (render once to a 1×1 target with everything visible), so that
  // a posture or variant shown for the first time later costs no upload in that frame
  // one hidden mesh of a figure posture or an object variant (shown by the frame that needs it)
  _partMesh(gg, root, name, userData) {
    if (!gg) return null;
    const mesh = new THREE.Mesh(gg, this.matBasic);
    mesh.name = name;
    mesh.visible = false;
    mesh.renderOrder = 0;
    Object.assign(mesh.userData, userData);
    if (!this.batchDynamic) root.add(mesh);
    return mesh;
  }

  _warmUp() {
    const shown = [];
    this.root.traverse((o) => { if (o.isMesh || o.isLineSegments) { shown.push([o, o.visible]); o.visible = true; } });
    const rt = new THREE.WebGLRenderTarget(1, 1);
    const prev = this.renderer.getRenderTarget();
    this.renderer.setRenderTarget(rt);
    this.cam.layers.enableAll();
    this.renderer.render(this.scene, this.cam);
    this.renderer.setRenderTarget(prev);
    rt.dispose();
    this.redrawStatic();
    for (const [o, v] of shown) o.visible = v;
  }

  _disposePack() {
    if (!this.root) return;
    this.scene.remove(this.root);
    const keep = this._ghost ? this._ghost.geos : null;
    for (const g of this._geos || []) if (!keep || !keep.has(g)) g.dispose();
    this._geos = [];
    for (const b of [this.batch, this.restBatch]) if (b) b.geometry.dispose();
    if (this.contact) { this.contact.dispose(); this.contact = null; }
    if (this.contactRest) { this.contactRest.dispose(); this.contactRest = null; }
    if (this.high) { this.high.dispose(); this.high = null; }
    this.root = null;
    this._removeLabels();
  }

  _makeGhost() {
    this.clearGhost();
    const group = new THREE.Group();
    group.name = 'ghost';
    const geos = new Set();
    const add = (mesh, geometry) => {
      if (!mesh) return;
      mesh.updateMatrixWorld();
      const gm = new THREE.Mesh(geometry || mesh.geometry, this.matGhost);
      gm.matrixAutoUpdate = false;
      gm.matrix.copy(mesh.matrixWorld);
      gm.renderOrder = 20;
      group.add(gm);
      geos.add(geometry || mesh.geometry);
    };
    // the main layer without the ground (a grey veil over the whole field would hide, not compare)
    const main = this.layers.main;
    if (main) {
      const g = main.geometry, part = g.userData.part, parts = g.userData.parts;
      const skip = parts.map((p) => /^ground\b|^hall\.court$|^range\.houdao$/.test(p));
      const src = g.index.array;
      const keep = [];
      for (let k = 0; k < src.length / 3; k++) {
        if (part && skip[part[k]]) continue;
        keep.push(src[3 * k], src[3 * k + 1], src[3 * k + 2]);
      }
      const gg = new THREE.BufferGeometry();
      gg.setAttribute('position', g.attributes.position);
      gg.setIndex(new THREE.BufferAttribute(new Uint32Array(keep), 1));
      gg.boundingSphere = g.boundingSphere;
      add(main, gg);
      geos.add(gg);
    }
    for (const A of this.actors) if (A.shown) add(A.cur);
    for (const O of this.objects) if (O.shown) add(O.cur);
    this.scene.add(group);
    this._ghost = { group, geos };
  }

  clearGhost() {
    if (!this._ghost) return;
    this.scene.remove(this._ghost.group);
    const live = new Set(this._geos || []);
    for (const g of this._ghost.geos) if (!live.has(g)) g.dispose();
    this._ghost = null;
    this.requestRedraw();
  }
}
