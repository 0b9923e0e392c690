"""The scene pack (assets/web/PACK.md): read back as the browser player reads it, and compared
with what it is made from — build_static, the rite's tracks, build_dynamic, views, texts, layout.

Pure Python: no GL, no browser.  The pack is built once for the module."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scene.render import meshes, palette, stills, views
from scene.render.shapes import heading_rot
from scene.web import pack as webpack

ROOT = Path(__file__).resolve().parent.parent
_DT = {"f32": "<f4", "u8": "u1", "u16": "<u2", "u32": "<u4"}


@pytest.fixture(scope="module")
def pack(pack_dir):
    """What the player gets: the JSON text, parsed, and the binary — the session's pack, the verified shipped
    one (test_shipped builds it afresh and finds the very bytes)."""
    return json.loads((pack_dir / "scene.json").read_text(encoding="utf-8")), (pack_dir / "scene.bin").read_bytes()


def dec(data: bytes, acc) -> np.ndarray:
    return np.frombuffer(data, _DT[acc["t"]], acc["n"] * acc["c"], acc["o"]).reshape(acc["n"], acc["c"])


def step_at(steps, t: float):
    """The player's Steps rule: v[i] for the last t[i] <= T."""
    i = int(np.searchsorted(np.asarray(steps["t"], float), t, side="right")) - 1
    return steps["v"][max(i, 0)]


def track_at(data, track, t: float) -> np.ndarray:
    """The player's track rule: linear between the decoded keys, clamped."""
    tt = dec(data, track["t"])[:, 0].astype(float)
    v = dec(data, track["v"]).astype(float)
    return np.array([np.interp(t, tt, v[:, c]) for c in range(v.shape[1])])


def _walk(node, is_it, path="$"):
    """Every sub-object of the manifest that ``is_it`` recognises, with its JSON path."""
    if isinstance(node, dict):
        if is_it(node):
            yield path, node
            return
        for k, v in node.items():
            yield from _walk(v, is_it, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, is_it, f"{path}[{i}]")


def accessors(node):
    return _walk(node, lambda d: set(d) == {"o", "n", "t", "c"})


def geos(node):
    return _walk(node, lambda d: "position" in d and "index" in d)


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


# ---------------------------------------------------------------------------
# the buffer

def test_manifest_keys(pack):
    m, _ = pack
    assert m["format"] == "xiangsheli-pack/1"
    for key in ("key", "reading", "duration_s", "bounds_m", "layers", "hou_rope", "actors", "objects", "stages",
                "steps", "texts", "views", "places", "place_labels", "dims"):
        assert key in m, key
    assert set(m["layers"]) == {"main", "shadows", "roof_south", "roof_north"}
    assert m["reading"]["name"] == "zheng" and m["reading"]["chi_m"] == pytest.approx(0.231)


def test_accessors_in_range_aligned_and_disjoint(pack):
    m, data = pack
    accs = sorted((a["o"], a["n"] * a["c"] * np.dtype(_DT[a["t"]]).itemsize, a["t"], a["c"], p)
                  for p, a in accessors(m))
    assert len(accs) > 500
    # identical data is stored once: accessors either share all their bytes (same type) or none
    spans = {}
    for o, size, t, c, p in accs:
        assert o % 4 == 0, p
        assert o + size <= len(data), p
        assert spans.setdefault(o, (size, t, c)) == (size, t, c), f"{p} shares its start but not its data"
    end = 0
    for o, (size, _, _) in sorted(spans.items()):
        assert o >= end, f"the accessor at {o} overlaps the one before it"
        end = o + size
    assert len(data) - end < 4                     # nothing unreferenced at the end
    used = sum(size + (-size) % 4 for size, _, _ in spans.values())
    assert used == len(data)                       # nor anywhere else


