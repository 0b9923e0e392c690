"""Role sheets (角色單) and the call sheet (場記單).

A performer's booklet: a cover (the role, the reading, how to read the sheet), then one page per stage in
which he acts — on the left a to-scale plan of the part of the court he uses, north up, with his path as
numbered points, an arrow for where he faces, a boxed mark for each posture (坐 拜 揖 射) and the others
he meets drawn faint; on the right his cue list: for each step the phrase of the 經, his cue, what he
carries, what he says and the time into the stage.

The call sheet, for whoever directs the rehearsal: stage by stage, every step, with who, where and cue.
"""
from __future__ import annotations

from .canvas import A4_LANDSCAPE, A4_PORTRAIT, Page, Pen
from .fonts import SERIF, text_width, wrap
from .layout import LINE, Placer, paragraph, person, ranges
from .plan import draw_court, fit, north_arrow, scale_bar
from .roles import RoleIndex, display, title

W, H = A4_LANDSCAPE
PLAN_BOX = (10.0, 20.0, 162.0, 176.0)
CUE_X, CUE_W = 178.0, 109.0


def mmss(t: float) -> str:
    t = max(0.0, t)
    return f"{int(t // 60)}:{int(t % 60):02d}"


def _header(page: Page, left: str, right: str, w: float = W) -> None:
    page.text(10, 13, left, 5.0)
    page.text(w - 10, 13, right, 3.0, "r", 0.3)
    page.line(10, 15.5, w - 10, 15.5, Pen(0.0, 0.3))


def _footer(page: Page, s: str, k: int, n: int, w: float = W, h: float = H) -> None:
    page.line(10, h - 9, w - 10, h - 9, Pen(0.5, 0.15))
    page.text(10, h - 5, s, 2.3, gray=0.35)
    page.text(w - 10, h - 5, f"{k} / {n}", 2.5, "r", 0.35)


# ---------------------------------------------------------------------------- the plan of a part

def draw_part_plan(page: Page, lay, part, box=PLAN_BOX) -> None:
    """His path in the stage on a plan of the court he uses."""
    chi = lay.reading.chi_m
    pts = [tuple(p) for p in part.path] + [e.xy for e in part.entries]
    v = fit(pts, box, pad_m=2.5, min_m=14.0)
    page.rect(*box, Pen(0.0, 0.3))
    draw_court(page, lay, v)
    bx, by, bw, bh = box
    placer = Placer(box)
    r = max(0.25 * v.k, 1.1)
    page.clip(*box)
    for _name, x, y, hd in part.others:                    # the others he meets, faint
        if v.inside(x, y, 1.0):
            px, py = v.xy(x, y)
            person(page, px, py, hd, r, 0.6, False)
    for name, x, y, _hd in part.others:
        if v.inside(x, y):
            px, py = v.xy(x, y)
            placer.place(page, px, py, name, 1.9, 0.55, gap=r + 0.6)
    path = [v.xy(x, y) for x, y in part.path]
    page.polyline(path, Pen(0.15, 0.35))
    page.unclip()
    # numbered points: the entries at one spot share a marker (3–5); the arrow is where he faces there last
    groups: list[tuple[float, float, list]] = []
    for e in part.entries:
        px, py = v.xy(*e.xy)
        for g in groups:
            if abs(g[0] - px) < 1.2 and abs(g[1] - py) < 1.2:
                g[2].append(e)
                break
        else:
            groups.append((px, py, [e]))
    for px, py, _es in groups:
        placer.block(px - r, py - r, px + r, py + r)
    for mark, x, y in part.marks:
        px, py = v.xy(x, y)
        placer.place(page, px, py, mark, 2.2, 0.0, boxed=True, gap=r + 0.4)
    for px, py, es in groups:
        person(page, px, py, es[-1].heading, r, 0.0, True)
        page.arrow(px, py, es[-1].heading, r + 3.2, Pen(0.0, 0.3))
        placer.place(page, px, py, ranges([e.n for e in es]), 2.6, 0.0, gap=r + 0.5)
    page.rect(bx + 1.5, by + bh - 14.5, 52, 13.5, Pen(1.0, 0.1, fill=1.0, stroke=False))
    scale_bar(page, v, bx + 3, by + bh - 13, chi)
    page.rect(bx + bw - 9, by + 1.5, 7.5, 11, Pen(1.0, 0.1, fill=1.0, stroke=False))
    north_arrow(page, bx + bw - 5.2, by + 4.5)


