"""One validation layer for what the program reads from TOML and JSON: types, ranges, finite numbers, a cap on
nesting, unknown keys refused; each failure is one line naming the file and the field.

The shapes are msgspec ``Struct`` types (declared beside the loader that owns them, e.g. the lesson in
:mod:`scene.web.lessons`; the camera here); :func:`convert` checks a parsed document against one, and
:func:`load_toml` / :func:`load_json` parse and check.  Every float field carries bounds (:func:`finite`):
TOML and JSON can both spell ``nan`` and ``inf`` (TOML's ``1e400`` *is* inf), and a bounded float refuses
them, as it refuses a ``true`` where a number belongs.

msgspec rather than pydantic (both on the machine): measured on this machine (load ≈ 9, two lessons, best of
3), importing the library and declaring the lesson types took 111 ms with msgspec against 737 ms with pydantic,
and checking one lesson 15–22 µs against 124–167 µs; the command line pays the import on every run.
"""
from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import msgspec

T = TypeVar("T")

#: how deep a document may nest (tables in tables, arrays in arrays): deeper is refused before any work
MAX_DEPTH = 12
#: the longest input file or text read (a lesson, a camera, a reading, the cast…)
MAX_BYTES = 4 << 20


class InputError(ValueError):
    """A file or a text the program cannot use (one line: the file, the field, what is wrong)."""


def finite(lo: float, hi: float, unit: str = ""):
    """A float in [lo, hi]: finite by construction (nan and ±inf fail the bounds)."""
    return Annotated[float, msgspec.Meta(ge=lo, le=hi, description=unit or None)]


def count(lo: int = 0, hi: int = 1_000_000):
    """An int in [lo, hi] (a bool is not an int here)."""
    return Annotated[int, msgspec.Meta(ge=lo, le=hi)]


#: text of one line or a paragraph: never megabytes
Text = Annotated[str, msgspec.Meta(max_length=10_000)]
#: a non-empty text
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=10_000)]
#: a coordinate of the scene (metres): the court is ~ 400 m across, ±10 km is generous and finite
Coord = finite(-1e4, 1e4, "m")
Vec3 = tuple[Coord, Coord, Coord]


class Camera(msgspec.Struct):
    """A camera as the app and the stills take it (``--camera`` JSON; metres, degrees).  Keys it does not know
    are let through (the browser sends its camera whole); every number is finite and bounded."""
    position: Vec3
    focal_point: Vec3
    view_up: Vec3
    view_angle: finite(1.0, 120.0, "°") = 30.0
    parallel: bool = False
    parallel_scale: Annotated[float, msgspec.Meta(gt=0.0, le=1e4)] = 1.0
    name: Annotated[str, msgspec.Meta(max_length=80)] | None = None


#: an id as the data writes it (``zhuren``, ``ou1_up``, ``arrow.bin``): lower-case ASCII, digits, ``_`` and ``.``
Ident = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_.]*$", max_length=60)]
#: a colour as ``#rrggbb``
Colour = Annotated[str, msgspec.Meta(pattern=r"^#[0-9a-fA-F]{6}$")]


class CastActor(msgspec.Struct):
    """``[[actor]]`` of ``assets/cast.toml`` (the fields of :class:`scene.rite.choreography.Actor`).  A key not
    declared here is left to the dataclass, which refuses it: a field added there is not refused here first."""
    id: Ident
    name: Name
    role: Text
    start: Name                     # a place reference or "offstage" (resolved by the choreography's loader)
    colour: Colour
    mark: Text
    stairs: Literal["west", "east"] = "west"
    archer: bool = False
    optional: Ident | None = None   # a reading switch that must be on (dafu_present)


class CastThing(msgspec.Struct):
    """``[[object]]`` of ``assets/cast.toml`` (:class:`scene.rite.choreography.Thing`)."""
    id: Ident
    name: Name
    start: Name
    kind: Ident = "thing"


#: a name of the text (主人, 三耦 …)
Word = Annotated[str, msgspec.Meta(min_length=1, max_length=12)]


class Cast(msgspec.Struct):
    """A chapter's cast (``assets/cast.toml``): the actors, the movable objects, and who the text's names mean
    (``groups``, ``names``: a name → actor ids; ``every``: the names a 皆 is checked for)."""
    actor: list[CastActor] = []
    object: list[CastThing] = []
    every: list[Word] = []
    groups: dict[Word, Annotated[list[Ident], msgspec.Meta(min_length=1)]] = {}
    names: dict[Word, Annotated[list[Ident], msgspec.Meta(min_length=1)]] = {}


