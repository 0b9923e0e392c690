// The 經 panel's notes on the static page: 鄭注 (Zheng Xuan's notes, each after the words it follows) and the
// seed's numbered notes on the section — what the app's 鄭注 switch shows, from the pack's `texts` (so the
// static site needs no server for them). Off until the 注 button or ?notes=1; the choice is kept in this
// browser, because a class that reads the notes once wants them on every stage after.
const KEY = 'xsl-notes';

function stored() {
  try { return localStorage.getItem(KEY) === '1'; } catch (e) { return false; }
}

export function notesPanel({ button, box, params }) {
  let on = params.has('notes') ? params.get('notes') === '1' : stored();
  let last = null;                               // the section's texts and the page's 繁/简 function

  function render() {
    button.setAttribute('aria-pressed', String(on));
    button.classList.toggle('on', on);
    box.hidden = !on || !last;
    box.textContent = '';
    if (!on || !last) return;
    const { txt, simp } = last;
    const pick = (o) => (simp && o.text_s ? o.text_s : o.text);
    const head = document.createElement('div');
    head.className = 'xsl-dim';
    head.textContent = simp ? '郑注' : '鄭注';
    box.appendChild(head);
    for (const g of txt.notes || []) {
      const d = document.createElement('div');
      d.className = 'xsl-note';
      // the anchor is the 經's words the note follows (繁 in the pack: the 简 page simplifies it with Z)
      d.textContent = `（${last.Z(g.anchor)}）${pick(g)}`;
      box.appendChild(d);
    }
    if (!(txt.notes || []).length) {
      const d = document.createElement('div');
      d.className = 'xsl-dim';
      d.textContent = simp ? '本节无郑注' : '本節無鄭注';
      box.appendChild(d);
    }
    for (const s of txt.seed || []) {
      const d = document.createElement('div');
      d.className = 'xsl-seed-note';
      d.textContent = `[${s.n}] ${pick(s)}`;
      box.appendChild(d);
    }
  }

  button.addEventListener('click', () => {
    on = !on;
    try { localStorage.setItem(KEY, on ? '1' : '0'); } catch (e) { /* private mode: this visit only */ }
    render();
  });

  return {
    // the section shown changed, or its language: txt is the pack's texts[n] (null: no text for it)
    show(txt, { simp, Z }) { last = txt ? { txt, simp, Z } : null; render(); },
    get on() { return on; },
  };
}
