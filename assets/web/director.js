// The director's camera (view 'auto'): a player extension (player.use(director())).
//
// Plays the pack's `director` track (PACK.md; computed by scene/render/shots.py, so the app, the static
// site, the stills and the clips get the same shots).  On by default — from the rite's opening (an
// establishing shot) and through stage jumps; orbiting the view (or choosing a named view) leaves it; the 導演
// button or the key A returns to it.
import { showPressed, toggleButton } from './toggle.js';

function acc(buf, a) {
  const n = a.n * (a.c || 1);
  return a.t === 'u8' ? new Uint8Array(buf, a.o, n) : new Float32Array(buf, a.o, n);
}

export function director(opts = {}) {
  const ext = {
    on: opts.on !== false, track: null, player: null, button: null,
    // the player asks: the camera at T while the director holds it (the player's extension protocol, use() in
    // player.js — a stage jump, a resize, a view chosen: the player places this instead of a stage preset)
    viewName: 'auto',
    holdsCamera() { return this.on && !!this.track; },
    cameraAt(T) {
      if (!(this.on && this.track)) return null;
      this._lastT = T;
      return this.at(T);
    },
    // before the player changes its view to `name`: 'auto' is the director's own (on, if it has a track); a
    // named view turns it off first, so that the view's preset goes on the camera
    onView(name) {
      if (name === 'auto') return this.enable();
      this.on = false;
      this._show();
      return undefined;
    },
    attach(p) {
      this.player = p;
      const b = toggleButton(p.container, { className: 'xsl-director', text: '導演 (A)',
        title: "The director's camera: follows who acts (key A)",
        onClick: () => { if (this.on) this.disable(); else this.enable(); } });
      if (opts.button === false) b.hidden = true;        // the page has its own control (the app's view buttons)
      this.button = b;
      this._show();
    },
    onPack(m, buf) {
      const d = m.director;
      this.track = d ? { t: acc(buf, d.t), v: acc(buf, d.v), e: acc(buf, d.ease), title: d.title, hint: 0 } : null;
      this._show();
    },
    // the camera at T as a PACK.md Camera dict
    at(T) {
      const tr = this.track;
      if (!tr) return null;
      const ts = tr.t, n = ts.length;
      let k = tr.hint;
      if (!(k >= 0 && k < n && ts[k] <= T && (k + 1 >= n || ts[k + 1] > T))) {
        let lo = 0, hi = n - 1;
        if (T < ts[0]) hi = 0;
        while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (ts[mid] <= T) lo = mid; else hi = mid - 1; }
        k = lo;
      }
      tr.hint = k;
      const v = tr.v, o = k * 7;
      let c = Array.from(v.subarray(o, o + 7));
      if (k + 1 < n && tr.e[k + 1]) {
        let s = (T - ts[k]) / Math.max(1e-9, ts[k + 1] - ts[k]);
        s = Math.min(1, Math.max(0, s)); s = s * s * (3 - 2 * s);
        const w = v.subarray(o + 7, o + 14);
        c = c.map((x, i) => x * (1 - s) + w[i] * s);
      }
      return { position: c.slice(0, 3), focal_point: c.slice(3, 6), view_up: [0, 0, 1], view_angle: c[6],
        parallel: false, parallel_scale: 1.0, title: tr.title };
    },
    enable() {
      if (!this.track) return false;
      this.on = true;
      this._show();
      this.player.takeCamera();         // the player puts cameraAt(t) on (its view 'auto')
      return true;
    },
    disable() { this.on = false; this._show(); },
    _show() {
      if (!this.button) return;
      this.button.style.display = this.track && opts.button !== false ? '' : 'none';
      showPressed(this.button, this.on);
    },
    onFrame(T) {
      const p = this.player;
      if (!this.on || !this.track) return false;
      if (p.free) { this.disable(); return false; }     // the user orbited: leave the director
      // the same moment, and the camera still the one applied (a resize or enable() clears the key): nothing
      // to do — applying it again marks the frame dirty, and a page standing still redrew 60 times a second
      // (0.3 of a core of Chromium on llvmpipe, measured; caption-place.js's re-placing was the other 1.1)
      if (T === this._lastT && p.cameraPlaced()) return false;
      p.placeCamera();
      return false;
    },
    onKey(ev) {
      if ((ev.key === 'a' || ev.key === 'A') && !ev.shiftKey) { this.enable(); return true; }
      return false;
    },
    dispose() { if (this.button) this.button.remove(); },
  };
  return ext;
}
