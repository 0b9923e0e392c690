"""The predicates a clause of the text puts on the compiled tracks (the clause families of the checker).

For one clause (``scene.text.clauses``) and the steps that act it, each predicate looks at the tracks of
the actors that act it, over the time of *their own* steps that cite the clause, and says whether it
holds, with the numbers:

* ``verb``     — its act is done: 升 reaches the 階 / 堂 (z ≥ 2 尺), 降 the ground, 坐 kneels, 拜 bows, 揖
  salutes, 興 / 立 are up, 取 / 受 / 執 leave something in hand, 奠 / 授 / 委 change what is held, 入 / 出
  pass the 門, 適 / 反 / 復 / 進 / 退 move, 洗 / 盥 are at the 洗, 射 shoots, 卒 / 飲 / 獻 / 酬 / 實 hold a cup;
* ``negation`` — 不拜 (no bow), 不升堂 (not onto the 堂), 不祭 / 不洗 / 不辭 (no such act), 不坐 (no kneeling);
* ``subject``  — a named subject is among the actors of the steps that act the clause;
* ``object``   — what 取 / 受 / 執 / 以 / 奠 / 授 names is what he holds (爵, 觶, 弓, 矢, 俎 …), and a person
  saluted, bowed to, offered or commanded (揖眾賓, 拜賓, 獻大夫, 命獲者) is there to receive it;
* ``sequence`` — the clauses of one actor are acted in the text's order;
* ``every``    — 辯: every member of the group acts.

``facing`` (X面) and ``posture`` are evaluated too, for the coverage only: the old ``facing`` and
``posture`` rules give their findings.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..state import StepSpan
from .context import Ctx, angle_diff
from .words import FACING_TOLERANCE_DEG, FACINGS

#: the things the text names as held, by the character in the holding track's label
THINGS = "爵觶弓矢俎扑旌筭瑟楅中豐觚"
#: verbs that take a thing into the hands / put it out of them
TAKE, PUT = "取受執", "奠授委加"
#: verbs that take a person as their object (the person must be there)
TO_PERSON = "揖拜獻酬命請告"
#: 不X: what must not be seen
NEGATIONS = {"拜": "bow", "坐": "sit", "祭": "taste", "洗": "wash", "辭": "decline", "升堂": "tang"}
#: act verbs (step.do) of the 不X that are acts, not postures
NEG_DO = {"taste": ("taste",), "wash": ("wash", "wash_hands"), "decline": ("decline",)}
ON_STAIRS_Z = 2.0        # 升: at least the top 等 (盡階) — 尺
GROUND_Z = 0.5
NEAR_XI = 10.0           # 洗 / 盥: within this of the 洗 — 尺
MOVE = 0.3               # 進 / 退 / 反 / 適: moved at least this — 尺
EPS = 0.5                # seconds around a step for what its act leaves (in hand, up, gone)


class Span:
    """An actor's own time on the clause: his steps that cite it (start, end, do, act start, act end)."""

    def __init__(self, aid: str, spans: list[StepSpan], until: float | None = None,
                 rest: tuple[float, ...] | None = None, next_start: float | None = None) -> None:
        self.aid = aid
        self.next_start = next_start
        self._rest = rest
        self.spans = spans
        self.ivs = [(sp.start_s, sp.end_s) for sp in spans]
        self.own = list(self.ivs)           # his steps only (what must NOT be seen is looked for here)
        self.ext = list(self.ivs)
        #: what he takes by the clause's words he has in hand at some time of his part in the section
        #: (耦讓取弓矢 said once, the bows taken pair by pair later; 辯拾取矢 after they have)
        self.rest = [rest[:2] if rest else (self.ivs[0][0], self.ivs[-1][1])]
        #: from his first step in the section to the end of these (卒射: he has shot by now)
        self.so_far = (rest[2] if rest and len(rest) > 2 else self.ivs[0][0], self.ivs[-1][1])
        if until is not None and until > self.ivs[-1][1]:
            # a 升 his steps leave unfinished may be finished by his next step (升…及階, then 升)
            self.ext.append((self.ivs[-1][1], until))
        self.t0 = min(a for a, _ in self.ivs)
        self.t1 = max(b for _, b in self.ivs)

    def ends(self) -> list[float]:
        return [act[1] if (act := sp.act_of(self.aid)) else sp.end_s for sp in self.spans]

    def each(self, i: int) -> list[Span]:
        """The repetitions of a standard form's act of the word at passage offset ``i``, each alone (the
        forfeit acts 執爵者…實之 for every drinker: each time must show it, not one of them): its sub-steps
        whose own words hold it; else this span (a word the form acts once, or a step that is no form)."""
        own = [sp for sp in self.spans if sp.offset <= i < sp.offset + len(sp.phrase)]
        if len(own) < 2 or len({sp.index for sp in own}) != 1 or not all(sp.do in REPEATING for sp in own):
            return [self]
        return [Span(self.aid, [sp], None, self._rest, self.next_start) for sp in own]


