"""The package as a user installs it: a wheel built from a clean clone, installed in a fresh virtual environment
outside the checkout, runs the command line, renders a still from the data it carries (issue 24), starts the app
and copies what ships prebuilt instead of building it (issue 44).

The dependencies need no download: the new venv is made *without* the base interpreter's packages and is given,
by a ``.pth`` file, the folders the interpreter running the tests imports them from — its own site-packages
when the tests run inside a venv (the base interpreter's would lack them: issue 44), the system's otherwise.
Only folders are listed, so their ``.pth`` files (an editable install of this project) are not run: the
project itself comes from the wheel, and the test asserts the imported module lives inside the venv.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
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


def _dep_folders() -> list[str]:
    """Where this interpreter imports the dependencies from (a venv's site-packages inside one)."""
    paths = sysconfig.get_paths()
    found = [paths["purelib"], paths["platlib"]] + [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    return list(dict.fromkeys(str(Path(p).resolve()) for p in found if Path(p).is_dir()))


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel; the dependencies through a .pth (see the module's docstring)."""
    root = tmp_path_factory.mktemp("venv")
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=root)
    py = venv / "bin" / "python"
    site_dir = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=root).stdout.strip()
    (Path(site_dir) / "_host_deps.pth").write_text("\n".join(_dep_folders()) + "\n")
    # --force-reinstall: an editable install of the project in the folders above must not count as this one
    _run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--force-reinstall",
          str(wheel)], cwd=root)
    return venv


def test_the_venv_sees_its_own_folders_not_the_base_interpreters(venv, tmp_path):
    """The venv has no system site-packages (a venv of a venv would see the base interpreter's, not its parent's:
    the failure of issue 44), and every dependency imports."""
    cfg = (venv / "pyvenv.cfg").read_text()
    assert re.search(r"include-system-site-packages\s*=\s*false", cfg)
    _run([str(venv / "bin" / "python"), "-c", "import numpy, vtk, trame, opencc_purepy, fontTools, msgspec, fpdf"],
         cwd=tmp_path, env=_clean_env(tmp_path))


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
import scene.rite.timeline as timeline, scene.web.pack as webpack
def forbidden(*a, **k):
    raise SystemExit("built instead of copied: " + repr(a)[:80])
timeline.build_rite = webpack.build_pack = webpack.write_font = forbidden
from scene.web.pack import store, shipped
d = store.pack_dir("zheng")
font_dir, fonts = store.font_dir()
assert (d / "scene.bin").read_bytes() == (shipped.PREBUILT / "pack-zheng" / "scene.bin").read_bytes()
assert fonts[0].read_bytes() == (shipped.PREBUILT / "webfont" / "cjk.otf").read_bytes()
import fontTools
print(fontTools.version)
"""


def test_a_first_start_from_the_wheel_copies_what_ships_with_the_newest_fonttools(venv, tmp_path):
    """The products in the wheel are keyed by what they are made from, never by the checkout's layout nor a
    version string: with fontTools as a fresh, unpinned install resolves it (the index's newest, 4.69.1 when
    issue 44 was filed, where the products were built with 4.68.0), the wheel's ``shipped --check`` passes and
    an empty cache gets the shipped pack and font copied — building either fails this test."""
    py = venv / "bin" / "python"
    env = _clean_env(tmp_path)
    # --ignore-installed: into the venv, beside (never over) the machine's copy; the index's newest, unpinned
    r = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "--ignore-installed", "--upgrade", "fonttools"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=600, env=env)
    if r.returncode != 0:
        pytest.skip(f"no package index to resolve fontTools from: {r.stderr.strip()[-200:]}")
    check = subprocess.run([str(py), "-m", "scene.web.pack.shipped", "--check"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=600, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    got = _run([str(py), "-c", FORBID_BUILDING], cwd=tmp_path, env=env).stdout.split()
    import json

    from scene.web.pack import shipped
    built_with = json.loads((shipped.PREBUILT / shipped.KEY_FILE).read_text())["built_with"]["fonttools"]
    print(f"built with fontTools {built_with}; the venv's: {got[-1]}")
    assert got[-1] != built_with or got[-1] == _run([str(py), "-m", "pip", "index", "versions", "fonttools"],
                                                     cwd=tmp_path, env=env).stdout.split()[1].strip("()")


def test_the_console_script_starts_the_app_and_it_is_ready_at_once(venv, tmp_path):
    """``xiangsheli --port N`` (no app.py in a wheel) serves the page; an empty cache is filled from what ships,
    so the first start says the scene is ready, not that it is building it."""
    import socket
    import urllib.request
    env = {**_clean_env(tmp_path), "XIANGSHELI_SKIP_GLPROBE": "1"}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([str(venv / "bin" / "xiangsheli"), "--port", str(port)], cwd=tmp_path, env=env,
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
    finally:
        proc.terminate()
        proc.wait(30)
