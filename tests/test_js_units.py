"""The page's pure modules under Node's own test runner (issue 44): tests/js/*.test.mjs import lesson-toml.js,
plan-fit.js, adaptive.js and keys.js as the browser does (ES modules) and need no browser, so they run in the
fast loop; the rest of the player is tested through Chromium (test_player*.py)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_pages_pure_modules_pass_their_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (tests/run.sh installs Debian's nodejs): the page's unit tests need it")
    files = sorted(str(f.relative_to(ROOT)) for f in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert len(files) >= 4
    r = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=300)
    summary = dict(re.findall(r"^# (pass|fail|cancelled) (\d+)$", r.stdout, re.M))
    assert r.returncode == 0 and summary.get("fail") == "0", r.stdout[-4000:] + r.stderr[-2000:]
    assert int(summary.get("pass", 0)) >= 15, summary                 # every file's tests ran, not none
    # a warning means a module was read in a way the browser would not (CommonJS first, then ESM)
    assert "Warning" not in r.stderr, r.stderr[-2000:]
