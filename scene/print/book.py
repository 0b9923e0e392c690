"""The book of plans (禮圖, computed): one page per stage — the plan at the stage's key moment with every
person and his label, the dimension lines that fall in the window (侯道, the 乏's offsets, the 洗's), the
stage's 經 with its phrases numbered against numbered marks on the plan (where the one who acts that phrase
is when his act is done), and the evidence legend: each labelled place's status (● stated, ◐ derived,
○ assumed — as the layout records it) and the steps' own evidence notes (stated / commentary / assumed).

Vector, A4 portrait, black and white.
"""
from __future__ import annotations

import math

from .canvas import A4_PORTRAIT, Page, Pen
from .fonts import SERIF, text_width
from .layout import LINE, Placer, numbered_run, paragraph, person, ranges
from .plan import draw_court, fit, north_arrow, scale_bar, status_mark
from .roles import RoleIndex, display
from .sheets import _footer, _header, mmss

W, H = A4_PORTRAIT
BOX = (10.0, 20.0, 190.0, 160.0)


def numbered_phrases(rite, stage) -> list[tuple[int, int, str, list]]:
    """The stage's phrases in the order of the passage, numbered: (n, offset, phrase, [spans])."""
    by: dict[tuple[int, str], list] = {}
    for sp in rite.spans:
        if sp.section == stage.n:
            by.setdefault((sp.offset, sp.phrase), []).append(sp)
    return [(k + 1, off, ph, sps) for k, ((off, ph), sps) in enumerate(sorted(by.items()))]


def text_runs(passage: str, phrases) -> list[tuple[int | None, str]]:
    """The passage cut into (number, phrase) runs, unnumbered text between them."""
    runs: list[tuple[int | None, str]] = []
    cur = 0
    for n, off, ph, _ in phrases:
        if off < 0:
            continue
        if off > cur:
            runs.append((None, passage[cur:off]))
        end = off + len(ph)
        if end > cur:
            runs.append((n, passage[max(off, cur):end]))
            cur = end
        else:
            runs.append((n, ""))
    if cur < len(passage):
        runs.append((None, passage[cur:]))
    return runs


def _steps_of(rite, stage) -> dict[tuple[int, str], object]:
    sec = rite.choreography.section(stage.n)
    return {(st.offset, st.phrase): st for st in sec.steps}


def _dims(lay, v) -> list[dict]:
    from ..web.pack.texts import dim_rows
    out = []
    for d in dim_rows(lay):
        (ax, ay, _), (bx, by, _) = d["a"], d["b"]
        if v.inside(ax, ay) and v.inside(bx, by) and math.hypot(bx - ax, by - ay) * v.k > 8:
            out.append(d)
    return out


def _draw_dim(page: Page, v, d) -> None:
    (ax, ay, _), (bx, by, _) = d["a"], d["b"]
    pa, pb = v.xy(ax, ay), v.xy(bx, by)
    page.line(*pa, *pb, Pen(0.0, 0.15))
    ang = math.atan2(pb[1] - pa[1], pb[0] - pa[0])
    nx, ny = -math.sin(ang), math.cos(ang)
    for p in (pa, pb):
        page.line(p[0] - nx * 1.5, p[1] - ny * 1.5, p[0] + nx * 1.5, p[1] + ny * 1.5, Pen(0.0, 0.2))
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    deg = -math.degrees(ang)
    if deg > 90 or deg < -90:
        deg += 180
    text = d["text"]
    size = 2.0
    w = text_width(text, size)
    length = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
    if w > length:
        text = text.split("（")[0]
    page.text(mx + nx * 1.0, my + ny * 1.0 - 0.6, text, size, "c", 0.1, angle=deg)


