// The rite without WebGL (issue 27).  Why a module of its own: a school browser with a blocklisted GPU (or
// hardware acceleration off) gets no WebGL context, and the page said only "Error creating WebGL context",
// with nothing to see.  This stands in for the Player (player.js) with the same interface the app uses —
// the pack's stages and steps, the moment, stage and step keys, play — and shows, in place of the canvas,
// the still the server's exporter renders of the current moment (`xsl_still`, scene/web/still.py: the same
// picture, labels and caption band as `python -m scene still`), asked again as the teacher steps (PageDown,
// →): the latest moment wins, one still at a time.  Above it, one message says what is wrong and what to
// try.  Extensions that need no 3D (the classroom keys, the lessons, the caption line) work as with the
// Player; the others are left out.
//
// With a server that has a remote view (issue 42: `frame`, the app's `xsl_frame`, scene/web/remote.py) the
// picture is not one still per step but frames the server renders one after the other while the rite plays:
// the next is asked as soon as one arrives (the latest moment wins), and a drag on the picture orbits the
// camera about its focal point, the wheel zooms — each frame then drawn from the teacher's camera.

export const NO_WEBGL_ADVICE = 'This browser gives the page no WebGL, so the 3D view cannot run. ' +
  'Try: turn on hardware acceleration (Chrome/Edge: Settings → System → "Use graphics acceleration"; ' +
  'Firefox: Settings → Performance), or open this address in another browser (Firefox, Chrome, Edge, ' +
  'Safari), or use the printed sheets (python -m scene sheets / book). Meanwhile the server draws the rite ' +
  'below as it plays (drag to turn the view, the wheel zooms): PageDown / PageUp, → / ← and Space work as usual.';

// the static site has no server to draw stills: the text, the stage list and the keys still work
export const NO_WEBGL_SITE = 'This browser gives the page no WebGL, so the 3D view cannot run. ' +
  'Try: turn on hardware acceleration (Chrome/Edge: Settings → System → "Use graphics acceleration"; ' +
  'Firefox: Settings → Performance), or open this address in another browser, or use the printed sheets. ' +
  'The stage list, the 經 with the phrase marked and the keys still work.';

// can this browser make a WebGL context at all?
export function webglAvailable() {
  try {
    const c = document.createElement('canvas');
    return !!(window.WebGLRenderingContext && (c.getContext('webgl2') || c.getContext('webgl')));
  } catch (e) { return false; }
}

function lastLE(arr, x) {
  let lo = 0, hi = arr.length - 1, k = -1;
  while (lo <= hi) { const m = (lo + hi) >> 1; if (arr[m] <= x) { k = m; lo = m + 1; } else hi = m - 1; }
  return k;
}

