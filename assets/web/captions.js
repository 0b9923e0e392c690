// The caption line under the view: a player extension (player.use(captions())).
//
// The phrase being acted (繁, or 简 with lang 'simp'), and under it the seed's modern sentence for it, verbatim
// (the pack's captions.seed, PACK.md), on a dark band (white on 80 % black: contrast ≥ 7:1 over any picture),
// at least 4.5 % of the view's height.  The band is also the 3D view's live text alternative: an aria-live
// region saying the stage, the phrase and who is doing it.  Key T turns it on and off.
const FONT = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', 'Noto Sans CJK SC', sans-serif";

export function captions(opts = {}) {
  return {
    on: opts.on !== false, lang: opts.lang || 'trad', player: null, seed: [], names: {}, _key: null,
    attach(p) {
      this.player = p;
      const band = document.createElement('div');
      band.className = 'xsl-caption';
      band.setAttribute('role', 'status');
      band.setAttribute('aria-live', 'polite');
      Object.assign(band.style, { position: 'absolute', left: '50%', transform: 'translateX(-50%)', bottom: '48px',
        zIndex: 18, maxWidth: '96%', textAlign: 'center', pointerEvents: 'none', color: '#ffffff',
        background: 'rgba(0, 0, 0, 0.8)', padding: '0.1em 0.6em', borderRadius: '6px',
        font: `600 20px ${FONT}`, display: 'none' });
      this.phrase = document.createElement('div');
      this.sentence = document.createElement('div');
      Object.assign(this.sentence.style, { fontSize: '0.62em', fontWeight: '400' });
      this.who = document.createElement('span');       // for screen readers only
      Object.assign(this.who.style, { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' });
      band.append(this.phrase, this.sentence, this.who);
      if (getComputedStyle(p.container).position === 'static') p.container.style.position = 'relative';
      p.container.append(band);
      this.band = band;
    },
    onPack(m) {
      this.seed = (m.captions && m.captions.seed) || [];
      this.notes = (m.captions && m.captions.notes) || [];
      this.texts = m.texts || {};
      this.names = Object.fromEntries((m.actors || []).map((a) => [a.id, a.name]));
      this._key = null;
    },
    onFrame() {
      const p = this.player;
      const ch = p.container.clientHeight;
      if (ch !== this._h) { this._h = ch; this.band.style.fontSize = `${Math.max(16, Math.ceil(0.047 * ch))}px`; }
      const s = p.state();
      const i = s.stepIndex;
      const key = `${this.on}|${i}|${this.lang}`;
      if (key === this._key) return false;
      this._key = key;
      const step = i >= 0 ? p.steps[i] : null;
      this.band.style.display = this.on && step ? '' : 'none';
      if (!step) return false;
      // 简: the same place of the simplified 經 (OpenCC t2s keeps the length)
      const js = (this.texts[String(step.section)] || {}).jing_s;
      const zh = this.lang === 'simp' && js && step.offset >= 0 ? js.substr(step.offset, step.phrase.length) : step.phrase;
      this._phrase(zh, step, this.notes[i] || []);
      this.sentence.textContent = this.seed[i] || '';
      this.sentence.lang = 'zh-Hans';
      const st = p.stages.find((x) => x.n === step.section);
      const who = (step.who || []).map((a) => this.names[a] || a).join('、');
      this.who.textContent = `${st ? `§${st.n} ${st.title}：` : ''}${who}${who ? ' — ' : ''}${step.do || ''}`;
      return false;
    },
    onKey(ev) {
      if (ev.key === 's' || ev.key === 'S') { this.on = !this.on; this._key = null; return true; }
      return false;
    },
    // the phrase with the seed's terms as buttons: a click opens the note
    _phrase(zh, step, notes) {
      const el = this.phrase;
      el.textContent = '';
      const marks = [];
      for (const [term, n] of notes) {
        const k = step.phrase.indexOf(term);
        if (k >= 0 && !marks.some((m) => k < m.k + m.len && m.k < k + term.length)) marks.push({ k, len: term.length, n });
      }
      marks.sort((a, b) => a.k - b.k);
      let at = 0;
      for (const m of marks) {
        if (m.k > at) el.append(zh.slice(at, m.k));
        const b = document.createElement('button');
        b.type = 'button'; b.className = 'xsl-term'; b.textContent = zh.slice(m.k, m.k + m.len);
        b.title = '注釋 (the seed\'s note)';
        Object.assign(b.style, { font: 'inherit', color: '#ffe08a', background: 'none', border: 'none',
          borderBottom: '2px dotted #ffe08a', padding: '0', cursor: 'pointer', pointerEvents: 'auto' });
        b.addEventListener('click', (ev) => { ev.stopPropagation(); this.openNote(step.section, m.n); });
        el.append(b);
        at = m.k + m.len;
      }
      el.append(zh.slice(at));
    },
    openNote(section, n) {
      const t = (this.player.pack.texts || {})[String(section)] || {};
      const note = (t.seed || []).find((x) => x.n === n);
      if (!note) return null;
      if (!this.pop) {
        this.pop = document.createElement('div');
        this.pop.className = 'xsl-note';
        this.pop.setAttribute('role', 'dialog');
        Object.assign(this.pop.style, { position: 'absolute', left: '50%', transform: 'translateX(-50%)', bottom: '150px',
          zIndex: 21, maxWidth: '70%', background: '#fffdf6', color: '#1a1a1a', border: '1px solid #555',
          borderRadius: '6px', padding: '0.5em 0.8em', font: `max(16px, 2.6vh) ${FONT}`, cursor: 'pointer' });
        this.pop.addEventListener('click', () => { this.pop.style.display = 'none'; });
        this.player.container.append(this.pop);
      }
      this.pop.textContent = `（${n}） ${this.lang === 'simp' ? note.text_s : note.text}`;
      this.pop.style.display = '';
      return this.pop.textContent;
    },
    setLang(l) { this.lang = l === 'simp' ? 'simp' : 'trad'; this._key = null; },
    dispose() { this.band.remove(); },
  };
}
