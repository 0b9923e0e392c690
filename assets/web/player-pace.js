// The frame loop's pace (player.js): at the display's rate while anything changes, at REST_POLL_MS when
// nothing has for REST_AFTER_MS, and awake again in the same moment something asks for a frame.
// Methods of the Player (player.js copies them onto Player.prototype, as the other player-*.js modules).
//
// Why: a page standing still — a paused lesson on the projector, a tab behind others, the class between
// two stops — asked for an animation frame 60 times a second only to find nothing to draw.  On llvmpipe
// that alone kept 0.13–0.15 of a core of Chromium busy per page (measured: 0.01 with the loop stopped);
// a school laptop runs the page for the whole 45 minutes.  Resting, the loop still looks 4 times a second,
// because some extensions notice a change by looking (caption-place.js reads the page's boxes, captions.js
// and lessons.js the view's height): they see it within REST_POLL_MS, and whatever they change wakes it.
//
// What wakes it: anything that sets `_dirty` (every setter of time, view, camera, toggles, a resize, a
// pack, an extension's use(), `_nextFrame()`), so no caller has to know the loop can rest.

export const REST_AFTER_MS = 1000;   // a second without a drawn frame: the page is standing still
export const REST_POLL_MS = 250;     // resting, look this often (a change seen within a quarter second)

export class Pace {
  get _dirty() { return this.__dirty; }

  set _dirty(v) {
    this.__dirty = v;
    if (v && this._resting) this._wake();
  }

  // something to draw: the next frame draws (and a resting loop wakes) — the way every part and extension asks
  requestRedraw() { this._dirty = true; }

  // the frame loop drew what was asked
  _drawnFrame() { this._dirty = false; }

  _initPace() { this._lastNow = 0; }

  // the loop started (once, by the constructor); its callback is not _frame itself: no method is replaced on
  // the instance
  _startLoop() {
    this._tick = (now) => this._frame(now);
    this._raf = requestAnimationFrame(this._tick);
  }

  // the seconds since the last turn (0 after a rest or a play's start), at most a quarter second
  _clock(now) {
    const dt = this._lastNow ? Math.min(0.25, Math.max(0, (now - this._lastNow) / 1000)) : 0;
    this._lastNow = now;
    return dt;
  }

  // the next turn's dt is 0 (the time before it was not play time)
  _restartClock() { this._lastNow = 0; }

  // out of rest now: the next animation frame runs the loop; its dt is 0 (the rest was not play time)
  _wake() {
    clearTimeout(this._resting);
    this._resting = 0;
    this._lastNow = 0;
    this._raf = requestAnimationFrame(this._tick);
  }

  // after each turn of the loop: the next one at the display's rate, or after REST_POLL_MS when nothing
  // was drawn, played or asked for since REST_AFTER_MS
  _pace(now, drew) {
    if (drew || this.playing || this.__dirty || this._afterRender.length) this._busyAt = now;
    if (!(now - (this._busyAt || 0) >= REST_AFTER_MS)) {
      this._raf = requestAnimationFrame(this._tick);
      return;
    }
    this._resting = setTimeout(() => {
      this._resting = 0;
      this._raf = requestAnimationFrame(this._tick);
    }, REST_POLL_MS);
  }

  _stopLoop() {
    cancelAnimationFrame(this._raf);
    clearTimeout(this._resting);
    this._resting = 0;
  }

  // is the loop resting now (the tests read it)
  get resting() { return !!this._resting; }

  // the frame rate over the last second, what the last frame drew, camera placements (a public API)
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
      batchLayouts: this.batch ? this.batch.layouts : 0, contactShadows: (this.contact ? this.contact.mesh.count : 0) + (this.contactRest ? this.contactRest.mesh.count : 0),
      tier: this.qualityInfo.tier, sunShadows: !!(this.high && !this.high.demoted),
      lastFrameAt: last, cameraPlacements: this._placements, turns: this._turns || 0 };
  }
}
