"""Setting things on a page (版式): wrapped paragraphs, labels that keep clear of one another, runs of
numbered phrases (the 經 with its phrase numbers), and the people and paths drawn over a plan."""
from __future__ import annotations

import math

from .canvas import Page, Pen
from .fonts import SANS, text_width, wrap

LINE = 1.32            # line height, in ems


def paragraph(page: Page, x: float, y: float, width: float, s: str, size: float, gray: float = 0.0,
              family: str = SANS, max_lines: int | None = None) -> float:
    """``s`` wrapped to ``width`` from the top-left (x, y); returns the y below it."""
    lines = wrap(s, width, size, family)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][:-1] + "…"
    for ln in lines:
        y += size * LINE
        page.text(x, y - size * 0.3, ln, size, gray=gray, family=family)
    return y


def height(s: str, width: float, size: float, family: str = SANS) -> float:
    return len(wrap(s, width, size, family)) * size * LINE


def ranges(ns: list[int]) -> str:
    """[3, 4, 5, 7] → '3–5,7'."""
    out, i = [], 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        out.append(str(ns[i]) if i == j else f"{ns[i]}–{ns[j]}" if j > i + 1 else f"{ns[i]},{ns[j]}")
        i = j + 1
    return ",".join(out)


class Placer:
    """Labels placed greedily: each at the first of a few offsets around its anchor that overlaps nothing
    placed so far (else at the first), with a leader line when it had to move away."""

    OFFSETS = ((1, -1), (1, 1), (-1, -1), (-1, 1), (1.6, 0), (-1.6, 0), (0, -1.6), (0, 1.6),
               (2.4, -2.4), (-2.4, 2.4), (2.4, 2.4), (-2.4, -2.4))

    def __init__(self, box: tuple[float, float, float, float]) -> None:
        self.box = box
        self.taken: list[tuple[float, float, float, float]] = []

    def block(self, x0, y0, x1, y1) -> None:
        self.taken.append((x0, y0, x1, y1))

    def _free(self, r) -> bool:
        bx, by, bw, bh = self.box
        if r[0] < bx or r[1] < by or r[2] > bx + bw or r[3] > by + bh:
            return False
        return not any(r[0] < t[2] and t[0] < r[2] and r[1] < t[3] and t[1] < r[3] for t in self.taken)

    def place(self, page: Page, ax: float, ay: float, s: str, size: float, gray: float = 0.0,
              boxed: bool = False, gap: float = 2.2) -> tuple[float, float]:
        w, h = text_width(s, size) + (1.0 if boxed else 0.2), size * 1.15
        choice = None
        for ox, oy in self.OFFSETS:
            cx, cy = ax + ox * (gap + w / 2), ay + oy * (gap + h / 2)
            r = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if self._free(r):
                choice = r
                break
        if choice is None:
            cx, cy = ax + gap + w / 2, ay - gap - h / 2
            choice = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        self.taken.append(choice)
        cx, cy = (choice[0] + choice[2]) / 2, (choice[1] + choice[3]) / 2
        if math.hypot(cx - ax, cy - ay) > gap + w / 2 + 1.5:
            page.line(ax, ay, cx, cy, Pen(gray, 0.1))
        if boxed:
            page.rect(choice[0], choice[1], choice[2] - choice[0], choice[3] - choice[1], Pen(gray, 0.15, fill=1.0))
        page.text(cx, cy + size * 0.36, s, size, "c", gray)
        return cx, cy


def person(page: Page, x: float, y: float, heading: float, r: float, gray: float, filled: bool) -> None:
    """A person seen from above: a disc (filled: the one the sheet is for) and a tick to where he faces."""
    page.circle(x, y, r, Pen(gray, 0.2, fill=gray if filled else 1.0))
    h = math.radians(heading)
    page.line(x + math.sin(h) * r, y - math.cos(h) * r, x + math.sin(h) * r * 2.1, y - math.cos(h) * r * 2.1,
              Pen(gray, 0.3))


def numbered_run(page: Page, x: float, y: float, width: float, runs: list[tuple[int | None, str]],
                 size: float, family: str, max_y: float) -> float:
    """Text with numbers set before its phrases — ``[(1, '司馬命獲者執旌以負侯'), (None, '…'), …]`` —
    flowed into lines of ``width`` from (x, y); a number is small and boxed, so it reads as a mark, not as
    text.  Each stretch of a line is one text run (so the PDF's text reads back as the phrase).  Returns
    the y below; stops (with …) at ``max_y``."""
    lh = size * 1.55
    cx, cy = x, y + lh
    num = size * 0.55
    buf, bx = "", cx

    def flush() -> None:
        nonlocal buf
        if buf:
            page.text(bx, cy - size * 0.2, buf, size, family=family)
        buf = ""

    for n, s in runs:
        if n is not None:
            flush()
            label = str(n)
            w = text_width(label, num) + 0.8
            if cx + w > x + width:
                cx, cy = x, cy + lh
            page.rect(cx, cy - size * 0.95, w, num * 1.25, Pen(0.0, 0.12, fill=1.0))
            page.text(cx + w / 2, cy - size * 0.95 + num * 1.0, label, num, "c")
            cx += w + 0.3
            bx = cx
        for ch in s:
            cw = text_width(ch, size, family)
            if cx + cw > x + width:
                flush()
                cx, cy = x, cy + lh
                bx = cx
                if cy > max_y:
                    page.text(cx, cy - lh, "…", size, family=family)
                    return cy
            buf += ch
            cx += cw
    flush()
    return cy + size * 0.5