def each(test: Callable[[Span], tuple[bool, str] | None], w: Span, i: int) -> tuple[bool, str] | None:
    """``test`` on every repetition of the form's act of the word at ``i`` (:meth:`Span.each`): the first
    that fails, else the first result (None: no test)."""
    out = None
    for x in w.each(i):
        r = test(x)
        if r is not None and not r[0]:
            return r
        out = out or r
    return out


def _postures(ctx: Ctx, w: Span) -> list[str]:
    out = []
    for a, b in w.ivs:
        out += [p for _, p in ctx.postures(w.aid, a, b)]
    return out


#: the steps that take something into the hands themselves (their own window must show it; a relay's: each
#: drinker's turn, grammar/turns.py)
TAKE_DOS = ("take", "receive", "pick_arrows", "collect_arrows", "tell_count", "relay")
#: the steps that put one thing out of the hands (a 授 said once and acted for each archer in turn)
PUT_DOS = ("hand", "set_down")


def _holdings(ctx: Ctx, w: Span, after: float = EPS, rest: bool = False) -> list[str]:
    ts, vs = ctx._holding[ctx.index[w.aid]]
    out = []
    # a clause cited by steps that do not take anything themselves (耦讓取弓矢 cited by the 讓) is done by
    # the end of his part in the section; a take step must show it in its own time
    rest = rest and not any(sp.do in TAKE_DOS for sp in w.spans)
    for a, b in (w.rest if rest else w.ivs):
        out.append(ctx.holding(w.aid, a))
        out += [str(v) for t, v in zip(ts, vs) if a < t <= b + after]
        out.append(ctx.holding(w.aid, b + after))
    return out


def _counts(label: str) -> dict[str, int]:
    """How many of each thing a holding label shows ('弓、矢×4' → 弓 1, 矢 4)."""
    out: dict[str, int] = {}
    for item in filter(None, label.split("、")):
        name, _, n = item.partition("×")
        out[name] = out.get(name, 0) + (int(n) if n.isdigit() else 1)
    return out


def _lost(hs: list[str]) -> bool:
    """Whether, along these holdings in time order, a thing once held is later fewer or gone."""
    for k, h in enumerate(hs):
        had = _counts(h)
        if had and any(any(_counts(later).get(x, 0) < n for x, n in had.items()) for later in hs[k + 1:]):
            return True
    return False


def _zs(ctx: Ctx, w: Span, ext: bool = False) -> np.ndarray:
    return np.concatenate([ctx.path(w.aid, a, b, 0.25)[1][:, 2] for a, b in (w.ext if ext else w.ivs)])


def _moved(ctx: Ctx, w: Span) -> float:
    best = 0.0
    for a, b in w.ivs:
        _, xyz = ctx.path(w.aid, a, b, 0.5)
        best = max(best, float(np.max(np.linalg.norm(xyz[:, :2] - xyz[0, :2], axis=1))))
    return best


def _walked_in(ts: np.ndarray, y: np.ndarray, at: int, b: float) -> bool:
    """入: from the 門 (``y[at]``) on inward at least 1 尺 by the end of his step ``b`` — not in the next
    step's walk after it (a man left standing in the gateway: 鄉飲酒 §24 公如大夫入, on from 乃入)."""
    mine = y[at:][ts[at:] <= b + 0.05]
    return bool(mine.size) and float(mine.max() - y[at]) >= 1.0


