"""Clause coverage, measured: every clause of the 經 (``scene.text.clauses``) with the steps that act it and
the predicates (``predicates``) that examined it over the compiled tracks, each with whether it held.

A clause is *checked* when at least one predicate examined it (held or failed), *acted* when steps cite it
but no predicate applies, *not-acted* when no step cites it — then ``assets/clauses.toml`` must say why
(:mod:`.clausedata`).  The new rule families (``verb``, ``negation``, ``subject``, ``object``, ``sequence``,
``every``) report the failures as findings; ``facing`` and ``posture`` are measured here but reported by
their own rules.

    from scene.rite.grammar.coverage import section_clauses
    rows = section_clauses(rite, n)      # list[ClauseCoverage], in text order
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from ...chapter import Chapter
from ...text.clauses import Clause
from ...text.clauses import section_clauses as text_clauses
from ..state import StepSpan
from . import predicates as pr
from . import where
from .clausedata import ClauseData
from .clausedata import load as load_data
from .context import Ctx, Finding
from .placewords import _beside_whom, _of_a_mat, _place_word, facing_at, name_at  # noqa: F401  (facing_at: tests')
from .turns import relay_turns, split

if TYPE_CHECKING:
    from ..timeline import Rite

#: the words [start, end) each step acts: id(step) → (start, end), and ("more", id(step)) → [(start, end), …]
#: the [[form]] words it acts too
Reach = dict[Any, Any]

#: the families whose failures are findings of ``python -m scene check``
FAMILIES = ("verb", "postures", "facings", "places", "negation", "subject", "object", "sequence", "every")
#: the posture words, held together as the clause's sequence of postures (:func:`.predicates.posture_sequence`)
POSTURE_WORDS = "坐興拜揖立"


@dataclass(frozen=True)
class ClauseCoverage:
    section: int
    source: str
    text: str
    start: int
    subject: str
    actors: tuple[str, ...]
    steps: tuple[int, ...]
    status: str                 # "checked" | "acted" | "not-acted"
    checks: tuple[str, ...]
    failures: tuple[str, ...]
    reason: str


@dataclass
class _Eval:
    clause: Clause
    subject: str
    actors: tuple[str, ...]
    spans: list[StepSpan]
    results: list[tuple[str, str, bool, str, str]]               # (family, name, ok, who, detail)
    reason: str = ""


def actors_of(ctx: Ctx, name: str, n: int, t: float, at: int | None) -> tuple[str, ...]:
    """The actor ids a name of the text means in §n at time t (the 大夫 only under a reading that has him:
    若有遵者)."""
    out = _actors_of(ctx, name, n, t, at)
    return out if ctx.reading.dafu_present else tuple(a for a in out if a != "dafu")


def _actors_of(ctx: Ctx, name: str, n: int, t: float, at: int | None) -> tuple[str, ...]:
    if not name:
        return ()
    if "、" in name:                 # 賓、主人、大夫: every one of them
        return tuple(dict.fromkeys(a for part in name.split("、") for a in actors_of(ctx, part, n, t, at)))
    from .exceptions import group_readings
    for g in group_readings(ctx.chapter):      # a reading of the name in these sections (grammar.toml [[group]])
        if g.name == name and g.covers(n, at, ctx.reading.dafu_present):
            return tuple(a for a in g.members if a in ctx.index)
    pairs = ctx.pairs.get(n) or []
    allp = ctx.all_pairs
    if name == "一耦" and not pairs:
        return ()                   # one pair at a time, of those the passage is about
    if name in ("上耦", "一耦") and (pairs or allp):
        return tuple((pairs or allp)[0]) if name == "上耦" else tuple(a for p in pairs for a in p)
    if name == "次耦" and len(allp) > 1:
        return tuple(allp[1])
    if name == "下耦" and len(allp) > 2:
        return tuple(allp[2])
    if name == "弟子":             # the 弟子 who serve (納射器, 委矢, 設豐): the two the cast has
        return tuple(a for a in ctx.groups.get("弟子", ()) if a in ctx.index)
    if name == "耦":
        return ()                   # whose partner: the passage says (the caller resolves it)
    if name in ("勝者", "不勝者"):
        # the round counted last in this section: 勝者 the side that won, 不勝者 the other — the 賓, 主人 and
        # 大夫 apart (賓主人大夫不勝則不執弓…: the text gives them their own way to drink)
        rounds = [r for sp in ctx.spans_by_section.get(n, []) if (r := ctx.step_of(sp).round)]
        res = ctx.rite.results.get(max(rounds)) if rounds else None
        if res is None:
            return ()
        shot = {s_.archer for s_ in res.shots}
        losers = set(res.losers) - {"bin", "zhuren", "dafu"}
        if "dafu" in res.losers:    # 大夫飲則耦不升 (經 §33): the 大夫's 耦 does not go up with him
            shot -= {b for p in ctx.all_pairs if "dafu" in p for b in p}
        return tuple(a for a in ctx.rite.actor_ids if a in (losers if name == "不勝者" else shot - set(res.losers)))
    if name == "執觶者":            # 鄭 §48 執觶者: the 二人 who lifted the 觶 (§46)
        return tuple(a for a in ctx.groups.get("舉觶者", ()) if a in ctx.index)
    if name == "從者":
        return tuple(a for a in ctx.rite.actor_ids if a == "congzhe")
    return tuple(a for a in ctx.rite.actor_ids if ctx.means(name, a, n, t, at))


#: the standard forms (scene/rite/forms): one step acts the whole routine the text spells out after its words
FORM_VERBS = ("approach", "retire", "shoot", "pick_arrows", "forfeit", "count", "collect_arrows")


def _reach(spans: list[StepSpan], data: ClauseData, n: int) -> Reach:
    """The words of the 經 each step acts, (start, end): its phrase; a standard form's up to the next words
    another step cites (上耦揖進 … its approach acts 上射在左並行當階北面揖及階揖升堂揖 …), or the words
    ``assets/clauses.toml`` [[form]] gives it."""
    starts = sorted({sp.offset for sp in spans})
    out: Reach = {}
    for sp in spans:
        a, b = sp.offset, sp.offset + len(sp.phrase)
        if sp.do in FORM_VERBS:
            b = max(b, next((s for s in starts if s >= b), b))
        out[id(sp)] = (a, b)
        for f in data.forms:                # the form acts these words too (clauses.toml [[form]])
            if f.section == n and f.value == sp.do:
                out.setdefault(("more", id(sp)), []).append((f.start, f.end))
    return out


def _reaches(reach: Reach, sp: StepSpan, a: int, b: int) -> bool:
    """Whether the step acts any of the words [a, b)."""
    spans = [reach[id(sp)]] + reach.get(("more", id(sp)), [])
    return any(x < b and a < y for x, y in spans)


@lru_cache(maxsize=128)
def clause_subjects(n: int, chapter: Chapter | None = None) -> tuple[tuple[Clause, str], ...]:
    """The clauses of §n of the chapter with the subject each one's act has: named, carried forward, or given by
    the data where the text changes subject unnamed (grammar.toml [[subject]], clauses.toml [[subject]])."""
    from .exceptions import load as load_grammar
    data = load_data(chapter)
    implicit = sorted((s.start, s.name) for s in load_grammar(chapter)[1] if s.section == n)
    override = None
    out = []
    for cl in text_clauses(n, chapter=chapter):
        if cl.named:
            override = None
        while implicit and implicit[0][0] < cl.end:
            override = implicit.pop(0)[1]     # the text changes subject unnamed
        out.append((cl, data.subject_for(n, cl) or override or cl.subject))
    return tuple(out)


def subject_holds(ctx: Ctx, cl: Clause, subj: str, aid: str, t: float) -> bool:
    """Whether the clause's subject means ``aid`` (or a group that holds him) in this rite at time t; a clause
    before any name holds anyone."""
    if not subj:
        return True
    acts = actors_of(ctx, subj, cl.section, t, cl.start)
    if cl.text.startswith("眾" + subj) and subj in ctx.groups:
        acts = acts[1:]
    if acts:
        return aid in acts
    return any(ctx.means(part, aid, cl.section, t, cl.start) for part in subj.split("、"))


def _others_form(sp: StepSpan, actors: tuple[str, ...]) -> bool:
    """A standard form that acts the part of people not among its step's actors (the 獲者 in the shoot)."""
    return sp.do in FORM_VERBS and bool(actors) and not set(sp.who) & set(actors)


