"""Parallel sections of 鄉飲酒禮 and 鄉射禮 (issue 43's side-by-side): the table of pairs is read, every pair's
basis is measured from the two passages (and a mislabelled one is caught), the alignment keeps both texts whole,
and ``python -m scene compare`` prints it or refuses in one line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scene.chapter import resolve
from scene.text import parallel as P

ROOT = Path(__file__).resolve().parents[1]


def _file(tmp_path: Path, body: str) -> Path:
    f = tmp_path / "parallels.toml"
    f.write_text(body, encoding="utf-8")
    return f


def test_every_shipped_pair_holds_its_basis_and_every_section_of_chapter_4_is_accounted_for():
    assert P.check_all() == []
    pairs, lone = P.load()
    bases = {p.basis for p in pairs}
    assert bases == {"text", "part", "title"}           # each kind of evidence is used and measured
    covered = {p.a.n for p in pairs if p.a.chapter.id == "xiangyinjiu"} | {u.a.n for u in lone}
    assert covered == set(range(1, resolve("xiangyinjiu").sections + 1))


def test_a_mislabelled_pair_is_caught_both_ways(tmp_path):
    # 賓酢主人 is nearly word for word in both (a "text" pair), so calling it "title" understates it; 遵者 share
    # a title and few words, so calling it "text" overstates it
    f = _file(tmp_path, '[[pair]]\na = "xiangyinjiu:5"\nb = "xiangshe:6"\nbasis = "title"\nnote = "x"\n'
                        '[[pair]]\na = "xiangyinjiu:24"\nb = "xiangshe:10"\nbasis = "text"\nnote = "y"\n')
    lines = P.check_all(f)
    assert len(lines) == 2
    assert lines[0].startswith("xiangyinjiu:5 – xiangshe:6: basis title") and "mutual best" in lines[0]
    assert lines[1].startswith("xiangyinjiu:24 – xiangshe:10: basis text")


def test_the_measure_reads_the_passages():
    m = P.measure(P.ref("xiangyinjiu:5"), P.ref("xiangshe:6"))
    assert m.mutual_best and m.ratio > 0.8 and m.holds("text") and not m.holds("title")
    # 鄉飲酒 §17 賓酬主人 lies inside 鄉射 §45 旅酬, which acts much more: "part", not "text"
    m = P.measure(P.ref("xiangyinjiu:17"), P.ref("xiangshe:45"))
    assert m.part >= P.MIN_PART and m.ratio < P.MIN_TEXT_RATIO and m.holds("part")


def test_bad_rows_are_one_line_each_and_all_found(tmp_path):
    f = _file(tmp_path, '[[pair]]\na = "nochapter:1"\nb = "xiangshe:6"\nbasis = "text"\nnote = "x"\n'
                        '[[pair]]\na = "xiangyinjiu:5"\nb = "xiangshe:99"\nbasis = "text"\nnote = "x"\n'
                        '[[pair]]\na = "xiangyinjiu:5"\nb = "xiangyinjiu:6"\nbasis = "guess"\nnote = ""\n'
                        '[[pair]]\na = "xiangyinjiu:5"\nb = "xiangshe:6"\n'
                        '[[none]]\na = "xiangyinjiu:7"\n'
                        '[[extra]]\n')
    with pytest.raises(P.ParallelError) as e:
        P.load(f)
    lines = str(e.value).splitlines()
    assert len(lines) == 8, lines
    joined = "\n".join(lines)
    for part in ("no chapter 'nochapter'", "has sections 1–51", "are of one chapter", "basis 'guess'",
                 "an empty note", "needs exactly a, b, basis, note", "needs exactly a and why", "unknown table"):
        assert part in joined, part


def test_the_alignment_keeps_both_texts_whole_and_names_what_differs():
    a, b = P.ref("xiangyinjiu:5"), P.ref("xiangshe:6")
    segs = P.align(a, b)
    assert "".join(s.a for s in segs) == a.text and "".join(s.b for s in segs) == b.text
    assert all(len(s.a) >= P.MIN_SHARED for s in segs[1:-1] if s.same)
    diffs = P.differences(a, b)
    # 鄉飲酒 賓降洗, 鄉射 賓以虛爵降: the first difference of the two 酢
    assert diffs[0] == ("賓", "降洗", "以虛爵降")
    assert not any(x == y for _, x, y in diffs)


def test_parallels_of_goes_both_ways():
    assert [str(r) for r in P.parallels_of(P.ref("xiangyinjiu:5"))] == ["xiangshe:6"]
    assert sorted(str(r) for r in P.parallels_of(P.ref("xiangshe:45"))) == [
        "xiangyinjiu:17", "xiangyinjiu:18", "xiangyinjiu:19"]


def _scene(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scene", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_the_compare_command_prints_and_refuses_in_one_line():
    r = _scene("compare", "xiangyinjiu:5", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["b"]["ref"] == "xiangshe:6" and out["differences"][0] == {"after": "賓", "a": "降洗", "b": "以虛爵降"}
    r = _scene("compare", "xiangyinjiu:7")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "鄉射 無介" in r.stderr
    r = _scene("compare", "xiangshe:0")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0
