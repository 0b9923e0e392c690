"""The rite's choreography as data: the cast, the objects and the sections (51 in chapter 5).

The data is a chapter's (:class:`scene.chapter.Chapter`: its manifest's ``[data] cast`` — actors and
objects — and ``[data] rite``, the sections' files in order; chapter 5's are ``assets/cast.toml`` and
``assets/rite/*.toml``).  This module loads it and checks it; it knows nothing about time.  A step animates one phrase of its section's
經, and **loading fails if the phrase is not in the passage verbatim**.

Section::

    [[section]]
    n = 21                       # 節 number, 1–51, in order across the files
    id = "sanou_she"
    title = "三耦射"             # the heading of the passage in seeds/
    phase = "round1"             # see PHASES
    cast = ["sima", "huozhe", …]
    played = "after §10"         # told out of its time: played right after §10 (ch.4 §24 既一人舉觶乃入) …
    played_when = "dafu_present" # … under this switch (else where the text tells it)
    [[section.step]]
    phrase = "司馬命獲者執旌以負侯"   # verbatim from the 經 of §21
    who = "sima"                 # actor id, or a list acting together
    do = "order"                 # a verb of VERBS
    at = "pos.sima"              # where the step happens (walk there first); see PLACE REFS
    facing = "北面"              # 北面 東面 西南面 … or "toward:<place ref>"
    obj = "jing"                 # object handled (take, set_down, hand, receive, lean, tie, untie …);
                                 # "bow" / "arrows": the archer's own; "arrows.sishe": that actor's arrows;
                                 # "arrow.sishe.5": the 司射's single arrow (一个)
    to = "huozhe"                # the other party of hand / offer / receive
    by = "west"                  # stairs for ascend / descend (default: the actor's own)
    via = ["pos.sima@南3"]       # waypoints the text names (由司射之西, 出于司馬之南 …)
    dur = 4.0                    # seconds, overriding the verb's default
    with_prev = true             # starts together with the previous step
    delay = 1.2                  # … but so many seconds later (主人升一等賓升: not together)
    role = "司馬"                # the actor's role from this step on
    round = 1                    # for shoot / count / forfeit: 0 (誘射), 1, 2, 3
    when = "dafu_present"        # played only when this switch of the reading is on (若有遵者);
                                 # "jie_ximo=south": only under that value of a choice of the chapter's own
                                 # (its manifest's [[reading.choice]]: where the commentaries disagree)
    put = "mat.bin@西1.5南2.5"    # set_down / lean: where the thing goes when not where he stands (奠爵于薦西
                                 # from his seat): within reach (4 尺) of him, or compiling fails
    pick = "youngest_winner"     # who = candidates, eldest first; played by the youngest of them on the side
                                 # that won the round last counted (§33 勝者之弟子, 鄭 其少者也)
    note = "…"                   # why, when the data makes a choice
    [[section.step]]             # 如賓禮 / 如初: a run of a model section's steps, reused (scene/rite/reuse.py)
    like = { section = 4, words = "賓進東北面辭洗…卒洗", actors = { bin = "jie" }, phrase = "介辭洗如賓禮" }

PLACE REFS: ``<layout place id>`` · ``<id>#<slot>`` (a person's place in a
file of people, 0-based) · ``actor:<actor id>`` (beside that actor) · any of
these followed by ``@<direction><尺>`` (``pos.sima@南3`` = 3 尺 south of it).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chapter import Chapter, ChapterError
from ..chapter import resolve as resolve_chapter
from ..geometry.places import FACING_DEG
from ..paths import ASSETS  # noqa: F401  (re-exported: chor.ASSETS, the tests' copy of the data)
from ..text import Passage
from ..text import passage as passage  # (re-exported: chor.passage)

# the fields that say when and on what basis (re-exported: chor.ChoreographyError, chor.when_holds …)
from .step_fields import EVIDENCE_ASPECTS as EVIDENCE_ASPECTS
from .step_fields import EVIDENCE_STATUSES as EVIDENCE_STATUSES
from .step_fields import WHEN as WHEN
from .step_fields import ChoreographyError as ChoreographyError
from .step_fields import _as_before, _evidence, _played, _when
from .step_fields import when_holds as when_holds

if TYPE_CHECKING:
    from .reuse import Basis

PHASES: dict[str, str] = {
    "reception": "飲酒 — reception and drinking",
    "preparation": "將射 — preparing the shooting",
    "round1": "第一番射 — 不釋獲 (hits called, not scored)",
    "round2": "第二番射 — 釋獲 (hits scored)",
    "round3": "第三番射 — 以樂節射 (only hits on the drum beat scored)",
    "after": "射後 — after the shooting",
}


@dataclass(frozen=True)
class Verb:
    zh: str           # the text's word(s)
    dur: float        # default seconds (walking verbs: the route's time is added)
    posture: str      # posture while doing it
    after: str | None  # posture afterwards (None: as before)
    moves: bool = False


#: Every action a step may name.
_VERB_TABLE: dict[str, tuple[Any, ...]] = {
    "walk": ("行/適/進/退/反位", 0.0, "stand", "stand", True),
    "ascend": ("升", 0.0, "stand", "stand", True),
    "descend": ("降", 0.0, "stand", "stand", True),
    "enter": ("入", 0.0, "stand", "stand", True),
    "exit": ("出", 0.0, "stand", "stand", True),
    "stand": ("立", 1.5, "stand", "stand"),
    "wait": ("俟/疑立", 2.0, "stand", "stand"),
    "sit": ("坐", 1.2, "sit", "sit"),
    "rise": ("興", 1.2, "stand", "stand"),
    "bow": ("拜", 2.5, "bow", None),
    "bow_twice": ("再拜", 4.0, "bow", None),
    "answer_bow": ("答拜", 2.5, "bow", None),
    "answer_bow_twice": ("答再拜", 4.0, "bow", None),
    "salute": ("揖", 1.5, "salute", None),
    "decline": ("辭/讓", 2.0, "salute", None),
    "reply": ("對/許諾", 1.5, "stand", None),
    "speak": ("告/命/請/曰", 2.5, "stand", None),
    "order": ("命", 2.5, "stand", None),
    "bare": ("袒決遂", 3.0, "stand", None),
    "cover": ("襲/說決拾", 2.5, "stand", None),
    "wash_hands": ("盥", 3.0, "stand", None),
    "wash": ("洗", 4.0, "stand", None),
    "fill": ("實/酌", 3.0, "stand", None),
    "offer": ("獻/酬/酢", 2.0, "stand", None),
    "receive": ("受", 2.0, "stand", None),
    "hand": ("授", 2.0, "stand", None),
    "taste": ("祭/嚌/啐", 4.0, "sit", "sit"),
    "drink": ("飲/卒爵/卒觶", 3.0, "stand", None),
    "take": ("取/執/奉", 1.5, "stand", None),
    "set_down": ("奠/設/委/加", 1.5, "stand", None),
    "lean": ("倚", 1.5, "stand", None),
    "tie": ("繫", 4.0, "stand", None),
    "untie": ("說/釋", 3.0, "stand", None),
    "raise_flag": ("舉旌", 1.0, "stand", None),
    "lower_flag": ("偃旌", 1.0, "sit", "sit"),
    "call": ("獲/許諾", 1.5, "stand", None),
    "lay_counter": ("釋獲", 1.5, "sit", "sit"),
    "count": ("數獲/視筭", 20.0, "sit", None),
    "tell_count": ("取賢獲執以升…告于賓", 0.0, "stand", None, True),
    "count_arrows": ("乘矢", 8.0, "sit", None),
    "announce": ("告", 3.0, "stand", None),
    "play": ("奏/歌/合樂", 30.0, "sit", None),
    # macros: the engine expands these into many timed moves (see assets/rite/README.md)
    "approach": ("當階…及物 (a pair goes up to the 物)", 0.0, "stand", "stand", True),
    "shoot": ("射 / 拾發 (a pair's eight arrows, or one archer's four)", 0.0, "shoot", "stand"),
    "retire": ("降…相左交于階前…由司馬之南適堂西", 0.0, "stand", "stand", True),
    "collect_arrows": ("取矢…委于楅", 0.0, "stand", "stand", True),
    "pick_arrows": ("拾取矢", 0.0, "stand", "stand", True),
    "forfeit": ("飲不勝者", 0.0, "stand", "stand", True),
    "put_away": ("(射器) 退…俟堂西: the 有司 lays by the bows and arrows handed him", 0.0, "stand", "stand", True),
    "relay": ("旅酬 (一觶旅而辯: 酬者飲, 實之, 授受酬者)", 0.0, "stand", "stand", True),
}
VERBS: dict[str, Verb] = {v_id: Verb(*spec) for v_id, spec in _VERB_TABLE.items()}

_REF = re.compile(r"^(?:actor:(?P<actor>[a-z0-9_]+)|(?P<place>[a-z_]+\.[a-z0-9_]+)(?:#(?P<slot>\d+))?)"
                  r"(?:@(?P<dir>東北|東南|西北|西南|東|西|南|北)(?P<dist>\d+(?:\.\d+)?)?"
                  r"(?:(?P<dir2>東|西|南|北)(?P<dist2>\d+(?:\.\d+)?))?)?$")
DIRECTIONS: dict[str, tuple[float, float]] = {
    "東": (1, 0), "西": (-1, 0), "南": (0, -1), "北": (0, 1),
    "東北": (0.7071, 0.7071), "東南": (0.7071, -0.7071), "西北": (-0.7071, 0.7071), "西南": (-0.7071, -0.7071),
}


@dataclass(frozen=True)
class PlaceRef:
    """A parsed place reference (see the module docstring)."""

    text: str
    place: str | None = None
    slot: int | None = None
    actor: str | None = None
    direction: str | None = None
    dist: float = 3.0
    #: a second offset at right angles (@東2南4: 2 尺 east and 4 south of it), for a spot beside a thing
    direction2: str | None = None
    dist2: float = 0.0


def parse_ref(text: str) -> PlaceRef:
    m = _REF.match(text)
    if not m:
        raise ValueError(f"bad place reference {text!r} (expected id, id#slot, actor:id, optionally @方向尺 or @方向尺方向尺)")
    return PlaceRef(text, m["place"], None if m["slot"] is None else int(m["slot"]), m["actor"],
                    m["dir"], float(m["dist"]) if m["dist"] else 3.0,
                    m["dir2"], float(m["dist2"]) if m["dist2"] else 0.0)


@dataclass(frozen=True)
class Actor:
    id: str
    name: str
    role: str
    start: str            # place ref, or "offstage"
    colour: str
    mark: str             # what a renderer shows to tell roles apart (headwear / sash)
    stairs: str = "west"  # the stairs this person uses: 賓 and guests 西階, 主人 阼階
    archer: bool = False
    optional: str | None = None   # a reading switch that must be on for this actor (dafu_present)


@dataclass(frozen=True)
class Thing:
    """A movable object (器): 爵, 觶, 旌, 楅, 中, 扑, 豐, 瑟, 俎 …"""

    id: str
    name: str
    start: str            # place ref or "offstage" or "actor:<id>"
    kind: str = "thing"


@dataclass(frozen=True)
class Step:
    phrase: str
    who: tuple[str, ...]
    do: str
    at: PlaceRef | None = None
    facing: str | None = None
    obj: str | None = None
    to: str | None = None
    by: str | None = None
    via: tuple[PlaceRef, ...] = ()
    dur: float | None = None
    with_prev: bool = False
    role: str | None = None
    round: int | None = None
    note: str = ""
    offset: int = 0       # where the phrase starts in the passage
    when: str | None = None   # a reading switch (WHEN) that must be on
    delay: float = 0.0        # seconds after the step would otherwise start (with_prev: 不俱升)
    kneel: bool = False       # the act is done kneeling (坐奠爵, 坐取, 坐卒爵 …): kneel first
    rise: bool = False        # … and rise after it (坐X…興)
    #: what the data says of its own evidence, aspect → (status, source); see EVIDENCE_ASPECTS
    evidence: tuple[tuple[str, str, str], ...] = ()
    #: 如初 / 如之: the words of an earlier section that the phrase repeats, (section, words) — the checker
    #: reads them as part of the phrase (釋獲者執餘獲升…如初 is §30's 升自西階盡階不升堂)
    as_before: tuple[int, str] | None = None
    #: 耦少退 (§29, 鄭 耦於庭不並行尊大夫): the one of a pair who keeps a little behind the other in the court
    behind: str | None = None
    #: set_down / lean: where the thing is put, when it is not where he stands (奠爵于薦西 from his seat on the
    #: mat): a place ref within reach (4 尺) of where the step leaves him
    put: PlaceRef | None = None
    #: the one of ``who`` who acts, known only from the simulated count: "youngest_winner" (§33 勝者之弟子, 鄭 其少者
    #: 也) — who lists the candidates eldest first, and the step is played by the last of them on the winning side
    #: of the round last counted (on a tie, the last of them); a slot in ``at`` moves with his place in the list
    #: (pos.shooters#0 for the first candidate is #k for the k-th), as for any step of several people
    pick: str | None = None
    #: 如賓禮 / 如初 as data: the model step this one is expanded from (:mod:`scene.rite.reuse`, ``like``)
    like: Basis | None = None


@dataclass(frozen=True)
class Section:
    n: int
    id: str
    title: str
    phase: str
    cast: tuple[str, ...]
    steps: tuple[Step, ...]
    source_file: str = ""
    #: a section the text tells out of its time (chapter 4 §24 既一人舉觶乃入, told after §23): the section it is
    #: played right after (``played = "after §10"``) and the reading switch under which it is (``played_when``,
    #: one of WHEN; None: always).  It keeps its number: its steps cite its own 經 and the checker holds them to it
    played_after: int | None = None
    played_when: str | None = None


@dataclass(frozen=True)
class Choreography:
    actors: dict[str, Actor]
    things: dict[str, Thing]
    sections: tuple[Section, ...]
    #: the chapter whose 經 the steps act (None: chapter 5, the default)
    chapter: Chapter | None = None
    #: who the text's names mean (the cast file's ``[groups]`` and ``[names]``): a name → actor ids
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the names a 皆 is checked for (the cast file's ``every``)
    every: tuple[str, ...] = ()

    def passage(self, n: int) -> Passage:
        """Section ``n`` of this choreography's chapter's 經 (what its steps cite verbatim)."""
        return passage(n, chapter=self.chapter)

    def section(self, key: int | str) -> Section:
        for s in self.sections:
            if s.n == key or s.id == key or str(s.n) == str(key):
                return s
        raise ValueError(f"unknown stage {key!r} (stages are 1–{len(self.sections)} or their ids)")


#: the single arrow the 司射 carries after the 誘射 (改取一个挾之, 猶挾一个): one named arrow, not of his four
SISHE_ONE = "arrow.sishe.5"
ROUND_VERBS = {"shoot", "count", "tell_count", "forfeit"}
PAIR_VERBS = {"approach", "shoot", "retire", "pick_arrows"}
_STEP_KEYS = {"phrase", "who", "do", "at", "facing", "obj", "to", "by", "via", "dur", "with_prev", "role", "as_before",
              "behind", "round", "note", "when", "delay", "kneel", "rise", "evidence", "put", "pick"}
#: who of a step's candidates acts it, read from the simulated count (``pick``)
PICKS = {"youngest_winner"}


def _check_facing(facing: Any, where: str) -> None:
    if facing is None:
        return
    if not isinstance(facing, str) or not (facing in FACING_DEG or facing.startswith("toward:")):
        raise ChoreographyError(f"{where}: facing {facing!r} is not one of {', '.join(FACING_DEG)} or toward:<place>")
    if facing.startswith("toward:"):
        parse_ref(facing[len("toward:"):])


def _step(raw: dict[str, Any], sec_n: int, text: str, where: str, actors: dict[str, Actor],
          things: dict[str, Thing], after: int = 0, chapter: Chapter | None = None) -> Step:
    unknown = set(raw) - _STEP_KEYS
    if unknown:
        raise ChoreographyError(f"{where}: unknown key(s) {sorted(unknown)}")
    for key in ("phrase", "who", "do"):
        if key not in raw:
            raise ChoreographyError(f"{where}: missing '{key}'")
    phrase = raw["phrase"]
    # a formula the passage repeats (壹揖壹讓升, 如初) is the occurrence at or after the previous step's
    offset = -1
    if isinstance(phrase, str) and phrase:
        offset = text.find(phrase, after)
        if offset < 0:
            offset = text.find(phrase)
    if offset < 0:
        raise ChoreographyError(f"{where}: phrase {phrase!r} does not occur in the 經 of §{sec_n}")
    who = (raw["who"],) if isinstance(raw["who"], str) else tuple(raw["who"])
    for a in who:
        if a not in actors:
            raise ChoreographyError(f"{where}: unknown actor {a!r}")
    if raw["do"] not in VERBS:
        raise ChoreographyError(f"{where}: unknown verb {raw['do']!r} (verbs: {', '.join(VERBS)})")
    try:
        at = parse_ref(raw["at"]) if "at" in raw else None
        via = tuple(parse_ref(v) for v in raw.get("via", ()))
        put = parse_ref(raw["put"]) if "put" in raw else None
    except ValueError as exc:
        raise ChoreographyError(f"{where}: {exc}") from None
    for ref in (at, *via):
        if ref is not None and ref.actor is not None and ref.actor not in actors:
            raise ChoreographyError(f"{where}: unknown actor {ref.actor!r} in place reference")
    _check_facing(raw.get("facing"), where)
    obj = raw.get("obj")
    owned = re.fullmatch(r"(bow|arrows)(?:\.([a-z0-9_]+))?", obj or "")
    counters = re.fullmatch(r"counters\.(zhong|hand|right|left|spare)", obj or "")
    one = obj == SISHE_ONE
    if obj is not None and obj not in things and not owned and not counters and not one:
        raise ChoreographyError(f"{where}: unknown object {obj!r}")
    if owned and owned[2] is not None and owned[2] not in actors:
        raise ChoreographyError(f"{where}: unknown actor {owned[2]!r} in object {obj!r}")
    to = raw.get("to")
    if to is not None and to not in actors:
        raise ChoreographyError(f"{where}: unknown actor {to!r} in 'to'")
    by = raw.get("by")
    if raw["do"] in ROUND_VERBS and raw.get("round") not in (0, 1, 2, 3):
        raise ChoreographyError(f"{where}: {raw['do']} needs round = 0 (誘射), 1, 2 or 3")
    if raw["do"] in PAIR_VERBS and len(who) not in (1, 2):
        raise ChoreographyError(f"{where}: {raw['do']} needs who = [上射, 下射] (or one archer)")
    dur = raw.get("dur")
    when = _when(raw.get("when"), where, chapter)
    delay = raw.get("delay", 0.0)
    if raw.get("rise") and not raw.get("kneel") and raw["do"] != "rise":
        raise ChoreographyError(f"{where}: rise = true needs kneel = true (坐X…興)")
    if put is not None and (raw["do"] not in ("set_down", "lean") or raw.get("obj") is None):
        raise ChoreographyError(f"{where}: put (where the thing goes) is for set_down / lean with an obj")
    pick = raw.get("pick")
    if pick is not None and (pick not in PICKS or len(who) < 2):
        raise ChoreographyError(f"{where}: pick must be one of {sorted(PICKS)}, with who = the candidates")
    behind = raw.get("behind")
    if behind is not None and (raw["do"] != "approach" or len(who) != 2 or behind not in who):
        raise ChoreographyError(f"{where}: behind (耦少退) must name one of the pair of an approach")
    return Step(phrase, who, raw["do"], at, raw.get("facing"), obj, to, by, via,
                None if dur is None else float(dur), bool(raw.get("with_prev", False)), raw.get("role"),
                raw.get("round"), raw.get("note", ""), offset, when, float(delay),
                bool(raw.get("kneel", False)), bool(raw.get("rise", False)), _evidence(raw.get("evidence"), where),
                _as_before(raw.get("as_before"), sec_n, where, chapter), behind, put, pick)


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ChoreographyError(f"{path.name}: not valid TOML ({exc})") from None


def data_of(ch: Chapter | str | None = None) -> tuple[Chapter, Path, Path]:
    """A chapter's cast file and rite folder; a chapter without them is one line naming what it lacks."""
    try:
        c = resolve_chapter(ch)
    except ChapterError as exc:
        raise ChoreographyError(str(exc)) from None
    lacks = [key for key in ("rite", "cast") if getattr(c, key) is None]
    if lacks:
        raise ChoreographyError(f"chapter {c.id} ({c.title}) has no rite yet "
                                f"(no [data] {' or '.join(lacks)} in {source_path(c.folder / 'chapter.toml')})")
    assert c.cast is not None and c.rite is not None
    return c, c.cast, c.rite


