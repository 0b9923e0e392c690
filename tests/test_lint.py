"""The house's linters report nothing: ESLint (eslint.config.mjs) on the page's modules in assets/web/.
The test command installs it (npm ci, from package-lock.json); without node/npm the test says why."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_eslint_reports_nothing_on_assets_web():
    eslint = ROOT / "node_modules" / ".bin" / "eslint"
    if not eslint.exists():
        if shutil.which("npm") is None:
            pytest.skip("node/npm missing: tests/run.sh installs them (Debian nodejs, npm)")
        pytest.fail("eslint is not installed: run `npm ci` (tests/run.sh does)")
    got = subprocess.run([str(eslint), "--max-warnings", "0", "assets/web"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert got.returncode == 0, got.stdout[-4000:] + got.stderr[-2000:]
