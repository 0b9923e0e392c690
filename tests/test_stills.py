"""Stills: size, not blank, deterministic, the plan's scale, Chinese glyphs, the command line's errors."""
from __future__ import annotations

import os
import re

os.environ["PYVISTA_OFF_SCREEN"] = "true"

import subprocess
import sys

import numpy as np
import pytest

from scene.render import glprobe, labels, stills

pytestmark = [pytest.mark.gl]

SMALL = (480, 270)


def run(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "scene", *args], capture_output=True, text=True, timeout=300,
                          env=e)


@pytest.fixture(scope="module")
def studio():
    s = stills.Studio(None, SMALL)
    yield s
    s.close()


def _stats_ok(img: np.ndarray) -> None:
    flat = img.reshape(-1, 3)
    colours, counts = np.unique(flat, axis=0, return_counts=True)
    assert len(colours) >= 8, len(colours)
    assert counts.max() / len(flat) < 0.9


@pytest.mark.parametrize("view", ["overview", "plan", "hall", "archer", "target", "guest", "range", "follow:bin"])
def test_stills_have_the_size_and_are_not_blank(studio, view):
    st = stills.find_stage(studio.rite, 21)
    s = studio.render(stills.representative_t(studio.rite, st), view, stage=st)
    assert s.image.shape == (SMALL[1], SMALL[0], 3)
    _stats_ok(s.image)
    _stats_ok(s.image[: SMALL[1] - studio.band_px])             # the scene itself, not just the caption


def test_identical_inputs_give_identical_pixels(studio):
    st = stills.find_stage(studio.rite, "chen_she")
    t = stills.representative_t(studio.rite, st)
    a = studio.render(t, "overview", stage=st).image
    studio.render(t + 1.0, "plan", stage=st)
    b = studio.render(t, "overview", stage=st).image
    assert np.array_equal(a, b)


def test_cli_still_writes_the_asked_size_and_the_same_bytes_twice(tmp_path):
    outs = []
    for k in range(2):
        f = tmp_path / f"s{k}.png"
        r = run("still", "--stage", "2", "--size", "400x240", "--view", "plan", "--out", str(f))
        assert r.returncode == 0, r.stderr
        outs.append(f.read_bytes())
    from PIL import Image
    assert Image.open(tmp_path / "s0.png").size == (400, 240)
    assert outs[0] == outs[1]


def test_plan_measures_the_houdao_against_the_scale_bar():
    """In the plan the 侯道 (堂廉 to 侯) spans 50 弓 × ppm pixels, and the drawn bar agrees within 2 %."""
    size = (1280, 720)
    s = stills.Studio(None, size)
    try:
        rite = s.rite
        st = stills.find_stage(rite, 21)
        still = s.render(stills.representative_t(rite, st), "plan", labels=False, stage=st)
    finally:
        s.close()
    cam = still.camera
    vh = size[1] - s.band_px
    assert cam.parallel and still.px_per_m == pytest.approx(vh / (2 * cam.parallel_scale))
    img = still.image.astype(int)
    # the drawn bar: the longest run of ink-dark pixels on the bar's row in the caption band
    row = size[1] - 1 - int(round(still.scale_bar["y"] + still.scale_bar["height"] / 2))
    dark = (img[row].sum(axis=1) < 200)
    dark[: int(still.scale_bar["x0"]) - 20] = False          # the caption's text is left of the bar
    xs = np.flatnonzero(dark)
    bar_px = xs.max() - xs.min() + 1
    assert bar_px == pytest.approx(still.scale_bar["px"], abs=3)
    bar_ppm = bar_px / still.scale_bar["metres"]
    # the 侯道 chalk line on the plan: its colour along the axis column, from the 堂廉 to the 侯
    lay = rite.layout
    houdao_m = lay["range.houdao"].size_chi[1] * lay.reading.chi_m
    col = size[0] // 2
    strip = img[: vh, col - 3: col + 4]
    # the line's colour as rendered: the brightest pixel of the strip half-way down the 侯道
    mid_y = lay["range.houdao"].xyz_chi[1] * lay.reading.chi_m
    mid_row = int(round(vh / 2 - (mid_y - cam.focal_point[1]) * still.px_per_m))
    line = strip[mid_row][strip[mid_row].sum(axis=1).argmax()]
    court = np.median(strip[mid_row], axis=0)
    assert line.sum() > court.sum() + 40                        # chalk on beaten earth
    match = (np.abs(strip - line).max(axis=2) < 14)
    rows = np.flatnonzero(match.any(axis=1))
    assert len(rows) > 100
    measured = rows.max() - rows.min() + 1
    assert measured == pytest.approx(houdao_m * bar_ppm, rel=0.02), (measured, houdao_m * bar_ppm)
    assert measured == pytest.approx(houdao_m * still.px_per_m, rel=0.02)


