"""Light baked into the static set (issue 15, scene.render.meshes.bake): subdivision, depth maps, occlusion at
corners and the feet of walls, the sun's shadow under the roof, the planar ground shadows recoloured."""
from __future__ import annotations

import numpy as np
import pytest

from scene.render import meshes, palette
from scene.render.meshes import bake
from scene.render.shapes import rgb


@pytest.fixture(scope="module")
def static():
    return meshes.build_static("zheng")


@pytest.fixture(scope="module")
def baked(static):
    return static.baked()


def _part(layer, pid):
    a = layer.arrays()
    k = layer.names.index(pid)
    v = np.unique(a["tris"][a["part"] == k])
    return a["points"][v].astype(float), a["normals"][v].astype(float), a["rgb"][v].astype(int)


def _area(p, t):
    a, b, c = p[t[:, 0]], p[t[:, 1]], p[t[:, 2]]
    return 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)


def test_subdivision_keeps_the_surface_and_cuts_long_edges(static):
    a = static.main.arrays()
    # 2 尺 everywhere but the field outside the walls (z < 0: left whole)
    s = bake.subdivide(a, lambda tp: np.where(tp[:, :, 2].min(axis=1) < -0.01, np.inf, 2.0))
    p0, p1 = a["points"].astype(float), s["points"].astype(float)
    assert _area(p1, s["tris"]).sum() == pytest.approx(_area(p0, a["tris"]).sum(), rel=1e-4)
    tp = p1[s["tris"]]
    e = np.linalg.norm(tp - tp[:, [1, 2, 0]], axis=2).max(axis=1)
    court = tp[:, :, 2].min(axis=1) > -0.01
    # grid cells of 2 尺 along the base and the rails: a cell's diagonal in a skewed triangle is longer
    assert e[court].max() <= 3 * 2.0, e[court].max()
    assert np.median(e[court]) <= 2.0 * 1.5
    assert len(s["tris"]) < 2e5                    # slivers (the court walls) are not split into their length²
    # every piece keeps its part and its face's direction
    for k in range(len(static.main.names)):
        assert (s["part"] == k).any() == (a["part"] == k).any()
    n = np.cross(p1[s["tris"][:, 1]] - p1[s["tris"][:, 0]], p1[s["tris"][:, 2]] - p1[s["tris"][:, 0]])
    vn = s["normals"][s["tris"][:, 0]]
    big = np.linalg.norm(n, axis=1) > 1e-6
    assert (np.einsum("ij,ij->i", n[big], vn[big]) > 0).mean() > 0.99


def test_a_depth_map_shades_what_is_under_a_roof_and_not_beside_it():
    # a 10 × 10 square at height 5 over the origin, light from straight above
    sq = np.array([[[-5, -5, 5], [5, -5, 5], [5, 5, 5]], [[-5, -5, 5], [5, 5, 5], [-5, 5, 5]]], float)
    m = bake.DepthMap(sq, (0, 0, 1), 0.25)
    pts = np.array([[0, 0, 0], [3, 3, 0], [8, 0, 0], [0, 0, 6]], float)
    assert m.lit(pts, 0.1).tolist() == [0.0, 0.0, 1.0, 1.0]
    # the light from the side (45° from the east): the shadow moves 5 west, to x in [-10, 0]
    m = bake.DepthMap(sq, (1, 0, 1), 0.25)
    assert m.lit(np.array([[-4, 0, 0], [-9, 0, 0], [2, 0, 0.0], [7, 0, 0], [-12, 0, 0]]), 0.1).tolist() == \
        [0.0, 0.0, 1.0, 1.0, 1.0]


def test_the_foot_of_the_court_wall_is_darker_than_the_open_court(static, baked):
    p, n, c = _part(baked["main"], "hall.court")
    cw = static.layout.reading.court_width_chi / 2
    y = -150.0
    foot = np.argmin(np.hypot(p[:, 0] + cw, p[:, 1] - y))
    open_ = np.argmin(np.hypot(p[:, 0] - 20.0, p[:, 1] - y))
    assert abs(p[foot, 0] + cw) < 4.5 and abs(p[open_, 0] - 20) < 4.5
    # same base colour, both in the sun (the court's sun shadows are the planar layer): only occlusion differs
    assert c[foot].sum() < c[open_].sum() - 12, (c[foot], c[open_])


def test_a_corner_of_the_hall_is_darker_than_the_open_floor_and_the_roof_shades_the_floor(static, baked):
    h = static.layout.hall
    p, n, c = _part(baked["main"], "hall.tang")
    top = (p[:, 2] > h.height - 0.01) & (n[:, 2] > 0.9)
    p, c = p[top], c[top]
    def at(x, y):
        k = np.argmin(np.hypot(p[:, 0] - x, p[:, 1] - y))
        assert np.hypot(p[k, 0] - x, p[k, 1] - y) < 2.0
        return c[k].sum()
    front = at(0.0, 0.5)                                      # the 堂's front edge, under the open sky
    inner = at(0.0, h.house_depth / 2)                        # under the roof: out of the sun
    corner = at(-h.xu_x + 1.6, h.house_depth - 2.0)           # the NW corner behind the 西序 and the back wall
    assert front > inner + 60, (front, inner)
    assert corner < inner - 10, (corner, inner)


