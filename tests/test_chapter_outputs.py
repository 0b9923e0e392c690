"""Every output of chapter 4 is chapter 4's (issue 43: `still`, `sheets`, `book`, `review`, `export` take
--chapter): the book prints 鄉飲酒禮's 經 on its pages, the role sheets are of its cast, the exports carry its hall
and its rite, the pack its texts without chapter 5's seed page — and a view of the range is refused in one line.
Each was chapter 5's, silently, before (the book printed 鄉射 §5's 經 under 鄉飲酒 §5's title)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scene.text import jing

ROOT = Path(__file__).resolve().parents[1]
CH4 = "xiangyinjiu"


def _scene(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYVISTA_OFF_SCREEN="true")
    return subprocess.run([sys.executable, "-m", "scene", "--chapter", CH4, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout, env=env)


def _pdf_text(path: Path, page: int) -> str:
    got = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(path), "-"], capture_output=True,
                         text=True, timeout=60)
    return "".join(got.stdout.split())


@pytest.mark.slow
def test_the_book_prints_chapter_4s_text_under_its_titles(tmp_path):
    out = tmp_path / "book.pdf"
    r = _scene("book", "--out", str(out))
    assert r.returncode == 0, r.stderr
    page5 = _pdf_text(out, 5)
    words = "".join(c for c in page5 if not c.isascii())                  # the 經 without the steps' numbers
    ours, theirs = jing.passage(5, chapter=CH4), jing.passage(5)
    assert "§5賓酢主人" in page5
    assert ours.text[:12] in words and theirs.text[:12] not in words       # 賓降洗主人降… not 主人坐取爵于上篚…


@pytest.mark.slow
def test_a_role_sheet_of_chapter_4s_cast(tmp_path):
    r = _scene("sheets", "--roles", "介", "--out", str(tmp_path / "sheets"))
    assert r.returncode == 0, r.stderr
    text = _pdf_text(tmp_path / "sheets" / "jie.pdf", 1)
    assert "鄉飲酒禮rolesheet" in text and "§7主人獻介" in text
    assert "shootingseed" not in text                                      # nobody shoots in 鄉飲酒禮
    assert "本篇庠、大夫：經所定" in text          # the zheng title names chapter 5's 州序: what the text fixes beside it


def test_a_long_role_wraps_in_the_left_column_of_the_cover(tmp_path):
    """The 遵者's role is described at length (…one 大夫 when the reading has him): on one line it ran under "how to
    read a sheet", the right column of the cover (seen on the page); it wraps in the left one."""
    r = _scene("sheets", "--roles", "dafu", "--out", str(tmp_path / "sheets"))
    assert r.returncode == 0, r.stderr
    out = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-bbox", str(tmp_path / "sheets" / "dafu.pdf"), "-"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    words = [(float(x0), float(x1), w) for x0, x1, w in
             re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>([^<]*)</word>', out)]
    column = min(x0 for x0, _, w in words if w == "how")          # "how to read a sheet"
    tail = [x1 for _, x1, w in words if w in ("has", "him")]      # the role's last words
    assert len(tail) == 2 and max(tail) < column, (tail, column)


def test_exports_carry_chapter_4s_hall_and_rite(tmp_path):
    r = _scene("export", "--format", "json", "--out", str(tmp_path / "layout.json"))
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "layout.json").read_text(encoding="utf-8"))
    ids = {p["id"] for p in doc["places"]}
    assert doc["chapter"]["id"] == CH4 and "target.hou" not in ids and "tang.zun" in ids
    r = _scene("export", "--format", "gltf", "--stage", "5", "--out", str(tmp_path / "s5.gltf"))
    assert r.returncode == 0, r.stderr
    assert "§5 賓酢主人" in r.stdout
    scene0 = json.loads((tmp_path / "s5.gltf").read_text(encoding="utf-8"))["scenes"][0]
    assert scene0["name"].startswith("鄉飲酒禮") and scene0["extras"]["stage"]["title"] == "賓酢主人"


def test_a_view_of_the_range_is_refused_in_one_line(tmp_path):
    r = _scene("still", "--stage", "3", "--view", "range", "--out", str(tmp_path / "x.png"))
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0
    assert "no range" in r.stderr and not (tmp_path / "x.png").exists()


def test_the_pack_carries_chapter_4s_texts_and_no_seed_page():
    from scene.rite.cache import load_rite
    from scene.web.captions import seed_lines, step_notes
    from scene.web.pack.texts import camera_block, text_block
    rite = load_rite("zheng", chapter=CH4)
    texts = text_block(rite)
    assert texts["5"]["jing"] == jing.passage(5, chapter=CH4).text and texts["5"]["title"] == "賓酢主人"
    assert all(not t["seed"] for t in texts.values())                       # the seed page is 鄉射禮's
    assert set(seed_lines(rite)) == {""} and not any(step_notes(rite))
    assert camera_block(rite)["order"] == ["overview", "hall", "plan", "guest"]


def test_the_directors_solids_are_each_chapters_own_hall():
    # keyed by the reading alone, whichever chapter asked first gave the other its walls and bounds (the
    # default pack's director track changed when chapter 4's was made first in the same process)
    from scene.render.frame_rules import solid_of
    from scene.render.meshes.static import static_of
    from scene.rite.cache import load_rite
    r4, r5 = load_rite("zheng", chapter=CH4), load_rite("zheng")
    s4, s5 = solid_of(r4), solid_of(r5)
    assert s4 is not s5 and solid_of(r4) is s4
    assert "target.hou" not in static_of(r4).layout
    # the 庠's court and the 序's with its range are not one box: the solids' grids differ
    assert (s4.south_cams.shape, tuple(s4.south_cams.lo)) != (s5.south_cams.shape, tuple(s5.south_cams.lo))