def test_chinese_labels_draw_glyphs_and_the_default_font_would_not():
    text = "鄉射 賓 階 楹 榮 楅 獲 豐 觶 笴"
    img, (x0, r0, x1, r1) = labels.label_image(text, px=40, size=(640, 100))
    box = img[r0:r1, x0:x1]
    ink = (box.mean(axis=2) < 128).sum()
    assert ink > 1500, ink
    img2, _ = labels.label_image(text, px=40, size=(640, 100), font=None)
    assert (img2.mean(axis=2) < 128).sum() < 20          # VTK's own font: Chinese silently draws nothing


def test_labels_in_a_still_hold_glyph_pixels(studio):
    st = stills.find_stage(studio.rite, 4)
    s = studio.render(stills.representative_t(studio.rite, st), "hall", stage=st)
    assert len(s.labels) >= 5
    vh = SMALL[1] - studio.band_px
    for text, (x0, y0, x1, y1) in s.labels[:8]:
        box = s.image[max(0, vh - int(np.ceil(y1))): vh - int(y0), int(x0): int(np.ceil(x1))]   # rows count down
        assert box.shape[0] >= 8 and (box.mean(axis=2) < 110).sum() >= 10, text


def test_every_name_we_draw_has_its_glyphs():
    rite = stills.load_rite()
    names = [a.name for a in rite.choreography.actors.values()] + [s.title for s in rite.stages]
    names += [p.name for p in rite.layout.places.values()]
    tc = labels._cmap(labels.font_path())
    for n in names:
        f = labels.font_for(n)
        cmap = labels._cmap(f)
        missing = [c for c in n if ord(c) >= 0x2E80 and ord(c) not in cmap]
        assert not missing, (n, missing)
    assert all(ord(c) in tc for c in "鄉賓階楹榮楅獲豐觶笴")


@pytest.mark.parametrize("args, expect", [
    (["--stage", "99"], "unknown stage"),
    (["--stage", "21", "--size", "0x0"], "out of range"),
    (["--stage", "21", "--size", "abc"], "not WxH"),
    (["--stage", "21", "--size", "9000x9000"], "out of range"),
    (["--stage", "21", "--view", "sideways"], "unknown view"),
    (["--stage", "21", "--view", "follow:nobody"], "unknown actor"),
    (["--stage", "21", "--reading", "nonesuch"], "unknown reading"),
    (["--stage", "21", "--t", "99999"], "outside"),
])
def test_bad_arguments_give_one_line_and_a_non_zero_exit(tmp_path, args, expect):
    r = run("still", *args, "--out", str(tmp_path / "x.png"))
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and "WARN" not in ln]
    assert len(lines) == 1 and lines[0].startswith("error:") and expect in lines[0], r.stderr
    assert not (tmp_path / "x.png").exists()


def test_no_opengl_is_one_line_not_a_segfault(tmp_path):
    r = run("still", "--stage", "2", "--size", "160x90", "--out", str(tmp_path / "x.png"),
            env={"VTK_DEFAULT_OPENGL_WINDOW": "vtkOSOpenGLRenderWindow"})
    if r.returncode == 0:
        pytest.skip("OSMesa is installed here: the failure cannot be provoked")
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and "WARN" not in ln]
    assert r.returncode == 2 and len(lines) == 1 and "cannot render off-screen" in lines[0]


@pytest.mark.slow
def test_stills_contact_sheet_and_clip(tmp_path):
    done = stills.export_stills(tmp_path, ["overview", "plan"], (320, 180), stages=["1", "21"])
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert names == ["01_戒賓.overview.png", "01_戒賓.plan.png", "21_三耦射.overview.png", "21_三耦射.plan.png"]
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "三耦射" in html and "21_三耦射.plan.png" in html and len(done) == 4
    # the sheet brings its own CJK font, so the captions are glyphs wherever it is opened
    font = re.search(r'src: url\("([^"]+)"\)', html)[1]
    assert (tmp_path / font).stat().st_size > 1_000_000
    gif = tmp_path / "c.gif"
    n = stills.export_clip(gif, 2, "overview", (160, 90), fps=2, max_seconds=2)
    assert gif.stat().st_size > 1000 and n >= 2


@pytest.mark.slow
def test_the_largest_size_renders():
    s = stills.Studio(None, (7680, 4320))
    try:
        st = stills.find_stage(s.rite, 2)
        img = s.render(stills.representative_t(s.rite, st), "plan", labels=False, stage=st).image
    finally:
        s.close()
    assert img.shape == (4320, 7680, 3)
    _stats_ok(img[::8, ::8])


def test_size_parsing():
    assert stills.parse_size("1920x1080") == (1920, 1080)
    assert stills.parse_size("7680×4320") == (7680, 4320)
    for bad in ("0x0", "abc", "9000x9000", "1920", "-5x10", "7681x100"):
        with pytest.raises(stills.StillError):
            stills.parse_size(bad)
    glprobe.configure()
