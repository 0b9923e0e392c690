// The side-by-side page (beside.html, issue 43): two parallel sections of two chapters — 鄉飲酒禮 §5 賓酢主人
// and 鄉射禮 §6, the same form acted in two rites — played together in two halves of the window, each half a
// Player of its own on its chapter's pack, one clock (Space starts both, each from its section's start, and
// each stops at its section's end), and the differences of their texts listed (parallels.json, written by
// `python -m scene site` from scene/text/parallel.py: no server needed).
import { Player } from './player.js';
import { loadChapters, pickChapter, choosePair } from './chapters.js';
import { simplifier } from './simp.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const problems = [];

function message(text) {
  const m = $('xsl-message');
  m.textContent = text;
  m.hidden = !text;
}

function hms(s) {
  s = Math.max(0, Math.floor(s));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const lang = params.get('lang') === 'simp' ? 'simp' : 'trad';
let Z = (x) => x;

// one half: a Player on the chapter's pack at section n; stops itself at the section's end
async function half(box, side, chapters) {
  const { chapter } = pickChapter(chapters, side.chapter);
  const pack = new URL(chapter.pack, location.href).href;
  const player = new Player(box, { fontUrl: new URL('font/cjk.otf', pack).href, onError: (e) => message(String(e && e.message || e)) });
  await player.load(pack);
  const stage = player.stages.find((s) => s.n === side.n);
  const h = { player, side, stage, chapter };
  player.gotoStage(side.n);
  player.signals.stageChanged.add((st) => {          // the section is over: this half waits for the other
    if (player.state().playing && st && st.n !== side.n) { player.pause(); player.setTime(stage.end - 0.05); }
  });
  return h;
}

function listDifferences(pair, first) {
  const flip = first !== pair.a;                // the asked section's words first
  const A = flip ? pair.b : pair.a, B = flip ? pair.a : pair.b;
  $('xsl-beside-diff-title').textContent = Z(`異文 · ${A.chapter_title} §${A.n} ／ ${B.chapter_title} §${B.n}`);
  $('xsl-beside-note').textContent = Z(`${pair.note}（${pair.basis === 'text' ? '文同' : '事同'}，ratio ${pair.ratio}）`);
  const ol = $('xsl-beside-diff-list');
  ol.textContent = '';
  for (const d of pair.differences) {
    const li = document.createElement('li');
    const x = flip ? d.b : d.a, y = flip ? d.a : d.b;
    const ctx = document.createElement('span');
    ctx.textContent = Z(`…${d.after || ''} `);
    const a = document.createElement('span');
    a.className = 'a';
    a.textContent = Z(`${A.chapter_title}「${x || '—'}」`);
    const b = document.createElement('span');
    b.className = 'b';
    b.textContent = Z(` ${B.chapter_title}「${y || '—'}」`);
    li.append(ctx, a, b);
    ol.append(li);
  }
}

async function main() {
  const chapters = await loadChapters();
  let pairs = [];
  try {
    const r = await fetch(new URL('parallels.json', location.href), { cache: 'no-cache' });
    if (r.ok) pairs = (await r.json()).pairs || [];
  } catch (e) { /* none */ }
  let pick = choosePair(pairs, params.get('beside'), params.get('with'));
  if (pick.problem) {
    problems.push(pick.problem);
    pick = choosePair(pairs, null, null);
  }
  if (pick.problem) { message(pick.problem); document.body.dataset.ready = 'error'; return; }
  const halves = [];
  try {
    halves.push(await half($('xsl-beside-a'), pick.first, chapters));
    halves.push(await half($('xsl-beside-b'), pick.second, chapters));
  } catch (e) {
    message(`cannot load a pack: ${e && e.message || e}`);
    document.body.dataset.ready = 'error';
    return;
  }
  if (lang === 'simp') { const s = simplifier(halves[0].player.pack); Z = (x) => s(x); }
  for (const [h, id] of [[halves[0], 'xsl-beside-a-title'], [halves[1], 'xsl-beside-b-title']]) {
    $(id).textContent = Z(`${h.chapter.title || h.side.chapter_title} §${h.side.n} ${h.side.title}`);
  }
  document.title = Z(`${pick.first.chapter_title} §${pick.first.n} ／ ${pick.second.chapter_title} §${pick.second.n} · 對讀`);
  listDifferences(pick.pair, pick.first);
  const playing = () => halves.some((h) => h.player.state().playing);
  const clock = () => Math.max(...halves.map((h) => h.player.state().t - h.stage.start));
  const toggle = () => {
    if (playing()) { for (const h of halves) h.player.pause(); return; }
    const done = halves.every((h) => h.player.state().t >= h.stage.end - 0.1 || h.player.state().stage !== h.side.n);
    for (const h of halves) {
      const s = h.player.state();
      if (done || s.stage !== h.side.n) h.player.gotoStage(h.side.n);
      if (done || s.t < h.stage.end - 0.1) h.player.play();
    }
  };
  const home = () => { for (const h of halves) { h.player.pause(); h.player.gotoStage(h.side.n); } };
  $('xsl-beside-play').addEventListener('click', (e) => { toggle(); e.currentTarget.blur(); });
  window.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === ' ' || ev.code === 'Space') { ev.preventDefault(); toggle(); }
    else if (ev.key === 'Home') { ev.preventDefault(); home(); }
  }, true);
  setInterval(() => {
    $('xsl-beside-play').textContent = playing() ? '❚❚' : '▶';
    $('xsl-beside-time').textContent = hms(clock());
  }, 250);
  if (problems.length) message(`ignored: ${problems.join('; ')}`);
  window.__xslPlayers = halves.map((h) => h.player);
  await Promise.all(halves.map((h) => h.player.nextFrame()));
  document.body.dataset.ready = '1';
}

main();
