// The standalone page around the Player (player.html): stage list, transport, scrubber, the
// section's text with the current phrase marked, the inspector, deep links, classroom keys.
import { Player } from './player.js';
import { director } from './director.js';
import { lessons } from './lessons.js';
import { captions } from './captions.js';
import { captionPlace } from './caption-place.js';
import { classroom, keysParam } from './classroom.js';
import { installKeys } from './keys.js';
import './listbox.js';              // <xsl-select>: the page's drop-downs (no native select: issue 42)
import { simplifier, simpPage } from './simp.js';
import { catalogue } from './inspector.js';
import { StillPlayer, webglAvailable, NO_WEBGL_SITE } from './still-view.js';
import { evidence } from './evidence.js';
import { sound } from './sound.js';
import { palette, PALETTE_NAME } from './palette.js';
import { qualityControl } from './quality-ui.js';
import { jingWithReviewLinks } from './review-links.js';
import { notesPanel } from './notes-panel.js';
import { loadChapters, pickChapter, chapterHref, chapterSwitch, DEFAULT_CHAPTER } from './chapters.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const problems = [];
// ?beside=chapter:n: the side-by-side page (beside.html) plays that section beside its parallel
if (params.has('beside')) {
  location.replace(new URL(`beside.html${location.search}`, location.href).href);
  await new Promise(() => {});          // this page stops here: the other one loads
}

const messages = [];
function message(text) {                      // every problem stays listed, one a line
  if (text && !messages.includes(text)) messages.push(text);
  const m = $('xsl-message');
  m.textContent = messages.join('\n');
  m.hidden = !messages.length;
}

function hms(s) {
  s = Math.max(0, Math.floor(s));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
  return (h ? `${h}:${String(m).padStart(2, '0')}` : `${m}`) + `:${String(x).padStart(2, '0')}`;
}

// ?pack= and ?font= may name only this site's own files (same origin): a link must not make the page
// play, or show the words of, a pack from somewhere else
function ownUrl(text, fallback) {
  try {
    const u = new URL(text, location.href);
    if (u.origin === location.origin && (u.protocol === 'http:' || u.protocol === 'https:')) return u.href;
  } catch (e) { /* not a URL */ }
  refused.push(text);
  return new URL(fallback, location.href).href;
}
const refused = [];
// the chapter (chapters.js): ?chapter= among the site's chapters.json; ?pack= names a pack itself (no switch)
const siteChapters = params.has('pack') ? null : await loadChapters();
const picked = pickChapter(siteChapters, params.get('chapter'));
if (picked.problem) problems.push(picked.problem);
if (params.has('pack') && params.has('chapter')) problems.push(`chapter=${params.get('chapter')} (with pack=, the pack plays)`);
let pack = ownUrl(params.get('pack') || picked.chapter.pack, 'pack/');
if (!pack.endsWith('/')) pack += '/';
const fontUrl = params.get('font') ? ownUrl(params.get('font'), 'pack/font/cjk.otf') : new URL('font/cjk.otf', pack).href;
const scale = params.has('scale') ? Number(params.get('scale')) : 1;
// ?quality=auto|fast|high forces the tier (quality.js) and is remembered for the next visit
let quality;
if (params.has('quality')) {
  quality = params.get('quality');
  if (!['auto', 'fast', 'high'].includes(quality)) { problems.push(`quality=${quality} (auto, fast, high)`); quality = undefined; }
  else { try { localStorage.setItem('xsl-quality', quality); } catch (e) { /* private mode */ } }
}
if (!(scale >= 0.25 && scale <= 1)) problems.push(`scale=${params.get('scale')} (0.25–1)`);
if (keysParam() === undefined) problems.push(`keys=${params.get('keys')} (0 or 1)`);

// classroom mode (C, F5, ?classroom=1): the picture alone, the stage and the phrase on it; Esc leaves
function setClassroom(on) {
  document.body.classList.toggle('xsl-classroom', !!on);
  const u = new URL(location.href);
  if (on) u.searchParams.set('classroom', '1'); else u.searchParams.delete('classroom');
  history.replaceState(null, '', u.href);
}
const isClassroom = () => document.body.classList.contains('xsl-classroom');

let scrubbing = false;
let shownSection = null;
let shownStep = -2;
let stageItems = new Map();

