"""The 經 (and the 記) cut into clauses (句): one act with its subject — 主人坐取爵 / 實之 / 降.

The text is unpunctuated.  A clause begins at a *head*: a name of a person (主人, 賓, 三耦 …), a word that
opens an act (遂, 乃, 既, 若) or an act-character (升, 降, 坐, 拜, 取, 奠 …) that is not bound to the one
before it (坐取: 取 is what is done kneeling; 答拜, 再拜, 拜受, 辭降, 不拜: one act).  A piece with no act of
its own (a name, a place, a facing: 主人 / 阼階上北面) joins the act after it; a facing or place left after
an act (主人實觶賓之席前北面) stays with that act.  Words after 曰 are speech up to the next name.

The subject is the last name the passage gave (carried forward when the text leaves it implicit).  The
cutting is deterministic and reads nothing but the text (this layer imports nothing else of ``scene``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from ..chapter import Chapter, resolve
from .jing import ChapterLike, ji, passage
from .words import words

#: the names of people and the words that only look like one are the chapter's data: its words file's ``names``
#: and ``not_names`` (:mod:`.words`), read by :func:`lexicon`
Lexicon = tuple[tuple[str, ...], tuple[str, ...]]

#: characters that open an act
ACTS = "戒速升降坐拜揖取奠受授適反洗盥實酌辭對祭卒飲執興入出退進立告命請獻酬酢薦設辯還搢挾袒襲說釋數復就從迎送視許作拾釋委加遷退倚舉偃獲射"
#: words that open an act (or a condition) and bind the act-character right after them
OPENERS = "遂乃既若無辯"
#: characters that bind the act-character right after them into one act (答拜, 再拜, 不拜, 辭降, 拜受 …)
BINDS = "答再三壹不辭拜請命以少皆亦又復相交進退乃遂既若北南東西面絕嚌啐挩卒拾釋所疑誘于於自由當作如辯"
#: before a name, a character that makes the name what is acted on (獻賓, 以賓升, 賓與大夫)
OBJECT_BEFORE = "戒速獻酬酢拜命請告授迎送從作視于於以使厭比誘贊相如當繼息"
#: after these, a name followed by an act or a place is the next subject, not the one acted on (答拜賓西階上…)
LOOSE_OBJECT = "拜酬獻受送"
PLACE_START = "西東南北阼席堂門少不皆進降升坐以逆"
#: act-characters that never open a clause of their own right after these characters (坐取 …)
KNEEL_SKIP = "左右兼橫而先亦相不反東西南北面于"


@dataclass(frozen=True)
class Clause:
    """One act of the text, with the subject the text gives it (named, or carried forward)."""
    source: str      # "經" or "記NN"
    section: int     # the 經 section (0 for a 記 item read by itself)
    start: int       # offset in the passage (or the 記 item)
    text: str
    subject: str     # the name that acts, or names joined by 、 ("" when the passage has named nobody yet)
    named: bool      # the subject is named inside the clause (not carried forward)

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def lexicon(ch: ChapterLike = None) -> Lexicon:
    """The names and the not-names the splitter reads for a chapter: its words file's (:mod:`.words`), with its
    manifest's ``text.names``, ``text.not_names`` merged longest first when it has any."""
    c = resolve(ch)
    w = words(c)
    if not c.names and not c.not_names:
        return w.names, w.not_names
    names = tuple(sorted(dict.fromkeys(c.names + w.names), key=len, reverse=True))
    return names, tuple(dict.fromkeys(c.not_names + w.not_names))


def names_of(text: str, chapter: ChapterLike = None) -> tuple[tuple[int, int, str], ...]:
    """(start, end, name) of every name of a person in ``text``, by the chapter's :func:`lexicon`."""
    return _names(text, *lexicon(chapter))


@lru_cache(maxsize=256)
def _names(text: str, names: tuple[str, ...], not_names: tuple[str, ...]) -> tuple[tuple[int, int, str], ...]:
    """(start, end, name) of every name of a person, skipping the words that only look like one."""
    out, i = [], 0
    while i < len(text):
        blocked = next((w for w in not_names if text.startswith(w, i)), None)
        word = next((w for w in names if text.startswith(w, i)), None)
        if blocked and (word is None or len(blocked) >= len(word)):
            if blocked == "賓主人" and word:      # two names, not a place: 賓主人大夫若皆與射
                out.append((i, i + len(word), word))
                i += len(word)
                continue
            i += 1
            continue
        if word:
            out.append((i, i + len(word), word))
            i += len(word)
        else:
            i += 1
    return tuple(out)


