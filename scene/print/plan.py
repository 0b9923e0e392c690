"""A plan of the court to scale (平面圖), north up: the 堂 with its 序, 楹 and two 階, the 物, the 乏, the 侯
on its 植, the 洗, the 中, the 楅, the mats, the 門 — each from its place in the layout — with a scale bar
in 尺 and m and a north arrow.  People and paths are drawn over it by the sheets and the book.

A :class:`View` is a window of the court (metres) fitted into a box of the page (mm) at a round scale
(1:50 … 1:1000), so a plan's scale is one a reader can measure with a ruler.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .canvas import Page, Pen

#: round scales, largest first: a plan uses the largest that holds what it must show
SCALES = (50, 75, 100, 150, 200, 250, 300, 400, 500, 600, 750, 1000)
THIN, FAINT = Pen(0.0, 0.15), Pen(0.55, 0.12)
#: a place's status as a mark beside its label: filled (stated), half (derived), open (assumed)
STATUS_MARKS = ("stated", "derived", "assumed")


@dataclass(frozen=True)
class View:
    """The court window (x0 … x1 east, y0 … y1 north, metres) drawn into the page box at 1:scale."""

    x0: float
    y0: float
    x1: float
    y1: float
    box: tuple[float, float, float, float]      # left, top, width, height in mm
    scale: int

    @property
    def k(self) -> float:
        """mm of paper per m of court."""
        return 1000.0 / self.scale

    def xy(self, x_m: float, y_m: float) -> tuple[float, float]:
        bx, by, _, _ = self.box
        return bx + (x_m - self.x0) * self.k, by + (self.y1 - y_m) * self.k

    def inside(self, x_m: float, y_m: float, margin_m: float = 0.0) -> bool:
        return (self.x0 - margin_m <= x_m <= self.x1 + margin_m) and (self.y0 - margin_m <= y_m <= self.y1 + margin_m)


def fit(points, box: tuple[float, float, float, float], pad_m: float = 2.5, min_m: float = 8.0) -> View:
    """The largest round scale at which ``points`` (x, y in m), padded, fit the box; the window fills it."""
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    x0, x1 = min(xs) - pad_m, max(xs) + pad_m
    y0, y1 = min(ys) - pad_m, max(ys) + pad_m
    if x1 - x0 < min_m:
        x0, x1 = (x0 + x1 - min_m) / 2, (x0 + x1 + min_m) / 2
    if y1 - y0 < min_m:
        y0, y1 = (y0 + y1 - min_m) / 2, (y0 + y1 + min_m) / 2
    _, _, bw, bh = box
    scale = next((s for s in SCALES if (x1 - x0) * 1000 / s <= bw and (y1 - y0) * 1000 / s <= bh), SCALES[-1])
    w_m, h_m = bw * scale / 1000, bh * scale / 1000
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return View(cx - w_m / 2, cy - h_m / 2, cx + w_m / 2, cy + h_m / 2, box, scale)


def _rect_m(page: Page, v: View, cx, cy, w, h, pen: Pen) -> None:
    """A rectangle given by its centre and size in metres."""
    x, y = v.xy(cx - w / 2, cy + h / 2)
    page.rect(x, y, max(w * v.k, 0.2), max(h * v.k, 0.2), pen)


def status_mark(page: Page, x: float, y: float, status: str, r: float = 0.7) -> None:
    """The mark of a place's status: ● stated, ◐ derived, ○ assumed (drawn, not a glyph)."""
    if status == "stated":
        page.circle(x, y, r, Pen(0.0, 0.15, fill=0.0))
    elif status == "derived":
        page.circle(x, y, r, Pen(0.0, 0.15, fill=1.0))
        page.polyline([(x, y - r)] + [(x + r * math.sin(a / 8 * math.pi), y - r * math.cos(a / 8 * math.pi))
                                       for a in range(9)], Pen(0.0, 0.01, fill=0.0), closed=True)
    else:
        page.circle(x, y, r, Pen(0.0, 0.15, fill=1.0))


def _label(page, v, lay, pid, text, dx_m=0.0, dy_m=0.0, size=2.2, marks=False, align="c") -> None:
    p = lay[pid]
    chi = lay.reading.chi_m
    x, y = v.xy(p.xyz_chi[0] * chi + dx_m, p.xyz_chi[1] * chi + dy_m)
    if not (v.box[0] < x < v.box[0] + v.box[2] and v.box[1] < y < v.box[1] + v.box[3]):
        return
    page.text(x, y, text, size, align, 0.25)
    if marks:
        from .fonts import text_width
        w = text_width(text, size)
        mx = x + (w / 2 if align == "c" else w if align == "l" else 0) + 1.0
        status_mark(page, mx, y - size * 0.35, p.status, 0.55)


