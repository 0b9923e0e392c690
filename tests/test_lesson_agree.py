"""The lesson check is written twice — the server's (scene/web/lessons.py, which resolves the shipped lessons
into every pack) and the page's (assets/web/lesson-toml.js, which reads a teacher's file in the browser): they
must agree, on every shipped lesson and on the ways a stop's act can go wrong (issue 44).

Each shipped lesson is read by both, as it is and changed stop by stop: its ``play`` just long enough and just
too short for its act, its ``t`` moved past the act's start, an act the rite does not have, a step given by
its index.  (A hundredth of a second either side of the act's end: the two readers' tolerances must be
the same, not merely both loose.)  Both accept the same files with the same stops (time, view, play, speed, act), and refuse the same
files at the same stop for the same reason.  The page reads the pack's steps (the shipped default pack), the
server the compiled rite they were packed from."""
from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "assets" / "prebuilt" / "pack-zheng" / "scene.json"


def _toml_value(v) -> str:
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)             # a JSON string is a TOML basic string
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def to_toml(lesson: dict) -> str:
    head = [f"{k} = {_toml_value(v)}" for k, v in lesson.items() if k != "stop"]
    stops = ["[[stop]]\n" + "\n".join(f"{k} = {_toml_value(v)}" for k, v in st.items()) for st in lesson["stop"]]
    return "\n".join(head) + "\n\n" + "\n\n".join(stops) + "\n"


def variants(name: str, lesson: dict, rite) -> list[tuple[str, dict]]:
    """The lesson as it is, then changed one stop at a time around its act (see the module's docstring)."""
    from scene.web.lessons import act_span, load_lesson
    resolved = load_lesson(Path(f"{name}.toml"), rite, text=to_toml(lesson))["stops"]
    stages = {str(s.n): s for s in rite.stages} | {s.id: s for s in rite.stages}
    out = [(name, lesson)]

    def changed(k: int, what: str, **edit) -> None:
        st = {**lesson["stop"][k], **edit}
        st = {key: v for key, v in st.items() if v is not None}
        out.append((f"{name}-{k + 1}-{what}", {**lesson, "stop": [*lesson["stop"][:k], st, *lesson["stop"][k + 1:]]}))

    for k, (st, res) in enumerate(zip(lesson["stop"], resolved)):
        if "stage" in st and "step" not in st:
            changed(k, "step0", step=0)
            changed(k, "step-last", step=sum(1 for s in rite.spans if s.section == stages[str(st["stage"])].n) - 1)
        if "act" not in st:
            continue
        start, end = act_span(rite, st["act"], res["t"])
        need = end - res["t"]
        changed(k, "play-enough", play=float(math.ceil(need)))
        changed(k, "play-just-enough", play=round(need + 0.01, 3))       # a hundredth of a second either side
        if need - 1.5 >= 0.1:
            changed(k, "play-short", play=round(need - 1.5, 3))
            changed(k, "play-just-short", play=round(need - 0.01, 3))
        changed(k, "no-play", play=None, speed=None)
        changed(k, "after-act", t=round(st.get("t", 0.0) + (start - res["t"]) + 0.5, 3))
        changed(k, "unknown-act", act=st["act"] + "之外")
    return out


def _reason(message: str) -> tuple[str, str]:
    """(the stop, the kind of refusal) of a one-line error of either reader."""
    stop = re.search(r"stop (\d+)", message)
    kinds = ("ends at", "no step", "is not a step", "is not a time", "past the end")
    return (stop.group(1) if stop else "?", next((k for k in kinds if k in message), message))


@pytest.mark.parametrize("chapter", [None, "xiangyinjiu"], ids=["xiangshe", "xiangyinjiu"])
def test_the_server_and_the_page_read_every_shipped_lesson_alike(request, chapter):
    """Chapter 5's lessons against its shipped pack; chapter 4's class (issue 43) against its pack of the default
    reading (the disk cache's, built when missing)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (tests/run.sh installs Debian's nodejs): the page's reader needs it")
    from scene.chapter import resolve
    from scene.web.lessons import LessonError, lesson_files, load_lesson
    if chapter is None:
        rite, path = request.getfixturevalue("rite"), PACK
    else:
        from scene.rite.cache import load_rite
        from scene.web.pack import pack_dir
        rite, path = load_rite("zheng", chapter=chapter), pack_dir("zheng", chapter=chapter) / "scene.json"
    pack = json.loads(path.read_text(encoding="utf-8"))
    assert abs(pack["duration_s"] - rite.duration) < 1e-3, "the shipped pack is not this rite's: shipped --write"
    cases = []
    for f in lesson_files(resolve(chapter)):
        cases += variants(f.stem, tomllib.loads(f.read_text(encoding="utf-8")), rite)
    texts = [(name, to_toml(lesson)) for name, lesson in cases]
    r = subprocess.run([node, str(ROOT / "tests" / "js" / "read_lessons.mjs")], cwd=ROOT, capture_output=True,
                       text=True, timeout=120, input=json.dumps({
                           "pack": {k: pack[k] for k in ("duration_s", "stages", "steps")},
                           "lessons": texts}, ensure_ascii=False))
    assert r.returncode == 0, r.stderr[-2000:]
    page = json.loads(r.stdout)
    kinds = {"accepted": 0, "refused": 0}
    disagree = []
    for (name, text), js in zip(texts, page):
        try:
            py = load_lesson(Path(f"{name}.toml"), rite, text=text)["stops"]
        except LessonError as exc:
            py = str(exc)
        if isinstance(py, str) or "error" in js:
            kinds["refused"] += 1
            if isinstance(py, str) != ("error" in js) or _reason(py if isinstance(py, str) else "") != \
                    _reason(js.get("error", "")):
                disagree.append(f"{name}: server {py if isinstance(py, str) else 'accepts'!s:.200} | "
                                f"page {js.get('error', 'accepts')}")
            continue
        kinds["accepted"] += 1
        for i, (a, b) in enumerate(zip(py, js["ok"])):
            keys = ("view", "play", "speed", "act", "caption")
            if abs(a["t"] - b["t"]) > 1.5e-3 or any(a.get(k) != b.get(k) for k in keys):
                disagree.append(f"{name} stop {i + 1}: server {({k: a.get(k) for k in ('t', *keys)})} | "
                                f"page {({k: b.get(k) for k in ('t', *keys)})}")
        if len(py) != len(js["ok"]):
            disagree.append(f"{name}: {len(py)} stops on the server, {len(js['ok'])} on the page")
    assert not disagree, "\n".join(disagree[:20])
    # the changes reached both ways of going wrong, and most lessons were read whole
    assert kinds["refused"] >= 20 and kinds["accepted"] >= 40, kinds
    print(f"{len(texts)} lessons of {resolve(chapter).id} read alike: {kinds}")
