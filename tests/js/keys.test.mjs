// keys.js (issue 27): which element keeps its keys; a fake element stands for the DOM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTextEntry } from '../../assets/web/keys.js';

function el(tagName, props = {}, attrs = {}) {
  return { nodeType: 1, tagName, isContentEditable: false, readOnly: false, ...props,
    getAttribute: (k) => (k in attrs ? attrs[k] : null) };
}

test('fields one types in keep their keys', () => {
  assert.equal(isTextEntry(el('INPUT', { type: 'text' })), true);
  assert.equal(isTextEntry(el('INPUT', { type: 'number' })), true);
  assert.equal(isTextEntry(el('TEXTAREA')), true);
  assert.equal(isTextEntry(el('DIV', { isContentEditable: true })), true);
});

test('controls, read-only fields and Vuetify\'s select are not text entry: the clicker\'s keys go to the player', () => {
  assert.equal(isTextEntry(el('INPUT', { type: 'checkbox' })), false);
  assert.equal(isTextEntry(el('INPUT', { type: 'range' })), false);
  assert.equal(isTextEntry(el('INPUT', { type: 'text', readOnly: true })), false);
  assert.equal(isTextEntry(el('TEXTAREA', { readOnly: true })), false);
  assert.equal(isTextEntry(el('INPUT', { type: 'text' }, { inputmode: 'none' })), false);
  assert.equal(isTextEntry(el('INPUT', { type: 'text' }, { role: 'combobox' })), false);
  assert.equal(isTextEntry(el('BUTTON')), false);
  assert.equal(isTextEntry(null), false);
  assert.equal(isTextEntry({ nodeType: 3 }), false);             // a text node
});
