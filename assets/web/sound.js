// Sound (key M, and the 聲 button): a player extension (player.use(sound())).
//
// Plays the pack's `sounds` (PACK.md; computed from the compiled rite by scene/web/pack/sounds.py): the 騶虞's
// drum in round 3, the 獲 call at 宮 and 商 with the 旌, the 獲者's 諾聲不絕, the 陔 as the 賓 leaves — all
// synthesised here with WebAudio (nothing is fetched, no recordings).  Off until the user turns it on: no
// AudioContext exists before that gesture (browsers' autoplay rule, and a classroom's).  While the rite plays,
// the cues of the next fraction of a second are scheduled against the playback time and speed; pausing stops
// what sounds; a jump in time (seek, stage, step) starts afresh from the new moment: the past is not replayed
// (a held 諾 under way is picked up where it is).
import { showPressed, toggleButton } from './toggle.js';

const AHEAD_S = 0.25;       // real seconds scheduled ahead of the playback
const JUMP_S = 0.35;        // a time step this far from what playing explains is a jump
const SUSTAINED_S = 1.5;    // a cue at least this long (the held 諾) is picked up when a jump lands inside it
const LOG_MAX = 2000;

export function sound(opts = {}) {
  const ext = {
    on: false, ctx: null, master: null, player: null, button: null,
    cues: [], kinds: {}, _next: 0, _lastT: null, _running: false, _speed: 1, _live: [],
    log: [],                // what was scheduled: {t, kind, at (AudioContext seconds), speed} — read by the tests
    attach(p) {
      this.player = p;
      const b = toggleButton(p.container, { className: 'xsl-sound', text: '聲 (M)', top: '44px',
        title: 'Sound: the drum, the 獲 calls, the 諾, the 陔 (key M)', style: opts.buttonStyle,
        onClick: () => this.set(!this.on) });
      this.button = b;
      this._show();
    },
    onPack(m) {
      const s = m.sounds || {};
      this.cues = s.cues || [];
      this.kinds = s.kinds || {};
      this._stopAll();
      this._running = false;
      this._show();
    },
    onKey(ev) {
      if ((ev.key === 'm' || ev.key === 'M') && !ev.shiftKey) { this.set(!this.on); return true; }
      return false;
    },
    // on/off; the first 'on' (a user's key or click) makes the AudioContext
    set(on) {
      this.on = !!on;
      if (this.on) {
        if (!this.ctx) {
          const AC = window.AudioContext || window.webkitAudioContext;
          if (!AC) { this.on = false; this._show(); return false; }
          this.ctx = new AC();
          this.master = this.ctx.createGain();
          this.master.gain.value = opts.volume ?? 0.6;
          this.master.connect(this.ctx.destination);
        }
        if (this.ctx.state === 'suspended') this.ctx.resume().catch(() => {});
      } else {
        this._stopAll();
      }
      this._running = false;       // (re)start from the present moment on the next frame
      this._show();
      return true;
    },
    _show() {
      const b = this.button;
      if (!b) return;
      b.style.display = this.cues.length ? '' : 'none';
      showPressed(b, this.on);
    },
    onFrame(T, now, dt) {
      const p = this.player;
      if (!this.on || !this.ctx || !this.cues.length) return false;
      this._live = this._live.filter((x) => x.end > this.ctx.currentTime);
      if (!p.playing) {                               // pause stops the sound
        if (this._running) { this._stopAll(); this._running = false; }
        this._lastT = T;
        return false;
      }
      const expected = this._lastT === null ? T : this._lastT + dt * p.speed;
      if (!this._running || p.speed !== this._speed || Math.abs(T - expected) > JUMP_S + 0.05 * p.speed) {
        this._restart(T);
      }
      this._lastT = T;
      const until = T + AHEAD_S * p.speed;
      const c0 = this.ctx.currentTime;
      while (this._next < this.cues.length && this.cues[this._next].t < until) {
        const c = this.cues[this._next++];
        this._play(c, c0 + Math.max(0, (c.t - T) / p.speed), c.dur / p.speed);
      }
      return false;
    },
    // from the moment T: the cues at or after it, and a held one under way
    _restart(T) {
      this._stopAll();
      this._running = true;
      this._speed = this.player.speed;
      let lo = 0, hi = this.cues.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (this.cues[mid].t < T) lo = mid + 1; else hi = mid; }
      this._next = lo;
      const c0 = this.ctx.currentTime;
      for (let k = lo - 1; k >= 0 && k >= lo - 40; k--) {
        const c = this.cues[k];
        if (c.dur >= SUSTAINED_S && c.t + c.dur > T) this._play(c, c0, (c.t + c.dur - T) / this._speed, true);
      }
    },
    _stopAll() {
      for (const x of this._live) { try { x.stop(); } catch (e) { /* already stopped */ } }
      this._live = [];
    },
    activeCount() { return this.ctx ? this._live.filter((x) => x.end > this.ctx.currentTime).length : 0; },
    _play(c, at, dur, resumed = false) {
      if (this.log.length >= LOG_MAX) this.log.shift();
      this.log.push({ t: c.t, kind: c.kind, at, speed: this._speed, resumed });
      if (c.kind === 'drum') this._drum(at, c.accent ? 1.0 : 0.7, 118, 0.6);
      else if (c.kind === 'gai') this._drum(at, c.accent ? 0.9 : 0.6, 92, 0.75);
      else if (c.kind === 'huo_gong') this._voice(at, Math.max(0.35, dur), c.hz, 0.94, 0.9);
      else if (c.kind === 'huo_shang') this._voice(at, Math.max(0.35, dur), c.hz, 1.06, 0.9);
      else if (c.kind === 'nuo') this._voice(at, dur, c.hz, 1.0, 0.45, true, resumed);
    },
    _track(nodes, end) {
      const x = { end, stop: () => { for (const n of nodes) { try { n.stop(); } catch (e) { /* not started */ } } } };
      this._live.push(x);
    },
    // a drum (鼓): a membrane's falling thump and the stick's short noise
    _drum(at, level, hz, len) {
      const ctx = this.ctx;
      const o = ctx.createOscillator();
      o.type = 'sine';
      o.frequency.setValueAtTime(hz, at);
      o.frequency.exponentialRampToValueAtTime(hz * 0.45, at + 0.3);
      const g = ctx.createGain();
      g.gain.setValueAtTime(0.0001, at);
      g.gain.exponentialRampToValueAtTime(level, at + 0.006);
      g.gain.exponentialRampToValueAtTime(0.0008, at + len);
      o.connect(g).connect(this.master);
      const n = ctx.createBufferSource();
      n.buffer = this._noise();
      const f = ctx.createBiquadFilter();
      f.type = 'lowpass'; f.frequency.value = 900;
      const ng = ctx.createGain();
      ng.gain.setValueAtTime(level * 0.35, at);
      ng.gain.exponentialRampToValueAtTime(0.0008, at + 0.09);
      n.connect(f).connect(ng).connect(this.master);
      o.start(at); o.stop(at + len + 0.05);
      n.start(at); n.stop(at + 0.12);
      this._track([o, n], at + len + 0.05);
    },
    // a voice: a buzz through the formants of 'o' (獲 huò, 諾 nuò), gliding onto its pitch
    _voice(at, len, hz, from, level, held = false, resumed = false) {
      const ctx = this.ctx;
      const o = ctx.createOscillator();
      o.type = 'sawtooth';
      o.frequency.setValueAtTime(hz * (resumed ? 1 : from), at);
      o.frequency.exponentialRampToValueAtTime(hz, at + Math.min(0.18, len / 3));
      let lfo = null;
      if (held) {                                       // a held voice wavers a little
        lfo = ctx.createOscillator();
        lfo.frequency.value = 5.2;
        const lg = ctx.createGain();
        lg.gain.value = hz * 0.012;
        lfo.connect(lg).connect(o.frequency);
      }
      const out = ctx.createGain();
      out.gain.setValueAtTime(0.0001, at);
      out.gain.exponentialRampToValueAtTime(level, at + (resumed ? 0.05 : 0.04));
      out.gain.setValueAtTime(level, at + Math.max(0.05, len - 0.12));
      out.gain.exponentialRampToValueAtTime(0.0008, at + len);
      for (const [fq, q, k] of [[520, 6, 1.0], [880, 7, 0.55], [2600, 8, 0.12]]) {
        const f = ctx.createBiquadFilter();
        f.type = 'bandpass'; f.frequency.value = fq; f.Q.value = q;
        const g = ctx.createGain();
        g.gain.value = k;
        o.connect(f).connect(g).connect(out);
      }
      out.connect(this.master);
      o.start(at); o.stop(at + len + 0.02);
      if (lfo) { lfo.start(at); lfo.stop(at + len + 0.02); }
      this._track(lfo ? [o, lfo] : [o], at + len + 0.02);
    },
    _noise() {
      if (this._nb) return this._nb;
      const n = Math.floor(this.ctx.sampleRate * 0.15);
      const b = this.ctx.createBuffer(1, n, this.ctx.sampleRate);
      const d = b.getChannelData(0);
      let s = 12345;                                   // a fixed noise (deterministic, no Math.random)
      for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) & 0x7fffffff; d[i] = s / 0x3fffffff - 1; }
      this._nb = b;
      return b;
    },
    dispose() {
      this._stopAll();
      if (this.button) this.button.remove();
      if (this.ctx) this.ctx.close().catch(() => {});
    },
  };
  return ext;
}
