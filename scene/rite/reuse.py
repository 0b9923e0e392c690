"""Reuse as data (如…之禮, 如初): a run of steps that cites the steps of a model run instead of copying them.

Where a chapter's 經 says 如賓禮 / 如初 / 如主人禮, the data may say so too — as an animation system's strip
references a clip (Blender's NLA strip its Action) instead of copying its keys::

    [[section.step]]
    like = { section = 4, words = "賓進東北面辭洗…卒洗", actors = { bin = "jie" }, phrase = "介辭洗如賓禮" }

expands, when the rite is loaded, into the model's steps (what they ``do``, ``at``, ``facing``, ``obj`` …) whose
phrase starts within ``words`` of the model section's 經 (one word run, or ``first…last``: from the start of
the first to the end of the last), with:

* **who** — each of the model's actors in ``actors`` replaced by his counterpart here (``who``, ``to``, an
  ``actor:`` place, ``toward:actor:``, ``arrows.<id>``);
* **places** — a place or object id one of whose words (split at ``.`` and ``_``) is a mapped actor's id is the
  counterpart's (``mat.bin`` → ``mat.jie``, ``pos.bin_below`` → ``pos.jie_below``, ``jian_bin`` → ``jian_jie``)
  unless ``places = { "mat.bin" = "…" }`` says otherwise; when both places face (a 席 faces its front), an
  offset from it is turned with it (it keeps its side of the place: 薦西 of the 賓's 席, which faces south, is
  薦南 of the 介's, which faces east), and so are the facings of the actor while he stays there — from the
  place the model's actor last went to before the run, within the model section;
* **stairs** — a ``by`` that was the model actor's own stairs is his counterpart's own;
* **the words** — the phrase is THIS text's (``phrase``, verbatim in this section's 經: 介辭洗如賓禮); the
  model's words go with each step as ``as_before`` (the checker reads them as part of the phrase) and as its
  :class:`Basis` (the evidence's and the review's "如賓禮 → §4 賓進東北面辭洗").

``drop = ["沃洗者西北面", "卒洗:zanzhe_1", "盥洗:wash_hands"]`` leaves out the model's steps of those words (of
that actor, or doing that verb);
``change = { "興席末坐啐酒" = { dur = 4 } }`` (``"words:actor"`` too) sets keys of the steps of those words —
for what the text itself takes away or the place makes otherwise (不嚌肺, the 介's 席 on the 楹 line).
``things = { jue = "jue_3" }`` names the cup (or any object) used here for the model's; ``when`` is the reading
switch of every step of the run (若有遵者: ``dafu_present``); ``with_prev`` applies to the first step of the
run (the model's first step is tied to nothing here);
``chapter`` names another chapter's model (default: this chapter's).  A bad reference is one line: an unknown
section, words not in the model's 經 (or no step there), an actor of the map not in the cast, a cycle.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..chapter import Chapter
from ..geometry.places import FACING_DEG
from ..text import passage
from .choreography import DIRECTIONS, Actor, ChoreographyError, _load_toml, data_of, load_cast, parse_ref

#: a step as the loader reads it: its raw table, its basis when reused, where it is told (step 14.3 (like §4))
Row = tuple[dict[str, Any], "Basis | None", str]
LIKE_KEYS = {"section", "chapter", "words", "actors", "phrase", "places", "things", "drop", "change", "with_prev",
             "when"}
#: the keys of a model step that name a place (``facing`` may too: toward:<place>)
_PLACE_KEYS = ("at", "put")
_DIR_DEG = {"北": 0.0, "東北": 45.0, "東": 90.0, "東南": 135.0, "南": 180.0, "西南": 225.0, "西": 270.0, "西北": 315.0}


@dataclass(frozen=True)
class Basis:
    """Where a reused step comes from: this text's words (如賓禮), the model's chapter, section and words, and
    who stands for whom."""

    phrase: str
    chapter: str | None
    section: int
    words: str
    actors: tuple[tuple[str, str], ...] = ()
    #: the model step (its index in the model section, reuses expanded), and the turn (degrees clockwise) of
    #: the place the mapped actor stands on against the model's: what the model's facing words mean here
    step: int = 0
    turn: float = 0.0

    def says(self) -> str:
        """``介辭洗如賓禮 → §4 賓進東北面辭洗 (bin → jie)``: the basis as the evidence and the review print it."""
        ch = f"{self.chapter} " if self.chapter else ""
        who = ", ".join(f"{a} → {b}" for a, b in self.actors)
        return f"{self.phrase} → {ch}§{self.section} {self.words}" + (f" ({who})" if who else "")


class Models:
    """The raw steps of a chapter's sections, each section's reuses expanded (a model may itself reuse), for
    :func:`scene.rite.choreography.load`."""

    def __init__(self, ch: Chapter, rite_dir: Path, actors: dict[str, Actor], places: Callable[[str], str | None]):
        #: ``places``: a place id's facing ("" when it has none), None when the layout has no such place
        self.ch, self.actors, self.place_facing = ch, actors, places
        self._raw: dict[str | None, dict[int, tuple[str, list[dict[str, Any]]]]] = {None: _raw_sections(rite_dir)}
        self._casts: dict[str | None, dict[str, Actor]] = {None: actors}
        self._done: dict[tuple[str | None, int], list[Row]] = {}
        #: the sections being expanded, and what each has so far (a model earlier in its own section)
        self._busy: dict[tuple[str | None, int], list[Row]] = {}

    def steps(self, n: int, chapter: str | None = None) -> list[Row]:
        """Section ``n``'s steps (of ``chapter``: None this one), reuses expanded: (raw step, basis or None,
        where it is told: ``step 14`` or ``step 14.3 (like §4)``)."""
        key = (chapter, n)
        if key in self._done:
            return self._done[key]
        raws = self._sections(chapter)
        if n not in raws:
            raise ChoreographyError(f"like: no section §{n} in the rite of {chapter or self.ch.id}")
        name, steps = raws[n]
        out: list[Row] = []
        self._busy[key] = out
        for i, raw in enumerate(steps):
            if "like" in raw:
                where = f"{name} §{n} step {i + 1}"
                rows = self._expand(raw, n, chapter, where)
                out += [(s, b, f"step {i + 1}.{j + 1} (like §{b.section})") for j, (s, b) in enumerate(rows)]
            else:
                out.append((raw, None, f"step {i + 1}"))
        del self._busy[key]
        self._done[key] = out
        return out

    def _model(self, n: int, chapter: str | None, m_n: int, m_ch: str | None, where: str) -> list[Row]:
        key = (m_ch, m_n)
        if key == (chapter, n):
            return list(self._busy[key])          # an earlier run of its own section: the steps before it
        if key in self._busy:
            chain = [*list(self._busy)[list(self._busy).index(key):], key]
            raise ChoreographyError(f"{where}: like: a cycle of reuses (" + " → ".join(
                f"{c + ' ' if c else ''}§{m}" for c, m in chain) + ")")
        if m_n not in self._sections(m_ch):
            raise ChoreographyError(f"{where}: like: no section §{m_n} in the rite of {m_ch or self.ch.id}")
        return self.steps(m_n, m_ch)

    def _sections(self, chapter: str | None) -> dict[int, tuple[str, list[dict[str, Any]]]]:
        if chapter not in self._raw:
            c, cast_file, rite_dir = data_of(chapter)
            if c.id == self.ch.id:
                raise ChoreographyError(f"like: chapter {chapter!r} is this chapter (leave chapter out)")
            self._raw[chapter] = _raw_sections(rite_dir)
            self._casts[chapter] = load_cast(cast_file)[0]
        return self._raw[chapter]

    def _expand(self, raw: dict[str, Any], n: int, chapter: str | None,
                where: str) -> list[tuple[dict[str, Any], Basis]]:
        like = raw["like"]
        if set(raw) - {"like", "note"}:
            raise ChoreographyError(f"{where}: a step with like takes no other keys ({sorted(set(raw) - {'like', 'note'})})")
        if not isinstance(like, dict) or set(like) - LIKE_KEYS or not {"section", "words", "phrase"} <= set(like):
            raise ChoreographyError(f"{where}: like must be a table of section, words, phrase "
                                    f"(and {', '.join(sorted(LIKE_KEYS - {'section', 'words', 'phrase'}))})")
        m_ch = like.get("chapter") or chapter
        m_ch = None if m_ch == self.ch.id else m_ch
        m_n = like["section"]
        if not isinstance(m_n, int):
            raise ChoreographyError(f"{where}: like.section must be a section number")
        model = [(s, b) for s, b, _ in self._model(n, chapter, m_n, m_ch, where)]
        cast, m_cast = self._casts[chapter], self._casts[m_ch]
        amap: dict[str, str] = dict(like.get("actors", {}))
        for them, us in amap.items():
            if them not in m_cast:
                raise ChoreographyError(f"{where}: like.actors: {them!r} is not in the model's cast")
            if us not in cast:
                raise ChoreographyError(f"{where}: like.actors: {us!r} is not in the cast")
        m_text = passage(m_n, chapter=self._chapter(m_ch)).text
        lo, hi = _span(m_text, like["words"], where, m_n)
        offsets = _offsets([s for s, _ in model], m_text)
        run = [(k, s, b) for k, ((s, b), off) in enumerate(zip(model, offsets)) if lo <= off < hi]
        drop = set(like.get("drop", ()))
        change: dict[str, dict[str, Any]] = like.get("change", {})
        for key in (*drop, *change):
            if not any(_matches(key, s) for _, s, _ in run):
                raise ChoreographyError(f"{where}: like: {key!r} names no step of the run {like['words']!r}")
        run = [(k, s, b) for k, s, b in run if not any(_matches(key, s) for key in drop)]
        if not run:
            raise ChoreographyError(f"{where}: like: no step of §{m_n} acts {like['words']!r}")
        turns = self._turns(model[:run[0][0]], amap, dict(like.get("places", {})), where)
        out = []
        for j, (k, s, b) in enumerate(run):
            new = self._map(s, amap, dict(like.get("places", {})), turns, m_cast, cast, where,
                            dict(like.get("things", {})))
            if like.get("when") and "when" not in new:
                new["when"] = like["when"]
            who = [s["who"]] if isinstance(s["who"], str) else s["who"]
            turn = next((turns.get(a, 0.0) for a in who if a in amap), 0.0)
            for key, keys in change.items():
                if _matches(key, s):
                    new.update(keys)
            new["phrase"] = like["phrase"]
            new["with_prev"] = bool(like.get("with_prev", False)) if j == 0 else new.get("with_prev", False)
            new.pop("as_before", None)
            words = b.words if b is not None else s["phrase"] + (s.get("as_before", "").partition(" ")[2])
            basis = Basis(like["phrase"], m_ch, m_n, words, tuple(amap.items()), k, turn) if b is None else \
                Basis(like["phrase"], b.chapter if b.chapter else m_ch, b.section, words,
                      tuple((x, amap.get(y, y)) for x, y in b.actors) or tuple(amap.items()), b.step,
                      (b.turn + turn) % 360.0)
            new["note"] = f"{basis.says()}" + (f"; {raw['note']}" if raw.get("note") and j == 0 else "") + (
                f" — {s['note']}" if s.get("note") else "")
            out.append((new, basis))
        return out

    def _chapter(self, chapter: str | None) -> Chapter:
        return self.ch if chapter is None else data_of(chapter)[0]

    def _turns(self, before: list[tuple[dict[str, Any], Basis | None]], amap: dict[str, str],
               places: dict[str, str], where: str) -> dict[str, float]:
        """Per mapped actor, the turn of the place his model stood on when the run starts (his last ``at``)."""
        out: dict[str, float] = {}
        for s, _ in before:
            who = [s["who"]] if isinstance(s["who"], str) else s["who"]
            for a in who:
                if a in amap and "at" in s:
                    out[a] = self._place(s["at"], amap, places, where)[1]
        return out

    def _place(self, ref: str, amap: dict[str, str], places: dict[str, str], where: str) -> tuple[str, float]:
        """A model's place reference here, and the turn (degrees clockwise) of the place it is taken from."""
        p = parse_ref(ref)
        if p.actor is not None:
            return ref.replace(f"actor:{p.actor}", f"actor:{amap.get(p.actor, p.actor)}", 1), 0.0
        assert p.place is not None
        new = places.get(p.place) or _renamed(p.place, amap)
        if new == p.place:
            return ref, 0.0
        old_f, new_f = self.place_facing(p.place), self.place_facing(new)
        if old_f is None or new_f is None:
            raise ChoreographyError(f"{where}: like: the actor map makes {p.place} {new}, which is no place of the "
                                    f"layout (say it in like.places)")
        turn = (FACING_DEG[new_f] - FACING_DEG[old_f]) % 360.0 if old_f and new_f else 0.0
        tail = ref[len(p.place):]
        if p.slot is not None:
            tail = tail.split("@", 1)[1] if "@" in tail else ""
            tail = f"#{p.slot}" + (f"@{tail}" if tail else "")
        return new + _turn_offsets(tail, turn, where), turn

    def _map(self, s: dict[str, Any], amap: dict[str, str], places: dict[str, str], turns: dict[str, float],
             m_cast: dict[str, Actor], cast: dict[str, Actor], where: str,
             things: dict[str, str]) -> dict[str, Any]:
        new = copy.deepcopy(s)
        who = [s["who"]] if isinstance(s["who"], str) else list(s["who"])
        new["who"] = [amap.get(a, a) for a in who] if isinstance(s["who"], list) else amap.get(s["who"], s["who"])
        for key in ("to", "behind"):
            if key in s:
                new[key] = amap.get(s[key], s[key])
        if "obj" in s:
            new["obj"] = things.get(s["obj"]) or _renamed(s["obj"], amap)
        turn = 0.0
        for key in _PLACE_KEYS:
            if key in s:
                new[key], t = self._place(s[key], amap, places, where)
                turn = t if key == "at" else turn
        if "via" in s:
            new["via"] = [self._place(v, amap, places, where)[0] for v in s["via"]]
        mapped = [a for a in who if a in amap]
        if mapped and "at" in s:
            for a in mapped:
                turns[a] = turn          # he stands on this place now: its turn holds until he goes elsewhere
        facing = s.get("facing")
        if isinstance(facing, str) and facing.startswith("toward:"):
            new["facing"] = "toward:" + self._place(facing[len("toward:"):], amap, places, where)[0]
        elif isinstance(facing, str) and mapped and turns.get(mapped[0]):
            new["facing"] = _turn_facing(facing, turns[mapped[0]])
        if "by" in s and len(who) == 1 and who[0] in amap and s["by"] == m_cast[who[0]].stairs:
            new["by"] = cast[amap[who[0]]].stairs
        return new


