"""Bookkeeping: no object jumps between places (it moves only in someone's hands or in flight); a thing the
phrase has taken, set down, handed or received moves at that act; what is held shows in the hands; the 筭
number 80 (記62 箭籌八十) from §26 until 退中與筭 takes them all, and stay in and beside the 中; no archer has
more than 乘矢 (4)."""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..state import ObjectState
from .context import Ctx, Finding

#: acts that move a thing, and the words of the things the text names (一个 = one arrow)
_MOVING = {"take": "取執奉兼", "set_down": "奠設委加實", "hand": "授", "receive": "受", "offer": "獻酬酢"}
_THING_WORDS = re.compile(r"爵|觶|矢|一个|弓|旌|扑|中|筭|俎|薦|楅|豐|瑟|脯醢")
TOTAL_COUNTERS = 80


def check(ctx: Ctx) -> list[Finding]:
    return (_jumps(ctx) + _acts_move_things(ctx) + _counters(ctx) + _arrows(ctx) + _beside_jian(ctx)
            + _within_reach(ctx) + _put_down_leaves_the_hands(ctx) + _taken_is_in_hand(ctx))


#: 釋弓 / 奠爵 / 去扑 / 倚旌 / 委矢: the words that put a named thing down, and the thing words they name
_PUT_DOWN = re.compile(r"(?:釋|奠|去|倚|委)(弓矢|弓|矢|扑|爵|觶|旌|俎)")


def _count(held: str, thing: str) -> int:
    """How many of a thing (弓, 矢, 爵 …) a holding label shows ('弓、矢×4、扑' has 4 矢)."""
    n = 0
    for item in filter(None, held.split("、")):
        if item.startswith(thing):
            m = re.search(r"×(\d+)", item)
            n += int(m.group(1)) if m else 1
    return n


def _put_down_leaves_the_hands(ctx: Ctx) -> list[Finding]:
    """A step that sets down or leans what its words put down (司馬降釋弓, 司射去扑, 坐奠爵) leaves fewer of that
    thing in his hands than he held before it — the 弓 does not stay in the hand that 釋 it.  A thing he did
    not hold (the second step of 釋弓矢 puts down the 矢) is not asked."""
    out = []
    for sp in ctx.rite.spans:
        if sp.do not in ("set_down", "lean"):
            continue
        for aid, t0, t1 in sp.acts:
            words = "".join(s.text for s in ctx.own_segments(sp, aid))
            for m in _PUT_DOWN.finditer(words):
                before, after = ctx.holding(aid, t0 - 0.02), ctx.holding(aid, t1 + 0.3)
                held = [c for c in m.group(1) if _count(before, c)]
                if held and not any(_count(after, c) < _count(before, c) for c in held):
                    out.append(Finding("things", sp.section, sp.index, sp.phrase, m.group(0),
                                       f"{aid} without the {m.group(1)} he puts down",
                                       f"holding {after} after it (before: {before})", aid, t1))
    return out


def _lying(o: ObjectState, t: float) -> np.ndarray | None:
    """Where an object lies just after t (None: held, or nowhere yet)."""
    last = None
    for te, k, v in sorted((e for e in o.events if e[1] in ("at", "held")), key=lambda e: e[0]):
        if te > t:
            break
        last = np.array(v[:2], dtype=float) if k == "at" else None
    return last


#: 奠于薦西 / 薦東 / 薦右 / 薦左: the side of the 薦 a thing is set down on
_BESIDE_JIAN = re.compile(r"于薦(西|東|右|左)")
_OWNER_MAT = {"jian_bin": "mat.bin", "jian_zhuren": "mat.zhuren", "jian_dafu": "mat.dafu"}