def _appears(c: str, vis: list[bool], inside: bool) -> bool:
    """入 / 出 by coming into sight or going out of it — an 入 only if he is inside the 門 as his step ends: a
    man who appears and stays outside (or never leaves the wings) has not come in (鄉飲酒 §24 乃入)."""
    return vis[0] != vis[1] and (c != "入" or inside)


def verb_test(ctx: Ctx, c: str, text: str, i: int, w: Span, final: bool = False) -> tuple[bool, str] | None:
    """Whether the act-character ``c`` at ``text[i]`` is done by ``w.aid`` in his steps (None: no test);
    ``final``: the character ends its clause (主人退, 賓反: he goes, and nothing is named after it)."""
    nxt = text[i + 1:i + 2]
    prev = text[i - 1:i]
    if prev in "不未":
        return None
    if c in "升降" and nxt == "席":
        # 升席 / 降席: onto his mat and off it — he moves (the mat's place is the layout's)
        d = _moved(ctx, w)
        return d >= MOVE, f"moved {d:.1f} 尺"
    if ((c in "退反復" and final and prev not in "少辟" and nxt not in "坐奠")      # (反坐: he kneels again)
            or (c == "退" and prev not in "少辟" and nxt not in "中楅"              # (退中, 退楅: things removed;
                and text[i - 2:i - 1] != "以")                                       # 命獲者以旌退: the 獲者's)
            or (c == "反" and nxt == "于") or (c == "復" and nxt in "觶其")):          # 反于射位, 復觶南, 復其位
        d = _moved(ctx, w)
        return d >= MOVE, f"moved {d:.1f} 尺"
    if c == "升" and nxt not in "席" and text[i + 1:i + 3] not in ("飲者", "射者"):   # 升飲者: those who go up
        z = float(_zs(ctx, w, ext=True).max())
        return z >= ON_STAIRS_Z, f"highest z {z:.1f} 尺"
    if c == "降" and nxt not in "席":
        z = float(_zs(ctx, w).min())
        return z <= GROUND_Z, f"lowest z {z:.1f} 尺"
    if c == "射" and prev == "卒" and nxt not in "者" and ctx.chor.actors[w.aid].archer:
        a, b = w.so_far
        ps = [p for _, p in ctx.postures(w.aid, a, b)]
        return "shoot" in ps, f"postures since his first step of the section {'/'.join(dict.fromkeys(ps))}"
    if c == "發" and prev == "拾":
        c, prev = "射", "乃"            # 拾發: they shoot in turn
    if c in "坐拜揖射" and not (c == "拜" and prev in "相") and not (c == "射" and prev not in "乃遂誘繼"):
        want = {"坐": "sit", "拜": "bow", "揖": "salute", "射": "shoot"}[c]
        if c == "射" and nxt in "位器事宮于者之":
            return None
        if c == "射":
            # 繼射: they shoot in their turn, in the shoot form's own steps later in the section
            ps = [p for a, b in w.rest for _, p in ctx.postures(w.aid, a, b)]
        else:
            ps = _postures(ctx, w)
        return want in ps, f"postures {'/'.join(dict.fromkeys(ps))}"
    if c in "興立":
        ends = w.ends()
        ps = [ctx.posture(w.aid, t + 0.1) for t in ends]
        return any(p != "sit" for p in ps), f"posture after his act {'/'.join(dict.fromkeys(ps))}"
    if c in "辭對許諾告命請":
        # words said: he is there, in sight, when he says them
        t = w.ends()[0]
        return ctx.visible(w.aid, t), f"{'in sight' if ctx.visible(w.aid, t) else 'out of sight'} at {t:.1f} s"
    if c in TAKE or c in "搢挾" or (c in "飲實酌" and nxt not in "洗盥") or (c == "卒" and nxt in "爵觶"):
        hs = _holdings(ctx, w, rest=c in TAKE)
        if c == "卒" or (c == "飲" and prev not in "卒繼" and nxt not in "不者"):
            # 卒爵, 卒觶, 飲: a cup in his hands (a bow held is no cup) — not 卒飲 nor 繼飲 (三耦卒飲, 眾賓繼飲:
            # the group, of whom only the losers drink), 飲不勝者 (the losers made to drink) nor 飲者 (the
            # drinkers, a name)
            ok = any(k in h for h in hs for k in "爵觶觚")
            return ok, f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"
        return any(hs), "holding nothing" if not any(hs) else f"holding {hs[-1] or hs[0]}"
    if (c in "設薦" and nxt not in "于於中之與洗尊篚楅豐侯乏" and prev not in "其執"
            and any(sp.do in ("set_down", "take", "hand") for sp in w.spans)):
        # 設 / 薦 by the one who serves it: the 薦 / 俎 pass through his hands at the steps that cite it
        # (the 洗, 尊, 篚, 楅 … are set in place, not carried: the layout's; 設篚于禁南)
        hs = _holdings(ctx, w)
        ok = len(set(hs)) > 1 or any(k in h for h in hs for k in "薦俎脯")
        return ok, f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"
    if c == "釋" and nxt in "弓矢扑":
        # 釋弓 (the 司馬 after each 命, the archers at 堂西): the thing named leaves his hands — held while
        # he comes to put it down, not held once his part of the clause is done
        before = [h for a, _ in w.ivs for h in (ctx.holding(w.aid, a),)]
        after = ctx.holding(w.aid, w.ivs[-1][1] + EPS)
        ok = any(nxt in h for h in before) and nxt not in after
        return ok, f"holding {' → '.join(dict.fromkeys(before + [after])) or 'nothing'}"
    if c in PUT and (c in "奠授" or nxt in THINGS) and not (c == "奠" and prev in TAKE):
        # (取奠觶: 奠觶 is the thing taken — the 觶 set down before — not a 奠 acted)
        # something leaves his hands: a thing he held is fewer, or gone, after (取俎還授司正 cited by the take
        # too: the 俎 coming into his hands is no 授)
        # 授X then X受 (實觶東南面授主人主人阼階上拜賓少退主人受觶): his steps that cite 授 only bring it; it
        # leaves his hands at the other's 受, later in his part of the section (a standard form hands it over in
        # its own steps: those hold it there)
        hs = _holdings(ctx, w, rest=c == "授" and not any(sp.do in PUT_DOS + FORM_DOS + ("offer",)
                                                         for sp in w.spans))
        # his several steps that each put one away (授弓 to each archer in turn: 遂有司左執弣右執弦而授弓):
        # every one of them shows a thing leaving his hands, not only the first
        puts = [sp for sp in w.spans if sp.do in PUT_DOS]
        if len(puts) > 1:
            for sp in puts:
                one = _holdings(ctx, Span(w.aid, [sp]))
                if not _lost(one):
                    return False, f"at {sp.start_s:.1f} s holding {' → '.join(dict.fromkeys(one)) or 'nothing'}"
        return _lost(hs), f"holding {' → '.join(dict.fromkeys(hs)) or 'nothing'}"
    if c in "洗盥" and prev not in "適于當之於南北東西拜辭" and nxt not in "南北東西":
        xi = ctx.place_of("洗")
        if xi is None:
            return None
        # 降洗 / 降盥: he goes down to wash — the purpose of the descent, whose washing the text may tell after
        # the 辭 and 對 it waits for (降洗…坐奠爵于階前辭…適洗…盥洗): at the 洗 in his part of the section
        d = min(float(np.min(np.linalg.norm(ctx.path(w.aid, a, b, 0.5)[1][:, :2] - xi[:2], axis=1)))
                for a, b in (w.rest if prev == "降" else w.ivs))
        return d <= NEAR_XI, f"nearest the 洗 {d:.1f} 尺"
    if c == "獲" and prev not in "射無":
        # 獲: the one who calls the hits (the 旌) or lays them (the 筭) has it in hand during his part
        hs = _holdings(ctx, w, rest=True)
        return any("旌" in h or "筭" in h for h in hs), f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"
    if c == "進" and prev not in "少" and nxt not in "諸":
        # 進 / 退: he moves (in his steps, or by the end of his next: 揖進 then the approach)
        best = 0.0
        # only a salute or bow step (揖進: the salute, then the approach that walks) is moved by his next step;
        # a man who 以進 in his own step and stays where he is has not gone forward (third reading X8)
        for a, b in (w.ext if all(sp.do in ("salute", "bow") for sp in w.spans) else w.ivs):
            _, xyz = ctx.path(w.aid, a, b, 0.5)
            best = max(best, float(np.max(np.linalg.norm(xyz[:, :2] - xyz[0, :2], axis=1))))
        return best >= MOVE, f"moved {best:.1f} 尺"
    if c in "入出" and nxt != "于" and text[i:i + 2] != "出入" and prev != "初":
        gate = ctx.place_of("門")
        if gate is None:
            return None
        ok = False
        for a, b in w.ivs:
            ts, xyz = ctx.path(w.aid, a - EPS, b + EPS, 0.25)
            vis = [ctx.visible(w.aid, t) for t in (a - EPS, b + EPS)]
            # through the 門: at it, and walking in from it (入) or out to it (出) — not standing there
            y = xyz[:, 1]
            at = int(np.argmin(y))
            # (入: inside by the end of his step — a man still outside as it ends has not come in)
            inside = ctx.pos(w.aid, b)[1] >= gate[1] - 0.5          # (門左: on the gate's line, the 8th 眾賓)
            crossed = y[at] <= gate[1] + 2.0 and (inside and _walked_in(ts, y, at, b) if c == "入"
                                                  else y[:at + 1].max() - y[at] >= 1.0)
            ok |= crossed or _appears(c, vis, inside)
        return ok, "never at or through the 門"
    if c == "還" and nxt not in "其":
        # 還: he turns (左還, 還當上耦) — his heading changes by at least 30°, or he moves round
        turned = 0.0
        tk, v = ctx._pos[ctx.index[w.aid]]
        for a, b in w.ivs:
            hs = np.interp(np.arange(a, b + 0.25, 0.25), tk, v[:, 3]) % 360.0
            turned = max(turned, float(np.max(np.abs((hs - hs[0] + 180.0) % 360.0 - 180.0))))
        return turned >= 30.0 or _moved(ctx, w) >= 1.0, f"turned at most {turned:.0f}°"
    if c in "舉偃" and nxt == "旌":
        hs = _holdings(ctx, w)
        return any("旌" in h for h in hs), f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"
    if c == "俟" and prev not in "以" and w.next_start is not None:
        # 俟: once there, he waits — he does not walk off before his next step
        a, b = w.own[-1][1], w.next_start
        d = float(np.max(np.linalg.norm(ctx.path(w.aid, a, max(a, b), 0.5)[1][:, :2] - ctx.pos(w.aid, a)[:2],
                                        axis=1)))
        return d < 2.0, f"moved {d:.1f} 尺 between the end of his step ({a:.1f} s) and his next ({b:.1f} s)"
    if c in "反復" and nxt == "位" and prev not in "而後后":
        # 反位 / 復位: he goes back in the steps that cite it — walks back, or, where he only turned to face
        # someone (司射還當上耦西面…反位: 賈 左還迴身當之), turns back; where to is the motion rule's
        d = _moved(ctx, w)
        tk, v = ctx._pos[ctx.index[w.aid]]
        turned = 0.0
        for a, b in w.ivs:
            hs = np.interp(np.arange(a, b + 0.25, 0.25), tk, v[:, 3]) % 360.0
            turned = max(turned, float(np.max(np.abs((hs - hs[0] + 180.0) % 360.0 - 180.0))))
        return d >= MOVE or turned >= 30.0, f"moved {d:.1f} 尺, turned at most {turned:.0f}°"
    if c == "適" and nxt not in "之":
        d = _moved(ctx, w)
        return d >= MOVE, f"moved {d:.1f} 尺"
    return _verb_test_more(ctx, c, text, i, w)


