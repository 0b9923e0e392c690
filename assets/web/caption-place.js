// Where the caption bands go (issue 27): the phrase caption (captions.js) and the lesson's caption
// (lessons.js) are placed where they cover none of the people the current step names, nor each other, nor
// what the page draws over the view (its toolbar, the text panel, the lesson box).  Why: a band fixed at
// the bottom centre hid the kneeling 釋獲者 of §27 under the lesson caption, and two bands stacked in the
// middle of a close view covered the acting pair.
//
// A player extension (player.use(captionPlace({avoid}))), used after lessons() and captions().  In each frame
// whose inputs changed (_keyOf) it projects the acting people's boxes from the pack's tracks (where each
// stands, and the height of his figure in its posture: the label anchor's label_z) into the view, and tries
// the bands' places in order of preference — the bottom band (centre, left, right), a row above it, then the
// top band — taking the first that meets no acting person and no other box; failing that, the one that
// covers least of them.
import * as THREE from './vendor/three.module.js';

const HALF_WIDTH_M = 0.35;      // half a person's width and depth on the ground (a 深衣 with sleeves)
const MARGIN = 8;               // px between a band and the view's edge or another band

// the acting people's boxes in the container's CSS px: [x0, y0, x1, y1, …]; exported for the labels (which
// keep clear of them too) and the tests.  ``ids``, when given, receives each box's person, in the same order.
// ``opts.all``: everyone acting (every step under way, player._acting), not only the caption's step's people;
// ``opts.pad``: px added round each box (a figure's sleeves and hat reach past the box's corners).
export function actingBoxes(p, out = [], ids = null, opts = {}) {
  out.length = 0;
  if (ids) ids.length = 0;
  const who = opts.all && p._acting ? p._acting : p._focus;
  if (!p.pack || !who || !p.cam) return out;
  const cam = p.cam, v = new THREE.Vector3(), W = p._w, H = p._h, pad = opts.pad || 0;
  cam.updateMatrixWorld();
  for (const id of who) {
    const A = p.actorById.get(id);
    if (!A || !A.shown || !A.label) continue;
    const [x, y, z] = A.xyzh, top = A.label.anchor.z;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, behind = false;
    for (const dx of [-HALF_WIDTH_M, HALF_WIDTH_M]) for (const dy of [-HALF_WIDTH_M, HALF_WIDTH_M]) for (const zz of [z, top]) {
      v.set(x + dx, y + dy, zz).applyMatrix4(cam.matrixWorldInverse);
      if (cam.isPerspectiveCamera && -v.z < cam.near) { behind = true; continue; }
      v.applyMatrix4(cam.projectionMatrix);
      const sx = (v.x + 1) * 0.5 * W, sy = (1 - v.y) * 0.5 * H;
      x0 = Math.min(x0, sx); x1 = Math.max(x1, sx); y0 = Math.min(y0, sy); y1 = Math.max(y1, sy);
    }
    if (behind || x1 < 0 || x0 > W || y1 < 0 || y0 > H) continue;
    out.push(x0 - pad, y0 - pad, x1 + pad, y1 + pad);
    if (ids) ids.push(id);
  }
  return out;
}

function overlap(b, x0, y0, x1, y1) {
  let a = 0;
  for (let k = 0; k < b.length; k += 4) {
    const w = Math.min(x1, b[k + 2]) - Math.max(x0, b[k]), h = Math.min(y1, b[k + 3]) - Math.max(y0, b[k + 1]);
    if (w > 0 && h > 0) a += w * h;
  }
  return a;
}

