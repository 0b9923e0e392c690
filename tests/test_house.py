"""The house: each layer package imports only from the layers before it, the pure layers never import a
renderer, the flat names of the first version still resolve to the same modules, every standard form
of the data has its module (and every module its verb), and no module or class outgrows one idea."""
import ast
import importlib
from pathlib import Path

import scene
from scene._aliases import ALIASES

PKG = Path(scene.__file__).resolve().parent
ORDER = ["text", "geometry", "rite", "render", "web", "print", "cli"]
PURE = {"text", "geometry", "rite"}
GL = ("pyvista", "vtk", "vtkmodules", "trame", "wslink")


def _layer_of(module_path: Path) -> str | None:
    rel = module_path.relative_to(PKG).parts
    return rel[0] if len(rel) > 1 and rel[0] in ORDER else None


def _imports(path: Path) -> list[tuple[str, int]]:
    """(absolute module name, line) of every import in a module of scene."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg_parts = ["scene", *path.relative_to(PKG).parts[:-1]]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg_parts[:len(pkg_parts) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
                if not node.module:      # from .. import x: x may be a module
                    out += [(f"{name}.{a.name}", node.lineno) for a in node.names]
                    continue
            else:
                name = node.module or ""
            out.append((name, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
    return out


def test_layers_import_only_earlier_layers():
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        layer = _layer_of(path)
        if layer is None:
            continue
        for name, line in _imports(path):
            parts = name.split(".")
            if parts[0] == "scene" and len(parts) > 1:
                if parts[1] in ALIASES:
                    bad.append(f"{path.relative_to(PKG)}:{line} uses the old flat name {name}")
                elif parts[1] in ORDER and ORDER.index(parts[1]) > ORDER.index(layer):
                    bad.append(f"{path.relative_to(PKG)}:{line} ({layer}) imports the later layer {name}")
            if layer in PURE and parts[0] in GL:
                bad.append(f"{path.relative_to(PKG)}:{line} ({layer} is pure) imports {name}")
    assert not bad, "\n".join(bad)


#: modules beside the layers, below all of them (every layer may import them): they import no layer
BOTTOM = ("paths.py", "chapter.py")


def test_the_bottom_imports_no_layer():
    bad = [f"{name}:{line} imports {mod}" for name in BOTTOM for mod, line in _imports(PKG / name)
           if mod.split(".")[0] in GL or (mod.startswith("scene.") and mod.split(".")[1] in ORDER)]
    assert not bad, "\n".join(bad)
    # the text layer reaches the chapter's manifest through the bottom, not through a later layer
    assert "scene.chapter" in {m for m, _ in _imports(PKG / "text" / "jing.py")}


def test_every_layer_says_what_it_may_import():
    for layer in ORDER:
        doc = importlib.import_module(f"scene.{layer}").__doc__ or ""
        assert len(doc) > 80, layer
    for layer in ORDER[1:6]:
        assert "May import" in importlib.import_module(f"scene.{layer}").__doc__, layer


def test_flat_names_are_the_same_modules_and_warn_with_the_new_import():
    import sys
    import warnings
    for old, new in ALIASES.items():
        sys.modules.pop(f"scene.{old}", None)          # imported before (another test): the finder runs again
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            exec(compile(f"import scene.{old}", "a_users_script.py", "exec"), {})   # as a script imports it
        a = sys.modules[f"scene.{old}"]
        b = importlib.import_module(new)
        assert a is b, old
        assert b.__spec__.name == new          # the alias does not take over the module's own spec
        msgs = [str(w.message) for w in seen if issubclass(w.category, DeprecationWarning)]
        assert any(f"scene.{old} is deprecated" in m and f"import {new}" in m and "0.3" in m for m in msgs), (old, msgs)
        # the warning points at the importer's line, not at the import machinery
        assert [w.filename for w in seen if "deprecated" in str(w.message)] == ["a_users_script.py"], old
    from scene.geometry.layout import build_layout  # the names the README and the rite authors' guide show
    from scene.rite.choreography import load  # noqa: F401
    from scene.rite.timeline import Rite, build_rite  # noqa: F401
    assert build_layout("zheng")["hall.tang"].status


def test_forms_and_verbs_agree():
    from scene.rite import choreography as chor
    from scene.rite.forms import FORMS
    # the verbs that the data may use and that no plain step could act: exactly the form modules
    macro_verbs = {v for v, verb in chor.VERBS.items() if verb.moves and v not in
                   ("walk", "ascend", "descend", "enter", "exit")} | {"shoot", "count"}
    assert set(FORMS) <= set(chor.VERBS)
    assert macro_verbs <= set(FORMS), macro_verbs - set(FORMS)
    for verb, run in FORMS.items():
        assert run.__module__ == f"scene.rite.forms.{verb}"


def test_no_module_is_oversized():
    long = {str(p.relative_to(PKG)): n for p in PKG.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 560}
    assert not long, long


CLASS_MAX = 400      # the house: a class of one idea; a bigger one is split into parts owning their state (no mixins)


def _class_lengths(path: Path) -> dict[str, int]:
    """Lines of each class of a module (from its first decorator to its last line), by qualified name."""
    out = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out[f"{path.relative_to(PKG)}:{node.name}"] = node.end_lineno - first + 1
    return out


def test_no_class_is_oversized():
    lengths = {k: n for p in PKG.rglob("*.py") for k, n in _class_lengths(p).items()}
    assert "rite/director.py:Director" in lengths            # the walk does see the classes
    long = {k: n for k, n in lengths.items() if n > CLASS_MAX}
    assert not long, long


WEB = PKG.parent / "assets" / "web"


def test_no_web_module_is_oversized():
    """The player's JS modules too: one idea a file, ≤ 560 lines (issue 24 split the 1 670-line player.js)."""
    long = {p.name: n for p in WEB.glob("*.js") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 560}
    assert not long, long


