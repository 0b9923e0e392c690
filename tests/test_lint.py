"""The house's linters report nothing: ruff (pyproject's [tool.ruff]) on the whole tree, mypy (strict on the
typed pure layers — text, geometry, rite — pyproject's [tool.mypy]) and ESLint (eslint.config.mjs) on the
page's modules in assets/web/.
The test command installs them (the [dev] extra; npm ci from package-lock.json)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)


def _module(name: str) -> None:
    got = _run([sys.executable, "-m", name, "--version"])
    if got.returncode != 0:
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]' (tests/run.sh does)")


def test_ruff_reports_nothing():
    _module("ruff")
    got = _run([sys.executable, "-m", "ruff", "check", "."])
    assert got.returncode == 0, got.stdout[-4000:] + got.stderr[-2000:]


def test_mypy_strict_reports_nothing_on_the_typed_layers():
    _module("mypy")
    got = _run([sys.executable, "-m", "mypy"])
    assert got.returncode == 0, got.stdout[-4000:] + got.stderr[-2000:]


def test_eslint_reports_nothing_on_assets_web():
    eslint = ROOT / "node_modules" / ".bin" / "eslint"
    if not eslint.exists():
        if shutil.which("npm") is None:
            pytest.skip("node/npm missing: tests/run.sh installs them (Debian nodejs, npm)")
        pytest.fail("eslint is not installed: run `npm ci` (tests/run.sh does)")
    got = _run([str(eslint), "--max-warnings", "0", "assets/web", "tests/js"])
    assert got.returncode == 0, got.stdout[-4000:] + got.stderr[-2000:]
