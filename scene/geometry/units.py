"""Units (度): classical numerals and length expressions → 尺 → metres.

The 鄉射禮 states its distances in words: 侯道五十弓, 丈有六尺, 尺有握, 寸有半,
倍中, 參侯道居侯黨之一.  This module turns such expressions into 尺 under a
:class:`~scene.readings.Reading` (which fixes the disputed units: 步, 仞, 武 and
the metric 周尺) and keeps the arithmetic as a one-line derivation, so every
number in the scene can be traced back to its words.

Public API
----------
``parse_numeral(s)`` / ``to_numeral(n, you=False)``
    classical numerals 一…九 十 百 千 萬, with 有 between orders (十有二).
``Measure``
    one parsed length: text, 尺, metres, derivation, span, dimension word.
``parse_length(text, reading, refs)``
    one whole expression → ``Measure`` (``ValueError`` naming the character).
``find_measures(sentence, reading, refs)``
    every length expression in a passage, with its character span.
``convert(chi, reading)`` / ``format_derivation(expr, chi, reading)``
    尺 → metres, and the derivation line
    ``<expr> = <尺> 尺 = <m> m @ <周尺 m> m/尺``.

Pure standard library and deterministic.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .readings import DEFAULT, Reading
from .readings import get as _get_reading

__all__ = [
    "UNITS", "DIMENSIONS", "Measure", "parse_numeral", "to_numeral",
    "parse_length", "find_measures", "convert", "format_derivation",
]

# ---------------------------------------------------------------- numerals
_DIGITS = {"一": 1, "二": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZEROS = "〇零"
_ORDERS = {"十": 10, "百": 100, "千": 1000}
_WAN = "萬"
_YOU = "有"   # 'and' between orders: 十有二, 三十有六, 百有二十
_NUMERAL_CHARS = set(_DIGITS) | set(_ZEROS) | set(_ORDERS) | {_WAN}


def _fail(text: str, pos: int, expected: str) -> ValueError:
    """The one-line error every parser here raises: text, position, character, expectation."""
    where = f"'{text[pos]}'" if pos < len(text) else "end of input"
    return ValueError(f"cannot parse '{text}' at position {pos} ({where}): {expected}")


def _numeral(text: str, i: int, j: int) -> int:
    """Value of the numeral text[i:j]; errors are positioned in the whole ``text``."""
    if i >= j:
        raise _fail(text, i, "expected a numeral (一 … 九, 十 百 千 萬)")
    if j - i == 1 and text[i] in _ZEROS:
        return 0
    total, section, digit, last, prev = 0, 0, None, 10**9, None
    for k in range(i, j):
        c = text[k]
        if c in _DIGITS:
            if prev == "digit":
                raise _fail(text, k, "two digits in a row in a numeral (write 十二, not 一二)")
            digit, prev = _DIGITS[c], "digit"
        elif c in _ZEROS:
            # 零 marks a skipped order (百零五 = 105); it cannot open or close a numeral.
            if prev not in ("order", "wan"):
                raise _fail(text, k, "零 must follow an order (百零五)")
            prev = "zero"
        elif c in _ORDERS:
            m = _ORDERS[c]
            if m >= last:
                raise _fail(text, k, f"{c} cannot follow an equal or smaller order")
            # a leading 一 is omitted in classical usage: 十二, 百有二十, 千二百
            section += (1 if digit is None else digit) * m
            digit, last, prev = None, m, "order"
        elif c == _WAN:
            if total or prev in ("zero", "you"):
                raise _fail(text, k, "萬 must close the first group of a numeral")
            total = (section + (digit or 0) or 1) * 10000
            section, digit, last, prev = 0, None, 10**9, "wan"
        elif c == _YOU:
            if prev not in ("order", "wan"):
                raise _fail(text, k, "有 must join two orders (十有二)")
            prev = "you"
        else:
            raise _fail(text, k, "expected a numeral character (一 … 九, 十 百 千 萬, 有 between orders)")
    if prev in ("you", "zero"):
        raise _fail(text, j, f"a numeral cannot end with {text[j - 1]}")
    return total + section + (digit or 0)


def parse_numeral(s: str) -> int:
    """Classical numeral → int: 十 = 10, 十有二 = 12, 三十有六 = 36, 百有二十 = 120, 千二百 = 1200.

    Digits 一…九 (兩 = 2), orders 十 百 千 萬 with the leading 一 optional,
    有 ('and') optional between orders, 零/〇 for a skipped order (百零五) or alone
    for zero.  A digit after an order is read positionally: 百二 = 102.
    """
    return _numeral(s, 0, len(s))


_DIGIT_CHARS = "〇一二三四五六七八九"


def to_numeral(n: int, you: bool = False) -> str:
    """int 1–9999 → classical numeral: 12 → 十二, 1200 → 千二百 (leading 一 omitted).

    Skipped orders are written with 零 (1005 → 千零五).  ``you=True`` joins the
    orders with 有 instead, as the 儀禮 does: 12 → 十有二, 120 → 百有二十, 1005 → 千有五.
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 9999:
        raise ValueError(f"to_numeral: {n!r} is not an integer from 1 to 9999")
    out, gap = "", False
    for mult, char in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = n // mult % 10
        if d == 0:
            gap = bool(out)
            continue
        if out:
            out += _YOU if you else ("零" if gap else "")
        gap = False
        out += ("" if d == 1 and not out and mult > 1 else _DIGIT_CHARS[d]) + char
    return out


