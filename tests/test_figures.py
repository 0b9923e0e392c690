"""The figures read as the rite says: 拜 hands to the ground, 揖 hands joined before the chest, 坐 on the heels,
射 the bow drawn; 袒 the left arm out of its sleeve with the 決 and the 遂, from the 袒決遂 step to the 襲 step.

The checks look at the meshes' vertices and colours (what a still shows), found by colour and by the
connected pieces of the mesh — not at the tables that built them."""
from __future__ import annotations

import os

os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")

import numpy as np

from scene.render import figures, meshes
from scene.render.palette import COLOURS as C
from scene.render.shapes import rgb

STYLE = figures.style_of("#f4f1e8", "white robe, red band (right side)")    # a 三耦 上射
DAFU = figures.style_of("#6d597a", "tall 冠, purple robe")


def _pieces(f, colour) -> list[np.ndarray]:
    """The connected pieces of the mesh in one colour: their vertices (each part is its own closed shape)."""
    mask = np.all(f.rgb == np.array(rgb(colour), np.uint8), axis=1)
    idx = np.flatnonzero(mask)
    parent = {int(i): int(i) for i in idx}

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for tri in f.tris:
        if mask[tri].all():
            a, b, c = (root(int(x)) for x in tri)
            parent[b] = a
            parent[root(c)] = a
    groups: dict[int, list[int]] = {}
    for i in idx:
        groups.setdefault(root(int(i)), []).append(int(i))
    return [f.points[g] for g in groups.values()]


def _hands(f) -> list[np.ndarray]:
    """The hands: the small skin-coloured pieces (the face and neck and a bare arm are bigger), left first."""
    small = [p for p in _pieces(f, C["skin"]) if np.ptp(p, axis=0).max() <= 0.11]
    small.sort(key=lambda p: p[:, 0].mean())
    return [p.mean(axis=0) for p in small]


def _head(f) -> np.ndarray:
    return max(_pieces(f, C["skin"]), key=len).mean(axis=0)      # the face is the largest skin piece


def test_bow_hands_on_the_ground_and_head_down():
    """拜: kneeling, both hands at the ground in front of the knees, the head bowed low."""
    f = figures.figure(STYLE, "bow")
    hands = _hands(f)
    assert len(hands) == 2
    for h in hands:
        assert h[2] < 0.1 and h[1] > 0.3, h                      # on the ground, in front
    assert f.height < 0.85                                       # nobody bowed this way stands tall
    head = _head(f)
    assert head[1] > 0.35 and head[2] < 0.8, head                # the head forward over the hands, low


def test_salute_hands_joined_before_the_chest():
    """揖: the hands joined (touching) in front of the chest — higher and further out than standing at rest."""
    f = figures.figure(STYLE, "salute")
    left, right = _hands(f)
    assert np.linalg.norm(left - right) < 0.12                   # joined
    assert 1.1 < left[2] < 1.35 and left[1] > 0.3, left         # chest height (the shoulders at ~1.37 m), out front
    rest = _hands(figures.figure(STYLE, "stand"))
    assert left[2] > rest[0][2] + 0.1 and left[1] > rest[0][1] + 0.1


def test_sit_is_kneeling_on_the_heels():
    """坐: kneeling, the soles under the seat behind, the knees forward; about two thirds of standing height."""
    f = figures.figure(STYLE, "sit")
    stand = figures.figure(STYLE, "stand")
    assert 0.6 * stand.height < f.height < 0.75 * stand.height
    soles = [p for p in _pieces(f, C["shoe"])]
    assert len(soles) == 2 and all(p[:, 1].mean() < -0.1 and p[:, 2].max() < 0.1 for p in soles)
    robe = f.points[np.all(f.rgb == np.array(rgb(STYLE.robe), np.uint8), axis=1)]
    assert robe[robe[:, 2] < 0.25, 1].max() > 0.35                 # the knees, under the robe, before the body
    for h in _hands(f):
        assert h[2] < 0.45 and h[1] > 0.15                         # the hands on the thighs


def test_shoot_draws_the_bow_to_the_jaw(rite):
    """射: the left hand at arm's length forward, the right at the jaw; the bow's grip in the left hand, its
    string at the right hand, and the arrow on the string between them."""
    f = figures.figure(STYLE, "shoot")
    left, right = _hands(f)
    head = _head(f)
    assert left[1] > 0.55 and abs(left[2] - 1.35) < 0.1, left     # straight out at shoulder height
    assert np.linalg.norm(right - head) < 0.17, (right, head)       # at the jaw
    # the drawn bow and the nocked arrow, as build_dynamic draws them for an archer who draws
    from scene.render.shapes import Batch
    chi = rite.reading.chi_m
    b = Batch()
    pos = meshes.props.hand_local(chi)                             # an archer at the origin facing +y (heading 0)
    meshes.props.bow(b, "bow.x", pos, "", 0, 0.0, "shoot", chi, {})
    meshes.props.arrow(b, "arrow.x.1", pos, "", 0, 0.0, "shoot", None, chi, "arrow.x.1", {})
    parts = {pid: p for pid, p, *_ in b.chunks()}
    bow, string, arrow = parts["bow.x"], parts["bow.x.string"], parts["arrow.x.1"]
    assert np.linalg.norm(bow - left, axis=1).min() < 0.06           # the grip in the left fist
    assert np.linalg.norm(string - right, axis=1).min() < 0.06       # drawn to the right hand
    mid = bow[np.argmin(np.abs(bow[:, 2] - left[2]))]
    tips = bow[[np.argmax(bow[:, 2]), np.argmin(bow[:, 2])]]
    assert (tips[:, 1] < mid[1] - 0.1).all()                        # the tips bent back towards the archer
    assert np.linalg.norm(arrow - right, axis=1).min() < 0.06       # the nock on the string at the hand
    assert arrow[:, 1].max() > left[1]                               # the head past the grip


