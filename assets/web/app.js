// The app's bridge: per-tab trame state <-> the player (player.js).
// The Vuetify layout (scene/ui.py) binds state and calls window.xsl.*; the player draws and plays;
// the server is asked only for packs (a reading), exports and zips (trame triggers).
import { Player } from './player.js';
import { director } from './director.js';
import { lessons } from './lessons.js';
import { captions } from './captions.js';
import { captionPlace } from './caption-place.js';
import { classroom } from './classroom.js';
import { evidence } from './evidence.js';
import { sound } from './sound.js';
import { palette, PALETTE_NAME } from './palette.js';
import { qualityControl, store as storeQuality, stored as storedQuality } from './quality-ui.js';
import { installKeys } from './keys.js';
import { simplifier, simpPage } from './simp.js';
import { catalogue } from './inspector.js';
import { StillPlayer, webglAvailable } from './still-view.js';
import { VIEWS, readParams as readLink } from './app-params.js';
import { DEFAULT_CHAPTER } from './chapters.js';
import { liveOk } from './live-ok.js';

// the address as the tab opened it: loading a reading rewrites the address (it follows the moment), and the
// stage and t of the link must still be read from what was asked, not from the rewritten address
const ASKED = location.search;
let presenterKey = '';   // ?key= (the presenter key the server printed); never written back to the address

let T = null;          // window.trame
let player = null;
let roles = null;        // the role palette (palette.js)
let caps = null;         // the caption line (captions.js)
let tours = null;        // the lessons (lessons.js)
let simplify = null;     // 繁 → 简 for this pack's words (simp.js)
let pageSimp = null;     // 简 for every other word of the page: its controls, tabs, titles, screen-reader text
let lastPick = null;     // the inspector's thing (shown again when 繁/简 changes)
let room = null;         // the classroom keys (classroom.js): blank, Shift+K, C / F5 / Esc
let qualityUi = null;    // the 畫質 select and its line (quality-ui.js)
let manifest = null;
let lastUrlWrite = 0;
let applying = false;  // state changes we make ourselves do not echo back to the player

const get = (k) => T.state.get(k);
const set = (k, v) => T.state.set(k, v);