# ------------------------------------------------------------------ lengths
#: Length units, longest first (their values in 尺 come from ``Reading.unit_chi``).
UNITS = "雉丈筵尋仞步弓笴跬尺武咫握寸"
_UNIT_LIST = " ".join("寸 尺 丈 尋 仞 弓 步 跬 武 笴 握 雉 筵 咫".split())
#: Dimension words that may precede a length: recorded in ``Measure.dimension``.
DIMENSIONS = "長博廣厚高深"
# Characters before a bare unit that mark it as a length in a passage:
# 地 (§2 下綱不及地武: one 武 off the ground), 本 (記63 刊本尺: pare the base 尺).
_BARE_CUES = set(DIMENSIONS) | {"地", "本"}
# Factors of the relational forms: 倍 doubles, 參 divides into three (乏參侯道), 半 halves.
_FACTORS = {"倍": (2.0, "2"), "參": (1 / 3, "1/3"), "半": (0.5, "1/2")}
# Names of the 侯's parts that 記60–61 measure and then refer back to; a name
# before a length (侯道五十弓, 中十尺) or after 以為 (以為侯中) gets that length.
_PART_NAMES = ("左右舌", "侯道", "侯中", "上舌", "下舌", "上个", "下个", "中", "躬")
# Names of one thing: 侯中 is the 中; 記61 倍躬以為左右舌 is the 上舌 that 下舌半上舌
# halves, the 上个 of 記60 (上个五尋 = 40 尺 = 倍躬); 下个 is the 下舌 (鄭 on 記61).
_ALIASES = ({"中", "侯中"}, {"上舌", "左右舌", "上个"}, {"下舌", "下个"})


@dataclass(frozen=True)
class Measure:
    """One length expression and its value.

    ``text`` is ``source[span[0]:span[1]]``, without a leading dimension word
    (長 博 廣 厚 高 深), which is kept in ``dimension``.  ``chi`` is in 尺 of the
    reading, ``metres`` = ``chi`` × the reading's 周尺, ``derivation`` the
    arithmetic as one line (see :func:`format_derivation`).
    """

    text: str
    chi: float
    metres: float
    derivation: str
    span: tuple[int, int] = None  # type: ignore[assignment]  # default: (0, len(text))
    dimension: str = ""

    def __post_init__(self) -> None:
        if self.span is None:
            object.__setattr__(self, "span", (0, len(self.text)))


def _g(x: float) -> str:
    """Compact number: 300 not 300.0, 1.2 not 1.2000000000000002."""
    r = round(x, 6)
    if abs(r) >= 1e6 and r == int(r):      # 九千九百九十九萬…: every digit, not 1e+08
        return str(int(r))
    return f"{r:.15g}" if abs(r) >= 1e6 else f"{r:g}"


def convert(chi: float, reading: Reading = DEFAULT) -> float:
    """尺 → metres under ``reading`` (its 周尺 ``chi_m``)."""
    return _get_reading(reading).m(chi)


def format_derivation(expr: str, chi: float, reading: Reading = DEFAULT) -> str:
    """``<expr> = <chi> 尺 = <m> m @ <chi_m> m/尺``; the 尺 step is left out when
    ``expr`` already is it (``10 尺 = 2.31 m @ 0.231 m/尺``)."""
    reading = _get_reading(reading)
    total = f"{_g(chi)} 尺"
    head = expr if expr == total else f"{expr} = {total}"
    return f"{head} = {reading.m(chi):.2f} m @ {reading.chi_m:g} m/尺"


class _Stop(Exception):
    """A parse failure at a position; becomes a ValueError in strict mode."""

    def __init__(self, pos: int, expected: str):
        self.pos, self.expected = pos, expected


