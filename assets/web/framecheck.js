// Does the picture show who acts?  Measured from the rendered frame (issue 27), for tests and benches.
//
// The director's audit (scene/render/shot_audit.py) judges a shot from sight lines to two points of each
// person; a class sees the *picture*: what the hall, the props and the other people hide, and what the
// page's own toolbar, captions, badges and labels lay over it.  So this draws an id buffer in the player's
// own camera — each person's figure in a flat colour of his own, everything else (the hall, the ground,
// the 乏 and the 侯, every thing carried) in black — and reads it back:
//
//   const m = (await import('./framecheck.js')).measure(player)     // or window.__frameCheck(player)
//   m.people = [{id, alone, seen3d, seen, share, covered, by, bbox, height, standing, inFrame}]
//
// per acting person (the current step's `who`, or opts.who): `alone` his pixels drawn with nothing else,
// `seen3d` those still his in the whole scene, `seen` those of them no overlay of the page covers,
// `share` = seen / alone (unoccluded share), `head` the same share of the top 15 % of his drawn rows,
// `covered` the share of him under an overlay and `by` which,
// `bbox` his pixels' box and `height` its height as a fraction of the view, `standing` a 1.6 m standing
// figure at his feet as a fraction of the view (what frame_rules.min_height is stated in), `inFrame` his
// whole figure inside the view (drawn alone, it touches no edge).
// Not loaded by the pages: a test or a bench imports it (the app serves it as /xsl/framecheck.js).
import * as THREE from './vendor/three.module.js';

const FIGURE_M = 1.6;      // the standing figure frame_rules.min_height is stated for (frame_rules.FIGURE_M)
const HEAD = 0.15;         // the top of a figure's drawn rows taken for his head (a 1.6 m man's head is ~0.23 m)
const mats = new Map();    // the flat id colours, shared between calls

function idMaterial(k) {
  let m = mats.get(k);
  if (!m) {
    // the colour's bytes are the id: set in the working (linear) space, and a render target is written
    // linear, so k comes back exactly
    m = new THREE.MeshBasicMaterial();
    m.color.setRGB((k & 255) / 255, ((k >> 8) & 255) / 255, 0, THREE.LinearSRGBColorSpace);
    mats.set(k, m);
  }
  return m;
}

function proxy(mesh, k) {
  mesh.updateMatrixWorld(true);
  const q = new THREE.Mesh(mesh.geometry, idMaterial(k));
  q.matrixAutoUpdate = false;
  q.matrix.copy(mesh.matrixWorld);
  q.frustumCulled = false;
  return q;
}

// What the page lays over the picture: every visible element over the canvas that paints something (a
// background, a border, an image or control, or text of its own), as rects in the canvas's CSS pixels.
// The canvas's own ancestors are the page it sits in, not over it.
function paints(el, cs) {
  if (/^(IMG|SVG|BUTTON|INPUT|SELECT|TEXTAREA|VIDEO|CANVAS|svg)$/.test(el.tagName)) return true;
  const bg = cs.backgroundColor;
  if (bg && bg !== 'transparent' && !/rgba\([^)]*,\s*0\)$/.test(bg)) return true;
  if (cs.backgroundImage && cs.backgroundImage !== 'none') return true;
  for (const s of ['Top', 'Right', 'Bottom', 'Left']) if (parseFloat(cs[`border${s}Width`]) > 0) return true;
  for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) return true;
  return false;
}

export function overlays(player) {
  const canvas = player.renderer.domElement;
  const c = canvas.getBoundingClientRect();
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el === canvas || el.contains(canvas)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= c.left || r.left >= c.right || r.bottom <= c.top || r.top >= c.bottom) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility !== 'visible' || Number(cs.opacity) === 0) continue;
    if (!paints(el, cs)) continue;
    let what = el.id ? `#${el.id}` : el.classList.length ? `.${el.classList[0]}` : el.tagName.toLowerCase();
    if (el.classList.contains('xsl-label')) what = `label:${el.textContent.trim().slice(0, 8)}`;
    out.push({ what, x0: r.left - c.left, y0: r.top - c.top, x1: r.right - c.left, y1: r.bottom - c.top });
  }
  return out;
}

