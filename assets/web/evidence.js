// Evidence in the view: a player extension (player.use(evidence())).
//
// Key E cycles off → where → facing → posture → route → timing → off.  While on, a disc under each visible
// person is coloured by the status of that aspect in the step he is in (or last did): stated (the phrase
// says it), commentary (a 鄭注 says it) or assumed (ours) — the pack's `evidence` (PACK.md; read from the
// words by scene/rite/evidence.py).  A legend names the aspect and counts the people in each status.
// The colours are Okabe–Ito's (told apart by the colour-blind) and the legend also says them in words.
import * as THREE from './vendor/three.module.js';

export const EVIDENCE_COLOURS = { stated: '#009E73', commentary: '#0072B2', assumed: '#E69F00' };
const ASPECT_TITLES = { where: '何處 where', facing: '面 facing', posture: '坐立 posture', route: '道 route',
  timing: '先後 timing' };

export function evidence(opts = {}) {
  const ext = {
    aspect: null, player: null, mesh: null, legend: null, counts: null, _key: null,
    attach(p) {
      this.player = p;
      const lg = document.createElement('div');
      lg.className = 'xsl-evidence-legend';
      lg.setAttribute('role', 'status');
      Object.assign(lg.style, { position: 'absolute', right: '8px', bottom: opts.bottom || '56px', zIndex: 21,
        background: 'rgba(20, 20, 20, 0.82)', color: '#fff', padding: '6px 10px', borderRadius: '4px',
        font: "13px/1.5 'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', sans-serif", display: 'none',
        pointerEvents: 'none' });
      if (getComputedStyle(p.container).position === 'static') p.container.style.position = 'relative';
      p.container.appendChild(lg);
      this.legend = lg;
    },
    onPack() {
      this._build();
      this._key = null;
      if (this.aspect && !this.available()) this.set(null);
    },
    available() { return !!(this.player && this.player.pack && this.player.pack.evidence); },
    aspects() { return this.available() ? this.player.pack.evidence.aspects : []; },
    // turn it on for one aspect (null: off)
    set(aspect) {
      if (aspect && !this.aspects().includes(aspect)) return false;
      this.aspect = aspect || null;
      this._key = null;
      if (this.mesh) this.mesh.visible = !!this.aspect;
      if (!this.aspect) {
        for (const A of this.player.actors) if (A.label) { A.label.el.style.boxShadow = ''; A.label.el.dataset.evidence = ''; }
      }
      this.legend.style.display = this.aspect ? '' : 'none';
      this.player.requestRedraw();
      return true;
    },
    cycle() {
      const a = this.aspects();
      if (!a.length) return false;
      const k = this.aspect ? a.indexOf(this.aspect) + 1 : 0;
      return this.set(k < a.length ? a[k] : null);
    },
    _build() {
      const p = this.player;
      if (this.mesh) { p.scene.remove(this.mesh); this.mesh.geometry.dispose(); this.mesh.material.dispose(); }
      const n = Math.max(1, p.actors.length);
      const geo = new THREE.CircleGeometry(0.55, 24);
      const mat = new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.85, depthWrite: false });
      const m = new THREE.InstancedMesh(geo, mat, n);
      m.name = 'evidence-discs';
      m.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(n * 3), 3);
      m.frustumCulled = false;
      m.renderOrder = 5;
      m.visible = !!this.aspect;
      p.scene.add(m);
      this.mesh = m;
    },
    // each visible person's status of the aspect now: [[actor id, status], …]
    statuses() {
      const p = this.player, out = [];
      if (!this.aspect) return out;
      const k = p.pack.evidence.aspects.indexOf(this.aspect);
      for (const A of p.actors) {
        if (!A.visible.at(p.t)) continue;
        const { step } = p.stepOf(A.id);
        const letter = step && step.ev ? step.ev[k] : null;
        const status = letter ? p.pack.evidence.statuses.find((x) => x[0] === letter) : null;
        if (status) out.push([A.id, status]);
      }
      return out;
    },
    onFrame(T) {
      if (!this.aspect || !this.mesh) return false;
      const p = this.player;
      const st = this.statuses();
      const key = `${this.aspect}|${st.map((x) => x.join(':')).join(',')}|${T.toFixed(2)}`;
      if (key === this._key) return false;
      this._key = key;
      const mat = new THREE.Matrix4(), col = new THREE.Color(), v = new Float32Array(4);
      const counts = { stated: 0, commentary: 0, assumed: 0 };
      let i = 0;
      for (const [id, status] of st) {
        const A = p.actorById.get(id);
        A.track.at(T, v);
        mat.setPosition(v[0], v[1], v[2] + 0.02);
        this.mesh.setMatrixAt(i, mat);
        col.set(EVIDENCE_COLOURS[status]);
        this.mesh.setColorAt(i, col);
        counts[status] += 1;
        i += 1;
      }
      this.mesh.count = i;
      // the person's label too (a disc is small in the overview): ringed in the same colour
      const shown = new Map(st);
      for (const A of p.actors) {
        if (!A.label) continue;
        const s2 = shown.get(A.id);
        A.label.el.style.boxShadow = s2 ? `0 0 0 3px ${EVIDENCE_COLOURS[s2]}` : '';
        A.label.el.dataset.evidence = s2 || '';
      }
      this.mesh.instanceMatrix.needsUpdate = true;
      if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
      this.counts = counts;
      const sw = (s) => `<span style="display:inline-block;width:12px;height:12px;border-radius:6px;` +
        `background:${EVIDENCE_COLOURS[s]};margin:0 4px -1px 10px"></span>${s} ${counts[s]}`;
      this.legend.innerHTML = `證 evidence — ${ASPECT_TITLES[this.aspect] || this.aspect} (E)<br>` +
        ['stated', 'commentary', 'assumed'].map(sw).join('');
      return true;
    },
    onKey(ev) {
      if ((ev.key === 'e' || ev.key === 'E') && !ev.ctrlKey && !ev.metaKey) { this.cycle(); return true; }
      return false;
    },
    dispose() {
      if (this.mesh) this.player.scene.remove(this.mesh);
      if (this.legend) this.legend.remove();
    },
  };
  return ext;
}
