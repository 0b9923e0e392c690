// A toggle button over the view (the director's 導演, sound's 聲, the palette's 色): one look for all, its
// pressed state told to screen readers (aria-pressed) and by colour.
const FONT = "'XSLCJK', 'XSLCJK Fallback', 'Noto Sans CJK TC', sans-serif";

export function toggleButton(container, { className, text, title, top = '8px', style = {}, onClick }) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `${className} xsl-view-tool`;     // (classroom mode hides every one: player.js)
  b.textContent = text;
  b.title = title;
  Object.assign(b.style, { position: 'absolute', top, right: '8px', zIndex: 20, font: `14px ${FONT}`,
    padding: '4px 10px', borderRadius: '4px', border: '1px solid #333', cursor: 'pointer' }, style);
  b.addEventListener('click', onClick);
  if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
  container.appendChild(b);
  showPressed(b, false);
  return b;
}

export function showPressed(b, on) {
  b.setAttribute('aria-pressed', String(!!on));
  b.style.background = on ? '#1b4f72' : '#f4f1e8';
  b.style.color = on ? '#ffffff' : '#1a1a1a';
}
