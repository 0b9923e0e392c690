// Lessons (tours): a player extension (player.use(lessons({director}))).
//
// The pack's `lessons` (PACK.md; assets/lessons/*.toml through scene/web/lessons.py).  A picker over the
// view; with a lesson open PageDown / PageUp (what clickers send) go stop to stop: the moment, the camera
// (auto = the director's), the caption (繁 / 简 / English) under the view, read out by an aria-live region;
// a stop with `play` plays that many rite seconds and stops.  The teacher can add the current moment and
// camera as a stop, edit its caption, move it up or down, delete it, and save the lesson as TOML (or load
// one).  ?lesson=NAME opens a lesson at its first stop.
const FONT = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', 'Noto Sans CJK SC', sans-serif";

function el(tag, attrs = {}, text = '') {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

const q = (s) => JSON.stringify(String(s));
const vec = (v) => `[${v.map((x) => Number(x).toFixed(3)).join(', ')}]`;

// a lesson as TOML (absolute times: no stage), as scene/web/lessons.py reads it
export function lessonToml(L) {
  const out = [`title = ${q(L.title)}`];
  if (L.en) out.push(`en = ${q(L.en)}`);
  for (const s of L.stops) {
    out.push('', '[[stop]]', `t = ${Number(s.t).toFixed(3)}`);
    if (s.camera) out.push(`camera = { position = ${vec(s.camera.position)}, focal_point = ${vec(s.camera.focal_point)}, view_angle = ${Number(s.camera.view_angle).toFixed(2)} }`);
    else out.push(`view = ${q(s.view || 'auto')}`);
    out.push(`caption = ${q(s.caption || '')}`);
    if (s.en) out.push(`en = ${q(s.en)}`);
    if (s.play) out.push(`play = ${s.play}`, `speed = ${s.speed || 8}`);
  }
  return out.join('\n') + '\n';
}

export function lessons(opts = {}) {
  const ext = {
    list: [], lesson: null, i: -1, lang: opts.lang || 'trad', player: null, director: opts.director || null,
    playUntil: null,
    attach(p) {
      this.player = p;
      const box = el('div', { class: 'xsl-lessons' });
      Object.assign(box.style, { position: 'absolute', top: '8px', right: '110px', zIndex: 20, font: `14px ${FONT}`,
        display: 'flex', gap: '4px' }, opts.toolbarStyle || {});
      this.pick = el('select', { 'aria-label': 'Lesson 課' });
      this.pick.addEventListener('change', () => this.open(this.pick.value));
      this.tools = el('span');
      const btn = (label, title, fn) => {
        const b = el('button', { type: 'button', title }, label);
        b.addEventListener('click', fn);
        this.tools.append(b);
        return b;
      };
      btn('+站', 'Add the current moment and camera as a stop', () => this.addStop());
      btn('改', 'Edit the caption of this stop', () => this.editCaption());
      btn('↑', 'Move this stop earlier', () => this.move(-1));
      btn('↓', 'Move this stop later', () => this.move(1));
      btn('刪', 'Delete this stop', () => this.remove());
      btn('存', 'Save the lesson as TOML', () => this.save());
      const load = el('input', { type: 'file', accept: '.toml,.json', 'aria-label': 'Load a lesson file' });
      load.style.display = 'none';
      load.addEventListener('change', () => this._loadFile(load.files[0]));
      btn('開', 'Load a lesson file (JSON as the pack has it)', () => load.click());
      this.tools.append(load);
      box.append(this.pick, this.tools);
      this.box = box;
      // the caption under the view, and its live text for screen readers
      const cap = el('div', { class: 'xsl-lesson-caption', role: 'status', 'aria-live': 'polite' });
      // white on a 78 % black band: contrast ≥ 7:1 over any picture (white behind: 1.05 / (0.048 + 0.05))
      Object.assign(cap.style, { position: 'absolute', left: '50%', transform: 'translateX(-50%)', bottom: '150px',
        zIndex: 19, maxWidth: '96%', textAlign: 'center', pointerEvents: 'none', font: `600 20px ${FONT}`,
        color: '#ffffff', background: 'rgba(0, 0, 0, 0.78)', padding: '0.15em 0.6em', borderRadius: '6px',
        display: 'none' });
      this.cap = cap;
      if (getComputedStyle(p.container).position === 'static') p.container.style.position = 'relative';
      p.container.append(box, cap);
    },
    onPack(m) {
      this.list = (m.lessons || []).map((L) => JSON.parse(JSON.stringify(L)));
      this.pick.textContent = '';
      this.pick.append(el('option', { value: '' }, '課 —'));
      for (const L of this.list) this.pick.append(el('option', { value: L.name }, L.title));
      const want = new URLSearchParams(location.search).get('lesson');
      if (want && !this._started) {
        this._started = true;
        if (!this.open(want) && opts.onError) opts.onError(`lesson=${want}: no such lesson (${this.list.map((L) => L.name).join(', ')})`);
      }
      this._show();
    },
    open(name) {
      const L = this.list.find((x) => x.name === name);
      this.lesson = L || null;
      this.pick.value = L ? L.name : '';
      this.i = -1;
      if (L) this.go(0);
      this._show();
      return !!L;
    },
    go(i) {
      const L = this.lesson;
      if (!L || !L.stops.length) return;
      i = Math.max(0, Math.min(L.stops.length - 1, i));
      this.i = i;
      const s = L.stops[i], p = this.player;
      p.pause();
      p.setTime(s.t);
      if (s.camera) { if (this.director) this.director.disable(); p.applyCamera(s.camera); }
      else if (s.view === 'auto' && this.director) this.director.enable();
      else p.setView(s.view || 'overview');
      this.playUntil = null;
      if (s.play) { p.setSpeed ? p.setSpeed(s.speed || 8) : (p.speed = s.speed || 8); this.playUntil = s.t + s.play; p.play(); }
      this._show();
    },
    current() { return this.lesson && this.i >= 0 ? this.lesson.stops[this.i] : null; },
    addStop() {
      const p = this.player;
      if (!this.lesson) {
        this.lesson = { name: 'my_lesson', title: '新課', en: '', stops: [] };
        this.list.push(this.lesson);
        this.pick.append(el('option', { value: 'my_lesson' }, '新課'));
        this.pick.value = 'my_lesson';
      }
      const auto = this.director && this.director.on;
      const s = { t: Number(p.t.toFixed(3)), caption: p.state().phrase || '', caption_s: '' };
      if (auto) s.view = 'auto'; else if (p.free) s.camera = p.camera(); else s.view = p.view;
      this.lesson.stops.splice(this.i + 1, 0, s);
      this.i += 1;
      this._show();
      return s;
    },
    editCaption(text) {
      const s = this.current();
      if (!s) return;
      const v = text !== undefined ? text : window.prompt('Caption 說明 (繁)', s.caption);
      if (v === null || v === undefined) return;
      s.caption = v; s.caption_s = '';          // the 简 comes back from OpenCC when the file is read again
      this._show();
    },
    move(d) {
      const L = this.lesson, j = this.i + d;
      if (!L || this.i < 0 || j < 0 || j >= L.stops.length) return;
      [L.stops[this.i], L.stops[j]] = [L.stops[j], L.stops[this.i]];
      this.i = j;
      this._show();
    },
    remove() {
      const L = this.lesson;
      if (!L || this.i < 0) return;
      L.stops.splice(this.i, 1);
      this.i = Math.min(this.i, L.stops.length - 1);
      this._show();
    },
    toml() { return this.lesson ? lessonToml(this.lesson) : ''; },
    save() {
      if (!this.lesson) return;
      const a = el('a', { download: `${this.lesson.name}.toml` });
      a.href = URL.createObjectURL(new Blob([this.toml()], { type: 'application/toml' }));
      document.body.append(a); a.click(); a.remove();
    },
    _loadFile(f) {
      if (!f) return;
      f.text().then((txt) => {
        let L;
        try { L = JSON.parse(txt); } catch (_) {
          if (opts.onError) opts.onError(`${f.name}: the page reads lessons as JSON; a TOML file goes in assets/lessons/ (python app.py reads it)`);
          return;
        }
        if (!L || !Array.isArray(L.stops)) { if (opts.onError) opts.onError(`${f.name}: no stops`); return; }
        L.name = L.name || f.name.replace(/\.[^.]*$/, '');
        this.list.push(L);
        this.pick.append(el('option', { value: L.name }, L.title || L.name));
        this.open(L.name);
      });
    },
    captionText(s) {
      if (!s) return '';
      const zh = this.lang === 'simp' ? (s.caption_s || s.caption) : s.caption;
      return s.en ? `${zh}\n${s.en}` : zh;
    },
    _show() {
      const s = this.current();
      this.tools.style.display = this.lesson ? '' : 'none';
      const txt = this.captionText(s);
      this.cap.style.display = txt ? '' : 'none';
      this.cap.style.whiteSpace = 'pre-line';
      this.cap.textContent = '';
      if (s) {
        this.cap.append(el('div', {}, this.lang === 'simp' ? (s.caption_s || s.caption) : s.caption));
        if (s.en) { const e = el('div', { lang: 'en' }, s.en); e.style.fontSize = '0.7em'; e.style.fontWeight = '400'; this.cap.append(e); }
      }
      const L = this.lesson;
      this.cap.dataset.stop = L ? `${this.i + 1}/${L.stops.length}` : '';
    },
    onFrame(T) {
      // 4.7 % of the view's height, just above the caption line
      const ch = this.player.container.clientHeight;
      if (ch !== this._h) { this._h = ch; this.cap.style.fontSize = `${Math.max(16, Math.ceil(0.047 * ch))}px`; }
      if (this.cap.style.display !== 'none') {
        const band = this.player.container.querySelector('.xsl-caption');
        const below = band && band.style.display !== 'none' ? band.offsetHeight + 8 : 0;
        const want = `${48 + below}px`;
        if (this.cap.style.bottom !== want) this.cap.style.bottom = want;
      }
      if (this.playUntil !== null && T >= this.playUntil) { this.player.pause(); this.playUntil = null; }
      return false;
    },
    onKey(ev) {
      if (!this.lesson) return false;
      if (ev.key === 'PageDown') { this.go(this.i + 1); return true; }
      if (ev.key === 'PageUp') { this.go(this.i - 1); return true; }
      return false;
    },
    dispose() { this.box.remove(); this.cap.remove(); },
  };
  return ext;
}