def _beside_jian(ctx: Ctx) -> list[Finding]:
    """A thing set down 于薦西 / 薦東 (or 薦右 / 薦左, the right or left of the one the 薦 is for, as he sits
    on his mat) lies on that side of the 薦 and beside it (within 4 尺), not on the mat."""
    from ...geometry.places import FACING_DEG
    out = []
    d = ctx.rite.director
    for sp in ctx.rite.spans:
        m = _BESIDE_JIAN.search(sp.phrase)
        st = ctx.step_of(sp)
        if not m or sp.do != "set_down" or st.obj is None or st.obj not in d.objects:
            continue
        t = sp.end_s + 0.7
        thing = _lying(d.objects[st.obj], t)
        jians = [(oid, p) for oid in _OWNER_MAT if oid in d.objects
                 for p in [_lying(d.objects[oid], t)] if p is not None]
        if thing is None or not jians:
            continue
        oid, jian = min(jians, key=lambda j: float(np.hypot(*(j[1] - thing))))
        side = m[1]
        if side in "右左":
            mat = ctx.lay[_OWNER_MAT[oid]]
            assert mat.facing is not None           # (a mat faces a way)
            h = np.radians(FACING_DEG[mat.facing])
            right = np.array([np.cos(h), -np.sin(h)])
            want = right if side == "右" else -right
        else:
            want = np.array([-1.0, 0.0]) if side == "西" else np.array([1.0, 0.0])
        off = thing - jian
        along = float(off @ want)
        across = float(abs(off @ np.array([-want[1], want[0]])))
        if not (0.5 <= along <= 4.0 and across <= 1.0):
            out.append(Finding("things", sp.section, sp.index, sp.phrase, f"薦{side}",
                               f"{st.obj} set down on the {side} of the {oid} (0.5–4 尺 that way, ≤ 1 尺 aside)",
                               f"{along:.1f} 尺 that way, {across:.1f} 尺 aside", sp.who[0], sp.end_s))
    return out


def _jumps(ctx: Ctx) -> list[Finding]:
    out = []
    d = ctx.rite.director
    for oid, o in d.objects.items():
        evs = sorted((e for e in o.events if e[1] in ("at", "held", "path")), key=lambda e: e[0])
        for (_ta, ka, va), (tb, kb, vb) in zip(evs, evs[1:]):
            if ka == "at" and kb == "at":
                jump = float(np.hypot(vb[0] - va[0], vb[1] - va[1]))
                if jump > 0.5 and abs(vb[0]) < 1e4 and abs(va[1]) < 1e4 and va[1] > -1e3:
                    sp = ctx.rite.span_at(tb)
                    out.append(Finding("things", sp.section if sp else 0, sp.index if sp else None,
                                       sp.phrase if sp else "", "(no jumps)",
                                       f"{oid} carried from where it lay to where it goes",
                                       f"it jumps {jump:.1f} 尺 at {tb:.1f} s with no one holding it", "", tb))
    return out


REACH_CHI = 4.0      # 尺: a thing taken up or set down is within his reach (his hands 1 尺 before him, 3 尺 more)
#: 尺: two men handing a thing over stand within reach of each other, arm to arm (the longest in the rite: the
#: 主人 at the head of the 西階 giving the 爵 to a 笙 on its top 等, §12 盡階不升堂受爵, 5.5 尺 body to body)
HAND_CHI = 6.0
#: things whose laying is not yet asked: the archers' 弓 and 矢 and the 筭 (the §15 射器 placement, audit X1/X3:
#: the 賓's and 大夫's bows at the 西序 while they 執弓 at 堂西, §28 鄭 或言堂或言序…互言, is still open)
UNASKED = ("counters.", "arrow.", "bow.")


def _within_reach(ctx: Ctx) -> list[Finding]:
    """What one takes up from where it lies comes from within his reach, and what he sets down lies within it
    (the 爵 taken 于上篚 while it lay 西楹南; a 觶 taken from the 篚 by one standing at the 洗; a cup set down
    薦西 by one 10 尺 off); what one hands to another passes between two men within reach of each other.  His
    reach is measured from where *he* is (his track), not from where the thing is drawn in his hands.  Things
    first brought in from off the scene (the 薦 from the 房, the 俎 from outside) are not asked."""
    out = []
    off_y = ctx.rite.director.offstage[1] + 5
    a, b = ctx.window

    def far(aid: str, t: float, where: np.ndarray) -> float:
        return float(np.linalg.norm(ctx.pos(aid, t)[:2] - where))

    def finding(t: float, oid: str, who: str, requires: str, shows: str) -> None:
        sp = ctx.rite.span_at(t)
        out.append(Finding("things", sp.section if sp else 0, sp.index if sp else 0, sp.phrase if sp else "", oid,
                           requires, shows, who, t))
    for oid, o in ctx.rite.director.objects.items():
        evs = sorted((e for e in o.events if e[1] in ("at", "held", "path")), key=lambda e: e[0])
        for (_ta, ka, va), (t, kb, vb) in zip(evs, evs[1:]):
            if not a <= t <= b:
                continue
            if ka == "held" and kb == "held" and va and vb and va != vb:
                d = float(np.linalg.norm(ctx.pos(va, t)[:2] - ctx.pos(vb, t)[:2]))
                if d > HAND_CHI:
                    finding(t, oid, f"{va}+{vb}", f"{va} handing it to {vb} within {HAND_CHI:.0f} 尺 of him",
                            f"{d:.1f} 尺 apart at {t:.1f} s")
            if oid.startswith(UNASKED):
                continue
            if ka == "at" and va is not None and va[1] > off_y and kb == "held" and vb:
                d = far(vb, t + 0.02, np.asarray(va[:2]))
                if d > REACH_CHI:
                    finding(t, oid, vb, f"{vb} taking it up from where it lies, within {REACH_CHI:.0f} 尺",
                            f"it lies {d:.1f} 尺 from him at {t:.1f} s")
            if ka == "held" and va and kb == "at" and vb is not None and vb[1] > off_y:
                d = far(va, t - 0.02, np.asarray(vb[:2]))
                if d > REACH_CHI:
                    finding(t, oid, va, f"{va} setting it down within {REACH_CHI:.0f} 尺 of him",
                            f"it lands {d:.1f} 尺 from him at {t:.1f} s")
    return out


