// plan-fit.js (issue 27): the plan view fitted to the frame; pure arithmetic, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captionRoom, fitPlan } from '../../assets/web/plan-fit.js';

// a plan preset over the whole court: 28 m wide (x), 90 m long (y)
const bounds = [-14, 14, -80, 10, 0, 10];
const plan = { parallel: true, parallel_scale: 50, focal_point: [0, -35, 0], position: [0, -35, 100] };

test('a wide window turns the long court along its long side (east up)', () => {
  const c = fitPlan(plan, bounds, 1600, 900);
  assert.deepEqual(c.view_up, [1, 0, 0]);
  assert.equal(c.fitted, true);
});

test('a portrait window keeps north up', () => {
  const c = fitPlan(plan, bounds, 600, 1000);
  assert.deepEqual(c.view_up, [0, 1, 0]);
});

test('the whole region fits in the band the caption and the tools leave free', () => {
  const w = 1600, h = 900;
  const c = fitPlan(plan, bounds, w, h);
  const mpp = (c.parallel_scale * 2) / h;                 // metres per pixel
  const free = h - 52 - Math.min(captionRoom(w, h), h * 0.4);
  assert.ok(28 / mpp <= free, `28 m across is ${28 / mpp} px in a band of ${free}`);
  assert.ok(90 / mpp <= w);
});

test('what it cannot fit is returned unchanged', () => {
  const perspective = { parallel: false, focal_point: [0, 0, 0], position: [0, 0, 1] };
  assert.equal(fitPlan(perspective, bounds, 800, 600), perspective);
  assert.equal(fitPlan(plan, bounds, 0, 600), plan);
  assert.equal(fitPlan(plan, [100, 101, 100, 101, 0, 1], 800, 600), plan);   // the preset misses the scene
});

test('the caption room grows with the height and shrinks with the width', () => {
  assert.ok(captionRoom(1600, 1200) > captionRoom(1600, 600));
  assert.ok(captionRoom(400, 900) > captionRoom(1600, 900));
});
