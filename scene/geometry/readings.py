"""Readings (讀法): complete, named sets of interpretive choices.

No ancient text fixes every number the reconstruction needs; where scholars
differ, or where no number was ever written down, a *reading* says which value
we take and on what basis.  Every field of :class:`Reading` is listed in
:data:`FIELDS` with its allowed values and the source of each option, so a
reading can be checked, printed and loaded from TOML with one-line errors.
"""
from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any


class ReadingError(ValueError):
    """A reading name, file, key or value that cannot be used (one line)."""


@dataclass(frozen=True)
class Field:
    """One interpretive choice: its allowed values and the basis of each."""

    key: str
    label: str
    kind: type
    options: dict[Any, str]      # value -> source / basis (for choice fields)
    open_range: tuple[float, float] | None = None  # for free numbers: (min, max)
    basis: str = ""              # for free numbers: the stated basis of the default

    def check(self, value: Any, where: str) -> Any:
        if self.kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ReadingError(f"{where}: key '{self.key}' must be a number, got {value!r}")
            value = float(value)
            if self.options and value not in self.options and self.open_range is None:
                allowed = ", ".join(f"{v:g}" for v in self.options)
                raise ReadingError(f"{where}: key '{self.key}' = {value:g} is not allowed (allowed: {allowed})")
            if self.open_range is not None:
                lo, hi = self.open_range
                if not lo <= value <= hi:
                    raise ReadingError(
                        f"{where}: key '{self.key}' = {value:g} is out of range (allowed: {lo:g} to {hi:g})")
            return value
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ReadingError(f"{where}: key '{self.key}' must be true or false, got {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ReadingError(f"{where}: key '{self.key}' must be an integer, got {value!r}")
            if self.open_range is not None and not self.open_range[0] <= value <= self.open_range[1]:
                lo, hi = self.open_range
                raise ReadingError(f"{where}: key '{self.key}' = {value} is out of range (allowed: {lo} to {hi})")
            return value
        if value not in self.options:
            allowed = ", ".join(str(v) for v in self.options)
            raise ReadingError(f"{where}: key '{self.key}' = {value!r} is not allowed (allowed: {allowed})")
        return value

    def source_of(self, value: Any) -> str:
        return self.options.get(value, self.basis)


_F = Field
#: Every choice a reading makes, in display order.
FIELDS: tuple[Field, ...] = (
    _F("chi_m", "周尺 length (m)", float, {
        0.231: "洛陽金村 bronze ruler 23.1 cm; agrees with 商鞅方升 and Qin–Han 尺",
        0.1991: "吳承洛《中國度量衡史》(1937) value for 周 (cited second-hand)",
        0.1848: "周尺 = 8 寸 of 23.1 cm (說文 咫 '周尺也'; 蔡邕《獨斷》 '周八寸為尺'; 鄭 王制注)",
    }, open_range=(0.10, 0.40), basis="user-supplied metric value of the 周尺"),
    _F("bu_chi", "步 (尺)", float, {
        6.0: "鄭 on §2 侯道五十步…西三丈; 司馬法 '步六尺'; 大射 鄭注 貍步六尺",
        8.0: "禮記·王制 '古者以周尺八尺為步'",
    }),
    _F("ren_chi", "仞 (尺)", float, {
        7.0: "鄭 on 記32 '七尺曰仞' (包咸, 高誘)",
        8.0: "說文 '伸臂一尋，八尺' (王肅, 趙岐)",
        5.6: "應劭, quoted by 顏師古《漢書》注",
        4.0: "小爾雅·廣度 '四尺謂之仞'",
    }),
    _F("wu_chi", "武 (尺)", float, {
        1.2: "鄭 on §2 '武迹也，中人之迹尺二寸'",
        3.0: "韋昭《國語》注 '半步為武'",
    }),
    _F("building", "building", str, {
        "序": "州長's rite in the 州學 序, no 室 (鄭 §2 '此射於序'; §20 '凡屋無室曰榭')",
        "庠": "鄉大夫's rite in the 鄉學 庠, '有堂有室' (鄭 §20)",
    }),
    _F("houdao_from", "侯道 measured from", str, {
        "堂廉": "鄭 大射注 '量侯道謂去堂遠近也'; 李如圭 '鄉射之侯去堂三十丈'",
        "物": "from the shooting station 物 (not stated by any source; an alternative)",
    }),
    _F("fa_west_from", "乏 west offset from", str, {
        "侯道": "賈疏 '據侯之正北落西有五步' — from the 侯道 axis",
        "左个": "from the 侯's west end (左个) — an alternative reading of 西五步",
    }),
    _F("rong_gong", "容弓 (物 spacing)", str, {
        "centre": "鄭 on 記27 '上下射相去六尺也', taken centre to centre",
        "gap": "6 尺 taken as the clear gap between the two 物 cross strokes",
    }),
    _F("rank", "堂高 by rank", str, {
        "士": "賈疏 '士宜三尺故階三等'; 禮器 '士三尺'; 賈 §1 州長 '以士為之' — 3 尺, 3 steps",
        "大夫": "賈疏 '大夫宜五尺階五等'; 禮器 '大夫五尺' — 5 尺, 5 steps",
    }),
    _F("target_face", "target face", str, {
        "采侯二正": "鄭 on 記25 '鄉射及賓射當張采侯二正'",
        "獸侯": "記25 '士布侯，畫以鹿豕'",
    }),
    _F("dafu_present", "大夫 (遵者) present", bool, {
        True: "經 §10 '大夫若有遵者' — present",
        False: "經 §10 '若有' — absent",
    }),
    _F("hall_width_chi", "榮 to 榮 (尺)", float, {}, open_range=(40.0, 300.0),
       basis="尚書大傳 多士傳 (via 李如圭) '士三雉' with 鄭 '廣，榮間相去也；雉長三丈' → 90 尺"),
    _F("inner_ratio", "序間 / 榮間", float, {}, open_range=(0.3, 1.0),
       basis="尚書大傳 '三分廣以二為內' with 鄭 '內，堂東西序之內也' → 2/3"),
    _F("east_west_tang_chi", "東堂/西堂 beyond each 序 (尺)", float, {}, open_range=(0.0, 40.0),
       basis="assumption: the platform runs 10 尺 past each 序 (李如圭: with no 夾, 序以外 is 東堂/西堂); "
             "the roof's 榮 overhang the rest"),
    _F("house_depth_chi", "five-架 house depth (尺)", float, {}, open_range=(20.0, 200.0),
       basis="assumption: 考工記·匠人 夏世室 '廣四脩一' (廣 = 5/4 脩) applied to the 60-尺 序間 → 48 尺"),
    _F("eave_height_chi", "eaves above the 堂 floor (尺)", float, {}, open_range=(6.0, 30.0),
       basis="assumption: 9 尺; the roof then rises 穹高 (尚書大傳 '五分內以一為高' → 12 尺) to the 棟"),
    _F("ying_bays", "bays between the 序 (間)", int, {}, open_range=(3, 5),
       basis="assumption: three bays between the 序, the two 楹 at the inner bay lines (李如圭 '堂上有兩楹而已')"),
    _F("stair_width_chi", "stair width (尺)", float, {}, open_range=(2.0, 20.0),
       basis="assumption: 6 尺, wide enough for one person (no source gives it)"),
    _F("tread_chi", "stair tread depth (尺)", float, {}, open_range=(0.5, 3.0),
       basis="assumption: 1 尺 tread, so a 等 is as deep as it is high"),
    _F("court_width_chi", "庭 width (尺)", float, {}, open_range=(60.0, 400.0),
       basis="assumption: 120 尺 — room for the 堂 (90 尺 between 榮) and walks at 堂東/堂西"),
    _F("behind_hou_chi", "庭 south of the 侯 (尺)", float, {}, open_range=(10.0, 200.0),
       basis="assumption: 30 尺 (one 雉) between the 侯 and the 門 (李如圭: 堂下至門謂之庭; no number)"),
    _F("gate_width_chi", "門 width (尺)", float, {}, open_range=(4.0, 30.0),
       basis="assumption: 10 尺 (匠人 天子廟門 21 尺; 賈 士昏 士門 '阨狹')"),
    _F("seed", "shooting seed", int, {}, open_range=(0, 2**31 - 1),
       basis="the random seed of the simulated shooting"),
)
FIELD_BY_KEY = {f.key: f for f in FIELDS}


@dataclass(frozen=True)
class Reading:
    """A complete set of interpretive choices. Lengths are in 周尺 unless named ``_m``."""

    name: str = "zheng"
    title: str = "鄭玄 default: 州序, 周尺 23.1 cm"
    chi_m: float = 0.231
    bu_chi: float = 6.0
    ren_chi: float = 7.0
    wu_chi: float = 1.2
    building: str = "序"
    houdao_from: str = "堂廉"
    fa_west_from: str = "侯道"
    rong_gong: str = "centre"
    rank: str = "士"
    target_face: str = "采侯二正"
    dafu_present: bool = True
    hall_width_chi: float = 90.0
    inner_ratio: float = 2.0 / 3.0
    east_west_tang_chi: float = 10.0
    house_depth_chi: float = 48.0
    eave_height_chi: float = 9.0
    ying_bays: int = 3
    stair_width_chi: float = 6.0
    tread_chi: float = 1.0
    court_width_chi: float = 120.0
    behind_hou_chi: float = 30.0
    gate_width_chi: float = 10.0
    seed: int = 1
    #: the chapter's own choices, (key, value) in its manifest's order (:mod:`.reading_picks`): none in chapter 5
    picks: tuple[tuple[str, str], ...] = ()

    # --- units under this reading -------------------------------------
    @property
    def unit_chi(self) -> dict[str, float]:
        """Length of each classical unit in 尺 under this reading."""
        return {
            "寸": 0.1, "尺": 1.0, "丈": 10.0, "尋": 8.0, "仞": self.ren_chi,
            "弓": 6.0, "步": self.bu_chi, "跬": self.bu_chi / 2.0, "武": self.wu_chi,
            "笴": 3.0, "握": 0.4, "雉": 30.0, "筵": 9.0, "咫": 0.8,
        }

    @property
    def hall_height_chi(self) -> float:
        """堂高: 3 尺 for a 士, 5 for a 大夫 (賈疏, 禮器)."""
        return 3.0 if self.rank == "士" else 5.0

    @property
    def steps(self) -> int:
        """等: one step per 尺 of 堂高 (賈疏 '士宜三尺故階三等')."""
        return 3 if self.rank == "士" else 5

    def m(self, chi: float) -> float:
        """尺 → metres under this reading."""
        return chi * self.chi_m

    def source(self, key: str) -> str:
        """The stated basis of this reading's value for ``key``."""
        return FIELD_BY_KEY[key].source_of(getattr(self, key))

    def choices(self) -> list[dict[str, Any]]:
        """Every choice with its value and source, for display and JSON; a chapter's own last (with its id)."""
        from .reading_picks import rows
        return [{"key": f.key, "label": f.label, "value": getattr(self, f.key),
                 "source": self.source(f.key)} for f in FIELDS] + rows(self)

    def pick(self, key: str) -> str | None:
        """The value of a chapter's choice under this reading (its default when the reading names none)."""
        from .reading_picks import value
        return value(self, key)

    def replace(self, **changes: Any) -> Reading:
        from . import reading_picks
        picks: dict[str, str] = {}
        for key, value in list(changes.items()):
            if key in ("name", "title", "picks"):
                continue
            if key not in FIELD_BY_KEY:
                if reading_picks.choice(key) is None:
                    raise ReadingError(f"reading: unknown key '{key}' (known: {', '.join(FIELD_BY_KEY)})")
                picks[key] = reading_picks.check(key, changes.pop(key), "reading")
                continue
            changes[key] = FIELD_BY_KEY[key].check(value, "reading")
        if picks:
            changes["picks"] = reading_picks.merged(changes.get("picks", self.picks), picks)
        return dataclasses.replace(self, **changes)


DEFAULT = Reading()

#: Built-in presets, by name.
PRESETS: dict[str, Reading] = {
    r.name: r for r in (
        DEFAULT,
        DEFAULT.replace(name="xiang", title="鄉大夫's rite in the 鄉學 庠 (有室; 物當楣; 大夫 堂 5 尺)",
                        building="庠", rank="大夫"),
        DEFAULT.replace(name="wu1991", title="鄭玄 default with the 19.91-cm 周尺 (吳承洛)", chi_m=0.1991),
        DEFAULT.replace(name="zhou8cun", title="周尺 = 8 寸 (≈18.48 cm): 說文 咫, 蔡邕", chi_m=0.1848),
        DEFAULT.replace(name="wangzhi", title="王制 步 = 8 尺, 說文 仞 = 8 尺, 韋昭 武 = 3 尺",
                        bu_chi=8.0, ren_chi=8.0, wu_chi=3.0),
    )
}


#: the most a reading file may weigh (a reading is a dozen keys)
MAX_TOML_BYTES = 64 * 1024


def shorten(text: str, limit: int = 80) -> str:
    """Input echoed in an error line: shortened and escaped (no raw control characters)."""
    text = str(text)
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def safe_name(name: str) -> str:
    """A reading's name as it may appear in a file name: letters, digits, CJK, ``_`` and ``-`` only."""
    out = re.sub(r"[^\w-]", "_", str(name), flags=re.UNICODE)[:40].strip("_") or "user"
    return out


@lru_cache(maxsize=1)
def reading_file_type() -> type[Any]:
    """The shape of a reading file for the validation layer (:mod:`scene.validation`), made from
    :data:`FIELDS`: every number finite and in its range (a free number in ``open_range``, a choice between its
    least and greatest option), a switch true or false, text for ``base``, ``name``, ``title`` and the word
    choices; an unknown key refused.  Which option of a choice is allowed is :meth:`Field.check`'s to say."""
    import msgspec

    from ..validation import Text, count, finite
    fields: list[tuple[str, Any, Any]] = [("base", Text, "zheng"), ("name", Text, ""), ("title", Text, "")]
    for f in FIELDS:
        t: Any
        if f.kind is float:
            lo, hi = f.open_range or (min(f.options), max(f.options))
            t = finite(lo, hi)
        elif f.kind is int:
            lo, hi = f.open_range or (min(f.options), max(f.options))
            t = count(int(lo), int(hi))
        elif f.kind is bool:
            t = bool
        else:
            t = Text
        fields.append((f.key, t, getattr(DEFAULT, f.key)))
    from .reading_picks import registry
    fields += [(key, Text, "") for key in registry()[0]]       # a chapter's choice: its value is checked below
    return msgspec.defstruct("ReadingFile", fields, forbid_unknown_fields=True)


def load_toml(path: str | Path) -> Reading:
    """Load a user reading from TOML: top-level keys are :data:`FIELDS` keys.

    Optional ``base`` names the preset it starts from (default ``zheng``).
    """
    from ..atomic import InputFileError, read_input
    path = Path(path)
    # the file named whole (an error line must say which file; 80 characters cut pytest's own tmp paths), only
    # escaped and bounded as a path the system can open is (PATH_MAX)
    where = shorten(str(path), 4096)
    if not path.exists() and not path.is_symlink():
        raise ReadingError(f"{where}: no such reading file")
    try:
        # the one reader of input files: a regular file (checked on the open file, opened without blocking:
        # a FIFO), at most the cap whatever its size said (/dev/zero behind a link)
        data = read_input(path, MAX_TOML_BYTES, "reading file")
        raw = tomllib.loads(data.decode("utf-8-sig"))
    except InputFileError as exc:
        raise ReadingError(f"{where}: {str(exc).rsplit(': ', 1)[-1]}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ReadingError(f"{where}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise ReadingError(f"{where}: not UTF-8 text") from None
    from ..validation import convert
    convert(raw, reading_file_type(), where, error=ReadingError)   # types, ranges, finite numbers: one line
    from . import reading_picks
    base_name = raw.pop("base", "zheng")
    base = PRESETS.get(base_name) or reading_picks.preset(base_name)
    if base is None:
        raise ReadingError(f"{where}: key 'base' = {base_name!r} is not a preset (allowed: {', '.join(preset_names())})")
    name = raw.pop("name", path.stem)
    title = raw.pop("title", f"user reading from {path.name}")
    if not isinstance(name, str) or not isinstance(title, str):
        raise ReadingError(f"{where}: keys 'name' and 'title' must be strings")
    name = safe_name(name)
    values: dict[str, Any] = {}
    picks: dict[str, str] = {}
    for key, value in raw.items():
        field = FIELD_BY_KEY.get(key)
        if field is None and reading_picks.choice(key) is not None:
            picks[key] = reading_picks.check(key, value, where)
            continue
        if field is None:
            raise ReadingError(f"{where}: unknown key '{key}' (known: base, name, title, {', '.join(FIELD_BY_KEY)})")
        values[key] = field.check(value, where)
    return dataclasses.replace(base, name=name, title=title, picks=reading_picks.merged(base.picks, picks), **values)


def preset_names() -> list[str]:
    """Every preset's name: the geometry's (:data:`PRESETS`), then the chapters' own."""
    from .reading_picks import names
    return list(PRESETS) + names()


def get(spec: str | Reading | None, chapter: Any = None) -> Reading:
    """The reading a name, a file or a value stands for.

    Parameters
    ----------
    spec : str or Reading or None
        A preset name (``"zheng"``, ``"xiang"`` …: ``python -m scene readings`` lists them), the path of a
        reading TOML file, a :class:`Reading` (returned as it is), or None for the default (``zheng``).

    chapter : Chapter or str, optional
        The chapter the reading is for: its choices filled in with their defaults, another chapter's choice
        refused (:func:`scene.geometry.reading_picks.for_chapter`).  None: the reading as it is written.

    Returns
    -------
    Reading

    Raises
    ------
    ReadingError
        An unknown name, a file that is not a reading (one line, naming what is wrong).
    """
    r = _get(spec)
    if chapter is None:
        return r
    from .reading_picks import for_chapter
    return for_chapter(r, chapter)


def _get(spec: str | Reading | None) -> Reading:
    from .reading_picks import preset
    if spec is None:
        return DEFAULT
    if isinstance(spec, Reading):
        return spec
    if spec in PRESETS:
        return PRESETS[spec]
    if isinstance(spec, str) and (named := preset(spec)) is not None:
        return named
    if not isinstance(spec, str) or not spec.strip():
        raise ReadingError(f"--reading {shorten(repr(spec))}: empty (presets: {', '.join(PRESETS)})")
    if len(spec) > 4096:
        raise ReadingError(f"reading {shorten(spec)}: {len(spec):,} characters is not a reading")
    try:
        is_path = spec.endswith(".toml") or Path(spec).exists()
    except (OSError, ValueError):
        is_path = False
    if is_path:
        return load_toml(spec)
    if "=" in spec or "," in spec:
        return from_query(spec)
    raise ReadingError(f"unknown reading {shorten(repr(spec))} (presets: {', '.join(preset_names())}; a path to a .toml file; "
                       f"or preset,key=value,…)")


#: the longest reading query (every key of a reading: ~400 characters). The parser echoes the whole query in
#: each error, so its work grows with the square of the length: capped here, in the one parser every entry
#: point goes through (the app's packs and exports, the still, the command line), before any work on it
MAX_QUERY = 1024


def from_query(text: str) -> Reading:
    """A reading from a URL's ``reading=`` value (and ``--reading``): a preset, then ``key=value`` changes.

    Parameters
    ----------
    text : str
        Comma-separated: ``xiang``, ``zheng,bu_chi=8,dafu_present=false``; without a preset, ``zheng``'s.

    Returns
    -------
    Reading

    Raises
    ------
    ReadingError
        An unknown preset or key, a value of the wrong kind, or a query longer than ``MAX_QUERY`` (one line).
    """
    if not isinstance(text, str):
        raise ReadingError("reading: not a reading's query")
    if len(text) > MAX_QUERY:
        raise ReadingError(f"reading={shorten(text[:60], 40)}: {len(text):,} characters is not a reading")
    from . import reading_picks
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    if not parts or "=" in parts[0]:
        parts.insert(0, "zheng")
    base = PRESETS.get(parts[0]) or reading_picks.preset(parts[0])
    if base is None:
        raise ReadingError(f"reading={shorten(repr(text))}: unknown preset {shorten(repr(parts[0]), 40)} "
                           f"(presets: {', '.join(preset_names())})")
    changes: dict[str, Any] = {}
    picks: dict[str, str] = {}
    for p in parts[1:]:
        key, sep, raw = p.partition("=")
        key = key.strip()
        field = FIELD_BY_KEY.get(key)
        if sep and field is None and reading_picks.choice(key) is not None:
            picks[key] = reading_picks.check(key, raw.strip(), f"reading={shorten(repr(text))}")
            continue
        if not sep or field is None:
            raise ReadingError(f"reading={shorten(repr(text))}: {shorten(repr(p), 40)} is not key=value with a known key "
                               f"(known: {', '.join(FIELD_BY_KEY)}, {', '.join(reading_picks.registry()[0])})")
        changes[key] = field.check(_query_value(field, raw.strip(), text), f"reading={shorten(repr(text))}")
    if not changes and not picks:
        return base
    return dataclasses.replace(base, title=f"{base.title} (changed: {', '.join([*changes, *picks])})",
                               picks=reading_picks.merged(base.picks, picks), **changes)


def _query_value(field: Field, raw: str, text: str) -> Any:
    try:
        if field.kind is bool:
            if raw.lower() not in ("true", "false", "1", "0"):
                raise ValueError
            return raw.lower() in ("true", "1")
        if field.kind is float:
            if len(raw) > 40 or not math.isfinite(float(raw)):
                raise ValueError
            return float(raw)
        if field.kind is int:
            return int(raw)
    except ValueError:
        raise ReadingError(f"reading={shorten(repr(text))}: {field.key}={shorten(repr(raw), 40)} is not a {field.kind.__name__}") from None
    return raw


def to_query(r: Reading) -> str:
    """The shortest ``reading=`` value that :func:`from_query` turns back into ``r`` (its choices)."""
    from .reading_picks import preset
    base = PRESETS.get(r.name) or preset(r.name) or min(PRESETS.values(), key=lambda p: sum(
        getattr(p, f.key) != getattr(r, f.key) for f in FIELDS))
    diff = [f for f in FIELDS if getattr(base, f.key) != getattr(r, f.key)]
    # a chapter's choice where it differs from the base's (its default when the base names none)
    picks = [(k, v) for k, v in r.picks if base.pick(k) != v]
    def fmt(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else f"{v:g}" if isinstance(v, float) else str(v)
    return ",".join([base.name] + [f"{f.key}={fmt(getattr(r, f.key))}" for f in diff] + [f"{k}={v}" for k, v in picks])
