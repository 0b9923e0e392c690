"""Open-data exports (scene/export.py): the layout as JSON and CSV, the scene as glTF 2.0.

Everything is read back the way a consumer reads it — ``json``, the ``csv`` module, ``pygltflib`` plus our
own decoding of the binary buffer — and compared with what it is made from (build_layout, build_static,
build_dynamic, the pose).  No GL, no browser."""
from __future__ import annotations

import base64
import csv
import io
import json
import struct
import subprocess
import sys

import numpy as np
import pygltflib
import pytest

from scene.__main__ import main
from scene.geometry import readings
from scene.geometry.layout import build_layout
from scene.render import meshes, stills
from scene.web import export

STAGE = "21"
_DTYPE = {5126: "<f4", 5125: "<u4"}
_WIDTH = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}


def z_up_to_y_up(p) -> np.ndarray:
    """The documented conversion, written out independently: glTF (x, y, z) = (x, z, -y)."""
    p = np.asarray(p, dtype=np.float64)
    return np.stack([p[..., 0], p[..., 2], -p[..., 1]], axis=-1)


def y_up_to_z_up(p) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    return np.stack([p[..., 0], -p[..., 2], p[..., 1]], axis=-1)


# ---------------------------------------------------------------------------
# JSON and CSV

@pytest.mark.parametrize("reading", ["zheng", "xiang", "wangzhi"])
def test_json_one_row_per_place_with_positions_and_provenance(tmp_path, reading):
    out = tmp_path / "layout.json"
    export.export(out, None, reading)
    doc = json.loads(out.read_text(encoding="utf-8"))
    lay = build_layout(reading)
    r = lay.reading
    assert doc["format"] == "xiangsheli-layout/1"
    assert doc["coordinates"] == "metres; x east, y north, z up; origin: the 堂's south edge (廉) at its centre"
    assert doc["reading"]["name"] == r.name and doc["reading"]["title"] == r.title
    assert doc["reading"]["choices"] == json.loads(json.dumps(r.choices(), ensure_ascii=False))
    assert all(c["source"] for c in doc["reading"]["choices"])
    assert doc["units"]["chi_m"] == r.chi_m
    rows = doc["places"]
    assert [row["id"] for row in rows] == list(lay.places)          # one row per place, in order
    for row in rows:
        p = lay[row["id"]]
        assert row["name"] == p.name
        assert [row["x_m"], row["y_m"], row["z_m"]] == pytest.approx([c * r.chi_m for c in p.xyz_chi], abs=1e-4)
        assert [row["x_chi"], row["y_chi"], row["z_chi"]] == pytest.approx(p.xyz_chi, abs=1e-4)
        size = [row["size_ew_m"], row["size_ns_m"], row["size_up_m"]]
        if p.size_chi is None:
            assert size == [None, None, None]
        else:
            assert size == pytest.approx([s * r.chi_m for s in p.size_chi], abs=1e-4)
        assert row["facing"] == p.facing and row["heading_deg"] == p.heading_deg
        assert (row["passage"], row["commentary"], row["arithmetic"], row["status"]) == \
            (p.source, p.commentary, p.derivation, p.status)
    hou = next(row for row in rows if row["id"] == "target.centre")
    assert hou["name"] == "侯中" and hou["passage"].startswith(("經", "記"))


