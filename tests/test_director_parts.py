"""Issue 43, build item 3: the director's parts own their state.  The director is a composition of parts
(scene.rite.director.PARTS: the people 人, the places 位, the things 物, the 筭, the walks 行, the record 記, the
plain steps) and the range (射, made once, then only read).  No class of them is a mixin; no part writes a
field of another, nor reads one but through a method; and no mutable object (a dict, a list, an actor's
state …) is held by two of them.  Each check is shown to catch its violation, seeded."""
from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import numpy as np
import pytest

from scene.rite import archery, director
from scene.rite.director import PARTS, Director
from scene.rite.forms.base import Acts
from scene.rite.timeline import Rite, build_rite

#: whoever calls on the parts: the parts themselves, the director's loop, the forms' hands (Acts), the range
CLASSES = (*PARTS, Director, Acts, archery.Range)
BY_NAME = {c.__name__: c for c in CLASSES}
MUTATING = {"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "setdefault", "add",
            "discard", "sort", "reverse", "__setitem__", "__delitem__"}


def sources() -> dict[str, str]:
    """module file name → source, for every module that defines one of CLASSES (and scene/rite/state.py)."""
    files = {Path(inspect.getsourcefile(c)) for c in CLASSES} | {Path(director.__file__).parent / "state.py"}
    return {f.name: f.read_text(encoding="utf-8") for f in sorted(files)}


# --------------------------------------------------------------------------- the static checks
def mixin_findings(srcs: dict[str, str]) -> list[str]:
    """Every class of these modules that inherits (a mixin over a shared ``self``, or a state base declaring
    another's fields): none may, but for ``object``."""
    out = []
    for name, src in srcs.items():
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b) for b in node.bases if ast.unparse(b) != "object"]
                if bases:
                    out.append(f"{name}: class {node.name}({', '.join(bases)})")
    return out


def _chain(node: ast.expr, aliases: dict[str, list[str]]) -> list[str] | None:
    """``self.a.b[k].c`` → ["a", "b", "c"] (subscripts and calls skipped: ``self.a.f()[k].c`` is ["a", "f",
    "c"], what a method handed back); a local alias of a link (``people = self.people``) stands for its chain;
    None when the chain is rooted at neither."""
    names: list[str] = []
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name) and (node.id == "self" or node.id in aliases):
        return [*aliases.get(node.id, []), *names[::-1]]
    return None


def _aliases(fn: ast.AST, links: dict[str, str]) -> dict[str, list[str]]:
    """The local names a function binds to a link (``people = self.people``, ``a, b = self.a, self.b``)."""
    out: dict[str, list[str]] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1:
            t, v = n.targets[0], n.value
            pairs = zip(t.elts, v.elts) if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) else [(t, v)]
            for name, value in pairs:
                ch = _chain(value, {})
                if isinstance(name, ast.Name) and ch is not None and ".".join(ch) in links:
                    out[name.id] = ch
    return out


def _link_len(chain: list[str], links: dict[str, str]) -> int:
    """How many names of ``chain`` spell a link to another part (``people``; Acts' ``_d.people``), or 0."""
    for k in (2, 1):
        if ".".join(chain[:k]) in links:
            return k
    return 0


