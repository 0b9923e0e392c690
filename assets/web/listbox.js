// <xsl-select>: the player's drop-down, a select-only combobox (WAI-ARIA APG) instead of a native <select>.
//
// Why (issue 42): an open native drop-down is drawn by the browser outside the page and takes every key — a
// clicker's PageDown never reached the rite, and a later Space picked the highlighted option.  This one is part
// of the page: the page's key handler (keys.js, capture phase) sees every key first, so PageDown / PageUp /
// → / ← / Space reach the rite with the list open, and the list closes (keys.js calls close()).
//
// It keeps a native select's surface, so a page uses it as one: <option> children hold the choices (added,
// removed or renamed at any time), `value` reads and sets the chosen one, `options` lists them, and a choice
// made by the user fires a bubbling `change` event.  The element itself is the combobox (role, tabindex,
// aria-expanded, aria-controls, aria-activedescendant; its aria-label names it); the list is a <ul
// role="listbox"> of <li role="option" aria-selected>.  Keys (when it has the focus): ↓ ↑ Home End move, Enter
// or Space (from the keyboard) choose, Escape and Tab close; a click opens it, a click on an option chooses.
let seq = 0;

const STYLE = `
xsl-select { position: relative; display: inline-flex; align-items: center; gap: 0.3em; cursor: pointer;
  min-width: 3.5em; padding: 1px 1.4em 1px 6px; border: 1px solid #8a8073; border-radius: 3px; background: #fffdf7;
  color: #1e1b18; font: inherit; line-height: 1.4; user-select: none; white-space: nowrap; }
xsl-select::after { content: ''; position: absolute; right: 6px; top: 50%; margin-top: -2px; border: 4px solid transparent;
  border-top-color: currentColor; }
xsl-select:focus-visible { outline: 2px solid #b4531c; outline-offset: 1px; }
xsl-select > option { display: none; }
xsl-select > ul[role="listbox"] { position: absolute; left: 0; z-index: 60; margin: 0; padding: 2px 0; list-style: none;
  min-width: 100%; max-height: 60vh; overflow-y: auto; background: #fffdf7; border: 1px solid #8a8073; border-radius: 3px;
  box-shadow: 0 3px 10px rgba(0, 0, 0, 0.25); }
xsl-select > ul[role="listbox"][hidden] { display: none; }
xsl-select > ul.up { bottom: 100%; }
xsl-select > ul.down { top: 100%; }
xsl-select li[role="option"] { padding: 2px 10px; }
xsl-select li[role="option"][aria-selected="true"] { font-weight: 600; }
xsl-select li[role="option"].active { background: #f1dfc9; }
`;

function injectStyle() {
  if (document.getElementById('xsl-select-style')) return;
  const st = document.createElement('style');
  st.id = 'xsl-select-style';
  st.textContent = STYLE;
  document.head.appendChild(st);
}

// (HTMLElement is the page's; keys.js imports this module, and its unit tests load it in Node, which has none)
const Element_ = globalThis.HTMLElement ?? class {};

export class XslSelect extends Element_ {
  constructor() {
    super();
    this._value = null;
    this._active = -1;
    this._label = null;
    this._list = null;
    this._observer = null;
  }

  connectedCallback() {
    injectStyle();
    if (!this._list) {
      this.id = this.id || `xsl-select-${++seq}`;
      this._label = document.createElement('span');
      this._label.className = 'xsl-select-label';
      this._list = document.createElement('ul');
      this._list.id = `${this.id}-list`;
      this._list.setAttribute('role', 'listbox');
      this._list.hidden = true;
      if (this.hasAttribute('aria-label')) this._list.setAttribute('aria-label', this.getAttribute('aria-label'));
      this.setAttribute('role', 'combobox');
      this.setAttribute('aria-haspopup', 'listbox');
      this.setAttribute('aria-expanded', 'false');
      this.setAttribute('aria-controls', this._list.id);
      if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
      this.addEventListener('click', (e) => this._onClick(e));
      this.addEventListener('keydown', (e) => this._onKey(e));
      this.addEventListener('focusout', (e) => { if (!this.contains(e.relatedTarget)) this.close(); });
      this._outside = (e) => { if (!this.contains(e.target)) this.close(); };
      // the choices are the <option> children: re-drawn when the page changes them
      this._observer = new MutationObserver((ms) => { if (ms.some((m) => this._theirs(m))) this._render(); });
    }
    this._observer.observe(this, { childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ['value', 'selected', 'label'] });
    this._render();
  }

  disconnectedCallback() {
    if (this._observer) this._observer.disconnect();
    document.removeEventListener('pointerdown', this._outside, true);
  }