# ------------------------------------------------------------------ the choreography (assets/rite/*.toml)
#: seconds of one act or wait: an hour is already no act of the rite
Seconds = finite(0.0, 3600.0, "s")


class RiteLike(msgspec.Struct, forbid_unknown_fields=True):
    """``like = {…}`` of a step: a run of a model section's steps reused (:mod:`scene.rite.reuse`); what it names
    (the section, the words, the actors, the places) is the loader's to check."""
    section: count(1, 999)
    words: Name
    phrase: Name
    chapter: Ident | None = None
    actors: dict[Ident, Ident] = {}
    places: dict[Name, Name] = {}
    things: dict[Name, Name] = {}
    drop: list[Name] = []
    change: dict[Name, dict[str, Any]] = {}
    with_prev: bool = False
    when: Text | None = None


class RiteStep(msgspec.Struct):
    """``[[section.step]]``: the types and ranges of a step.  What refers to the cast, the verbs, the places or
    the 經 (an unknown actor, verb, place or phrase), and a key not declared here, are the loader's to refuse
    (:func:`scene.rite.choreography._step`), with its own words.  A step with ``like`` stands for a run of a
    model's steps and has no phrase, who or do of its own."""
    phrase: Name | None = None
    who: Ident | list[Ident] | None = None
    do: Ident | None = None
    like: RiteLike | None = None
    at: Name | None = None
    facing: Name | None = None
    obj: Name | None = None
    to: Ident | None = None
    by: Literal["west", "east"] | None = None
    via: list[Name] = []
    dur: Annotated[float, msgspec.Meta(gt=0.0, le=3600.0)] | None = None
    with_prev: bool = False
    role: Text | None = None
    round: count(0, 3) | None = None
    note: Text = ""
    when: Text | None = None
    delay: Seconds = 0.0
    kneel: bool = False
    rise: bool = False
    evidence: dict[str, Text] | None = None
    as_before: Text | None = None
    behind: Ident | None = None


#: a section of a chapter's 經: the bound of any chapter here, the chapter's own count checked by :func:`convert`'s
#: ``sections`` (chapter 5: 51)
Section = count(1, 999)


class RiteSection(msgspec.Struct):
    """``[[section]]`` of a file of ``assets/rite/`` (its title and phase are checked by the loader against the
    passage and the phases)."""
    n: Section
    id: Ident
    title: Name
    phase: Name
    cast: list[Ident] = []
    step: list[RiteStep] = []
    played: Name | None = None        # "after §10": a section told out of its time (the loader checks it)
    played_when: Text | None = None


class RiteFile(msgspec.Struct):
    """One file of ``assets/rite/``: its sections."""
    section: list[RiteSection] = []


# ------------------------------------------------------------------ the checker's data


class GrammarException(msgspec.Struct, forbid_unknown_fields=True):
    """``[[exception]]`` of ``assets/grammar.toml``: a finding accepted, with its reason and reference."""
    rule: Ident
    section: Section
    word: Name
    reason: Name
    reference: Name
    step: count(1, 10_000) | None = None
    who: Text = ""


class GrammarSubject(msgspec.Struct, forbid_unknown_fields=True):
    """``[[subject]]`` of ``assets/grammar.toml``: the name the text means from ``text`` on."""
    section: Section
    text: Name
    name: Name
    reason: Name
    reference: Text = ""


class GrammarGroup(msgspec.Struct, forbid_unknown_fields=True):
    """``[[group]]`` of ``assets/grammar.toml``: what a group's name means in some sections."""
    name: Name
    sections: tuple[Section, Section]
    members: Annotated[list[Ident], msgspec.Meta(min_length=1)]
    reason: Name
    reference: Name
    text: Text = ""
    dafu_present: bool | None = None


class Grammar(msgspec.Struct, forbid_unknown_fields=True):
    """``assets/grammar.toml``."""
    exception: list[GrammarException] = []
    subject: list[GrammarSubject] = []
    group: list[GrammarGroup] = []


class ClauseEntry(msgspec.Struct, forbid_unknown_fields=True):
    """``[[not_acted]]``, ``[[unchecked]]``, ``[[condition]]`` of ``assets/clauses.toml``: words of a section's
    經 and why."""
    section: Section
    text: Name
    reason: Name


class ClauseSubject(ClauseEntry, forbid_unknown_fields=True):
    """``[[subject]]`` of ``assets/clauses.toml``: the name the clause's subject is."""
    name: Name


class ClauseForm(ClauseEntry, forbid_unknown_fields=True):
    """``[[form]]`` of ``assets/clauses.toml``: words a standard form acts beyond its step's."""
    do: Ident