def _left_forearm(f) -> np.ndarray:
    """The colours of the triangles where the 射 posture's left forearm is (by their centres): out in front at
    shoulder height, left of the middle, short of the hand."""
    c = f.points[f.tris].mean(axis=1)
    inside = (c[:, 0] < 0.0) & (c[:, 1] > 0.35) & (c[:, 1] < 0.6) & (c[:, 2] > 1.2)
    return f.rgb[f.tris[inside, 0]]


def _has(cols: np.ndarray, colour) -> bool:
    return bool(np.all(cols == np.array(rgb(colour), np.uint8), axis=1).any())


def test_bared_left_arm_has_no_sleeve_and_wears_the_sui():
    covered = figures.figure(STYLE, "shoot")
    bared = figures.figure(STYLE, "shoot", ["袒決遂"])
    arm_c, arm_b = _left_forearm(covered), _left_forearm(bared)
    assert _has(arm_c, STYLE.robe) and not _has(arm_c, C["skin"])     # the sleeve covers it
    assert len(arm_b) >= 12
    assert not _has(arm_b, STYLE.robe)                                 # 袒: no sleeve below the elbow
    assert _has(arm_b, C["skin"]) and _has(arm_b, figures.SUI_COLOUR)  # 肉袒, the 遂 on the forearm
    # the 決 on the right thumb: bone-coloured, at the right hand
    right = _hands(bared)[1]
    jue = bared.points[np.all(bared.rgb == np.array(rgb(figures.JUE_COLOUR), np.uint8), axis=1)]
    assert len(jue) and np.linalg.norm(jue - right, axis=1).max() < 0.09
    assert not _has(covered.rgb, figures.JUE_COLOUR) and not _has(covered.rgb, figures.SUI_COLOUR)
    # 不決遂袒 (the 司馬): bare, without the ring and the armlet
    only = figures.figure(STYLE, "shoot", ["袒"])
    assert not _has(only.rgb, figures.JUE_COLOUR) and not _has(only.rgb, figures.SUI_COLOUR)
    assert not _has(_left_forearm(only), STYLE.robe) and _has(_left_forearm(only), C["skin"])


def test_dafu_bares_a_xun_jacket_not_the_arm():
    """記46 大夫與士射袒纁襦 (鄭 不肉袒殊於耦): the 大夫's bared arm is in 纁, his 耦's is bare skin."""
    arm = _left_forearm(figures.figure(DAFU, "shoot", ["袒決遂"]))
    assert _has(arm, figures.XUN_COLOUR) and not _has(arm, C["skin"]) and not _has(arm, DAFU.robe)


def _dress_at(rite, aid: str, t: float) -> str:
    return rite.pose_at(t).dress[rite.actor_ids.index(aid)]


def test_archers_are_bared_from_their_tan_step_to_their_xi_step(rite):
    """From each 袒 step (its phrase read from the compiled rite) to the same man's next 襲 / 說決拾 step the
    figure is bared; before the first and after the 襲 it is not."""
    spans: dict[str, list] = {}
    for s in rite.spans:
        if s.do in ("bare", "cover"):
            for a in s.who:
                spans.setdefault(a, []).append(s)
    assert {"ou1_up", "ou1_low", "bin", "zhuren", "xiang", "sishe"} <= set(spans)
    for aid, ss in spans.items():
        first = ss[0]
        assert first.do == "bare", (aid, first.phrase)
        assert _dress_at(rite, aid, first.start_s - 0.5) == "", aid
        for a, b in zip(ss, ss[1:] + [None]):
            moments = [a.end_s + 0.01] + ([] if b is None else [b.start_s - 0.01])
            for t in moments:
                worn = _dress_at(rite, aid, t)
                if a.do == "cover":
                    # covered until the next 袒 — or a 勝者 step of the forfeit (the test below)
                    assert worn == "" or _winner_bared_before(rite, aid, t), (aid, a.phrase, worn)
                    continue
                assert worn.startswith("袒"), (aid, a.phrase, worn)
                if "不決遂" in a.phrase:                             # the 相: 不決遂袒
                    assert worn == "袒", (aid, a.phrase)
                elif "決遂" in a.phrase:
                    assert worn == "袒決遂", (aid, a.phrase)


