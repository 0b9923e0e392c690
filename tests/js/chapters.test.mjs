// chapters.js (issue 43): which chapter a page plays, the address of another, and the side-by-side's pair.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickChapter, chapterHref, choosePair, DEFAULT_CHAPTER } from '../../assets/web/chapters.js';

const LIST = { opens: 'xiangshe', chapters: [
  { id: 'xiangshe', number: 5, title: '鄉射禮', pack: 'pack/' },
  { id: 'xiangyinjiu', number: 4, title: '鄉飲酒禮', pack: 'pack-xiangyinjiu/' }] };

test('?chapter= picks the chapter of the list; none: the list opens its own; an unknown id is one line and chapter 5', () => {
  assert.equal(pickChapter(LIST, 'xiangyinjiu').chapter.pack, 'pack-xiangyinjiu/');
  assert.equal(pickChapter(LIST, null).chapter.id, 'xiangshe');
  assert.equal(pickChapter({ ...LIST, opens: 'xiangyinjiu' }, null).chapter.id, 'xiangyinjiu');
  const bad = pickChapter({ ...LIST, opens: 'xiangyinjiu' }, 'nope');
  assert.equal(bad.chapter.id, DEFAULT_CHAPTER);
  assert.equal(bad.problem, 'chapter=nope (xiangshe, xiangyinjiu)');
});

test('without chapters.json: chapter 5 at pack/, any other id refused', () => {
  assert.deepEqual(pickChapter(null, null), { chapter: { id: 'xiangshe', pack: 'pack/' }, problem: null });
  assert.match(pickChapter(null, 'xiangyinjiu').problem, /^chapter=xiangyinjiu \(xiangshe\)$/);
});

test("another chapter's address keeps the reading and the page's options, not the moment", () => {
  const u = new URL(chapterHref('https://x.org/site/index.html?stage=5&t=3&view=hall&reading=jia&lang=simp&lesson=a#x', 'xiangyinjiu'));
  assert.equal(u.pathname, '/site/index.html');
  assert.deepEqual(Object.fromEntries(u.searchParams), { reading: 'jia', lang: 'simp', chapter: 'xiangyinjiu' });
  assert.equal(u.hash, '');
});

test('the side-by-side: beside= finds its pair either way round; with= chooses; a bad one is one line', () => {
  const P = [
    { a: { chapter: 'xiangyinjiu', n: 4 }, b: { chapter: 'xiangshe', n: 5 } },
    { a: { chapter: 'xiangyinjiu', n: 5 }, b: { chapter: 'xiangshe', n: 6 } }];
  assert.equal(choosePair(P, null, null).pair, P[1]);
  const r = choosePair(P, 'xiangshe:6', null);
  assert.deepEqual([r.first, r.second], [P[1].b, P[1].a]);
  assert.equal(choosePair(P, 'xiangyinjiu:4', 'xiangshe:5').pair, P[0]);
  assert.match(choosePair(P, 'xiangyinjiu:4', 'xiangshe:6').problem, /no parallel section/);
  assert.match(choosePair(P, 'x:y', null).problem, /is not chapter:n/);
  assert.match(choosePair([], null, null).problem, /no parallel sections/);
});
