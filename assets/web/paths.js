// Paths and ghosts (key T): for the stage being played, every person's path through it drawn on the
// floor in his colour, a faint ghost of him where he stood when the stage began and a stronger one where
// he will stand when it ends — the blocking of the stage at a glance, as the role sheets print it.
// A player extension (player.use): it reads the pack's tracks, adds its own group to the scene, and
// rebuilds only when the stage changes.  Nothing here is needed to play a pack.
import * as THREE from './vendor/three.module.js';

const DEG = Math.PI / 180;
const LIFT = 0.04;          // m above the floor the path is drawn (clear of the ground's own lines)
const STILL = 0.3;          // m: a person who moves less than this in the stage has no path

export class PathsOverlay {
  constructor() {
    this.on = false;
    this.player = null;
    this.group = null;
    this._stageIdx = -2;
    this._pack = null;
    this._owned = [];       // geometries and materials to dispose
  }

  attach(player) {
    this.player = player;
    this.group = new THREE.Group();
    this.group.name = 'paths';
    this.group.visible = false;
    player.scene.add(this.group);
    player.paths = this;
  }

  onPack() { this._stageIdx = -2; }

  onKey(ev) {
    if (ev.key !== 't' && ev.key !== 'T') return false;
    this.set(!this.on);
    return true;
  }

  set(on) {
    this.on = !!on;
    this.group.visible = this.on;
    this._stageIdx = -2;
    this.player.requestRedraw();
  }

  onFrame() {
    const P = this.player;
    if (!this.on || !P.stages || !P.actors) return false;
    const idx = P._stageIdx >= 0 ? P._stageIdx : 0;
    if (idx === this._stageIdx && this._pack === P.pack) return false;
    this._stageIdx = idx;
    this._pack = P.pack;
    this._build(P.stages[idx]);
    return true;
  }

  // what is drawn now: [{id, points, ghosts}] (the tests read it)
  summary() { return this._summary || []; }

  _clear() {
    for (const c of [...this.group.children]) this.group.remove(c);
    for (const o of this._owned) o.dispose();
    this._owned = [];
  }

  _build(stage) {
    this._clear();
    this._summary = [];
    if (!stage) return;
    const P = this.player;
    const out = new Float32Array(4);
    for (const A of P.actors) {
      const t = A.track.t;
      const times = [stage.start];
      for (let i = 0; i < t.length; i++) if (t[i] > stage.start && t[i] < stage.end) times.push(t[i]);
      times.push(stage.end);
      const pts = [];
      let x0 = null, y0 = null, far = 0;
      for (const T of times) {
        if (!A.visible.at(T)) continue;
        A.track.at(T, out);
        if (x0 === null) { x0 = out[0]; y0 = out[1]; }
        far = Math.max(far, Math.hypot(out[0] - x0, out[1] - y0));
        pts.push(new THREE.Vector3(out[0], out[1], out[2] + LIFT));
      }
      if (pts.length < 2 || far < STILL) continue;
      const colour = new THREE.Color(A.colour);
      const geo = new THREE.BufferGeometry().setFromPoints(pts);
      const mat = new THREE.LineBasicMaterial({ color: colour, transparent: true, opacity: 0.95, depthTest: false });
      const line = new THREE.Line(geo, mat);
      line.renderOrder = 30;
      line.name = `path.${A.id}`;
      this.group.add(line);
      this._owned.push(geo, mat);
      this._dot(pts[pts.length - 1], colour);
      const ghosts = [];
      const stand = A.meshes.stand || Object.values(A.meshes)[0];
      if (stand) {
        for (const [T, opacity] of [[stage.start, 0.18], [stage.end, 0.4]]) {
          if (!A.visible.at(T)) continue;
          A.track.at(T, out);
          const gm = new THREE.MeshBasicMaterial({ color: colour, transparent: true, opacity, depthWrite: false });
          const g = new THREE.Mesh(stand.geometry, gm);
          g.position.set(out[0], out[1], out[2]);
          g.rotation.z = -out[3] * DEG;
          g.renderOrder = 25;
          g.name = `ghost.${A.id}.${T === stage.start ? 'start' : 'end'}`;
          this.group.add(g);
          this._owned.push(gm);
          ghosts.push(g.name);
        }
      }
      this._summary.push({ id: A.id, points: pts.length, length: this._length(pts), ghosts });
    }
  }

  _dot(p, colour) {
    const geo = new THREE.CircleGeometry(0.12, 16);
    const mat = new THREE.MeshBasicMaterial({ color: colour, depthTest: false });
    const m = new THREE.Mesh(geo, mat);
    m.position.copy(p);
    m.renderOrder = 31;
    this.group.add(m);
    this._owned.push(geo, mat);
  }

  _length(pts) {
    let s = 0;
    for (let i = 1; i < pts.length; i++) s += pts[i].distanceTo(pts[i - 1]);
    return Math.round(s * 100) / 100;
  }

  dispose() {
    this._clear();
    if (this.group && this.player) this.player.scene.remove(this.group);
  }
}

export default PathsOverlay;
