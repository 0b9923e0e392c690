#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
# the versions the suite last passed with (constraints.txt); the ranges a user gets are pyproject.toml's
python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
# the page's linter (ESLint, pinned in package-lock.json) from the npm registry; Debian's nodejs and npm if missing
if ! command -v npm >/dev/null 2>&1; then
    echo "tests/run.sh: installing the Debian packages nodejs and npm for the page's linter" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null || true
fi
if command -v npm >/dev/null 2>&1 && [ ! -x node_modules/.bin/eslint ]; then
    npm ci --silent --no-audit --no-fund >/dev/null
fi
# the browser tests drive Debian's Chromium (never `playwright install`, which downloads from outside)
if [ ! -x /usr/bin/chromium ]; then
    echo "tests/run.sh: installing the Debian package chromium for the browser tests" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
# the printed matter's pixel test reads its PDFs back with poppler's pdftoppm
if ! command -v pdftoppm >/dev/null 2>&1; then
    echo "tests/run.sh: installing the Debian package poppler-utils for the print tests" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null || true
fi
# The whole suite runs on two processes (pytest-xdist, a test file per worker, so that a file's module fixtures —
# its app server, its Chromium, its static site — are made once), then the tests that time this machine (marker
# `timing`: the adaptive frame ladder, a report's 2 s) alone: beside another worker they measure the load.
# XIANGSHELI_TEST_WORKERS=N sets the processes (0: all in this one).  With arguments (a file, -k, -m …) the
# tests asked for run in one process, as pytest would run them.
workers="${XIANGSHELI_TEST_WORKERS:-2}"
# Bytecode is kept (__pycache__/, ignored by git) even where the shell asks Python not to write it: every
# Python process the suite starts (xdist workers, `python -m scene …`, the app's workers) would compile the
# package again (0.5 s a process, measured here), and each of the 3 collections rewrite every test module (4.5 s).
unset PYTHONDONTWRITEBYTECODE
if [ "$#" -gt 0 ] || [ "$workers" = "0" ]; then
    python -m pytest "$@"
else
    rc=0
    python -m pytest -n "$workers" --dist loadfile -m "not timing" || rc=$?
    # (only the files that mark a test `timing` are collected again: a marker is written in its test file)
    python -m pytest -m timing $(grep -l 'mark\.timing' tests/test_*.py) || rc=$((rc == 0 ? $? : rc))
    exit "$rc"
fi