def _evaluate_section(ctx: Ctx, n: int, data: ClauseData) -> list[_Eval]:
    spans = ctx.spans_by_section.get(n, [])
    reach = _reach(spans, data, n)
    out: list[_Eval] = []
    others: tuple[str, ...] = ()          # the people last named other than by 耦
    for cl, subj in clause_subjects(n, ctx.chapter):
        over = [sp for sp in spans if _reaches(reach, sp, cl.start, cl.end)]
        t = min((sp.start_s for sp in over), default=0.0)
        actors = actors_of(ctx, subj, n, t, cl.start) if over else ()
        if "耦" in subj.split("、") and others:
            # 耦: the partner of the one the passage is about (大夫…就其耦…耦少退: the 大夫's)
            mates = tuple(b for p in ctx.all_pairs for a in others if a in p for b in p if b != a)
            actors = tuple(dict.fromkeys(actors + mates))
        elif subj and cl.named and over:
            others = actors
        if cl.text.startswith("眾" + subj) and subj in ctx.groups:
            actors = actors[1:]         # 眾笙, 眾工: the others, after the first (笙一人, 大師)
        # a standard form acts the parts of others the words spell out (the 獲者's 坐而獲 in the shoot)
        mine = [sp for sp in over if set(sp.who) & set(actors)] or [sp for sp in over if sp.do in FORM_VERBS]
        ev = _Eval(cl, subj, actors, mine or over, [])
        if subj and not ctx.reading.dafu_present and all(p in ("大夫", "遵者") for p in subj.split("、")):
            ev.reason = "the 大夫's act, and this reading has none (若有遵者)"
            out.append(ev)
            continue
        if not over or data.condition_for(n, cl):
            ev.reason = data.condition_for(n, cl) or data.reason_for(n, cl)
            out.append(ev)
            continue
        named = cl.named or data.subject_for(n, cl) is not None
        if actors and not mine and data.not_acted_reason(n, cl):
            # his act is not shown (clauses.toml says why: off-site, …); the steps that cite it are others'
            # (the 相 waiting while it happens elsewhere), not his act done by them
            ev.reason = data.not_acted_reason(n, cl)
            ev.spans = over
            out.append(ev)
            continue
        if actors and not mine and not named:
            # the subject is only carried forward and the text has changed it unnamed (主人拜送坐祭立飲: the
            # 眾賓之長 kneels and drinks): the steps that cite the clause say who; their tracks are held to it
            movers = sorted({a for sp in over for a in sp.who})
            ev.spans = over
        elif (actors and not mine) or (subj in ("耦", "一耦", "勝者", "不勝者") and not actors):
            movers = []             # acted by others only: the subject predicate says so
        else:
            movers = sorted({a for sp in ev.spans for a in sp.who if not actors or a in actors}
                            | ({a for a in actors if a in ctx.index} if any(_others_form(sp, actors) for sp in mine)
                               else set()))
        unshown = data.not_acted_reason(n, cl)
        if named and actors and not mine and unshown:
            ev.reason = unshown         # his act is not shown (clauses.toml says why); others' steps cite it
        elif named and actors and not mine and _done_by_subject(cl.text):
            who = sorted({a for sp in over for a in sp.who})
            ev.results.append(("subject", f"subject:{subj}", False, "",
                               f"the steps that cite it are acted by {', '.join(who)}, not {subj} "
                               f"({', '.join(actors)})"))
        elif named and actors:
            ev.results.append(("subject", f"subject:{subj}", True, "", ""))
        for aid in movers:
            own = [sp for sp in ev.spans if aid in sp.who or (_others_form(sp, actors) and aid in actors)]
            his = [sp for sp in spans if aid in sp.who] or own
            rest = (min(sp.start_s for sp in own), max(sp.end_s for sp in his), min(sp.start_s for sp in his))
            _per_actor(ctx, n, cl, _Windows(aid, own, spans, rest, reach, relay_turns(ctx.rite)), ev)
        ev.reason = ev.reason or ("" if ev.results else data.reason_for(n, cl))
        out.append(ev)
    _sequence(out)
    return out


