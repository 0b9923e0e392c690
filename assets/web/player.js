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
//   restCache    (default true; with the static cache and the batch) the people and things that stay
//                still over the next seconds drawn into the static cache too, and of the moving ones
//                only those in the camera's view sent to the GPU (player-batch.js; issue 42)
//
// The browser never builds geometry: every triangle comes from the pack.
//
// What the page, the extensions and the tests may use (the rest is the parts' own, issue 42: one writer a field):
//   load/setPack, setTime, play/pause/togglePlay, setSpeed, gotoStage, next/prevStage, next/prevStep, setView,
//   setRoof, setLabels, setDims, applyCamera, camera(), state(), stats() (fps, frames, turns, cameraPlacements …),
//   quality(), nextFrame() (resolves after the next drawn frame), use(extension), handleKey(ev), dispose();
//   signals (signals.js): stageChanged, stepChanged, viewChanged, playingChanged, cameraPlaced;
//   for extensions: requestRedraw(), redrawStatic(), invalidatePose(), poseNow(), restAgain(), takeCamera(),
//   placeCamera(), cameraPlaced().
//
// The Player is one class whose methods live in modules of one idea each (issue 24: ≤ 560 lines a file):
//   player.js           construction, loading a pack, extensions, the frame loop and drawing, state out
//   player-build.js     a pack into the scene (meshes, batch, shadows, ghost)
//   player-pose.js      the pose at T, the current stage and step
//   player-labels.js    the label overlay (names, places, dimensions)
//   player-camera.js    cameras, presets, controls, the roof cut
//   player-playback.js  time, navigation, toggles, keys
//   player-picking.js   picking and the inspector's info
//   player-tracks.js    the pack's tracks and buffers;  player-batch.js  the one-draw batch
//   player-pace.js      the frame loop's pace: the display's rate while anything changes, resting when not
import * as THREE from './vendor/three.module.js';
import { PathsOverlay } from './paths.js';
import { Adaptive, adaptiveOptions } from './adaptive.js';
import { chooseTier } from './quality.js';
import { joinUrl } from './player-tracks.js';
import { PackBuild } from './player-build.js';
import { Pose } from './player-pose.js';
import { Labels } from './player-labels.js';
import { Camera } from './player-camera.js';
import { Playback } from './player-playback.js';
import { Picking } from './player-picking.js';
import { Pace } from './player-pace.js';
import { createSignals } from './signals.js';

const FONT_FAMILY = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', 'Noto Serif CJK TC', 'Source Han Sans TC', " +
  "'PingFang TC', 'Microsoft JhengHei', 'Hiragino Sans', sans-serif";

// colours are display values already (lit in the pack): no colour management anywhere
function rawColour(hex) {
  const n = parseInt(hex.replace('#', ''), 16);
  return new THREE.Color().setRGB(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255,
    THREE.LinearSRGBColorSpace);
}
const SKY = '#ebe7dc';

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
    this.restCache = opts.restCache !== false;

    // each part's own state, set by the part (one writer a field: issue 42)
    this._initBuild();         // pack, root, the ghost
    this._initPlayback();      // t, playing, speed, view, roof
    this._initLabels();        // labelsOn, dimsOn
    this._initPicking();       // lastPick
    this._initPose();          // the current stage and step
    this._initPace();          // the frame loop's clock

    this.requestRedraw();        // something to draw
    this.invalidatePose();    // t changed: re-place actors and objects
    this._labelTextDirty = true;
    this._afterRender = [];    // resolvers waiting for the next drawn frame
    this._frameTimes = new Float64Array(240);
    this._frameCount = 0;
    this._lastEmit = 0;
    this._emitTimer = 0;
    this._lastState = {};
    this._tmp = new Float32Array(4);
    this._tmp2 = new Float32Array(4);
    this._v = new THREE.Vector3();
    this._v2 = new THREE.Vector3();
    this._q = new THREE.Quaternion();
    this._yAxis = new THREE.Vector3(0, 1, 0);
    this._fontReady = Promise.resolve(false);
    this.extensions = [];      // see use()
    // what changed, announced (signals.js): stageChanged(stage), stepChanged(step), viewChanged(name),
    // playingChanged(bool), cameraPlaced(camera dict) — `player.signals.stageChanged.add(fn)`
    this.signals = createSignals(['stageChanged', 'stepChanged', 'viewChanged', 'playingChanged', 'cameraPlaced']);

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
    this.adaptive = new Adaptive(this, adaptiveOptions(opts));

    this.overlay = document.createElement('div');
    this.overlay.className = 'xsl-labels';
    container.appendChild(this.overlay);
    // the names' size follows the view's height and classroom mode (CSS): a probe of one character tells when
    // it changed, and every name is measured and placed again in the next frame
    const probe = document.createElement('span');
    probe.textContent = '中';
    probe.setAttribute('aria-hidden', 'true');
    Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', left: '0', top: '0', pointerEvents: 'none' });
    this.overlay.appendChild(probe);
    this._probeRo = new ResizeObserver(() => this._remeasureLabels());
    this._probeRo.observe(probe);

    this.scene = new THREE.Scene();
    this.scene.matrixWorldAutoUpdate = true;
    this.persp = new THREE.PerspectiveCamera(30, 16 / 9, 0.3, 2000);
    this.persp.up.set(0, 0, 1);
    this.ortho = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.5, 2000);
    this.ortho.up.set(0, 1, 0);
    this._initCamera();        // cam, controls, free

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
    this._startLoop();
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
  overflow: hidden; font-family: ${FONT_FAMILY}; font-size: var(--xsl-label-px, 13px); }