def draw_court(page: Page, lay, v: View, marks: bool = False, hide=None) -> list[str]:
    """The fixed court into the view (clipped to its box); ``marks``: each label carries its place's status
    mark; ``hide`` (x0, y0, x1, y1 in m): no labels there.  Returns the place ids labelled."""
    chi = lay.reading.chi_m
    h = lay.hall
    m = lambda c: c * chi          # noqa: E731  (尺 → m)
    bx, by, bw, bh = v.box
    page.clip(bx, by, bw, bh)
    court = lay["hall.court"]
    cx, cy, _ = court.xyz_chi
    _rect_m(page, v, m(cx), m(cy), m(court.size_chi[0]), m(court.size_chi[1]), Pen(0.35, 0.5))
    # the 堂: a raised floor, grey; the 序 walls; the 楹; the two 階 with their 等
    _rect_m(page, v, 0.0, m(h.tang_depth / 2), m(2 * h.platform_x), m(h.tang_depth), Pen(0.0, 0.35, fill=0.9))
    for side in (-1, 1):
        _rect_m(page, v, m(side * h.xu_x), m(h.tang_depth / 2), m(1.0), m(h.tang_depth), Pen(0.0, 0.1, fill=0.3))
    for pid in ("hall.west_pillar", "hall.east_pillar"):
        x, y = v.xy(*(m(c) for c in lay[pid].xyz_chi[:2]))
        page.circle(x, y, max(m(0.6) * v.k, 0.6), Pen(0.0, 0.1, fill=0.0))
    for pid in ("hall.west_steps", "hall.east_steps"):
        st = lay[pid]
        sx, sy, _ = st.xyz_chi
        _rect_m(page, v, m(sx), m(sy), m(st.size_chi[0]), m(st.size_chi[1]), Pen(0.0, 0.2, fill=1.0))
        for _tx, ty, _ in st.extra.get("treads", ()):
            a = v.xy(m(sx - st.size_chi[0] / 2), m(ty + 0.5))
            b = v.xy(m(sx + st.size_chi[0] / 2), m(ty + 0.5))
            page.line(*a, *b, THIN)
    for pid in ("tang.wu_right", "tang.wu_left"):
        if pid not in lay:                                      # no 物 in a hall without a range
            continue
        p = lay[pid]
        x, y, _ = p.xyz_chi
        _rect_m(page, v, m(x), m(y), m(p.size_chi[0]), m(p.size_chi[1]), Pen(0.0, 0.2))
        a, b = v.xy(m(x - p.size_chi[0] / 2), m(y + p.size_chi[1] / 2)), v.xy(m(x + p.size_chi[0] / 2), m(y - p.size_chi[1] / 2))
        page.line(a[0], a[1], b[0], b[1], THIN)
        page.line(a[0], b[1], b[0], a[1], THIN)
    # the range: 侯 on its 植, the 乏, the 侯道 axis (鄉飲酒禮's 庠 has none)
    if "target.hou" in lay:
        hou = lay["target.hou"]
        hx, hy, _ = hou.xyz_chi
        a, b = v.xy(m(hx - hou.size_chi[0] / 2), m(hy)), v.xy(m(hx + hou.size_chi[0] / 2), m(hy))
        page.line(*a, *b, Pen(0.0, 1.0))
        for pid in ("target.west_post", "target.east_post"):
            x, y, _ = lay[pid].xyz_chi
            _rect_m(page, v, m(x), m(y), m(1.0), m(1.0), Pen(0.0, 0.1, fill=0.0))
        a, b = v.xy(m(hx - 23), m(hy - 0.3)), v.xy(m(hx + 23), m(hy - 0.3))
        page.line(*a, *b, Pen(0.3, 0.15, dash=(0.8, 0.6)))          # 下綱
        fa = lay["range.fa"]
        fx, fy, _ = fa.xyz_chi
        _rect_m(page, v, m(fx), m(fy), m(fa.size_chi[0]), m(max(fa.size_chi[1], 0.6)), Pen(0.0, 0.2, fill=0.2))
        hd = lay["range.houdao"]
        a, b = v.xy(0.0, m(hd.extra["start_y"])), v.xy(0.0, m(hd.extra["end_y"]))
        page.line(*a, *b, Pen(0.5, 0.12, dash=(2.0, 1.0)))
    # the furniture: 洗 篚 磬, 中 楅 扑, 尊, mats, the 門
    for pid, fill in (("court.xi", 0.8), ("court.qing", 0.8), ("court.zhong", 0.7), ("court.bi", 0.5),
                      ("tang.zun", 0.8), ("hall.gate", 0.6)):
        if pid not in lay:
            continue
        p = lay[pid]
        x, y, _ = p.xyz_chi
        _rect_m(page, v, m(x), m(y), m(p.size_chi[0]), m(max(p.size_chi[1], 0.8)), Pen(0.0, 0.15, fill=fill))
    for pid, p in lay.places.items():
        if pid.startswith("mat.") and p.size_chi and (pid != "mat.dafu" or lay.reading.dafu_present):
            x, y, _ = p.xyz_chi
            _rect_m(page, v, m(x), m(y), m(p.size_chi[0]), m(p.size_chi[1]), Pen(0.3, 0.12, dash=(0.6, 0.4)))
    page.unclip()
    labels = [("hall.tang", "堂", 0.0, m(h.tang_depth * 0.3)), ("hall.west_steps", "西階", 0.0, -1.3),
              ("hall.east_steps", "阼階", 0.0, -1.3), ("hall.west_pillar", "西楹", 0.0, -0.9),
              ("hall.east_pillar", "東楹", 0.0, -0.9), ("tang.wu_right", "右物", -0.9, 0.0),
              ("tang.wu_left", "左物", 0.9, 0.0), ("target.hou", "侯", 0.0, -1.6), ("range.fa", "乏", 0.0, -1.2),
              ("court.xi", "洗", 0.0, -1.2), ("court.zhong", "中", 0.0, -1.2), ("court.bi", "楅", 0.0, -1.0),
              ("tang.zun", "尊", 0.0, 0.9), ("hall.gate", "門", 0.0, -1.5), ("court.qing", "磬", 0.0, 1.0),
              ("mat.bin", "賓席", 0.0, 1.2), ("mat.zhuren", "主人席", 1.6, 0.0),
              ("hall.west_xu", "西序", -0.8, m(h.tang_depth * 0.3)), ("hall.east_xu", "東序", 0.8, m(h.tang_depth * 0.3))]
    shown = []
    size = 2.4 if v.scale <= 200 else 2.0
    for pid, text, dx, dy in labels:
        if pid in lay:
            x, y = (c * chi for c in lay[pid].xyz_chi[:2])
            if hide and hide[0] <= x <= hide[2] and hide[1] <= y <= hide[3]:
                continue
            before = len(page.ops)
            _label(page, v, lay, pid, text, dx, dy, size, marks)
            if len(page.ops) > before:
                shown.append(pid)
    return shown


