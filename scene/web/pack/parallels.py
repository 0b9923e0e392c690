"""``parallels.json``: the parallel sections of the site's chapters and what differs between them (issue 43: the
side-by-side page, ``beside.html``, plays two of them together and lists the differences, with no server)."""
from __future__ import annotations

from typing import Any


def parallels_doc(chapter_ids=None) -> dict[str, Any]:
    """Every pair of ``assets/parallels.toml`` whose both chapters are in ``chapter_ids`` (all when None):
    ``{"pairs": [{a: {chapter, n, title}, b: …, basis, note, ratio, differences: [{after, a, b}]}]}``."""
    from ...text import parallel as par
    pairs, _ = par.load()
    out = []
    for p in pairs:
        if chapter_ids is not None and not {p.a.chapter.id, p.b.chapter.id} <= set(chapter_ids):
            continue
        out.append({
            "a": _side(p.a), "b": _side(p.b), "basis": p.basis, "note": p.note,
            "ratio": par.measure(p.a, p.b).ratio,
            "differences": [{"after": c, "a": x, "b": y} for c, x, y in par.differences(p.a, p.b)],
        })
    return {"pairs": out}


def _side(r) -> dict[str, Any]:
    return {"chapter": r.chapter.id, "chapter_title": r.chapter.title, "n": r.n, "title": r.title}


__all__ = ["parallels_doc"]
