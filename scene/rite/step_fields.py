"""The fields of a step and a section that say *when* and *on what basis*, checked on load: a section's
``played`` (a section the text tells out of its time), a step's ``when`` (a reading's switch or a chapter's own
choice), ``as_before`` (the earlier words it repeats) and ``evidence`` (how sure each aspect is).  The loader,
:mod:`scene.rite.choreography`, calls them; every bad value is one line of its error."""
from __future__ import annotations

import re
from typing import Any

from ..chapter import Chapter
from ..text import passage


class ChoreographyError(ValueError):
    """A cast or rite file that does not check (one line: file, section, step, what); re-exported by
    :mod:`.choreography`."""


#: what a step's evidence speaks of, and how sure it is (the London Charter's evidence and hypothesis)
EVIDENCE_ASPECTS = ("where", "facing", "posture", "route", "timing")
EVIDENCE_STATUSES = ("stated", "commentary", "assumed")
#: reading switches a step may depend on (``when``): the step is played only if the switch is on
WHEN = {"dafu_present", "not dafu_present"}   # "not …": played only when the switch is off (若無大夫)


def _played(raw: dict[str, Any], n: int, where: str) -> tuple[int | None, str | None]:
    """``played = "after §N"`` (N an earlier section) and its ``played_when`` switch."""
    played, when = raw.get("played"), raw.get("played_when")
    m = re.fullmatch(r"after §(\d+)", played) if isinstance(played, str) else None
    if played is not None and (m is None or not 1 <= int(m[1]) < n):
        raise ChoreographyError(f"{where}: played must be 'after §N', N a section before §{n}")
    if when is not None and (played is None or when not in WHEN):
        raise ChoreographyError(f"{where}: played_when needs played, and one of {', '.join(sorted(WHEN))}")
    return (int(m[1]) if m else None), when


def _when(when: Any, where: str, chapter: Chapter | None) -> str | None:
    """``when``: a reading switch (:data:`WHEN`) or ``key=value``, a value of a choice of the chapter's own
    (``[[reading.choice]]`` of its manifest); anything else is one line."""
    if when is None or when in WHEN:
        return str(when) if when is not None else None
    key, sep, value = str(when).partition("=")
    choices = {c.key: c for c in (chapter.choices if chapter is not None else ())}
    if not sep or key not in choices:
        known = ", ".join([*sorted(WHEN), *(f"{k}=…" for k in choices)])
        raise ChoreographyError(f"{where}: when {str(when)[:40]!r} is not a reading switch or a choice of this "
                                f"chapter ({known})")
    allowed = [v for v, _ in choices[key].options]
    if value not in allowed:
        raise ChoreographyError(f"{where}: when {when!r}: {value[:20]!r} is not a value of {key} "
                                f"({', '.join(allowed)})")
    return str(when)


def when_holds(when: str | None, reading: Any) -> bool:
    """Whether a step's ``when`` holds under the reading: a switch on ("not …": off), or the chapter's choice
    ``key`` with that value (:meth:`scene.geometry.readings.Reading.pick`: its default when the reading names
    none)."""
    if when is None:
        return True
    key, sep, value = when.partition("=")
    if sep:
        return bool(reading.pick(key) == value)
    return bool(getattr(reading, when.removeprefix("not ")) != when.startswith("not "))


def _as_before(raw: Any, sec_n: int, where: str, chapter: Chapter | None = None) -> tuple[int, str] | None:
    """``as_before = "§30 升自西階盡階不升堂"``: words of an earlier section's 經, verbatim."""
    if raw is None:
        return None
    m = re.fullmatch(r"§(\d+) (\S+)", raw) if isinstance(raw, str) else None
    if not m:
        raise ChoreographyError(f"{where}: as_before must be '§N words' (the words of an earlier section)")
    n, words = int(m[1]), m[2]
    if not 1 <= n < sec_n:
        raise ChoreographyError(f"{where}: as_before names §{n}, not a section before §{sec_n}")
    if words not in passage(n, chapter=chapter).text:
        raise ChoreographyError(f"{where}: as_before {words!r} is not in the 經 of §{n}")
    return n, words


def _evidence(raw: Any, where: str) -> tuple[tuple[str, str, str], ...]:
    """``evidence = {where = "commentary: 鄭 …", route = "assumed: …"}`` → ((aspect, status, source), …)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise ChoreographyError(f"{where}: evidence must be a table of {', '.join(EVIDENCE_ASPECTS)}")
    out = []
    for aspect, text in raw.items():
        if aspect not in EVIDENCE_ASPECTS:
            raise ChoreographyError(f"{where}: evidence.{aspect} is not one of {', '.join(EVIDENCE_ASPECTS)}")
        status, _, source = str(text).partition(":")
        status, source = status.strip(), source.strip()
        if status not in EVIDENCE_STATUSES:
            raise ChoreographyError(f"{where}: evidence.{aspect} must start with {' / '.join(EVIDENCE_STATUSES)}")
        if status != "stated" and not source:
            raise ChoreographyError(f"{where}: evidence.{aspect} = {status} needs its source or reason after ':'")
        out.append((aspect, status, source))
    return tuple(out)
