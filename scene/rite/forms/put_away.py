"""§43 遂授有司于堂西 …: the 有司 lays by at 堂西 the bows and arrows handed to him (鄭 §44 諸所退皆俟堂西備復射也).

``who = "youshi"``, ``at`` = where they go (堂西).  Every bow and arrow in his hands is laid down there, the
bows in a row with each archer's four arrows beside his bow, and their state says so; his hands are then empty.
The text names no such act (the 射器 simply go back to 堂西, where §15 乃納射器皆在堂西 brought them): the
data says it is ours.
"""
from __future__ import annotations

from .. import choreography as chor
from .base import Acts

LAY_S = 6.0          # kneeling, laying them by one after another, rising
ROW = 0.7            # 尺 between two bows laid side by side


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    aid = step.who[0]
    objs = acts._d.objects                       # (read only: which of the 射器 he holds now)
    held = [o for o in acts.object_ids("bow.") + acts.object_ids("arrow.") if objs[o].holder() == aid]
    spot = acts.resolve(step.at or chor.parse_ref("court.bows_common"), aid)
    owners = sorted({o.split(".")[1] for o in held})
    # the row runs north–south along the 堂's west edge; he kneels at its south end, facing north
    south = spot[1] - (len(owners) - 1) / 2 * ROW - 2.0
    t = acts.walk(aid, t0, acts.free_spot(aid, (spot[0] - 1.0, south, acts.site.surface_z(spot[0] - 1.0, south))))
    t = acts.turn(aid, t, 0.0)
    acts.pose(aid, t, "sit")
    for oid in held:
        k = owners.index(oid.split(".")[1])
        x, y = spot[0], spot[1] + (k - (len(owners) - 1) / 2) * ROW
        acts.give(oid, t + LAY_S / 2, aid, None, (x - (0.3 if oid.startswith("arrow.") else 0.0), y, spot[2] + 0.1))
        acts.obj(oid, t + LAY_S / 2, "state", "laid by at 堂西 (鄭 諸所退皆俟堂西)")
    acts.pose(aid, t + LAY_S, "stand")
    return t + LAY_S