body.xsl-classroom .xsl-player .xsl-labels { font-size: var(--xsl-label-class-px, 24px); }
body.xsl-classroom .xsl-player .xsl-view-tool, body.xsl-classroom .xsl-player .xsl-lessons { display: none !important; }
.xsl-player .xsl-labels.off { display: none; }
.xsl-label { position: absolute; left: 0; top: 0; white-space: nowrap; pointer-events: auto; cursor: pointer;
  font-size: 1em; line-height: 1.23; padding: 0.08em 0.3em; border-radius: 3px; color: #1e1b18;
  background: rgba(250, 247, 238, 0.86); border: 1px solid rgba(30, 27, 24, 0.25); visibility: hidden;
  user-select: none; }
.xsl-label.actor { border-left-width: 4px; }
.xsl-label.actor.focus { font-weight: 600; background: rgba(255, 252, 240, 0.95); }
.xsl-label.place { background: rgba(243, 238, 225, 0.7); color: #5b5147; font-size: 0.92em; border-style: dashed; }
.xsl-label.dim { background: rgba(255, 255, 255, 0.9); font-size: 0.92em; color: #1e1b18; }
.xsl-label.dim.off { display: none; }
`;
    document.head.appendChild(st);
  }

  _loadFont(url, family = 'XSLCJK', quiet = false) {
    try {
      for (const f of document.fonts) if (f.family.replace(/["']/g, '') === family) return f.loaded.then(() => true, () => false);
      const ff = new FontFace(family, `url("${url}")`, { display: 'swap' });
      document.fonts.add(ff);
      return ff.load().then(() => { this._remeasureLabels(); return true; },
        (e) => {
          if (!quiet) this._error(new Error(`label font ${url}: ${e && e.message || e}`));
          return false;
        });
    } catch (e) {
      this._error(e);
      return Promise.resolve(false);
    }
  }

  _error(e) {
    if (this.onError) { try { this.onError(e); } catch (_) { /* ignore */ } }
    else console.error(e);
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
    this.pause();
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

  // public: resolves after the next frame is drawn (a redraw asked for)
  nextFrame() { return this._nextFrame(); }

  _nextFrame() {
    this.requestRedraw();
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
    this.setTime(st ? st.start + Math.min(Math.max(0, into), Math.max(0, st.end - st.start)) : this.t);
    this._updateStageStep();
    if (ghost && old) this._markCameraMoved();      // keep the camera: the ghost is compared in place
    else this._cameraForStage(true);
    this.requestRedraw();
  }

  dispose() {
    this._stopLoop();
    for (const x of this.extensions) if (x.dispose) x.dispose();
    this.extensions = [];
    this._ro.disconnect();
    this._probeRo.disconnect();
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
  //   holdsCamera()             true while it holds the camera (the director): the player then places
  //   cameraAt(T)                 its camera at T (a PACK.md Camera dict) instead of the stage's preset, in
  //   viewName                    the view of this name, at a stage jump, a resize, takeCamera()/placeCamera()
  //   onView(name)              a valid view is being chosen (the director lets go); for its own viewName,
  //                             it puts the view on itself (returns whether it could)
  //   dispose()                 when the player goes
  // Objects it adds to player.scene on layer 0 are drawn every frame (not in the static cache).
  use(ext) {
    this.extensions.push(ext);
    if (ext.attach) ext.attach(this);
    if (this.pack && ext.onPack) ext.onPack(this.pack, this._buf);
    this.requestRedraw();
    return ext;
  }

  // ------------------------------------------------------------ the frame loop
  _frame(now) {
    this._turns = (this._turns || 0) + 1;           // stats().turns: the loop's turns, drawn or not
    const drawn = this._frameCount;
    try {
      this._turn(now);
    } finally {
      this._pace(now, this._frameCount !== drawn);     // the next turn: now or, standing still, later (player-pace.js)
    }
  }

  _turn(now) {
    const dt = this._clock(now);
    if (!this.root) return;
    if (this.playing) this._advance(dt);
    for (const x of this.extensions) if (x.onFrame && x.onFrame(this.t, now, dt)) this.requestRedraw();
    if (!this._dirty) return;
    if (this._poseDirty) this._applyPose();
    if (this._cameraMoved) this._cameraChanged();
    const r0 = performance.now();
    this._render();
    if (this.high) this.high.onFrame(performance.now() - r0);
    this._placeLabelsInFrame();
    this.adaptive.onDrawn(now);
    this._drawnFrame();
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
    // the people and things in view (player-batch.js); all while the sun's shadows are drawn (cast from outside)
    if (this.batch) this.batch.prepare(this.restCache && !(this.high && !this.high.demoted) ? cam : null);
    if (!this.staticCache) {
      if (this.restBatch) this.restBatch.prepare(cam);          // (the cache turned off after a failed copy)
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
      if (this.restBatch) this.restBatch.prepare(cam);
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

  // the static layers drawn again into the cache in the next frame (a new camera, pack, size, rest split)
  redrawStatic() { this._staticDirty = true; this.requestRedraw(); }

  // draw at this fraction of the CSS size (the adaptive ladder's knob; the picture keeps its CSS size)
  setRenderScale(s) {
    const high = this.qualityInfo.tier === 'high' && !(this.high && this.high.demoted);
    this.renderer.setPixelRatio(high ? s * Math.min(2, window.devicePixelRatio || 1) : s);
    this._staticDirty = true;
    this.requestRedraw();
  }
}

// The methods of the other player-*.js modules, installed as the class's own: non-enumerable like a class
// method, and a name defined twice is an error at load (not a silent override).
for (const part of [PackBuild, Pose, Labels, Camera, Playback, Picking, Pace]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === 'constructor') continue;
    if (Object.prototype.hasOwnProperty.call(Player.prototype, name)) throw new Error(`player: ${name} defined twice`);
    Object.defineProperty(Player.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}

export default Player;
