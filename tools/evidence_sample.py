"""Draw a random sample of the rite's 'stated' / 'commentary' evidence labels and judge each mechanically.

    PYTHONPATH=. python tools/evidence_sample.py [--seed 20261208] [--n 80] [--all] [--show]

Pool: every (step, aspect) of ``scene.rite.evidence.rite_evidence`` over the whole default rite (zheng) whose
label is 'stated' or 'commentary', for the aspects where / facing / posture / route (a carried *where*
— "where he stands: …" — is judged on the word it carries).  ``random.Random(seed).sample(pool, n)``.

The rules (fidelity-2026-12-07.md, "Evidence labels (40 drawn)"), the same for every label:

* **where** — the word quoted is a place word (a place of the text or of the layout, or one with a place
  noun: 席 階 楹 序 洗 …) or a 位 the clause names as his (反位 復位 即位 其位), never a person's name; a 注
  quoted names a place or a 位;
* **route** — the word quoted is a motion word (升 降 進 退 適 反 復 入 出 還 就 由 自 從 交 及 …, not a side
  word of a place phrase: 之東, 之西南, 少南) and this step walks it: he moves ≥ 0.3 尺 in the step, up for
  升, down for 降 (a 注 quoted: it has a motion word, and he moves);
* **facing** — the word quoted (or a word of the 注) is a facing word (北面 …);
* **posture** — the word quoted (or a word of the 注) is a posture word (坐 立 拜 揖 興 …).

Prints the sample figures (and with ``--all`` the figures over the whole pool); ``--show`` lists the false.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from typing import Any

import numpy as np

from scene.rite import evidence as E
from scene.rite.cache import load_rite
from scene.rite.grammar.words import FACINGS
from scene.text.clauses import names_of as _names
from scene.text.words import words

PLACES = words().places      # the default rite's chapter's place words (chapter 5's)

ASPECTS = ("where", "facing", "posture", "route")
#: a word of motion (one of its characters names a way of going)
MOTION_CHARS = "升降進退適反復入出還就由自從交及盡過至往行趨"
MOTION_WORDS = ("並行", "相左", "鉤楹")
#: a 位 the clause names as his
WEI = ("反位", "復位", "即位", "其位")
#: the characters of a place noun
PLACE_CHARS = "席階楹序洗篚尊侯乏楅豐門堂庭物中位方前間榮廉"
#: a moving man: at least this far (尺), and up / down this much for 升 / 降 (the 堂 is 3 尺 high)
MIN_MOVE_CHI = 0.3
MIN_RISE_CHI = 1.0


def _is_name(w: str) -> bool:
    return any(s == 0 and e == len(w) for s, e, _ in _names(w))


def place_word(w: str, layout_names: set[str]) -> bool:
    if w in WEI:
        return True
    if _is_name(w) or any(s == 0 for s, _, _ in _names(w)) and not any(c in PLACE_CHARS for c in w):
        return False
    return w in PLACES or w in layout_names or any(c in PLACE_CHARS for c in w)


def motion_word(w: str) -> bool:
    if re.fullmatch(r"少[東西南北]", w):          # 釋獲者少西辟薦: he moves a little west (judged by his move)
        return True
    if re.search(r"之[東西南北]|^少[東西南北]", w) and not any(c in MOTION_CHARS for c in w.replace("之", "")):
        return False
    return w in MOTION_WORDS or any(c in MOTION_CHARS for c in w)


def moves(rite: Any) -> list[tuple[float, float]]:
    """Per span, of its first actor: (the farthest he gets from where he began, the height change) in 尺,
    measured on the tracks (16 samples over the span)."""
    chi = rite.reading.chi_m
    out = []
    for sp in rite.spans:
        aid = next((a for a in sp.who if a in rite.actor_ids), None)
        if aid is None:
            out.append((0.0, 0.0))
            continue
        i = rite.actor_ids.index(aid)
        ts = np.linspace(sp.start_s, sp.end_s, 16)
        xyz = rite.sample(ts, objects=False)["actor_xyz_m"][:, i, :] / chi
        d = float(np.max(np.hypot(xyz[:, 0] - xyz[0, 0], xyz[:, 1] - xyz[0, 1])))
        dz = float(np.min(xyz[:, 2]) - xyz[0, 2]) if np.min(xyz[:, 2]) < xyz[0, 2] - MIN_RISE_CHI else float(
            np.max(xyz[:, 2]) - xyz[0, 2])
        out.append((d, dz))
    return out


def judge(aspect: str, ev: E.Evidence, move: tuple[float, float], layout_names: set[str], phrase: str) -> str | None:
    """None if the label keeps the rule, else why not."""
    src = re.sub(r"^(where he stands: )+", "", ev.source)
    # a reused step (like): 「如」 (大夫辭洗如賓禮): then the model's own label — judged by the model's word
    src = re.sub(r"^「如」 \([^)]*\): ", "", src)
    m = re.search(r"「([^」]+)」", src)
    if ev.status == "stated" and m is None:
        return "stated without a quoted word"
    word = m.group(1) if m else None
    note = src[len("鄭注: "):] if src.startswith("鄭注: ") else ""
    if aspect == "where":
        if word is not None:
            return None if place_word(word, layout_names) else f"「{word}」 is not a place word"
        ok = "位" in note or any(p in note for p in PLACES) or any(c in note for c in "席階楹序洗篚侯乏楅") or any(
            n in note for n in layout_names if len(n) >= 2)
        return None if ok else "the 注 names no place"
    if aspect == "facing":
        return None if (word or note) and any(f in (word or note) for f in FACINGS) else "no facing word"
    if aspect == "posture":
        return None if any(p in (word or note) for p in E.POSTURE_WORDS) else "no posture word"
    # route
    text = word if word is not None else note
    if word is not None and not motion_word(word):
        return f"「{word}」 is not a motion word"
    if word is None and not any(c in MOTION_CHARS for c in text):
        return "the 注 names no motion"
    d, dz = move
    if d < MIN_MOVE_CHI and abs(dz) < MIN_RISE_CHI:
        return f"he does not move in this step ({d:.2f} 尺)"
    mat = word is not None and (word.endswith("席") or (f"{word}席" in phrase and phrase.count(word) == 1))
    if word is not None and word.startswith("升") and not mat and dz < MIN_RISE_CHI:
        return f"「{word}」 but he does not go up here (dz {dz:+.1f} 尺)"
    if word is not None and word.startswith("降") and not mat and dz > -MIN_RISE_CHI:
        return f"「{word}」 but he does not go down here (dz {dz:+.1f} 尺)"
    return None


def pool(rite: Any) -> list[tuple[int, str, E.Evidence]]:
    evs = E.rite_evidence(rite)
    return [(k, a, ev[a]) for k, ev in enumerate(evs) for a in ASPECTS if ev[a].status in ("stated", "commentary")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261208)
    ap.add_argument("--n", type=int, default=80)
    ap.add_argument("--all", action="store_true", help="judge the whole pool as well")
    ap.add_argument("--show", action="store_true", help="list the false labels")
    o = ap.parse_args(argv)
    rite = load_rite("zheng")
    names = {p.name for p in rite.layout.places.values()}
    mv = moves(rite)
    everything = pool(rite)
    sample = sorted(random.Random(o.seed).sample(everything, o.n), key=lambda r: r[0])
    for label, rows in (("sample", sample), ("pool", everything if o.all else [])):
        if not rows:
            continue
        bad = [(k, a, e, why) for k, a, e in rows if (why := judge(a, e, mv[k], names, rite.spans[k].phrase))]
        print(f"{label}: seed {o.seed}, {len(rows)} labels of {len(everything)}: {len(rows) - len(bad)} true, "
              f"{len(bad)} false")
        for a in ASPECTS:
            n_a = sum(1 for _, x, _ in rows if x == a)
            print(f"  {a:8s} {n_a - sum(1 for _, x, _, _ in bad if x == a)}/{n_a}")
        if o.show:
            for k, a, e, why in bad:
                sp = rite.spans[k]
                print(f"  §{sp.section}#{sp.index + 1} {sp.phrase} ({','.join(sp.who)}) {a}: {e.status} "
                      f"{e.source[:50]} — {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
