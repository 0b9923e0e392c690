"""The package as a user installs it: a wheel built from a clean clone, installed in a fresh virtual environment
outside the checkout, runs the command line and renders a still from the data it carries (issue 24).

The venv sees the machine's site-packages (``--system-site-packages``) so the dependencies need no download,
but the project itself comes from the wheel: the test asserts the imported module lives inside the venv.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
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
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "--wheel-dir", str(tmp / "dist"), str(clone)], cwd=tmp)
    (whl,) = sorted((tmp / "dist").glob("xiangsheli_scene-*.whl"))
    return whl


def test_the_wheel_carries_every_file_of_assets_and_seeds(wheel):
    """Each file git tracks under assets/ and seeds/ is in the wheel as scene/assets/… and scene/seeds/…."""
    tracked = subprocess.run(["git", "ls-files", "assets", "seeds"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    assert len(tracked) > 30
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f for f in tracked if f"scene/{f}" not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if n.startswith(("tests/", "assets/", "seeds/", "bench/"))]


@pytest.mark.gl
def test_the_installed_wheel_runs_stages_and_a_still(wheel, tmp_path):
    """``pip install`` the wheel into a new venv; from a folder outside the checkout, ``python -m scene stages``
    lists the 51 sections and ``python -m scene still`` writes a PNG."""
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd=tmp_path)
    py = venv / "bin" / "python"
    _run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], cwd=tmp_path)
    env = _clean_env(tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()

    where = _run([str(py), "-c", "import scene, scene.paths as p; print(scene.__file__); print(p.ASSETS)"],
                 cwd=work, env=env).stdout.split("\n")
    module, assets = Path(where[0]).resolve(), Path(where[1]).resolve()
    assert module.is_relative_to(venv.resolve()), f"scene imported from {module}, not from the wheel"
    assert assets.is_relative_to(venv.resolve()) and (assets / "cast.toml").is_file()

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