def _acts_move_things(ctx: Ctx) -> list[Finding]:
    """A step whose words take / set down / hand a named thing makes that thing move at its act."""
    out = []
    d = ctx.rite.director
    times: dict[str, list[float]] = {}
    for oid, o in d.objects.items():
        for t, k, _v in o.events:
            # a pile of 筭 moves when its count changes (取中之八筭, 委餘獲)
            if k in ("at", "held") or (k == "state" and oid.startswith("counters.")):
                times.setdefault(oid, []).append(t)
    all_t = np.sort(np.array([t for ts in times.values() for t in ts]))
    for sp in ctx.rite.spans:
        chars = _MOVING.get(sp.do)
        if not chars:
            continue
        for aid, t0, t1 in sp.acts:
            words = "".join(s.text for s in ctx.segments_of(sp, aid))
            thing = _THING_WORDS.search(words)
            if not any(c in words for c in chars) or not thing:
                continue
            i = np.searchsorted(all_t, t0 - 0.6)
            if i < len(all_t) and all_t[i] <= t1 + 0.6:
                continue
            out.append(Finding("things", sp.section, sp.index, sp.phrase, thing.group(0),
                               f"the thing {aid} {sp.do.replace('_', ' ')}s moves at his act",
                               f"no object moves between {t0:.1f} and {t1:.1f} s", aid, t0))
    return out


def _counters(ctx: Ctx) -> list[Finding]:
    out: list[Finding] = []
    d = ctx.rite.director
    piles = [f"counters.{p}" for p in ("zhong", "hand", "right", "left", "spare")]
    if not all(p in d.objects for p in piles):
        return out
    evs = sorted({t for p in piles for t, k, _ in d.objects[p].events if k == "state"})
    loaded = False
    reported = 0
    for t in evs:
        vals = [int(ctx.rite._ostate.at(t + 1e-6)[ctx.rite.object_ids.index(p)] or 0) for p in piles]
        total = sum(vals)
        loaded = loaded or total > 0
        if loaded and total not in (0, TOTAL_COUNTERS) and reported < 5:
            reported += 1
            sp = ctx.rite.span_at(t)
            out.append(Finding("things", sp.section if sp else 0, sp.index if sp else None, sp.phrase if sp else "",
                               "箭籌八十 (記62)", f"{TOTAL_COUNTERS} 筭 in all (中 + hand + 右獲 + 左獲 + 餘)",
                               f"{total} ({'+'.join(map(str, vals))}) at {t:.1f} s", "shihuozhe", t))
    # the 筭 stay with the 中: in it, or laid beside it (中西 / its right and left)
    if "zhong" in ctx.rite.object_ids:
        ts = np.arange(*ctx.window, 5.0)
        laid = [p for p in piles if p != "counters.hand"]     # in the 釋獲者's hand: where he goes, they go
        s = ctx.rite.sample(ts, objects=["zhong", *laid])
        oz = s["object_xyz_m"][:, 0, :2] / ctx.chi
        for g, p in enumerate(laid, start=1):
            op = s["object_xyz_m"][:, g, :2] / ctx.chi
            n = ctx.counters_at(p, ts)
            far = (np.hypot(*(op - oz).T) > 8.0) & (n > 0) & ~_held(ctx.rite.director.objects[p].events, ts)
            if far.any():
                t = float(ts[np.argmax(far)])
                out.append(Finding("things", ctx.rite.stage_at(t).n, None, "", "筭 in the 中 / 委其餘于中西",
                                   f"the {p[9:]} pile with the 中", f"{float(np.hypot(*(op - oz)[np.argmax(far)])):.0f} 尺 "
                                   f"from it at {t:.0f} s ({int(far.sum())} samples)", "", t))
    return out


