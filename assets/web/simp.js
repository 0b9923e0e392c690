// 繁 → 简 in the page (issue 27): why a module of its own — the 简 switch changed only the 經 panel (the
// pack carries a 简 text, made by OpenCC t2s, for the 經, the notes, the seed and the shipped lessons only),
// while the caption, the footer phrase, the stage list, the labels, the inspector and a teacher's own
// lessons stayed 繁.  OpenCC's t2s on this text is one character for one (the pack's pairs keep their
// lengths), so the pairs the pack already carries give the page a table, character by character (where a
// character is simplified two ways, the commoner wins); a few characters of names and of our own words that
// no pair contains are added below, as OpenCC writes them (scene.text.script.to_simplified).  Measured on the
// pack of zheng: 2226 of 2228 names, titles and phrases come out as OpenCC writes them from the pairs alone,
// all of them with the table below (tests/test_player.py).
const EXTRA = '來来個个們们儀仪刪删動动員员圖图執执宮宫實实尋寻導导師师廣广後后從从應应損损擇择據据於于時时' +
  '東东棟栋樂乐標标檢检氣气無无狀状獲获畫画眾众禮礼節节籤签絕绝經经綠绿緇缁線线總总聲声職职舉举處处視视覽览' +
  '觶觯記记語语說说課课諾诺證证讀读貍狸賓宾質质跡迹這这進进過过達达選选還还鄉乡鄭郑釋释鍵键鑿凿開开關关際际' +
  '隨随雲云韜韬響响頂顶題题飾饰馬马騶驺驗验鴻鸿鵠鹄點点龍龙';

// a character table from the pack's 繁/简 pairs: {繁: 简}
export function simpTable(pack) {
  const count = new Map();
  const pair = (a, b) => {
    if (typeof a !== 'string' || typeof b !== 'string') return;
    const x = Array.from(a), y = Array.from(b);
    if (x.length !== y.length) return;               // not one for one: nothing to learn from it
    for (let i = 0; i < x.length; i++) {
      if (x[i] === y[i]) continue;
      const m = count.get(x[i]) || new Map();
      m.set(y[i], (m.get(y[i]) || 0) + 1);
      count.set(x[i], m);
    }
  };
  for (const t of Object.values((pack && pack.texts) || {})) {
    pair(t.jing, t.jing_s);
    for (const g of t.notes || []) pair(g.text, g.text_s);
    for (const g of t.seed || []) pair(g.text, g.text_s);
  }
  for (const L of (pack && pack.lessons) || []) {
    pair(L.title, L.title_s);
    for (const s of L.stops || []) pair(s.caption, s.caption_s);
  }
  const table = new Map();
  const extra = Array.from(EXTRA);
  for (let i = 0; i + 1 < extra.length; i += 2) table.set(extra[i], extra[i + 1]);
  for (const [k, m] of count) table.set(k, [...m.entries()].sort((a, b) => b[1] - a[1])[0][0]);
  return table;
}

// a converter: simplify(text) → the 简 text (characters not in the table stay as they are)
export function simplifier(pack) {
  const table = simpTable(pack);
  const fn = (s) => (s === null || s === undefined ? s : Array.from(String(s), (c) => table.get(c) || c).join(''));
  fn.table = table;
  return fn;
}

// 简 for every word the page shows (issue 42: the title, the tabs, the view names, 標籤, 屋頂, 畫質, 聲, 鄭注,
// 課, 開, 刪 and what a screen reader says stayed 繁): the text of every node under `root` and its title,
// aria-label, aria-description, alt and placeholder, and the document's title — now and as the page changes
// them (a MutationObserver), while 简 is on.  Off gives back what each node said, unless the page has written
// something else there since.  The pack's own 简 texts (the 經, the notes) are made by OpenCC already; going
// through the table again changes nothing in them.
const ATTRS = ['title', 'aria-label', 'aria-description', 'alt', 'placeholder', 'aria-valuetext'];
const SKIP = new Set(['SCRIPT', 'STYLE', 'TEXTAREA', 'CODE', 'PRE']);

export function simpPage(simplify, root = document.body) {
  const before = new WeakMap();      // node → {text} / element → {attr: text}: what was there in 繁
  let on = false, obs = null, docTitle = null;
  const skip = (n) => { const e = n.nodeType === 1 ? n : n.parentElement; return !!e && !!e.closest && !!e.closest('script, style, textarea, code, pre, [data-no-simp]'); };
  function text(n) {
    const v = n.nodeValue, s = simplify(v);
    if (s === v || skip(n)) return;
    before.set(n, { was: v, now: s });
    n.nodeValue = s;
  }
  function attrs(e) {
    if (SKIP.has(e.tagName) || skip(e)) return;
    for (const a of ATTRS) {
      const v = e.getAttribute(a);
      if (!v) continue;
      const s = simplify(v);
      if (s === v) continue;
      const m = before.get(e) || {};
      m[a] = { was: v, now: s };
      before.set(e, m);
      e.setAttribute(a, s);
    }
  }
  function walk(n) {
    if (n.nodeType === 3) { text(n); return; }
    if (n.nodeType !== 1 || SKIP.has(n.tagName)) return;
    attrs(n);
    for (const c of n.childNodes) walk(c);
  }
  function set(want) {
    want = !!want;
    if (want === on) { if (on) walk(root); return; }
    on = want;
    if (on) {
      docTitle = document.title;
      document.title = simplify(document.title);
      walk(root);
      obs = new MutationObserver((ms) => {
        for (const m of ms) {
          if (m.type === 'characterData') text(m.target);
          else if (m.type === 'attributes') attrs(m.target);
          else for (const n of m.addedNodes) walk(n);
        }
      });
      obs.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRS });
    } else {
      if (obs) obs.disconnect();
      obs = null;
      if (docTitle !== null && document.title === simplify(docTitle)) document.title = docTitle;
      const back = (n) => {
        if (n.nodeType === 3) {
          const m = before.get(n);
          if (m && n.nodeValue === m.now) n.nodeValue = m.was;
          before.delete(n);
          return;
        }
        if (n.nodeType !== 1) return;
        const m = before.get(n);
        if (m) for (const [a, x] of Object.entries(m)) if (n.getAttribute(a) === x.now) n.setAttribute(a, x.was);
        before.delete(n);
        for (const c of n.childNodes) back(c);
      };
      back(root);
    }
  }
  return { set, get on() { return on; } };
}
