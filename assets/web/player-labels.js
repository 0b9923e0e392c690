// The name labels over the people's heads, the place labels and the dimension labels (player.js): one
// HTML overlay, placed every frame from the 3D anchors (a figure's label_z in the pack: over the head in
// every posture), greedy by priority so that no label covers a more important one.
// Methods of the Player (player.js), not a class of their own: player.js copies them onto
// Player.prototype, so `this` is the player in every one of them (as when they were one 1 670-line class).
import * as THREE from './vendor/three.module.js';
import { actingBoxes } from './caption-place.js';

const NONE = [];
const ACTING = { all: true, pad: 4 };   // every step under way, 4 px round each figure

export class Labels {
  _initLabels() { this.labelsOn = true; this.dimsOn = false; }

  _removeLabels() {
    for (const L of this._labels || []) L.el.remove();
    this._labels = [];
  }

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
    this.requestRedraw();
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

  // Where labels may not go (issue 27): the boxes of the page's elements drawn over the view (its toolbar, the
  // caption bands) in the container's CSS px, read before any label is moved (one layout read a frame).  The
  // page names them: player.labelAvoid = [element, …] or a function returning such a list.
  _labelObstacles() {
    const out = this._obstacles || (this._obstacles = []);
    out.length = 0;
    const list = typeof this.labelAvoid === 'function' ? this.labelAvoid() : this.labelAvoid;
    if (!list || !list.length || this._labelRules.avoid === false) return out;
    const c = this.container.getBoundingClientRect();
    for (const el of list) {
      if (!el || !el.getBoundingClientRect) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;              // hidden (display: none, classroom mode …)
      out.push(r.left - c.left, r.top - c.top, r.right - c.left, r.bottom - c.top);
    }
    return out;
  }

  _updateLabels() {
    if (!this.labelsOn || !this._labels) return;
    // the names' size follows the view's height (player.js's style; larger in classroom mode): a new size is a
    // new measure of every label
    const fs = getComputedStyle(this.overlay).fontSize;
    if (fs !== this._labelFs) { this._labelFs = fs; this._remeasure = true; }
    if (this._remeasure) this._measureLabels();
    const rules = this._labelRules || (this._labelRules = { avoid: true, apart: true, people: true });
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
    // greedy by priority (the acting people's names first: _updateActorLabelTexts): a label that would cover
    // a more important one, or lie under the page's toolbar, is moved up over the head it names (a person's
    // name one or two rows higher, still above him) or else stays hidden
    cand.sort((a, b) => b.prio - a.prio || a.sy - b.sy);
    const obstacles = this._labelObstacles();
    // nor over the people the step names (issue 27: 弟子 一/二's names lay over the acting pair of §27): their
    // figures' boxes in the view, as the caption bands keep clear of them (caption-place.js)
    // (a man's own name stands over his head: his own box does not count against it)
    const actIds = this._actIds || (this._actIds = []);
    const acting = rules.people === false ? NONE : actingBoxes(this, this._actBoxes || (this._actBoxes = []), actIds, ACTING);
    const boxes = this._boxes || (this._boxes = []);
    boxes.length = 0;
    const hits = (arr, x0, y0, x1, y1, own = null) => {
      for (let k = 0; k < arr.length; k += 4) {
        if (own !== null && actIds[k / 4] === own) continue;
        if (x0 < arr[k + 2] && x1 > arr[k] && y0 < arr[k + 3] && y1 > arr[k + 1]) return true;
      }
      return false;
    };
    for (const L of cand) {
      const x0 = Math.round(L.sx - L.w / 2), x1 = x0 + L.w;
      const tries = L.kind === 'actor' ? 3 : 1;
      let y0 = 0, free = false;
      for (let k = 0; k < tries && !free; k++) {
        y0 = Math.round(L.sy - L.h - 3) - k * (L.h + 2);
        free = y0 >= 0 && !(rules.apart !== false && hits(boxes, x0, y0, x1, y0 + L.h)) && !hits(obstacles, x0, y0, x1, y0 + L.h)
          && !hits(acting, x0, y0, x1, y0 + L.h, L.kind === 'actor' ? L.id : '');
      }
      if (!free) continue;
      boxes.push(x0, y0, x1, y0 + L.h);
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

  // the frames between two placements on a thinned machine (adaptive.js: labels every 3rd frame): each shown
  // label moves by as much as its anchor moved on the screen, without the placement's collision tests —
  // a name left where the last placement put it lay over the walking archer it names (issue 27, §14 at
  // speed 4: 22 % of him under 上耦上射)
  _followLabels() {
    if (!this.labelsOn || !this._labels) return;
    const cam = this.cam, v = this._v, W = this._w, H = this._h;
    for (const L of this._labels) {
      if (!L.shown) continue;
      v.copy(L.anchor).applyMatrix4(cam.matrixWorldInverse);
      if (cam.isPerspectiveCamera && -v.z < cam.near) continue;
      v.applyMatrix4(cam.projectionMatrix);
      const sx = (v.x + 1) * 0.5 * W, sy = (1 - v.y) * 0.5 * H;
      const x = Math.round(L.x + sx - L.sx), y = Math.round(L.y + sy - L.sy);
      L.sx = sx; L.sy = sy;
      if (x !== L.x || y !== L.y) {
        L.x = x; L.y = y;
        L.el.style.transform = `translate3d(${x}px,${y}px,0)`;
      }
    }
  }

  _placeLabelsForView() {
    for (const L of this._labels || []) {
      if (L.kind === 'place') L.active = !L.views || L.views.includes(this.view);
    }
  }

  setLabels(on) {
    this.labelsOn = !!on;
    this.overlay.classList.toggle('off', !this.labelsOn);
    if (this.labelsOn) this._remeasure = true;
    this.requestRedraw();
  }

  setDims(on) {
    this.dimsOn = !!on;
    if (this.dimsGroup) this.dimsGroup.visible = this.dimsOn;
    for (const L of this._labels || []) if (L.kind === 'dim') L.active = this.dimsOn;
    this.requestRedraw();
  }

  // where a label is on the screen (tests, the page): {x, y, w, h, shown} in CSS px of the container
  labelBox(kind, id) {
    const L = (this._labels || []).find((l) => l.kind === kind && l.id === id);
    if (!L) return null;
    return { x: L.x, y: L.y, w: L.w, h: L.h, shown: L.shown, text: L.text };
  }

  // the names placed in this frame: every frame; while playing on a machine the adaptive ladder has thinned,
  // every 3rd (a jump — setTime — places them in its first frame: a stale label may not sit over the new
  // moment's people); in between, the shown names only moved with their anchors
  _placeLabelsInFrame() {
    if (!this.playing || this._labelsNow || this._frameCount % this.adaptive.labelsEvery() === 0) {
      this._updateLabels();
      this._labelsNow = false;
    } else this._followLabels();
  }

  // in the next frame, whatever the ladder's thinning
  _labelsAtOnce() { this._labelsNow = true; this.requestRedraw(); }

  // the names' size changed (a font arrived, the view's height, classroom mode): measured and placed again
  _remeasureLabels() { this._remeasure = true; this._labelsAtOnce(); }
}
