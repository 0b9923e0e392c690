"""The sounds of the rite (the pack's ``sounds``, PACK.md): when the page's WebAudio sounds what the 經 says
is heard.  Every cue is read from the compiled rite, so it falls where the picture acts it:

* ``drum`` — the 騶虞's drum in round 3 (§38 不鼓不釋 … 奏騶虞間若一; 鄭: 鄉射之鼓五節，歌五終，所以將八矢，
  一節之間當拾發，四節四拾，其一節先以聽也).  For each pair's 奏騶虞 (the ``play`` steps of §39): five 節 of
  :data:`~scene.rite.shooting.JIE_S` seconds, evenly spaced (間若一), two strokes to a 節, one for each arrow of
  its 拾 (``scene.rite.shooting``); the first 節 is listened to, an arrow shot on the drum leaves on a stroke
  of the other four (``scene.rite.forms.shoot``).  The stroke that opens a 節 is the accented one.
* ``huo_gong`` / ``huo_shang`` — the 獲者's call (§21 獲者坐而獲，舉旌以宮，偃旌以商; 鄭: 射者中則大言獲 …
  宮為君，商為臣，聲和律呂相生): 獲 at 宮 as the 旌 goes up, at 商 as it comes down — the 旌's states
  ``raised (舉旌以宮)`` and ``lowered (偃旌以商)``.
* ``nuo`` — the 獲者's 諾 held unbroken (§21 獲者執旌許諾聲不絕以至于乏, §22 …聲不絕以旌負侯而俟; 鄭: 聲不絕，
  不以宮商，不絕而已): from his 許諾 to the end of the walk that follows it (to the 乏 or to the 侯; the later
  rounds' 獲者許諾 … 如初 too).
* ``gai`` — the 陔 as the 賓 leaves (§49 樂正命奏陔，賓降及階，陔作，賓出; 鄭: 陔，陔夏，其詩亡 … 大夫士鼓而
  已): the drum alone, from 陔作 until the 賓 is out of the 門.

Pitches and tempi the text does not give are ours (marked *assumed* in ``kinds``).  Pure Python.
"""
from __future__ import annotations

from typing import Any

from .buffer import rounded

#: 宮 — the text gives no absolute pitch; assumed (a man's calling voice).  商 is a whole tone above (三分損益:
#: 宮 81, 商 72, so 商 = 宮 × 81/72 = 9/8).
GONG_HZ = 196.0
SHANG_HZ = GONG_HZ * 9 / 8
CALL_S = 0.9          # one 獲 call (assumed)
GAI_STROKE_S = 2.0    # the 陔's drum (assumed; the 陔夏 is lost, 鄭 其詩亡)
NUO_HZ = 150.0        # the held 諾: a speaking pitch, not 宮 or 商 (鄭 不以宮商)

KINDS: dict[str, dict[str, str]] = {
    "drum": {"title": "騶虞之鼓", "cite": "§38 命曰不鼓不釋 … 樂正東面命大師曰奏騶虞間若一；§39 乃奏騶虞以射",
             "zheng": "鄉射之鼓五節，歌五終，所以將八矢，一節之間當拾發，四節四拾，其一節先以聽也；間若一者重節",
             "assumed": "the length of a 節 (scene.rite.shooting.JIE_S); two strokes to a 節"},
    "huo_gong": {"title": "獲（宮）", "cite": "§21 獲者坐而獲，舉旌以宮",
                 "zheng": "射者中則大言獲；宮為君，商為臣，聲和律呂相生",
                 "assumed": f"宮 = {GONG_HZ:g} Hz (no absolute pitch in the text)"},
    "huo_shang": {"title": "獲（商）", "cite": "§21 偃旌以商", "zheng": "宮為君，商為臣，聲和律呂相生",
                  "assumed": "商 = 宮 × 9/8 (三分損益)"},
    "nuo": {"title": "諾聲不絕", "cite": "§21 獲者執旌許諾聲不絕以至于乏；§22 獲者執旌許諾聲不絕以旌負侯而俟",
            "zheng": "聲不絕，不以宮商，不絕而已",
            "assumed": f"a held 諾 at {NUO_HZ:g} Hz; in the later rounds' 獲者許諾 as in §21–§22 (如初)"},
    "gai": {"title": "陔", "cite": "§49 賓興，樂正命奏陔，賓降及階，陔作，賓出",
            "zheng": "陔，陔夏，其詩亡 … 大夫士鼓而已",
            "assumed": f"a stroke every {GAI_STROKE_S:g} s, the first of four accented"},
}


