"""The contact sheet of a batch of stills: ``index.html`` with every stage's picture, its title and phrase."""
from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

_DIGITS = "〇一二三四五六七八九"


def _zh(n: int) -> str:
    """A count in Chinese numerals, as a heading says it (51: 五十一; 25: 二十五), up to 999."""
    if n < 10:
        return _DIGITS[n]
    out = ""
    for unit, size in (("百", 100), ("十", 10)):
        k, n = divmod(n, size)
        if k:
            out += ("" if unit == "十" and k == 1 and not out else _DIGITS[k]) + unit
        elif out and n:
            out += "〇" if unit == "十" else ""
    return out + (_DIGITS[n] if n else "")


def write_index(out_dir: Path, done, rite, views_: Sequence[str]) -> Path:
    """A printable contact sheet: one row per stage, its stills side by side, captions under them."""
    from ..rite import choreography as chor_mod
    from .views import VIEWS, parse
    r = rite.reading
    rows = []
    by_stage: dict[int, list] = {}
    for st, v, f, still in done:
        by_stage.setdefault(st.n, []).append((v, f, still))
    last_phase = None
    for st in rite.stages:
        if st.n not in by_stage:
            continue
        if st.phase != last_phase:
            rows.append(f'<h2>{html.escape(chor_mod.PHASES.get(st.phase, st.phase))}</h2>')
            last_phase = st.phase
        cells = []
        for v, f, _still in by_stage[st.n]:
            cells.append(f'<figure><a href="{html.escape(f.name)}"><img src="{html.escape(f.name)}" '
                         f'alt="§{st.n} {html.escape(st.title)}" loading="lazy"></a>'
                         f'<figcaption>{html.escape(VIEWS[parse(v)[0]])}</figcaption></figure>')
        cap = html.escape(by_stage[st.n][0][2].caption)
        t = by_stage[st.n][0][2].t
        rows.append(f'<section class="stage"><h3>§{st.n}　{html.escape(st.title)}</h3>'
                    f'<div class="row n{len(cells)}">{"".join(cells)}</div>'
                    f'<p class="cap">{cap}<span class="t">t = {t:.0f} s</span></p></section>')
    # the sheet carries its own CJK font, so its captions are glyphs on any machine (OFL)
    from .labels import font_path
    font = Path(font_path())
    font_name = font.name
    from ..atomic import write_bytes
    write_bytes(out_dir / font_name, font.read_bytes())     # the one safe writer (no link followed)
    doc = f"""<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8">
<title>{html.escape(rite.title)} — {_zh(len(rite.stages))}節 contact sheet ({html.escape(r.name)})</title>
<style>
@font-face {{ font-family: "Noto Sans TC"; src: url("{font_name}") format("opentype"); }}
body {{ font-family: "Noto Sans TC", "Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei", sans-serif;
       margin: 1.5em; color: #1e1b18; background: #fbf8f0; }}
h1 {{ font-size: 1.5em; margin: 0 0 .2em; }}
h2 {{ font-size: 1.15em; border-bottom: 2px solid #8c7b66; margin: 1.4em 0 .6em; break-after: avoid; }}
.meta {{ color: #5b5147; font-size: .9em; }}
.stage {{ break-inside: avoid; margin-bottom: 1.2em; }}
.stage h3 {{ margin: .2em 0; font-size: 1.05em; }}
.row {{ display: grid; gap: .5em; grid-template-columns: repeat(2, 1fr); }}
.row.n1 {{ grid-template-columns: 1fr 1fr; }}
figure {{ margin: 0; }}
figure img {{ width: 100%; height: auto; border: 1px solid #c8bca6; display: block; }}
figcaption {{ font-size: .8em; color: #5b5147; }}
.cap {{ font-size: .88em; margin: .25em 0 0; }}
.t {{ color: #8c7b66; margin-left: 1em; }}
@media print {{ body {{ margin: 0; background: white; }} .row {{ gap: .3em; }}
  @page {{ size: A4 landscape; margin: 10mm; }} }}
</style></head><body>
<h1>{html.escape(rite.title)} — {_zh(len(rite.stages))}節</h1>
<p class="meta">讀法 {html.escape(r.name)}：{html.escape(r.title)} · 周尺 = {r.chi_m * 100:g} cm ·
views: {html.escape(", ".join(VIEWS[parse(v)[0]] + " " + v for v in views_))} ·
每節一圖，取其中段（射時取矢在空中者）。</p>
{"".join(rows)}
</body></html>
"""
    f = out_dir / "index.html"
    from ..atomic import write_text
    write_text(f, doc)                          # the one safe writer: no link written through
    return f
