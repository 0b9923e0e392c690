// Adaptive playback (issue 25): hold the frame rate on a slow or busy machine by drawing fewer pixels.
//
// Why: on a school laptop without a GPU the browser draws through a software rasteriser (llvmpipe,
// SwiftShader) whose cost grows with the pixels drawn; one other busy program took a 2-core laptop from
// 59 to 23 fps at 1280×720.  A teacher does not tune settings in front of a class, so the player does it.
//
// How: while the player draws frame after frame (playing, or the camera moving), it keeps the intervals
// between drawn frames.  Every WINDOW frames it takes their mean (the frame rate a class sees, stalls
// included; a gap over GAP_MS is a pause, not a frame): over the budget (31 ms: 32 fps, a little margin
// over 30) it
// takes one step down the ladder — render scale 0.85, 0.7, 0.6, 0.5, then the extras (the contact
// shadows, then the labels placed every third frame instead of every frame); well under (≤ RAISE_MS) for
// RAISE_WINDOWS windows in a row it takes one step back up.  The picture is stretched to the same CSS size,
// so the layout, the labels and the picking do not move; only the sharpness changes.
//
// The 畫質 line shows describe(): the step it stands on and the mean that put it there.  `?adaptive=0`
// (the player option `adaptive: false`) turns it off; `budgetMs` sets another budget (tests use it).

// the player's options for it: `adaptive` (false: off) and `adaptiveBudgetMs`, else the page address's
// ?adaptive=0 / ?adaptive_budget=MS (so every page that makes a player honours them without its own code)
export function adaptiveOptions(opts = {}) {
  let q = null;
  try { q = new URLSearchParams(window.location.search); } catch (e) { q = null; }
  const off = opts.adaptive === false || (opts.adaptive === undefined && q && q.get('adaptive') === '0');
  let budget = Number(opts.adaptiveBudgetMs || (q && q.get('adaptive_budget')) || 31);
  if (!Number.isFinite(budget) || budget < 1 || budget > 1000) budget = 31;
  return { enabled: !off, budgetMs: budget };
}

export const SCALES = [1, 0.85, 0.7, 0.6, 0.5];
const WINDOW = 20;             // frames per decision: about a second at the rates in question
const RAISE_MS = 22;           // room to spare: a step up would likely stay under the budget
const RAISE_WINDOWS = 3;       // hold that long before raising: no flicker between two steps
const GAP_MS = 250;            // a longer gap is a pause (nothing to draw), not a slow frame

export class Adaptive {
  constructor(player, { budgetMs = 31, enabled = true } = {}) {
    this.player = player;
    this.budget = budgetMs;
    this.enabled = enabled;
    this.level = 0;            // 0 … SCALES.length - 1: render scales; then + 1 contact shadows off, + 2 labels thinned
    this.intervals = [];
    this.good = 0;
    this.lastDraw = 0;
    this.lastMean = null;
    this.changes = 0;
    this.base = player.renderScale;      // the scale the page asked for (?scale=): the ladder multiplies it
  }

  get maxLevel() { return SCALES.length + 1; }

  // called by the player after each drawn frame with the rAF timestamp
  onDrawn(now) {
    if (!this.enabled) return;
    const gap = this.lastDraw ? now - this.lastDraw : 0;
    this.lastDraw = now;
    // a long gap while nothing plays is a pause; while the rite plays every frame has something to draw, so a
    // long gap is a slow frame — ignored, frames over GAP_MS (under 4 fps) never stepped the ladder down
    // (issue 42: §21 at 8× stuck at 85 % and 3.6 fps on a loaded machine)
    if (!gap || (gap > GAP_MS && !(this.player.playing && gap < 4 * GAP_MS))) return;
    this.intervals.push(gap);
    if (this.intervals.length < WINDOW) return;
    const mean = this.intervals.reduce((a, b) => a + b, 0) / this.intervals.length;
    this.intervals.length = 0;
    this.lastMean = mean;
    if (mean > this.budget && this.level < this.maxLevel) {
      this.good = 0;
      this.setLevel(this.level + 1);
    } else if (mean <= RAISE_MS && this.level > 0) {
      if (++this.good >= RAISE_WINDOWS) { this.good = 0; this.setLevel(this.level - 1); }
    } else {
      this.good = 0;
    }
  }

  // the render scale this level draws at (× the page's own scale)
  scale() { return this.base * SCALES[Math.min(this.level, SCALES.length - 1)]; }
  contactOff() { return this.level >= SCALES.length; }
  labelsEvery() { return this.level >= SCALES.length + 1 ? 3 : 1; }

  setLevel(level) {
    const L = Math.max(0, Math.min(this.maxLevel, level));
    if (L === this.level) return;
    this.level = L;
    this.changes++;
    const p = this.player;
    p.setRenderScale(this.scale());
    if (p.contact) p.contact.mesh.visible = !this.contactOff();
    if (p.contactRest && p.contactRest.mesh.visible !== !this.contactOff()) {
      p.contactRest.mesh.visible = !this.contactOff();
      p.redrawStatic();
    }
    // the next window measures the new setting only
    this.intervals.length = 0;
    this.lastDraw = 0;
    if (p.onQuality) p.onQuality(this.describe());
  }

  describe() {
    if (!this.enabled) return 'adaptive off';
    const parts = [`render scale ${Math.round(this.scale() * 100)} %`];
    if (this.contactOff()) parts.push('contact shadows off');
    if (this.labelsEvery() > 1) parts.push('labels every 3rd frame');
    const m = this.lastMean === null ? 'not measured yet' : `mean frame ${this.lastMean.toFixed(0)} ms`;
    const goal = `goal ≤ ${this.budget.toFixed(0)} ms`;
    return `adaptive: ${parts.join(', ')} (${m}, ${goal}${this.changes ? `, ${this.changes} change${this.changes > 1 ? 's' : ''}` : ''})`;
  }
}