export function captionPlace(opts = {}) {
  return {
    player: null, on: true, _boxes: [], _ids: [], _sizes: new Map(),
    attach(p) { this.player = p; p.captionPlace = this; },
    // the page's own boxes over the view, in the container's px
    _uiBoxes() {
      const out = [];
      const list = typeof opts.avoid === 'function' ? opts.avoid() : (opts.avoid || []);
      const c = this.player.container.getBoundingClientRect();
      for (const el of list) {
        if (!el || !el.getBoundingClientRect) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) out.push(r.left - c.left, r.top - c.top, r.right - c.left, r.bottom - c.top);
      }
      return out;
    },
    // everything a placement reads, as one string (reads only: no style is written, so no layout is forced)
    // — the acting people by their boxes in the view (whole px) and who they are, not the moment: a rite playing
    // while its people stand still does not place the bands again each frame (issue 42: re-placed 60 times a
    // second, each band's style written and measured twice a frame while §21 played)
    _keyOf(bands, W, H, soft, acting) {
      return [W, H, acting.map(Math.round).join(' '), this._ids.join(' '), soft.join(' '),
        ...bands.map((b) => `${b.className}|${b.offsetWidth}x${b.offsetHeight}|${b.textContent}`)].join(',');
    },
    // a band's [width, height] measured at its own width and wrapped to `narrow` px — kept by what decides
    // them (its class, text, font size, the view's size): measured once, not at every placement
    _measure(b, narrow, W, H) {
      const key = `${b.className}|${b.textContent}|${getComputedStyle(b).fontSize}|${W}x${H}`;
      let got = this._sizes.get(key);
      if (!got) {
        const m = (mw) => {
          Object.assign(b.style, { left: '50%', top: '0px', bottom: 'auto', transform: 'none', maxWidth: mw,
            boxSizing: 'border-box' });     // max-width as the box measured (padding in)
          const r = b.getBoundingClientRect();
          return [Math.ceil(r.width) + 1, Math.ceil(r.height)];
        };
        got = [m('96%'), m(`${narrow}px`)];
        if (this._sizes.size > 64) this._sizes.clear();
        this._sizes.set(key, got);
      }
      return got;
    },
    // the best place of a band of w × h: the first free one in order of preference, else the one that covers
    // least of the acting people and the bands placed before it (hard), then of the page's panels (soft)
    _best(w, h, hard, soft, W, H) {
      const clamp = (x) => Math.max(MARGIN, Math.min(W - w - MARGIN, x));
      const xs = [(W - w) / 2, MARGIN, W - w - MARGIN];
      // beside each acting person or band: the places a centred band would miss him by a little
      for (let k = 0; k < hard.length; k += 4) xs.push(clamp(hard[k] - MARGIN - w), clamp(hard[k + 2] + MARGIN));
      // the bottom band first (where a caption is read), then the rows above it up to the top of the view
      const rows = [];
      for (let y = H - 48 - h; y >= MARGIN; y -= h + MARGIN) rows.push(y);
      rows.push(MARGIN);
      let best = null;
      for (const y of rows) {
        for (const x of xs) {
          const c0 = overlap(hard, x, y, x + w, y + h), c1 = overlap(soft, x, y, x + w, y + h);
          if (!best || c0 < best.c0 || (c0 === best.c0 && c1 < best.c1)) best = { x: Math.round(x), y: Math.round(y), c0, c1 };
          if (!c0 && !c1) return best;
        }
      }
      return best;
    },
    onFrame() {
      const p = this.player;
      if (!this.on || !p.pack) return false;
      p.poseNow();                                // the people where this frame will draw them
      const c = p.container;
      const bands = [c.querySelector('.xsl-caption'), c.querySelector('.xsl-lesson-caption')]
        .filter((b) => b && b.style.display !== 'none' && getComputedStyle(b).display !== 'none');
      if (!bands.length) { this._key = null; return false; }
      const W = c.clientWidth, H = c.clientHeight;
      const soft = this._uiBoxes();
      // placed again only when something it reads has changed: the moment (where the people are), who acts,
      // the camera, the view's size, the page's boxes, the bands' text and size.  Placed every animation
      // frame, each band's style was rewritten and measured twice 60 times a second, and the page never
      // rested: 1.1 cores of Chromium on llvmpipe with the player standing still (measured; 0.1 without)
      // everyone acting (every step under way): the caption's step may have moved on to the answer while the
      // bow it answers still plays (issue 42: §4's 主人 再拜 under the lesson's caption, the 賓's 答拜 the step)
      const acting = actingBoxes(p, this._boxes, this._ids, { all: true });
      if (this._keyOf(bands, W, H, soft, acting) === this._key) return false;
      // measured where a centred band starts (left 50 %: it wraps to half the view, as the bands always
      // have; the plan's fit to the frame counts on that height), and wrapped to 38 % of the view: a band too
      // wide to pass beside a person standing in the middle of a close view fits beside him in more lines.
      // Placed elsewhere, a band keeps the width measured here (max-width: the same line breaks).
      const narrow = Math.floor(0.38 * W);
      const size = bands.map((b) => this._measure(b, narrow, W, H));
      // both orders (the phrase caption first, or the lesson's): the one that covers least wins — a band that
      // finds no room often has it once the other has moved
      let pick = null;
      for (const order of bands.length === 2 ? [[0, 1], [1, 0]] : [[0]]) {
        const hard = acting.slice(), at = [];
        let c0 = 0, c1 = 0;
        for (const i of order) {
          let q = null;
          for (const [w, h] of size[i]) {              // its own width first; wrapped only if that covers someone
            const r = this._best(w, h, hard, soft, W, H);
            if (!q || r.c0 < q.c0) q = Object.assign(r, { w, h, narrow: !!q });
            if (!q.c0) break;
          }
          at[i] = q; c0 += q.c0; c1 += q.c1;
          hard.push(q.x, q.y, q.x + q.w, q.y + q.h);
        }
        if (!pick || c0 < pick.c0 || (c0 === pick.c0 && c1 < pick.c1)) pick = { at, c0, c1 };
      }
      bands.forEach((b, i) => {
        const q = pick.at[i];
        Object.assign(b.style, { left: `${q.x}px`, top: `${q.y}px`, bottom: 'auto', transform: 'none',
          maxWidth: `${q.w}px`, boxSizing: 'border-box' });
      });
      // the key as the bands now stand (their width is the one placed): the next frame that reads the same
      // finds nothing to do
      this._key = this._keyOf(bands, W, H, soft, acting);
      return false;
    },
    dispose() { if (this.player && this.player.captionPlace === this) this.player.captionPlace = null; },
  };
}