def test_geo_indices_and_parts_in_range(pack):
    m, data = pack
    n = 0
    for p, g in geos(m):
        pos, col = dec(data, g["position"]), dec(data, g["colour"])
        idx, part = dec(data, g["index"]), dec(data, g["part"])
        assert g["position"]["c"] == 3 and g["colour"]["c"] == 3 and g["index"]["c"] == 3, p
        assert len(pos) == len(col), p
        assert len(part) == len(idx), p
        assert idx.max() < len(pos), p
        assert part.max() < len(g["parts"]), p
        assert np.isfinite(pos).all(), p
        n += 1
    assert n > 300


def test_static_layers_are_build_static_baked(pack):
    m, data = pack
    st = meshes.build_static()
    for name, batch in st.baked().items():
        a = batch.arrays()
        g = m["layers"][name]
        tris = dec(data, g["index"])
        assert len(tris) == len(a["tris"]), name
        assert np.array_equal(tris, a["tris"]), name
        assert np.allclose(dec(data, g["position"]), a["points"] * st.scale, atol=1e-4), name
        assert np.array_equal(dec(data, g["colour"]), a["rgb"]), name        # lit at the bake: shipped as is
        assert g["parts"] == batch.names
        assert np.array_equal(dec(data, g["part"])[:, 0], a["part"]), name
    # the lighting: unlit faces keep the ambient share, sunlit floors are brighter than walls facing away
    base = np.array([[200, 100, 50]], np.uint8)
    dark = webpack.light(base, np.array([[0.0, 0.0, -1.0]]))
    assert np.array_equal(dark[0], np.rint(base[0] * palette.AMBIENT).astype(np.uint8))
    up = webpack.light(base, np.array([[0.0, 0.0, 1.0]]))
    north = webpack.light(base, np.array([[0.0, 1.0, 0.0]]))     # the sun is in the south
    assert (up[0].astype(int) > north[0].astype(int)).all()
    assert (up[0].astype(int) > dark[0].astype(int) * 2).all()


# ---------------------------------------------------------------------------
# actors

def _turn_rate(rite, i: int, t: float) -> float:
    """°/s the actor turns at t, from the rite's own track (the fastest over the keys about t)."""
    tt, v = rite._actors.tracks[i]
    k = int(np.searchsorted(tt, t))
    lo, hi = max(k - 2, 0), min(k + 2, len(tt) - 1)
    dh = np.abs((np.diff(v[lo:hi + 1, 3]) + 180.0) % 360.0 - 180.0)
    dt = np.maximum(np.diff(tt[lo:hi + 1]), 1e-6)
    return float((dh / dt).max()) if len(dt) else 0.0


def _actor_speed(rite, i: int, t: float) -> float:
    """m/s the actor moves at t, from the rite's own track (the fastest over the keys about t)."""
    tt, v = rite._actors.tracks[i]
    k = int(np.searchsorted(tt, t))
    lo, hi = max(k - 2, 0), min(k + 2, len(tt) - 1)
    d = np.linalg.norm(np.diff(v[lo:hi + 1, :3], axis=0), axis=1)
    dt = np.maximum(np.diff(tt[lo:hi + 1]), 1e-6)
    return float((d / dt).max()) if len(dt) else 0.0