#: 視X: what he watches — 視筭 / 視之 after the 中 is named (the 中 being set, the 筭 counted), 視侯 the 侯
WATCHED = {"筭": "court.zhong", "侯": "target.centre"}


def _verb_test_more(ctx: Ctx, c: str, text: str, i: int, w: Span) -> tuple[bool, str] | None:
    """視 faces what he watches; 釋一筭 / 釋獲 have the 筭 in hand; 舉觶 the 觶; 從之, 反, 復, 退 move."""
    nxt, prev = text[i + 1:i + 2], text[i - 1:i]
    if c == "視":
        pid = WATCHED.get(nxt) or ("court.zhong" if nxt == "之" and "中" in text[max(0, i - 14):i] else None)
        where = ctx.place(pid) if pid else None
        if where is None:
            return None
        from .context import bearing
        best = min(angle_diff(ctx.heading(w.aid, t), bearing(ctx.pos(w.aid, t)[:2], where[:2])) for t in w.ends())
        return best <= 60.0, f"heading {best:.0f}° off the bearing to the {pid}"
    if c == "釋" and nxt in "一獲" and text[i:i + 3] != "釋獲者":
        hs = _holdings(ctx, w, rest=True)
        return any("筭" in h for h in hs), f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"
    if c == "舉" and nxt == "觶":
        hs = _holdings(ctx, w, rest=True)
        return any("觶" in h for h in hs), f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"
    if c in "袒襲":
        # 袒 (袒決遂): the left arm bared by the end of his act; 襲: covered again (鄭: 袒，左免衣也)
        ds = [ctx.dress(w.aid, t + EPS) for t in w.ends()]
        ok = any(("袒" in d) == (c == "袒") for d in ds)
        return ok, f"dress {' / '.join(d or 'covered' for d in ds)}"
    if c == "為" and text[i + 1:i + 3] in ("司正", "司馬"):
        # 反為司正 / 為司馬: the office he holds from then on is the role track's
        roles = [ctx.role(w.aid, t + 0.1) for t in w.ends()]
        return any(r.startswith(text[i + 1:i + 3]) for r in roles), f"role {'/'.join(dict.fromkeys(roles))}"
    if (c == "從" and nxt == "之") or (c in "反復退" and (nxt == "" or text[i:i + 2] == "反命") and prev not in "少辟"):
        d = _moved(ctx, w)
        return d >= MOVE, f"moved {d:.1f} 尺"
    return None


