// Lessons (tours): a player extension (player.use(lessons({director}))).
//
// The pack's `lessons` (PACK.md; assets/lessons/*.toml through scene/web/lessons.py).  A picker over the
// view; with a lesson open PageDown / PageUp (what clickers send) go stop to stop: the moment, the camera
// (auto = the director's), the caption (繁 / 简 / English) under the view, read out by an aria-live region;
// a stop with `play` plays that many rite seconds and stops.  The teacher can add the current moment and
// camera as a stop, edit its caption, move it up or down, delete it, and save the lesson as TOML (or load
// one).  ?lesson=NAME opens a lesson at its first stop.
//
// A teacher owns her lessons (issue 27): 新 starts one from nothing, under a name she gives; an edit of a
// shipped lesson makes her own copy first (the shipped one stays as it is); every lesson of hers is kept in
// this browser (localStorage, at each edit) and is there again after a reload; 存 writes TOML and 開 reads
// it back (lesson-toml.js), the same lesson; a bad file gets one line.
import { lessonToml, readLesson, LessonFileError } from './lesson-toml.js';
import './listbox.js';

export { lessonToml };
export const STORE_KEY = 'xsl-lessons';
const FONT = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', 'Noto Sans CJK SC', sans-serif";

function el(tag, attrs = {}, text = '') {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// a camera as a lesson keeps it (what lesson-toml.js writes and reads): to the mm, 1/100 degree, up = z
function lessonCamera(c) {
  const r = (x, d) => Number(Number(x).toFixed(d));
  return { position: c.position.map((x) => r(x, 3)), focal_point: c.focal_point.map((x) => r(x, 3)),
    view_up: [0, 0, 1], parallel: false, parallel_scale: 1, view_angle: r(c.view_angle ?? 30, 2) };
}

// the lessons of this browser's teacher (localStorage; private mode: this visit only)
function loadOwn() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE_KEY) || '[]');
    return Array.isArray(v) ? v.filter((L) => L && typeof L.name === 'string' && Array.isArray(L.stops)) : [];
  } catch (e) { return []; }
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
      this.pick = el('xsl-select', { 'aria-label': 'Lesson 課' });     // not a native select (listbox.js)
      // a lesson chosen opens at its first stop, held, as its link does (Space plays the stop, PageDown the next)
      this.pick.addEventListener('change', () => this.open(this.pick.value, { hold: true }));
      this.tools = el('span');
      this.newBtn = el('button', { type: 'button', title: 'A new lesson of your own, from nothing' }, '新');
      this.newBtn.addEventListener('click', () => this.newLesson());
      const btn = (label, title, fn) => {
        const b = el('button', { type: 'button', title }, label);
        b.addEventListener('click', fn);
        this.tools.append(b);
        return b;
      };
      btn('+站', 'Add the current moment and camera as a stop', () => this.addStop());
      btn('改', 'Edit the caption of this stop', () => this.editCaption());
      // a stop's play span: 起 its start at this moment, 止 its end at this moment (it plays from one to the other)
      this.startBtn = btn('起', 'This stop starts at this moment (its span keeps its end)', () => this.setStart());
      this.endBtn = btn('止', 'This stop plays to this moment (the end of its span)', () => this.setEnd());
      btn('↑', 'Move this stop earlier', () => this.move(-1));
      btn('↓', 'Move this stop later', () => this.move(1));
      btn('刪', 'Delete this stop', () => this.remove());
      btn('存', 'Save the lesson as TOML', () => this.save());
      const load = el('input', { type: 'file', accept: '.toml', 'aria-label': 'Open a lesson file (TOML)' });
      load.style.display = 'none';
      load.addEventListener('change', () => { this._loadFile(load.files[0]); load.value = ''; });
      this.openBtn = el('button', { type: 'button', title: 'Open a lesson file (the TOML that 存 saves)' }, '開');
      this.openBtn.addEventListener('click', () => load.click());
      box.append(this.pick, this.newBtn, this.openBtn, load, this.tools);
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
      const open = this.lesson ? this.lesson.name : null;
      this.list = (m.lessons || []).map((L) => Object.assign(JSON.parse(JSON.stringify(L)), { builtin: true }));
      for (const L of loadOwn()) if (!this.list.some((x) => x.name === L.name)) this.list.push(L);
      this._fillPicker();
      if (open) { this.lesson = this.list.find((x) => x.name === open) || null; this.pick.value = this.lesson ? open : ''; }
      this._show();
    },
    _fillPicker() {
      this.pick.textContent = '';
      this.pick.append(el('option', { value: '' }, '課 —'));
      for (const L of this.list) this.pick.append(el('option', { value: L.name }, (L.builtin ? '' : '✎ ') + this._title(L)));
      if (this.lesson) this.pick.value = this.lesson.name;
    },
    _say(m) { if (opts.onError) opts.onError(m); else console.warn(m); },
    _unique(name) {
      let n = name, k = 2;
      while (this.list.some((x) => x.name === n)) n = `${name}-${k++}`;
      return n;
    },
    // keep the teacher's lessons in this browser (each edit): they are there after a reload
    persist() {
      const own = this.list.filter((L) => !L.builtin).map(({ name, title, en, stops }) => ({ name, title, en, stops }));
      try { localStorage.setItem(STORE_KEY, JSON.stringify(own)); return true; } catch (e) {
        this._say('this browser keeps no lessons (private mode?): save it with 存'); return false;
      }
    },
    // a new lesson from nothing, under the name the teacher gives (its file name: letters, digits, - _)
    newLesson(title) {
      const t = title !== undefined ? title : window.prompt('Title of the new lesson 課名', '新課');
      if (t === null || t === undefined || !String(t).trim()) return null;
      const ascii = String(t).normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase();
      const L = { name: this._unique(ascii || 'my_lesson'), title: String(t).trim(), en: '', stops: [] };
      this.list.push(L);
      this._fillPicker();
      this.lesson = L; this.i = -1; this.pick.value = L.name;
      this.persist();
      this._show();
      return L;
    },
    // the lesson an edit goes to: a shipped lesson is copied first (it stays as shipped)
    _own() {
      const L = this.lesson;
      if (!L || !L.builtin) return L;
      const copy = JSON.parse(JSON.stringify(L));
      delete copy.builtin;
      copy.name = this._unique(`${L.name}_mine`);
      copy.title = `${L.title}（我的）`;
      if (copy.title_s) copy.title_s = `${L.title_s}（我的）`;
      this.list.push(copy);
      this.lesson = copy;
      this._fillPicker();
      this._say(`editing your copy "${copy.title}"; the shipped lesson stays as it is`);
      return copy;
    },
    // ?lesson=NAME (app and site alike, called once the page has applied its other parameters): the lesson's
    // first stop, held at its very moment (nothing plays before the class starts: Space plays the stop's
    // span and stops at its end, PageDown goes to stop 2).  Returns a problem to show, or ''.
    openLink(search = location.search) {
      const want = new URLSearchParams(search).get('lesson');
      if (!want) return '';
      if (!this.open(want, { hold: true })) return `lesson=${want}: no such lesson (${this.list.map((L) => L.name).join(', ')})`;
      return '';
    },
    open(name, how = {}) {
      const L = this.list.find((x) => x.name === name);
      this.lesson = L || null;
      this.pick.value = L ? L.name : '';
      this.i = -1;
      if (L) this.go(0, how);
      this._show();
      return !!L;
    },
    // a stop: its moment and camera, and its span [t, t + play] played at its speed (hold: wait for Space)
    go(i, { hold = false } = {}) {
      const L = this.lesson;
      if (!L || !L.stops.length) return;
      i = Math.max(0, Math.min(L.stops.length - 1, i));
      this.i = i;
      const s = L.stops[i], p = this.player;
      p.pause();
      p.setTime(s.t);
      if (s.camera) { if (this.director) this.director.disable(); p.applyCamera(s.camera); }
      else if (s.view === 'auto' && this.director) this.director.enable();
      else if (s.view === 'auto') p.setView(p.viewOrder && p.viewOrder[0] || 'overview');
      else p.setView(s.view || 'overview');
      this.playUntil = null;
      this.armed = false;
      if (s.play) {
        p.setSpeed(s.speed || 8);
        this.playUntil = s.t + s.play; this.stopPlay = s.play;
        if (hold) this.armed = true; else p.play();
      }
      this._show();
    },
    current() { return this.lesson && this.i >= 0 ? this.lesson.stops[this.i] : null; },
    addStop() {
      const p = this.player;
      if (!this.lesson && !this.newLesson('新課')) return null;
      const L = this._own();
      const auto = this.director && this.director.on;
      const s = { t: Number(p.t.toFixed(3)), caption: p.state().phrase || '' };
      if (auto) s.view = 'auto';
      else if (p.free) {
        const c = p.camera();
        // a lesson's camera is a perspective one (lessons.py): a free plan (parallel) is kept as the plan view
        if (c.parallel) s.view = 'plan'; else s.camera = lessonCamera(c);
      } else s.view = p.view;
      L.stops.splice(this.i + 1, 0, s);
      this.i += 1;
      this.persist();
      this._show();
      return s;
    },
    editCaption(text) {
      const s = this.current();
      if (!s) return;
      const v = text !== undefined ? text : window.prompt('Caption 說明 (繁)', s.caption);
      if (v === null || v === undefined) return;
      const L = this._own();
      const own = L.stops[this.i];
      own.caption = String(v); delete own.caption_s;   // the 简 is made again from the 繁 (simp.js)
      this.persist();
      this._show();
    },
    // the span of the current stop, [t, t + play]: 起 moves its start here (the end stays where it was), 止 puts
    // its end here; an end at or before the start makes it a stop that holds
    // a stop's act (the step its caption names, lesson-toml.js) must lie inside its span: an edit that leaves it
    // out keeps the span the teacher chose and drops the act, saying so
    _checkAct(own) {
      if (!own.act) return;
      const hit = (this.player.steps || []).filter((x) => x.phrase === own.act && x.start >= own.t - 1e-3)
        .sort((a, b) => a.start - b.start)[0];
      if (hit && hit.end <= own.t + (own.play || 0) + 1e-3) return;
      this._say(`stop ${this.i + 1} no longer plays through ${own.act}: that act is no longer named for it`);
      delete own.act;
    },
    setStart(now = this.player.t) {
      const s = this.current();
      if (!s) return null;
      const L = this._own();
      const own = L.stops[this.i];
      const end = own.play ? own.t + own.play : null;
      own.t = Number(now.toFixed(3));
      if (end !== null && end - own.t >= 0.1) own.play = Number((end - own.t).toFixed(3));
      else { delete own.play; delete own.speed; }
      this._checkAct(own);
      this.persist();
      this._show();
      return own;
    },
    setEnd(now = this.player.t) {
      const s = this.current();
      if (!s) return null;
      const L = this._own();
      const own = L.stops[this.i];
      if (now - own.t < 0.1) { this._say('the end of a stop comes after its start (起)'); return null; }
      own.play = Number((now - own.t).toFixed(3));
      own.speed = own.speed || 8;
      this._checkAct(own);
      this.persist();
      this._show();
      return own;
    },
    move(d) {
      const j = this.i + d;
      if (!this.lesson || this.i < 0 || j < 0 || j >= this.lesson.stops.length) return;
      const L = this._own();
      [L.stops[this.i], L.stops[j]] = [L.stops[j], L.stops[this.i]];
      this.i = j;
      this.persist();
      this._show();
    },
    remove() {
      if (!this.lesson || this.i < 0) return;
      const L = this._own();
      L.stops.splice(this.i, 1);
      this.i = Math.min(this.i, L.stops.length - 1);
      this.persist();
      this._show();
    },
    toml() { return this.lesson ? lessonToml(this.lesson) : ''; },
    save() {
      if (!this.lesson) return false;
      let text;
      try { text = this.toml(); } catch (e) { this._say(`${this.lesson.name}.toml: ${e.message}`); return false; }
      const a = el('a', { download: `${this.lesson.name}.toml` });
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/toml' }));
      document.body.append(a); a.click(); a.remove();
      return true;
    },
    // 開: the TOML 存 wrote (or a shipped lesson's file); a name already taken gets a new one (nothing of
    // the teacher's is overwritten); a bad file gets one line and changes nothing
    openText(text, fileName) {
      const name = String(fileName || 'lesson.toml').replace(/^.*[\\/]/, '').replace(/\.toml$/i, '') || 'lesson';
      let L;
      try { L = readLesson(text, name, this.player.pack); } catch (e) {
        this._say(e instanceof LessonFileError ? e.message : `${name}: ${e.message}`);
        return null;
      }
      L.name = this._unique(name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'lesson');
      this.list.push(L);
      this._fillPicker();
      this.persist();
      this.open(L.name);
      return L;
    },
    _loadFile(f) {
      if (!f) return;
      if (f.size > 1 << 20) { this._say(`${f.name}: ${Math.round(f.size / 1024)} KB is not a lesson file (at most 1 MB)`); return; }
      f.text().then((txt) => this.openText(txt, f.name), (e) => this._say(`${f.name}: cannot be read (${e.message || e})`));
    },
    zhOf(s, lang) {
      if (lang !== 'simp') return s.caption;
      return s.caption_s || (opts.simplify ? opts.simplify(s.caption) : s.caption);
    },
    zh(s) { return this.zhOf(s, this.lang); },
    _title(L) {
      const t = L.title || L.name;
      return this.lang === 'simp' ? (L.title_s || (opts.simplify ? opts.simplify(t) : t)) : t;
    },
    // a follower shows the presenter's lesson caption ({caption, caption_s, en, stop, of}; null: none)
    showRemote(cap) { this.remote = cap || null; this._show(); },
    captionText(s) {
      if (!s) return '';
      const zh = this.zh(s);
      return s.en ? `${zh}\n${s.en}` : zh;
    },
    setLang(l) { this.lang = l === 'simp' ? 'simp' : 'trad'; this._fillPicker(); this._show(); },
    _show() {
      const s = this.current() || this.remote;
      this.tools.style.display = this.lesson ? '' : 'none';
      const txt = this.captionText(s);
      this.cap.style.display = txt ? '' : 'none';
      this.cap.style.whiteSpace = 'pre-line';
      this.cap.textContent = '';
      if (s) {
        this.cap.append(el('div', {}, this.zh(s)));
        if (s.en) { const e = el('div', { lang: 'en' }, s.en); e.style.fontSize = '0.7em'; e.style.fontWeight = '400'; this.cap.append(e); }
      }
      const L = this.lesson;
      this.cap.dataset.stop = L ? `${this.i + 1}/${L.stops.length}` : (this.remote ? `${this.remote.stop}/${this.remote.of}` : '');
      // the stop's span on the tools (the teacher editing sees what 起 and 止 set)
      const cur = this.current();
      this.tools.title = cur ? `stop ${this.i + 1}: ${cur.t.toFixed(1)} s → ${(cur.t + (cur.play || 0)).toFixed(1)} s` : '';
      this.tools.dataset.span = cur ? `${cur.t}:${cur.t + (cur.play || 0)}` : '';
    },
    onFrame(T) {
      // 4.7 % of the view's height, just above the caption line
      const ch = this.player.container.clientHeight;
      if (ch !== this._h) { this._h = ch; this.cap.style.fontSize = `${Math.max(16, Math.ceil(0.047 * ch))}px`; }
      // (a page with caption-place.js places both bands where they cover no acting person)
      if (this.cap.style.display !== 'none' && !(this.player.captionPlace && this.player.captionPlace.on)) {
        const band = this.player.container.querySelector('.xsl-caption');
        const below = band && band.style.display !== 'none' ? band.offsetHeight + 8 : 0;
        const want = `${48 + below}px`;
        if (this.cap.style.bottom !== want) this.cap.style.bottom = want;
      }
      // a stop plays its span once: paused (Space) or stepped past, the teacher's own play is not cut short
      if (this.armed && this.player.playing) this.armed = false;        // held at the stop: Space plays its span
      if (this.playUntil !== null && !this.armed &&
          (!this.player.playing || T < this.playUntil - this.stopPlay - 1)) this.playUntil = null;
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