def _raw_sections(rite_dir: Path) -> dict[int, tuple[str, list[dict[str, Any]]]]:
    out: dict[int, tuple[str, list[dict[str, Any]]]] = {}
    for path in sorted(rite_dir.glob("*.toml")):
        for sec in _load_toml(path).get("section", []):
            if isinstance(sec, dict) and isinstance(sec.get("n"), int):
                out[sec["n"]] = (path.name, list(sec.get("step", [])))
    return out


def _span(text: str, words: Any, where: str, n: int) -> tuple[int, int]:
    """Where ``words`` (``a`` or ``a…b``) lie in the model's 經: [start of a, end of b)."""
    first, _, last = str(words).partition("…")
    lo = text.find(first) if first else -1
    hi = text.find(last or first, lo) if lo >= 0 else -1
    if lo < 0 or hi < 0:
        raise ChoreographyError(f"{where}: like: {words!r} is not in the 經 of §{n}")
    return lo, hi + len(last or first)


def offsets(phrases: list[tuple[str, bool]], text: str) -> list[int]:
    """Where each step's phrase is read in the passage, as the loader reads it: at or after the previous
    step's (a formula the passage repeats), a step with_prev citing words further on not moving the reading."""
    out, cursor = [], 0
    for phrase, with_prev in phrases:
        off = text.find(phrase, cursor)
        off = text.find(phrase) if off < 0 else off
        out.append(off)
        if not (with_prev and off > cursor):
            cursor = off
    return out


