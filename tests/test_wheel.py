"""The package as a user installs it: a wheel built from a clean clone, installed with ``pip install`` in a fresh
virtual environment outside the checkout — its dependencies resolved by pip from the package index, unpinned
(pyproject.toml's ranges, no constraints file; pip's cache of downloaded wheels may serve them) — runs the
command line, renders a still from the data it carries (issue 24), and its console script ``xiangsheli``
starts the app, whose first start copies what ships prebuilt instead of building it, and whose page plays in
Chromium (issue 44).

The venv has no system site-packages and nothing of the interpreter running the tests: what it imports is what
pip put in it (the test asserts numpy, vtk and trame load from inside it).  Without a package index the
tests that need the venv are skipped, saying so.  Slow: 119 s here for the module, 61 s of it the install
(its downloads in pip's cache; bench/RESULTS.md).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent


def _run(argv, cwd, timeout=600, env=None):
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert r.returncode == 0, f"{argv}: exit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    return r


def _clean_env(tmp_path: Path) -> dict[str, str]:
    """The environment a user has: no PYTHONPATH into any checkout, a cache of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["XIANGSHELI_CACHE"] = str(tmp_path / "cache")
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a clean ``git clone`` of this repository (what is committed, nothing else)."""
    if not shutil.which("git") or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    tmp = tmp_path_factory.mktemp("wheel")
    clone = tmp / "clone"
    _run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(clone)], cwd=tmp)
    # no build isolation: setuptools and wheel come from the machine (the [test] extra), not a download
    built = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                  "--wheel-dir", str(tmp / "dist"), str(clone)], cwd=tmp)
    (whl,) = sorted((tmp / "dist").glob("xiangsheli_scene-*.whl"))
    # every folder of assets/ is a listed package (pyproject.toml): setuptools warned six times that data
    # folders absent from `packages` will be ignored by a future release (issue 44)
    log = built.stdout + built.stderr
    assert "running bdist_wheel" in log                         # the build's own output is in what is read
    assert "as data is deprecated" not in log and "absent from the `packages`" not in log, \
        [ln for ln in log.splitlines() if "deprecated" in ln]
    return whl


def test_the_wheel_carries_every_file_of_assets_and_seeds(wheel):
    """Each file git tracks under assets/ and seeds/ is in the wheel as scene/assets/… and scene/seeds/…."""
    tracked = subprocess.run(["git", "ls-files", "assets", "seeds"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    assert len(tracked) > 30
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f for f in tracked if f"scene/{f}" not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if n.startswith(("tests/", "assets/", "seeds/", "bench/", "docs/"))]
    meta = next(zipfile.ZipFile(wheel).read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "License: MIT" in meta and "Provides-Extra: docs" in meta
    # (setuptools ≥ 77 puts it under .dist-info/licenses/, PEP 639; older ones beside METADATA)
    assert any(n.endswith((".dist-info/LICENSE", ".dist-info/licenses/LICENSE")) for n in names)
    ep = next(zipfile.ZipFile(wheel).read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "xiangsheli = scene.launch:main" in ep


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv where ``pip install WHEEL`` resolved every dependency from the package index (unpinned)."""
    root = tmp_path_factory.mktemp("venv")
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=root)
    py = venv / "bin" / "python"
    env = _clean_env(root)
    t0 = time.monotonic()
    r = subprocess.run([str(py), "-m", "pip", "install", "--disable-pip-version-check", str(wheel)], cwd=root,
                       capture_output=True, text=True, timeout=1800, env=env)
    if r.returncode != 0 and re.search(r"No matching distribution|Could not find a version|"
                                       r"(Connection|Network|Temporary failure|Max retries)", r.stdout + r.stderr):
        pytest.skip(f"no package index to resolve the dependencies from: {(r.stdout + r.stderr).strip()[-300:]}")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    print(f"pip install of the wheel with its dependencies: {time.monotonic() - t0:.0f} s")
    return venv


def _venv_versions(venv: Path, tmp_path: Path) -> dict[str, str]:
    out = _run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
               cwd=tmp_path, env=_clean_env(tmp_path)).stdout
    import json
    return {d["name"].lower(): d["version"] for d in json.loads(out)}


def test_the_venv_holds_its_own_dependencies_resolved_by_pip(venv, tmp_path):
    """No system site-packages, no folder of the test's interpreter: numpy, vtk and trame import from the venv,
    and every dependency is a version pip chose (printed beside the ones the suite is pinned to)."""
    cfg = (venv / "pyvenv.cfg").read_text()
    assert re.search(r"include-system-site-packages\s*=\s*false", cfg)
    code = ("import numpy, vtk, trame, opencc_purepy, fontTools, msgspec, fpdf, rich, platformdirs\n"
            "for m in (numpy, vtk, trame, fontTools): print(m.__file__)")
    where = _run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, env=_clean_env(tmp_path)).stdout.split()
    assert all(Path(w).resolve().is_relative_to(venv.resolve()) for w in where), where
    got = _venv_versions(venv, tmp_path)
    pinned = dict(ln.split("==") for ln in (REPO / "constraints.txt").read_text().split("\n")
                  if "==" in ln and not ln.startswith("#"))
    differ = {k: (got[k.lower()], v) for k, v in pinned.items() if k.lower() in got and got[k.lower()] != v}
    print(f"resolved fresh, not as constraints.txt pins them (fresh, pinned): {differ}")
    assert got.get("xiangsheli-scene") == "0.1.0"