def _heads(text: str, names: tuple[tuple[int, int, str], ...]) -> list[int]:
    """Offsets where a clause may begin."""
    in_name = {k for s, e, _ in names for k in range(s + 1, e)}
    ends = {e for _, e, _ in names}
    heads = set()
    name_heads: set[int] = set()
    ends_of_heads: set[int] = set()
    for s, e, _ in names:
        # a name right after an act that takes a person (獻賓, 以賓, 命三耦) is what is acted on
        after = text[e] if e < len(text) else ""
        if after == "之":
            continue            # 賓之席前, 主人之西: a place named by a person, not one who acts
        prev = text[s - 1] if s else ""
        if prev in "與及":
            # 賓與大夫, 三耦及眾賓: joined to the name before, acting with it if that one acts
            if s - 1 in ends_of_heads:
                name_heads.add(s)
                ends_of_heads.add(e)
            continue
        if not (s and prev in OBJECT_BEFORE) or (prev in LOOSE_OBJECT and (after in ACTS or after in PLACE_START)):
            name_heads.add(s)
            ends_of_heads.add(e)
    heads |= name_heads
    for i, c in enumerate(text):
        if i in in_name or any(s == i for s, _, _ in names):
            continue
        prev = text[i - 1] if i else ""
        if c in OPENERS:
            if prev not in OPENERS and i not in ends:
                heads.add(i)
            continue
        if c not in ACTS or i in ends or prev in BINDS:
            continue
        j = i - 1
        while j >= 0 and text[j] in KNEEL_SKIP:
            j -= 1
        if j >= 0 and text[j] == "坐" and c not in "興升降":
            continue            # 坐取, 坐左執爵: the act done kneeling
        heads.add(i)
    return sorted(heads | {0})


def _cut(text: str, lex: Lexicon) -> list[tuple[int, int]]:
    names = _names(text, *lex)
    name_at = {s: e for s, e, _ in names}
    heads = _heads(text, names) + [len(text)]
    pieces = [(a, b) for a, b in zip(heads, heads[1:]) if b > a]
    if pieces and pieces[0][0] > 0:
        pieces[0] = (0, pieces[0][1])
    # a piece with no act (a name, a place, a facing) joins the next; the last one joins the one before
    out: list[tuple[int, int]] = []
    pending = None
    for a, b in pieces:
        body = text[name_at.get(a, a):b]
        has_act = any(c in ACTS for c in body)
        if pending is not None:
            a = pending
            pending = None
        if not has_act:
            pending = a
            continue
        out.append((a, b))
    if pending is not None:
        if out:
            out[-1] = (out[-1][0], len(text))
        else:
            out.append((pending, len(text)))
    # speech: what follows 曰 is words said, up to the next name
    merged: list[tuple[int, int]] = []
    speaking: bool | str = False
    for a, b in out:
        # the name right after 曰 is the speech's own (曰三耦卒射): the speech ends at the next one
        if speaking and (a not in name_at or text[a - 1] == "曰"):
            merged[-1] = (merged[-1][0], b)
            speaking = text[a - 1] == "曰" or speaking
            if text[a - 1] == "曰":
                speaking = "after-name"
            continue
        speaking = "曰" in text[a:b]
        merged.append((a, b))
    return merged


@cache
def clauses_of_text(text: str, source: str = "經", section: int = 0, carried: str = "", *,
                    lex: Lexicon) -> tuple[Clause, ...]:
    """The clauses of one passage; ``carried``: the subject in force before it (the last one of the
    passage before: 遂命三耦拾取矢 opening §24 is the 司射's); ``lex``: the names and not-names
    (:func:`lexicon` of a chapter)."""
    names = _names(text, *lex)
    heads = set(_heads(text, names))
    out = []
    subject = carried
    for a, b in _cut(text, lex):
        # the subject: a name that opens a piece of the clause before its first act (not one acted on)
        first_act = next((k for k in range(a, b) if text[k] in ACTS
                          and not any(s <= k < e for s, e, _ in names)), b)
        own = [w for s, e, w in names if a <= s < first_act and s in heads and text[e:e + 1] != "之"]
        if own:
            # several names before the act (賓主人大夫降, 主人堂東賓堂西皆袒決, 賓與大夫辭): all of them act
            subject = "、".join(dict.fromkeys(own))
        out.append(Clause(source, section, a, text[a:b], subject, bool(own)))
        later = [w for s, _, w in names if first_act <= s < b and s in heads]
        if later:
            subject = later[-1]
    return tuple(out)


def section_clauses(n: int, *, chapter: ChapterLike = None) -> tuple[Clause, ...]:
    """The clauses of section ``n`` of the chapter's 經 (chapter 5 by default), in text order (offsets in its
    passage); the subject in force at its start is the last one of the section before."""
    return _section_clauses(n, resolve(chapter))


@cache
def _section_clauses(n: int, ch: Chapter) -> tuple[Clause, ...]:
    before = _section_clauses(n - 1, ch) if n > 1 else ()
    carried = before[-1].subject if before else ""
    return clauses_of_text(passage(n, chapter=ch).text, "經", n, carried, lex=lexicon(ch))


def ji_clauses(k: int, *, chapter: ChapterLike = None) -> tuple[Clause, ...]:
    """The clauses of 記 item ``k`` of the chapter (chapter 5 by default; offsets in the item's text)."""
    return _ji_clauses(k, resolve(chapter))


@cache
def _ji_clauses(k: int, ch: Chapter) -> tuple[Clause, ...]:
    return clauses_of_text(ji(k, chapter=ch), f"記{k:02d}", 0, lex=lexicon(ch))
