"""The versions the program is installed with (issue 45, item 5): ``constraints.txt`` pinned setuptools 65.5.0, with
known CVEs (CVE-2024-6345: fixed in 70.0; CVE-2025-47273: fixed in 78.1.1); and the libraries whose internals the
guard patches (aiohttp, wslink, trame-server) must stay at the minor version the guard was written and tested
for — a new minor may rename what it replaces (the app also checks at start, and refuses to run)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
#: the first setuptools without a known CVE
SAFE_SETUPTOOLS = Version("78.1.1")


def pinned() -> dict[str, Version]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^\s;#]+)", line.strip())
        if m:
            out[m.group(1).lower().replace("_", "-")] = Version(m.group(2))
    return out


def test_setuptools_is_current_wherever_it_is_named():
    assert pinned()["setuptools"] >= SAFE_SETUPTOOLS, pinned()["setuptools"]
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    spec = next(Requirement(r).specifier for r in build if Requirement(r).name == "setuptools")
    assert not spec.contains(Version("78.1.0")) and spec.contains(pinned()["setuptools"]), spec


def test_the_patched_libraries_are_bounded_to_their_tested_minor():
    deps = {Requirement(r).name: Requirement(r).specifier
            for r in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]}
    for name in ("aiohttp", "wslink", "trame-server"):
        v = pinned()[name]
        assert deps[name].contains(v), (name, deps[name], v)
        nxt = Version(f"{v.major}.{v.minor + 1}.0")
        assert not deps[name].contains(nxt), f"{name} {deps[name]} admits {nxt}, a minor the guard was not tested with"
