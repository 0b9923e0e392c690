"""The last few answers of a pure function of arrays, kept by the arrays' bytes (or a tuple of them). The director's track asks
the same sight test, camera frame or fit again soon: a held shot judged for a window and then for its
pieces, two steps of the same people at one moment)."""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np


class LastAnswers:
    """At most ``keep`` answers by key, the oldest dropped first.  An answer is handed out as it was kept,
    so its arrays are made read-only when it is put (a caller that changed one would change the next
    caller's answer)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._answers: dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        """The answer kept for ``key``, or None."""
        return self._answers.get(key)

    def put(self, key: Hashable, answer: Any) -> Any:
        """Keep ``answer`` (an array or a tuple of arrays, made read-only) for ``key``; returns it."""
        for a in answer if isinstance(answer, tuple) else (answer,):
            if isinstance(a, np.ndarray):
                a.flags.writeable = False
        if len(self._answers) >= self.keep:
            del self._answers[next(iter(self._answers))]
        self._answers[key] = answer
        return answer