function fmtTime(s) {
  s = Math.max(0, s);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = Math.floor(s % 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(x).padStart(2, '0')}`;
}

function stageOf(n) { return manifest.stages.find((s) => s.n === n); }
// every word of the pack the page shows goes through Z: 简 when the 简 switch is on (simp.js)
const Z = (s) => (simplify && get('lang') === 'simp' ? simplify(s) : s);

// ---------------------------------------------------------------- text panel
function textFor(n, phrase, offset) {
  const tx = manifest.texts[String(n)];
  if (!tx) return null;
  const simp = get('lang') === 'simp';
  const jing = simp && tx.jing_s ? tx.jing_s : tx.jing;
  let at = -1, len = 0;
  if (phrase) {
    at = offset >= 0 && tx.jing.substr(offset, phrase.length) === phrase ? offset : tx.jing.indexOf(phrase);
    len = phrase.length;
  }
  const notes = (tx.notes || []).map((g) => ({
    after: tx.jing.slice(Math.max(0, g.at - 6), g.at), text: simp && g.text_s ? g.text_s : g.text }));
  const seed = (tx.seed || []).map((s) => ({ n: s.n, text: simp && s.text_s ? s.text_s : s.text }));
  return {
    n, title: Z(tx.title),
    pre: at >= 0 ? jing.slice(0, at) : jing, hit: at >= 0 ? jing.slice(at, at + len) : '',
    post: at >= 0 ? jing.slice(at + len) : '', notes, seed,
  };
}

function refreshText() {
  if (!manifest || !player) return;
  const s = player.state();
  const step = s.stepIndex >= 0 ? manifest.steps[s.stepIndex] : null;
  const onStage = step && step.section === s.stage;
  set('text', textFor(s.stage, onStage ? step.phrase : '', onStage ? step.offset : -1));
}

// ---------------------------------------------------------------- player -> state
let lastStage = -1, lastStep = -2;
function onState(s) {
  if (qualityUi) qualityUi.refresh();
  if (!manifest) return;
  applying = true;
  try {
    set('t', Math.round(s.t * 10) / 10);
    const st = stageOf(s.stage);
    set('t_label', `${fmtTime(s.t)} / ${fmtTime(manifest.duration_s)}` +
        (st ? ` · §${st.n} +${(s.t - st.start).toFixed(1)} s` : ''));
    set('playing', !!s.playing);
    if (s.view && get('view') !== s.view) set('view', s.view);
    if (s.labels !== undefined && get('labels') !== s.labels) set('labels', s.labels);
    if (s.stage !== lastStage || s.stepIndex !== lastStep) {
      lastStage = s.stage; lastStep = s.stepIndex;
      set('stage_n', s.stage);
      set('stage_title', st ? Z(st.title) : '');
      set('step_phrase', Z(s.phrase || (st ? st.incipit : '')));
      refreshText();
      writeUrl(true);
    } else {
      writeUrl(false);
    }
    publish(false);
  } finally { applying = false; }
}

function onPick(info) {
  lastPick = info;
  if (!info) { set('inspect', null); return; }
  set('inspect', catalogue(info, { Z, player }));      // a catalogue entry (inspector.js)
  if (!get('classroom')) set('right_tab', 'inspect');
}

// 繁/简 everywhere: the 經 panel, the stage list, the footer phrase, the caption line, the labels, the
// inspector and the lessons
function applyLang() {
  const simp = get('lang') === 'simp';
  if (caps) caps.setLang(simp ? 'simp' : 'trad');
  if (tours) tours.setLang(simp ? 'simp' : 'trad');
  if (player.setLabelText) player.setLabelText(simp ? simplify : null);
  if (!pageSimp && simplify) pageSimp = simpPage((x) => simplify(x), document.getElementById('app') || document.body);
  if (pageSimp) pageSimp.set(simp);
  document.documentElement.lang = simp ? 'zh-Hans' : 'zh-Hant';
  fillNav();
  lastStage = -1;
  onState(player.state());
  if (lastPick) { set('inspect', catalogue(lastPick, { Z, player })); }
  publish(false);
}

// ---------------------------------------------------------------- URL (deep links)
function linkParams() {
  const s = player.state();
  const st = stageOf(s.stage);
  const p = new URLSearchParams();
  p.set('stage', String(s.stage));
  p.set('t', String(Number((s.t - (st ? st.start : 0)).toFixed(2))));
  p.set('view', s.view || get('view'));
  if (get('reading_q') && get('reading_q') !== 'zheng') p.set('reading', get('reading_q'));
  if (get('chapter_id') && get('chapter_id') !== DEFAULT_CHAPTER) p.set('chapter', get('chapter_id'));
  if (get('lang') === 'simp') p.set('lang', 'simp');
  if (get('classroom')) p.set('classroom', '1');
  if (role) p.set(role, '1');
  if (roles && roles.on) p.set('palette', PALETTE_NAME);
  if (room && !room.singleKeys) p.set('keys', '0');
  return p;
}

function writeUrl(force) {
  const now = performance.now();
  if (!force && now - lastUrlWrite < 1000) return;
  lastUrlWrite = now;
  history.replaceState(null, '', `${location.pathname}?${linkParams().toString()}`);
}


// the one meaning of a link's moment (docs/classroom.md), the app's and the site's: stage=N alone is the
// section's start; t=S with stage is S seconds into that section; t alone is S seconds into the rite
function readParams() {
  const out = readLink(ASKED, manifest);
  if (out.key) presenterKey = out.key;
  return out;
}

function applyParams(p) {
  if (p.lang && p.lang !== get('lang')) { set('lang', p.lang); applyLang(); }
  if (p.stage) player.gotoStage(p.stage);
  if (p.t !== undefined) player.setTime((p.stage ? stageOf(p.stage).start : 0) + p.t);
  if (p.view) player.setView(p.view);
  if (p.classroom) setClassroom(true);
  if (p.palette && roles) roles.set(true);
}

function say(msg) { set('message', msg); }

// ---------------------------------------------------------------- readings
function setReadingState(query, title) {
  set('reading_q', query);
  set('reading_title', title || '');
  const vals = {};
  const f = manifest.reading.fields || {};
  for (const k of Object.keys(f)) vals[k] = f[k];
  set('reading_vals', vals);
  set('reading_preset', query.split(',')[0]);
}

// the chapter (issue 43): 鄉射禮 or 鄉飲酒禮, its pack asked of the server with the reading (one build each)
const NUMERALS = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];
function setChapterState() {
  const ch = manifest.chapter || { id: DEFAULT_CHAPTER, number: 5, title: '鄉射禮', title_en: 'The District Archery Rite' };
  set('chapter_id', ch.id);
  set('pack_views', (manifest.views && manifest.views.order) || []);     // the view buttons the pack has
  set('chapter_title', ch.title);
  set('chapter_sub', `${(ch.title_en || '').replace(/^The /, '')} · 儀禮 第${NUMERALS[ch.number] || ch.number}`);
  document.title = `${ch.title} · ${ch.title_en || ''}`;
}

async function loadReading(query, { ghost = false, chapter = null } = {}) {
  set('busy', 'computing the scene under this reading …');
  try {
    const want = chapter || get('chapter_id') || DEFAULT_CHAPTER;
    const res = await T.trigger('xsl_pack', [query, want]);
    if (!res || res.error) { say(res ? res.error : 'the server did not answer'); return false; }
    const other = (res.chapter || DEFAULT_CHAPTER) !== get('chapter_id');
    // a reading keeps the stage and the seconds into it; another chapter opens at its start, no ghost
    await player.setPack(res.url, { ghost: ghost && !other });
    manifest = player.pack;
    simplify = simplifier(manifest);
    fillNav();
    setChapterState();
    if (other) player.gotoStage(manifest.stages[0].n);
    setReadingState(res.query, res.title);
    lastStage = -1;
    onState(player.state());
    return true;
  } finally { set('busy', ''); }
}

function queryFromPanel() {
  const base = get('reading_preset') || 'zheng';
  const vals = get('reading_vals') || {};
  const presetVals = (get('xsl_preset_vals') || {})[base] || {};
  const parts = [base];
  for (const [k, v] of Object.entries(vals)) {
    if (presetVals[k] === undefined || presetVals[k] === v || v === '' || v === null) continue;
    parts.push(`${k}=${typeof v === 'boolean' ? String(v) : v}`);
  }
  return parts.join(',');
}

// ---------------------------------------------------------------- navigator
function fillNav() {
  const groups = [];
  for (const s of manifest.stages) {
    let g = groups[groups.length - 1];
    if (!g || g.phase !== s.phase) { g = { phase: s.phase, title: Z(s.phase_title || s.phase), items: [] }; groups.push(g); }
    g.items.push({ n: s.n, title: Z(s.title), round: s.round });
  }
  set('nav', groups);
  set('marks', manifest.stages.map((s) => ({ n: s.n, title: Z(s.title), round: s.round, x: (100 * s.start / manifest.duration_s).toFixed(3) })));
  set('duration', manifest.duration_s);
}

// ---------------------------------------------------------------- exports
function download(url, name) {
  const a = document.createElement('a');
  a.href = url; a.download = name; document.body.appendChild(a); a.click(); a.remove();
}

// while an export waits, the server tells this tab (only) its place in the queue (one export at a time)
let queueWhat = '';
function watchQueue(what) {
  queueWhat = what;
  return () => { queueWhat = ''; };
}
function onQueue(pos) {
  if (!queueWhat || typeof pos !== 'number') return;
  set('busy', pos > 0 ? `${queueWhat}: waiting, number ${pos} in the queue …` : `${queueWhat} …`);
}

// the moment to ask the still exporter for: the pack keeps each stage's and step's start to the ms
// (rounded, so up to 0.5 ms early), the exporter reads the exact rite — at a start, the ms rounded down
// falls in the stage before (§21 under xiang was drawn and labelled §20).  One ms on is the same picture.
function exportTime(t) {
  // (the player's own pack while the app's is not set yet: a no-WebGL view asks for its first picture while
  // loading — manifest was null there, 'Cannot read properties of null (reading 'stages')', issue 42)
  const m = manifest || (player && player.pack);
  if (!m) return t;
  let start = -1;
  for (const st of m.stages) if (st.start <= t && st.start > start) start = st.start;
  for (const sp of m.steps || []) if (sp.start <= t && sp.start > start) start = sp.start;
  return start >= 0 && t - start < 0.001 ? Math.round((start + 0.001) * 1000) / 1000 : t;
}

async function exportPng(size) {
  set('busy', `rendering a ${size} PNG with the still exporter …`);
  const stop = watchQueue(`rendering a ${size} PNG`);
  try {
    const s = player.state();
    const res = await T.trigger('xsl_export', [get('reading_q'), exportTime(s.t), player.camera(), s.view || get('view'), size,
      !!get('labels'), get('roof'), get('chapter_id')]);
    if (!res || res.error) { say(res ? res.error : 'the server did not answer'); return; }
    download(res.url, res.name);
  } finally { stop(); set('busy', ''); }
}

async function exportZip(size) {
  set('busy', `rendering every stage at ${size} (about a minute) …`);
  const stop = watchQueue(`rendering every stage at ${size}`);
  try {
    const res = await T.trigger('xsl_zip', [get('reading_q'), size, get('chapter_id')]);
    if (!res || res.error) { say(res ? res.error : 'the server did not answer'); return; }
    download(res.url, res.name);
  } finally { stop(); set('busy', ''); }
}

// the role sheet of the person in the inspector, of the tab's chapter (python -m scene --chapter ID sheets --roles ID)
async function printSheet() {
  const ins = get('inspect');
  if (!ins || !ins.actor) { say('select a person first'); return; }
  set('busy', `printing the role sheet of ${ins.title} …`);
  try {
    const res = await T.trigger('xsl_sheet', [get('reading_q'), ins.actor, get('chapter_id')]);
    if (!res || res.error) { say(res ? res.error : 'the server did not answer'); return; }
    download(res.url, res.name);
  } finally { set('busy', ''); }
}

// ---------------------------------------------------------------- classroom & keys
function setClassroom(on) {
  set('classroom', !!on);
  document.body.classList.toggle('xsl-classroom', !!on);
  writeUrl(true);
}

// ---------------------------------------------------------------- a classroom on one server
// ?present=1: this tab drives stage, time and camera for every tab opened with ?follow=1 (the server keeps
// the presenter's last state in the one shared key xsl_live; everything else stays per tab).
let role = '';            // '' | 'present' | 'follow'
let lastSent = '';
let lastSentAt = 0;
let liveSeq = 0;

// the stage at time t, now (the player updates its own on the next frame; a presenter must not wait for it)
function stageAt(t) {
  let n = manifest.stages[0].n;
  for (const st of manifest.stages) { if (st.start <= t) n = st.n; else break; }
  return n;
}

function livePayload() {
  const s = player.state();
  const stop = tours && tours.current();
  const lesson = stop ? { caption: stop.caption.slice(0, 400), caption_s: tours.zhOf(stop, 'simp').slice(0, 400),
    en: (stop.en || '').slice(0, 400), title: (tours.lesson.title || '').slice(0, 400), stop: tours.i + 1,
    of: tours.lesson.stops.length } : null;
  return { stage: stageAt(s.t), t: s.t, playing: !!s.playing, speed: s.speed, view: s.view,
           camera: player.free ? player.camera() : null, reading: get('reading_q'), chapter: get('chapter_id'),
           client_ms: Date.now(),
           lang: get('lang') === 'simp' ? 'simp' : 'trad', lesson };
}

// a presenter publishes on every jump at once (not on the frame that draws it) and on the player's reports
function publish(force) {
  if (role !== 'present' || !player) return;
  const p = livePayload();
  const key = JSON.stringify([p.stage, p.playing, p.speed, p.view, p.camera, p.reading, p.chapter, p.playing ? 0 : p.t, p.lang,
    p.lesson]);
  const now = performance.now();
  if (!force && key === lastSent && !(p.playing && now - lastSentAt > 2000)) return;
  lastSent = key; lastSentAt = now;
  p.seq = ++liveSeq;
  T.trigger('xsl_present', [p, presenterKey]).then((res) => {
    if (res && res.error && role === 'present') { setRole(''); say(res.error); }
  });
}

// one presenter state at a time, then the latest: one arriving while a chapter loaded asked for the same build,
// was refused (one build a tab) and dropped — the follower stayed at the moment before (test_chapter_switch.py)
let followBusy = false, followNext = null;
async function follow(live) {
  if (followBusy) { followNext = live; return; }
  followBusy = true;
  try { await followOnce(live); } finally { followBusy = false; }
  if (followNext) { const next = followNext; followNext = null; await follow(next); }
}

async function followOnce(live) {
  if (role !== 'follow' || !live || !player) return;
  if (!manifest || !liveOk(live, VIEWS)) { console.warn('a presenter state that cannot be applied was ignored'); return; }
  // the presenter's chapter first (with her reading), then her reading within it
  if (live.chapter && live.chapter !== get('chapter_id')) {
    if (!await loadReading(live.reading || get('reading_q') || 'zheng', { chapter: live.chapter })) return;
  } else if (live.reading && live.reading !== get('reading_q')) await loadReading(live.reading);
  const lag = live.playing ? Math.max(0, (Date.now() - live.client_ms) / 1000) * (live.speed || 1) : 0;
  applying = true;
  try {
    player.setSpeed(live.speed || 1);
    player.setTime(Math.min(live.t + lag, manifest.duration_s));
    if (live.camera) player.applyCamera(live.camera); else if (live.view) player.setView(live.view);
    if (live.playing && !player.state().playing) player.play();
    if (!live.playing && player.state().playing) player.pause();
  } finally { applying = false; }
  // what the class sees besides the picture: the script and the lesson's caption
  if ((live.lang === 'simp' || live.lang === 'trad') && live.lang !== get('lang')) set('lang', live.lang);
  if (tours) tours.showRemote(live.lesson && typeof live.lesson === 'object' ? live.lesson : null);
  set('live_seen', { seq: live.seq, stage: live.stage, at: Date.now() });
}

function setRole(r) {
  if (r === 'present' && !presenterKey) {
    const k = window.prompt('Presenter key (printed where the app was started):', '');
    if (!k) { say('Presenting needs the presenter key printed when the app started.'); r = ''; }
    else presenterKey = k.slice(0, 100);
  }
  role = r;
  set('live_role', r);
  if (r === 'present') publish(true);
  if (r === 'follow') follow(get('xsl_live'));
  if (r !== 'follow' && tours) tours.showRemote(null);
}

// ---------------------------------------------------------------- boot
// the 3D player, or — with no WebGL in this browser — the server's still of each moment (still-view.js)
function makePlayer(el, quality) {
  const opts = { fontUrl: get('xsl_font_urls')[0], onState, onPick, quality, onError: (m) => say(String(m)) };
  if (webglAvailable()) {
    try { return new Player(el, opts); } catch (e) { console.warn(`no 3D view: ${e.message || e}`); }
  }
  // the remote view (scene/web/remote.py): frames of the same scene rendered on the server as the rite plays
  return new StillPlayer(el, { onState, onError: opts.onError,
    still: (t, view, labels, roof) => T.trigger('xsl_still', [get('reading_q'), exportTime(t), view, !!labels, roof,
      get('chapter_id')]),
    frame: (t, view, camera, labels, roof) => T.trigger('xsl_frame', [get('reading_q') || 'zheng', exportTime(t), view,
      camera, !!labels, roof, get('chapter_id')]) });
}

const BUILDING = 'building the scene: a first start compiles the rite, its pack and the font (some seconds) …';

async function boot() {
  T = window.trame;
  // below 1280 px Vuetify lays the stage list over the view: start with it closed there
  set('nav_open', window.innerWidth >= 1280);
  const el = document.getElementById('xsl-view');
  // ?quality=auto|fast|high forces the tier, and is remembered in this browser like the 畫質 select's choice
  const askedQuality = new URLSearchParams(ASKED).get('quality');
  const quality = ['auto', 'fast', 'high'].includes(askedQuality) ? askedQuality : undefined;
  if (quality) storeQuality(quality);
  player = makePlayer(el, quality);
  window.__xslPlayer = player;
  const gl = !player.noWebGL;
  room = player.use(classroom({ setClassroom, isClassroom: () => !!get('classroom'),
    onSingleKeys: (on) => { say(on ? 'Single-key shortcuts on (Shift+K turns them off)' : 'Single-key shortcuts off: Shift+K turns them on'); if (manifest) writeUrl(true); } }));
  const dir = gl ? player.use(director({ button: false })) : null;
  tours = player.use(lessons({ director: dir, onError: (m) => say(String(m)),
    simplify: (x) => (simplify ? simplify(x) : x),
    toolbarStyle: { top: 'auto', bottom: '8px', right: 'auto', left: '8px' } }));
  // without WebGL the server's still carries the caption band; the rest draws in 3D
  if (gl) {
    caps = player.use(captions());
    // the phrase band and the lesson's caption where they cover none of the people acting now (a band fixed
    // at the bottom centre covered the 相 of §17 and §21), nor the page's tools, badges and messages
    player.use(captionPlace({ avoid: () => [...document.querySelectorAll(
      '.xsl-tools, .xsl-lessons, #xsl-live, #xsl-class-exit, #xsl-message, #xsl-busy, #xsl-fps')] }));
    player.use(evidence());
    player.use(sound());
    roles = player.use(palette({ onChange: () => { if (manifest) writeUrl(true); } }));
  }
  // the 畫質 select (per browser): the address already follows the moment, so a reload comes back to it
  // (a Vuetify select bound to quality_pick: the line is quality-ui.js's, the choice is stored and reloads here)
  if (gl) qualityUi = qualityControl(player, {
    select: null, info: () => document.getElementById('xsl-quality-info'),
    reload: () => { if (manifest) writeUrl(true); location.reload(); },
  });
  set('quality_pick', storedQuality());
  T.state.watch(['quality_pick'], (v) => {
    if (!['auto', 'fast', 'high'].includes(v) || v === storedQuality()) return;
    storeQuality(v);
    if (manifest) writeUrl(true);
    location.reload();
  });
  await player.load(get('xsl_default_pack'));
  manifest = player.pack;
  simplify = simplifier(manifest);
  fillNav();
  setReadingState('zheng', manifest.reading.label || '');
  setChapterState();
  const p = readParams();       // (the link's problems are told once, from this first reading)
  if ((p.reading && p.reading !== 'zheng') || (p.chapter && p.chapter !== get('chapter_id'))) {
    const ok = await loadReading(p.reading || 'zheng', { chapter: p.chapter });
    if (!ok) p.problems.push(p.chapter ? `chapter=${p.chapter} was not applied` : `reading=${p.reading} was not applied`);
  }
  const again = readParams();           // stage/t are checked against the pack of the reading in force
  applyParams(again);
  // ?lesson=NAME: its first stop's moment, held (it wins over stage and t)
  const lessonProblem = tours.openLink(ASKED);
  if (lessonProblem) p.problems.push(lessonProblem);
  if (p.problems.length) say(`Link not understood: ${p.problems.join('; ')}. Showing the default instead.`);
  if (!again.stage && again.t === undefined && !tours.lesson) player.gotoStage(manifest.stages[0].n);
  lastStage = -1;
  onState(player.state());
  T.state.watch(['xsl_live'], (live) => follow(live));
  T.state.watch(['xsl_queue_pos'], (pos) => onQueue(pos));
  if (again.role) setRole(again.role);
  // a presenter's free camera (orbit, zoom) reaches the followers too, a few times a second
  setInterval(() => { if (role === 'present' && player.free) publish(false); }, 250);
  set('ready', true);
  // a key that went to the rite closes an open menu of the toolbar (Vuetify's selects: issue 42)
  const MENUS = ['roof_menu', 'quality_menu', 'speed_menu'];
  installKeys({ player, after: () => { for (const m of MENUS) if (get(m)) set(m, false); publish(false); } });
  // controls bound to state drive the player (unless the change came from the player itself)
  const w = (keys, fn) => T.state.watch(keys, (...v) => { if (!applying && player) fn(...v); });
  w(['view'], (v) => player.setView(v));
  w(['labels'], (v) => player.setLabels(!!v));
  w(['roof'], (v) => player.setRoof(v));
  w(['dims'], (v) => player.setDims(!!v));
  w(['speed'], (v) => player.setSpeed(Number(v)));
  w(['lang'], () => applyLang());
  w(['ghost'], (v) => { if (!v && player.clearGhost) player.clearGhost(); });
  setInterval(() => { if (player.state().playing) set('fps', Math.round(player.stats().fps)); }, 1000);
}

window.xsl = {
  gotoStage: (n) => { player.gotoStage(n); publish(false); },
  nextStep: () => { player.nextStep(); publish(false); }, prevStep: () => { player.prevStep(); publish(false); },
  nextStage: () => { player.nextStage(); publish(false); }, prevStage: () => { player.prevStage(); publish(false); },
  togglePlay: () => { player.togglePlay(); publish(false); },
  seek: (t) => { if (!applying) { player.setTime(Number(t)); publish(false); } },
  toggleNav: () => set('nav_open', !get('nav_open')),
  setClassroom,
  copyLink: async () => {
    const url = `${location.origin}${location.pathname}?${linkParams().toString()}`;
    try { await navigator.clipboard.writeText(url); say(`Link copied: ${url}`); } catch (e) { say(`Link: ${url}`); }
    set('link_copied', true);
    return url;
  },
  exportPng, exportZip, printSheet,
  exportTime: (t) => exportTime(t),       // the moment an export asks for (tests)
  // a new reading keeps a ghost of the old one until the ghost switch is turned off
  choosePreset: async (name) => { if (await loadReading(name, { ghost: true })) set('ghost', true); },
  readingChanged: async () => { if (await loadReading(queryFromPanel(), { ghost: true })) set('ghost', true); },
  loadReading,
  // the chapter switch: the other chapter at its start, the reading kept (the address follows)
  setChapter: async (id) => {
    if (id === get('chapter_id')) return;
    // a reading holding the other chapter's own choices is refused there (one line, said): that chapter's default
    if (await loadReading(get('reading_q') || 'zheng', { chapter: id }) || await loadReading('zheng', { chapter: id })) {
      writeUrl(true); publish(true);
    }
  },
  present: () => setRole('present'),
  follow: () => setRole('follow'),
  explore: () => setRole(''),      // leave the presenter: explore on your own
};

(function wait() {
  const S = window.trame && window.trame.state;
  if (S && S.get('xsl_default_pack') && document.getElementById('xsl-view')) {
    if (S.get('building')) S.set('building', '');
    boot().catch((e) => { console.error(e); if (window.trame) window.trame.state.set('message', `The 3D view could not start: ${e.message || e}`); });
  } else {
    // a first start: the server is still building the scene (its pack comes as soon as it is there)
    if (S && S.get('xsl_fields') && !S.get('building')) S.set('building', BUILDING);
    setTimeout(wait, 30);
  }
})();