class ClauseJi(msgspec.Struct, forbid_unknown_fields=True):
    """``[[ji]]`` of ``assets/clauses.toml``: a 記 item and the steps it governs."""
    item: Name
    text: Name
    reason: Name
    do: list[Ident] = []
    phrase: Text = ""
    who: Text = ""


class Clauses(msgspec.Struct, forbid_unknown_fields=True):
    """``assets/clauses.toml``."""
    not_acted: list[ClauseEntry] = []
    subject: list[ClauseSubject] = []
    form: list[ClauseForm] = []
    unchecked: list[ClauseEntry] = []
    ji: list[ClauseJi] = []
    condition: list[ClauseEntry] = []


def depth(obj: Any, limit: int = MAX_DEPTH) -> int:
    """How deep ``obj`` nests (a scalar: 0); stops counting past ``limit`` (no recursion: a hostile document
    cannot exhaust the stack here)."""
    deepest, stack = 0, [(obj, 0)]
    nests = (dict, list, tuple)
    while stack:
        o, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        values = o.values() if isinstance(o, dict) else o if isinstance(o, (list, tuple)) else ()
        # (only what nests is walked on: a scalar inside is one level deeper, and the choreography's
        # 2000 steps are thousands of scalars: walking each cost more than checking the whole file)
        for v in values:
            if isinstance(v, nests):
                stack.append((v, d + 1))
            else:
                deepest = max(deepest, d + 1)
    return deepest


def _short(v: Any, n: int = 40) -> str:
    s = repr(v)
    return s if len(s) <= n else s[: n - 1] + "…"


_PATH = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\[\"?(.*?)\"?\]")


def _field(path: str, data: Any) -> tuple[str, Any, bool]:
    """msgspec's ``$.stop[0].camera.position[2]`` as ``stop 1: camera.position[2]`` (arrays of tables count
    from 1, as a reader counts ``[[stop]]``), with the value found there (and whether one was)."""
    words: list[str] = []
    cur, found = data, True
    steps = [(m.group(1), m.group(2), m.group(3)) for m in _PATH.finditer(path.removeprefix("$"))]
    for key, idx, other in steps:
        key = key if key is not None else other
        if idx is not None:
            k = int(idx)
            table = isinstance(cur, list) and k < len(cur) and isinstance(cur[k], dict)
            if table and words:
                words[-1] += f" {k + 1}:"
            else:
                words[-1:] = [(words[-1] if words else "") + f"[{k}]"]
            cur = cur[k] if isinstance(cur, list) and k < len(cur) else None
            found = found and cur is not None
        else:
            words.append(key)
            if isinstance(cur, dict) and key in cur:
                cur = cur[key]
            else:
                cur, found = None, False
    text = ".".join(words).replace(":.", ": ")
    return text.rstrip(":"), cur, found


def _choices(type_: Any, path: str) -> tuple | None:
    """The values a Literal field allows, found by walking ``type_`` along msgspec's ``$.a[0].b`` path."""
    from msgspec import inspect as mi
    t = mi.type_info(type_)
    for m in _PATH.finditer(path.removeprefix("$")):
        while isinstance(t, (mi.UnionType,)):
            t = next((x for x in t.types if not isinstance(x, mi.NoneType)), t)
        if m.group(2) is not None:
            t = getattr(t, "item_type", None) or (t.item_types[int(m.group(2))] if hasattr(t, "item_types") else t)
        else:
            fields = {f.name: f.type for f in getattr(t, "fields", ())}
            t = fields.get(m.group(1) or m.group(3))
            if t is None:
                return None
    while isinstance(t, mi.UnionType):
        lits = [x for x in t.types if isinstance(x, mi.LiteralType)]
        t = lits[0] if lits else None
    return tuple(t.values) if isinstance(t, mi.LiteralType) else None


def _say(msg: str) -> str:
    """msgspec's words as the house says them (one clause, no backticks)."""
    m = re.match(r"Expected `([^`]+)`(?:, got `(\w+)`)?( of length)?(?: (>=|<=|>|<) (\S+))?", msg)
    kinds = {"float": "a number", "int": "a whole number", "str": "text", "bool": "true or false",
             "array": "an array", "object": "a table", "null": "nothing"}
    if m:
        want = " or ".join(kinds.get(k, k) for k in m.group(1).split(" | ") if k != "null")
        if m.group(4):
            op = {">=": "≥", "<=": "≤"}.get(m.group(4), m.group(4))
            try:
                bound = f"{float(m.group(5)):g}"
            except ValueError:
                bound = m.group(5)
            return f"must be {want}{' of length' if m.group(3) else ''} {op} {bound}"
        return f"must be {want}" + (f", not {kinds.get(m.group(2), m.group(2))}" if m.group(2) else "")
    m = re.match(r"Object contains unknown field `(.*?)`", msg)
    if m:
        return f"unknown key {m.group(1)!r}"
    m = re.match(r"Object missing required field `(.*?)`", msg)
    if m:
        return f"needs {m.group(1)}"
    return msg.replace("`", "")