  // a change of the page's (the options), not of what this element draws (its label and list)
  _theirs(m) {
    if (m.target !== this) return !this._list.contains(m.target) && !this._label.contains(m.target);
    if (m.type !== 'childList') return false;
    return [...m.addedNodes].some((n) => n.tagName === 'OPTION') ||
      [...m.removedNodes].some((n) => n.tagName === 'OPTION' || n === this._label || n === this._list);
  }

  // ------------------------------------------------------------ a native select's surface
  get options() { return [...this.children].filter((c) => c.tagName === 'OPTION'); }
  get value() {
    const o = this.options;
    if (this._value !== null && o.some((x) => x.value === this._value)) return this._value;
    const sel = o.find((x) => x.hasAttribute('selected')) || o[0];
    return sel ? sel.value : '';
  }
  set value(v) {
    this._value = String(v);
    this._render();
  }
  get selectedIndex() { return this.options.findIndex((o) => o.value === this.value); }
  get expanded() { return this.getAttribute('aria-expanded') === 'true'; }

  open() {
    if (this.expanded) return;
    this._render();
    this._list.hidden = false;
    this.setAttribute('aria-expanded', 'true');
    // below the control, or above it when the page has no room below (the player's bar is at the bottom)
    const r = this.getBoundingClientRect();
    const h = this._list.offsetHeight;
    const up = r.bottom + h > window.innerHeight && r.top - h >= 0;
    this._list.className = up ? 'up' : 'down';
    this._setActive(Math.max(0, this.selectedIndex));
    document.addEventListener('pointerdown', this._outside, true);
  }

  close() {
    if (!this._list || !this.expanded) return;
    this._list.hidden = true;
    this.setAttribute('aria-expanded', 'false');
    this.removeAttribute('aria-activedescendant');
    document.removeEventListener('pointerdown', this._outside, true);
  }

  // ------------------------------------------------------------ drawing
  _render() {
    if (!this._list) return;
    if (!this._label.isConnected || this._label.parentNode !== this) this.append(this._label);
    if (this._list.parentNode !== this) this.append(this._list);
    const opts = this.options, v = this.value;
    const cur = opts.find((o) => o.value === v);
    const text = cur ? cur.textContent : '';
    if (this._label.textContent !== text) this._label.textContent = text;
    const items = opts.map((o, i) => {
      const li = document.createElement('li');
      li.id = `${this.id}-opt-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(o.value === v));
      li.dataset.value = o.value;
      li.textContent = o.textContent;
      return li;
    });
    this._list.replaceChildren(...items);
    if (this.expanded) this._setActive(Math.min(Math.max(0, this._active), items.length - 1));
  }

  _setActive(i) {
    const items = [...this._list.children];
    this._active = i;
    items.forEach((li, k) => li.classList.toggle('active', k === i));
    if (items[i]) {
      this.setAttribute('aria-activedescendant', items[i].id);
      items[i].scrollIntoView({ block: 'nearest' });
    }
  }

  _choose(i) {
    const o = this.options[i];
    this.close();
    if (!o || o.value === this.value) return;
    this.value = o.value;
    this.dispatchEvent(new Event('input', { bubbles: true }));
    this.dispatchEvent(new Event('change', { bubbles: true }));
  }

  _onClick(e) {
    const li = e.target.closest && e.target.closest('li[role="option"]');
    if (li && this._list.contains(li)) { this._choose([...this._list.children].indexOf(li)); return; }
    if (this.expanded) this.close(); else { this.focus(); this.open(); }
  }

  _onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey) return;
    const n = this.options.length, k = e.key;
    const space = k === ' ' || e.code === 'Space';
    if (!this.expanded) {
      if (k === 'ArrowDown' || k === 'ArrowUp' || k === 'Enter' || space) { e.preventDefault(); this.open(); }
      return;
    }
    if (k === 'ArrowDown') this._setActive(Math.min(n - 1, this._active + 1));
    else if (k === 'ArrowUp') this._setActive(Math.max(0, this._active - 1));
    else if (k === 'Home') this._setActive(0);
    else if (k === 'End') this._setActive(n - 1);
    else if (k === 'Enter' || space) this._choose(this._active);
    else if (k === 'Escape') this.close();
    else if (k === 'Tab') { this.close(); return; }
    else return;
    e.preventDefault();
    e.stopPropagation();
  }
}

if (globalThis.customElements && !customElements.get('xsl-select')) customElements.define('xsl-select', XslSelect);

// every open list of the page closed (keys.js: a key went to the rite)
export function closeAll(root = document) {
  for (const x of root.querySelectorAll('xsl-select[aria-expanded="true"]')) x.close();
}
