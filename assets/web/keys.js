// One key handler for the whole page (issue 27), shared by the app (app.js) and the static page
// (player-page.js).  Why a module of its own: a presentation clicker sends PageDown / PageUp / → / ← /
// Space / B / . / F5 / Esc to whatever has the focus, and a teacher who has just clicked a control (標籤,
// the speed select, the lesson picker, the 鄭注 switch …) leaves the focus there — each control then took
// the clicker's keys for itself (a select changed its value, a switch flipped, Space opened a menu) and the
// rite stood still.  So:
//   * one keydown listener on the window, in the capture phase (before any control sees the key), sends
//     every key the page knows to the player (player.handleKey: its extensions first, then its own keys)
//     and stops it there, so no control can act on it too;
//   * only text entry keeps its keys (a field one types in: a number of the reading panel, a prompt);
//   * a control reached with the keyboard (Tab: it shows its focus ring, :focus-visible) keeps Space and
//     Enter, so it can still be worked without a mouse (WCAG 2.1.1); the arrows and PageUp/PageDown are the
//     clicker's everywhere;
//   * a control used with the mouse gives the focus back (it is blurred once its click or change is done,
//     and once more when a menu hands the focus back to its field).
// Shift+K (classroom.js) still turns the single-character keys off and on.

import { closeAll } from './listbox.js';

const TEXT_TYPES = new Set(['text', 'number', 'search', 'email', 'url', 'password', 'tel', 'date', 'time',
  'datetime-local', 'month', 'week']);

// a field one types in (its keys are its own)
export function isTextEntry(el) {
  if (!el || el.nodeType !== 1) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA') return !el.readOnly;
  if (el.tagName !== 'INPUT') return false;
  // a Vuetify select is an <input type=text inputmode=none role=combobox>: a control, not a text field
  if (el.getAttribute('inputmode') === 'none' || el.getAttribute('role') === 'combobox') return false;
  return TEXT_TYPES.has((el.type || 'text').toLowerCase()) && !el.readOnly;
}

// a control the pointer uses and that should not keep the focus afterwards
function controlOf(el) {
  if (!el || !el.closest) return null;
  return el.closest('button, select, xsl-select, input, [role="button"], [role="tab"], [role="switch"], [role="combobox"], ' +
    '[role="option"], .v-btn, .v-list-item, .v-field, .v-selection-control');
}

const SPACE = (ev) => ev.key === ' ' || ev.key === 'Spacebar' || ev.code === 'Space';

// install on a page: `player` (its handleKey), `after(ev)` called after a key was handled (the app publishes
// to its followers).  Returns {dispose, handle} (handle: the same decision for a synthetic event, for tests).
export function installKeys({ player, after = null, root = window } = {}) {
  let pointerAt = -1e9;
  let tabAt = -1e9;
  let keyboardFocused = null;      // the control Tab (the keyboard) last gave the focus to

  function handle(ev) {
    if (!player || ev.defaultPrevented) return false;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;       // the browser's and the OS's own
    const tg = ev.target;
    if (isTextEntry(tg)) return false;
    const ctl = controlOf(tg);
    // a keyboard user working this control (Tab brought the focus to it) keeps Space and Enter; one the pointer
    // or a menu gave the focus to does not, even once a key has made it :focus-visible (then a later Space chose
    // an option of an open list, or opened it)
    const byKeyboard = tg === keyboardFocused && performance.now() - pointerAt > 800;
    if (ctl && (SPACE(ev) || ev.key === 'Enter') && byKeyboard) return false;
    if (ev.key === 'Tab' || ev.key === 'Enter') return false;
    const done = player.handleKey(ev);
    if (done) {
      ev.preventDefault();
      ev.stopPropagation();
      // an open drop-down closes (the key went to the rite): ours (listbox.js), and a Vuetify select's menu,
      // which closes when its field, opened with the pointer, gives the focus back
      closeAll();
      if (ctl && !byKeyboard && tg.blur) tg.blur();      // (a Vuetify menu: the app's after() closes it)
      if (after) { try { after(ev); } catch (e) { console.error(e); } }
    }
    return done;
  }

  // the focus goes back to the page after a pointer used a control (not after the keyboard did)
  function giveBack() {
    const a = document.activeElement;
    if (a && a !== document.body && !isTextEntry(a) && controlOf(a)) a.blur();
  }
  const recent = () => performance.now() - pointerAt < 800;
  let pointerInMenu = false;
  const onPointer = (ev) => {
    if (!controlOf(ev.target)) return;
    pointerAt = performance.now();
    pointerInMenu = !!ev.target.closest('.v-overlay, [role="listbox"], [role="menu"]');
  };
  // a click: a button, a checkbox, a switch, a tab is done with (a select is not: its list is opening)
  const onClick = (ev) => {
    const c = controlOf(ev.target);
    if (!recent() || !c || isTextEntry(ev.target)) return;
    if (c.tagName === 'SELECT' || c.matches('[role="combobox"], .v-field') || c.querySelector('[role="combobox"]')) return;
    setTimeout(giveBack, 0);
  };
  // a change: a value was chosen (a select, a checkbox)
  const onChange = (ev) => { if (recent() && !isTextEntry(ev.target)) setTimeout(giveBack, 0); };
  // a menu (Vuetify's select) hands the focus back to its field a moment after the choice
  const onFocus = (ev) => {
    // (Tab gives a control to the keyboard; a menu or a script giving the focus back to it keeps that)
    if (performance.now() - tabAt < 500) keyboardFocused = ev.target;
    else if (ev.target !== keyboardFocused) keyboardFocused = null;
    if (recent() && pointerInMenu && !isTextEntry(ev.target) && controlOf(ev.target) &&
        !ev.target.closest('.v-overlay, [role="listbox"], [role="menu"]')) setTimeout(giveBack, 0);
  };
  const onKey = (ev) => { if (ev.key === 'Tab') tabAt = performance.now(); handle(ev); };
  root.addEventListener('keydown', onKey, true);
  document.addEventListener('pointerdown', onPointer, true);
  document.addEventListener('change', onChange, true);
  document.addEventListener('click', onClick, true);
  document.addEventListener('focusin', onFocus, true);
  return {
    handle,
    dispose() {
      root.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('change', onChange, true);
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('focusin', onFocus, true);
    },
  };
}