def _expand(refs: Mapping[str, float]) -> dict[str, float]:
    """Refs with each aliased name filled in from its group (中 ⇄ 侯中, …)."""
    out = dict(refs)
    for group in _ALIASES:
        known = [name for name in group if name in refs]
        for name in group:
            if known and name not in out:
                out[name] = refs[known[0]]
    return out


class _Parser:
    """Recursive descent over one text; ``parse(i)`` returns (end, chi, expr, terms)."""

    def __init__(self, text: str, reading: Reading, refs: Mapping[str, float]):
        self.text, self.reading, self.refs = text, reading, refs
        self.unit_chi = reading.unit_chi
        self.stop: _Stop | None = None  # why the expression could not go on (strict-mode message)

    def at(self, i: int) -> str:
        return self.text[i] if i < len(self.text) else ""

    # numerals -----------------------------------------------------------
    def numeral_end(self, i: int) -> int:
        """End of the numeral run at i (有 only between numeral characters)."""
        j = i
        while True:
            c = self.at(j)
            if c in _NUMERAL_CHARS and c:
                j += 1
            elif c == _YOU and j > i and self.at(j + 1) in _NUMERAL_CHARS and self.at(j + 1):
                j += 1
            else:
                return j

    def component(self, i: int, need_numeral: bool = False) -> tuple[int, float, str]:
        """``[numeral] unit`` at i → (end, count, unit); a bare unit counts one."""
        j = self.numeral_end(i)
        if j == i:
            if need_numeral or self.at(i) not in UNITS or not self.at(i):
                raise _Stop(i, f"expected a numeral or a unit ({_UNIT_LIST})")
            return i + 1, 1.0, self.at(i)
        try:
            count = _numeral(self.text, i, j)
        except ValueError as exc:
            raise _Stop(-1, str(exc)) from None
        if not self.at(j) or self.at(j) not in UNITS:
            raise _Stop(j, f"expected a unit ({_UNIT_LIST}) after the numeral {self.text[i:j]}")
        return j + 1, float(count), self.at(j)

    # compound quantities: 丈有六尺, 尺二寸, 尺有握, 寸有半 --------------------
    def quantity(self, i: int) -> tuple[int, list[list[Any]]]:
        j, count, unit = self.component(i)
        terms: list[list[Any]] = [[count, unit]]
        while True:
            c = self.at(j)
            try:
                if c == "半":                      # 尺半: and a half of the last unit
                    terms[-1][0] += 0.5
                    return j + 1, terms
                if c == _YOU and self.at(j + 1) == "半":   # 寸有半
                    terms[-1][0] += 0.5
                    return j + 2, terms
                if c == _YOU:                      # 丈有六尺, 尺有握 (bare unit = one)
                    k, count, unit = self.component(j + 1)
                elif c and c in _NUMERAL_CHARS:    # 尺二寸 (numeral required)
                    k, count, unit = self.component(j, need_numeral=True)
                else:
                    self.stop = _Stop(j, f"expected the end, 有 or a shorter unit after {terms[-1][1]}")
                    return j, terms
                if self.unit_chi[unit] >= self.unit_chi[terms[-1][1]]:
                    raise _Stop(k - 1, f"{unit} is not shorter than {terms[-1][1]}; "
                                       "a compound length goes from longer to shorter units")
            except _Stop as stop:
                self.stop = stop
                return j, terms
            terms.append([count, unit])
            j = k

    def terms_expr(self, terms: list[list[Any]]) -> tuple[float, str]:
        chi = sum(n * self.unit_chi[u] for n, u in terms)
        parts = [f"{_g(n)} 尺" if u == "尺" else f"{_g(n)} {u} × {_g(self.unit_chi[u])} 尺"
                 for n, u in terms]
        return chi, " + ".join(parts)

    def ref(self, i: int, what: str) -> tuple[int, str, float]:
        """The longest known reference name at i → (end, name, 尺)."""
        for name in sorted(self.refs, key=len, reverse=True):
            if name and self.text.startswith(name, i):
                return i + len(name), name, float(self.refs[name])
        rest = self.text[i:].split("居")[0] if what == "參" else self.text[i:]
        if not rest:
            raise _Stop(i, f"expected a unit or a reference after {what}")
        known = ", ".join(sorted(self.refs)) or "none"
        raise _Stop(i, f"no length given for reference '{rest}' "
                       f"(pass refs={{'{rest}': <尺>}}; known: {known})")

    # one expression ---------------------------------------------------
    def parse(self, i: int) -> tuple[int, float, str, list[list[Any]] | None]:
        c, nxt = self.at(i), self.at(i + 1)
        if not c:
            raise _Stop(i, "expected a length (numeral + unit, e.g. 五十弓)")
        if c in "如容":                                    # 長如笴 (1 笴), 其間容弓 (1 弓)
            j, terms = self.quantity(i + 1)
            chi, expr = self.terms_expr(terms)
            return j, chi, expr, terms
        if c in _FACTORS:                                  # 倍中, 參侯道, 半上舌, 倍尋
            factor, shown = _FACTORS[c]
            if nxt and (nxt in UNITS or nxt in _NUMERAL_CHARS):
                j, terms = self.quantity(i + 1)
                chi, expr = self.terms_expr(terms)
                expr = f"({expr})" if "+" in expr else expr
                return j, factor * chi, f"{shown} × {expr}", None
            j, name, value = self.ref(i + 1, c)
            if c == "參" and self.at(j) == "居":               # 參侯道居侯黨之一: one of three parts
                k = self.text.find("之一", j)
                if k < 0 or k - j > 6:
                    raise _Stop(j, "expected 居…之一 after 參 (參侯道居侯黨之一)")
                j = k + 2
            return j, factor * value, f"{shown} × {name} {_g(value)} 尺", None
        if c == "居":                                       # 居X之一 on its own: refs give parts
            k = self.text.find("之一", i)
            if k < 0 or k - i > 7:
                raise _Stop(i + 1, "expected 居…之一")
            name = self.text[i + 1:k]
            if name not in self.refs or "parts" not in self.refs:
                raise _Stop(i + 1, f"居{name}之一 is one part of a division: write it with its 參 "
                                   f"(參侯道居侯黨之一) or pass refs={{'{name}': <尺>, 'parts': <n>}}")
            parts, value = float(self.refs["parts"]), float(self.refs[name])
            return k + 2, value / parts, f"1/{_g(parts)} × {name} {_g(value)} 尺", None
        if c == "弓" and nxt in _NUMERAL_CHARS and nxt:         # 記61 弓二寸以為侯中: 寸 per 弓
            j = self.numeral_end(i + 1)
            if self.at(j) == "寸":
                return self.per_gong(i, j)
        j, terms = self.quantity(i)
        chi, expr = self.terms_expr(terms)
        return j, chi, expr, terms

    def per_gong(self, i: int, j: int) -> tuple[int, float, str, None]:
        """弓N寸: N 寸 of the 侯中 for every 弓 of the 侯道 (記61: 50 × 2 寸 = 10 尺)."""
        try:
            cun = _numeral(self.text, i + 1, j)
        except ValueError as exc:
            raise _Stop(-1, str(exc)) from None
        if "侯道弓" in self.refs:
            gong = float(self.refs["侯道弓"])
        elif "侯道" in self.refs:
            gong = float(self.refs["侯道"]) / self.unit_chi["弓"]
        else:
            raise _Stop(i, f"no length given for reference '侯道' ({self.text[i:j + 1]} is "
                           "寸 per 弓 of the 侯道; pass refs={'侯道弓': 50} or refs={'侯道': 300})")
        chi = gong * cun * self.unit_chi["寸"]
        return j + 1, chi, f"侯道 {_g(gong)} 弓 × {cun} 寸 × {_g(self.unit_chi['寸'])} 尺", None


