// The cameras (player.js): the pack's preset per view and stage on a perspective or parallel camera,
// fitted to the picture's aspect, the orbit controls, near/far and the roof cut-away for the camera.
// Methods of the Player (player.js), not a class of their own: player.js copies them onto
// Player.prototype, so `this` is the player in every one of them (as when they were one 1 670-line class).
import * as THREE from './vendor/three.module.js';
import { OrbitControls } from './vendor/OrbitControls.js';
import { fitPlan } from './plan-fit.js';
import { fmt } from './player-tracks.js';

export class Camera {
  _initCamera() {
    this.cam = this.persp;
    this.controlsP = this._makeControls(this.persp, true);
    this.controlsO = this._makeControls(this.ortho, false);
    this.controls = this.controlsP;
    this.controlsO.enabled = false;
    this.free = false;         // the user moved the camera (presets no longer follow stages)
    this._placements = 0;      // applyCamera calls (stats().cameraPlacements)
  }

  _makeControls(cam, rotate) {
    const c = new OrbitControls(cam, this.renderer.domElement);
    c.enableDamping = false;
    c.enableRotate = rotate;
    c.screenSpacePanning = true;
    c.zoomToCursor = true;
    if (!rotate) c.mouseButtons = { LEFT: THREE.MOUSE.PAN, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN };
    c.addEventListener('change', () => {
      this.requestRedraw();
      this._cameraMoved = true;
      if (this._interacting) { this.free = true; this._camKey = null; }   // the user moved it
    });
    c.addEventListener('start', () => { this._interacting = true; });
    c.addEventListener('end', () => { this._interacting = false; });
    return c;
  }

  _resize() {
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    if (w === this._w && h === this._h) return;
    this._w = w; this._h = h;
    // the names scale with the view's height (issue 42: 13 px on a 1080-line projector could not be read past
    // the front rows): 1.8 % of it (at least 13 px) at a desk, 3.3 % in classroom mode — a character then
    // subtends 16′ at 8 m from a 2 m-wide picture (1.125 m high: 3.3 % is 37 mm)
    this.container.style.setProperty('--xsl-label-px', `${Math.max(13, Math.round(0.018 * h))}px`);
    this.container.style.setProperty('--xsl-label-class-px', `${Math.max(16, Math.round(0.033 * h))}px`);
    this.renderer.setSize(w, h, false);
    this._aspect = w / h;
    this.persp.aspect = this._aspect;
    if (this._baseFov) this.persp.fov = this._fitFov(this._baseFov);
    this.persp.updateProjectionMatrix();
    this._updateOrthoFrustum();
    this.redrawStatic();
    this._camKey = null;
    this.requestRedraw();
    // every label moves with a new size (classroom mode's band, F5): placed in the next frame even on a
    // machine that places them every 3rd frame — left a frame or two, a name lay over the man it names
    this._labelsAtOnce();
    if (this.pack && this.view === 'plan' && !this.free) this._cameraForStage(true);     // fitted again
  }

  // The pack's cameras frame a 16:9 picture (the stills'). A narrower view (a panel beside it, a 4:3
  // projector) widens the angle so the same width of the scene stays in the picture.
  _widen() { return Math.max(1, (16 / 9) / (this._aspect || 16 / 9)); }

  _fitFov(fov) {
    return 2 * Math.atan(Math.tan(fov * Math.PI / 360) * this._widen()) * 180 / Math.PI;
  }

  _updateOrthoFrustum() {
    const s = (this._orthoScale || 50) * this._widen();
    const a = this._aspect || 16 / 9;
    const o = this.ortho;
    o.top = s; o.bottom = -s; o.left = -s * a; o.right = s * a;
    o.updateProjectionMatrix();
  }

  _stageN() {
    const st = this.stages[this._stageIdx >= 0 ? this._stageIdx : 0];
    return st ? st.n : null;
  }

  _preset(view, n) {
    const by = this.views.by_stage || {};
    let cams = by[String(n)];
    if (!cams) {
      const keys = Object.keys(by);
      if (!keys.length) return null;
      cams = by[keys[0]];
    }
    return cams[view] || cams.overview || Object.values(cams)[0] || null;
  }

  // put the preset of the current view for the current stage on the camera
  _cameraForStage(force) {
    if (!this.pack) return;
    if (this._stageIdx < 0) this._updateStageStep();
    // an extension that holds the camera (the director) places its own camera at t, in its own view
    const h = this._holder();
    const held = h && h.cameraAt(this.t);
    if (held) {
      this._setView(h.viewName || 'auto');
      this.applyCamera(held, force);
      return;
    }
    let c = this._preset(this.view, this._stageN());
    // the plan fitted to this frame, clear of the caption band (plan-fit.js)
    if (c && c.parallel && this.view === 'plan') c = fitPlan(c, this.pack.bounds_m, this._w, this._h, this.planReserve, this._widen());
    if (c) this.applyCamera(c, force);
  }

  // the extension holding the camera (holdsCamera(): the director while it is on), or null
  _holder() {
    for (const x of this.extensions) if (x.holdsCamera && x.holdsCamera()) return x;
    return null;
  }

  // public (the extensions' way): the camera of the view at t placed again — the holder's, given back the
  // camera after the user orbited (takeCamera), or the same holder's at a new moment (placeCamera)
  takeCamera() {
    this.free = false;
    this._camKey = null;
    this._cameraForStage(true);
  }