@pytest.mark.gl
def test_the_installed_wheel_runs_stages_and_a_still(venv, tmp_path):
    """From a folder outside the checkout, ``python -m scene stages`` lists the 51 sections and
    ``python -m scene still`` writes a PNG; ``--version`` prints the wheel's."""
    py = venv / "bin" / "python"
    env = _clean_env(tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()

    where = _run([str(py), "-c", "import scene, scene.paths as p; print(scene.__file__); print(p.ASSETS)"],
                 cwd=work, env=env).stdout.split("\n")
    module, assets = Path(where[0]).resolve(), Path(where[1]).resolve()
    assert module.is_relative_to(venv.resolve()), f"scene imported from {module}, not from the wheel"
    assert assets.is_relative_to(venv.resolve()) and (assets / "cast.toml").is_file()

    assert _run([str(py), "-m", "scene", "--version"], cwd=work, env=env).stdout.strip() == "xiangsheli-scene 0.1.0"

    stages = _run([str(py), "-m", "scene", "stages"], cwd=work, env=env).stdout
    rows = [ln for ln in stages.splitlines() if ln[:1].isdigit()]
    assert len(rows) == 51 and "戒賓" in rows[0]

    png = tmp_path / "still.png"
    _run([str(py), "-m", "scene", "still", "--stage", "21", "--size", "320x180", "--out", str(png)],
         cwd=work, env=env)
    import numpy as np
    from PIL import Image
    im = Image.open(png)
    assert im.size == (320, 180)
    colours = np.unique(np.asarray(im.convert("RGB")).reshape(-1, 3), axis=0)
    assert len(colours) > 50                                    # a scene, not a blank frame


FORBID_BUILDING = """
import sys
import scene.rite.timeline as timeline, scene.web.pack as webpack, scene.render.shots as shots
def forbidden(*a, **k):
    raise SystemExit("built instead of copied: " + repr(a)[:80])
build_rite = timeline.build_rite
timeline.build_rite = webpack.build_pack = webpack.write_font = shots.build_track = forbidden
from scene.web.pack import store, shipped
d = store.pack_dir("zheng")
font_dir, fonts = store.font_dir()
assert (d / "scene.bin").read_bytes() == (shipped.PREBUILT / "pack-zheng" / "scene.bin").read_bytes()
assert fonts[0].read_bytes() == (shipped.PREBUILT / "webfont" / "cjk.otf").read_bytes()
# a first still of view auto: the rite is compiled (nothing ships it), the director's track is the shipped one
timeline.build_rite = build_rite
from scene.rite.cache import load_rite
tr = shots.track(load_rite("zheng"))
import numpy as np
with np.load(shipped.PREBUILT / "director-zheng" / "track.npz") as z:
    assert np.array_equal(tr.t, z["t"]) and np.array_equal(tr.v, z["v"])
import fontTools
print(np.__version__, fontTools.version)
"""


def test_a_first_start_from_the_wheel_copies_what_ships(venv, tmp_path):
    """The products in the wheel are keyed by what they are made from, never by the checkout's layout nor a
    version string: with the dependencies as pip resolved them (fontTools 4.69.1 and the products built with
    4.68.0 when issue 44 was filed), the wheel's ``shipped --check`` passes and an empty cache gets the shipped
    pack, font and director's track — building any of them fails this test."""
    py = venv / "bin" / "python"
    env = _clean_env(tmp_path)
    check = subprocess.run([str(py), "-m", "scene.web.pack.shipped", "--check"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=600, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    got = _run([str(py), "-c", FORBID_BUILDING], cwd=tmp_path, env=env).stdout.split()
    import json

    from scene.web.pack import shipped
    built_with = json.loads((shipped.PREBUILT / shipped.KEY_FILE).read_text())["built_with"]
    print(f"built with numpy {built_with['numpy']}, fontTools {built_with['fonttools']}; "
          f"the venv's: numpy {got[-2]}, fontTools {got[-1]}")


@pytest.mark.browser
def test_the_console_script_starts_the_app_ready_at_once_and_its_page_plays(venv, tmp_path):
    """``xiangsheli --port N`` (no app.py in a wheel) serves the page; an empty cache is filled from what ships,
    so the first start says the scene is ready, not that it is building it; in Chromium the page draws and
    plays (its time runs on after Space).  A bad flag is one line naming ``xiangsheli``, not ``app.py``."""
    import urllib.request

    import webtools
    xsl = str(venv / "bin" / "xiangsheli")
    env = {**_clean_env(tmp_path), "XIANGSHELI_SKIP_GLPROBE": "1"}
    bad = subprocess.run([xsl, "--port", "abc"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("xiangsheli: error: ") and "--port" in bad.stderr, bad.stderr

    port = webtools.free_port()
    t0 = time.monotonic()
    proc = subprocess.Popen([xsl, "--port", str(port)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "open http://" in line:
                break
        out = "".join(lines)
        assert "scene ready" in out and "building" not in out, out
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as resp:
                    assert resp.status == 200 and b"<html" in resp.read().lower()
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError(f"nothing served on port {port}")
        print(f"xiangsheli served its page {time.monotonic() - t0:.1f} s after it was started (an empty cache)")
        if webtools.chromium_missing_reason() is not None:
            pytest.skip(f"the page is served; no browser to play it: {webtools.chromium_missing_reason()}")
        with webtools.chromium() as browser:
            webtools.plays(browser, f"http://127.0.0.1:{port}/")
    finally:
        proc.terminate()
        proc.wait(30)
