"""The small ones of issue 24: Chinese lines never start with closing punctuation nor end with an opening bracket
(禁則) in the printed matter and the stills' captions; WebVTT cue text escapes & < >."""
from __future__ import annotations

import pytest

from scene.text import jing, kinsoku


def test_split_moves_the_break_back_before_closing_punctuation_and_after_opening_brackets():
    assert kinsoku.split("主人一相出迎于門外", "，") == ("主人一相出迎于門", "外")
    assert kinsoku.split("賓答再拜。」", "。") == ("賓答再", "拜。」")        # two closers: back over both
    assert kinsoku.split("主人曰「", "請") == ("主人曰", "「")
    assert kinsoku.split("，，，，", "。") == ("，，，，", "")               # nothing near to break at: as it was


def _texts() -> list[str]:
    """Punctuated Chinese: the seed's paragraphs (the 經 itself is kept unpunctuated)."""
    from scene.paths import SEEDS
    paras = [ln.strip() for ln in (SEEDS / jing.SEED).read_text(encoding="utf-8").splitlines()]
    return [p for p in paras if p.count("，") >= 3][:40]


@pytest.mark.parametrize("width_mm", [23.0, 41.5, 67.0])
def test_the_printed_matter_never_starts_a_line_with_closing_punctuation(width_mm):
    from scene.print.fonts import SERIF, text_width, wrap
    for text in _texts():
        lines = wrap(text, width_mm, 3.5, SERIF)
        assert "".join(lines) == text.replace("\n", "")
        for a, b in zip(lines, lines[1:], strict=False):
            assert b[0] not in kinsoku.NO_START, (a, b)
            assert a[-1] not in kinsoku.NO_END, (a, b)
        assert all(text_width(ln, 3.5, SERIF) <= width_mm + 1e-6 for ln in lines)


def test_the_stills_caption_band_never_starts_a_line_with_closing_punctuation():
    from scene.render.studio import wrap_text
    for text in _texts():
        lines = wrap_text(text, 24.0, 300.0)
        assert "".join(lines) == text
        assert all(b[0] not in kinsoku.NO_START for b in lines[1:]), lines
    breaks = sum(len(wrap_text(t, 24.0, 300.0)) - 1 for t in _texts())
    assert breaks > 30                                  # the texts do break, many times


def test_webvtt_cue_text_escapes_markup():
    """A cue with & < > and --> reads back as its text: the references decode to the characters, no tag opens,
    the timing line stays the only one with -->, and a blank line cannot end the cue early."""
    import html

    from scene.web.captions import vtt_text
    raw = "射 <b>三耦</b> & 獲者 --> 坐\n\n釋獲"
    got = vtt_text(raw)
    assert "<" not in got and ">" not in got and "-->" not in got and "\n\n" not in got
    assert html.unescape(got) == "射 <b>三耦</b> & 獲者 → 坐\n釋獲"