# ---------------------------------------------------------------------------- the cue list

def _entry_lines(e, w: float, s: float) -> list[tuple[str, float, float, float]]:
    """(text, x offset, size, grey) lines of one entry at body size ``s``."""
    out = []
    head = f"{e.n}"
    tx = text_width("00", s) + 1.5
    for i, ln in enumerate(wrap(e.phrase, w - tx - 10, s, SERIF)):
        out.append((ln, tx, s, 0.0, "serif", head if i == 0 else ""))
    small = s * 0.78
    details = [f"cue：{e.cue}"]
    if e.says:
        details.append("曰「" + "」「".join(e.says) + "」")
    if e.holding:
        details.append(f"執 {e.holding}")
    details.append(f"位 {e.where}")
    if e.postures:
        details.append(" ".join(e.postures))
    details = [" · ".join(details)]
    for d in details:
        for ln in wrap(d, w - tx, small):
            out.append((ln, tx, small, 0.3, "sans", ""))
    return out


def draw_cues(page: Page, part, x: float = CUE_X, y: float = 20.0, w: float = CUE_W, bottom: float = 196.0) -> int:
    """The cue list in the column; the body size shrinks until every entry fits (down to 1.9 mm), and
    entries that still do not fit are counted at the foot.  Returns how many were drawn."""
    page.text(x, y + 3, "cue list", 2.6, gray=0.3)
    page.text(x + w, y + 3, "t into the stage", 2.2, "r", 0.3)
    y0 = y + 5.5
    for s in (3.2, 2.9, 2.6, 2.35, 2.15, 1.95, 1.8, 1.65):
        blocks = [_entry_lines(e, w, s) for e in part.entries]
        total = sum(sum(ln[2] * LINE for ln in b) + 1.2 for b in blocks)
        if total <= bottom - 4 - y0:
            break
    yy = y0
    drawn = 0
    for e, b in zip(part.entries, blocks):
        need = sum(ln[2] * LINE for ln in b) + 1.2
        if yy + need > bottom - 4:
            page.text(x, bottom, f"… {len(part.entries) - drawn} more (see the call sheet)", 2.3, gray=0.3)
            break
        page.line(x, yy, x + w, yy, Pen(0.7, 0.1))
        for text, ox, size, gray, fam, head in b:
            yy += size * LINE
            if head:
                page.text(x, yy - size * 0.3, head, size, gray=0.0)
                page.text(x + w, yy - size * 0.3, mmss(e.t_stage), size * 0.85, "r", 0.2)
            page.text(x + ox, yy - size * 0.3, text, size, gray=gray, family=fam)
        yy += 1.2
        drawn += 1
    return drawn


# ---------------------------------------------------------------------------- a booklet

def stage_page(rite, aid: str, part, k: int, n: int) -> Page:
    page = Page(W, H)
    st = part.stage
    who = title(rite, aid)
    _header(page, f"§{st.n} {st.title}", f"{who} · {len(part.entries)} steps · stage {mmss(st.end_s - st.start_s)}")
    draw_part_plan(page, rite.layout, part)
    draw_cues(page, part)
    _footer(page, f"{who} — {rite.title} role sheet — reading {rite.reading.name}", k, n)
    return page