def _held(events: list[tuple[float, str, Any]], ts: np.ndarray) -> np.ndarray:
    """True where the object is in someone's hands (一人執筭以從之: carried behind the 中, not laid by it)."""
    evs = sorted((t, k) for t, k, _ in events if k in ("at", "held", "path"))
    if not evs:
        return np.zeros(len(ts), dtype=bool)
    starts = np.array([t for t, _ in evs])
    held = np.array([k == "held" for _, k in evs])
    i = np.searchsorted(starts, ts, side="right") - 1
    return np.where(i >= 0, held[np.clip(i, 0, None)], False)


def _arrows(ctx: Ctx) -> list[Finding]:
    """What the hands show is what they hold: the 矢 an actor's hands show are the arrows whose last
    event puts them in his hands (乘矢, 一个, 兼取乘矢 … all count)."""
    out = []
    held: dict[str, list[tuple[float, float]]] = {}
    for oid, o in ctx.rite.director.objects.items():
        if not oid.startswith("arrow."):
            continue
        evs = sorted((e for e in o.events if e[1] in ("at", "held", "path")), key=lambda e: e[0])
        for (t, k, v), nxt in zip(evs, evs[1:] + [(ctx.rite.duration + 1, "", None)]):
            if k == "held":
                held.setdefault(v, []).append((t, nxt[0]))
    ts = np.arange(*ctx.window, 2.0) + 0.05
    shown: dict[str, int] = {}              # a holding's words → the 矢 they show
    for aid in ctx.rite.actor_ids:
        iv = held.get(aid, [])
        # how many of his intervals [a, b) hold each t (every b ≥ its a: the events are sorted)
        n_obj = (np.searchsorted(np.sort([a for a, _ in iv]), ts, side="right")
                 - np.searchsorted(np.sort([b for _, b in iv]), ts, side="right"))
        hs = ctx.holdings_at(aid, ts)
        for h in set(hs):
            if h not in shown:
                m = re.search(r"矢(?:×(\d+))?", h or "")
                shown[h] = 0 if not m else int(m.group(1) or 1)
        n_lab = np.array([shown[h] for h in hs])
        wrong = np.flatnonzero(n_obj != n_lab)
        if len(wrong):
            i = int(wrong[0])
            t = ts[i]
            out.append(Finding("things", ctx.rite.stage_at(float(t)).n, None, "", "矢",
                               f"{aid}'s hands showing the arrows he holds ({int(n_obj[i])})",
                               f"they show {int(n_lab[i])} at {t:.0f} s", aid, float(t)))
    return out


#: 取/執/奉 + the thing — not 命取矢 (an order), 拾取矢 (the pick form's), nor 取中之八筭 / 取俎西之觶 (the thing
#: named is where the taken thing lies)
_TAKE = re.compile(r"(?<![命拾])(?:取|執|奉)(弓|矢|扑|爵|觶|旌|俎|楅|豐|中)(?![之東西南北])")


def _taken_is_in_hand(ctx: Ctx) -> list[Finding]:
    """A take step whose own words take a named thing (執弓, 取爵, 奉豐, 執鹿中) ends with that thing in his hands."""
    out = []
    for sp in ctx.rite.spans:
        if sp.do != "take":
            continue
        for aid, _t0, t1 in sp.acts:
            words = "".join(s.text for s in ctx.own_segments(sp, aid))
            for m in _TAKE.finditer(words):
                after = ctx.holding(aid, t1 + 0.3)
                if not _count(after, m.group(1)):
                    out.append(Finding("things", sp.section, sp.index, sp.phrase, m.group(0),
                                       f"{aid} holding the {m.group(1)} he takes", f"holding {after or 'nothing'} after it",
                                       aid, t1))
    return out
