// The quality setting (issue 15), shared by the standalone player page and the app: a select auto / fast /
// high kept per browser in localStorage 'xsl-quality' (what quality.js reads when a player starts), and a line
// saying which tier is in use and why, with the WebGL renderer string.  The tier is fixed when the WebGL
// context is made (antialiasing is a context attribute), so a change reloads the page — each page keeps the
// moment and the view in its address first, so the reload comes back to the same picture.
import { TIERS } from './quality.js';

export const KEY = 'xsl-quality';

export function stored() {
  try {
    const v = localStorage.getItem(KEY);
    return TIERS.includes(v) ? v : 'auto';
  } catch (e) {
    return 'auto';           // storage refused (private mode): the default
  }
}

export function store(value) {
  try { localStorage.setItem(KEY, value); } catch (e) { /* private mode: this visit only */ }
}

// one line: the tier in use, why, and the renderer the browser reports
export function describe(q) {
  const tier = q.tier === 'high' ? (q.sunShadows ? 'high' : 'high, sun shadows off') : 'fast';
  const adaptive = q.adaptive ? ` · ${q.adaptive}` : '';
  return `in use: ${tier} — ${q.why}${adaptive} · WebGL: ${q.renderer || 'not reported'}`;
}

// Wire a <select> (options auto/fast/high) and an info element to a player.  `reload()` is the page's own
// (it writes the moment into the address, then reloads).  The select and the line are looked up on each
// refresh, so a page that re-creates them (the app's Vue toolbar) is served too.
export function qualityControl(player, { select, info, reload }) {
  const sel = () => (typeof select === 'function' ? select() : select);
  const line = () => (typeof info === 'function' ? info() : info);
  function refresh() {
    const s = sel(), l = line();
    const want = stored();
    if (s && s.value !== want) s.value = want;
    if (l && player.qualityInfo) {
      const text = describe(player.quality());
      if (l.textContent !== text) { l.textContent = text; l.title = text; }
    }
  }
  function onChange(e) {
    const s = sel();
    if (!s || e.target !== s) return;
    if (!TIERS.includes(s.value) || s.value === stored() && s.value === player.qualityInfo.requested) return;
    store(s.value);
    reload();
  }
  document.addEventListener('change', onChange);
  player.onQuality = refresh;          // the adaptive ladder moved: say so on the line at once
  refresh();
  return { refresh, dispose() { document.removeEventListener('change', onChange); } };
}
