"""The restructure fence: layouts, compiled rites and the default pack are what the snapshot says.

A deliberate change of the rite, the layout or the pack rewrites the snapshot
(``python tests/golden/snapshot.py --write``) in the same commit, so a diff of
``tests/golden/snapshot.json`` shows which actors, objects or pack parts it moved.
"""
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")

import snapshot  # noqa: E402


def test_snapshot_unchanged():
    want = json.loads(snapshot.SNAPSHOT.read_text(encoding="utf-8"))
    got = snapshot.snapshot()
    changed = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    assert not changed, f"{len(changed)} parts differ from the snapshot: {changed[:20]}"