def test_site_carries_every_module_it_imports():
    """The static site copies SITE_FILES only: a module one of them imports that is not listed would be a 404
    there (and a dead player), though the app — which serves the whole folder — would still work."""
    import re

    from scene.web.pack.site import SITE_FILES
    imp = re.compile(r"""^\s*(?:import|export)\b[^'"]*?from\s+['"]\./([^'"]+)['"]|^\s*import\s+['"]\./([^'"]+)['"]""",
                     re.M)
    missing = {}
    for name in SITE_FILES:
        if not name.endswith(".js"):
            continue
        for m in imp.finditer((WEB / name).read_text(encoding="utf-8")):
            dep = m.group(1) or m.group(2)
            if not dep.startswith("vendor/") and dep not in SITE_FILES:
                missing.setdefault(name, []).append(dep)
    assert not missing, missing
    assert "player-page.js" in (WEB / "player.html").read_text(encoding="utf-8")


#: the Player's parts (player.js copies their methods onto Player.prototype) — the files whose `this` is the player
PLAYER_PARTS = ("player.js", "player-build.js", "player-pose.js", "player-labels.js", "player-camera.js",
                "player-playback.js", "player-picking.js", "player-pace.js")
_WRITE = r"(?:=(?![=>])|\+=|-=|\+\+|--)"


def player_field_writers() -> dict[str, set[str]]:
    """Each field of the player and the files that assign it: its parts (``this.x =``) and every other module of
    the page through a player reference (``p.x =``, ``player.x =``, ``P.x =``, ``this.player.x =``)."""
    import re
    out: dict[str, set[str]] = {}
    for f in sorted(WEB.glob("*.js")):
        text = f.read_text(encoding="utf-8")
        pat = rf"\bthis\.(\w+)\s*{_WRITE}" if f.name in PLAYER_PARTS else \
            rf"\b(?:p|P|player|this\.player)\.(\w+)\s*{_WRITE}"
        for m in re.finditer(pat, text):
            out.setdefault(m.group(1), set()).add(f.name)
    return out


def test_each_field_of_the_player_has_one_writer():
    """Issue 42, item 5: a field of the player is set by one of its parts only (its state: the part's `_init…`
    and its methods); the others and the extensions ask through that part's methods (requestRedraw,
    invalidatePose, takeCamera …) and hear of changes through its signals."""
    many = {k: sorted(v) for k, v in player_field_writers().items() if len(v) > 1}
    assert not many, many