#: acts the subject may leave to others' steps: words said, and acts the text denies (工不辭洗)
SAID = "許諾對曰告"


def _done_by_subject(text: str) -> bool:
    """Whether the clause says its subject does something (not only says it, nor only does not: 工不辭洗; not
    a condition: 若皆與射)."""
    from ...text.clauses import ACTS
    if "若" in text:
        return False
    text = text.split("曰")[0]
    return any(c in ACTS and c not in SAID and "不" not in text[max(0, k - 2):k] for k, c in enumerate(text))


@lru_cache(maxsize=64)
def _in_names(full: str, chapter: Chapter | None = None) -> frozenset[int]:
    from ...text.clauses import names_of
    return frozenset(k for s, e, _ in names_of(full, chapter) for k in range(s, e))


class _Windows:
    """An actor's windows on a clause, per word: only his steps whose phrase cites that very word (a step
    citing 執觶興賓答拜 acts the 答拜 of 賓答拜降, not the 降)."""

    def __init__(self, aid: str, own: list[StepSpan], section_spans: list[StepSpan], rest: tuple[float, float, float],
                 reach: Reach, turns: Sequence[tuple[str, float, float]] = ()) -> None:
        self.aid, self.own, self.all, self.rest, self.reach = aid, own, section_spans, rest, reach
        self.turns = list(turns)            # a relay's step: held in each of his turns (turns.py)
        self._cache: dict[tuple[StepSpan, ...], pr.Span] = {}

    def at(self, i: int) -> pr.Span | None:
        spans = tuple(sp for sp in self.own if _reaches(self.reach, sp, i, i + 1))
        if not spans:
            return None
        if spans not in self._cache:
            nxt = [sp for sp in self.all if self.aid in sp.who and sp.start_s >= spans[-1].end_s - 1e-6
                   and sp not in spans]
            self._cache[spans] = pr.Span(self.aid, split(list(spans), self.aid, self.turns),
                                         min((sp.end_s for sp in nxt), default=None),
                                         self.rest, min((sp.start_s for sp in nxt), default=None))
        return self._cache[spans]


