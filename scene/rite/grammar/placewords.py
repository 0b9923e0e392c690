"""Where a clause puts a man, read from its words: the place words of the layout (西階上, 阼階前, 堂西 …), a
man he stands by (立于司射之南), the facings (X面, not a place's side: 西階之東北面), and a mat's laying (席賓南面),
which is no man's facing.  Used by the clause predicates (:mod:`.coverage`) and by the mutation harness, which
seeds its errors on the very words the checker reads (:mod:`.mutants`)."""
from __future__ import annotations

from functools import lru_cache

from ...chapter import Chapter
from ...text.words import words
from . import predicates as pr
from .facing import PLACE_END
from .words import FACINGS

#: the end of a place word that is the front of a man's mat (賓之席前, 主人之席前: 鄭 §4 獻賓 in front of his mat):
#: a place wherever the clause names it, as 西階上 is; the directions after it are his facing, not a side of it
MAT_FRONT = "席前"


@lru_cache(maxsize=16)
def place_words(chapter: Chapter | None) -> tuple[str, ...]:
    """The chapter's place words the clause puts a man at (its words file's [places] but ``not_at``), longest
    first (西階上 before 西階)."""
    w = words(chapter)
    return tuple(sorted((p for p in w.places if p not in w.not_at), key=len, reverse=True))


@lru_cache(maxsize=64)
def _name_starts(full: str, chapter: Chapter | None) -> dict[int, str]:
    from ...text.clauses import names_of
    return {s: w for s, _, w in names_of(full, chapter)}


def name_at(full: str, i: int, chapter: Chapter | None = None) -> str | None:
    """The name of a person that starts at ``full[i]`` (the splitter's names, read once per passage)."""
    return _name_starts(full, chapter).get(i)


def _beside_whom(full: str, i: int, chapter: Chapter | None = None) -> str | None:
    """The man named at ``full[i]`` when a side of him follows (司射之南, 大夫之南, 賓東): a place by a man."""
    nm = name_at(full, i, chapter)
    if nm is None:
        # 主人之西: the splitter reads no name in 主人之 (what is his: 主人之贊者), but a side after it is a place
        # by him (賓拜送于主人之西, 立于主人之西)
        nm = next((n for n in words(chapter).names if full.startswith(n + "之", i)
                   and full[i + len(n) + 1:i + len(n) + 2] in tuple("東西南北")), None)
    if nm is None:
        return None
    after = full[i + len(nm):i + len(nm) + 2]
    return nm if after[:1] in "東西南北" or (after[:1] == "之" and after[1:2] in "東西南北") else None


def _place_word(text: str, k: int, lead: bool = False, chapter: Chapter | None = None) -> str | None:
    """The place word starting at ``text[k]`` where the clause puts him there: after 于 / 於 / 適 / 至 / 就, a
    階上 (賓西階上北面拜), or leading the clause after its subject (主人阼階前西面, 主人堂東袒決遂: ``lead``) —
    not a way (自X, 由X), a level (當X), a thing looked at, carried or washed (視侯, 奉豐, 拜洗: 洗 the washing,
    中 the middle of a thing, 入門左 past the gate)."""
    ours = place_words(chapter)
    w = next((w for w in ours if text.startswith(w, k)), None)
    if w is None or (k > 0 and text[k - 1] in "自由當視其以奉") or text[k + len(w):k + len(w) + 1] in ("端", "外"):
        return None             # (西序端: the end of the 序, no place of the layout; 門外: another house's gate)
    if (k > 1 and text[k - 1] in "于於" and text[k - 2] in pr.THINGS + "洗尊篚席楅中豐侯乏"
            and text[k - 3:k - 2] not in tuple(pr.PUT + "取受")):
        return None             # 洗于阼階東南, 設楅于中庭: where a thing is, not where he is (奠爵于篚: both)
    if w == "西方" and text[k - 1:k] != "適":
        return None             # (授有司于西方: west of his own 位 — 鄭 逆受於東面位之後 — not the 堂西)
    if w in ("西階上", "阼階上") or w.endswith(MAT_FRONT) or (k > 0 and text[k - 1] in "于於適至就" and w != "中"):
        return w            # (實之賓之席前西北面獻賓: before the 賓's mat, where he stands to 獻, after no 于)
    if k >= 2 and text[k - 2:k] == "堂下" and text[k - 3:k - 2] not in ("自", "由"):
        return w            # (笙入堂下磬南北面立: below the 堂, south of the 磬; not a way, 由堂下西階之東)
    # after the way he came (降自西階阼階下之東南: down the 西階, then to below the 阼階), the place he goes to
    lead = lead or any(text.endswith(c + v, 0, k) for v in ours for c in "自由")
    if lead and w in ("西階", "阼階", "堂西", "堂東", "階前") and text[k + len(w):k + len(w) + 1] in "前下上東西南北袒":
        return w
    return None


def _of_a_mat(text: str, k: int) -> bool:
    """Whether the facing word ending at ``text[k]`` tells how a mat is laid (乃席賓南面 …)."""
    head = text[:k]
    j = head.rfind("席")
    return (j >= 0 and head[j + 1:].startswith(("賓", "主人", "大夫", "眾賓", "工", "遵者"))
            and not any(c in head[j + 1:] for c in "升降坐拜揖取奠受"))


def facing_at(text: str, k: int) -> str | None:
    """The facing word ending at the 面 ``text[k]`` (without its 面): the longest, except after a place word,
    whose side the first of two directions is (西階之東北面: 之東, then 北面; 堂西南面: 堂西, then 南面)."""
    face = next((f for f in FACINGS if text.endswith(f, 0, k + 1)), None)
    if face and len(face) == 3 and k >= 3 and text[k - 3] in PLACE_END:
        return face[1:]
    return face
