// Classroom access: a player extension (player.use(classroom()), added first so it sees keys first).
//
// B and . blank the screen and bring it back (what presentation clickers send); single-key shortcuts can be
// turned off (WCAG 2.1.4 — then only keys with a modifier, the arrows, PageUp/PageDown, Escape and Tab work;
// Shift+K turns them back on); ?keys=0 starts with them off.
export function classroom(opts = {}) {
  return {
    singleKeys: opts.singleKeys !== undefined ? !!opts.singleKeys
      : new URLSearchParams(location.search).get('keys') !== '0',
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
    },
    setBlank(on) { this.blank = !!on; this.cover.style.display = this.blank ? '' : 'none'; },
    setSingleKeys(on) { this.singleKeys = !!on; },
    onKey(ev) {
      if (ev.key === 'K' && ev.shiftKey) { this.setSingleKeys(!this.singleKeys); return true; }
      if (!this.singleKeys && ev.key && ev.key.length === 1) return true;        // swallowed: shortcuts are off
      if (ev.key === 'b' || ev.key === 'B' || ev.key === '.') { this.setBlank(!this.blank); return true; }
      return false;
    },
    dispose() { this.cover.remove(); },
  };
}
