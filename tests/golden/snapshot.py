"""A fingerprint of what the program computes: the layout of every preset, the compiled rite (with and
without the 大夫) and the default scene pack — to show that a change of the code's *shape* changed
nothing a user sees.

It uses only the public names that the docs and ``assets/rite/README.md`` show (``scene.rite.timeline``,
``scene.geometry.layout``, ``scene.web.pack``; the old flat names are aliases that warn: test_house).

    python tests/golden/snapshot.py --write     # after a deliberate change of the rite or the pack
    python -m pytest tests/test_golden.py       # compares against tests/golden/snapshot.json
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SNAPSHOT = HERE / "snapshot.json"
RITES = ("zheng", "zheng,dafu_present=false", "xiang")
#: chapter 4 (鄉飲酒禮) under its default, with and without the 遵者: a change of the engine's shape must not move
#: the second chapter either (its keys are prefixed by the chapter's id)
CHAPTER_RITES = (("xiangyinjiu", "zheng"), ("xiangyinjiu", "zheng,dafu_present=false"))


def _r(obj):
    """Floats to 6 decimals (a micrometre): the last bits of sin/cos differ between CPUs (SIMD paths), and a
    fence that breaks on another machine fences nothing."""
    if isinstance(obj, float):
        return round(obj, 6) + 0.0
    if isinstance(obj, dict):
        return {k: _r(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_r(v) for v in obj]
    if hasattr(obj, "tolist"):
        return _r(obj.tolist())
    return obj


def _h(obj) -> str:
    blob = obj if isinstance(obj, bytes) else json.dumps(_r(obj), ensure_ascii=False, sort_keys=True,
                                                         default=repr).encode()
    return hashlib.sha256(blob).hexdigest()[:20]


def layouts() -> dict[str, str]:
    from scene.geometry.layout import build_layout
    from scene.geometry.readings import PRESETS
    out = {}
    for name in PRESETS:
        lay = build_layout(name)
        out[f"layout/{name}"] = _h(lay.as_dict())
    return out


def rite(reading: str, chapter: str | None = None) -> dict[str, str]:
    from scene.rite.timeline import build_rite
    r = build_rite(reading, chapter=chapter)
    d = r.director
    if chapter:
        reading = f"{chapter}:{reading}"
    out = {f"rite/{reading}/stages": _h([list(vars(s).values()) for s in r.stages]),
           f"rite/{reading}/spans": _h([list(vars(s).values()) for s in r.spans]),
           f"rite/{reading}/duration": repr(r.duration)}
    for aid, a in d.actors.items():
        out[f"rite/{reading}/actor/{aid}"] = _h([a.keys, [list(e) for e in a.events]])
    for oid, o in d.objects.items():
        out[f"rite/{reading}/object/{oid}"] = _h([[t, k, v.tolist() if hasattr(v, "tolist") else
                                                   ([x.tolist() for x in v] if k == "path" else v)]
                                                  for t, k, v in o.events])
    return out


def pack() -> dict[str, str]:
    from scene.web.pack import build_pack
    manifest, data = build_pack("zheng")
    manifest.pop("key")          # a hash of the code's bytes: it changes with any edit, by design
    out = {f"pack/zheng/{k}": _h(v) for k, v in manifest.items()}
    out["pack/zheng/scene.bin"] = _h(data)
    return out


def snapshot() -> dict[str, str]:
    out = layouts()
    for r in RITES:
        out.update(rite(r))
    for chapter, r in CHAPTER_RITES:
        out.update(rite(r, chapter))
    out.update(pack())
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/golden/snapshot.py --write")
    SNAPSHOT.write_text(json.dumps(snapshot(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT}")