def test_json_positions_scale_with_the_chi(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    export.export(a, "json", "zheng")
    export.export(b, "json", "wu1991")
    ra = {p["id"]: p for p in json.loads(a.read_text(encoding="utf-8"))["places"]}
    rb = {p["id"]: p for p in json.loads(b.read_text(encoding="utf-8"))["places"]}
    assert ra["target.centre"]["y_chi"] == rb["target.centre"]["y_chi"] == -300
    assert ra["target.centre"]["y_m"] == pytest.approx(-69.3) and rb["target.centre"]["y_m"] == pytest.approx(-59.73)


def test_csv_has_bom_header_and_one_row_per_place(tmp_path):
    out = tmp_path / "layout.csv"
    export.export(out, None, "zheng")
    raw = out.read_bytes()
    assert raw[:3] == b"\xef\xbb\xbf"                       # the BOM Excel needs for the Chinese
    assert raw[3:10] == b"reading"
    with open(out, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    with open(out, encoding="utf-8-sig", newline="") as fh:
        header = next(csv.reader(fh))
    assert header == ["reading", *export.COLUMNS]
    lay = build_layout("zheng")
    chi = lay.reading.chi_m
    assert [row["id"] for row in rows] == list(lay.places)
    assert any("," in row["arithmetic"] + row["passage"] + row["commentary"] for row in rows)  # quoting is tested
    for row in rows:
        p = lay[row["id"]]
        assert row["reading"] == "zheng" and row["name"] == p.name
        assert [float(row[k]) for k in ("x_m", "y_m", "z_m")] == pytest.approx([c * chi for c in p.xyz_chi], abs=1e-4)
        assert [float(row[k]) for k in ("x_chi", "y_chi", "z_chi")] == pytest.approx(p.xyz_chi, abs=1e-4)
        if p.size_chi is None:
            assert row["size_ew_m"] == row["size_ns_m"] == row["size_up_m"] == ""
        else:
            assert float(row["size_ns_m"]) == pytest.approx(p.size_chi[1] * chi, abs=1e-4)
        assert row["facing"] == (p.facing or "")
        assert row["heading_deg"] == ("" if p.heading_deg is None else str(p.heading_deg))
        assert (row["passage"], row["commentary"], row["arithmetic"], row["status"]) == \
            (p.source, p.commentary, p.derivation, p.status)


def test_csv_names_a_changed_reading_by_its_changes(tmp_path):
    out = tmp_path / "l.csv"
    export.export(out, "csv", "xiang,bu_chi=8")
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert {row["reading"] for row in rows} == {"xiang: xiang,bu_chi=8"}
    assert len(rows) == len(build_layout(readings.get("xiang,bu_chi=8")).places)


# ---------------------------------------------------------------------------
# glTF: read back

class Gltf:
    """A glTF read with pygltflib, with its buffer bytes and accessor decoding."""

    def __init__(self, path) -> None:
        self.path = path
        self.g = pygltflib.GLTF2().load(str(path))
        if str(path).endswith(".glb"):
            self.blob = self.g.binary_blob()
        else:
            uri = self.g.buffers[0].uri
            head, _, b64 = uri.partition(",")
            assert head == "data:application/octet-stream;base64"
            self.blob = base64.b64decode(b64)
        self.nodes = {n.name: n for n in self.g.nodes}

    def read(self, k: int) -> np.ndarray:
        acc = self.g.accessors[k]
        view = self.g.bufferViews[acc.bufferView]
        w = _WIDTH[acc.type]
        a = np.frombuffer(self.blob, _DTYPE[acc.componentType], acc.count * w, view.byteOffset + (acc.byteOffset or 0))
        return a.reshape(acc.count, w) if w > 1 else a

    def prim(self, node):
        return self.g.meshes[node.mesh].primitives[0]

    def world_points(self, node) -> np.ndarray:
        """The node's vertices in the world, back in our z-up frame (group nodes carry no transform)."""
        return y_up_to_z_up(self.read(self.prim(node).attributes.POSITION).astype(np.float64) + node.translation)

    def parts(self):
        return [n for n in self.g.nodes if n.mesh is not None]


@pytest.fixture(scope="module")
def files(tmp_path_factory, rite):
    d = tmp_path_factory.mktemp("gltf")
    out = {}
    for name, stage in (("stage.glb", STAGE), ("stage.gltf", STAGE), ("static.glb", None)):
        export.export(d / name, None, "zheng", stage)
        out[name] = d / name
    return out


@pytest.fixture(scope="module")
def glb(files):
    return Gltf(files["stage.glb"])


@pytest.fixture(scope="module")
def scene_meshes(rite):
    st = stills.find_stage(rite, STAGE)
    t = stills.representative_t(rite, st)
    pose = rite.pose_at(t)
    return meshes.build_static("zheng"), meshes.build_dynamic(rite, pose), pose, t


def test_asset_material_and_scene_extras(glb, rite, scene_meshes):
    g = glb.g
    assert g.asset.version == "2.0" and g.asset.generator == "xiangsheli-scene"
    (mat,) = g.materials
    pbr = mat.pbrMetallicRoughness
    assert (pbr.baseColorFactor, pbr.metallicFactor, pbr.roughnessFactor, mat.doubleSided) == \
        ([1.0, 1.0, 1.0, 1.0], 0.0, 1.0, True)
    ex = g.scenes[g.scene].extras
    st = stills.find_stage(rite, STAGE)
    assert ex["reading"]["name"] == "zheng" and ex["reading"]["choices"][0]["key"] == "chi_m"
    assert (ex["stage"]["n"], ex["stage"]["id"], ex["stage"]["title"]) == (st.n, st.id, st.title)
    assert ex["t"] == pytest.approx(scene_meshes[3], abs=1e-3)
    assert "(x, z, -y)" in ex["axes"]


def test_node_names_are_part_ids_and_unique(glb, scene_meshes):
    static, dyn, _, _ = scene_meshes
    names = [n.name for n in glb.g.nodes]
    assert len(names) == len(set(names))
    parts = glb.parts()
    assert {n.extras["part"] for n in parts} == \
        set(static.main.names) | set(static.roof_south.names) | set(static.roof_north.names) | set(dyn.main.names)
    for n in parts:                                  # the bare id, or id@layer where it is in two layers
        assert n.name in (n.extras["part"], f"{n.extras['part']}@{n.extras['layer']}")
    assert {"hall.rafters@roof_south", "hall.rafters@roof_north"} <= set(names)
    for pid in ("hall.west_steps.tread1", "target.centre", "range.fa", "court.xi", "actor.bin", "actor.sishe",
                "bow.bin"):
        assert pid in glb.nodes, pid
    assert any(name.startswith("arrow.") for name in names)
    groups = [glb.g.nodes[k].name for k in glb.g.scenes[0].nodes]
    assert groups == ["static", "roof_south", "roof_north", "moving"]


def test_place_nodes_sit_at_the_layout_positions(glb):
    lay = build_layout("zheng")
    chi = lay.reading.chi_m
    placed = [n for n in glb.parts() if "place" in n.extras]
    assert len(placed) > 60
    for n in placed:
        p = lay[n.extras["place"]]
        assert n.extras["part"] == p.id or n.extras["part"].startswith(p.id + ".")
        np.testing.assert_allclose(n.translation, z_up_to_y_up([c * chi for c in p.xyz_chi]), atol=1e-3)
        assert (n.extras["classical_name"], n.extras["passage"], n.extras["arithmetic"], n.extras["status"]) == \
            (p.name, p.source, p.derivation, p.status)
    # the longest dot-boundary prefix: the treads belong to the steps, the 洗's stand to the 洗
    assert glb.nodes["hall.west_steps.tread1"].extras["place"] == "hall.west_steps"
    assert glb.nodes["court.xi.stand"].extras["place"] == "court.xi"
    assert glb.nodes["court.xi_basket.lid"].extras["place"] == "court.xi_basket"
    assert "place" not in glb.nodes["actor.bin"].extras and "place" not in glb.nodes["ground.field"].extras
    # the 侯中 is 侯道 = 300 尺 south of the 堂廉: glTF +z is south
    assert glb.nodes["target.centre"].translation[2] == pytest.approx(69.3, abs=1e-3)


def test_other_parts_are_translated_to_their_centroid(glb):
    for n in glb.parts():
        if "place" in n.extras:
            continue
        local = glb.read(glb.prim(n).attributes.POSITION).astype(np.float64)
        np.testing.assert_allclose(local.mean(axis=0), 0, atol=1e-4, err_msg=n.name)


def test_actor_and_object_nodes_carry_the_pose(glb, rite, scene_meshes):
    pose = scene_meshes[2]
    i = pose.actor_ids.index("bin")
    ex = glb.nodes["actor.bin"].extras
    assert (ex["kind"], ex["classical_name"], ex["role"], ex["posture"]) == \
        ("actor", "賓", pose.role[i], pose.posture[i])
    assert ex["xyz_m"] == pytest.approx(pose.actor_xyz_m[i], abs=1e-3)
    # the figure stands on its feet: its lowest vertex is at the actor's position
    w = glb.world_points(glb.nodes["actor.bin"])
    assert w[:, 2].min() == pytest.approx(pose.actor_xyz_m[i][2], abs=0.05)
    assert np.linalg.norm(w[:, :2].mean(axis=0) - pose.actor_xyz_m[i][:2]) < 0.5
    bow = glb.nodes["bow.bin"].extras
    assert bow["kind"] == "object" and bow["id"] == "bow.bin" and bow["classical_name"].startswith("弓")


def test_geometry_is_the_meshes_in_the_world(glb, scene_meshes):
    """Per part: the same triangles (count), the same vertices (world, to 0.1 mm), the same winding
    (the vector area survives the rotation): the translation plus the relative vertices is the mesh."""
    static, dyn, _, _ = scene_meshes
    layers = {"static": (static.main, static.scale), "roof_south": (static.roof_south, static.scale),
              "roof_north": (static.roof_north, static.scale), "moving": (dyn.main, 1.0)}
    total = 0
    for n in glb.parts():
        batch, scale = layers[n.extras["layer"]]
        a = batch.arrays()
        tris = a["tris"][a["part"] == batch.names.index(n.extras["part"])]
        want = a["points"].astype(np.float64)[tris] * scale                     # (T, 3, 3)
        idx = glb.read(glb.prim(n).indices).reshape(-1, 3)
        got = glb.world_points(n)[idx]
        assert len(got) == len(want), n.name
        total += len(got)
        np.testing.assert_allclose(np.sort(got.reshape(-1, 3), axis=0), np.sort(want.reshape(-1, 3), axis=0),
                                   atol=1e-4, err_msg=n.name)
        area = lambda t: np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]).sum(axis=0)   # noqa: E731
        np.testing.assert_allclose(area(got), area(want), atol=1e-3 + 1e-4 * np.abs(area(want)).max(),
                                   err_msg=n.name)
    assert total == len(static.main) + len(static.roof_south) + len(static.roof_north) + len(dyn.main)


