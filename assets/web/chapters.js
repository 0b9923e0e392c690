// The chapter a page plays (issue 43): 鄉射禮 (xiangshe, chapter 5, the default) or 鄉飲酒禮 (xiangyinjiu,
// chapter 4) — from ?chapter= and the site's chapters.json (`python -m scene site`: {opens, chapters: [{id,
// number, title, title_en, pack}]}); the switch between them (one button a chapter: Tab reaches it, Enter
// opens it, the clicker's keys still reach the rite) and the address of another chapter (the reading, the
// language and the classroom's options kept; the stage, time, view and lesson, which belong to a chapter, not).
export const DEFAULT_CHAPTER = 'xiangshe';

// what a link keeps when it changes chapter (everything else is read within a chapter)
const KEEP = ['reading', 'lang', 'keys', 'quality', 'palette', 'classroom', 'present', 'follow', 'key', 'scale'];

/** The site's chapters.json beside the page, or null (absent or unreadable: chapter 5 only, as before). */
export async function loadChapters(base = location.href) {
  try {
    const r = await fetch(new URL('chapters.json', base), { cache: 'no-cache' });
    if (!r.ok) return null;
    const j = await r.json();
    if (!j || !Array.isArray(j.chapters) || !j.chapters.length) return null;
    const ok = j.chapters.filter((c) => c && typeof c.id === 'string' && typeof c.pack === 'string');
    return ok.length ? { opens: typeof j.opens === 'string' ? j.opens : ok[0].id, chapters: ok } : null;
  } catch (e) {
    return null;
  }
}

/** The chapter to play: {chapter, problem} — `param` (?chapter=) if the list has it, else the list's `opens`
 *  (an unknown id is one line: "chapter=… (xiangshe, xiangyinjiu)"). Without a list, chapter 5 at pack/. */
export function pickChapter(list, param) {
  const chapters = list ? list.chapters : [{ id: DEFAULT_CHAPTER, pack: 'pack/' }];
  const fallback = chapters.find((c) => c.id === (list ? list.opens : DEFAULT_CHAPTER))
    || chapters.find((c) => c.id === DEFAULT_CHAPTER) || chapters[0];
  if (param == null) return { chapter: fallback, problem: null };
  const hit = chapters.find((c) => c.id === param);
  if (hit) return { chapter: hit, problem: null };
  const names = chapters.map((c) => c.id).join(', ');
  return { chapter: chapters.find((c) => c.id === DEFAULT_CHAPTER) || fallback,
           problem: `chapter=${String(param).slice(0, 40)} (${names})` };
}

/** The address of chapter `id` from `href`: its start, the reading and the page's options kept. */
export function chapterHref(href, id) {
  const u = new URL(href);
  const q = new URLSearchParams();
  for (const k of KEEP) if (u.searchParams.has(k)) q.set(k, u.searchParams.get(k));
  q.set('chapter', id);
  u.search = q.toString();
  u.hash = '';
  return u.href;
}

/** Fill `box` with one button a chapter (the current one pressed); a press calls go(id). One chapter: its
 *  title only. */
export function chapterSwitch(box, chapters, current, { Z = (x) => x, go } = {}) {
  box.textContent = '';
  box.hidden = !chapters || !chapters.length;
  if (box.hidden) return;
  if (chapters.length === 1) {
    const s = document.createElement('span');
    s.className = 'xsl-chapter-title';
    s.dataset.chapter = chapters[0].id;
    s.textContent = Z(chapters[0].title || chapters[0].id);
    box.append(s);
    return;
  }
  for (const c of chapters) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.chapter = c.id;
    b.textContent = Z(c.title || c.id);
    b.title = `${Z(c.title || c.id)}${c.title_en ? ' · ' + c.title_en : ''}${c.number ? ` (儀禮 ${c.number})` : ''}`;
    b.setAttribute('aria-pressed', String(c.id === current));
    b.addEventListener('click', () => { if (c.id !== current && go) go(c.id); });
    box.append(b);
  }
}

// ---- the side-by-side page (beside.html): which pair of parallel sections (parallels.json) it plays
const REF = /^([a-z][a-z0-9_]{0,39}):(\d{1,3})$/;
function refOf(text) {
  const m = REF.exec(String(text || '').trim());
  return m ? { chapter: m[1], n: Number(m[2]) } : null;
}
const same = (r, side) => r && side.chapter === r.chapter && side.n === r.n;

/** The pair `beside` (and `with`) name among the pairs: {first, second, pair} (first: the asked section), or
 *  {problem}. Without `beside`: the first pair (鄉飲酒 §5 and 鄉射 §6 if there). */
export function choosePair(pairs, beside, other) {
  if (!pairs.length) return { problem: 'no parallel sections on this site (parallels.json)' };
  if (beside == null) {
    const p = pairs.find((x) => x.a.chapter === 'xiangyinjiu' && x.a.n === 5) || pairs[0];
    return { first: p.a, second: p.b, pair: p };
  }
  const r = refOf(beside);
  if (!r) return { problem: `beside=${String(beside).slice(0, 40)} is not chapter:n (e.g. xiangyinjiu:5)` };
  const w = other == null ? null : refOf(other);
  if (other != null && !w) return { problem: `with=${String(other).slice(0, 40)} is not chapter:n` };
  for (const p of pairs) {
    for (const [x, y] of [[p.a, p.b], [p.b, p.a]]) {
      if (same(r, x) && (!w || same(w, y))) return { first: x, second: y, pair: p };
    }
  }
  return { problem: `beside=${beside}${other != null ? ` with=${other}` : ''}: no parallel section on this site` };
}