def _per_actor(ctx: Ctx, n: int, cl: Clause, ws: _Windows, ev: _Eval) -> None:
    text = cl.text
    full = ctx_text(n, ctx.chapter)
    in_name = _in_names(full, ctx.chapter)
    skip_to = -1
    seen = set()
    poses: list[tuple[str, pr.Span, int]] = []
    placed: set[str] = set()
    if text.startswith("辯") and text[1:2] in "拾乃取卒":
        return                  # 辯拾取矢, 辯乃…: "when all have done it", said of the acts before
    for k, c in enumerate(text):
        i = cl.start + k
        if i in in_name:
            continue
        w = ws.at(i)
        if w is None:
            continue            # no step of his cites this word
        if c in "命使曰請告作" and k + 1 < len(text) and (c == "曰" or text[k + 1] not in "于於"):
            break               # what follows is commanded, asked or said: the acts of others, later
            # (受命于主人…, 告于主人遂立于楹間: told or asked *of* someone, his own acts go on)
        if c == "如":
            # 如初 / 如賓禮 / 如升射: the words after 如 name earlier acts, not this one's
            stop = next((j for j in range(k + 1, min(len(text), k + 6)) if text[j] in "初之禮"), k + 2)
            skip_to = stop
        if k <= skip_to:
            continue
        if c in "不" and k + 1 < len(text):
            word = "升堂" if text[k + 1:k + 3] == "升堂" else text[k + 1]
            what = pr.NEGATIONS.get(word)
            if what and not (word == "坐" and text[k + 2:k + 3] in "席"):
                ok, det = pr.negation_test(ctx, what, w)
                ev.results.append(("negation", f"negation:不{word}", ok, w.aid, det))
            continue
        if c in "面" and k >= 1:
            face = facing_at(text, k)
            # 席賓南面, 席主人於阼階上西面: the way a mat is laid (the layout's), not a facing of the one laying it
            if face and not _of_a_mat(text, k):
                ok, det = pr.each(partial(pr.facing_test, ctx, face), w, i) or (True, "")
                ev.results.append(("facings", f"facings:{face}", ok, w.aid, det))
            continue
        place = _place_word(text, k, lead=k == 0 or i - 1 in in_name, chapter=ctx.chapter)
        if place and place not in placed and (not ev.actors or ws.aid in ev.actors) and not _of_a_mat(text, k):
            placed.add(place)
            side = text[k + len(place):k + len(place) + 4]
            row = any(r in text for r in ("北上", "東上", "西上", "南上"))      # (西面北上: a row, ranked)
            way = text[k - 2:k] in ("交于", "交於")          # (交于階前: where the two cross, on the way)
            ok, det = pr.each(partial(where.at_place, ctx, place, side, row=row, way=way), w, i) or (True, "")
            ev.results.append(("places", f"places:{place}", ok, w.aid, det))
        level = where.level_word(text, k, ctx.words.places)
        if level and level not in placed and (not ev.actors or ws.aid in ev.actors):
            # 復位當西序東面, 立于西階西當西序: level with the 序 (its line north–south), wherever in the court
            placed.add(level)
            ok, det = pr.each(partial(where.level_with, ctx, level), w, i) or (True, "")
            ev.results.append(("places", f"places:當{level}", ok, w.aid, det))
        # (立于司射之南, 北面于三耦之南, 拜送于主人之西; not a way: 出于司射之南)
        beside = _beside_whom(full, i + 1, ctx.chapter) if c in "于於" and text[k - 1:k] in "立俟止面送" else None
        if beside and beside not in placed and (not ev.actors or ws.aid in ev.actors):
            # 立于司射之南, 立于大夫之南: beside a man — where he is then (his track), not a place of the layout
            placed.add(beside)
            people = set(actors_of(ctx, beside, n, w.t0, i + 1)) - {w.aid}
            if people:
                ok, det = where.beside(ctx, people, w, row=len(ev.actors) > 2,
                                       ranked=any(r in text for r in ("北上", "東上", "西上", "南上")))
                ev.results.append(("places", f"places:{beside}之側", ok, w.aid, det))
        final = k == len(text) - 1
        if c == "授" and w.aid in _named_at(ctx, full, i + 1, n, w.t0):
            continue            # 授執爵者: handed *to* him (his 受 is another clause's)
        r = (pr.verb_test(ctx, c, full, i, w, final=final) if c in POSTURE_WORDS
             else pr.each(partial(_verb, ctx, c, full, i, final), w, i))
        if text[k:k + 2] == "揖弓":
            continue            # 揖弓: 鄭 §22 揖，推之也 — the bow pushed forward, no salute
        if r is not None and c in POSTURE_WORDS:
            poses.append((c, w, i))     # held as one sequence, in the text's order, after the loop
        elif r is not None and c not in seen:
            seen.add(c)
            ev.results.append(("verb", f"verb:{c}", r[0], w.aid, r[1]))
        if c in pr.TAKE + pr.PUT + "以搢" and k + 1 < len(text) and text[k - 1:k] != "不":   # (不執弓: denied)
            thing = _thing(text, k)
            if thing and (c != "以" or (text[k + 2:k + 3] and text[k + 2:k + 3] in "降升出入適")):
                ok, det = pr.each(partial(pr.holds_thing, ctx, thing, rest=c in pr.TAKE), w, i) or (True, "")
                ev.results.append(("object", f"object:{c}{thing}", ok, w.aid, det))
        if c in pr.TO_PERSON and text[k - 1:k] not in "相答再三壹不" and k + 1 < len(text):
            nm = name_at(full, i + 1, ctx.chapter)
            if nm and (nm in ctx.groups or nm in ("賓", "主人", "大夫", "獲者", "釋獲者", "司馬", "司射")):
                people = set(actors_of(ctx, nm, n, w.t0, i + 1)) - {w.aid}
                if people:
                    ok, det = pr.person_there(ctx, people, w)
                    ev.results.append(("object", f"object:{c}{nm}", ok, w.aid, det))
    seat = where.seat_of(ctx, ev.subject, text, placed)
    acts = {id(x.spans): x for k in range(len(text)) if (x := ws.at(cl.start + k)) is not None}
    if seat and acts and (not ev.actors or ws.aid in ev.actors):
        # (乃合樂…工告于樂正: the 工 on the 工席, 堂廉東上, in each of his steps on it — the song and the 告)
        ok, det = next(((o, d) for o, d in (where.on_seat(ctx, seat, x) for x in acts.values()) if not o), (True, ""))
        ev.results.append(("places", f"places:{seat}", ok, ws.aid, det))
    if poses:
        used = ctx.__dict__.setdefault("_posture_used", {}).setdefault(ws.aid, set())
        # a standard form acting the words again for each pair (the forfeit's 揖如升射): each repetition holds the
        # sequence alone, or one pair's 揖 would stand for another's (predicates.Span.each)
        reps = [x.each(i) for _, x, i in poses]
        n_reps = max(len(r) for r in reps)
        ok, det = True, ""
        for k_rep in range(n_reps):
            seq = [(c, rep[k_rep] if len(rep) == n_reps else rep[0]) for (c, _, _), rep in zip(poses, reps)]
            ok, det = pr.posture_sequence(ctx, ws.aid, seq, used)
            if not ok:
                break
        words = "".join(c for c, _, _ in poses)
        ev.results.append(("postures", f"postures:{words}", ok, ws.aid, det))
    every = next((w for w in ("辯", "皆") if w in text[1:]), None)
    # the group must be named here (a carried subject may not be the one the 皆 gathers)
    group = (ev.subject in ctx.groups or "、" in ev.subject) and (cl.named or ev.subject != cl.subject)
    if every and ev.actors and len(ev.actors) > 1 and group and "若" not in text:
        # 皆 / 辯: every one the subject names acts (or is acted for: 辯有脯醢); 辯 opening a clause is "when
        # all have done it" (辯乃徹豐與觶), said of the clause before; 若皆 is a condition
        acting = {a for sp in ev.spans for a in sp.who} | {ctx.step_of(sp).to for sp in ev.spans}
        # every member in the section's cast or ever in sight (one who never comes is as missing as one
        # who stays away)
        cast = set(ctx.sections[cl.section].cast)
        vis = {a for a in ev.actors if a in cast or _present(ctx, a) or a in acting}
        missing = sorted(vis - acting)
        name = f"every:{every}"
        if not any(r[1] == name for r in ev.results):
            ev.results.append(("every", name, not missing, "", f"{len(missing)} of {len(vis)} not: "
                               f"{', '.join(missing)}" if missing else ""))


