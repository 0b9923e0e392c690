// signals.js (issue 42): the player's event hub, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Signal, createSignals } from '../../assets/web/signals.js';

test('listeners run in the order added, with the dispatched values; the same function is added once', () => {
  const s = new Signal('x'), got = [];
  const a = (v, w) => got.push(['a', v, w]);
  s.add(a); s.add((v) => got.push(['b', v])); s.add(a);
  s.dispatch(1, 2);
  assert.deepEqual(got, [['a', 1, 2], ['b', 1]]);
  assert.equal(s.count, 2);
});

test('add returns a remover; remove and addOnce', () => {
  const s = new Signal('x'); let n = 0, m = 0;
  const off = s.add(() => n++);
  s.addOnce(() => m++);
  s.dispatch(); s.dispatch();
  off(); s.dispatch();
  assert.equal(n, 2); assert.equal(m, 1); assert.equal(s.count, 0);
});

test('a listener that throws does not stop the others, and its error is reported with the signal', () => {
  const errs = [], s = new Signal('stageChanged', (e, name) => errs.push([e.message, name]));
  let ran = false;
  s.add(() => { throw new Error('boom'); });
  s.add(() => { ran = true; });
  s.dispatch();
  assert.equal(ran, true);
  assert.deepEqual(errs, [['boom', 'stageChanged']]);
});

test('a listener added during a dispatch runs from the next one; one removed during it still runs in it', () => {
  const s = new Signal('x'), got = [];
  const late = () => got.push('late');
  const b = () => got.push('b');
  s.add(() => { got.push('a'); s.add(late); s.remove(b); });
  s.add(b);
  s.dispatch();
  assert.deepEqual(got, ['a', 'b']);
  s.dispatch();
  assert.deepEqual(got, ['a', 'b', 'a', 'late']);
});

test('createSignals: one signal per name, and no other name', () => {
  const s = createSignals(['stageChanged', 'viewChanged']);
  assert.ok(s.stageChanged instanceof Signal);
  assert.notEqual(s.stageChanged, s.viewChanged);
  assert.throws(() => { s.other = new Signal(); }, TypeError);
  assert.equal(s.other, undefined);
  assert.throws(() => s.stageChanged.add(3), TypeError);
});