def test_accessors_are_well_formed(glb):
    g, blob = glb.g, glb.blob
    assert g.buffers[0].byteLength == len(blob) or g.buffers[0].byteLength <= len(blob) < g.buffers[0].byteLength + 4
    for v in g.bufferViews:
        assert v.buffer == 0 and v.byteOffset % 4 == 0 and v.byteOffset + v.byteLength <= g.buffers[0].byteLength
        assert v.byteStride is None
    for m in g.meshes:
        (p,) = m.primitives
        assert p.material == 0 and p.mode in (None, 4)
        at = p.attributes
        for k, kind in ((at.POSITION, "VEC3"), (at.NORMAL, "VEC3"), (at.COLOR_0, "VEC3"), (p.indices, "SCALAR")):
            acc = g.accessors[k]
            view = g.bufferViews[acc.bufferView]
            assert (acc.byteOffset or 0) % 4 == 0 and acc.type == kind
            assert acc.componentType == (5125 if k == p.indices else 5126)
            assert view.target == (34963 if k == p.indices else 34962)
            assert (acc.byteOffset or 0) + acc.count * 4 * _WIDTH[kind] <= view.byteLength
        n_vert = g.accessors[at.POSITION].count
        assert g.accessors[at.NORMAL].count == g.accessors[at.COLOR_0].count == n_vert
        pos = glb.read(at.POSITION)
        assert g.accessors[at.POSITION].min == pos.min(axis=0).tolist()       # exact: the stored floats
        assert g.accessors[at.POSITION].max == pos.max(axis=0).tolist()
        assert g.accessors[p.indices].count % 3 == 0 and glb.read(p.indices).max() < n_vert
        np.testing.assert_allclose(np.linalg.norm(glb.read(at.NORMAL), axis=1), 1, atol=1e-5)
        col = glb.read(at.COLOR_0)
        assert col.min() >= 0 and col.max() <= 1