def _named_at(ctx: Ctx, full: str, i: int, n: int, t: float) -> tuple[str, ...]:
    """The people the name at ``full[i]`` means (none if no name starts there)."""
    nm = name_at(full, i, ctx.chapter)
    return actors_of(ctx, nm, n, t, i) if nm else ()


def _verb(ctx: Ctx, c: str, full: str, i: int, final: bool, w: pr.Span) -> tuple[bool, str] | None:
    return pr.verb_test(ctx, c, full, i, w, final=final)


def _present(ctx: Ctx, aid: str) -> bool:
    """Whether he is ever in sight under this reading."""
    _, vs = ctx._visible[ctx.index[aid]]
    return bool(any(vs))


def _thing(text: str, k: int) -> str | None:
    """The thing a verb at text[k] names as what it takes or puts (取弓矢 → 弓; 取俎西之觶 → 觶; 委于楅: none,
    a place)."""
    for j in range(k + 1, min(len(text), k + 5)):
        t = text[j]
        if t in "于於":
            return None
        if t in pr.THINGS and (j + 1 == len(text) or text[j + 1] not in "西東南北之上下"):
            return t
    return None


def ctx_text(n: int, chapter: Chapter | None = None) -> str:
    from ...text import passage
    return passage(n, chapter=chapter).text


