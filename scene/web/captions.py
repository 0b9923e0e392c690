"""Captions of the rite: one cue a step (the phrase being acted), WebVTT aligned to the timeline.

Where the seed's modern translation (``scene.text.seed.seed_translation``: the page has only its beginning)
covers a section, the cue adds the seed's sentence for the phrase, verbatim: the sentence of the translation,
within the paragraphs of that section's neighbourhood, that shares the most character pairs with the phrase
(at least two; otherwise no sentence — better none than a wrong one).  ``python -m scene captions``.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path


def _ts(t: float) -> str:
    ms = int(round(t * 1000))
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


@lru_cache(maxsize=1)
def _paragraphs() -> dict[int, list[str]]:
    """The translation's sentences by the 經 section each paragraph translates: paragraphs in order, each
    given to the section (the one before's, or one of the next two) whose 經 shares most character pairs."""
    from .. import text as texts
    from ..text.seed import seed_translation
    out: dict[int, list[str]] = {}
    sec = 1
    for para in seed_translation().splitlines():
        pp = _pairs(para)
        cands = [n for n in (sec, sec + 1, sec + 2) if n <= texts.N_SECTIONS]
        sec = max(cands, key=lambda n: (len(pp & _pairs(texts.passage(n, "simplified").text)), -n))
        out.setdefault(sec, []).extend(s for s in re.findall(r"[^。！？]*[。！？]”?", para) if s.strip())
    return out


def _pairs(s: str) -> set[str]:
    s = re.sub(r"[^\u3400-\u9fff]", "", s)
    return {s[i:i + 2] for i in range(len(s) - 1)}


def seed_sentence(phrase_simplified: str, section: int) -> str:
    """The seed's translation sentence for a phrase (simplified) of a section, or ''."""
    want = _pairs(phrase_simplified)
    best, score = "", 1
    for s in _paragraphs().get(section, []):
        k = len(want & _pairs(s))
        if k > score:
            best, score = s, k
    return best.strip()


def has_seed(rite) -> bool:
    """Whether the rite's chapter has the seed page the text layer reads (:mod:`scene.text.seed` reads chapter
    5's: a modern edition's notes and translation of 鄉射禮); 鄉飲酒禮 has none."""
    from ..chapter import resolve
    return rite.chapter.seed is not None and rite.chapter.seed == resolve(None).seed


def seed_lines(rite) -> list[str]:
    """The seed's sentence for every step of the pack (``steps`` order), '' where it has none."""
    from ..text.script import to_simplified
    spans = sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index))
    if not has_seed(rite):
        return ["" for _ in spans]
    return [seed_sentence(to_simplified(s.phrase), s.section) if s.phrase else "" for s in spans]


def step_notes(rite) -> list[list[list]]:
    """For each step of the pack (``steps`` order): the seed's notes on a term of its phrase, as
    [[term (繁, as in the phrase), seed note number], …] (the note's text is the pack's texts[n].seed)."""
    from ..text.script import to_simplified
    from ..text.seed import _FOLD, _headwords, seed_notes_for_section
    out: list[list[list]] = []
    seeded = has_seed(rite)
    for s in sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index)):
        if not seeded:
            out.append([])
            continue
        simp = to_simplified(s.phrase or "").translate(_FOLD)
        row = []
        for note in seed_notes_for_section(s.section):
            for w in _headwords(note.text):
                k = simp.find(w)
                if len(w) >= 1 and k >= 0 and not any(r[1] == note.n for r in row):
                    row.append([s.phrase[k:k + len(w)], note.n])
        out.append(row)
    return out


def cues(rite, lang: str = "trad") -> list[tuple[float, float, str]]:
    """(start, end, text) of every step with a phrase, in time order."""
    from ..text.script import to_simplified
    if lang not in ("trad", "simp"):
        raise ValueError(f"--lang {lang!r}: trad or simp")
    out = []
    for sp in sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index)):
        if sp.end_s - sp.start_s < 0.05 or not sp.phrase:
            continue
        simp = to_simplified(sp.phrase)
        text = sp.phrase if lang == "trad" else simp
        sent = seed_sentence(simp, sp.section)
        if sent:
            text += "\n" + sent            # verbatim: the seed is simplified
        out.append((sp.start_s, sp.end_s, text))
    return out


def vtt_text(text: str) -> str:
    """A cue's payload as WebVTT reads it: ``&`` ``<`` ``>`` as character references (a raw ``<`` opens a tag,
    a raw ``&`` a reference), no ``-->`` (it would end the cue's timing line), no blank line (it ends the cue)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("--&gt;", "→")
    return "\n".join(ln for ln in text.split("\n") if ln.strip()) or " "


def write_vtt(out: Path | str, rite, lang: str = "trad") -> int:
    """Write the WebVTT file; returns the number of cues."""
    cs = cues(rite, lang)
    lines = ["WEBVTT", f"NOTE {rite.title} — one cue a step ({lang}); times are seconds of the rite", ""]
    for k, (a, b, text) in enumerate(cs, 1):
        lines += [str(k), f"{_ts(a)} --> {_ts(b)}", vtt_text(text), ""]
    from ..atomic import write_text
    write_text(out, "\n".join(lines))          # the one safe writer: no link written through
    return len(cs)
