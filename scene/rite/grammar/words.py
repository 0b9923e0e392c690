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

#: people as the text names them → a rule to tell whether an actor is meant; see ``scene.rite.grammar.who``
SUBJECTS: tuple[str, ...] = (
    "眾賓之長", "眾賓", "賓", "主人", "大夫", "遵者", "司射", "司馬", "司正", "釋獲者", "獲者",
    "上射", "下射", "三耦", "耦", "弟子", "有司", "樂正", "相者", "工", "笙", "執爵者", "舉觶者", "二人",
    "不勝者", "勝者", "眾射者", "射者", "大師", "主黨", "賓黨",
)
#: words that contain a subject's characters but name none
NOT_SUBJECTS = ("相左", "相揖", "相拜", "相與", "相者", "賓席", "主人席", "大夫席", "眾賓席", "賓主人",
                "射位", "射器", "射事", "射宮", "射于", "賓之", "主人之", "大夫之", "耦揖", "賓黨", "主黨")

#: route words (the checker's motion rules read these)
SIDES = {"南": (0.0, -1.0), "北": (0.0, 1.0), "東": (1.0, 0.0), "西": (-1.0, 0.0)}

#: place words of the text → layout places (for 適X / 至X / 當X / 由X之南 / 北面…于X): the first place id
#: that the layout has is used
PLACES: dict[str, tuple[str, ...]] = {
    "堂西": ("hall.west_of_tang",), "西階": ("hall.west_steps",), "阼階": ("hall.east_steps",),
    "西階上": ("hall.west_steps_top",), "阼階上": ("hall.east_steps_top",),     # 階上: on the 堂 at its head
    "洗": ("court.xi",), "楅": ("court.bi",), "中": ("court.zhong",), "豐": ("tang.feng",),
    "乏": ("range.fa",), "侯": ("target.hou",), "物": ("tang.wu_left", "tang.wu_right"),
    "西楹": ("hall.west_pillar",), "東楹": ("hall.east_pillar",), "楹": ("hall.west_pillar", "hall.east_pillar"),
    "西序": ("hall.west_xu",), "東序": ("hall.east_xu",), "尊": ("tang.zun",), "篚": ("court.xi_basket", "tang.zun_basket"),
    "門": ("hall.gate",), "磬": ("court.qing",), "賓席": ("mat.bin",), "主人席": ("mat.zhuren",),
    # 樂正適西方 (§18): the west of the court below the 堂, where the 弟子 wait — the seed's note 30
    # (樂正自西階東至堂西命弟子); 自西方 / 由西方 are ways, not places he is at
    "西方": ("hall.west_of_tang",),
    # 交于階前, 司射降自西階階前西面: before the stairs the text has just named or the two cross at (the 西階,
    # whichever is nearer); 適階間堂下: between the two stairs, below the 堂
    "階前": ("hall.west_steps_front", "hall.east_steps_front"), "階間": ("hall.between_steps",),
    # 適右个, 適左个 (§34): the 侯's ends (記51 東方謂之右个)
    "右个": ("target.right_end",), "左个": ("target.left_end",),
}

#: the groups the text names with 皆 / 辯 (→ actor ids) and the names of one person are the chapter's data:
#: its cast file's ``[groups]`` and ``[names]`` (``Choreography.groups`` / ``.names``, read as ``Ctx.groups``)