const gl = webglAvailable();
const player = !gl ? new StillPlayer($('xsl-player'), { onState: (s) => updateUi(s), advice: NO_WEBGL_SITE }) : new Player($('xsl-player'), {
  fontUrl,
  renderScale: scale >= 0.25 && scale <= 1 ? scale : 1,
  quality,
  staticCache: params.get('cache') !== '0',      // cache=0 / batch=0: the plain way (to measure)
  batchDynamic: params.get('batch') !== '0',
  restCache: params.get('rest') !== '0',           // rest=0: every person and thing drawn every frame
  onState: (s) => updateUi(s),
  onPick: (info) => showInfo(info),
  onError: (e) => message(String(e && e.message || e)),
});
player.use(classroom({ setClassroom, isClassroom,
  onSingleKeys: (on) => message(on ? 'single-key shortcuts on (Shift+K)' : 'single-key shortcuts off: Shift+K turns them on') }));
const dir = gl ? player.use(director()) : null;
// 繁/简 (the 简 button, ?lang=simp): every word the page shows goes through Z (simp.js)
let lang = params.get('lang') === 'simp' ? 'simp' : 'trad';
if (params.has('lang') && !['simp', 'trad'].includes(params.get('lang'))) problems.push(`lang=${params.get('lang')} (trad, simp)`);
let simplify = null;
let pageSimp = null;          // 简 for the page's own words too: controls, titles, screen-reader text (simp.js)
const Z = (x) => (lang === 'simp' && simplify ? simplify(x) : x);
const notes = notesPanel({ button: $('xsl-notes-toggle'), box: $('xsl-notes'), params });
const tours = player.use(lessons({ director: dir, onError: (m) => message(m), simplify: (x) => (simplify ? simplify(x) : x) }));
const caps = gl ? player.use(captions()) : { setLang() {} };
// the names over the people keep clear of what the page draws over the view (issue 27: at 1280×720 many hid
// under the toolbar): the bar, the caption line and the lesson's caption (player-labels.js)
player.labelAvoid = () => [$('xsl-bar'), document.querySelector('.xsl-caption'), document.querySelector('.xsl-lesson-caption')];
if (gl) { player.use(evidence()); player.use(sound()); }
// the caption bands where they cover none of the people acting now, nor each other (caption-place.js)
if (gl) {
  player.use(captionPlace({ avoid: () => [$('xsl-bar'), $('xsl-text'), $('xsl-info'), $('xsl-quality-info'), document.querySelector('.xsl-lessons')] }));
}
// the role palette is remembered in the address (?palette=okabe-ito), like the page's other options
const roles = !gl ? { set() {} } : player.use(palette({ onChange: (on) => {
  const u = new URL(location.href);
  if (on) u.searchParams.set('palette', PALETTE_NAME); else u.searchParams.delete('palette');
  history.replaceState(null, '', u.href);
} }));
window.__xslPlayer = window.__xslPlayer || player;
// the 畫質 select: a new tier needs a new WebGL context, so the page reloads where it is (t and view kept;
// a ?quality= in the address would override the choice, so it goes)
let lastState = null;
const quality_ui = qualityControl(player, {
  select: $('xsl-quality'), info: $('xsl-quality-info'),
  reload: () => {
    const u = new URL(location.href);
    u.searchParams.delete('quality');
    u.searchParams.delete('stage');
    if (lastState) {
      u.searchParams.set('t', lastState.t.toFixed(2));
      if ([...$('xsl-view').options].some((o) => o.value === lastState.view)) u.searchParams.set('view', lastState.view);
    }
    location.replace(u.href);
  },
});

function updateUi(s) {
  lastState = s;
  quality_ui.refresh();
  $('xsl-play').classList.toggle('playing', s.playing);
  $('xsl-time').textContent = `${hms(s.t)} / ${hms(player.duration)}`;
  if (!scrubbing) $('xsl-scrub').value = String(s.t);
  $('xsl-speed').value = String(s.speed);
  if ($('xsl-view').value !== s.view) $('xsl-view').value = s.view;
  $('xsl-roof').value = s.roof;
  $('xsl-labels').checked = s.labels;
  $('xsl-dims').checked = s.dims;
  const cur = stageItems.get(s.stage);
  if (cur && !cur.classList.contains('current')) {
    for (const li of stageItems.values()) li.classList.toggle('current', li === cur);
    showCurrentStage();
  }
  if (s.section !== shownSection || s.stepIndex !== shownStep) showText(s);
  document.body.dataset.stage = String(s.stage);
}

function showCurrentStage() {
  const li = document.querySelector('#xsl-stage-list li.current');
  if (li && !$('xsl-stages').hidden) li.scrollIntoView({ block: 'center' });
}

