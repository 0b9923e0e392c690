"""The rite-grammar checker: the compiled tracks held against what the words of the 經 (and the 記, and the
standard forms the 經 states once and repeats with 如之 / 如初) require.

Each rule family is a module with ``check(ctx) -> [Finding]``: ``posture`` (坐 立 拜 揖 興), ``facing``
(北面 … and the side of what is faced), ``stairs`` (升/降 自西階, 由其階, 盡階不升堂), ``forms`` (the standard
forms: 並行, 上射在左, 中等, 當階/及階/當物/及物揖, 鉤楹, 獲者坐而獲, 拾取矢 …), ``motion`` (少退, 由X之南,
鉤楹, 相左, 適X, 反位), ``group`` (皆, 北上/東上), ``order`` (text order, 先, 遂), ``ji`` (the 記's rules at
every occurrence), ``things`` (no jumps, things move at the acts that move them, 筭 and 乘矢 counts) and
``world`` (the arrow's way, furniture, bodies, and the audit's spacing, surfaces and speed); and the clause
families (``verb``, ``negation``, ``subject``, ``object``, ``sequence``, ``every``), which hold every clause of
the 經 to what it says and measure the coverage (:mod:`.coverage`).

Deliberate exceptions, each with its reason and reference, and the subjects the text leaves implicit are
data: ``assets/grammar.toml`` (:mod:`.exceptions`).
"""
from __future__ import annotations

import importlib
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .context import Ctx, Finding  # noqa: F401

if TYPE_CHECKING:
    from ..timeline import Rite

#: the rules written for the words they name
OLD_RULES = ("posture", "facing", "stairs", "forms", "motion", "group", "order", "ji", "things", "world")
#: the clause families: every clause of the text (scene.text.clauses) held to its verb, negations, subject,
#: object, order and group words (:mod:`.coverage`, which also measures what is checked)
CLAUSE_RULES = ("verb", "postures", "facings", "places", "negation", "subject", "object", "sequence", "every")
RULES = OLD_RULES + CLAUSE_RULES


#: the findings of each compiled rite, by the rules asked: made once, since a compiled rite does not change
#: (a changed choreography is another rite) and ``check``, the coverage, the review and the tests ask again
_FOUND: weakref.WeakKeyDictionary[Rite, dict[tuple[str, ...], list[Finding]]] = weakref.WeakKeyDictionary()


def findings(rite: Rite, rules: Sequence[str] = RULES) -> list[Finding]:
    """Every finding of the rules, before exceptions."""
    memo = _FOUND.setdefault(rite, {})
    key = tuple(rules)
    if key not in memo:
        ctx = Ctx(rite)
        out: list[Finding] = []
        for r in rules:
            out += importlib.import_module(f"{__name__}.{r}").check(ctx)
        memo[key] = sorted(out, key=lambda f: (f.section, -1 if f.step is None else f.step, f.rule, f.who, f.word))
    return list(memo[key])


def check(rite: Rite, rules: Sequence[str] = RULES) -> list[Finding]:
    """The findings no deliberate exception covers (an exception of these rules that covers nothing counts as
    one; with all the rules, any exception)."""
    from . import exceptions
    raw = findings(rite, rules)
    ch = rite.choreography.chapter
    left, _ = exceptions.apply(raw, chapter=ch)
    return left + exceptions.unused(raw, None if tuple(rules) == RULES else tuple(rules), ch)


def readings_to_check(chapter: object = None) -> list[str]:
    """Every preset, with and without the 大夫 (若有遵者); a chapter's own presets too (its manifest's
    ``[[reading.preset]]``, chapter 4's ``jia`` …)."""
    from ...chapter import resolve
    from ...geometry.readings import PRESETS
    own = [p.name for p in resolve(chapter).presets]   # type: ignore[arg-type]
    return [spec for name in [*PRESETS, *own] for spec in (name, f"{name},dafu_present=false")]
