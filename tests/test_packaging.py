"""What a library owes its users besides the code (issue 44): a license, its metadata, a version to print,
the optional imports in extras, the cache where the platform keeps caches."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_says_what_covers_the_code_the_texts_the_fonts_and_three_js():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    for needle in ("public domain", "SIL Open Font License", "three.js", "three.LICENSE"):
        assert needle in text, needle
    assert (ROOT / "assets" / "web" / "vendor" / "three.LICENSE").is_file()
    project = PYPROJECT["project"]
    assert project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]


def _optional_imports() -> set[str]:
    """The top-level modules scene/ imports inside ``try: … except ImportError``."""
    found = set()
    for f in (ROOT / "scene").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Try) and any(
                    isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                    for h in node.handlers):
                for sub in node.body:
                    for n in ast.walk(sub):
                        if isinstance(n, ast.Import):
                            found.update(a.name.split(".")[0] for a in n.names)
                        elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                            found.add(n.module.split(".")[0])
    return found


#: an optional import → the distribution that provides it
DISTRIBUTIONS = {"IPython": "ipython", "trame_vtk": "trame-vtk", "brotli": "brotli", "pyvista": "pyvista",
                 "imageio": "imageio", "imageio_ffmpeg": "imageio-ffmpeg"}


def test_every_optional_import_is_in_an_extra():
    """Each module scene/ imports only if it is there is named by an extra (pip install 'xiangsheli-scene[…]'),
    except the required dependencies and the package itself."""
    required = {d.split(">")[0].split("<")[0].split("=")[0].strip().lower() for d in PYPROJECT["project"]["dependencies"]}
    extras = " ".join(" ".join(v) for v in PYPROJECT["project"]["optional-dependencies"].values()).lower()
    own = {"scene", "pylopdf_fonts_zh_tw", "pylopdf_fonts_zh_cn"}          # required (the fonts), or our own
    optional = _optional_imports() - own
    assert {"IPython", "trame_vtk", "brotli"} <= optional                  # else this test reads nothing
    for module in sorted(optional):
        dist = DISTRIBUTIONS.get(module, module).lower()
        if dist in required or module.lower() in required or module in sys.stdlib_module_names:
            continue
        assert dist in extras, f"{module} is imported when present but no extra installs {dist}"


def test_version_prints_the_installed_distributions():
    from importlib.metadata import version
    r = subprocess.run([sys.executable, "-m", "scene", "--version"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == f"xiangsheli-scene {version('xiangsheli-scene')}"


def test_the_cache_is_the_platforms_user_cache_unless_told(monkeypatch, tmp_path):
    from platformdirs import user_cache_dir

    from scene import settings
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "mine"))
    assert settings.cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("XIANGSHELI_CACHE")
    assert settings.cache_dir() == Path(user_cache_dir("xiangsheli-scene", appauthor=False))
    if sys.platform.startswith("linux"):                       # where it was before: XDG's, else ~/.cache
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert settings.cache_dir() == tmp_path / "xdg" / "xiangsheli-scene"
        monkeypatch.delenv("XDG_CACHE_HOME")
        assert settings.cache_dir() == Path(os.path.expanduser("~/.cache/xiangsheli-scene"))


def test_every_way_to_start_the_app_takes_the_apps_flags():
    """``python -m scene app`` and ``python -m scene.web.app`` (which used to exit 0 without a word) reach the
    app's own checks, as ``python app.py`` and the console script ``xiangsheli`` (scene.launch) do: a port out of
    range is the app's one line, exit 2; ``--help`` lists the app's flags."""
    env = {**os.environ, "XIANGSHELI_SKIP_GLPROBE": "1"}
    for argv in (["-m", "scene", "app"], ["-m", "scene.web.app"], ["app.py"]):
        r = subprocess.run([sys.executable, *argv, "--port", "99999"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300, env=env)
        assert r.returncode == 2 and "--port 99999: outside 0–65535" in r.stderr, (argv, r.stdout, r.stderr)
    r = subprocess.run([sys.executable, "-m", "scene", "app", "--help"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0 and "--presenter-key" in r.stdout and "--reading" in r.stdout, r.stdout + r.stderr