def convert(data: Any, type_: type[T], source: str, *, limit: int = MAX_DEPTH,
            error: type[ValueError] = InputError, sections: int | None = None) -> T:
    """``data`` (parsed TOML or JSON) checked against ``type_``; ``error`` (an :class:`InputError`) naming
    ``source`` and the field otherwise.  ``sections``: the chapter's count of sections, the bound of every
    ``n`` / ``section`` / ``sections`` of the document's tables (:func:`check_sections`)."""
    if depth(data, limit) > limit:
        raise error(f"{source}: nested deeper than {limit} levels")
    try:
        out = msgspec.convert(data, type_)
        if sections is not None:
            check_sections(data, source, sections, error)
        return out
    except msgspec.ValidationError as exc:
        text = str(exc)
        msg, _, path = text.partition(" - at `")
        path = path.rstrip("`")
        unknown = re.match(r"Object contains unknown field `(.*?)`", msg)
        if unknown:                      # msgspec names the table; the key is the field
            path = f"{path}.{unknown.group(1)}" if path else f"$.{unknown.group(1)}"
        field, value, found = _field(path, data) if path else ("", None, False)
        said = _say(msg)
        if msg.startswith("Invalid enum value"):
            allowed = _choices(type_, path)
            said = f"is not one of {', '.join(map(str, allowed))}" if allowed else "is not an allowed value"
        if unknown:
            table = _field(path.rpartition(".")[0], data)[0] if "." in path.removeprefix("$") else ""
            raise error(f"{source}: {table + ': ' if table else ''}{said}") from None
        if said.startswith("needs"):
            raise error(f"{source}: {field + ': ' if field else ''}{said}") from None
        if found and isinstance(value, float) and not math.isfinite(value):
            said = "must be a finite number"
        where = f"{field} = {_short(value)}" if found else field
        raise error(f"{source}: {where} {said}") from None


def check_sections(data: Any, source: str, last: int, error: type[ValueError] = InputError) -> None:
    """Every section number of a chapter's data file within the chapter's ``last``: the ``n``, ``section`` or
    ``sections`` of each table of the document's arrays of tables (``[[section]]``, ``[[group]]`` …); the
    first beyond it is one line, as :func:`convert` words a bound."""
    for kind, rows in (data.items() if isinstance(data, dict) else ()):
        for i, row in enumerate(rows if isinstance(rows, list) else ()):
            if not isinstance(row, dict):
                continue
            for key in ("n", "section", "sections"):
                v = row.get(key)
                values = [(key, v)] if isinstance(v, int) else \
                    [(f"{key}[{j}]", x) for j, x in enumerate(v)] if isinstance(v, (list, tuple)) else []
                for name, x in values:
                    if isinstance(x, int) and not isinstance(x, bool) and x > last:
                        raise error(f"{source}: {kind} {i + 1}: {name} = {x} must be a whole number ≤ {last}")


def load_toml(path: Path | str, type_: type[T], text: str | None = None, *, source: str | None = None,
              error: type[ValueError] = InputError) -> T:
    """A TOML file (or its ``text``) checked against ``type_``."""
    path = Path(path)
    src = source or path.name
    try:
        if text is None:                # a regular file of at most MAX_BYTES, read without blocking (scene.atomic)
            from .atomic import InputFileError, read_input
            try:
                text = read_input(path, MAX_BYTES, "TOML file").decode("utf-8")
            except InputFileError as exc:
                raise error(f"{src}: {str(exc).rsplit(': ', 1)[-1]}") from None
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).splitlines()[0]
        raise error(f"{src}: not a TOML file ({why})") from None
    return convert(data, type_, src, error=error)


def load_json(text: str | bytes, type_: type[T], source: str, *, error: type[ValueError] = InputError) -> T:
    """A JSON text checked against ``type_`` (``NaN`` / ``Infinity`` are refused by the bounds)."""
    if len(text) > MAX_BYTES:
        raise error(f"{source}: {len(text):,} characters is too long")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).splitlines()[0]
        raise error(f"{source}: not JSON ({why[:120]})") from None
    return convert(data, type_, source, error=error)
