"""The machine's reference figure, printed beside every speed figure: a plain Python loop of 10 M additions.

Machines here differ by 3× and are shared, so a bench's absolute seconds say little alone; this loop, timed in
the same run, says how fast this machine (and its load) was.  The issue that set the start-time goals quotes
2.7 s on the slow machine it was measured on.

    python bench/reference.py
"""
from __future__ import annotations

import os
import time

N = 10_000_000


def loop_seconds(n: int = N) -> float:
    """Wall seconds of ``for i in range(n): s += i`` (best of two: one stray pause does not count)."""
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        s = 0
        for i in range(n):
            s += i
        best = min(best, time.perf_counter() - t)
    return best


def line() -> str:
    """One line for a bench's header: the loop's time and the load average."""
    return (f"reference: a Python loop of 10 M additions takes {loop_seconds():.2f} s here "
            f"(load {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} cores)")


if __name__ == "__main__":
    print(line())
