#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -e '.[test]'
python -m pytest "$@"