def _winner_bared_before(rite, aid: str, t: float) -> bool:
    return any("勝者" in s.phrase and "袒" in s.phrase and aid in s.who and s.end_s <= t for s in rite.spans)


def test_the_winners_bare_to_drink_the_losers_stay_covered(rite):
    """§33 命三耦及眾賓勝者皆袒決遂執張弓，不勝者皆襲說決拾: from that step to their 襲, the winners of the count
    are bared and the losers are not."""
    res = rite.results[2]
    step = next(s for s in rite.spans if s.section == 33 and s.phrase.startswith("勝者皆袒決遂"))
    cover = next(s for s in rite.spans if s.section == 33 and s.do == "cover" and s.start_s > step.end_s)
    t = (step.end_s + cover.start_s) / 2
    shooters = {s.archer for s in res.shots}
    assert res.winner and res.losers
    for aid in step.who:
        worn = _dress_at(rite, aid, t)
        assert worn == ("" if aid in res.losers else "袒決遂"), (aid, worn)
        assert aid in shooters
    for aid in cover.who:
        assert _dress_at(rite, aid, cover.end_s + 0.01) == ""


def test_the_dress_keeps_the_figure_keys_few(rite):
    """The pack ships one mesh per figure key (posture + words): the dress may add a key per posture an
    archer takes bared, not more — at most the six postures once plain and once for each dress he wears (袒決遂
    to shoot; 袒 alone for the 勝者之弟子 of §33, 鄭 袒執弓), and each key a real figure."""
    from scene.web.pack.cast import _figure_steps, held_steps
    held = {oid: held_steps(rite.director.objects[oid].events) for oid in rite.object_ids}
    bared = 0
    for i, aid in enumerate(rite.actor_ids):
        _, keys = _figure_steps(rite, i, held)
        keys = set(keys) | set(figures.POSTURES)
        dresses = {k.partition("+")[2] for k in keys} - {""}
        assert len(keys) <= (1 + len(dresses)) * len(figures.POSTURES), (aid, sorted(keys))
        for k in keys:
            posture, _, words = k.partition("+")
            assert posture in figures.POSTURES, k
            bared += any(w in figures.DRESS for w in words.split("、"))
    assert bared >= 16 * 2                   # the 三耦, the 眾賓, 賓, 主人, 大夫, 司射, 相: standing and walking bared


def _held(rite, aid: str, t: float) -> list[int]:
    """Indices of the objects ``aid`` holds at t, from the objects' own events (the last of at / held / path)."""
    out = []
    for k, oid in enumerate(rite.object_ids):
        evs = [e for e in rite.director.objects[oid].events if e[1] in ("at", "held", "path") and e[0] <= t]
        if evs and max(evs, key=lambda e: e[0])[1:] == ("held", aid):
            out.append(k)
    return out


def test_a_cup_held_kneeling_is_in_the_kneeling_hands():
    """坐祭 … 卒爵: what a kneeling man holds is at his kneeling hands (the figure's 坐 hands), not at standing
    height; standing again (興), it is back at his standing hands.  Read from the rite's own phrases."""
    from scene.render.figures import _POSE
    from scene.rite.cache import load_rite
    rite = load_rite("zheng")
    chi = rite.layout.reading.chi_m
    sit_hand_z = _POSE["sit"]["hands"][0][2]
    seen = 0
    for s in rite.spans:
        if "坐" not in s.phrase or not any(w in s.phrase for w in ("卒爵", "卒觶", "祭")):
            continue
        if s.do == "set_down":
            continue          # 坐奠爵 (§10 卒爵拜, issue 23): the cup travels from his hands to the floor in this step
        pose = rite.pose_at((s.start_s + s.end_s) / 2)
        for i in np.flatnonzero(np.asarray(pose.posture) == "sit"):
            for k in _held(rite, pose.actor_ids[i], pose.t):
                assert abs(pose.object_xyz_m[k, 2] - pose.actor_xyz_m[i, 2] - sit_hand_z) < 0.1, (s.phrase, pose.actor_ids[i])
                seen += 1
    assert seen >= 20
    # 執爵興 / 執觶興: risen with it, he holds it at standing height again
    risen = 0
    for s in rite.spans:
        if not any(w in s.phrase for w in ("執爵興", "執觶興")):
            continue
        pose = rite.pose_at(s.end_s - 0.05)
        for i in np.flatnonzero(np.isin(pose.posture, ("stand", "walk"))):
            if pose.actor_ids[i] not in s.who:
                continue
            for k in _held(rite, pose.actor_ids[i], pose.t):
                assert abs(pose.object_xyz_m[k, 2] - pose.actor_xyz_m[i, 2] - 3.5 * chi) < 0.02, s.phrase
                risen += 1
    assert risen >= 5