def test_planar_shadows_are_the_ground_without_the_sun(static, baked):
    sh = baked["shadows"].arrays()
    assert len(sh["tris"]) > 0
    z = sh["points"][sh["tris"]][:, :, 2]
    assert z.max() < 0.5                                     # on the ground only: the 堂's come from the depth map
    lit_court = bake.shade(np.array([rgb(palette.COLOURS["court"])], np.uint8), np.array([[0.0, 0, 1]]),
                           np.ones(1), np.ones(1))[0].astype(int)
    inside = np.abs(sh["points"][:, 0]) < static.layout.reading.court_width_chi / 2 - 1
    assert (sh["rgb"][inside].astype(int).sum(axis=1) < lit_court.sum() - 60).all()


def test_the_bake_is_cached_and_identical(static, baked, tmp_path, monkeypatch):
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))
    a = bake.baked(static.batches(), static.scale)
    assert list(tmp_path.glob("bake-*.npz"))
    b = bake.baked(static.batches(), static.scale)           # from the file
    for name in a:
        for k in ("points", "tris", "rgb", "part"):
            assert np.array_equal(a[name].arrays()[k], b[name].arrays()[k]), (name, k)
        assert np.array_equal(a[name].arrays()["rgb"], baked[name].arrays()["rgb"])


def test_triangle_budget(static, baked):
    """The player redraws the static layers whenever the camera moves and draws every figure each frame on
    a software GL: the bake's splits and the tiles stay within a budget that keeps 30 fps there."""
    total = sum(len(layer) for layer in baked.values())
    assert total <= 60_000, total
    assert sum(len(b) for b in static.batches().values()) <= 12_000
    from scene.render import figures
    from scene.render.stills import load_rite
    st = figures.styles(load_rite().choreography)
    worst = max(len(figures.figure(s, p).tris) for s in st.values() for p in figures.POSTURES)
    assert worst <= 1_200, worst


def test_the_scanline_raster_is_the_plain_pixel_test():
    """bake._raster visits only the pixels inside each triangle; a plain test of every pixel centre against
    every triangle (barycentric weights >= -1e-3, the highest depth kept) must give the same map."""
    rng = np.random.default_rng(7)
    w, h = 48, 36
    c = rng.uniform(0, 44, (60, 1, 2))
    tri = c + rng.normal(0, 6, (60, 3, 2))                      # mixed sizes, many thin or off the map's edge
    tri[::7, 2] = tri[::7, 0] + 0.3 * (tri[::7, 1] - tri[::7, 0])    # slivers
    tri = np.clip(tri, 0, [w - 1.01, h - 1.01])
    H = rng.uniform(-3, 3, (60, 3))
    got = bake._raster(tri[:, :, 0], tri[:, :, 1], H, w, h)
    # the plain test: every pixel × every triangle
    iy, ix = np.mgrid[0:h, 0:w]
    ix, iy = ix.ravel()[:, None], iy.ravel()[:, None]
    ax, ay = tri[None, :, :, 0], tri[None, :, :, 1]
    area = (ax[..., 1] - ax[..., 0]) * (ay[..., 2] - ay[..., 0]) - (ax[..., 2] - ax[..., 0]) * (ay[..., 1] - ay[..., 0])
    w1 = ((ix - ax[..., 0]) * (ay[..., 2] - ay[..., 0]) - (ax[..., 2] - ax[..., 0]) * (iy - ay[..., 0])) / area
    w2 = ((ax[..., 1] - ax[..., 0]) * (iy - ay[..., 0]) - (ix - ax[..., 0]) * (ay[..., 1] - ay[..., 0])) / area
    w0 = 1 - w1 - w2
    inside = (w0 >= -1e-3) & (w1 >= -1e-3) & (w2 >= -1e-3) & (np.abs(area) > 1e-9)
    with np.errstate(invalid="ignore"):
        depth = np.where(inside, w0 * H[None, :, 0] + w1 * H[None, :, 1] + w2 * H[None, :, 2], -np.inf)
    want = depth.max(axis=1)
    assert np.isfinite(want).sum() > 300                    # the triangles do cover the map
    assert np.array_equal(np.isfinite(got), np.isfinite(want))
    assert np.allclose(got[np.isfinite(got)], want[np.isfinite(want)], atol=1e-9)


@pytest.mark.slow
def test_two_processes_wanting_one_bake_bake_it_once(static, tmp_path, monkeypatch):
    """A first start bakes in one worker while another builds the pack: the second waits for the first's
    bake (a lock beside the cache file) instead of baking the same geometry again."""
    import multiprocessing
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("XIANGSHELI_NO_CACHE", raising=False)
    log = tmp_path / "bakes.log"
    real = bake.bake

    def counted(*a, **k):
        with open(log, "a") as fh:
            fh.write("bake\n")
        return real(*a, **k)
    monkeypatch.setattr(bake, "bake", counted)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=bake.baked, args=(static.batches(), static.scale)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    assert log.read_text().splitlines() == ["bake"]
    assert len(list((tmp_path / "cache").glob("bake-*.npz"))) == 1
