"""The fast loop measures nothing (issue 44): every test marked ``timing`` is also ``slow``, so the README's
``-m "not slow"`` never times this machine while it is busy; tests/run.sh runs them alone, after the others."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_fast_loop_collects_no_timing_test():
    timing_files = sorted(str(f.relative_to(ROOT)) for f in (ROOT / "tests").glob("test_*.py")
                          if "mark.timing" in f.read_text(encoding="utf-8"))
    assert timing_files                                          # else this test checks nothing
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "-m", "timing and not slow", *timing_files],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "no tests collected" in r.stdout or "deselected" in r.stdout and "::" not in r.stdout, r.stdout[-3000:]
    timed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                            "-m", "timing", *timing_files], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "::" in timed.stdout, timed.stdout[-3000:]            # and the timing tests are still there