def cover_page(rite, aid: str, parts, n: int) -> Page:
    page = Page(W, H)
    r = rite.reading
    who = title(rite, aid)
    a = rite.choreography.actors[aid]
    page.text(20, 40, who, 14.0)
    # wrapped to the left column (chapter 4's 遵者 is described at length: one line ran into "how to read"); a
    # one-line role sits where it always did, its baseline at 52
    below = paragraph(page, 20, 52 - 4.0 * (LINE - 0.3), 130, f"{rite.title} role sheet · {a.role}", 4.0, gray=0.25)
    shooting = f" shooting seed {r.seed}." if "target.hou" in rite.layout else ""   # (鄉飲酒禮: nobody shoots)
    from ..geometry.reading_picks import summary
    picks = f" {summary(r)};" if r.picks else ""          # the chapter's own choices (chapter 4's 介 席末)
    from ..geometry.layout import fixed_by_text
    fixed = fixed_by_text(r, rite.layout.reading)
    y = paragraph(page, 20, max(58.0, below + 2), 130, f"reading: {r.name} — {r.title}{fixed}; 1 尺 = {r.chi_m * 100:.1f} cm;{picks}{shooting}",
                  3.2)
    y = paragraph(page, 20, y + 2, 130, f"{len(parts)} stages, {sum(len(p.entries) for p in parts)} steps; "
                  f"the whole rite lasts {mmss(rite.duration)} (min:s) in this reconstruction.", 3.2)
    page.text(20, y + 8, "stages", 3.4)
    yy = y + 10
    size = 3.0 if len(parts) <= 24 else 2.2
    for i, p in enumerate(parts):
        col, row = divmod(i, 24)
        yy_i = yy + (row + 1) * size * 1.5
        page.text(20 + col * 70, yy_i, f"p.{i + 2}  §{p.stage.n} {p.stage.title}  ({len(p.entries)} steps)", size)
    _how_to_read(page, 165, 30)
    _footer(page, f"{who} — printed from the computed reconstruction (python -m scene sheets)", 1, n)
    return page


def _how_to_read(page: Page, x: float, y: float) -> None:
    page.text(x, y, "how to read a sheet", 4.0)
    rows = [("point", "a numbered disc: where you are when that step of the cue list is done "
                      "(3–5: several steps at one spot)"),
            ("arrow", "the way you face there (north is up the page)"),
            ("posture", "a boxed 坐 kneel, 拜 bow, 揖 salute, 射 shoot: where you take that posture"),
            ("path", "the line: the way you walk through the stage"),
            ("others", "grey discs: the others in your steps or within 3 m of you, where they are then"),
            ("cue", "cue: who acts just before you and the phrase he acts (續: straight on from your own step)"),
            ("", "執: what you carry when the step is done; 曰「…」: what you say; 位: the nearest named place; "
                 "the time is min:s from the start of the stage."),
            ("scale", "the bar in m and in 尺 of this reading; every plan is to a round scale (1:100 …)")]
    yy = y + 6
    for kind, s in rows:
        cx, cy = x + 5, yy + 2.2
        if kind == "point":
            person(page, cx, cy, 90.0, 1.3, 0.0, True)
            page.text(cx + 3.2, cy - 0.8, "3", 2.6)
        elif kind == "arrow":
            page.arrow(cx - 3, cy, 90.0, 6, Pen(0.0, 0.3))
        elif kind == "posture":
            page.rect(cx - 1.6, cy - 1.6, 3.2, 3.2, Pen(0.0, 0.15, fill=1.0))
            page.text(cx, cy + 0.8, "拜", 2.2, "c")
        elif kind == "path":
            page.line(cx - 4, cy + 1, cx + 4, cy - 1, Pen(0.15, 0.35))
        elif kind == "others":
            person(page, cx, cy, 180.0, 1.3, 0.6, False)
        elif kind == "scale":
            for i in range(4):
                page.rect(cx - 4 + i * 2, cy - 0.6, 2, 1.2, Pen(0.0, 0.15, fill=0.0 if i % 2 == 0 else 1.0))
        yy = paragraph(page, x + 12, yy, 108, s, 2.9) + 2.0