#: what each posture word leaves him in: 坐 kneeling, 興 up from kneeling, 拜 a bow, 揖 a salute, 立 standing
_STATE = {"坐": "sit", "拜": "bow", "揖": "salute", "立": "stand"}


#: a rise, a bow or a salute may end the step before the one that cites its word (…坐取爵 | 興; a form's last
#: 揖 | 揖退), if no word before has used it: looked for this far back — seconds
RISE_LOOKBACK_S = 3.0


def posture_sequence(ctx: Ctx, aid: str, words: list[tuple[str, Span]], used: set[float]) -> tuple[bool, str]:
    """The clause's posture words, each a change of his posture, in the text's order, within his steps that
    cite them: 卒爵興坐奠爵 needs a kneel, a rise from it, a kneel again — a 興 is not held by a rise of a
    later step, nor a 坐 by one before.  A change one word has used (``used``: the times, over the clauses
    in text order) holds no other — except within a standard form, whose routine acts the text's many 揖 in its
    own count (the forms rule holds that count: 當階, 及階, 升堂, 當物, 及物 …).  Walking counts as standing.  In a standard form, whose step acts words up
    to those the next step cites, his next step counts too (卒射…南面揖: the 揖 opens the retire)."""
    form = any(sp.do in FORM_DOS for _, w in words for sp in w.spans)
    # (only the forms of a pair's walk and shot end with words their next step opens with: 卒射…南面揖; the
    # count acts its 興自前…坐 within itself, and a rise by the next step is no rise of it)
    opens_next = any(sp.do in OPENS_NEXT for _, w in words for sp in w.spans)
    a = min(t0 for _, w in words for t0, _ in w.ivs)
    b = max(t1 for _, w in words for _, t1 in (w.ext if opens_next else w.ivs)) + EPS
    states: list[tuple[float, str]] = []
    for t, p in ctx.postures(aid, a - RISE_LOOKBACK_S, b):
        p = "stand" if p == "walk" else p
        if not states or states[-1][1] != p:
            states.append((t, p))
    # only a change (興, 拜, 揖) may be found before his step, and only by the first word: the act that ends the
    # step before (…搢三挾一个揖 | 揖退: the form's last salute); a kneel or a stand counts as in force at its start
    j = 0 if words[0][0] in "興拜揖" else max(0, next((k for k, (t, _) in enumerate(states) if t > a), len(states)) - 1)
    got: list[float] = []
    for n, (c, ww) in enumerate(words):
        if c == "興":
            # a rise: from kneeling to standing — or, right after the clause's 拜 (a 拜 is made kneeling: 答拜興),
            # from the bow to standing
            rise_from = ("sit", "bow") if n > 0 and words[n - 1][0] == "拜" else ("sit",)
            k = next((k for k in range(max(j, 1), len(states)) if states[k - 1][1] in rise_from and
                      states[k][1] == "stand" and (form or states[k][0] not in used) and (n == 0 or states[k][0] >= a)),
                     None)
        else:
            # (a kneel or a stand begun only as his steps end is no act of theirs: it is the next step's)
            k = next((k for k in range(j, len(states)) if states[k][1] == _STATE[c] and
                      (form or states[k][0] not in used or c in "坐立") and
                      (c not in "坐" or states[k][0] < b - EPS - 0.05)), None)
        if k is None:
            seq = " → ".join(f"{p} {t:.1f}" for t, p in states)
            want = "".join(w for w, _ in words)
            return False, f"no {c} after the one before it ({want}): postures {seq} s"
        if c == "立":
            # 立 (立飲, 疑立, 立于X): standing as his act ends, not only standing at some moment of it
            end = max(ww.ends())
            if ctx.posture(aid, end - 0.05) == "sit":
                return False, f"kneeling as his act ends at {end:.1f} s ({''.join(w for w, _ in words)})"
        got.append(states[k][0])
        j = k if c in "坐立" else k + 1 if c in "拜揖" else k
    if not form:
        used.update(t for t, (c, _) in zip(got, words) if c not in "坐立")
    return True, ""