def book_page(rite, ix: RoleIndex, stage, k: int, n: int) -> Page:
    page = Page(W, H)
    lay = rite.layout
    from ..rite.moments import representative_t
    t_key = representative_t(rite, stage)
    pose = rite.pose_at(t_key)
    phrases = numbered_phrases(rite, stage)
    span = rite.span_at(t_key)
    _header(page, f"§{stage.n} {stage.title}", f"{stage.phase} · {mmss(stage.start_s)}–{mmss(stage.end_s)} of the rite", W)
    # the 經 first: how much room it takes sets how tall the plan can be
    from .. import text as texts
    runs = text_runs(texts.passage(stage.n, chapter=rite.chapter).text, phrases)   # the rite's own chapter's 經
    for size in (3.8, 3.4, 3.0, 2.7, 2.4):
        text_h = numbered_run(Page(W, H), 0, 0, 190, runs, size, SERIF, 10_000)
        if text_h < 70:
            break
    box = (BOX[0], BOX[1], BOX[2], 272.0 - BOX[1] - 12.0 - text_h)
    # the window: everyone who acts in the stage, along his path, and the 堂
    acting = {a for _, _, _, sps in phrases for sp in sps for a in sp.who}
    acting |= {a for a in rite.actor_ids if ix._active(a, stage.start_s, stage.end_s)}   # the 獲者 calling hits
    pts = [(-lay.hall.platform_x * lay.reading.chi_m, 0.0), (lay.hall.platform_x * lay.reading.chi_m, 0.0)]
    for aid in acting:
        pts += [tuple(p) for p in ix.path(aid, stage)]
    v = fit(pts, box, pad_m=2.0, min_m=12.0)
    now = set(span.who) if span and span.section == stage.n else set()
    chi = lay.reading.chi_m
    hall = (-(lay.hall.platform_x + 2) * chi, -12 * chi, (lay.hall.platform_x + 2) * chi, (lay.hall.tang_depth + 2) * chi)
    inset = v.scale >= 400 and any(pose.visible[j] and hall[0] <= x <= hall[2] and hall[1] <= y <= hall[3]
                                   for j, (x, y, _) in enumerate(pose.actor_xyz_m))
    _plan(page, rite, ix, v, box, pose, now, phrases, t_key, hide=hall if inset else None)
    if inset:       # the 堂 and the court before it at a larger scale, in the room beside the narrow court
        bx, by, bw, _ = box
        court = lay["hall.court"]
        cw = court.size_chi[0] / 2 * chi
        left, right = v.xy(court.xyz_chi[0] * chi - cw, 0)[0] - bx, bx + bw - v.xy(court.xyz_chi[0] * chi + cw, 0)[0]
        iw = max(50.0, min(66.0, max(left, right) - 2.0))
        ibox = (bx + bw - iw - 2.0 if right >= left else bx + 2.0, by + 16.0, iw, 52.0)
        iv = fit([(hall[0], hall[1]), (hall[2], hall[3])], ibox, pad_m=0.0, min_m=8.0)
        a, b = v.xy(hall[0], hall[3]), v.xy(hall[2], hall[1])
        page.rect(a[0], a[1], b[0] - a[0], b[1] - a[1], Pen(0.0, 0.25, dash=(1.0, 0.8)))
        page.text(b[0] + 1.0, a[1] + 2.5, "A", 2.8)
        page.rect(*ibox, Pen(0.0, 0.3, fill=1.0))
        _plan(page, rite, ix, iv, ibox, pose, now, phrases, t_key, dims=False, bar=False)
        page.rect(ibox[0], ibox[1] - 4.6, iw, 4.4, Pen(1.0, 0.1, fill=1.0, stroke=False))
        page.text(ibox[0], ibox[1] - 1.2, f"A  堂 and the court before it, 1:{iv.scale}", 2.4)
    bx, by, bw, bh = box
    key = f"the plan at {mmss(t_key - stage.start_s)} into the stage"
    if span is not None and span.section == stage.n:
        key += f" — {'、'.join(display(rite, a, t_key) for a in span.who)}：{span.phrase}"
    y = paragraph(page, 10, by + bh + 0.5, 190, key + " (black: acting now; grey: the others)", 2.5, 0.25)
    page.text(10, y + 4.5, "經", 3.2)
    y = numbered_run(page, 10, y + 5.5, 190, runs, size, SERIF, 272)
    _evidence(page, rite, stage, phrases, y + 2)
    from ..geometry.reading_picks import summary
    picks = f" ({summary(rite.reading)})" if rite.reading.picks else ""
    _footer(page, f"{rite.title} 禮圖 — the book of plans, computed (python -m scene book) — reading "
                  f"{rite.reading.name}: {rite.reading.title}{picks}", k, n, W, H)
    return page