def _measure(text: str, start: int, end: int, chi: float, expr: str,
             reading: Reading, dimension: str) -> Measure:
    chi = round(chi, 9)  # drop float dust from the decimal units (1 + 2 × 0.1)
    return Measure(text[start:end], chi, round(reading.m(chi), 9),
                   format_derivation(expr, chi, reading), (start, end), dimension)


def parse_length(text: str, reading: Reading | str = DEFAULT,
                 refs: Mapping[str, float] | None = None) -> Measure:
    """Parse one whole length expression (長度) into 尺 and metres.

    Forms: numeral + unit (五十弓, 三仞, 十尺, 一笴; a bare unit is one: 笴, 武;
    a leading part name of the 侯 is skipped: 侯道五十弓 → 五十弓, span (2, 5)),
    compounds from longer to shorter units (丈有六尺 16, 尺二寸 1.2, 尺有握 1.4,
    寸有半 0.15 尺), a leading dimension word (長 博 廣 厚 高 深, kept in
    ``Measure.dimension``), and the relational forms of the text, resolved
    against ``refs`` (name → 尺):

    * ``如笴`` / ``容弓`` — as long as one 笴 / room for one 弓;
    * ``倍中`` = 2 × 中, ``半上舌`` = ½ × 上舌 (literally; 鄭 reads 下舌半上舌 as half
      of the 上舌's projection beyond the 躬, which this does *not* do),
      ``參侯道`` and ``參侯道居侯黨之一`` = ⅓ × 侯道; 倍/參/半 also take a length (倍尋);
    * ``居X之一`` alone = refs[X] / refs["parts"];
    * ``弓二寸`` = 2 寸 per 弓 of the 侯道 (refs["侯道弓"], or refs["侯道"] ÷ 6 尺).

    Aliases are filled in: 中 ⇄ 侯中, 上舌 ⇄ 左右舌 ⇄ 上个, 下舌 ⇄ 下个.
    Raises ``ValueError`` naming the offending character and its position, or
    the missing reference.
    """
    reading = _get_reading(reading)
    parser = _Parser(text, reading, _expand(refs or {}))
    i = len(text) - len(text.lstrip())
    stop_at = len(text.rstrip())
    dimension = ""
    # a leading name of the thing measured (侯道五十弓, 中十尺) is skipped: the span shows it
    name = next((n for n in _PART_NAMES if text.startswith(n, i)), "")
    if name and i + len(name) < stop_at:
        i += len(name)
    if text[i:i + 1] in DIMENSIONS and text[i:i + 1] and i + 1 < stop_at:
        dimension, i = text[i], i + 1
    try:
        end, chi, expr, _ = parser.parse(i)
        if end != stop_at:
            stop = parser.stop if parser.stop and parser.stop.pos >= end else None
            raise stop or _Stop(end, "expected the end of the length expression")
    except _Stop as stop:
        if stop.pos < 0:           # a numeral error already formatted for the whole text
            raise ValueError(stop.expected) from None
        raise _fail(text, stop.pos, stop.expected) from None
    return _measure(text, i, end, chi, expr, reading, dimension)