def test_colours_are_the_palette_in_linear(glb, scene_meshes):
    """COLOR_0 is linear light: encoded back to sRGB it is the batch's 8-bit colour."""
    static = scene_meshes[0]
    n = glb.nodes["target.centre"]
    lin = glb.read(glb.prim(n).attributes.COLOR_0).astype(np.float64)
    srgb = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055) * 255
    a = static.main.arrays()
    k = static.main.names.index("target.centre")
    want = a["rgb"][np.unique(a["tris"][a["part"] == k])]
    assert sorted(map(tuple, np.rint(srgb).astype(int))) == sorted(map(tuple, want.astype(int)))


def test_glb_container(files):
    raw = files["stage.glb"].read_bytes()
    magic, version, length = struct.unpack_from("<III", raw, 0)
    assert (magic, version, length) == (0x46546C67, 2, len(raw))
    jlen, jtype = struct.unpack_from("<II", raw, 12)
    assert jtype == 0x4E4F534A and jlen % 4 == 0
    doc = json.loads(raw[20:20 + jlen].decode("utf-8"))
    blen, btype = struct.unpack_from("<II", raw, 20 + jlen)
    assert btype == 0x004E4942 and blen % 4 == 0 and 28 + jlen + blen == len(raw)
    assert "uri" not in doc["buffers"][0] and doc["buffers"][0]["byteLength"] <= blen


