"""What a picture labels: the places worth naming in each view, the people (grouped when several of one role stand
together), the objects in hand; as :class:`~scene.render.labels.Label` s for the label layer to place."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: place id → (label, anchor height above the place in 尺 or None for its own z, priority, views or None = all)
PLACE_LABELS: tuple[tuple[str, str | None, float, float, tuple[str, ...] | None], ...] = (
    ("hall.tang", "堂", 2.0, 40, None),
    ("hall.west_steps", None, 1.0, 38, None),
    ("hall.east_steps", None, 1.0, 38, None),
    ("hall.west_pillar", None, 10.0, 36, None),
    ("hall.east_pillar", None, 10.0, 36, None),
    ("hall.west_xu", None, 9.0, 22, ("hall", "plan", "guest", "follow", "overview")),
    ("hall.east_xu", None, 9.0, 22, ("hall", "plan", "guest", "follow", "overview")),
    ("hall.ridge", None, 1.5, 30, ("hall", "overview", "range", "follow", "target")),
    ("hall.front_lintel", None, 1.0, 28, ("hall", "overview", "range", "follow", "target")),
    ("hall.eave_purlin", None, 0.5, 28, ("hall", "overview", "range", "follow", "target")),
    ("hall.shi", "室", 2.0, 26, None),
    ("hall.fang", "房", 2.0, 26, None),
    ("target.hou", "侯", 11.0, 40, None),
    ("target.centre", "中", 0.0, 12, ("archer", "target")),
    ("range.fa", None, 6.0, 34, None),
    ("range.houdao", "侯道", 0.5, 30, None),
    ("court.xi", None, 3.0, 30, None),
    ("court.qing", "磬", 6.0, 26, None),
    ("tang.zun", "尊", 3.5, 24, None),
    ("mat.bin", "賓席", 0.5, 22, ("hall", "plan", "guest", "follow")),
    ("mat.zhuren", "主人席", 0.5, 20, ("hall", "plan", "follow")),
    ("tang.wu_right", "右物", 0.3, 20, ("hall", "plan", "archer", "follow")),
    ("tang.wu_left", "左物", 0.3, 20, ("hall", "plan", "archer", "follow")),
    ("hall.gate", "門", 12.0, 30, None),
    ("hall.court", "庭", 0.5, 10, ("overview", "plan")),
)


def place_labels(lay, view: str) -> list:
    from .labels import Label
    chi = lay.reading.chi_m
    base = view.split(":")[0]
    out = []
    for pid, text, dz, prio, views in PLACE_LABELS:
        if pid not in lay or (views is not None and base not in views):
            continue
        p = lay[pid]
        x, y, z = p.xyz_chi
        if pid == "hall.tang":
            y, z = lay.hall.house_depth * 0.78, lay.hall.height
        elif pid in ("hall.west_steps", "hall.east_steps"):
            y, z = -lay.hall.stair_run - 1.0, 0.0
        elif pid in ("hall.ridge", "hall.front_lintel", "hall.eave_purlin"):
            x = lay.hall.rong_x * 0.86
        elif pid in ("hall.west_xu", "hall.east_xu"):
            y, z = 2.0, lay.hall.height
        elif pid == "target.hou":
            z = 0.0
        elif pid == "range.houdao":
            y = y * 0.62
        elif pid == "hall.court":
            y = lay["range.fa"].xyz_chi[1] * 0.55 if "range.fa" in lay else y
        elif pid == "hall.gate":
            z = 0.0
        out.append(Label(text or p.name, (x * chi, y * chi, (z + dz) * chi), prio, None, "place", 0.92))
    return out


def actor_labels(rite, pose, dyn, focus: Sequence[str], small: bool = False) -> list:
    """One label per actor — the acting ones first; people of one role standing together
    (a file of 眾賓, the 三耦 waiting at 堂西, the 工) share one label 'role ×n'."""
    from .labels import Label
    chor = rite.choreography
    out = []
    loose: dict[str, list[int]] = {}
    for i, aid in enumerate(pose.actor_ids):
        key = f"actor.{aid}"
        if key not in dyn.anchors:
            continue
        a = chor.actors[aid]
        name = a.name
        role = pose.role[i]
        first = a.role.split(" ")[0]
        say = pose.say[i]
        if aid not in focus and not say and role == first and _groupable(first, name):
            loose.setdefault(first, []).append(i)
            continue
        text = f"{role}（{name}）" if role and role != first and role not in name else name
        if say:
            text += f"：「{say[:10]}{'…' if len(say) > 10 else ''}」"
        prio = 100 + (60 if aid in focus else 0) + (10 if say else 0)
        out.append(Label(text, dyn.anchors[key], prio, a.colour, "actor", 1.0 if aid in focus or not small else 0.9))
    for role, idx in loose.items():
        for group in _clusters([np.asarray(dyn.anchors[f"actor.{pose.actor_ids[i]}"]) for i in idx], 2.6):
            members = [idx[k] for k in group]
            aid = pose.actor_ids[members[0]]
            a = chor.actors[aid]
            if len(members) == 1:
                text = a.name
                anchor = dyn.anchors[f"actor.{aid}"]
            else:
                text = f"{role} ×{len(members)}"
                pts = np.array([dyn.anchors[f"actor.{pose.actor_ids[i]}"] for i in members])
                anchor = (float(pts[:, 0].mean()), float(pts[:, 1].mean()), float(pts[:, 2].max()))
            out.append(Label(text, anchor, 95, a.colour, "actor", 0.9 if small else 1.0))
    return out


def _groupable(role: str, name: str) -> bool:
    """Roles of which there are several (眾賓, 三耦, 工, 弟子 …): not the 主人, the 賓, the 司射."""
    return role != name and not name.startswith(role + "（")


def _clusters(points: list[np.ndarray], gap: float) -> list[list[int]]:
    """Single-linkage groups of points closer than ``gap`` (metres)."""
    n = len(points)
    parent = list(range(n))
    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i in range(n):
        for j in range(i + 1, n):
            if np.linalg.norm(points[i][:2] - points[j][:2]) < gap:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def object_labels(rite, dyn) -> list:
    from .labels import Label
    names = {"object.bi": "楅", "object.zhong": "中", "object.feng": "豐", "object.jing": "旌"}
    return [Label(names[k], v, 25, None, "object", 0.85) for k, v in dyn.anchors.items() if k in names]