#: the standard forms: one step acts a whole routine of words (scene/rite/forms), each at its own moment
FORM_DOS = ("approach", "retire", "shoot", "pick_arrows", "forfeit", "count", "collect_arrows")
#: the forms whose step a window holds as repetitions (:meth:`Span.each`): the relay's, a drinker's turns
#: (grammar/turns.py)
REPEATING = FORM_DOS + ("relay",)
#: the forms whose last words the next step acts (卒射…南面揖: the 揖 opens the retire)
OPENS_NEXT = ("approach", "retire", "shoot", "pick_arrows")
#: how long a facing of a standard form must be held — seconds (a turn passing through it is not a facing)
FACING_HELD_S = 0.5


def facing_test(ctx: Ctx, word: str, w: Span) -> tuple[bool, str]:
    """He faces as the word says when his act ends; in a standard form, which acts many words each at its own
    moment (當階北面揖 … 南面 at the 物), at some moment of the form, held ``FACING_HELD_S``."""
    want = FACINGS[word]
    if any(sp.do in FORM_DOS for sp in w.spans):
        tk, v = ctx._pos[ctx.index[w.aid]]
        held = 0.0
        for a, b in w.ivs:
            ts = np.arange(a, b + 0.25, 0.25)
            ok = np.array([angle_diff(h, want) <= FACING_TOLERANCE_DEG for h in np.interp(ts, tk, v[:, 3]) % 360.0])
            run = best = 0
            for x in ok:
                run = run + 1 if x else 0
                best = max(best, run)
            held = max(held, best * 0.25)
        return held >= FACING_HELD_S, f"facing {word} ({want:.0f}° ± {FACING_TOLERANCE_DEG:.0f}) for {held:.2f} s of the form"
    hs = [ctx.heading(w.aid, t) for t in w.ends()]
    off = min(angle_diff(h, want) for h in hs)
    return off <= FACING_TOLERANCE_DEG, f"heading {hs[0]:.0f}° (wants {want:.0f}°)"