def test_gltf_and_glb_hold_the_same_scene(files, glb):
    txt = Gltf(files["stage.gltf"])
    assert txt.blob == glb.blob[:len(txt.blob)] and len(glb.blob) - len(txt.blob) < 4
    a = json.loads(files["stage.gltf"].read_text(encoding="utf-8"))
    raw = files["stage.glb"].read_bytes()
    b = json.loads(raw[20:20 + struct.unpack_from("<I", raw, 12)[0]].decode("utf-8"))
    a["buffers"][0].pop("uri")
    assert a == b


def test_static_only_without_a_stage(files, scene_meshes):
    g = Gltf(files["static.glb"])
    static = scene_meshes[0]
    assert [g.g.nodes[k].name for k in g.g.scenes[0].nodes] == ["static", "roof_south", "roof_north"]
    assert not any(n.name.startswith(("actor.", "arrow.", "bow.", "object.")) for n in g.g.nodes)
    assert g.g.scenes[0].extras["stage"] is None
    n_tris = sum(g.g.accessors[g.prim(n).indices].count // 3 for n in g.parts())
    assert n_tris == len(static.main) + len(static.roof_south) + len(static.roof_north)


def test_shadows_are_their_own_nodes(tmp_path, scene_meshes):
    static, dyn, _, _ = scene_meshes
    out = tmp_path / "sh.glb"
    export.export(out, "gltf", "zheng", STAGE, shadows=True)
    g = Gltf(out)
    sh = g.nodes["shadows"]
    assert [g.g.nodes[k].name for k in sh.children] == ["shadows.static", "shadows.moving"]
    counts = [g.g.accessors[g.prim(g.g.nodes[k]).indices].count // 3 for k in sh.children]
    assert counts == [len(static.shadows), len(dyn.shadows)]


def test_export_module_imports_no_vtk():
    code = ("import sys; from scene.web import export; export.build_gltf('zheng', '3'); "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('vtk', 'vtkmodules', 'pyvista')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


# ---------------------------------------------------------------------------
# the command line

def test_cli_prints_one_line_of_what_was_written(tmp_path, capsys):
    out = tmp_path / "s.glb"
    assert main(["export", "--out", str(out), "--stage", "sanou_she"]) == 0
    line = capsys.readouterr().out.strip()
    assert "\n" not in line and str(out) in line and "§21" in line and f"{out.stat().st_size:,} bytes" in line
    assert main(["export", "--out", str(tmp_path / "l.csv"), "--reading", "xiang"]) == 0
    line = capsys.readouterr().out.strip()
    assert "\n" not in line and f"{len(build_layout('xiang').places)} places" in line


@pytest.mark.parametrize("args, expect", [
    (["--out", "x.txt"], "cannot tell the format from --out 'x.txt'"),
    (["--out", "x.json", "--format", "xml"], "unknown --format 'xml' (formats: json, csv, gltf, steps)"),
    (["--out", "x.obj", "--format", "gltf"], "must end in .glb (binary) or .gltf"),
    (["--out", "x.json", "--format", "csv"], "is a .json name but --format is csv"),
    (["--out", "x.json", "--stage", "21"], "--stage applies to --format gltf only"),
    (["--out", "x.csv", "--shadows"], "--shadows applies to --format gltf only"),
    (["--out", "x.glb", "--stage", "99"], "unknown stage '99'"),
    (["--out", "x.glb", "--reading", "nope"], "unknown reading 'nope'"),
    (["--out", "x.glb", "--stage", "21", "--t", "99999"], "is outside §21"),
])
def test_cli_errors_are_one_line_exit_2(tmp_path, monkeypatch, capsys, args, expect):
    monkeypatch.chdir(tmp_path)
    assert main(["export", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and expect in err
    assert not list(tmp_path.iterdir())                       # nothing half-written


def test_cli_error_exit_code_in_a_process(tmp_path):
    out = subprocess.run([sys.executable, "-m", "scene", "export", "--out", str(tmp_path / "x.stl")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