def _sequence(evs: list[_Eval]) -> None:
    """The clauses one actor acts come in the text's order: his first act of each is not before his first
    act of the clause before it (steps that cite both count for both)."""
    last: dict[str, tuple[float, StepSpan, str]] = {}
    for ev in evs:
        if len(ev.actors) > 2 and "如" in ev.clause.text:
            # a group's 亦如之 / 如初: its members repeat the words pair after pair, overlapping the pair
            # before (與升射者相左): the order is the group rule's and the forms'
            continue
        for aid in sorted({a for sp in ev.spans for a in sp.who if not ev.actors or a in ev.actors}):
            mine = [sp for sp in ev.spans if aid in sp.who]
            if not mine:
                continue
            first = min(mine, key=lambda sp: (sp.act_of(aid) or (sp.start_s,))[0])
            t = (first.act_of(aid) or (first.start_s,))[0]
            if first.do in FORM_VERBS or (aid in last and last[aid][1].do in FORM_VERBS):
                last[aid] = (t, first, ev.clause.text)
                continue        # a standard form acts its words in its own order (the forms rule's)
            if aid in last:
                t_prev, sp_prev, text_prev = last[aid]
                ok = t >= t_prev - 0.05 or sp_prev in mine
                ev.results.append(("sequence", "sequence", ok, aid, "" if ok else
                                   f"his first act of it at {t:.1f} s, before 「{text_prev}」 at {t_prev:.1f} s"))
            last[aid] = (t, first, ev.clause.text)