// the people acting at the player's moment: the current step's who, those drawn
function acting(p) {
  const st = p._stepIdx >= 0 ? p.steps[p._stepIdx] : null;
  return { step: st, who: st ? (st.who || []).filter((a) => p.actorById.get(a) && p.actorById.get(a).shown) : [] };
}

export function measure(p, opts = {}) {
  const canvas = p.renderer.domElement;
  const W = Math.max(1, Math.round(canvas.clientWidth * (opts.scale || 1)));
  const H = Math.max(1, Math.round(canvas.clientHeight * (opts.scale || 1)));
  const kx = W / Math.max(1, canvas.clientWidth), ky = H / Math.max(1, canvas.clientHeight);
  if (p._poseDirty) p._applyPose();
  const { step, who: stepWho } = acting(p);
  const who = opts.who || stepWho;
  // the id scene: the people coloured 1…n, the rest black
  const scene = new THREE.Scene();
  const ids = new Map();
  p.actors.forEach((A, i) => {
    if (!A.shown || !A.cur) return;
    const q = proxy(A.cur, i + 1);
    ids.set(A.id, { k: i + 1, q, A });
    scene.add(q);
  });
  const L = p.layers || {};
  for (const m of [L.main, L.roof_south, L.roof_north]) {
    if (m && m.visible && m.material !== p.matRoofGhost) scene.add(proxy(m, 0));   // a see-through roof hides no one
  }
  for (const O of p.objects || []) if (O.shown && O.cur) scene.add(proxy(O.cur, 0));
  if (p.houRope && p.houRope.cur) scene.add(proxy(p.houRope.cur, 0));

  const r = p.renderer, cam = p.cam;
  const rt = new THREE.WebGLRenderTarget(W, H, { minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter,
    generateMipmaps: false, depthBuffer: true });
  const prev = { rt: r.getRenderTarget(), auto: r.autoClear, clear: r.getClearColor(new THREE.Color()),
    alpha: r.getClearAlpha(), mask: cam.layers.mask };
  const buf = new Uint8Array(W * H * 4);
  const draw = () => {
    r.setRenderTarget(rt);
    r.clear(true, true, true);
    r.render(scene, cam);
    r.readRenderTargetPixels(rt, 0, 0, W, H, buf);
    const id = new Uint16Array(W * H);
    for (let y = 0; y < H; y++) {                    // GL rows go up; the page's go down
      const src = (H - 1 - y) * W * 4, dst = y * W;
      for (let x = 0; x < W; x++) id[dst + x] = buf[src + 4 * x] | (buf[src + 4 * x + 1] << 8);
    }
    return id;
  };
  let full, alone;
  try {
    r.setClearColor(0x000000, 1);
    r.autoClear = false;
    cam.layers.set(0);
    full = draw();
    alone = new Map();
    for (const a of who) {
      const e = ids.get(a);
      if (!e) continue;
      for (const c of scene.children) c.visible = c === e.q;
      alone.set(a, draw());
    }
  } finally {
    for (const c of scene.children) c.visible = true;
    r.setRenderTarget(prev.rt);
    r.setClearColor(prev.clear, prev.alpha);
    r.autoClear = prev.auto;
    cam.layers.mask = prev.mask;
    rt.dispose();
    p.requestRedraw();
  }

  // the overlays as a mask (which overlay: its index + 1, the first that covers a pixel)
  const over = overlays(p);
  const mask = new Uint16Array(W * H);
  over.forEach((o, i) => {
    const x0 = Math.max(0, Math.floor(o.x0 * kx)), x1 = Math.min(W, Math.ceil(o.x1 * kx));
    const y0 = Math.max(0, Math.floor(o.y0 * ky)), y1 = Math.min(H, Math.ceil(o.y1 * ky));
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (!mask[y * W + x]) mask[y * W + x] = i + 1;
  });

  const v = new THREE.Vector3();
  const ndcY = (x, y, z) => { v.set(x, y, z).project(cam); return v; };
  const people = [];
  for (const a of who) {
    const e = ids.get(a), solo = alone.get(a);
    if (!e || !solo) { people.push({ id: a, drawn: false }); continue; }
    const k = e.k;
    let n = 0, seen3d = 0, seen = 0, byThings = 0;
    let bx0 = W, by0 = H, bx1 = -1, by1 = -1;
    const by = new Map();
    for (let i = 0; i < W * H; i++) {
      if (solo[i] !== k) continue;
      n++;
      const x = i % W, y = (i - x) / W;
      if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; if (y < by0) by0 = y; if (y > by1) by1 = y;
      if (full[i] !== k) { if (!full[i]) byThings++; continue; }
      seen3d++;
      if (mask[i]) { const w = over[mask[i] - 1].what; by.set(w, (by.get(w) || 0) + 1); } else seen++;
    }
    // his head: the top HEAD of his figure's rows drawn alone (standing, kneeling or bowed, the head is on top),
    // and the share of it seen (issue 42: heads unoccluded)
    let hn = 0, hs = 0;
    if (n) {
      const yh = by0 + Math.max(1, Math.round(HEAD * (by1 + 1 - by0)));
      for (let y = by0; y < yh; y++) {
        for (let x = bx0, i = y * W + bx0; x <= bx1; x++, i++) {
          if (solo[i] !== k) continue;
          hn++;
          if (full[i] === k && !mask[i]) hs++;
        }
      }
    }
    const A = e.A;
    const foot = ndcY(A.xyzh[0], A.xyzh[1], A.xyzh[2]).y;
    const head = ndcY(A.xyzh[0], A.xyzh[1], A.xyzh[2] + FIGURE_M).y;
    people.push({
      id: a, drawn: true, alone: n, seen3d, seen,
      share: n ? seen / n : 0, head: hn ? hs / hn : 0, hidden3d: n ? 1 - seen3d / n : 1, covered: n ? (seen3d - seen) / n : 0,
      // of the hidden part, what the hall, the ground and the things hide (the rest: other people)
      hiddenByThings: n ? byThings / n : 0,
      by: Object.fromEntries(by),
      bbox: n ? [bx0 / kx, by0 / ky, (bx1 + 1) / kx, (by1 + 1) / ky] : null,
      height: n ? (by1 + 1 - by0) / H : 0,
      standing: Math.abs(head - foot) / 2,
      inFrame: n > 0 && bx0 > 0 && by0 > 0 && bx1 < W - 1 && by1 < H - 1,
    });
  }
  let picture;
  if (opts.picture) {                  // the id buffer as an image (people in their colours ×40, the rest black)
    const cv = document.createElement('canvas');
    cv.width = W; cv.height = H;
    const g = cv.getContext('2d'), img = g.createImageData(W, H);
    for (let i = 0; i < W * H; i++) {
      const k = full[i];
      img.data[4 * i] = (k * 40) & 255; img.data[4 * i + 1] = (k * 90) & 255; img.data[4 * i + 2] = mask[i] ? 120 : 0;
      img.data[4 * i + 3] = 255;
    }
    g.putImageData(img, 0, 0);
    picture = cv.toDataURL('image/png');
  }
  return {
    t: p.t, size: [W, H], view: p.view, picture,
    step: step ? { section: step.section, index: step.index, phrase: step.phrase, start: step.start, end: step.end } : null,
    who, people, overlays: over.map((o) => o.what),
  };
}

// The director's shot at the middle of each of `steps` ([{t, who, key}], the caller's list): the moment
// set, a frame drawn (the director's camera, the labels, the caption of that moment), then measured; only
// the figures (no overlays list) come back, per step.
export async function sweep(p, steps, opts = {}) {
  const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
  const out = [];
  p.pause();
  for (const s of steps) {
    p.setTime(s.t);
    await frame(); await frame();
    const m = measure(p, Object.assign({}, opts, s.who ? { who: s.who } : {}));
    out.push({ key: s.key, t: m.t, view: m.view, people: m.people.map((x) => ({ id: x.id, drawn: x.drawn, alone: x.alone,
      share: x.share, head: x.head, hidden3d: x.hidden3d, hiddenByThings: x.hiddenByThings, covered: x.covered, by: x.by, height: x.height, standing: x.standing,
      inFrame: x.inFrame })) });
  }
  return out;
}

window.__frameCheck = measure;