def negation_test(ctx: Ctx, what: str, w: Span) -> tuple[bool, str]:
    if what in ("bow", "sit"):
        ps = [p for a, b in w.own for _, p in ctx.postures(w.aid, a, b)]
        # 不坐 of a mat (不坐席) is not about kneeling at all; the caller keeps only real ones
        return what not in ps, f"postures {'/'.join(dict.fromkeys(ps))}"
    if what == "tang":
        z = float(max(ctx.path(w.aid, a, b, 0.25)[1][:, 2].max() for a, b in w.own))
        return z < ctx.hall.height - 0.05, f"highest z {z:.1f} 尺 (the 堂 at {ctx.hall.height:.1f})"
    dos = [sp.do for sp in w.spans]
    bad = [d for d in dos if d in NEG_DO[what]]
    return not bad, f"a {bad[0]} step" if bad else "none"


def holds_thing(ctx: Ctx, thing: str, w: Span, rest: bool = False) -> tuple[bool, str]:
    hs = _holdings(ctx, w, rest=rest)
    return any(thing in h for h in hs), f"holding {' → '.join(dict.fromkeys(h or '—' for h in hs))}"


def person_there(ctx: Ctx, people: set[str], w: Span) -> tuple[bool, str]:
    """Those acted on (揖眾賓, 獻賓) are visible while he acts."""
    t = w.ends()[0]
    gone = sorted(a for a in people if not ctx.visible(a, t))
    return not gone, f"at {t:.1f} s not there: {', '.join(gone)}" if gone else "there"


