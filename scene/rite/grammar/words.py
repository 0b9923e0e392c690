"""The words of the 經 that the checker reads, and what each requires of the tracks.

Nothing here looks at the data's own fields (``do``, ``facing``, ``at`` …) except to know which act of a
phrase a step performs (``VERB_CHARS``): what is required comes from the words of the phrase.
"""
from __future__ import annotations

#: facing words → compass heading (0 = north, 90 = east); longest first when scanning
FACINGS: dict[str, float] = {
    "東北面": 45.0, "東南面": 135.0, "西南面": 225.0, "西北面": 315.0,
    "北面": 0.0, "東面": 90.0, "南面": 180.0, "西面": 270.0,
}
FACING_TOLERANCE_DEG = 35.0

#: the characters of a phrase that name a step's act, by the step's verb (a step whose verb is not
#: here names no act the posture and facing words could govern)
VERB_CHARS: dict[str, str] = {
    "take": "取執奉兼", "set_down": "奠設委加實反", "drink": "卒飲", "taste": "祭啐嚌絕",
    "bow": "拜", "bow_twice": "拜", "answer_bow": "拜", "answer_bow_twice": "拜",
    "salute": "揖", "decline": "辭讓", "reply": "對諾許", "speak": "告命請曰", "order": "命作告",
    "announce": "告", "fill": "實酌", "hand": "授", "receive": "受", "offer": "獻酬酢",
    "wash": "洗", "wash_hands": "盥洗", "sit": "坐", "rise": "興", "stand": "立", "wait": "俟立",
    "lean": "倚", "untie": "說釋", "tie": "繫", "lay_counter": "釋", "count": "數", "tell_count": "取告", "count_arrows": "撫乘",
    "call": "獲", "raise_flag": "舉", "lower_flag": "偃", "bare": "袒", "cover": "襲說",
    "play": "奏歌樂", "pick_arrows": "取", "collect_arrows": "取委", "shoot": "射發",
}

#: after 坐, the character that names the act done kneeling (坐奠爵, 坐取觶, 坐卒爵, 坐左執爵…);
#: these are skipped on the way to it
KNEEL_SKIP = "左右兼橫而先亦相不反東西南北面于"
#: the acts a 坐 can govern, by that character
KNEEL_ACTS: dict[str, tuple[str, ...]] = {
    "奠": ("set_down",), "取": ("take", "pick_arrows"), "祭": ("taste",), "卒": ("drink",),
    "委": ("set_down", "collect_arrows"), "設": ("set_down",), "授": ("hand",), "實": ("set_down", "fill"),
    "說": ("untie",), "挩": ("wash_hands",), "啐": ("taste",), "絕": ("taste",), "執": ("take",),
    "斂": ("count", "take"), "數": ("count",), "撫": ("count_arrows",), "釋": ("lay_counter", "shoot"),
    "獲": ("call", "shoot"), "受": ("receive", "take"),
}
#: 坐 that is not a posture of the subject: 請坐于賓 (asking the 賓 to sit), 升坐 (going up to sit:
#: a sit act of its own), …
NOT_KNEEL_BEFORE = ("請",)

#: who the text names (the subjects a phrase is cut at, and the words that only look like one) and what its place
#: words mean in the hall are the chapter's data: its words file (``scene.text.words``, ``Ctx.words``)

#: route words (the checker's motion rules read these)
SIDES = {"南": (0.0, -1.0), "北": (0.0, 1.0), "東": (1.0, 0.0), "西": (-1.0, 0.0)}

#: the groups the text names with 皆 / 辯 (→ actor ids) and the names of one person are the chapter's data:
#: its cast file's ``[groups]`` and ``[names]`` (``Choreography.groups`` / ``.names``, read as ``Ctx.groups``)