def find_measures(sentence: str, reading: Reading | str = DEFAULT,
                  refs: Mapping[str, float] | None = None) -> list[Measure]:
    """Every length expression in a passage, left to right, with spans into it.

    A numeral counts only with a length unit right after it, so 三耦, 四矢,
    再拜, 一人, 八十 are not lengths.  A bare unit counts when it follows a
    dimension word (長武, 長尺有握), 如/容 (如笴, 容弓), 地 (不及地武), 本 (刊本尺),
    or opens a compound (尺有握); 執弓, 釋弓, 握素 are not lengths.

    Relational forms (倍中, 參侯道居侯黨之一, 半上舌, 弓二寸) are returned only
    when their reference is known: from ``refs`` or from the passage itself —
    a length right after a part name of the 侯 (侯道五十弓, 中十尺) or followed by
    以為 + that name (弓二寸以為侯中) defines it for what follows; ``refs`` wins.
    """
    reading = _get_reading(reading)
    given = dict(refs or {})
    learned: dict[str, float] = {}
    found: list[Measure] = []
    i, n = 0, len(sentence)
    while i < n:
        parser = _Parser(sentence, reading, _expand({**learned, **given}))
        c = sentence[i]
        starts = c in _NUMERAL_CHARS or c in UNITS or c in _FACTORS or c in "如容居"
        if not starts:
            i += 1
            continue
        try:
            end, chi, expr, terms = parser.parse(i)
        except _Stop:
            end = None
        if c == "弓" and end is None:
            k = parser.numeral_end(i + 1)
            if k > i + 1 and sentence[k:k + 1] == "寸":
                i = k + 1                      # an unresolved 弓N寸 is not 弓 + N寸
                continue
        if end is not None and c in UNITS and end == i + 1 and sentence[i - 1:i] not in _BARE_CUES:
            end = None                         # a lone bare unit with no cue: 執弓, 握素
        if end is None:
            i = parser.numeral_end(i) if c in _NUMERAL_CHARS else i + 1
            continue
        dimension = sentence[i - 1] if i and sentence[i - 1] in DIMENSIONS else ""
        found.append(_measure(sentence, i, end, chi, expr, reading, dimension))
        _learn(sentence, i - len(dimension), end, chi, terms, learned)
        i = end
    return found


def _learn(text: str, start: int, end: int, chi: float, terms: list[list[Any]] | None,
           learned: dict[str, float]) -> None:
    """Record the 侯 part a length names: 侯道五十弓, 中十尺, …以為侯中."""
    names = [name for name in _PART_NAMES if text.endswith(name, 0, start)][:1]
    if text.startswith("以為", end):
        names += [name for name in _PART_NAMES if text.startswith(name, end + 2)][:1]
    for name in names:
        learned[name] = chi
        if name == "侯道" and terms and len(terms) == 1 and terms[0][1] == "弓":
            learned["侯道弓"] = terms[0][0]