def source_path(p: Path) -> str:
    """A path as a user reads it: relative to the checkout (or the package) when it is inside it."""
    from ..paths import ROOT
    return p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(p)


def load(source: Chapter | Path | str | None = None) -> Choreography:
    """Load and check a chapter's cast and all its sections: ``source`` a :class:`~scene.chapter.Chapter`, a
    chapter's id, None (chapter 5) — or a folder holding ``cast.toml`` and ``rite/`` that acts chapter 5's
    經 (a test's edited copy of the data)."""
    if isinstance(source, Path) or (isinstance(source, str) and ("/" in source or "\\" in source)):
        ch, cast_file, rite_dir = resolve_chapter(None), Path(source) / "cast.toml", Path(source) / "rite"
    else:
        ch, cast_file, rite_dir = data_of(source)
    actors, things, named, every = load_cast(cast_file)
    from ..validation import convert

    sections: list[Section] = []
    from ..validation import RiteFile
    models = _models(ch, rite_dir, actors)
    for path in sorted(rite_dir.glob("*.toml")):
        data = _load_toml(path)
        convert(data, RiteFile, path.name, error=ChoreographyError, sections=ch.sections)   # types, ranges, finite numbers first
        for raw in data.get("section", []):
            n = raw["n"]
            where = f"{path.name} §{n}"
            p = passage(n, chapter=ch)
            if raw["title"] != p.title:
                raise ChoreographyError(f"{where}: title {raw['title']!r} is not the passage's {p.title!r}")
            if raw["phase"] not in PHASES:
                raise ChoreographyError(f"{where}: phase {raw['phase']!r} not in {list(PHASES)}")
            for a in raw.get("cast", []):
                if a not in actors:
                    raise ChoreographyError(f"{where}: unknown actor {a!r} in cast")
            steps: list[Step] = []
            cursor = 0          # where in the passage the next phrase is looked for
            for s, basis, told in models.steps(n):          # a run that reuses a model's steps, expanded
                steps.append(_step(s, n, p.text, f"{where} {told}", actors, things, cursor, ch))
                if basis is not None:
                    steps[-1] = replace(steps[-1], as_before=(basis.section, basis.words), like=basis)
                # a step acted alongside the one before may cite words further on (司射進與司馬交于階前 while
                # the 司馬 goes back): it does not move the reading past the words in between
                if not (steps[-1].with_prev and steps[-1].offset > cursor):
                    cursor = steps[-1].offset
            sections.append(Section(n, raw["id"], raw["title"], raw["phase"], tuple(raw.get("cast", [])),
                                    tuple(steps), path.name, *_played(raw, n, where)))
    numbers = [s.n for s in sections]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ChoreographyError(f"rite: sections must run 1, 2, 3 … in file order; got {numbers}")
    ids = [s.id for s in sections]
    if len(set(ids)) != len(ids):
        raise ChoreographyError("rite: duplicate section ids")
    for s in sections:
        if s.played_after is not None and sections[s.played_after - 1].played_after is not None:
            raise ChoreographyError(f"{s.source_file} §{s.n}: played after §{s.played_after}, itself played elsewhere")
    return Choreography(actors, things, tuple(sections), ch, named["groups"], named["names"], every)


