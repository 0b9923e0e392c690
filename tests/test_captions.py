"""Captions (scene/web/captions.py, python -m scene captions): a WebVTT file that parses, one cue a step at the
step's times, the seed's modern sentence verbatim where its translation reaches; the player's caption line."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CUE = re.compile(r"^(\d\d):(\d\d):(\d\d)\.(\d\d\d) --> (\d\d):(\d\d):(\d\d)\.(\d\d\d)$")


def parse_vtt(text: str) -> list[tuple[float, float, list[str]]]:
    """A strict little WebVTT reader: header, blocks separated by blank lines, id, timing, text."""
    blocks = text.split("\n\n")
    assert blocks[0].startswith("WEBVTT")
    out = []
    for b in blocks[1:]:
        lines = [x for x in b.split("\n") if x]
        if not lines or lines[0].startswith("NOTE"):
            continue
        m = CUE.match(lines[1])
        assert m, lines
        g = [int(x) for x in m.groups()]
        a = g[0] * 3600 + g[1] * 60 + g[2] + g[3] / 1000
        z = g[4] * 3600 + g[5] * 60 + g[6] + g[7] / 1000
        assert z >= a and len(lines) >= 3 and "-->" not in "".join(lines[2:])
        out.append((a, z, lines[2:]))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["trad", "simp"])
def test_vtt_parses_and_its_cues_are_the_steps(tmp_path, rite, lang):
    from scene.text.script import to_simplified
    from scene.text.seed import seed_translation
    out = tmp_path / "rite.vtt"
    r = subprocess.run([sys.executable, "-m", "scene", "captions", "--out", str(out), "--lang", lang], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    cues = parse_vtt(out.read_text(encoding="utf-8"))
    steps = sorted((s for s in rite.spans if s.end_s - s.start_s >= 0.05 and s.phrase),
                   key=lambda s: (s.start_s, s.section, s.index))
    assert len(cues) == len(steps)
    for (a, z, lines), s in zip(cues, steps):
        assert abs(a - s.start_s) < 0.0011 and abs(z - s.end_s) < 0.0011
        assert lines[0] == (s.phrase if lang == "trad" else to_simplified(s.phrase))
    seed = seed_translation()
    with_seed = [c for c in cues if len(c[2]) > 1]
    assert len(with_seed) > 100
    assert all(c[2][1] in seed for c in with_seed)            # verbatim
    # the first cue is the rite's first phrase and the translation's first sentence
    assert "乡射的礼仪" in cues[0][2][1]


def test_bad_captions_arguments_are_one_line(tmp_path):
    for args in (["--lang", "latin"], ["--out", str(tmp_path / "x.srt")]):
        a = ["--out", str(tmp_path / "x.vtt"), *args] if "--out" not in args else args
        r = subprocess.run([sys.executable, "-m", "scene", "captions", *a], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(__import__("webtools").chromium_missing_reason() is not None, reason="no Chromium")
def test_the_caption_line_and_the_classroom_keys(tmp_path, rite, pack_dir):
    import webtools

    from scene.web.captions import seed_lines
    pack = pack_dir                       # the session's pack (conftest.py)
    steps = sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index))
    lines = seed_lines(rite)
    k = next(i for i, s in enumerate(steps) if lines[i] and s.end_s - s.start_s > 3 and s.section == 5)
    t = (steps[k].start_s + steps[k].end_s) / 2
    with webtools.site(pack) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}player.html")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        page.evaluate(f"window.__xslPlayer.setTime({t})")
        page.evaluate("() => window.__xslPlayer.nextFrame().then(() => new Promise(requestAnimationFrame))")
        band = page.locator(".xsl-caption")
        text = band.inner_text()
        assert steps[k].phrase in text and lines[k] in text and band.get_attribute("aria-live") == "polite"
        fs = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.xsl-caption > div')).fontSize)")
        assert fs >= 0.045 * page.evaluate("window.__xslPlayer.container.clientHeight")   # of the view's height
        webtools.save_png(webtools.screenshot(page), tmp_path / "caption.png")
        # a term of the seed's notes in the phrase: a click opens the note
        from scene.web.captions import step_notes
        notes = step_notes(rite)
        j = next(i for i, s in enumerate(steps) if notes[i] and s.end_s - s.start_s > 3 and s.section >= 20)
        page.evaluate(f"window.__xslPlayer.setTime({(steps[j].start_s + steps[j].end_s) / 2})")
        page.evaluate("() => window.__xslPlayer.nextFrame().then(() => new Promise(requestAnimationFrame))")
        page.locator(".xsl-term").first.click()
        note = page.locator(".xsl-note")
        assert note.is_visible() and any(f"（{n}）" in note.inner_text() for _, n in notes[j])
        webtools.save_png(webtools.screenshot(page), tmp_path / "note.png")
        note.click()
        # B blanks the screen, . brings it back
        page.keyboard.press("b")
        assert page.locator(".xsl-blank").is_visible()
        page.keyboard.press(".")
        assert not page.locator(".xsl-blank").is_visible()
        # single-key shortcuts off: b and the space do nothing, PageDown still works
        page.keyboard.press("Shift+K")
        page.keyboard.press("b")
        page.keyboard.press(" ")
        assert not page.locator(".xsl-blank").is_visible() and not page.evaluate("window.__xslPlayer.playing")
        stage0 = page.evaluate("window.__xslPlayer.state().stage")
        page.keyboard.press("PageDown")
        assert page.evaluate("window.__xslPlayer.state().stage") == stage0 + 1
        assert not errors, errors


def test_step_notes_are_seed_notes_on_a_term_of_the_phrase(rite):
    from scene.text.seed import seed_note
    from scene.web.captions import step_notes
    rows = step_notes(rite)
    steps = sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index))
    assert len(rows) == len(steps) and sum(map(bool, rows)) > 100
    for s, row in zip(steps, rows):
        for term, n in row:
            assert term in s.phrase and s.section in seed_note(n).sections


@pytest.mark.slow
@pytest.mark.gl
def test_a_clip_burns_in_the_captions_as_glyphs(tmp_path, rite):
    """python -m scene clip --captions: each frame carries the caption line (the phrase, and the seed's sentence
    where it reaches) at the foot of the view, white glyphs on a dark band; without the flag the frames have none."""
    import imageio.v2 as imageio
    import numpy as np

    from scene.render.clip import subtitle_at
    from scene.web.captions import cues
    W, H, speed = 960, 540, 60
    out = {}
    for flag in ([], ["--captions"]):
        gif = tmp_path / f"c{len(flag)}.gif"
        r = subprocess.run([sys.executable, "-m", "scene", "clip", "--stage", "5", "--out", str(gif), "--size",
                            f"{W}x{H}", "--fps", "1", "--speed", str(speed), "--no-labels", *flag], cwd=ROOT,
                           capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr
        out[bool(flag)] = [np.asarray(f)[..., :3].astype(int) for f in imageio.mimread(gif)]
    plain, burnt = out[False], out[True]
    assert len(plain) == len(burnt) >= 5
    # what each frame should say (the clip's frame times)
    st = next(s for s in rite.stages if s.n == 5)
    cs = cues(rite)
    starts = [c[0] for c in cs]
    n = len(burnt)
    texts = [subtitle_at(cs, starts, st.start_s + (st.end_s - st.start_s) * k / (n - 1)) for k in range(n)]
    assert any("\n" in x for x in texts) and any("\n" not in x for x in texts)   # the seed's sentence reaches §5
    vh = H - int(round(H * 0.15))                # the view above the studio's caption band
    foot = slice(vh - int(0.3 * vh), vh)
    heights = []
    for a, b, text in zip(plain, burnt, texts):
        d = np.abs(a - b).max(2) > 40
        assert d[foot].sum() > 1000                   # the caption is drawn …
        assert d[:vh - int(0.35 * vh)].sum() < 50     # … only at the foot of the view
        box = b[foot][d[foot]]
        white, dark = (box.min(1) > 200).sum(), (box.max(1) < 70).sum()
        assert white > 150 and dark > 1000, (white, dark, text)     # white glyph strokes on the dark band
        rows = np.flatnonzero(d[foot].any(1))
        heights.append(rows.max() - rows.min())
    # two lines (phrase and sentence) make a taller band than the phrase alone
    two = [h for h, x in zip(heights, texts) if "\n" in x]
    one = [h for h, x in zip(heights, texts) if "\n" not in x]
    assert min(two) > max(one) * 1.3, (two, one)
    # glyphs, not one blank or boxed shape for every phrase: frames with other phrases differ in their ink
    inks = [(f[foot].min(2) > 200) for f in burnt]
    other = [k for k in range(1, n) if texts[k].split("\n")[0] != texts[0].split("\n")[0]]
    assert other and all((inks[0] ^ inks[k]).sum() > 100 for k in other)
    imageio.imwrite(tmp_path / "frame.png", burnt[next(k for k, x in enumerate(texts) if "\n" in x)].astype(np.uint8))
