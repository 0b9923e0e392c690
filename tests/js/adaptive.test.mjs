// adaptive.js (issue 25): the frame-rate ladder, driven with made-up frame times (no browser, no clock).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Adaptive, SCALES, adaptiveOptions } from '../../assets/web/adaptive.js';

function fakePlayer() {
  return { renderScale: 1, scales: [], qualities: [], contact: { mesh: { visible: true } },
    setRenderScale(s) { this.scales.push(s); }, onQuality(q) { this.qualities.push(q); } };
}

// n frames `ms` apart, from time `t0`; returns the time after the last
function frames(a, n, ms, t0 = 1000) {
  let t = t0;
  for (let i = 0; i < n; i++) { a.onDrawn(t); t += ms; }
  return t;
}

test('slow frames step the render scale down the ladder, one step a window', () => {
  const p = fakePlayer(), a = new Adaptive(p, { budgetMs: 31 });
  frames(a, 21, 50);                       // 20 intervals of 50 ms: over the budget
  assert.equal(a.level, 1);
  assert.deepEqual(p.scales, [SCALES[1]]);
  assert.match(p.qualities.at(-1), /render scale 85 %/);
});

test('past the smallest scale the contact shadows go, then the labels are thinned', () => {
  const p = fakePlayer(), a = new Adaptive(p);
  let t = 1000;
  for (let k = 0; k < SCALES.length + 3; k++) t = frames(a, 21, 60, t + 1000);
  assert.equal(a.level, a.maxLevel);
  assert.equal(a.contactOff(), true);
  assert.equal(p.contact.mesh.visible, false);
  assert.equal(a.labelsEvery(), 3);
});

test('fast windows raise it again only after three in a row', () => {
  const p = fakePlayer(), a = new Adaptive(p);
  let t = frames(a, 21, 50);
  assert.equal(a.level, 1);
  t = frames(a, 21, 10, t + 1000);
  t = frames(a, 20, 10, t);
  assert.equal(a.level, 1);                // two good windows: not yet
  frames(a, 20, 10, t);
  assert.equal(a.level, 0);
});

test('a pause is not a slow frame', () => {
  const a = new Adaptive(fakePlayer());
  let t = 1000;
  for (let i = 0; i < 60; i++) { a.onDrawn(t); t += 400; }    // every gap over 250 ms
  assert.equal(a.level, 0);
  assert.equal(a.lastMean, null);
});

test('turned off it never moves, and says so', () => {
  const a = new Adaptive(fakePlayer(), { enabled: false });
  frames(a, 100, 80);
  assert.equal(a.level, 0);
  assert.equal(a.describe(), 'adaptive off');
});

test('the options: off, a budget, and a bad budget is the default', () => {
  assert.deepEqual(adaptiveOptions({ adaptive: false }), { enabled: false, budgetMs: 31 });
  assert.deepEqual(adaptiveOptions({ adaptiveBudgetMs: 50 }), { enabled: true, budgetMs: 50 });
  assert.deepEqual(adaptiveOptions({ adaptiveBudgetMs: 1e9 }), { enabled: true, budgetMs: 31 });
});