def _plan(page: Page, rite, ix: RoleIndex, v, box, pose, now: set, phrases, t_key: float, hide=None,
          dims: bool = True, bar: bool = True) -> None:
    """The court, the people at the key moment and the phrase marks into one box; ``hide`` (x0, y0, x1, y1
    in m): no labels or marks there (an inset shows them larger)."""
    lay = rite.layout
    hidden = (lambda x, y: hide[0] <= x <= hide[2] and hide[1] <= y <= hide[3]) if hide else (lambda x, y: False)
    page.rect(*box, Pen(0.0, 0.3))
    draw_court(page, lay, v, marks=True, hide=hide)
    bx, by, bw, bh = box
    page.clip(*box)
    if dims:
        for d in _dims(lay, v):
            _draw_dim(page, v, d)
    placer = Placer(box)
    r = max(0.25 * v.k, 1.0)
    people = []
    for j, aid in enumerate(pose.actor_ids):
        x, y = (float(c) for c in pose.actor_xyz_m[j][:2])
        if pose.visible[j] and v.inside(x, y) and y > ix.gate_y:
            px, py = v.xy(x, y)
            person(page, px, py, float(pose.heading_deg[j]), r, 0.0 if aid in now else 0.35, aid in now)
            placer.block(px - r, py - r, px + r, py + r)
            if not hidden(x, y):
                people.append((aid, px, py))
    page.unclip()
    # the numbered marks: where the (first) one who acts each phrase is when his act is done
    marks: list[tuple[float, float, list[int]]] = []
    for num, _, _, sps in phrases:
        sp = sps[0]
        if not sp.who:
            continue
        aid = sp.who[0]
        t1 = (sp.act_of(aid) or (sp.start_s, sp.end_s))[1]
        xyz = rite._actors.at(t1)[rite.actor_ids.index(aid)]
        x, y = float(xyz[0]), float(xyz[1])
        if not v.inside(x, y) or hidden(x, y) or y <= ix.gate_y:
            continue
        px, py = v.xy(x, y)
        for m in marks:
            if abs(m[0] - px) < 1.5 and abs(m[1] - py) < 1.5:
                m[2].append(num)
                break
        else:
            marks.append((px, py, [num]))
    for px, py, _nums in marks:
        page.line(px - 0.8, py - 0.8, px + 0.8, py + 0.8, Pen(0.0, 0.2))
        page.line(px - 0.8, py + 0.8, px + 0.8, py - 0.8, Pen(0.0, 0.2))
        placer.block(px - 0.8, py - 0.8, px + 0.8, py + 0.8)
    for text, px, py, acting in _groups(rite, people, now, t_key, 1.8 * v.k):
        placer.place(page, px, py, text, 2.0, 0.0 if acting else 0.35, gap=r + 0.4)
    for px, py, nums in marks:
        placer.place(page, px, py, ranges(nums), 1.9, 0.0, boxed=True, gap=1.2)
    if bar:
        page.rect(bx + 1.5, by + bh - 14.5, 52, 13.5, Pen(1.0, 0.1, fill=1.0, stroke=False))
        scale_bar(page, v, bx + 3, by + bh - 13, lay.reading.chi_m)
        page.rect(bx + bw - 9, by + 1.5, 7.5, 11, Pen(1.0, 0.1, fill=1.0, stroke=False))
        north_arrow(page, bx + bw - 5.2, by + 4.5)