def _offsets(steps: list[dict[str, Any]], text: str) -> list[int]:
    return offsets([(str(s.get("phrase", "")), bool(s.get("with_prev", False))) for s in steps], text)


def _matches(key: str, step: dict[str, Any]) -> bool:
    """``words`` names the steps whose phrase is those words; ``words:actor`` those of his among them,
    ``words:verb`` those that do it (盥洗:wash_hands)."""
    words, _, tail = key.partition(":")
    who = [step["who"]] if isinstance(step["who"], str) else step["who"]
    return step.get("phrase") == words and (not tail or tail in who or tail == step.get("do"))


def _renamed(pid: str, amap: dict[str, str]) -> str:
    """A place or object id with each word that is a mapped actor's id replaced (mat.bin → mat.jie)."""
    return re.sub(r"[a-z0-9]+", lambda m: amap.get(m[0], m[0]), pid) if amap else pid


def _turn_facing(facing: str, turn: float) -> str:
    if facing not in FACING_DEG:
        return facing
    deg = (FACING_DEG[facing] + turn) % 360.0
    return next(f for f, d in FACING_DEG.items() if abs(d - deg) < 1e-6)


def _turn_offsets(tail: str, turn: float, where: str) -> str:
    """``@西1.5南2.5`` turned clockwise by ``turn`` degrees (a multiple of 45; of 90 for two offsets)."""
    if not turn:
        return tail

    def one(m: re.Match[str]) -> str:
        deg = (_DIR_DEG[m[1]] + turn) % 360.0
        word = next((w for w, d in _DIR_DEG.items() if abs(d - deg) < 1e-6), None)
        if word is None:
            raise ChoreographyError(f"{where}: like: a turn of {turn:g}° leaves {m[1]} no direction word")
        return word + m[2]
    assert set(DIRECTIONS) == set(_DIR_DEG)
    return re.sub(r"(東北|東南|西北|西南|東|西|南|北)(\d+(?:\.\d+)?)?", one, tail)