#: what each predicate requires, for the finding's line
REQUIRES = {
    "升": "him up the 階 (z ≥ 2 尺) in the steps that cite it", "降": "him down on the ground (z ≤ 0.5 尺)",
    "坐": "him kneeling (sit)", "拜": "him bowing (bow)", "揖": "him saluting (salute)", "射": "him shooting",
    "興": "him up (not sit) after his act", "立": "him standing after his act",
    "取": "something in his hands during his part in the section", "受": "something received into his hands",
    "執": "something held", "搢": "something held", "挾": "something held", "飲": "a cup in hand",
    "實": "a vessel in hand", "酌": "a vessel in hand", "卒": "a cup in hand",
    "奠": "what he holds to change (set down)", "授": "what he holds to change (handed over)",
    "委": "what he holds to change", "加": "what he holds to change",
    "釋": "the thing named in his hands before and out of them after (釋弓); the 筭 in his hands (釋獲)",
    "設": "what he serves passing through his hands", "薦": "what he serves passing through his hands",
    "洗": "him at the 洗 (≤ 10 尺)", "盥": "him at the 洗 (≤ 10 尺)", "入": "him through the 門",
    "出": "him through the 門 or out of sight", "適": "him moving (≥ 0.3 尺)",
    "反": "him going back (moving ≥ 0.3 尺, or turning ≥ 30° to 反位)",
    "復": "him going back (moving ≥ 0.3 尺, or turning ≥ 30° to 復位)",
    "卒射": "him having shot", "還": "him turning (≥ 30°)", "進": "him moving (≥ 0.3 尺)", "獲": "the 旌 or the 筭 in his hands", "舉": "the 旌 in his hands", "偃": "the 旌 in his hands",
    "俟": "him waiting where he is until his next step (< 2 尺)",
    "辭": "him in sight as he says it", "對": "him in sight as he says it", "許": "him in sight as he says it",
    "諾": "him in sight as he says it", "告": "him in sight as he says it", "命": "him in sight as he says it",
    "請": "him in sight as he says it",
    "視": "him facing what he watches (within 60°)", "從": "him moving (≥ 0.3 尺)",
    "退": "him moving (≥ 0.3 尺)",
    "為": "him in that office (the role track) after his step",
    "袒": "his left arm bared (袒) after his act", "襲": "his arm covered (襲) after his act",
}


def requires(name: str, who: str) -> str:
    """The requirement of a predicate (``verb:升``, ``negation:不拜``, ``object:取觶`` …) in words."""
    fam, _, word = name.partition(":")
    him = who or "the actors"
    if fam in ("verb", "posture"):
        return REQUIRES.get(word, f"the act {word}").replace("him", him).replace("his", f"{him}'s")
    if fam == "negation":
        return f"no {word[1:]} by {him} in the steps that cite it"
    if fam == "object":
        return f"{him} holding the {word[1:]}" if word[1:] in THINGS else f"the {word[1:]} there as {him} acts"
    if fam == "subject":
        return f"{word} among the actors of the steps that cite it"
    if fam == "sequence":
        return f"{him} acting it after the clause before it"
    if fam == "every":
        return "every member of the group acting (or acted for)"
    return name
