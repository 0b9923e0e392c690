// The browser player of a scene pack (assets/web/PACK.md): draws and plays the 鄉射禮.
//
// No build step, no framework: an ES module that imports three.js as 'three' (the page
// supplies the import map, e.g. {"imports": {"three": "./vendor/three.module.js"}}) and
// OrbitControls from ./vendor/ beside this file.  The page and the trame app both use it:
//
//   const p = new Player(div, {fontUrl, onState, onPick, onError, renderScale});
//   await p.load('pack/');        // resolves after the first frame is drawn
//
// Options
//   fontUrl      a CJK font for the labels (family 'XSLCJK'); without it the labels use the
//                fallback list (and show tofu on machines without CJK fonts).  The characters
//                that font lacks come from 'XSLCJK Fallback': fallbackFontUrl, by default the
//                same name with '-fallback' before the extension (as scene.webpack.write_font
//                writes them; a missing one is ignored)
//   onState(s)   called when stage/step/playing/view/toggles change, and at most 4×/s for t
//   onPick(info) called with the inspector's info after a click on the picture or a label
//   onError(e)   called with load errors (load() also rejects)
//   renderScale  draw the picture at this fraction of the CSS size (default 1 = full
//                resolution; e.g. 0.75 on a slow machine, the canvas is scaled up by CSS)
//   autoView     (default true) follow the stage's camera preset when playback enters a new
//                stage, until the user orbits
//   batchDynamic (default true) draw all figures and objects as one buffer rewritten each frame
//                (one draw call) rather than one mesh each
//   staticCache  (default true) draw the static layers (ground, hall, shadows, roofs) once per
//                camera into a colour + depth target; each frame copies it back (one full-screen
//                pass) and draws only the people and things.  The picture is the same; playback
//                with a still camera costs a fraction of a full redraw on a software GL.
//
// The browser never builds geometry: every triangle comes from the pack.
import * as THREE from './vendor/three.module.js';
import { OrbitControls } from './vendor/OrbitControls.js';
import { PathsOverlay } from './paths.js';
import { ContactShadows } from './contact.js';
import { Adaptive, adaptiveOptions } from './adaptive.js';
import { chooseTier, HighTier } from './quality.js';
import { fitPlan } from './plan-fit.js';

const DEG = Math.PI / 180;
const ROOF_MODES = ['cutaway', 'solid', 'ghost', 'none'];
const FONT_FAMILY = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', 'Noto Serif CJK TC', 'Source Han Sans TC', " +
  "'PingFang TC', 'Microsoft JhengHei', 'Hiragino Sans', sans-serif";

// colours are display values already (lit in the pack): no colour management anywhere
function rawColour(hex) {
  const n = parseInt(hex.replace('#', ''), 16);
  return new THREE.Color().setRGB(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255,
    THREE.LinearSRGBColorSpace);
}
const SKY = '#ebe7dc';

