"""The pack's words and references: the reading, stages and steps, the 經 繁/简 with 鄭注 and the seed's notes,
the cameras of every stage × view, the places with their provenance, place labels and dimension lines."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .buffer import rounded, xyz_list

VIEW_ORDER = ("overview", "hall", "range", "plan", "archer", "target", "guest")


def reading_block(reading) -> dict[str, Any]:
    import dataclasses
    fields = {f.name: getattr(reading, f.name) for f in dataclasses.fields(reading) if f.name != "picks"}
    fields.update(reading.picks)        # a chapter's own choices, by key (chapter 4's jie_ximo), as the panel shows them
    return {"name": reading.name, "title": reading.title, "fields": fields, "chi_m": reading.chi_m,
            "seed": reading.seed, "label": reading.title}


def stage_rows(rite) -> list[dict[str, Any]]:
    from ...rite import choreography as chor
    secs = {s.n: s for s in rite.choreography.sections}
    out = []
    for st in rite.stages:
        src = secs[st.n].source_file if st.n in secs else ""
        m = re.match(r"\d+_round(\d)\.toml$", src)
        phase_title = chor.PHASES.get(st.phase, st.phase).split(" — ")[0]
        out.append({"n": st.n, "id": st.id, "title": st.title, "phase": st.phase, "phase_title": phase_title,
                    "round": int(m.group(1)) if m else None, "start": rounded(st.start_s, 3), "end": rounded(st.end_s, 3),
                    "incipit": st.incipit})
    return out


def step_rows(rite, sources: list[str] | None = None) -> list[dict[str, Any]]:
    """The steps in time order; each with ``ev`` (the status letter of where, facing, posture, route, timing:
    s stated, c commentary, a assumed) and ``evs`` (indices of their sources in ``sources``, filled here)."""
    from ...rite.evidence import ASPECTS, rite_evidence
    evs = dict(zip(((s.section, s.index) for s in rite.spans), rite_evidence(rite)))
    table: dict[str, int] = {}
    spans = sorted(rite.spans, key=lambda s: (s.start_s, s.section, s.index))
    rows = []
    for s in spans:
        ev = evs[(s.section, s.index)]
        rows.append({"start": rounded(s.start_s, 3), "end": rounded(s.end_s, 3), "section": s.section,
                     "index": s.index, "phrase": s.phrase, "offset": s.offset, "who": list(s.who), "do": s.do,
                     "ev": "".join(ev[a].status[0] for a in ASPECTS),
                     "evs": [table.setdefault(ev[a].source, len(table)) for a in ASPECTS]})
    if sources is not None:
        sources[:] = list(table)
    return rows


@lru_cache(maxsize=1)
def _font_cmap() -> frozenset[int]:
    """The code points the CJK font and its fallback have between them."""
    from ...fonts import cmap as _cmap
    from ...fonts import fallback_font_path, font_path
    fb = fallback_font_path()
    return _cmap(font_path()) | (_cmap(fb) if fb else frozenset())


def _simplified(trad: str) -> str:
    """The simplified text, except where OpenCC gives a character neither CJK font has (豵 → 𫎆):
    there the traditional one is kept, so that the page shows a glyph, not a box."""
    from ... import text as texts
    simp = texts.to_simplified(trad)
    have = _font_cmap()
    if len(simp) != len(trad) or all(ord(c) in have or ord(c) < 0x2E80 for c in simp):
        return simp
    return "".join(s if ord(s) in have or ord(s) < 0x2E80 else t for s, t in zip(simp, trad))


def text_block(rite) -> dict[str, Any]:
    """Each section's 經 (traditional and simplified), its 鄭注 and the seed page's notes — of the rite's own
    chapter (the seed page is chapter 5's: none for 鄉飲酒禮)."""
    from ... import text as texts
    from ..captions import has_seed
    ch = rite.chapter
    seeded = has_seed(rite)
    out = {}
    for st in rite.stages:
        n = st.n
        p = texts.passage(n, chapter=ch)
        notes = [{"at": g.offset, "anchor": g.anchor, "text": g.note, "text_s": _simplified(g.note)}
                 for g in texts.zheng_notes(n, chapter=ch)]
        seed = [{"n": s.n, "text": texts.to_traditional(s.text), "text_s": s.text}
                for s in (texts.seed_notes_for_section(n) if seeded else [])]
        out[str(n)] = {"title": p.title, "jing": p.text, "jing_s": texts.passage(n, "simplified", chapter=ch).text,
                       "notes": notes, "seed": seed}
    return out


def camera_block(rite) -> dict[str, Any]:
    from ...render import views
    from ...rite.moments import representative_t
    by_stage = {}
    order = [v for v in VIEW_ORDER if views.applies(v, rite.layout)]     # no range's views without a range
    for st in rite.stages:
        pose = rite.pose_at(representative_t(rite, st))
        cams = {}
        for v in order:
            c = views.camera(v, rite, pose, aspect=16 / 9)
            cams[v] = {"position": xyz_list(c.position, 3), "focal_point": xyz_list(c.focal_point, 3),
                       "view_up": xyz_list(c.view_up, 4), "view_angle": rounded(c.view_angle, 3), "parallel": bool(c.parallel),
                       "parallel_scale": rounded(c.parallel_scale, 3), "title": c.title}
        by_stage[str(st.n)] = cams
    return {"order": order, "titles": {v: views.VIEWS[v] for v in order}, "by_stage": by_stage}


def place_rows(lay) -> list[dict[str, Any]]:
    chi = lay.reading.chi_m
    out = []
    for p in lay.places.values():
        d = p.as_dict(chi)
        d.pop("xyz_chi", None)
        out.append(d)
    return out


def place_label_rows(lay) -> list[dict[str, Any]]:
    """The stills' fixed place labels (scene.render.annotate.place_labels), once each, with the views that show
    them and their priority (the stills place higher priorities first)."""
    from ...render.annotate import PLACE_LABELS
    from ...render.annotate import place_labels as labels_for
    seen: dict[str, dict[str, Any]] = {}
    for v in (*VIEW_ORDER, "auto"):          # auto: the director's camera shows what a still from it shows
        rows = [(pid, prio) for pid, _, _, prio, views in PLACE_LABELS if pid in lay and (views is None or v in views)]
        labels = labels_for(lay, v)
        assert len(rows) == len(labels)
        for (pid, prio), lb in zip(rows, labels):
            if pid not in seen:
                seen[pid] = {"id": pid, "text": lb.text, "xyz_m": xyz_list(lb.anchor), "priority": prio, "views": []}
            seen[pid]["views"].append(v)
    return list(seen.values())


def dim_rows(lay) -> list[dict[str, Any]]:
    """Dimension lines with the text's arithmetic (units.parse_length, as the layout measures them):
    the 侯道, the 乏's two offsets (參侯道 north of the 侯, 西五步), the 洗's (南北以堂深, 東西當東榮)."""
    from ...geometry.units import format_derivation
    r = lay.reading
    chi = r.chi_m
    def short(derivation: str) -> str:
        return derivation.split(" @ ")[0]
    def m(x, y, z=0.0) -> list[float]:
        return xyz_list((x * chi, y * chi, z * chi))
    out = []
    if "range.houdao" in lay:                 # a hall with a range (鄉飲酒禮's 庠 has none: the 洗's two only)
        out += _range_dims(lay, short, m)
    xi = lay["court.xi"]
    xx, xy, _ = xi.xyz_chi
    h = lay.hall
    out.append({"id": "court.xi.ns", "text": f"洗 南北以{short(format_derivation('堂深', h.tang_depth, r))}",
                "a": m(xx, 0.0), "b": m(xx, xy), "source": xi.source})
    out.append({"id": "court.xi.ew", "text": f"洗 東西當{short(format_derivation('東榮', h.rong_x, r))}",
                "a": m(0.0, xy), "b": m(xx, xy), "source": xi.source})
    return out


def _range_dims(lay, short, m) -> list[dict[str, Any]]:
    """The 侯道 and the 乏's two offsets (參侯道 north of the 侯, 西五步)."""
    from ...geometry.units import parse_length
    r = lay.reading
    out = []
    hd = lay["range.houdao"]
    y0, y1 = hd.extra["start_y"], hd.extra["end_y"]
    houdao = parse_length("五十弓", r)
    zline = lay.hall.height if y0 > 0 else 0.0
    out.append({"id": "range.houdao", "text": f"侯道 五十弓 = {short(houdao.derivation)}（自{r.houdao_from}）",
                "a": m(0.0, y0, zline), "b": m(0.0, y1), "source": hd.source})
    fa = lay["range.fa"]
    fx, fy, _ = fa.xyz_chi
    north = parse_length("參侯道", r, {"侯道": houdao.chi})
    west = parse_length("五步", r)
    base_x = fx + west.chi
    out.append({"id": "range.fa.north", "text": f"乏 參侯道 = {short(north.derivation)}（侯北）",
                "a": m(fx, y1), "b": m(fx, y1 + north.chi), "source": fa.source})
    out.append({"id": "range.fa.west", "text": f"乏 西五步 = {short(west.derivation)}（自{r.fa_west_from}）",
                "a": m(base_x, fy), "b": m(fx, fy), "source": fa.source})
    return out