def _groups(rite, people, now, t, reach_mm: float) -> list[tuple[str, float, float, bool]]:
    """One label per person — but people of one role standing together who are not acting now (a file of
    眾賓, the 三耦 at 堂西, the 工) share one: '眾賓 ×5'."""
    out, loose = [], []
    for aid, px, py in people:
        a = rite.choreography.actors[aid]
        first = a.role.split(" ")[0]
        if aid in now or first == a.name:
            out.append((display(rite, aid, t), px, py, aid in now))
        else:
            loose.append((first, aid, px, py))
    groups: list[list] = []
    for first, aid, px, py in loose:
        for g in groups:
            if g[0][0] == first and any(abs(px - q[2]) < reach_mm and abs(py - q[3]) < reach_mm for q in g):
                g.append((first, aid, px, py))
                break
        else:
            groups.append([(first, aid, px, py)])
    for g in groups:
        if len(g) == 1:
            out.append((display(rite, g[0][1], t), g[0][2], g[0][3], False))
        else:
            out.append((f"{g[0][0]} ×{len(g)}", sum(q[2] for q in g) / len(g), sum(q[3] for q in g) / len(g), False))
    return out


def _evidence(page: Page, rite, stage, phrases, y: float) -> None:
    """The legend: what the marks of the places mean, and the steps' own evidence notes."""
    page.line(10, y, 200, y, Pen(0.5, 0.15))
    y += 4.2
    page.text(10, y, "evidence", 2.8)
    x = 32.0
    for status, word in (("stated", "stated (the 經/記 gives it)"), ("derived", "derived (computed from stated rules)"),
                         ("assumed", "assumed (our choice; the basis is named)")):
        status_mark(page, x, y - 1.0, status, 0.8)
        page.text(x + 1.8, y, word, 2.3, gray=0.2)
        x += text_width(word, 2.3) + 7
    steps = _steps_of(rite, stage)
    notes = []
    for num, off, ph, _ in phrases:
        st = steps.get((off, ph))
        for aspect, status, source in (st.evidence if st is not None else ()):
            notes.append(f"[{num}] {aspect}: {status} — {source}")
    read = _read_evidence(rite, stage, phrases)
    if notes:
        line = "steps (the data's own notes): " + "; ".join(notes) + (" · " + read if read else "")
    elif read:
        line = read
    else:
        line = ("steps: no step of this stage carries an evidence note in the data yet — who acts and the phrase "
                "are the 經 (stated); where each stands is the layout's (marks above); routes and timing are the "
                "director's (assumed).")
    paragraph(page, 10, y + 1.0, 190, line, 2.3, 0.2, max_lines=max(1, int((H - 12 - y) / (2.3 * LINE)) - 1))


def _read_evidence(rite, stage, phrases) -> str:
    """The stage's steps as scene.rite.evidence reads them: counts per aspect, then what the 鄭注 gives."""
    if not hasattr(rite, "spans"):
        return ""
    from ..rite.evidence import ASPECTS, rite_evidence
    num = {(off, ph): n for n, off, ph, _ in phrases}
    counts = {a: {"stated": 0, "commentary": 0, "assumed": 0} for a in ASPECTS}
    zhu: dict[str, list[str]] = {}
    for sp, ev in zip(rite.spans, rite_evidence(rite)):
        if sp.section != stage.n:
            continue
        for a in ASPECTS:
            counts[a][ev[a].status] += 1
            if ev[a].status == "commentary" and ev[a].source.startswith("鄭注"):
                tag = f"[{num.get((sp.offset, sp.phrase), '?')}] {a}"
                zhu.setdefault(ev[a].source, [])
                if tag not in zhu[ev[a].source]:
                    zhu[ev[a].source].append(tag)
    head = "steps, read from the words (stated / commentary / assumed): " + "; ".join(
        f"{a} {c['stated']} / {c['commentary']} / {c['assumed']}" for a, c in counts.items())
    tail = "; ".join(f"{', '.join(tags)}: {src}" for src, tags in zhu.items())
    return head + (". From the 注: " + tail if tail else "")


def book(rite) -> list[Page]:
    ix = RoleIndex(rite)
    n = len(rite.stages)
    return [book_page(rite, ix, st, k + 1, n) for k, st in enumerate(rite.stages)]


