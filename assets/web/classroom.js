// Classroom access: a player extension (player.use(classroom()), added first so it sees keys first).
//
// B and . blank the screen and bring it back (what presentation clickers send); single-key shortcuts can be
// turned off (WCAG 2.1.4 — then only keys with a modifier, the arrows, PageUp/PageDown, Escape, F5 and Tab
// work; Shift+K turns them back on); ?keys=0 starts with them off.  The presentation keys of a
// clicker are here too, so they pass the same gate in every state: F5 (a clicker's "start the show")
// enters classroom mode instead of reloading the page, C toggles it, Esc brings a blanked screen back
// first, then leaves classroom mode.  `opts.setClassroom(on)` / `opts.isClassroom()` are the page's.
export function keysParam(search = location.search) {
  const v = new URLSearchParams(search).get('keys');
  return v === null ? null : (['0', 'off', 'false'].includes(v) ? false : (['1', 'on', 'true'].includes(v) ? true : undefined));
}

export function classroom(opts = {}) {
  const fromUrl = keysParam();
  return {
    singleKeys: opts.singleKeys !== undefined ? !!opts.singleKeys : fromUrl !== false,
    blank: false, player: null,
    attach(p) {
      this.player = p;
      const cover = document.createElement('div');
      cover.className = 'xsl-blank';
      cover.setAttribute('aria-hidden', 'true');
      Object.assign(cover.style, { position: 'absolute', inset: '0', background: '#000', zIndex: 50, display: 'none' });
      if (getComputedStyle(p.container).position === 'static') p.container.style.position = 'relative';
      p.container.append(cover);
      this.cover = cover;
      // classroom mode shows no control; a moving pointer brings the way out (the page's ×) for a few seconds
      this._pointer = () => {
        if (!(opts.isClassroom && opts.isClassroom())) return;
        document.body.classList.add('xsl-pointer');
        clearTimeout(this._pointerTimer);
        this._pointerTimer = setTimeout(() => document.body.classList.remove('xsl-pointer'), 3000);
      };
      document.addEventListener('pointermove', this._pointer);
    },
    setBlank(on) { this.blank = !!on; this.cover.style.display = this.blank ? '' : 'none'; },
    setSingleKeys(on) { this.singleKeys = !!on; if (opts.onSingleKeys) opts.onSingleKeys(this.singleKeys); },
    onKey(ev) {
      if (ev.key === 'K' && ev.shiftKey) { this.setSingleKeys(!this.singleKeys); return true; }
      if (ev.key === 'F5' && opts.setClassroom) { opts.setClassroom(true); return true; }
      if (ev.key === 'Escape') {
        if (this.blank) { this.setBlank(false); return true; }
        if (opts.isClassroom && opts.isClassroom()) { opts.setClassroom(false); return true; }
        return false;
      }
      if (!this.singleKeys && ev.key && ev.key.length === 1) return true;     // shortcuts are off (Space too)
      if (ev.key === 'b' || ev.key === 'B' || ev.key === '.') { this.setBlank(!this.blank); return true; }
      if ((ev.key === 'c' || ev.key === 'C') && opts.setClassroom) {
        opts.setClassroom(!(opts.isClassroom && opts.isClassroom()));
        return true;
      }
      return false;
    },
    dispose() {
      this.cover.remove();
      document.removeEventListener('pointermove', this._pointer);
      clearTimeout(this._pointerTimer);
    },
  };
}