def test_actor_tracks_are_the_rites(pack, rite):
    m, data = pack
    assert [a["id"] for a in m["actors"]] == list(rite.actor_ids)
    rng = np.random.default_rng(5)
    # moments spread over the rite, and moments in the middle of walks (not of the 10-ms steps in from
    # offstage: at 460 m/s the f32 key times, 0.5 ms apart late in the rite, are worth a centimetre)
    times = list(rng.uniform(0, rite.duration, 12))
    for i in (0, 3, 17, 30):
        t, v = rite._actors.tracks[i]
        moving = np.flatnonzero((np.linalg.norm(np.diff(v[:, :2], axis=0), axis=1) > 0.5) & (np.diff(t) > 0.1))
        for k in moving[:: max(1, len(moving) // 4)][:4]:
            times.append(float((t[k] + t[k + 1]) / 2))
    for t in times:
        pose = rite.pose_at(t)
        for i, a in enumerate(m["actors"]):
            x = track_at(data, a["track"], t)
            # 1 mm, and what the f32 key times are worth at his speed (1 ms apart after 8192 s: 1.2 mm walking)
            step = float(np.spacing(np.float32(t)))
            assert np.abs(x[:3] - pose.actor_xyz_m[i]).max() < 1e-3 + _actor_speed(rite, i, t) * 2 * step, (a["id"], t)
            # key times are f32 (0.5 ms apart late in the rite) and keys at one time are nudged a step apart
            # each (buffer.py): a quick turn may be off by its rate × a few such steps
            dh = (x[3] % 360.0 - pose.heading_deg[i] + 180.0) % 360.0 - 180.0
            assert abs(dh) < 0.1 + _turn_rate(rite, i, t) * 4 * float(np.spacing(np.float32(t))), (a["id"], t)
            assert step_at(a["posture"], t) == pose.posture[i]
            assert step_at(a["visible"], t) == bool(pose.visible[i])
            assert step_at(a["holding"], t) == pose.holding[i]
            assert step_at(a["say"], t) == pose.say[i]
            assert step_at(a["role"], t) == pose.role[i]
            assert step_at(a["figure"], t) in a["figures"]
            assert step_at(a["figure"], t).split("+")[0] == pose.posture[i]


def test_every_actor_has_the_six_postures(pack):
    m, data = pack
    for a in m["actors"]:
        for p in ("stand", "walk", "sit", "bow", "salute", "shoot"):
            g = a["figures"][p]
            pts = dec(data, g["position"])
            assert abs(pts[:, 0].mean()) < 0.2 and abs(pts[:, 1].mean()) < 0.45, (a["id"], p)   # local frame
            assert pts[:, 2].min() > -0.05 and 1.2 < pts[:, 2].max() < 2.2 or p in ("sit", "bow"), (a["id"], p)
        assert 1.5 < a["label_z"] < 2.5


# ---------------------------------------------------------------------------
# objects and figures against build_dynamic

def _rotation_y_to(d: np.ndarray) -> np.ndarray:
    y = np.array([0.0, 1.0, 0.0])
    d = d / np.linalg.norm(d)
    c, ax = float(y @ d), np.cross(y, d)
    s = float(np.linalg.norm(ax))
    if s < 1e-12:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    k = ax / s
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * K + (1 - c) * K @ K


def _placed(m, data, o, t):
    """The player's placement of an object's variant at t (None when not drawn)."""
    key = step_at(o["variant"], t)
    if not key:
        return None
    g = o["variants"][key]
    p = dec(data, g["position"]).astype(float)
    orient = step_at(o["orient"], t)
    if orient.startswith("holder:"):
        actor = next(a for a in m["actors"] if a["id"] == orient[7:])
        p = p @ heading_rot(track_at(data, actor["track"], t)[3] % 360.0).T
    elif orient == "velocity":
        v = track_at(data, o["track"], t) - track_at(data, o["track"], t - 0.02)
        p = p @ _rotation_y_to(v).T
    else:
        assert orient == "fixed"
    return p + track_at(data, o["track"], t)


def _speed(rite, pid: str, t: float) -> float:
    """m/s of a movable object at t, from the rite's own track."""
    oid = pid.removeprefix("object.")
    if oid not in rite.object_ids:
        return 0.0
    tt, v = rite._objects.tracks[list(rite.object_ids).index(oid)]
    a, b = (np.array([np.interp(x, tt, v[:, c]) for c in range(3)]) for x in (t - 0.05, t + 0.05))
    return float(np.linalg.norm(b - a) / 0.1)


def test_objects_and_figures_match_build_dynamic(pack, rite):
    m, data = pack
    assert [o["id"] for o in m["objects"]] == list(rite.object_ids)
    by_stage = {s.n: s for s in rite.stages}
    # a flight in each round, the 獲者 with the 旌, the counting, the drinking, the start and the end
    times = [stills.representative_t(rite, by_stage[n]) for n in (4, 21, 27, 31, 37, 40, 45, 50)]
    times += [0.0, rite.duration * 0.37, rite.duration]
    studio = type("S", (), {"rite": rite})()
    for t in times:
        pose = rite.pose_at(t)
        vel = stills.Studio._velocities(studio, pose)
        dyn = meshes.build_dynamic(rite, pose, velocity=vel)
        want: dict[str, list] = {}
        actor_tris: dict[str, int] = {}
        for pid, pts, _, tri, _ in dyn.main.chunks():
            if pid.startswith("actor."):
                actor_tris[pid[6:]] = actor_tris.get(pid[6:], 0) + len(tri)
                continue
            base = pid.removesuffix(".string").removesuffix(".fletch")
            if base.startswith(("object.", "bow.", "arrow.", "counters.")):
                want.setdefault(base, []).append(np.asarray(pts, float))
        got = {}
        for o in m["objects"]:
            p = _placed(m, data, o, t)
            if p is not None:
                got[o["id"] if "." in o["id"] else f"object.{o['id']}"] = p
        assert set(got) == set(want), (t, sorted(set(got) ^ set(want)))
        for pid, p in got.items():
            w = np.vstack(want[pid])
            assert w.shape == p.shape, (t, pid)
            # the same surface: tubes and rods built in the world frame turn their rings about their axis
            # when rotated, so vertices may differ by a tube's diameter (≤ 4.4 cm); the middle may not
            assert np.abs(w - p).max() < 0.045, (t, pid)
            # … plus what the pack's float32 times can miss on a thing in flight (an arrow at 45 m/s moves
            # 2 cm within one float32 step of t ≈ 6500 s)
            assert np.abs(w.mean(axis=0) - p.mean(axis=0)).max() < 0.01 + _speed(rite, pid, t) * float(
                np.spacing(np.float32(t))), (t, pid)
        # figures: the one the pack names has the triangles build_dynamic drew (posture and props)
        for a in m["actors"]:
            if a["id"] in actor_tris:
                g = a["figures"][step_at(a["figure"], t)]
                assert g["index"]["n"] == actor_tris[a["id"]], (t, a["id"], step_at(a["figure"], t))


def test_object_variants_cover_the_rules(pack):
    m, _ = pack
    ob = {o["id"]: o for o in m["objects"]}
    arrow = ob["arrow.bin.1"]
    assert {"flight", "held", "stuck"} <= set(arrow["variants"]) or {"flight", "held"} <= set(arrow["variants"])
    assert "velocity" in arrow["orient"]["v"] and "holder:bin" in arrow["orient"]["v"]
    assert "nocked" in arrow["variants"]
    assert {"shoot", "held"} <= set(ob["bow.bin"]["variants"])
    counts = set(ob["counters.right"]["variants"])
    assert counts and all(k.isdigit() for k in counts)
    assert ob["hou_rope"]["variants"] == {} and set(ob["hou_rope"]["variant"]["v"]) == {""}
    assert any(s.startswith("tied") for s in ob["hou_rope"]["state"]["v"])
    assert set(m["hou_rope"]["variants"]) == {"rolled", "tied", "untied"}
    assert m["hou_rope"]["track_object"] == "hou_rope"


# ---------------------------------------------------------------------------
# stages, steps, texts, views

def test_stages_rounds_and_phases(pack, rite):
    m, _ = pack
    st = m["stages"]
    assert [s["n"] for s in st] == [s.n for s in rite.stages]
    rounds = [s["round"] for s in st]
    for k in (1, 2, 3):
        mine = [s for s in st if s["round"] == k]
        assert mine and all(s["phase"] == f"round{k}" for s in mine)
    assert [r for r in rounds if r is not None] == sorted(r for r in rounds if r is not None)
    assert all(s["phase_title"] and ord(s["phase_title"][0]) > 0x2E80 for s in st)
    assert st[0]["start"] == 0.0 and st[-1]["end"] <= m["duration_s"]
    assert all(a["end"] <= b["start"] + 1e-6 for a, b in zip(st, st[1:]))


def test_steps_and_texts(pack, rite):
    m, _ = pack
    assert len(m["steps"]) == len(rite.spans)
    starts = [s["start"] for s in m["steps"]]
    assert starts == sorted(starts)
    for s in m["steps"]:
        jing = m["texts"][str(s["section"])]["jing"]
        assert jing[s["offset"]:s["offset"] + len(s["phrase"])] == s["phrase"], s
    for n, tx in m["texts"].items():
        assert tx["jing_s"] != tx["jing"] and len(tx["jing_s"]) > 0.8 * len(tx["jing"])
        for note in tx["notes"]:
            assert tx["jing"][note["at"] - len(note["anchor"]):note["at"]] == note["anchor"], (n, note)
    assert m["texts"]["1"]["notes"] and any(m["texts"][k]["seed"] for k in m["texts"])


def test_cameras_for_every_stage_and_view(pack, rite):
    m, _ = pack
    v = m["views"]
    assert v["order"] == ["overview", "hall", "range", "plan", "archer", "target", "guest"]
    assert v["titles"]["overview"] == "總覽"
    assert set(v["by_stage"]) == {str(s.n) for s in rite.stages}
    for cams in v["by_stage"].values():
        assert list(cams) == v["order"]
        for c in cams.values():
            assert len(c["position"]) == 3 and len(c["focal_point"]) == 3 and len(c["view_up"]) == 3
            assert c["parallel"] == (c["title"].startswith("平面"))
    st = rite.stages[20]
    pose = rite.pose_at(stills.representative_t(rite, st))
    for name in v["order"]:
        c = views.camera(name, rite, pose, aspect=16 / 9)
        got = v["by_stage"][str(st.n)][name]
        assert np.allclose(got["position"], c.position, atol=1e-3) and got["title"] == c.title


# ---------------------------------------------------------------------------
# places, labels, dims

def test_places_labels_and_dims(pack, rite):
    m, _ = pack
    lay = rite.layout
    assert {p["id"] for p in m["places"]} == set(lay.places)
    ids = {lb["id"] for lb in m["place_labels"]}
    assert {"target.hou", "range.fa", "court.xi", "hall.tang"} <= ids
    dims = {d["id"]: d for d in m["dims"]}
    hd = dims["range.houdao"]
    assert "五十弓 = 50 弓 × 6 尺 = 300 尺 = 69.30 m" in hd["text"]
    assert math.dist(hd["a"], hd["b"]) == pytest.approx(300 * 0.231, abs=1e-3)
    assert "1/3 × 侯道 300 尺 = 100 尺 = 23.10 m" in dims["range.fa.north"]["text"]
    assert "5 步 × 6 尺 = 30 尺 = 6.93 m" in dims["range.fa.west"]["text"]
    assert dims["range.fa.west"]["b"][:2] == pytest.approx(list(lay.xyz_m("range.fa"))[:2], abs=1e-3)
    assert "堂深 = 48 尺 = 11.09 m" in dims["court.xi.ns"]["text"]
    assert "東榮 = 45 尺 = 10.40 m" in dims["court.xi.ew"]["text"]
    assert dims["court.xi.ew"]["b"][:2] == pytest.approx(list(lay.xyz_m("court.xi"))[:2], abs=1e-3)


def test_dims_follow_the_reading():
    from scene.geometry.layout import build_layout
    for name, chi, bu in (("zhou8cun", 0.1848, 6), ("wangzhi", 0.231, 8)):
        lay = build_layout(name)
        d = {x["id"]: x for x in webpack.dim_rows(lay)}
        # the text is the layout's own arithmetic
        assert lay["range.houdao"].derivation.split(" @ ")[0] in d["range.houdao"]["text"]
        assert f"5 步 × {bu} 尺 = {5 * bu} 尺 = {5 * bu * chi:.2f} m" in d["range.fa.west"]["text"]
        assert f"{5 * bu * chi:.2f} m" in lay["range.fa"].derivation
        assert math.dist(d["range.houdao"]["a"], d["range.houdao"]["b"]) == pytest.approx(300 * chi, abs=1e-3)
        assert math.dist(d["range.fa.west"]["a"], d["range.fa.west"]["b"]) == pytest.approx(5 * bu * chi, abs=1e-3)
    assert "55.44 m" in webpack.dim_rows(build_layout("zhou8cun"))[0]["text"]


# ---------------------------------------------------------------------------
# files, cache, font, CLI

@pytest.mark.slow
def test_build_is_deterministic(pack):
    m, data = pack
    m2, data2 = webpack.build_pack()
    assert data2 == data
    assert webpack.dumps(m2) == webpack.dumps(m)


def test_pack_dir_is_cached(pack, tmp_path, monkeypatch):
    m, data = pack
    calls = []
    def fake(reading=None, seed=None):
        calls.append((reading, seed))
        return m, data
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))
    monkeypatch.setenv("XIANGSHELI_NO_SHIPPED", "1")          # the build path (test_shipped.py: the copy)
    monkeypatch.setattr(webpack, "build_pack", fake)
    d = webpack.pack_dir()
    assert d.parent == tmp_path / "packs" and len(calls) == 1
    assert (d / "scene.bin").read_bytes() == data
    assert json.loads((d / "scene.json").read_text(encoding="utf-8"))["key"] == m["key"]
    assert webpack.pack_dir() == d and len(calls) == 1
    assert webpack.pack_dir(seed=7) != d and len(calls) == 2