  placeCamera() { this._cameraForStage(false); }

  // the camera placed is still the one on (a resize or takeCamera() asks for a new placement)
  cameraPlaced() { return this._camKey !== null && this._camKey !== undefined; }

  applyCamera(c) {
    this._placements = (this._placements || 0) + 1;       // stats().cameraPlacements (issue 42: one per key)
    this._placeLabelsForView();
    // the same preset again (most stages share the overview): nothing to move or redraw
    const key = JSON.stringify([c.position, c.focal_point, c.view_up, c.view_angle, c.parallel, c.parallel_scale, this._aspect]);
    if (key === this._camKey && !this.free) { this.requestRedraw(); return; }
    this._camKey = key;
    const up = c.view_up || [0, 0, 1];
    if (c.parallel) {
      const o = this.ortho;
      o.up.fromArray(up);
      o.position.fromArray(c.position);
      o.zoom = 1;
      this._orthoScale = c.parallel_scale || 50;
      this._updateOrthoFrustum();
      const d = Math.hypot(c.position[0] - c.focal_point[0], c.position[1] - c.focal_point[1], c.position[2] - c.focal_point[2]);
      o.near = 0.5; o.far = d + 1000;
      o.updateProjectionMatrix();
      if (!this._upEq(this._orthoUp, up)) {         // OrbitControls keeps the up it was made with
        this.controlsO.dispose();
        this.controlsO = this._makeControls(o, false);
        this._orthoUp = up.slice();
      }
      this.controlsO.target.fromArray(c.focal_point);
      this.cam = o;
      this.controlsP.enabled = false;
      this.controlsO.enabled = true;
      this.controls = this.controlsO;
      this.controlsO.update();
    } else {
      const p = this.persp;
      p.position.fromArray(c.position);
      this._baseFov = c.view_angle || 30;
      p.fov = this._fitFov(this._baseFov);
      p.zoom = 1;
      p.updateProjectionMatrix();
      this.controlsP.target.fromArray(c.focal_point);
      this.cam = p;
      this.controlsO.enabled = false;
      this.controlsP.enabled = true;
      this.controls = this.controlsP;
      this.controlsP.update();
    }
    this.free = false;
    this._cameraMoved = true;
    this.requestRedraw();
    this.signals.cameraPlaced.dispatch(c);
  }

  // the camera moved (near/far and the roof cut follow, the static layers are drawn again, next frame)
  _markCameraMoved() { this._cameraMoved = true; this.requestRedraw(); }

  _upEq(a, b) { return !!a && a[0] === b[0] && a[1] === b[1] && a[2] === b[2]; }

  _cameraChanged() {
    // near/far that suit the distance; the roof cut for this camera
    const cam = this.cam;
    if (cam.isPerspectiveCamera) {
      const d = cam.position.distanceTo(this.controls.target);
      const near = Math.min(1.0, Math.max(0.1, d * 0.01));
      const far = d + 600;
      if (Math.abs(near - cam.near) > 1e-3 || Math.abs(far - cam.far) > 1) {
        cam.near = near; cam.far = far; cam.updateProjectionMatrix();
      }
    }
    this._applyRoof();
    this.redrawStatic();
    this._cameraMoved = false;
  }

  _applyRoof() {
    const s = this.layers && this.layers.roof_south, n = this.layers && this.layers.roof_north;
    if (!s && !n) return;
    const mode = this.roof;
    let showS = true, showN = true;
    if (mode === 'none') { showS = showN = false; }
    else if (mode === 'cutaway') {
      // like the stills: cut away the slope between the camera and the 堂; both from overhead
      const cam = this.cam;
      const tg = this.controls.target;
      const d = cam.position.distanceTo(tg);
      const overhead = cam.isOrthographicCamera || (cam.position.z - tg.z) > 0.9 * d;
      showN = !overhead && cam.position.y < this._ridgeY;
      showS = !overhead && cam.position.y >= this._ridgeY;
    }
    const mat = mode === 'ghost' ? this.matRoofGhost : this.matBasic;
    for (const [m, v] of [[s, showS], [n, showN]]) {
      if (!m) continue;
      m.visible = v;
      m.material = mat;
      m.renderOrder = mode === 'ghost' ? 15 : 3;
      // a see-through roof is drawn after the people, in the per-frame pass
      if (this.staticCache) m.layers.set(mode === 'ghost' ? 0 : 1);
    }
    this.redrawStatic();
  }

  // the current camera as a PACK.md Camera dict
  // the camera as the pack and the still exporter have it: framed for 16:9, keeping the width of
  // the scene this view shows
  camera() {
    const c = this.cam;
    const tg = this.controls.target;
    const r = (a) => a.map((x) => fmt(x, 4));
    const k = (this._aspect || 16 / 9) / (16 / 9);
    if (c.isOrthographicCamera) {
      return { position: r(c.position.toArray()), focal_point: r(tg.toArray()), view_up: r(c.up.toArray()),
        view_angle: 30.0, parallel: true, parallel_scale: fmt(c.top / c.zoom * k, 4) };
    }
    const fov = 2 * Math.atan(Math.tan(c.fov / c.zoom * Math.PI / 360) * k) * 180 / Math.PI;
    return { position: r(c.position.toArray()), focal_point: r(tg.toArray()), view_up: r(c.up.toArray()),
      view_angle: fmt(fov, 4), parallel: false, parallel_scale: 1.0 };
  }
}