def _section_at(rite, t: float) -> int:
    n = rite.stages[0].n
    for st in rite.stages:
        if st.start_s <= t + 1e-6:
            n = st.n
    return n


def _cue(t: float, kind: str, dur: float, hz: float, phrase: str, section: int, accent: bool = False) -> dict[str, Any]:
    c = {"t": rounded(t, 3), "kind": kind, "dur": rounded(dur, 3), "section": section, "phrase": phrase}
    if hz:
        c["hz"] = rounded(hz, 2)
    if accent:
        c["accent"] = True
    return c


def drum_cues(rite) -> list[dict[str, Any]]:
    """The 騶虞's drum: ten strokes for each pair's 奏騶虞 in round 3 (five 節, 間若一) — the music (a ``play``
    step) that a pair's shooting starts with."""
    from ...rite.shooting import JIE_S
    shoots = [s.start_s for s in rite.spans if s.do == "shoot"]
    out = []
    for sp in rite.spans:
        if sp.do != "play" or not any(abs(t - sp.start_s) < 1e-6 for t in shoots):
            continue
        for n in range(5):
            for j in range(2):
                out.append(_cue(sp.start_s + n * JIE_S + j * JIE_S / 2, "drum", 0.6, 0.0, sp.phrase, sp.section,
                                accent=j == 0))
    return out


def call_cues(rite) -> list[dict[str, Any]]:
    """獲 at 宮 as the 旌 is raised, at 商 as it is lowered (the 旌's states); none where no 旌 is set out (a
    chapter without a range, 鄉飲酒禮)."""
    out: list[dict[str, Any]] = []
    jing = rite.director.objects.get("jing")
    if jing is None:
        return out
    spans = sorted(rite.spans, key=lambda s: s.start_s)
    for t, kind, value in jing.events:
        if kind != "state" or not isinstance(value, str):
            continue
        if "以宮" in value:
            k, hz = "huo_gong", GONG_HZ
        elif "以商" in value:
            k, hz = "huo_shang", SHANG_HZ
        else:
            continue
        shooting = [s for s in spans if s.do == "shoot" and s.start_s <= t <= s.end_s + 5.0]
        phrase = shooting[-1].phrase if shooting else ""
        out.append(_cue(t, k, CALL_S, hz, phrase, _section_at(rite, t)))
    return out


def nuo_cues(rite) -> list[dict[str, Any]]:
    """諾聲不絕: the 獲者's 許諾 and the walk straight after it, one held voice."""
    out = []
    mine = sorted((s for s in rite.spans if "huozhe" in s.who), key=lambda s: (s.start_s, s.index))
    for a, b in zip(mine, mine[1:]):
        if "許諾" not in a.phrase or a.do not in ("reply", "call") or b.do != "walk":
            continue
        if abs(b.start_s - a.end_s) > 1e-3:
            continue
        phrase = b.phrase if "聲不絕" in b.phrase else a.phrase
        out.append(_cue(a.start_s, "nuo", b.end_s - a.start_s, NUO_HZ, phrase, a.section))
    return out


def gai_cues(rite) -> list[dict[str, Any]]:
    """The 陔: the drum from 陔作 until the 賓 has gone out (賓出)."""
    start = next((s for s in rite.spans if s.phrase.startswith("陔作")), None)
    if start is None:
        return []
    out_ = [s for s in rite.spans if s.section == start.section and "bin" in s.who and s.phrase.startswith("賓出")]
    end = max([start.end_s] + [s.end_s for s in out_])
    out, k = [], 0
    t = start.start_s
    while t < end - 1e-6:
        out.append(_cue(t, "gai", 0.7, 0.0, start.phrase if t < start.end_s else "賓出", start.section,
                        accent=k % 4 == 0))
        k += 1
        t = start.start_s + k * GAI_STROKE_S
    return out


def sound_block(rite) -> dict[str, Any]:
    """The pack's ``sounds``: the kinds (what each is, with its passage and 鄭注) and the cues in time order."""
    cues = drum_cues(rite) + call_cues(rite) + nuo_cues(rite) + gai_cues(rite)
    cues.sort(key=lambda c: (c["t"], c["kind"]))
    return {"gong_hz": GONG_HZ, "shang_hz": rounded(SHANG_HZ, 2), "kinds": KINDS, "cues": cues}
