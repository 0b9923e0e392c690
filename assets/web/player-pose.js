// The pose at T (player.js): each person's figure, place and heading, each object's variant and
// orientation, the 侯's rope, and which stage and step T is in.
// Methods of the Player (player.js), not a class of their own: player.js copies them onto
// Player.prototype, so `this` is the player in every one of them (as when they were one 1 670-line class).
import { lastLE } from './player-tracks.js';
import { restSplit } from './player-batch.js';

const DEG = Math.PI / 180;

export class Pose {
  _applyPose() {
    const T = this.t;
    const tmp = this._tmp;
    const batch = this.batch ? this._batchList : null;
    if (batch) batch.length = 0;
    const rest = this._restAt(T), restList = this._restList;
    if (rest) restList.length = 0;
    for (const A of this.actors) {
      const vis = !!A.visible.at(T);
      const post = A.posture.at(T);
      const fig = A.figure.at(T);
      const key = A.meshes[fig] ? fig : A.meshes[post] ? post : 'stand';
      let mesh = A.meshes[key] || null;
      if (!vis) mesh = null;
      if (mesh !== A.cur) {
        if (A.cur) A.cur.visible = false;
        if (mesh) mesh.visible = true;
        A.cur = mesh;
      }
      A.shown = !!mesh;
      A.postureNow = post;
      const L = A.label;
      if (L) L.active = A.shown;
      if (!mesh) continue;
      A.track.at(T, tmp);
      A.xyzh[0] = tmp[0]; A.xyzh[1] = tmp[1]; A.xyzh[2] = tmp[2]; A.xyzh[3] = tmp[3];
      mesh.position.set(tmp[0], tmp[1], tmp[2]);
      mesh.rotation.z = -tmp[3] * DEG;
      if (L) L.anchor.set(tmp[0], tmp[1], tmp[2] + (A.labelZ[key] || A.label_z));
      if (batch) { mesh.updateMatrix(); (rest && rest.has(A) ? restList : batch).push(mesh); }
    }
    for (const O of this.objects) {
      const key = O.variant.at(T) || '';
      const mesh = key ? (O.meshes[key] || null) : null;
      if (mesh !== O.cur) {
        if (O.cur) O.cur.visible = false;
        if (mesh) mesh.visible = true;
        O.cur = mesh;
      }
      O.shown = !!mesh;
      if (!mesh) continue;
      O.track.at(T, tmp);
      O.xyz[0] = tmp[0]; O.xyz[1] = tmp[1]; O.xyz[2] = tmp[2];
      mesh.position.set(tmp[0], tmp[1], tmp[2]);
      const orient = O.orient.at(T) || 'fixed';
      if (orient === 'fixed') {
        mesh.quaternion.identity();
      } else if (orient.startsWith('holder:')) {
        const H = this.actorById.get(orient.slice(7));
        let h = 0;
        if (H) { H.track.at(T, this._tmp2); h = this._tmp2[3]; }
        mesh.quaternion.identity();
        mesh.rotation.z = -h * DEG;
      } else if (orient === 'velocity') {
        O.track.velocity(T, this._tmp2);
        const d = this._v2.set(this._tmp2[0], this._tmp2[1], this._tmp2[2]);
        if (d.lengthSq() > 1e-12) mesh.quaternion.setFromUnitVectors(this._yAxis, d.normalize());
      } else {
        mesh.quaternion.identity();
      }
      if (batch) { mesh.updateMatrix(); (rest && rest.has(O) ? restList : batch).push(mesh); }
    }
    if (batch) this.batch.update(batch);
    if (rest && this._restNew) {
      this.restBatch.update(restList);
      if (this.contactRest) this.contactRest.update(this.actors, this.objects, T, null, rest);
      this._restNew = false;
      this.redrawStatic();
    }
    if (this.contact && this.contact.mesh.visible) this.contact.update(this.actors, this.objects, T, this.contactRest ? rest : null);
    const H = this.houRope;
    if (H) {
      const st = H.obj ? String(H.obj.state.at(T) || '') : '';
      // prefix match: "rolled …", "untied …", anything else → "tied"
      let key = H.keys.find((k) => st.startsWith(k));
      if (key === undefined) key = 'tied';
      const mesh = H.meshes[key] || null;
      if (mesh !== H.cur) {
        if (H.cur) H.cur.visible = false;
        if (mesh) mesh.visible = true;
        H.cur = mesh;
      }
    }
    this._updateStageStep();
    this._updateActorLabelTexts();
    this._poseDirty = false;
  }

  // The pieces at rest around T (player-batch.js's restSplit), drawn into the static cache: the split is made
  // again when T leaves the span it holds for (playing on past a piece's next change, a jump)
  _restAt(T) {
    if (!this.restBatch) return null;
    const R = this._rest;
    if (R && T >= R.t0 && T < R.t1) return R.set;
    // (a new split is a static redraw, even of the same set: a piece may have moved between the two)
    this._rest = restSplit(this.actors, this.objects, T, Math.max(4, 3 * (this.speed || 1)));
    this._restNew = true;
    return this._rest.set;
  }

  // Everyone acting at T: the people of every step under way (start ≤ T < end), not only of the step the
  // caption names — a step the caption has moved past (the 主人's bow while the attendant walks off, both from
  // one phrase) still has its people at work, and no label may cover them (issue 27).  A scan of the steps
  // (two thousand compares) only when T has moved.
  _initPose() {
    this._stageIdx = -1;
    this._stepIdx = -1;
    this._stepHint = 0;
    this._stageHint = 0;
  }

  // a jump to stage i (its start): the current stage, before the pose is worked out again
  _enterStage(i) { this._stageIdx = i; this._stageHint = i; }

  // public: the people and things placed for t now (before the frame would), for whoever reads where they are
  poseNow() { if (this._poseDirty) this._applyPose(); }

  // the people and things at rest worked out again in the next pose (a new pack, new colours)
  restAgain() { this._rest = null; }

  // t changed: the people and things placed again before the next frame is drawn
  invalidatePose() { this._poseDirty = true; this.requestRedraw(); }

  _updateActing(T) {
    if (T === this._actingT) return;
    this._actingT = T;
    const out = this._acting || (this._acting = new Set());
    out.clear();
    for (const s of this.steps) {
      if (s.start > T) break;                     // (the steps are in time order)
      if (s.end > T) for (const id of s.who || []) out.add(id);
    }
    if (this._focus) for (const id of this._focus) out.add(id);
  }

  _updateStageStep() {
    const T = this.t;
    const si = lastLE(this.stageStarts, T, this._stageHint);
    this._stageHint = Math.max(0, si);
    const stageIdx = Math.max(0, si);
    const pi = lastLE(this.stepStarts, T, this._stepHint);
    this._stepHint = Math.max(0, pi);
    if (pi !== this._stepIdx) {
      this._stepIdx = pi;
      const st = pi >= 0 ? this.steps[pi] : null;
      this._focus = st ? new Set(st.who || []) : null;
      this.signals.stepChanged.dispatch(st);
    }
    this._updateActing(T);
    if (stageIdx !== this._stageIdx) {
      const first = this._stageIdx < 0;
      this._stageIdx = stageIdx;
      if (!first && !this.free && this.autoView && !this._holder()) this._cameraForStage(false);
      this.signals.stageChanged.dispatch(this.stages[stageIdx]);
    }
  }
}