function showText(s) {
  const n = s.stage;
  const txt = (player.pack.texts || {})[String(n)] || null;
  const stage = player.stages.find((x) => x.n === n);
  $('xsl-section-n').textContent = `§${n}`;
  $('xsl-section-title').textContent = Z(stage ? stage.title : (txt ? txt.title : ''));
  const p = $('xsl-jing');
  p.textContent = '';
  shownSection = s.section;
  shownStep = s.stepIndex;
  notes.show(txt, { simp: lang === 'simp', Z });
  if (!txt) return;
  const text = lang === 'simp' && txt.jing_s ? txt.jing_s : txt.jing;     // 简 keeps the 繁's offsets
  const step = s.stepIndex >= 0 ? player.steps[s.stepIndex] : null;
  const on = step && step.section === n && step.offset != null && step.phrase;
  // offsets count characters, not UTF-16 units; each phrase links to its clause in review/<n>.html
  const base = reviewBase(player.pack.chapter);
  const mk = jingWithReviewLinks(p, n, text, player.steps, on ? step.offset : -1,
                                 on ? step.offset + Array.from(step.phrase).length : -1, base);
  if (mk) mk.scrollIntoView({ block: 'nearest' });
}

// the folder of the playing chapter's reports (考): chapters.json names it (review/ of chapter 5, review-<id>/ of
// another); a pack without the list (?pack=, an old site) has chapter 5's review/ beside it, another chapter none
function reviewBase(ch) {
  const id = ch ? ch.id : DEFAULT_CHAPTER;
  const named = picked.chapter.id === id ? picked.chapter.review : null;
  if (typeof named === 'string' && /^[A-Za-z0-9_-]+\/$/.test(named)) return named;
  return id === DEFAULT_CHAPTER ? 'review/' : null;
}