def test_font_covers_the_manifest(pack, tmp_path):
    from fontTools.ttLib import TTFont

    from scene.render.labels import _cmap, fallback_font_path, font_path
    m, _ = pack
    text = "".join(strings(m))
    files = webpack.write_font(tmp_path / "cjk.otf")       # from the sources alone, not told the manifest
    assert files[0] == tmp_path / "cjk.otf"
    covered: set[int] = set()
    for f in files:
        font = TTFont(f)
        covered |= set(font.getBestCmap())
        font.close()
    assert sum(f.stat().st_size for f in files) < 1_500_000
    used = {ord(c) for c in text if not c.isspace()}
    sources = _cmap(font_path()) | _cmap(fallback_font_path())
    assert used & sources <= covered
    # every CJK character of the manifest has a glyph (⅔ and the like fall to the system's fonts)
    assert not {chr(c) for c in used - covered if c >= 0x2E80}
    for ch in "髤旜侯道乏鄭":
        assert ord(ch) in covered, ch


def test_cli_bad_reading_is_one_line(tmp_path):
    out = tmp_path / "pk"
    p = subprocess.run([sys.executable, "-m", "scene", "pack", "--out", str(out), "--reading", "nope"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown reading 'nope'")
    assert not out.exists()


def test_cli_pack_reports_what_it_wrote(pack, tmp_path, monkeypatch, capsys):
    from scene.__main__ import main
    m, data = pack
    monkeypatch.setattr(webpack, "build_pack", lambda reading=None, seed=None: (m, data))
    out = tmp_path / "pk"
    assert main(["pack", "--out", str(out), "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (out / "scene.bin").read_bytes() == data
    assert (out / "font" / "cjk.otf").stat().st_size > 100_000
    assert any(ln.startswith(f"{out / 'scene.bin'}: {len(data):,} bytes") for ln in lines)
    assert any("font/cjk.otf" in ln and "gzipped" in ln for ln in lines)