def scale_bar(page: Page, v: View, x: float, y: float, chi_m: float) -> None:
    """A bar in m above one in 尺, each a round length near a fifth of the plan's width."""
    target_m = v.box[2] / v.k / 5
    nice_m = min((1, 2, 5, 10, 20, 50), key=lambda n: abs(n - target_m))
    nice_chi = min((5, 10, 20, 50, 100, 200), key=lambda n: abs(n * chi_m - nice_m))
    for row, (length_m, label, n) in enumerate(((nice_m, f"{nice_m:g} m", 5 if nice_m in (5, 10, 50) else 4),
                                                (nice_chi * chi_m, f"{nice_chi} 尺", 5 if nice_chi in (5, 50) else 4))):
        yy = y + row * 4.2
        w = length_m * v.k
        for i in range(n):
            page.rect(x + i * w / n, yy, w / n, 1.2, Pen(0.0, 0.15, fill=0.0 if i % 2 == 0 else 1.0))
        page.text(x + w + 1.2, yy + 1.2, label, 2.2)
    page.text(x, y + 10.5, f"1:{v.scale}   1 尺 = {chi_m * 100:.1f} cm", 2.0, gray=0.3)


def north_arrow(page: Page, x: float, y: float) -> None:
    page.arrow(x, y + 7, 0.0, 6.0, Pen(0.0, 0.3))
    page.text(x, y, "北", 2.6, "c")
