// The role palette (key O, and the 色 button): a player extension (player.use(palette())).
//
// Recolours the people by role with the Okabe–Ito colours (Okabe & Ito 2008, "Color Universal Design"; told
// apart with every common colour-vision deficiency), eight groups for the eight colours, instead of the cast's
// own colours (assets/cast.toml), which several pairs of roles share in hue.  Only what the figure wears in its
// cast colour changes (the pack's per-vertex `tint`, PACK.md): new = lit × palette ÷ cast colour, so the baked
// light stays.  A legend names the groups.  `?palette=okabe-ito` opens with it; opts.onChange(on) lets the page
// remember it in its address.
import { showPressed, toggleButton } from './toggle.js';

export const OKABE_ITO = {
  black: '#000000', orange: '#E69F00', sky: '#56B4E9', green: '#009E73',
  yellow: '#F0E442', blue: '#0072B2', vermillion: '#D55E00', purple: '#CC79A7',
};

// the groups: who sits where in the rite (主 and 賓, the officers, the archers, the scorers, the music)
export const ROLE_GROUPS = [
  { title: '主人', colour: 'vermillion', ids: /^zhuren$/ },
  { title: '賓', colour: 'orange', ids: /^bin$/ },
  { title: '眾賓', colour: 'yellow', ids: /^zhongbin_\d+$/ },
  { title: '大夫', colour: 'purple', ids: /^dafu$/ },
  { title: '三耦・弟子', colour: 'sky', ids: /^(ou\d_(up|low)|dizi_\d+)$/ },
  { title: '司射・司馬・有司・舉觶・執爵', colour: 'green', ids: /^(sishe|xiang|youshi|juzhi_\d+|zhijue)$/ },
  { title: '獲者・釋獲者', colour: 'blue', ids: /^(huozhe|shihuozhe)$/ },
  { title: '樂正・工・相者・笙', colour: 'black', ids: /^(yuezheng|gong_\d+|xiangzhe_\d+|sheng_\d+)$/ },
];
export const PALETTE_NAME = 'okabe-ito';

const FONT = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', sans-serif";
const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));

export function groupOf(actorId) {
  return ROLE_GROUPS.find((g) => g.ids.test(actorId)) || null;
}

export function palette(opts = {}) {
  const ext = {
    on: false, player: null, button: null, legend: null, _tints: null,
    attach(p) {
      this.player = p;
      const b = toggleButton(p.container, { className: 'xsl-palette', text: '色 (O)', top: '80px',
        title: 'Colour-blind-safe role colours (Okabe–Ito), key O', style: opts.buttonStyle,
        onClick: () => this.set(!this.on) });
      const lg = document.createElement('div');
      lg.className = 'xsl-palette-legend';
      Object.assign(lg.style, { position: 'absolute', top: '116px', right: '8px', zIndex: 20, display: 'none',
        background: 'rgba(20, 20, 20, 0.82)', color: '#fff', padding: '6px 10px', borderRadius: '4px',
        font: `13px/1.6 ${FONT}`, pointerEvents: 'none' });
      for (const g of ROLE_GROUPS) {
        const row = document.createElement('div');
        const sw = document.createElement('span');
        Object.assign(sw.style, { display: 'inline-block', width: '0.9em', height: '0.9em', marginRight: '0.4em',
          verticalAlign: '-0.1em', background: OKABE_ITO[g.colour], border: '1px solid #ddd' });
        row.append(sw, g.title);
        lg.append(row);
      }
      p.container.append(lg);
      this.button = b;
      this.legend = lg;
      this._show();
    },
    onPack(m, buf) {
      // the cast colours and the tint masks of this pack's figures
      this._tints = new Map();
      for (const a of m.actors || []) {
        const masks = {};
        for (const [key, g] of Object.entries(a.figures || {})) if (g.tint) masks[key] = new Uint8Array(buf, g.tint.o, g.tint.n);
        this._tints.set(a.id, { colour: a.colour, masks });
      }
      if (this.on) this._apply();
    },
    onKey(ev) {
      if ((ev.key === 'o' || ev.key === 'O') && !ev.shiftKey) { this.set(!this.on); return true; }
      return false;
    },
    set(on) {
      this.on = !!on;
      if (this.player && this.player.actors) this._apply();
      this._show();
      if (opts.onChange) { try { opts.onChange(this.on); } catch (e) { console.error(e); } }
      return true;
    },
    // the colour an actor is drawn in now
    colourOf(id) {
      const t = this._tints && this._tints.get(id);
      if (!t) return null;
      const g = groupOf(id);
      return this.on && g ? OKABE_ITO[g.colour] : t.colour;
    },
    _apply() {
      const P = this.player;
      for (const A of P.actors) {
        const t = this._tints.get(A.id);
        if (!t) continue;
        const g = groupOf(A.id);
        const want = this.on && g ? rgb(OKABE_ITO[g.colour]) : null;
        const base = rgb(t.colour);
        for (const [key, mesh] of Object.entries(A.meshes)) {
          const geo = mesh.geometry, mask = t.masks[key];
          const attr = geo.attributes.color;
          if (!attr || !mask || mask.length !== attr.count) continue;
          // figures of one colour share their bytes in the pack: each geometry gets its own copy once
          if (!geo.userData.castColour) {
            geo.userData.castColour = attr.array.slice();
            geo.setAttribute('color', new attr.constructor(attr.array.slice(), 3, true));
          }
          const src = geo.userData.castColour, dst = geo.attributes.color.array;
          dst.set(src);
          if (want) {
            const k = want.map((w, i) => w / Math.max(1, base[i]));
            for (let v = 0; v < mask.length; v++) {
              if (!mask[v]) continue;
              const o = v * 3;
              for (let c = 0; c < 3; c++) dst[o + c] = Math.min(255, Math.round(src[o + c] * k[c]));
            }
          }
          geo.attributes.color.needsUpdate = true;
        }
        A.colour = want ? OKABE_ITO[g.colour] : t.colour;         // the label's edge, the paths (T)
        if (A.label && A.label.el) A.label.el.style.borderLeftColor = A.colour;
      }
      if (P.batch) P.batch.items = [];                // lay the people's colours out again
      if (P.restBatch) { P.restBatch.items = []; P.restAgain(); }
      if (P.paths) P.paths._stageIdx = -2;
      P.requestRedraw();
      P.invalidatePose();
    },
    _show() {
      if (!this.button) return;
      showPressed(this.button, this.on);
      this.legend.style.display = this.on ? '' : 'none';
    },
    dispose() { if (this.button) this.button.remove(); if (this.legend) this.legend.remove(); },
  };
  return ext;
}
