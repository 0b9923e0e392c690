// The app's link (issue 42: one meaning for app and site, docs/classroom.md): ?stage=&t=&view=&reading=&lang=
// &classroom=&present=&follow=&key=&lesson=&palette=&keys=&quality= read and checked against the pack in force.
// Pure: the address's query and the pack in, {stage, t, view, reading, lang, classroom, role, key, palette,
// problems} out (a problem is one line of the message the page shows).
import { PALETTE_NAME } from './palette.js';

export const VIEWS = ['auto', 'overview', 'hall', 'range', 'plan', 'archer', 'target', 'guest'];
export const PARAMS = ['chapter', 'stage', 't', 'view', 'reading', 'classroom', 'present', 'follow', 'key', 'lesson', 'palette',
  'keys', 'quality', 'lang'];

// validate ?stage=&t=&view=&reading=&classroom= against the pack; problems -> one visible message
export function readParams(search, manifest) {
  const q = new URLSearchParams(search);
  const stageOf = (n) => manifest.stages.find((s) => s.n === n);
  const out = { problems: [] };
  for (const k of q.keys()) if (!PARAMS.includes(k)) out.problems.push(`unknown parameter '${k}'`);
  if (q.has('reading')) out.reading = q.get('reading');
  if (q.has('chapter')) out.chapter = q.get('chapter').slice(0, 40);   // (the server checks it: one line)
  if (q.has('key')) out.key = q.get('key').slice(0, 100);
  if (q.has('stage')) {
    const n = Number(q.get('stage'));
    if (!Number.isInteger(n) || !stageOf(n)) out.problems.push(`stage=${q.get('stage')} is not a section of the rite (1–${manifest.stages.length})`);
    else out.stage = n;
  }
  if (q.has('t')) {
    const t = Number(q.get('t'));
    const st = out.stage ? stageOf(out.stage) : null;
    const max = st ? st.end - st.start : manifest.duration_s;
    if (q.get('t') === '' || !Number.isFinite(t) || t < 0 || t > max) out.problems.push(`t=${q.get('t')} is not a time within ${st ? '§' + st.n : 'the rite'} (0–${max.toFixed(1)} s)`);
    else out.t = t;
  }
  if (q.has('view')) {
    if (!VIEWS.includes(q.get('view'))) out.problems.push(`view=${q.get('view')} is not a view (${VIEWS.join(', ')})`);
    else out.view = q.get('view');
  }
  for (const k of ['present', 'follow']) {
    if (q.has(k)) {
      if (!['1', '0', 'true', 'false'].includes(q.get(k))) out.problems.push(`${k}=${q.get(k)} is not 1 or 0`);
      else if (['1', 'true'].includes(q.get(k))) out.role = k;
    }
  }
  if (q.has('present') && q.has('follow')) { out.problems.push('present and follow together'); out.role = ''; }
  if (q.has('palette')) {
    if (![PALETTE_NAME, 'cast'].includes(q.get('palette'))) out.problems.push(`palette=${q.get('palette')} is not ${PALETTE_NAME} or cast`);
    else out.palette = q.get('palette') === PALETTE_NAME;
  }
  if (q.has('keys') && !['1', '0', 'on', 'off', 'true', 'false'].includes(q.get('keys'))) {
    out.problems.push(`keys=${q.get('keys')} is not 0 or 1`);
  }
  if (q.has('quality') && !['auto', 'fast', 'high'].includes(q.get('quality'))) {
    out.problems.push(`quality=${q.get('quality')} is not auto, fast or high`);
  }
  if (q.has('lang')) {
    if (!['simp', 'trad'].includes(q.get('lang'))) out.problems.push(`lang=${q.get('lang')} is not simp or trad`);
    else out.lang = q.get('lang');
  }
  if (q.has('classroom')) {
    if (!['1', '0', 'true', 'false'].includes(q.get('classroom'))) out.problems.push(`classroom=${q.get('classroom')} is not 1 or 0`);
    else out.classroom = ['1', 'true'].includes(q.get('classroom'));
  }
  return out;
}
