// Playback and the toggles (player.js): time, play/pause, speed, stage and step navigation, the view,
// the roof mode, and the player's own keys.
// Methods of the Player (player.js), not a class of their own: player.js copies them onto
// Player.prototype, so `this` is the player in every one of them (as when they were one 1 670-line class).
import { lastLE } from './player-tracks.js';

const ROOF_MODES = ['cutaway', 'solid', 'ghost', 'none'];

export class Playback {
  _initPlayback() {
    this.t = 0;
    this.playing = false;
    this.speed = 1;
    this.view = 'overview';
    this.userView = false;     // the user chose a view (gotoStage keeps it)
    this.roof = 'cutaway';
  }

  // a frame's play: t moves on dt seconds at the speed, and stops at the end
  _advance(dt) {
    this.t += dt * this.speed;
    if (this.t >= this.duration) { this.t = this.duration; this.pause(); }
    this.invalidatePose();
  }

  _touch() { this.requestRedraw(); }

  setTime(t) {
    if (!this.pack) return;
    const x = Number(t);
    if (!Number.isFinite(x)) return;
    this.t = Math.min(Math.max(0, x), this.duration);
    this.invalidatePose();
    this.requestRedraw();
    this._labelsAtOnce();       // a jump: the labels of the new moment in its first frame, even when thinned
  }

  play() {
    if (!this.pack) return;
    if (this.t >= this.duration) this.setTime(0);
    this.playing = true;
    this._restartClock();
    this.requestRedraw();
    this.signals.playingChanged.dispatch(true);
  }

  pause() {
    const was = this.playing;
    this.playing = false;
    this.requestRedraw();
    if (was) this.signals.playingChanged.dispatch(false);
  }

  togglePlay() { if (this.playing) this.pause(); else this.play(); }

  setSpeed(x) {
    const s = Number(x);
    if (!Number.isFinite(s)) return;
    this.speed = Math.min(8, Math.max(0.5, s));
    this.requestRedraw();
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
    this._enterStage(i);
    if (!this.userView && !this._holder()) this._setView('overview');
    this._cameraForStage(true);
    this.signals.stageChanged.dispatch(this.stages[i]);
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

  // the view (one writer of `view`); announced
  _setView(name) {
    if (this.view === name) return;
    this.view = name;
    this.signals.viewChanged.dispatch(name);
  }

  setView(name) {
    if (!this.pack) return false;
    // a view an extension owns (the director's 'auto'): its to put on
    const owner = this.extensions.find((x) => x.viewName === name && x.onView);
    if (owner) return !!owner.onView(name);
    if (!this.viewOrder.includes(name)) {
      const by = this.views.by_stage || {};
      const any = Object.values(by)[0] || {};
      if (!(name in any)) return false;
    }
    for (const x of this.extensions) if (x.onView) x.onView(name);     // (the director lets go of the camera)
    this._setView(name);
    this.userView = true;
    this._cameraForStage(true);
    return true;
  }

  setRoof(mode) {
    if (!ROOF_MODES.includes(mode)) return false;
    this.roof = mode;
    this._applyRoof();
    this.requestRedraw();
    return true;
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
}