def _models(ch: Chapter, rite_dir: Path, actors: dict[str, Actor]) -> Any:
    """The chapter's sections as :mod:`scene.rite.reuse` reads them (the layout says which places face)."""
    from ..geometry.layout import build_layout
    from .reuse import Models

    def facing(pid: str) -> str | None:
        lay = build_layout(None, ch)
        return (lay[pid].facing or "") if pid in lay else None
    return Models(ch, rite_dir, actors, facing)


def cast_of(ch: Chapter | str | None = None) -> tuple[dict[str, Actor], dict[str, Thing]]:
    """A chapter's actors and objects, its cast file checked by :func:`load_cast` (a chapter with a cast and no
    rite yet: chapter 4); a chapter without a cast is one line."""
    try:
        c = resolve_chapter(ch)
    except ChapterError as exc:
        raise ChoreographyError(str(exc)) from None
    if c.cast is None:
        raise ChoreographyError(f"chapter {c.id} ({c.title}) has no cast yet "
                                f"(no [data] cast in {source_path(c.folder / 'chapter.toml')})")
    actors, things, _, _ = load_cast(c.cast)
    return actors, things


def load_cast(cast_file: Path) -> tuple[dict[str, Actor], dict[str, Thing], dict[str, dict[str, tuple[str, ...]]],
                                        tuple[str, ...]]:
    """A chapter's cast file, checked (types and ranges, then the fields, duplicates and the actors its names
    name): its actors, its objects, its ``groups`` and ``names`` (→ actor ids) and its ``every``.  The same
    code for every chapter: :func:`load` reads a chapter's cast through it, and a chapter whose rite is not
    written yet has its cast checked by it alone."""
    cast = _load_toml(cast_file)
    from ..validation import Cast, convert  # types and values first: archer = "yes" is one line, not True
    convert(cast, Cast, "cast.toml", error=ChoreographyError)
    actors: dict[str, Actor] = {}
    for raw in cast.get("actor", []):
        try:
            a = Actor(**raw)
        except TypeError as exc:
            raise ChoreographyError(f"cast.toml: actor {raw.get('id')!r}: {exc}") from None
        if a.id in actors:
            raise ChoreographyError(f"cast.toml: duplicate actor {a.id!r}")
        actors[a.id] = a
    things: dict[str, Thing] = {}
    for raw in cast.get("object", []):
        try:
            t = Thing(**raw)
        except TypeError as exc:
            raise ChoreographyError(f"cast.toml: object {raw.get('id')!r}: {exc}") from None
        things[t.id] = t
    named: dict[str, dict[str, tuple[str, ...]]] = {"groups": {}, "names": {}}
    for table, rows in named.items():
        for word, ids in cast.get(table, {}).items():
            bad = [a for a in ids if a not in actors]
            if bad:
                raise ChoreographyError(f"cast.toml: {table}.{word}: unknown actor {bad[0]!r}")
            rows[word] = tuple(ids)
    return actors, things, named, tuple(cast.get("every", ()))


@lru_cache(maxsize=1)
def default() -> Choreography:
    """Chapter 5's choreography (read once)."""
    return load(None)