export class StillPlayer {
  // opts: {onState, onError, still(t, view, labels, roof) → Promise<url|{error}>,
  //        frame(t, view, camera, labels, roof) → Promise<{jpeg, camera, t, ms}|{error}> (the remote view)}
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.onState = opts.onState || null;
    this.extensions = [];
    this.pack = null; this.t = 0; this.playing = false; this.speed = 1; this.view = 'overview';
    this.labelsOn = true; this.roof = 'cutaway'; this.dimsOn = false; this.free = false;
    this.noWebGL = true;
    if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
    const box = document.createElement('div');
    box.className = 'xsl-nogl';
    Object.assign(box.style, { position: 'absolute', inset: '0', background: '#2b2622', display: 'flex',
      alignItems: 'center', justifyContent: 'center', overflow: 'hidden' });
    this.img = document.createElement('img');
    this.img.className = 'xsl-nogl-still';
    this.img.alt = 'the still of this moment, drawn by the server';
    Object.assign(this.img.style, { maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', display: 'none' });
    this.note = document.createElement('div');
    this.note.className = 'xsl-nogl-message';
    this.note.setAttribute('role', 'alert');
    this.note.textContent = opts.advice || NO_WEBGL_ADVICE;
    Object.assign(this.note.style, { position: 'absolute', top: '56px', left: '50%', transform: 'translateX(-50%)',
      width: 'min(90%, 56em)', background: '#fff3e0', color: '#5d1f10', border: '1px solid #b8321e',
      borderRadius: '6px', padding: '8px 12px', font: '15px/1.45 sans-serif', zIndex: 30 });
    // read once, it can go (the view's tools under it stay usable)
    const x = document.createElement('button');
    x.type = 'button'; x.textContent = '×'; x.title = 'close this message'; x.setAttribute('aria-label', 'close this message');
    Object.assign(x.style, { float: 'right', marginLeft: '8px', border: 'none', background: 'none', fontSize: '18px',
      cursor: 'pointer', color: '#5d1f10' });
    x.addEventListener('click', () => { this.note.style.display = 'none'; });
    this.note.prepend(x);
    this.status = document.createElement('div');
    this.status.className = 'xsl-nogl-status';
    this.status.setAttribute('aria-live', 'polite');
    Object.assign(this.status.style, { position: 'absolute', right: '8px', top: '8px', color: '#fff',
      font: '13px sans-serif', background: 'rgba(0,0,0,.6)', padding: '2px 8px', borderRadius: '4px', zIndex: 29 });
    box.append(this.img);
    container.append(box, this.note, this.status);
    this._want = null; this._busy = false; this._shown = null; this.stills = 0;
    this._timer = setInterval(() => this._tick(), opts.frame ? 40 : 250);
    this._last = performance.now();
    this._cam = null;             // the camera of the last frame (the teacher's own once free)
    this._frameTimes = [];
    if (opts.frame) this._orbitControls(box);
    window.__xslPlayer = this;
  }

  // ------------------------------------------------------------ the remote view's camera: orbit and zoom
  _orbitControls(box) {
    box.style.cursor = 'grab';
    box.style.touchAction = 'none';
    let drag = null;
    box.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !this._cam) return;
      drag = { x: e.clientX, y: e.clientY };
      box.setPointerCapture(e.pointerId);
    });
    box.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag = { x: e.clientX, y: e.clientY };
      this.orbit(-dx * 0.006, dy * 0.006);
    });
    const up = () => { drag = null; };
    box.addEventListener('pointerup', up);
    box.addEventListener('pointercancel', up);
    box.addEventListener('wheel', (e) => { e.preventDefault(); this.zoom(Math.exp(e.deltaY * 0.001)); }, { passive: false });
  }

  // turn the camera about its focal point (radians: about the vertical, and up/down), z up
  orbit(dAz, dEl) {
    const c = this._cam;
    if (!c) return;
    const f = c.focal_point, p = c.position;
    const o = [p[0] - f[0], p[1] - f[1], p[2] - f[2]];
    const r = Math.hypot(o[0], o[1], o[2]);
    const az = Math.atan2(o[1], o[0]) + dAz;
    const el = Math.min(1.5, Math.max(0.02, Math.asin(Math.max(-1, Math.min(1, o[2] / r))) + dEl));
    this._setCam(Object.assign({}, c, { parallel: false, view_up: [0, 0, 1],
      position: [f[0] + r * Math.cos(el) * Math.cos(az), f[1] + r * Math.cos(el) * Math.sin(az), f[2] + r * Math.sin(el)] }));
  }

  // nearer (k < 1) or farther (k > 1)
  zoom(k) {
    const c = this._cam;
    if (!c) return;
    const f = c.focal_point, p = c.position;
    const kk = Math.min(4, Math.max(0.25, k));
    const r = Math.hypot(p[0] - f[0], p[1] - f[1], p[2] - f[2]);
    const s = Math.min(600, Math.max(2, r * kk)) / r;
    this._setCam(Object.assign({}, c, { parallel_scale: (c.parallel_scale || 1) * kk,
      position: [f[0] + (p[0] - f[0]) * s, f[1] + (p[1] - f[1]) * s, f[2] + (p[2] - f[2]) * s] }));
  }

  _setCam(c) { this._cam = c; this.free = true; this._changed(); }
  camera() { return this.opts.frame && this._cam ? JSON.parse(JSON.stringify(this._cam)) : null; }
  applyCamera(c) { if (this.opts.frame && c && c.position && c.focal_point) this._setCam(JSON.parse(JSON.stringify(c))); }

  // the remote view's loop: the next frame as soon as one has come, while anything changed or the rite plays
  async _pump() {
    if (this._pumping) return;
    this._pumping = true;
    try {
      for (;;) {
        const key = JSON.stringify([this.t.toFixed(3), this.view, this.labelsOn, this.roof, this.free ? this._cam : null]);
        if (key === this._drawnKey) { await new Promise((r) => setTimeout(r, 40)); continue; }
        const camera = this.free ? this._cam : null;
        let res = null;
        try {
          res = await this.opts.frame(this.t, this.view, camera, this.labelsOn, this.roof);
        } catch (e) { res = { error: e.message || String(e) }; }
        if (!res || res.error) {
          this.status.textContent = `no frame: ${(res && res.error) || 'the server did not answer'}`;
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        this.img.src = `data:image/jpeg;base64,${res.jpeg}`;
        try { await this.img.decode(); } catch (e) { /* drawn when it can be */ }
        this.img.style.display = '';
        this.img.dataset.t = String(res.t);
        this._drawnKey = key;
        if (!this.free) this._cam = res.camera;
        this.stills += 1;
        this._frameTimes.push(performance.now());
        if (this._frameTimes.length > 120) this._frameTimes.shift();
        this.status.textContent = '';
      }
    } finally { this._pumping = false; }
  }

  async load(base) {
    const url = new URL('scene.json', new URL(base.endsWith('/') ? base : base + '/', location.href)).href;
    const r = await fetch(url);
    if (!r.ok) throw new Error(`pack: ${url}: HTTP ${r.status}`);
    this.setManifest(await r.json());
  }

  // a new pack (a new reading) keeps the stage and the seconds into it, as the Player does
  async setPack(base) {
    const st = this.stages ? this.stages[this._stageIndex()] : null, into = st ? this.t - st.start : 0;
    await this.load(base);
    const again = st ? this.stages.find((x) => x.n === st.n) : null;
    if (again) this.setTime(Math.min(again.end, again.start + into));
  }

  setManifest(m) {
    this.pack = m;
    this.stages = m.stages;
    this.steps = m.steps || [];
    this.stepStarts = this.steps.map((s) => s.start);
    this.stageStarts = this.stages.map((s) => s.start);
    this.duration = m.duration_s;
    this.viewOrder = (m.views && m.views.order) || ['overview'];
    this.views = m.views || {};
    this.actors = []; this.places = m.places || []; this.actorById = new Map();
    if (m.director && this.view === 'overview') this.view = 'auto';     // the director's camera, as the Player
    for (const x of this.extensions) if (x.onPack) { try { x.onPack(m); } catch (e) { /* needs 3D */ } }
    this._changed();
  }

  use(ext) {
    this.extensions.push(ext);
    if (ext.attach) ext.attach(this);
    if (this.pack && ext.onPack) ext.onPack(this.pack);
    return ext;
  }

  _stageIndex() { return Math.max(0, lastLE(this.stageStarts || [], this.t + 1e-9)); }
  _stepIndex() {
    const i = lastLE(this.stepStarts || [], this.t + 1e-9);
    return i >= 0 && this.t < this.steps[i].end ? i : -1;
  }

  state() {
    const st = this.stages ? this.stages[this._stageIndex()] : null, i = this._stepIndex();
    const step = i >= 0 ? this.steps[i] : null;
    return { t: this.t, stage: st ? st.n : null, stepIndex: i, phrase: step ? step.phrase : '',
      section: step ? step.section : (st ? st.n : null), playing: this.playing, speed: this.speed, view: this.view,
      labels: this.labelsOn, roof: this.roof, dims: this.dimsOn };
  }

  _changed() {
    const key = JSON.stringify([this.t.toFixed(2), this.view, this.labelsOn, this.roof]);
    if (this.onState) { try { this.onState(this.state()); } catch (e) { console.error(e); } }
    for (const x of this.extensions) if (x.onFrame) { try { x.onFrame(this.t, performance.now(), 0); } catch (e) { /* 3D */ } }
    if (key !== this._wantKey) { this._wantKey = key; this._want = { t: this.t, view: this.view, labels: this.labelsOn, roof: this.roof }; }
    if (this.opts.frame) { if (this.pack) this._pump(); } else this._fetch();
  }

  // one still at a time; the moment asked for last is the one drawn next
  async _fetch() {
    if (this._busy || !this._want || !this.opts.still || this.playing) return;
    const want = this._want;
    this._want = null;
    this._busy = true;
    this.status.textContent = 'drawing this moment on the server …';
    try {
      const res = await this.opts.still(want.t, want.view, want.labels, want.roof);
      if (res && res.url) {
        await new Promise((ok) => { this.img.onload = ok; this.img.onerror = ok; this.img.src = res.url; });
        this.img.style.display = '';
        this._shown = want;
        this.img.dataset.t = String(want.t);
        this.stills += 1;
        this.status.textContent = '';
      } else this.status.textContent = (res && res.error) || 'the server drew no still';
    } catch (e) {
      this.status.textContent = `no still: ${e.message || e}`;
    } finally {
      this._busy = false;
      if (this._want) this._fetch();
    }
  }

  // playing without WebGL: the moment runs on, and a still is asked for each time playback stops
  _tick() {
    const now = performance.now(), dt = (now - this._last) / 1000;
    this._last = now;
    if (!this.playing || !this.pack) return;
    this.t = Math.min(this.duration, this.t + dt * this.speed);
    if (this.t >= this.duration) this.playing = false;
    this._changed();
  }

  setTime(t) { const x = Number(t); if (!this.pack || !Number.isFinite(x)) return; this.t = Math.min(Math.max(0, x), this.duration); this._changed(); }
  play() { if (!this.pack) return; if (this.t >= this.duration) this.t = 0; this.playing = true; this._last = performance.now(); this._changed(); }
  pause() { this.playing = false; this._changed(); }
  togglePlay() { if (this.playing) this.pause(); else this.play(); }
  setSpeed(x) { const s = Number(x); if (Number.isFinite(s)) this.speed = Math.min(8, Math.max(0.5, s)); }
  gotoStage(n) {
    const st = this.stages && this.stages.find((s) => String(s.n) === String(n) || s.id === n);
    if (!st) return false;
    this.setTime(st.start);
    return true;
  }
  nextStage() { const i = this._stageIndex(); if (i + 1 < this.stages.length) this.setTime(this.stages[i + 1].start); }
  prevStage() {
    const i = this._stageIndex(), st = this.stages[i];
    this.setTime(this.t - st.start > 1.0 || i === 0 ? st.start : this.stages[i - 1].start);
  }
  nextStep() { const i = lastLE(this.stepStarts, this.t + 1e-3) + 1; if (i < this.steps.length) this.setTime(this.steps[i].start); }
  prevStep() { const i = lastLE(this.stepStarts, this.t - 0.3); this.setTime(i >= 0 ? this.steps[i].start : 0); }
  setView(v) {
    if (v !== 'auto' && !this.viewOrder.includes(v)) return false;
    this.view = v; this.free = false; this._changed();
    return true;
  }
  setLabels(on) { this.labelsOn = !!on; this._changed(); }
  setRoof(m) { this.roof = m; this._changed(); return true; }
  setDims(on) { this.dimsOn = !!on; }
  setLabelText() {}
  clearGhost() {}
  // frames drawn in the last second (the remote view; a still per step: 0)
  stats() {
    const now = performance.now();
    return { fps: this._frameTimes.filter((x) => now - x <= 1000).length, frames: this.stills,
      lastFrameAt: this._frameTimes.length ? this._frameTimes[this._frameTimes.length - 1] : 0 };
  }
  quality() { return { tier: 'none', requested: 'none', why: 'no WebGL', renderer: '' }; }
  _nextFrame() { return Promise.resolve(); }
  _updateStageStep() {}
  _cameraForStage() {}

  handleKey(ev) {
    if (!this.pack || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    for (const x of this.extensions) if (x.onKey && x.onKey(ev)) { this._changed(); return true; }
    const k = ev.key;
    if (k === 'ArrowRight') this.nextStep();
    else if (k === 'ArrowLeft') this.prevStep();
    else if (k === 'PageDown') this.nextStage();
    else if (k === 'PageUp') this.prevStage();
    else if (k === ' ' || ev.code === 'Space') this.togglePlay();
    else if (/^[1-6]$/.test(k) && this.viewOrder[Number(k) - 1]) this.setView(this.viewOrder[Number(k) - 1]);
    else if (k === 'l' || k === 'L') this.setLabels(!this.labelsOn);
    else return false;
    return true;
  }
}