def evaluate(ctx: Ctx) -> dict[int, list[_Eval]]:
    """Every section's clauses, evaluated once per Ctx."""
    cached = getattr(ctx, "_clause_eval", None)
    if cached is None:
        data = load_data(ctx.chapter)
        cached = {n: _evaluate_section(ctx, n, data) for n in sorted(ctx.sections)
                  if n in ctx.spans_by_section or not ctx.windowed}
        ctx._clause_eval = cached
    return cached


def _row(n: int, ev: _Eval) -> ClauseCoverage:
    steps = tuple(sorted({sp.index for sp in ev.spans}))
    checks = tuple(dict.fromkeys(name for _, name, ok, _, _ in ev.results if ok))
    fails = tuple(f"{name}{' ' + who if who else ''}: {det}" for _, name, ok, who, det in ev.results if not ok)
    status = "not-acted" if not ev.spans else "checked" if ev.results else "acted"
    return ClauseCoverage(n, ev.clause.source, ev.clause.text, ev.clause.start, ev.subject, ev.actors, steps,
                          status, checks, fails, ev.reason)


def section_clauses(rite: Rite, n: int, ctx: Ctx | None = None) -> list[ClauseCoverage]:
    """The clauses of section ``n`` with their steps, the predicates that held and those that failed."""
    ctx = ctx or _ctx_of(rite)
    from .jirows import ji_rows
    return [_row(n, ev) for ev in evaluate(ctx).get(n, [])] + ji_rows(ctx, n, ClauseCoverage)


def _ctx_of(rite: Rite) -> Ctx:
    c: Ctx | None = getattr(rite, "_grammar_ctx", None)
    if c is None:
        c = Ctx(rite)
        try:
            rite._grammar_ctx = c
        except AttributeError:
            pass
    return c


def findings_of(ctx: Ctx, family: str) -> list[Finding]:
    """The failures of one family as findings."""
    out = []
    for n, evs in evaluate(ctx).items():
        for ev in evs:
            for fam, name, ok, who, det in ev.results:
                if fam != family or ok:
                    continue
                sp = next((s for s in ev.spans if not who or who in s.who), ev.spans[0])
                out.append(Finding(family, n, sp.index, ev.clause.text, name.split(":", 1)[-1],
                                   pr.requires(name, who), det, who, sp.start_s))
    return out


def summary(ctx: Ctx) -> dict[int, dict[str, Any]]:
    """Per section: clauses, acted, checked and the unchecked ones."""
    out = {}
    for n, evs in evaluate(ctx).items():
        rows = [_row(n, ev) for ev in evs]
        out[n] = {"clauses": len(rows), "acted": sum(r.status != "not-acted" for r in rows),
                  "checked": sum(r.status == "checked" for r in rows),
                  "unchecked": [r for r in rows if r.status != "checked"]}
    return out
