"""Where a line of Chinese may break (禁則, kinsoku): never before closing punctuation (，。、；：？！）」』 …),
never after an opening bracket (（「『 …).  Both the printed matter (:func:`scene.print.fonts.wrap`) and the
stills' caption band (:func:`scene.render.studio.wrap_text`) break lines through :func:`split`."""
from __future__ import annotations

#: may not start a line: closing punctuation, CJK and Latin (and the iteration mark and the prolonged sound)
NO_START = frozenset("，。、；：？！）」』】〕〗〙〛〉》”’…‥·・％‰°′″℃〜～ー々〻,.;:?!)]}%")
#: may not end a line: opening brackets and quotes
NO_END = frozenset("（「『【〔〖〘〚〈《“‘([{")
#: at most this many characters go down to the next line with the one that did not fit
MAX_CARRY = 3


def split(line: str, nxt: str) -> tuple[str, str]:
    """``line`` is full and ``nxt`` does not fit: (what stays on this line, what starts the next one, before
    ``nxt``).  The break moves back over at most :data:`MAX_CARRY` characters until the next line does not
    start with closing punctuation and this one does not end with an opening bracket; where no such break is
    near, the line breaks where it was full."""
    for k in range(len(line), max(len(line) - MAX_CARRY, 0) - 1, -1):
        head, tail = line[:k], line[k:] + nxt
        if head and tail[0] not in NO_START and head[-1] not in NO_END:
            return head, line[k:]
    return line, ""