function esc(x) {
  return String(x ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// the inspector: a catalogue entry (inspector.js)
let lastPick = null;
function showInfo(info) {
  lastPick = info;
  const box = $('xsl-info');
  if (!info) { box.hidden = true; return; }
  const c = catalogue(info, { Z, player });
  const rows = c.rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`);
  $('xsl-info-body').innerHTML = `<h3>${esc(c.title)}</h3><dl>${rows.join('')}</dl>`;
  box.hidden = false;
}

function setLang(l) {
  lang = l === 'simp' ? 'simp' : 'trad';
  $('xsl-lang').textContent = lang === 'simp' ? '繁' : '简';
  $('xsl-lang').title = lang === 'simp' ? '繁體 traditional' : '简体 simplified';
  document.documentElement.lang = lang === 'simp' ? 'zh-Hans' : 'zh-Hant';
  caps.setLang(lang);
  tours.setLang(lang);
  player.setLabelText(lang === 'simp' ? simplify : null);
  if (simplify) (pageSimp || (pageSimp = simpPage((x) => simplify(x)))).set(lang === 'simp');
  if (player.pack) {
    buildUi();
    shownSection = null;
    updateUi(player.state());
    if (lastPick) showInfo(lastPick);
  }
}

// the chapter switch (chapters.js): the site's chapters, or the pack's own chapter alone; its title names the page
function showChapter() {
  const ch = player.pack.chapter || { id: DEFAULT_CHAPTER, title: '鄉射禮' };
  document.title = `${Z(ch.title)} · ${Z('播放')}`;
  document.body.dataset.chapter = ch.id;
  chapterSwitch($('xsl-chapter'), siteChapters ? siteChapters.chapters : [ch], ch.id,
                { Z, go: (id) => location.assign(chapterHref(location.href, id)) });
}

function buildUi() {
  showChapter();
  const list = $('xsl-stage-list');
  list.textContent = '';
  stageItems = new Map();
  let phase = null;
  for (const st of player.stages) {
    if (st.phase_title && st.phase_title !== phase) {
      phase = st.phase_title;
      const h = document.createElement('li');
      h.className = 'phase';
      h.textContent = Z(phase);
      list.append(h);
    }
    const li = document.createElement('li');
    li.textContent = `${st.n}\u3000${Z(st.title)}`;   // an ideographic space between number and title
    li.title = Z(st.incipit || st.title);
    li.dataset.n = String(st.n);
    li.addEventListener('click', () => player.gotoStage(st.n));
    list.append(li);
    stageItems.set(st.n, li);
  }
  const vs = $('xsl-view');
  vs.textContent = '';
  if (player.pack.director) {
    const o = document.createElement('option');
    o.value = 'auto';
    o.textContent = `A ${player.pack.director.title || 'auto'}`;
    vs.append(o);
  }
  for (const [i, v] of player.viewOrder.entries()) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = `${i < 6 ? i + 1 + ' ' : ''}${Z((player.views.titles || {})[v] || v)}`;
    vs.append(o);
  }
  $('xsl-scrub').max = String(player.duration);
}

function wire() {
  $('xsl-play').addEventListener('click', () => player.togglePlay());
  $('xsl-prev-stage').addEventListener('click', () => player.prevStage());
  $('xsl-next-stage').addEventListener('click', () => player.nextStage());
  $('xsl-prev-step').addEventListener('click', () => player.prevStep());
  $('xsl-next-step').addEventListener('click', () => player.nextStep());
  const sc = $('xsl-scrub');
  sc.addEventListener('input', () => { scrubbing = true; player.setTime(Number(sc.value)); });
  sc.addEventListener('change', () => { scrubbing = false; player.setTime(Number(sc.value)); });
  $('xsl-speed').addEventListener('change', (e) => player.setSpeed(Number(e.target.value)));
  $('xsl-view').addEventListener('change', (e) => player.setView(e.target.value));
  $('xsl-roof').addEventListener('change', (e) => player.setRoof(e.target.value));
  $('xsl-labels').addEventListener('change', (e) => player.setLabels(e.target.checked));
  $('xsl-dims').addEventListener('change', (e) => player.setDims(e.target.checked));
  $('xsl-stages-toggle').addEventListener('click', () => {
    $('xsl-stages').hidden = !$('xsl-stages').hidden;
    showCurrentStage();
  });
  $('xsl-text-toggle').addEventListener('click', () => $('xsl-text').classList.toggle('collapsed'));
  $('xsl-lang').addEventListener('click', () => setLang(lang === 'simp' ? 'trad' : 'simp'));
  $('xsl-info-close').addEventListener('click', () => { $('xsl-info').hidden = true; });
  $('xsl-quality-why').addEventListener('click', () => {
    const open = $('xsl-quality-info').classList.toggle('open');
    $('xsl-quality-why').setAttribute('aria-expanded', String(open));
  });
  installKeys({ player });
}

// deep link (docs/classroom.md; the app reads them the same): stage=N the section's start; t=S with stage, S
// seconds into that section; t alone, S seconds into the rite; view; reading (this site's one reading);
// lang=simp; lesson=NAME (applied last: its first stop wins); and the page's own toggles
function applyParams() {
  const p = params;
  let stage = null;
  if (p.has('stage')) {
    stage = player.stages.find((x) => String(x.n) === p.get('stage')) || null;
    if (!stage || !player.gotoStage(stage.n)) problems.push(`stage=${p.get('stage')} (sections 1–${player.stages.length})`);
  }
  if (p.has('reading')) {
    const here = (player.pack.reading || {}).name || 'zheng';
    if (p.get('reading') !== here) problems.push(`reading=${p.get('reading')} (this site plays the ${here} reading only)`);
  }
  if (p.has('t')) {
    const t = Number(p.get('t'));
    const base = stage ? stage.start : 0, max = stage ? stage.end - stage.start : player.duration;
    if (p.get('t').trim() === '' || !Number.isFinite(t) || t < 0 || t > max) {
      problems.push(`t=${p.get('t')} (0–${Math.floor(max)} s${stage ? ` into §${stage.n}` : ''})`);
    } else {
      player.setTime(base + t);
    }
  }
  if (p.has('view')) {
    if (!player.setView(p.get('view'))) problems.push(`view=${p.get('view')} (${player.viewOrder.join(', ')})`);
  }
  if (p.has('roof') && !player.setRoof(p.get('roof'))) problems.push(`roof=${p.get('roof')} (cutaway, solid, ghost, none)`);
  if (p.has('palette')) {
    if (p.get('palette') === PALETTE_NAME) roles.set(true);
    else if (p.get('palette') !== 'cast') problems.push(`palette=${p.get('palette')} (${PALETTE_NAME}, cast)`);
  }
  if (p.has('labels')) player.setLabels(p.get('labels') !== '0');
  if (p.has('dims')) player.setDims(p.get('dims') === '1');
  if (p.has('speed')) {
    const s = Number(p.get('speed'));
    if (!(s >= 0.5 && s <= 8)) problems.push(`speed=${p.get('speed')} (0.5–8)`); else player.setSpeed(s);
  }
  if (p.get('play') === '1') player.play();
  if (p.has('classroom')) setClassroom(p.get('classroom') === '1');
}

async function main() {
  wire();
  try {
    await player.load(pack);
  } catch (e) {
    message(`cannot load the pack ${pack}: ${e && e.message || e}`);
    document.body.dataset.ready = 'error';
    return;
  }
  simplify = simplifier(player.pack);
  buildUi();
  if (lang === 'simp') setLang('simp');
  applyParams();
  const lessonProblem = tours.openLink(location.search);
  if (lessonProblem) problems.push(lessonProblem);
  for (const r of refused) problems.push(`${String(r).slice(0, 80)} is not a file of this site`);
  if (window.innerWidth >= 1500) $('xsl-stages').hidden = false;
  if (problems.length) message(`ignored: ${problems.join('; ')}`);
  updateUi(player.state());
  await player._nextFrame();
  window.__xslFirstFrame = performance.now();
  document.body.dataset.ready = '1';
}

main();