// ---------------------------------------------------------------- time look-ups
// Last index i with ts[i] <= T (-1 before the first), trying the cached hint and its
// successor first: playback is monotonic, so this is O(1) per frame almost always.
function lastLE(ts, T, hint) {
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
class StepsTrack {
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
class KeyTrack {
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
function accessor(buf, a) {
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

function makeGeometry(buf, geo) {
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

function joinUrl(base, rel) {
  return new URL(rel, new URL(base, document.baseURI)).href;
}

function fmt(x, d = 2) { return Math.round(x * 10 ** d) / 10 ** d; }

// ---------------------------------------------------------------- people and things in one draw
// The figures and objects shown at T, gathered into one buffer: their vertices transformed on the
// CPU (a few ten thousand: well under a millisecond), colours and indices rewritten only when the
// set of shown pieces changes (a posture, a variant, someone appearing).  One draw call instead of
// 130: on a software GL each call costs tens of microseconds in ANGLE and llvmpipe.
class DynamicBatch {
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

// ---------------------------------------------------------------- the player
export class Player {
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.onState = opts.onState || null;
    this.onPick = opts.onPick || null;
    this.onError = opts.onError || null;
    this.renderScale = Math.min(1, Math.max(0.25, opts.renderScale || 1));
    this.autoView = opts.autoView !== false;
    this.staticCache = opts.staticCache !== false;    // (off in the high tier: see below)
    this.batchDynamic = opts.batchDynamic !== false;

    this.pack = null;          // the manifest
    this.t = 0;
    this.playing = false;
    this.speed = 1;
    this.view = 'overview';
    this.userView = false;     // the user chose a view (gotoStage keeps it)
    this.free = false;         // the user moved the camera (presets no longer follow stages)
    this.labelsOn = true;
    this.roof = 'cutaway';
    this.dimsOn = false;
    this.lastPick = null;

    this._dirty = true;        // something to draw
    this._poseDirty = true;    // t changed: re-place actors and objects
    this._labelTextDirty = true;
    this._afterRender = [];    // resolvers waiting for the next drawn frame
    this._frameTimes = new Float64Array(240);
    this._frameCount = 0;
    this._lastNow = 0;
    this._lastEmit = 0;
    this._emitTimer = 0;
    this._lastState = {};
    this._stageIdx = -1;
    this._stepIdx = -1;
    this._stepHint = 0;
    this._stageHint = 0;
    this._ghost = null;
    this._tmp = new Float32Array(4);
    this._tmp2 = new Float32Array(4);
    this._v = new THREE.Vector3();
    this._v2 = new THREE.Vector3();
    this._q = new THREE.Quaternion();
    this._yAxis = new THREE.Vector3(0, 1, 0);
    this._fontReady = Promise.resolve(false);
    this.extensions = [];      // see use()

    // DOM: a positioned box holding the canvas and the label overlay
    const cs = getComputedStyle(container);
    if (cs.position === 'static') container.style.position = 'relative';
    container.style.overflow = 'hidden';
    container.classList.add('xsl-player');
    this._injectStyle();
    if (opts.fontUrl) {
      this._fontReady = this._loadFont(opts.fontUrl);
      const fb = opts.fallbackFontUrl || String(opts.fontUrl).replace(/(\.[a-z0-9]+)$/i, '-fallback$1');
      if (fb !== opts.fontUrl) this._loadFont(fb, 'XSLCJK Fallback', true);
    }

    // the quality tier (quality.js): fixed before the context exists (antialiasing is a context attribute)
    this.qualityInfo = chooseTier(opts.quality);
    const high = this.qualityInfo.tier === 'high';
    // a multisampled canvas cannot receive the static cache's blit, and a GPU does not need the cache
    if (high) this.staticCache = false;
    const renderer = new THREE.WebGLRenderer({
      antialias: high, alpha: false, stencil: true, depth: true,
      powerPreference: 'high-performance', preserveDrawingBuffer: !!opts.preserveDrawingBuffer,
    });
    renderer.outputColorSpace = THREE.LinearSRGBColorSpace;   // colours are display values
    renderer.setPixelRatio(high ? this.renderScale * Math.min(2, window.devicePixelRatio || 1) : this.renderScale);
    renderer.setClearColor(rawColour(SKY), 1);
    renderer.shadowMap.enabled = false;
    renderer.info.autoReset = false;
    renderer.domElement.className = 'xsl-canvas';
    renderer.domElement.tabIndex = 0;
    container.appendChild(renderer.domElement);
    this.renderer = renderer;
    // adaptive playback (adaptive.js): fewer pixels when frames come too slowly for 30 fps
    this.onQuality = null;
    this.adaptive = new Adaptive(this, adaptiveOptions(opts));

    this.overlay = document.createElement('div');
    this.overlay.className = 'xsl-labels';
    container.appendChild(this.overlay);

    this.scene = new THREE.Scene();
    this.scene.matrixWorldAutoUpdate = true;
    this.persp = new THREE.PerspectiveCamera(30, 16 / 9, 0.3, 2000);
    this.persp.up.set(0, 0, 1);
    this.ortho = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.5, 2000);
    this.ortho.up.set(0, 1, 0);
    this.cam = this.persp;
    this.controlsP = this._makeControls(this.persp, true);
    this.controlsO = this._makeControls(this.ortho, false);
    this.controls = this.controlsP;
    this.controlsO.enabled = false;

    // materials (shared)
    this.matBasic = new THREE.MeshBasicMaterial({ vertexColors: true });
    this.matShadow = new THREE.MeshBasicMaterial({
      vertexColors: true, depthWrite: false, polygonOffset: true, polygonOffsetFactor: -1, polygonOffsetUnits: -4,
    });
    this.matRoofGhost = new THREE.MeshBasicMaterial({
      vertexColors: true, transparent: true, opacity: 0.28, depthWrite: false,
    });
    this.matGhost = new THREE.MeshBasicMaterial({
      color: rawColour('#5a5a5a'), transparent: true, opacity: 0.25, depthWrite: false,
    });
    this.matDims = new THREE.LineBasicMaterial({ color: rawColour('#1e1b18'), depthTest: false, transparent: true });

    this.root = null;          // the pack's THREE.Group
    this._staticDirty = true;
    this._rt = null;
    this._size2 = new THREE.Vector2();
    this._resize();
    this._ro = new ResizeObserver(() => { this._resize(); });
    this._ro.observe(container);

    // picking: a click (not a drag) on the canvas
    const el = renderer.domElement;
    let down = null;
    el.addEventListener('pointerdown', (e) => { down = { x: e.clientX, y: e.clientY, b: e.button }; });
    el.addEventListener('pointerup', (e) => {
      if (down && down.b === 0 && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 5) {
        const r = el.getBoundingClientRect();
        this.pickAt(e.clientX - r.left, e.clientY - r.top);
      }
      down = null;
    });
    this.overlay.addEventListener('click', (e) => {
      const lab = e.target.closest && e.target.closest('.xsl-label');
      if (lab && lab._xsl) this._pickLabel(lab._xsl);
    });

    if (opts.paths !== false) this.use(new PathsOverlay());     // key T: paths and ghosts (paths.js)
    this._frame = this._frame.bind(this);
    this._raf = requestAnimationFrame(this._frame);
    window.__xslPlayer = this;
  }

  // ------------------------------------------------------------ setup helpers
  _injectStyle() {
    if (document.getElementById('xsl-player-style')) return;
    const st = document.createElement('style');
    st.id = 'xsl-player-style';
    st.textContent = `
.xsl-player { background: ${SKY}; }
.xsl-player .xsl-canvas { display: block; width: 100%; height: 100%; outline: none; touch-action: none; }
.xsl-player .xsl-labels { position: absolute; left: 0; top: 0; right: 0; bottom: 0; pointer-events: none;
  overflow: hidden; font-family: ${FONT_FAMILY}; }
.xsl-player .xsl-labels.off { display: none; }
.xsl-label { position: absolute; left: 0; top: 0; white-space: nowrap; pointer-events: auto; cursor: pointer;
  font-size: 13px; line-height: 16px; padding: 1px 4px; border-radius: 3px; color: #1e1b18;
  background: rgba(250, 247, 238, 0.86); border: 1px solid rgba(30, 27, 24, 0.25); visibility: hidden;
  user-select: none; }
.xsl-label.actor { border-left-width: 4px; }
.xsl-label.actor.focus { font-weight: 600; background: rgba(255, 252, 240, 0.95); }
.xsl-label.place { background: rgba(243, 238, 225, 0.7); color: #5b5147; font-size: 12px; border-style: dashed; }
.xsl-label.dim { background: rgba(255, 255, 255, 0.9); font-size: 12px; color: #1e1b18; }
.xsl-label.dim.off { display: none; }
`;
    document.head.appendChild(st);
  }

  _loadFont(url, family = 'XSLCJK', quiet = false) {
    try {
      for (const f of document.fonts) if (f.family.replace(/["']/g, '') === family) return f.loaded.then(() => true, () => false);
      const ff = new FontFace(family, `url("${url}")`, { display: 'swap' });
      document.fonts.add(ff);
      return ff.load().then(() => { this._remeasure = true; this._dirty = true; return true; },
        (e) => {
          if (!quiet) this._error(new Error(`label font ${url}: ${e && e.message || e}`));
          return false;
        });
    } catch (e) {
      this._error(e);
      return Promise.resolve(false);
    }
  }

  _makeControls(cam, rotate) {
    const c = new OrbitControls(cam, this.renderer.domElement);
    c.enableDamping = false;
    c.enableRotate = rotate;
    c.screenSpacePanning = true;
    c.zoomToCursor = true;
    if (!rotate) c.mouseButtons = { LEFT: THREE.MOUSE.PAN, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN };
    c.addEventListener('change', () => {
      this._dirty = true;
      this._cameraMoved = true;
      if (this._interacting) { this.free = true; this._camKey = null; }   // the user moved it
    });
    c.addEventListener('start', () => { this._interacting = true; });
    c.addEventListener('end', () => { this._interacting = false; });
    return c;
  }

  _error(e) {
    if (this.onError) { try { this.onError(e); } catch (_) { /* ignore */ } }
    else console.error(e);
  }

  _resize() {
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    if (w === this._w && h === this._h) return;
    this._w = w; this._h = h;
    this.renderer.setSize(w, h, false);
    this._aspect = w / h;
    this.persp.aspect = this._aspect;
    if (this._baseFov) this.persp.fov = this._fitFov(this._baseFov);
    this.persp.updateProjectionMatrix();
    this._updateOrthoFrustum();
    this._staticDirty = true;
    this._camKey = null;
    this._dirty = true;
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

  // ------------------------------------------------------------ loading
  async load(packBaseUrl) {
    try {
      await this._loadPack(packBaseUrl, false);
    } catch (e) {
      this._error(e);
      throw e;
    }
    await this._fontReadyOrTimeout();
    return this._nextFrame();
  }

  async setPack(packBaseUrl, opts = {}) {
    const wasPlaying = this.playing;
    this.playing = false;
    try {
      await this._loadPack(packBaseUrl, !!opts.ghost);
    } catch (e) {
      this._error(e);
      throw e;
    }
    if (wasPlaying) this.play();
    return this._nextFrame();
  }

  async _fontReadyOrTimeout() {
    await Promise.race([this._fontReady, new Promise((r) => setTimeout(r, 8000))]);
  }

  _nextFrame() {
    this._dirty = true;
    return new Promise((resolve) => this._afterRender.push(resolve));
  }

  async _loadPack(url, ghost) {
    let base = url || './';
    if (!base.endsWith('/')) base += '/';
    const [mr, br] = await Promise.all([fetch(joinUrl(base, 'scene.json')), fetch(joinUrl(base, 'scene.bin'))]);
    if (!mr.ok) throw new Error(`pack: ${joinUrl(base, 'scene.json')}: HTTP ${mr.status}`);
    if (!br.ok) throw new Error(`pack: ${joinUrl(base, 'scene.bin')}: HTTP ${br.status}`);
    const manifest = await mr.json();
    const buf = await br.arrayBuffer();
    if (!String(manifest.format || '').startsWith('xiangsheli-pack/')) {
      throw new Error(`pack: ${base}scene.json is not a scene pack (format ${JSON.stringify(manifest.format)})`);
    }
    if (!this.opts.fontUrl && manifest.font) {
      this._fontReady = this._loadFont(joinUrl(base, manifest.font));
    }
    // where we are: the same stage and the same seconds into it in the new pack
    const old = this.root && this.stages ? this.stages[Math.max(0, this._stageIdx)] : null;
    const into = old ? this.t - old.start : 0;
    if (ghost && this.root) this._makeGhost();
    else this.clearGhost();
    this._disposePack();
    this.baseUrl = base;
    this._build(manifest, buf);
    this._buf = buf;
    for (const x of this.extensions) if (x.onPack) x.onPack(manifest, buf);
    const st = old ? this.stages.find((x) => x.n === old.n) : null;
    this.t = st ? st.start + Math.min(Math.max(0, into), Math.max(0, st.end - st.start)) : this.t;
    this.t = Math.min(Math.max(0, this.t), this.duration);
    this._poseDirty = true;
    this._updateStageStep();
    if (ghost && old) this._cameraMoved = true;      // keep the camera: the ghost is compared in place
    else this._cameraForStage(true);
    this._dirty = true;
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
    this._batchList = [];
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
    }
    // contact shadows: a soft disc under each person and each thing set down (contact.js)
    this.contact = m.contact ? new ContactShadows(m.contact, this.actors.length + this.objects.length) : null;
    if (this.contact) root.add(this.contact.mesh);
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
    this._staticDirty = true;
    this._buildLabels(m);
    this._applyRoof();
    this._warmUp();
    this._stageIdx = -1;
    this._stepIdx = -1;
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
    this._staticDirty = true;
    for (const [o, v] of shown) o.visible = v;
  }

  _disposePack() {
    if (!this.root) return;
    this.scene.remove(this.root);
    const keep = this._ghost ? this._ghost.geos : null;
    for (const g of this._geos || []) if (!keep || !keep.has(g)) g.dispose();
    this._geos = [];
    if (this.contact) { this.contact.dispose(); this.contact = null; }
    if (this.high) { this.high.dispose(); this.high = null; }
    this.root = null;
    for (const L of this._labels || []) L.el.remove();
    this._labels = [];
  }

  dispose() {
    cancelAnimationFrame(this._raf);
    for (const x of this.extensions) if (x.dispose) x.dispose();
    this.extensions = [];
    this._ro.disconnect();
    this.clearGhost();
    this._disposePack();
    this.controlsP.dispose(); this.controlsO.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
    this.overlay.remove();
    if (window.__xslPlayer === this) window.__xslPlayer = null;
  }

  // ------------------------------------------------------------ extensions
  // A feature that is not the core of playing a pack (a camera director, lessons, paths, sound …)
  // lives in its own module as an *extension*: an object with any of
  //   attach(player)            once, when added
  //   onPack(manifest, buf)     after each pack is built (also at once if one is loaded)
  //   onFrame(T, now, dt)       every animation frame before drawing; return true to ask for a redraw
  //   onKey(ev)                 before the player's own keys; return true if handled
  //   dispose()                 when the player goes
  // Objects it adds to player.scene on layer 0 are drawn every frame (not in the static cache).
  use(ext) {
    this.extensions.push(ext);
    if (ext.attach) ext.attach(this);
    if (this.pack && ext.onPack) ext.onPack(this.pack, this._buf);
    this._dirty = true;
    return ext;
  }

  // ------------------------------------------------------------ ghost of the previous pack
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
    this._dirty = true;
  }

  // ------------------------------------------------------------ labels
  _buildLabels(m) {
    this._labels = [];
    const mk = (kind, text, prio, extra = {}) => {
      const el = document.createElement('div');
      el.className = `xsl-label ${kind}`;
      el.textContent = this._labelShown(text);
      const L = Object.assign({ el, kind, text, prio, anchor: new THREE.Vector3(), active: true,
        shown: false, x: -1e9, y: -1e9, w: 0, h: 0, focus: false }, extra);
      el._xsl = L;
      this.overlay.appendChild(el);
      this._labels.push(L);
      return L;
    };
    for (const A of this.actors) {
      const L = mk('actor', A.name, 100, { actor: A, id: A.id });
      L.el.style.borderLeftColor = A.colour;
      A.label = L;
    }
    for (const O of this.objects) O.label = null;
    for (const pl of m.place_labels || []) {
      const L = mk('place', pl.text, pl.priority != null ? Math.min(90, pl.priority) : 50,
        { id: pl.id, views: pl.views || null });
      L.anchor.fromArray(pl.xyz_m);
    }
    for (const dm of m.dims || []) {
      const L = mk('dim', dm.text, 70, { id: dm.id, dim: dm });
      L.anchor.set((dm.a[0] + dm.b[0]) / 2, (dm.a[1] + dm.b[1]) / 2, (dm.a[2] + dm.b[2]) / 2);
      L.active = this.dimsOn;
    }
    this._remeasure = true;
    this.overlay.classList.toggle('off', !this.labelsOn);
  }

  // the labels' script (issue 27: 繁/简 everywhere): fn(text) → the text shown (null: as the pack has it)
  setLabelText(fn) {
    this._labelFilter = fn || null;
    for (const L of this._labels || []) L.el.textContent = this._labelShown(L.text);
    this._remeasure = true;
    this._dirty = true;
  }

  _labelShown(text) { return this._labelFilter ? this._labelFilter(text) : text; }

  _measureLabels() {
    // one layout for all: write first (done), then read
    for (const L of this._labels) { L.w = L.el.offsetWidth; L.h = L.el.offsetHeight; }
    this._remeasure = false;
  }

  _updateActorLabelTexts() {
    // the label text: 'role（name）' when the role differs, and what he says; rebuilt only when
    // the role, the words or the focus change (no strings made per frame otherwise)
    let changed = false;
    const focus = this._focus;
    for (const A of this.actors) {
      const L = A.label;
      if (!L) continue;
      const role = A.role.at(this.t) || '';
      const say = A.say.at(this.t) || '';
      const f = focus ? focus.has(A.id) : false;
      if (role === A._role && say === A._say && f === L.focus) continue;
      A._role = role; A._say = say;
      const first = A.baseRole;
      let text = role && role !== first && !A.name.includes(role) && role !== A.name ? `${role}（${A.name}）` : A.name;
      if (say) text += `：「${say.length > 10 ? say.slice(0, 10) + '…' : say}」`;
      if (text !== L.text) { L.text = text; L.el.textContent = this._labelShown(text); changed = true; }
      if (f !== L.focus) { L.focus = f; L.el.classList.toggle('focus', f); changed = true; }
      L.prio = 100 + (f ? 60 : 0) + (say ? 10 : 0);
    }
    if (changed) this._remeasure = true;
  }

  _updateLabels() {
    if (!this.labelsOn || !this._labels) return;
    if (this._remeasure) this._measureLabels();
    const cam = this.cam;
    const W = this._w, H = this._h;
    const v = this._v;
    const cand = this._cand || (this._cand = []);
    cand.length = 0;
    const near = cam.isPerspectiveCamera ? cam.near : -Infinity;
    for (const L of this._labels) {
      L.want = false;
      if (!L.active) continue;
      v.copy(L.anchor).applyMatrix4(cam.matrixWorldInverse);
      if (cam.isPerspectiveCamera && -v.z < near) continue;                 // behind the camera
      v.applyMatrix4(cam.projectionMatrix);
      const sx = (v.x + 1) * 0.5 * W, sy = (1 - v.y) * 0.5 * H;
      if (sx < -L.w || sx > W + L.w || sy < 0 || sy > H + L.h || v.z > 1) continue;   // off-screen
      L.sx = sx; L.sy = sy;
      cand.push(L);
    }
    // greedy by priority: a label that would cover a more important one stays hidden
    cand.sort((a, b) => b.prio - a.prio || a.sy - b.sy);
    const boxes = this._boxes || (this._boxes = []);
    boxes.length = 0;
    for (const L of cand) {
      const x0 = Math.round(L.sx - L.w / 2), y0 = Math.round(L.sy - L.h - 3);
      const x1 = x0 + L.w, y1 = y0 + L.h;
      let free = true;
      for (let k = 0; k < boxes.length; k += 4) {
        if (x0 < boxes[k + 2] && x1 > boxes[k] && y0 < boxes[k + 3] && y1 > boxes[k + 1]) { free = false; break; }
      }
      if (!free) continue;
      boxes.push(x0, y0, x1, y1);
      L.want = true;
      if (x0 !== L.x || y0 !== L.y) {
        L.x = x0; L.y = y0;
        L.el.style.transform = `translate3d(${x0}px,${y0}px,0)`;
      }
    }
    for (const L of this._labels) {
      if (L.want !== L.shown) { L.shown = L.want; L.el.style.visibility = L.want ? 'visible' : 'hidden'; }
    }
  }

  // ------------------------------------------------------------ the pose at T
  _applyPose() {
    const T = this.t;
    const tmp = this._tmp;
    const batch = this.batch ? this._batchList : null;
    if (batch) batch.length = 0;
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
      if (batch) { mesh.updateMatrix(); batch.push(mesh); }
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
      if (batch) { mesh.updateMatrix(); batch.push(mesh); }
    }
    if (batch) this.batch.update(batch);
    if (this.contact && this.contact.mesh.visible) this.contact.update(this.actors, this.objects, T);
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
    }
    if (stageIdx !== this._stageIdx) {
      const first = this._stageIdx < 0;
      this._stageIdx = stageIdx;
      if (!first && !this.free && this.autoView) this._cameraForStage(false);
    }
  }

  // ------------------------------------------------------------ cameras
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
    let c = this._preset(this.view, this._stageN());
    // the plan fitted to this frame, clear of the caption band (plan-fit.js)
    if (c && c.parallel && this.view === 'plan') c = fitPlan(c, this.pack.bounds_m, this._w, this._h, this.planReserve, this._widen());
    if (c) this.applyCamera(c, force);
  }

  _placeLabelsForView() {
    for (const L of this._labels || []) {
      if (L.kind === 'place') L.active = !L.views || L.views.includes(this.view);
    }
  }

  applyCamera(c) {
    this._placeLabelsForView();
    // the same preset again (most stages share the overview): nothing to move or redraw
    const key = JSON.stringify([c.position, c.focal_point, c.view_up, c.view_angle, c.parallel, c.parallel_scale, this._aspect]);
    if (key === this._camKey && !this.free) { this._dirty = true; return; }
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
    this._dirty = true;
  }

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
    this._staticDirty = true;
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
    this._staticDirty = true;
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

  // ------------------------------------------------------------ the frame loop
  _frame(now) {
    this._raf = requestAnimationFrame(this._frame);
    const dt = this._lastNow ? Math.min(0.25, Math.max(0, (now - this._lastNow) / 1000)) : 0;
    this._lastNow = now;
    if (!this.root) return;
    if (this.playing) {
      this.t += dt * this.speed;
      if (this.t >= this.duration) { this.t = this.duration; this.playing = false; }
      this._poseDirty = true;
      this._dirty = true;
    }
    for (const x of this.extensions) if (x.onFrame && x.onFrame(this.t, now, dt)) this._dirty = true;
    if (!this._dirty) return;
    if (this._poseDirty) this._applyPose();
    if (this._cameraMoved) this._cameraChanged();
    const r0 = performance.now();
    this._render();
    if (this.high) this.high.onFrame(performance.now() - r0);
    // labels follow every frame; while playing on a machine the adaptive ladder has thinned, every 3rd
    if (!this.playing || this._frameCount % this.adaptive.labelsEvery() === 0) this._updateLabels();
    this.adaptive.onDrawn(now);
    this._dirty = false;
    this._frameTimes[this._frameCount % this._frameTimes.length] = now;
    this._frameCount++;
    this._lastRender = performance.now();
    this._maybeEmit(now);
    if (this._afterRender.length) {
      const rs = this._afterRender;
      this._afterRender = [];
      for (const r of rs) r(this._lastRender);
    }
  }

  _render() {
    const r = this.renderer, cam = this.cam;
    r.info.reset();
    if (!this.staticCache) {
      cam.layers.enableAll();
      r.autoClear = true;
      r.render(this.scene, cam);
      return;
    }
    const size = r.getDrawingBufferSize(this._size2);
    if (!this._rt || this._rt.width !== size.x || this._rt.height !== size.y) {
      if (this._rt) this._rt.dispose();
      // colour + DEPTH24_STENCIL8, the formats of the canvas (stencil: true), so that one
      // blitFramebuffer copies all three (Mesa does that as a plain copy: ~2 ms at 1280×720,
      // where a full-screen textured pass costs 7–13 ms on llvmpipe)
      this._rt = new THREE.WebGLRenderTarget(size.x, size.y, {
        minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter, generateMipmaps: false,
        depthBuffer: true, stencilBuffer: true,
      });
      this._staticDirty = true;
    }
    r.autoClear = false;
    if (this._staticDirty) {
      r.setRenderTarget(this._rt);
      r.clear(true, true, true);
      cam.layers.set(1);
      r.render(this.scene, cam);
      r.setRenderTarget(null);
      this._staticDirty = false;
      this._staticRenders = (this._staticRenders || 0) + 1;
      this._staticInfo = { calls: r.info.render.calls, triangles: r.info.render.triangles };
      r.info.reset();
    }
    // copy the static picture (colour, depth, stencil) onto the canvas, through three's state
    // cache so that it keeps knowing what is bound
    const gl = r.getContext();
    const st = r.state;
    const fb = r.properties.get(this._rt).__webglFramebuffer;
    st.buffers.color.setMask(true);
    st.buffers.depth.setMask(true);
    st.buffers.stencil.setMask(0xff);
    st.setScissorTest(false);
    // Chrome clears a composited canvas before the first clear or draw of the next frame (but
    // not before a blit, which that clear would then wipe): clear first, then copy
    r.setRenderTarget(null);
    if (!this.opts.preserveDrawingBuffer) r.clear(true, true, true);
    st.bindFramebuffer(gl.DRAW_FRAMEBUFFER, null);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, fb);     // three's cache does not follow READ bindings
    gl.blitFramebuffer(0, 0, size.x, size.y, 0, 0, size.x, size.y,
      gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT, gl.NEAREST);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    if (this._debugBlit) this._blitErr = gl.getError();
    if (!this._blitChecked) {
      this._blitChecked = true;
      const err = gl.getError();
      if (err !== gl.NO_ERROR) {                 // formats differ on this platform: draw it all
        console.warn(`player: static cache off (blitFramebuffer error ${err})`);
        this.staticCache = false;
        this._render();
        return;
      }
    }
    cam.layers.set(0);
    r.render(this.scene, cam);                  // people, things, see-through layers
  }

  // ------------------------------------------------------------ state out
  state() {
    const step = this._stepIdx >= 0 ? this.steps[this._stepIdx] : null;
    const stage = this.stages[this._stageIdx >= 0 ? this._stageIdx : 0] || null;
    return {
      t: this.t, stage: stage ? stage.n : null, stepIndex: this._stepIdx, phrase: step ? step.phrase : '',
      section: step ? step.section : (stage ? stage.n : null), playing: this.playing, speed: this.speed,
      view: this.view, labels: this.labelsOn, roof: this.roof, dims: this.dimsOn,
    };
  }

  _maybeEmit(now) {
    if (!this.onState) return;
    const L = this._lastState;
    const stage = this._stageIdx, step = this._stepIdx;
    const discrete = L.stage !== stage || L.step !== step || L.playing !== this.playing || L.view !== this.view ||
      L.labels !== this.labelsOn || L.roof !== this.roof || L.dims !== this.dimsOn || L.speed !== this.speed;
    const tChanged = L.t !== this.t;
    if (!discrete && !tChanged) return;
    if (!discrete && now - this._lastEmit < 250) {
      // a trailing emit so that the last t of a scrub arrives
      if (!this._emitTimer) this._emitTimer = setTimeout(() => { this._emitTimer = 0; this._maybeEmit(performance.now()); }, 260);
      return;
    }
    L.stage = stage; L.step = step; L.playing = this.playing; L.view = this.view; L.labels = this.labelsOn;
    L.roof = this.roof; L.dims = this.dimsOn; L.speed = this.speed; L.t = this.t;
    this._lastEmit = now;
    try { this.onState(this.state()); } catch (e) { console.error(e); }
  }

  // the quality tier: {requested, tier, renderer, software, why} (quality.js), and whether the high tier
  // kept its shadows
  quality() {
    return Object.assign({}, this.qualityInfo, { sunShadows: !!(this.high && !this.high.demoted),
      adaptive: this.adaptive.describe() });
  }

  // draw at this fraction of the CSS size (the adaptive ladder's knob; the picture keeps its CSS size)
  setRenderScale(s) {
    const high = this.qualityInfo.tier === 'high' && !(this.high && this.high.demoted);
    this.renderer.setPixelRatio(high ? s * Math.min(2, window.devicePixelRatio || 1) : s);
    this._staticDirty = true;
    this._dirty = true;
  }

  stats() {
    const n = Math.min(this._frameCount, this._frameTimes.length);
    const last = n ? this._frameTimes[(this._frameCount - 1) % this._frameTimes.length] : 0;
    const now = performance.now();
    let fps = 0;
    for (let k = 1; k <= n; k++) {
      const tt = this._frameTimes[(this._frameCount - k) % this._frameTimes.length];
      if (now - tt <= 1000) fps++; else break;
    }
    // the last frame: draw calls made, and triangles in the picture (the static layers' come from
    // the cached target when it was not redrawn)
    const info = this.renderer.info.render;
    const si = this.staticCache && this._staticInfo ? this._staticInfo : { calls: 0, triangles: 0 };
    return { fps, frames: this._frameCount, drawCalls: info.calls, triangles: info.triangles + si.triangles,
      dynamicTriangles: info.triangles, staticCached: !!this.staticCache, staticRedraws: this._staticRenders || 0,
      batchLayouts: this.batch ? this.batch.layouts : 0, contactShadows: this.contact ? this.contact.mesh.count : 0,
      tier: this.qualityInfo.tier, sunShadows: !!(this.high && !this.high.demoted),
      lastFrameAt: last };
  }

  // ------------------------------------------------------------ controls
  _touch() { this._dirty = true; }

  setTime(t) {
    if (!this.pack) return;
    const x = Number(t);
    if (!Number.isFinite(x)) return;
    this.t = Math.min(Math.max(0, x), this.duration);
    this._poseDirty = true;
    this._dirty = true;
  }

  play() {
    if (!this.pack) return;
    if (this.t >= this.duration) this.setTime(0);
    this.playing = true;
    this._lastNow = 0;
    this._dirty = true;
  }

  pause() { this.playing = false; this._dirty = true; }
  togglePlay() { if (this.playing) this.pause(); else this.play(); }

  setSpeed(x) {
    const s = Number(x);
    if (!Number.isFinite(s)) return;
    this.speed = Math.min(8, Math.max(0.5, s));
    this._dirty = true;
  }

  _stageIndexOf(n) {
    if (typeof n === 'string' && !/^\d+$/.test(n)) return this.stages.findIndex((s) => s.id === n);
    const k = Number(n);
    return this.stages.findIndex((s) => s.n === k);
  }

  gotoStage(n) {
    if (!this.pack) return false;
    const i = this._stageIndexOf(n);
    if (i < 0) return false;
    this._gotoStageIndex(i);
    return true;
  }

  _gotoStageIndex(i) {
    const st = this.stages[i];
    this.setTime(st.start);
    this._stageIdx = i;
    this._stageHint = i;
    if (!this.userView) this.view = 'overview';
    this._cameraForStage(true);
  }

  nextStage() {
    if (!this.pack) return;
    this._poseDirty && this._updateStageStep();
    const i = Math.max(0, this._stageIdx);
    if (i + 1 < this.stages.length) this._gotoStageIndex(i + 1);
  }

  prevStage() {
    if (!this.pack) return;
    this._poseDirty && this._updateStageStep();
    const i = Math.max(0, this._stageIdx);
    const st = this.stages[i];
    // back to this stage's start when well into it, else to the previous stage
    if (st && this.t - st.start > 1.0) this._gotoStageIndex(i);
    else if (i > 0) this._gotoStageIndex(i - 1);
  }

  nextStep() {
    if (!this.pack || !this.steps.length) return;
    const T = this.t + 1e-3;
    let i = lastLE(this.stepStarts, T, this._stepHint) + 1;
    while (i < this.steps.length && this.steps[i].start <= T) i++;
    if (i < this.steps.length) this.setTime(this.steps[i].start);
  }

  prevStep() {
    if (!this.pack || !this.steps.length) return;
    const T = this.t - 1e-3;
    const i = lastLE(this.stepStarts, T, this._stepHint);
    if (i < 0) { this.setTime(0); return; }
    // the start of the step we are in (or the previous one when we are at a start)
    const s = this.steps[i].start;
    this.setTime(this.t - s < 0.3 && i > 0 ? this.steps[Math.max(0, lastLE(this.stepStarts, s - 1e-3, i))].start : s);
  }

  setView(name) {
    if (!this.pack) return false;
    if (!this.viewOrder.includes(name)) {
      const by = this.views.by_stage || {};
      const any = Object.values(by)[0] || {};
      if (!(name in any)) return false;
    }
    this.view = name;
    this.userView = true;
    this._cameraForStage(true);
    return true;
  }

  setLabels(on) {
    this.labelsOn = !!on;
    this.overlay.classList.toggle('off', !this.labelsOn);
    if (this.labelsOn) this._remeasure = true;
    this._dirty = true;
  }

  setRoof(mode) {
    if (!ROOF_MODES.includes(mode)) return false;
    this.roof = mode;
    this._applyRoof();
    this._dirty = true;
    return true;
  }

  setDims(on) {
    this.dimsOn = !!on;
    if (this.dimsGroup) this.dimsGroup.visible = this.dimsOn;
    for (const L of this._labels || []) if (L.kind === 'dim') L.active = this.dimsOn;
    this._dirty = true;
  }

  handleKey(ev) {
    if (!this.pack || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    for (const x of this.extensions) {
      if (x.onKey && x.onKey(ev)) { if (ev.preventDefault) ev.preventDefault(); return true; }
    }
    const k = ev.key;
    let done = true;
    if (k === 'ArrowRight') this.nextStep();
    else if (k === 'ArrowLeft') this.prevStep();
    else if (k === 'PageDown') this.nextStage();
    else if (k === 'PageUp') this.prevStage();
    else if (k === ' ' || k === 'Spacebar' || ev.code === 'Space') this.togglePlay();
    else if (/^[1-6]$/.test(k)) {
      const v = this.viewOrder[Number(k) - 1];
      if (v) this.setView(v); else done = false;
    } else if (k === 'l' || k === 'L') this.setLabels(!this.labelsOn);
    else if (k === 'f' || k === 'F') {
      const de = document.documentElement;
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      else if (de.requestFullscreen) de.requestFullscreen().catch(() => {});
    } else done = false;
    if (done && ev.preventDefault) ev.preventDefault();
    return done;
  }

  // ------------------------------------------------------------ picking / inspector
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

  // where a label is on the screen (tests, the page): {x, y, w, h, shown} in CSS px of the container
  labelBox(kind, id) {
    const L = (this._labels || []).find((l) => l.kind === kind && l.id === id);
    if (!L) return null;
    return { x: L.x, y: L.y, w: L.w, h: L.h, shown: L.shown, text: L.text };
  }
}

export default Player;
