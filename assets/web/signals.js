// Signals (issue 42): the player's parts announce what changed, the others subscribe — as the three.js
// editor's signals do (`signals.stageChanged.add(fn)`).  A pure module: no DOM, no three.js (tests/js).
//
//   const s = createSignals(['stageChanged', 'viewChanged']);
//   const off = s.stageChanged.add((stage) => …);   // returns a function that removes it
//   s.stageChanged.dispatch(stage);                 // every listener, in the order added
//
// A listener that throws does not stop the others (the error goes to `onError`, console.error by default);
// a listener added or removed while a signal dispatches takes effect from its next dispatch.

export class Signal {
  constructor(name = '', onError = null) {
    this.name = name;
    this._fns = [];
    this._onError = onError;
  }

  add(fn) {
    if (typeof fn !== 'function') throw new TypeError(`signal ${this.name}: a listener must be a function`);
    if (!this._fns.includes(fn)) this._fns = [...this._fns, fn];
    return () => this.remove(fn);
  }

  addOnce(fn) {
    const once = (...args) => { this.remove(once); return fn(...args); };
    return this.add(once);
  }

  remove(fn) { this._fns = this._fns.filter((f) => f !== fn); }

  has(fn) { return this._fns.includes(fn); }

  get count() { return this._fns.length; }

  dispatch(...args) {
    for (const fn of this._fns) {             // (a copy: add and remove replace the array)
      try { fn(...args); } catch (e) {
        if (this._onError) this._onError(e, this.name); else console.error(`signal ${this.name}:`, e);
      }
    }
  }

  clear() { this._fns = []; }
}

// one Signal per name, frozen: a misspelt signal is an error, not a new one
export function createSignals(names, onError = null) {
  const out = {};
  for (const n of names) out[n] = new Signal(n, onError);
  return Object.freeze(out);
}
