// The 經 panel with each phrase the steps act linked to the section's scholarly report (考, review/<n>.html,
// written by `python -m scene site`): the link names the phrase by its offset in the 經 (#p<offset>), and the
// report's page takes it to the clause that covers it.  The phrase being played stays marked.

/** Fill `p` with the 經 `text` of section `n`: every character a step's phrase covers is a link (the
 *  shortest phrase at a character wins, as the report's clauses do); [markA, markB) is wrapped in <mark>.
 *  Offsets count characters, not UTF-16 units; `base` null: no links (a chapter without reports).  Returns
 *  the first <mark>, or null. */
export function jingWithReviewLinks(p, n, text, steps, markA = -1, markB = -1, base = 'review/') {
  const chars = Array.from(text);
  const owner = new Array(chars.length).fill(-1);
  const phrases = new Map();
  for (const s of steps) {
    if (s.section === n && s.offset != null && s.phrase) phrases.set(`${s.offset}:${s.phrase}`, [s.offset, Array.from(s.phrase).length]);
  }
  for (const [a, len] of [...phrases.values()].sort((x, y) => y[1] - x[1])) {
    for (let i = a; i < Math.min(a + len, chars.length); i++) owner[i] = a;
  }
  const marked = (i) => i >= markA && i < markB;
  let first = null;
  for (let i = 0; i < chars.length;) {
    let j = i;
    while (j < chars.length && owner[j] === owner[i] && marked(j) === marked(i)) j++;
    const piece = chars.slice(i, j).join('');
    let node = document.createTextNode(piece);
    if (marked(i)) {
      const mk = document.createElement('mark');
      mk.append(node);
      node = mk;
      first = first || mk;
    }
    if (owner[i] >= 0 && base) {
      const a = document.createElement('a');
      a.className = 'xsl-review';
      a.href = `${base}${n}.html#p${owner[i]}`;
      a.target = '_blank';
      a.rel = 'noopener';
      a.title = '考 — the scholarly report of this clause';
      a.append(node);
      node = a;
    }
    p.append(node);
    i = j;
  }
  return first;
}