def access_findings(srcs: dict[str, str], links: dict[str, dict[str, str]]) -> list[str]:
    """Through a link to another part (``links[class][expression]`` is the linked class's name): no write of
    any kind (assignment, augmented, deletion, an item set, a mutating call), and no read of a field — a part
    is asked through its methods, called or handed on (the range's made-once data may be read)."""
    out = []
    for name, src in srcs.items():
        for cls in (n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.ClassDef) and n.name in links):
            lk = links[cls.name]
            for fn in (n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
                out += _function_findings(name, cls.name, fn, lk)
    return out


def _function_findings(module: str, cls: str, fn: ast.AST, lk: dict[str, str]) -> list[str]:
    out = []
    al = _aliases(fn, lk)
    called = {id(n.func) for n in ast.walk(fn) if isinstance(n, ast.Call)}
    written: list[ast.expr] = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            written += [e for t in n.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            written.append(n.target)
        elif isinstance(n, ast.Delete):
            written += n.targets
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATING:
            written.append(n.func.value)
    for w in written:
        ch = _chain(w, al)
        if ch is not None and (k := _link_len(ch, lk)) and len(ch) > k:
            out.append(f"{module}:{w.lineno} {cls} writes {lk['.'.join(ch[:k])]}'s {ch[k]} ({ast.unparse(w)})")
    for n in ast.walk(fn):
        if not isinstance(n, ast.Attribute) or id(n) in called:
            continue
        ch = _chain(n, al)
        if ch is None or not (k := _link_len(ch, lk)) or len(ch) != k + 1:
            continue
        owner = lk[".".join(ch[:k])]
        if owner != "Range" and not inspect.isfunction(getattr(BY_NAME[owner], ch[k], None)):
            out.append(f"{module}:{n.lineno} {cls} reads {owner}'s field {ch[k]} ({ast.unparse(n)}), "
                       "not through a method")
    return out


# --------------------------------------------------------------------------- the run-time check
GIVENS = ("Layout", "Site", "Choreography", "Reading", "Chapter", "Place", "PlaceRef")


def _is_part(v: object) -> bool:
    return isinstance(v, (*PARTS, Director, Acts, archery.Range))


def links_of(d: Director) -> dict[str, dict[str, str]]:
    """Per class: the expressions (from its ``self``) that reach another part, and that part's class name."""
    out = {"Director": {k: type(v).__name__ for k, v in vars(d).items() if _is_part(v) and v is not d.acts}}
    out["Acts"] = {f"_d.{k}": v for k, v in out["Director"].items()}
    for v in vars(d).values():
        if isinstance(v, PARTS):
            out[type(v).__name__] = {k: type(w).__name__ for k, w in vars(v).items() if _is_part(w)}
    return out


def _mutables(v: object, seen: dict[int, object], depth: int = 0) -> None:
    """The mutable objects reachable from v (not through a part or a given: those are reached by their own)."""
    if depth > 6 or _is_part(v) or type(v).__name__ in GIVENS or callable(v):
        return
    if isinstance(v, (dict, list, set, np.ndarray)) or (hasattr(v, "__dict__") and not isinstance(v, type)
                                                         and not (dataclasses.is_dataclass(v)
                                                                  and v.__dataclass_params__.frozen)):
        if id(v) in seen:
            return
        seen[id(v)] = v
    if isinstance(v, dict):
        items = list(v.values())
    elif isinstance(v, (list, tuple, set, frozenset)):
        items = list(v)
    elif hasattr(v, "__dict__") and not isinstance(v, type):
        items = list(vars(v).values())
    else:
        return
    for x in items:
        _mutables(x, seen, depth + 1)


def holdings(d: Director) -> dict[str, dict[int, object]]:
    """Per owner (each part, the range, the director's own fields): the mutable objects it holds."""
    owners = {type(v).__name__: v for v in vars(d).values() if isinstance(v, (*PARTS, archery.Range))}
    held: dict[str, dict[int, object]] = {}
    for name, part in owners.items():
        held[name] = {}
        for v in vars(part).values():
            _mutables(v, held[name])
    held["Director"] = {}
    for v in vars(d).values():
        _mutables(v, held["Director"])
    return held


def shared_objects(d: Director) -> list[str]:
    """Mutable objects held by two owners (the parts, the range, the director's own fields)."""
    held = holdings(d)
    out = []
    names = sorted(held)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = held[a].keys() & held[b].keys()
            if both:
                out.append(f"{a} and {b} hold {len(both)} objects, e.g. a {type(held[a][next(iter(both))]).__name__}")
    return out


# --------------------------------------------------------------------------- the tests
@pytest.fixture(scope="module")
def four() -> Rite:
    return build_rite("zheng", chapter="xiangyinjiu")


def test_the_director_is_no_mixin():
    assert Director.__mro__ == (Director, object)
    assert all(c.__mro__ == (c, object) for c in PARTS)
    assert not mixin_findings(sources())


def test_no_part_writes_or_reads_another_parts_field(rite):
    links = links_of(rite.director)
    # the walk does see the parts and the links between them (chapter 5's: its director has a range)
    assert {"Director", "Acts", "People", "Things", "Counters", "Ways", "PlainSteps"} <= set(links)
    assert links["Ways"]["people"] == "People" and links["Acts"]["_d.things"] == "Things"
    assert links["Director"]["range"] == "Range"
    found = access_findings(sources(), links)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("chapter_rite", ["five", "four"])
def test_no_object_is_held_by_two_parts(chapter_rite, four, rite):
    d = (rite if chapter_rite == "five" else four).director
    held = holdings(d)
    # the walk does reach each owner's state: every actor's and every thing's
    assert all(id(a) in held["People"] and id(a.keys) in held["People"] for a in d.actors.values())
    assert all(id(o.events) in held["Things"] for o in d.objects.values())
    assert not shared_objects(d)


# the seeded violations: each is a change a hurried edit could make; each check must name it
SEEDED = [
    ("director.py", "class Director:", "class Director(Things, Ways):", mixin_findings),
    ("things.py", "self.people.put_down(src, label, t)", "self.people._actors[src].holding.remove(label)",
     access_findings),
    ("ways.py", "p = self.things.lying_at(oid)", "p = self.things._lying.get(oid)", access_findings),
    ("base.py", "self._d.record.announce(entry)", "self._d.record._announcements.append(entry)", access_findings),
    ("plain.py", "people.busy_until(aid, t)", "people._free[aid] = t", access_findings),
    ("plain.py", 'people.cast_as(aid, t, step.role)', 'people.tracks()[aid].role = step.role', access_findings),
    ("counting.py", "self._counts[k] = v", "self.things.names[k] = str(v)", access_findings),
    ("director.py", "return self.range.results if", "self.range.results.clear()\n        return self.range.results if",
     access_findings),
]


@pytest.mark.parametrize("module, old, new, check", SEEDED, ids=[f"{s[0]}:{s[3].__name__}" for s in SEEDED])
def test_the_checks_catch_a_seeded_violation(module, old, new, check, rite):
    srcs = sources()
    assert srcs[module].count(old) == 1, old
    seeded = dict(srcs, **{module: srcs[module].replace(old, new)})
    run = (lambda s: check(s)) if check is mixin_findings else (lambda s: check(s, links_of(rite.director)))
    assert not run(srcs)
    assert run(seeded), f"{module}: {new} not caught"


def test_the_run_time_check_catches_an_alias(rite):
    """The 筭 as the old director kept them (the range's own dict, written by the counting) and the range's
    bows as the old director kept them (the range's own ObjectState, written by the things) are caught."""
    import copy
    d = copy.copy(rite.director)
    d.counters = copy.copy(d.counters)
    d.things = copy.copy(d.things)
    assert not shared_objects(d)
    d.counters._counts = d.range.counters        # the seeded alias
    assert any("Counters and Range" in f for f in shared_objects(d)), shared_objects(d)
    d.counters = rite.director.counters
    d.things._objects = dict(d.things._objects, **{"bow.bin": d.range.objects["bow.bin"]})
    assert any("Range and Things" in f for f in shared_objects(d)), shared_objects(d)
