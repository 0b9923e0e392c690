"""The server's log as a hostile client may reach it: one short escaped line per event, rate limited.

A client without the secret could fill the log (wslink logs a text frame in full: 9 frames → 1.6 MB), forge
lines (a raw ``\\n presenter: …`` or terminal escapes) or make it print tracebacks (a malformed HTTP request).
:func:`note` is how the guard reports an event: every argument shortened and escaped (no control character,
no newline), at most :data:`PER_WINDOW` lines a kind every :data:`WINDOW` s, then one "… n more" line.
:class:`OneLine` does the same to the records of aiohttp's and wslink's own loggers (no traceback)."""
from __future__ import annotations

import logging
import reprlib
import time

log = logging.getLogger("xiangsheli.guard")

_repr = reprlib.Repr()
_repr.maxlevel, _repr.maxstring, _repr.maxother, _repr.maxlong = 3, 200, 200, 60

WINDOW = 10.0
PER_WINDOW = 5
#: kind → [window start, lines in it, suppressed]
_seen: dict[str, list] = {}


def clean(value, limit: int = 120) -> str:
    """Shortened first (so the work is linear in ``limit``, not in the input), then escaped."""
    text = value[:limit * 4] if isinstance(value, str) else _repr.repr(value)[:limit * 4]
    if not text.isprintable():
        text = text.encode("unicode_escape", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def allowed(kind: str) -> bool:
    """Whether a line of this kind may be written now (and the count of lines held back)."""
    now = time.monotonic()
    w = _seen.get(kind)
    if w is None or now - w[0] > WINDOW:
        if w is not None and w[2]:
            log.warning("(%d more lines of kind %s were not written)", w[2], kind)
        if len(_seen) > 256:
            _seen.clear()
        _seen[kind] = w = [now, 0, 0]
    if w[1] >= PER_WINDOW:
        w[2] += 1
        return False
    w[1] += 1
    return True


def note(kind: str, fmt: str, *args, level: int = logging.WARNING) -> None:
    if allowed(kind):
        log.log(level, fmt, *(a if isinstance(a, (int, float)) else clean(a) for a in args))


class OneLine(logging.Filter):
    """A library's record as one short escaped line, without its traceback, rate limited per logger."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.INFO:
            return record.levelno >= logging.getLogger(record.name).getEffectiveLevel()
        if not allowed(f"lib:{record.name}"):
            return False
        try:
            text = record.getMessage()
        except Exception:                    # noqa: BLE001  (a record whose arguments do not format)
            text = str(record.msg)
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text} ({type(record.exc_info[1]).__name__}: {clean(str(record.exc_info[1]), 80)})"
        record.msg, record.args = clean(text, 200), None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