def booklet(rite, ix: RoleIndex, aid: str) -> list[Page]:
    """His cover and one page per stage he acts in (an actor who acts in no stage gets none)."""
    parts = ix.parts(aid)
    if not parts:
        return []
    n = len(parts) + 1
    return [cover_page(rite, aid, parts, n)] + [stage_page(rite, aid, p, k + 2, n) for k, p in enumerate(parts)]


# ---------------------------------------------------------------------------- the call sheet

CALL_COLS = (("§.#", 12), ("t", 11), ("who", 34), ("經", 62), ("where", 27), ("cue", 44))


def call_sheet(rite, ix: RoleIndex) -> list[Page]:
    """Every step of every stage: who, where, cue and the time into the stage (A4 portrait)."""
    w, h = A4_PORTRAIT
    pages: list[Page] = []
    size = 2.35
    page, y = None, 0.0

    def new_page() -> tuple[Page, float]:
        p = Page(w, h)
        _header(p, "call sheet 場記單", f"{rite.title} · reading {rite.reading.name} · every step, who, where, cue", w)
        x = 10.0
        for name, cw in CALL_COLS:
            p.text(x, 20.5, name, 2.4, gray=0.3)
            x += cw
        p.line(10, 22, w - 10, 22, Pen(0.0, 0.2))
        pages.append(p)
        return p, 23.0

    page, y = new_page()
    spans = rite.spans
    prev_stage = None
    for si, sp in enumerate(spans):
        st = rite.stages[sp.section - 1] if rite.stages[sp.section - 1].n == sp.section else \
            next(s for s in rite.stages if s.n == sp.section)
        if st is not prev_stage:
            if y > h - 30:
                page, y = new_page()
            y += 4.5
            page.text(10, y, f"§{st.n} {st.title} — {st.phase}, {mmss(st.start_s)}–{mmss(st.end_s)} of the rite", 3.0)
            y += 1.2
            prev_stage = st
            k = 0
        k += 1
        i = rite.actor_ids.index(sp.who[0]) if sp.who else None
        if i is not None:
            pose = rite.pose_at(sp.end_s)
            where = ix.where(pose.actor_xyz_m[i][:2], float(pose.actor_xyz_m[i][2]))
        else:
            where = ""
        prev = spans[si - 1] if si else None
        if prev is None:
            cue = "—"
        elif set(prev.who) & set(sp.who):
            cue = "續"
        else:
            cue = "、".join(display(rite, a, prev.start_s) for a in prev.who) + "：" + prev.phrase
        cells = [f"{st.n}.{k}", mmss(sp.start_s - st.start_s),
                 "、".join(display(rite, a, sp.start_s) for a in sp.who), sp.phrase, where, cue]
        wrapped = [wrap(c, cw - 1.5, size, SERIF if j == 3 else "sans") for j, (c, (_, cw)) in enumerate(zip(cells, CALL_COLS))]
        rows = max(len(c) for c in wrapped)
        need = rows * size * LINE + 0.8
        if y + need > h - 12:
            page, y = new_page()
        page.line(10, y, w - 10, y, Pen(0.8, 0.08))
        x = 10.0
        for j, (lines, (_, cw)) in enumerate(zip(wrapped, CALL_COLS)):
            for li, ln in enumerate(lines):
                page.text(x, y + (li + 1) * size * LINE - 0.5, ln, size, gray=0.3 if j in (0, 1, 5) else 0.0,
                          family=SERIF if j == 3 else "sans")
            x += cw
        y += need
    for k, p in enumerate(pages):
        _footer(p, f"{rite.title} call sheet — printed from the computed reconstruction (python -m scene sheets)",
                k + 1, len(pages), w, h)
    return pages

