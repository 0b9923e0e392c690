"""The scholar's report of a section (``python -m scene review``, scene/rite/review.py): the text and the HTML
page of §10, the one-line refusals, the clause coverage when it exists (a fake module) and the fallback from
the steps (for real), the site's review pages and the player's 經 panel linking to them (Chromium)."""
from __future__ import annotations

import base64
import html.parser
import io
import re
import subprocess
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path

import pytest
from webtools import chromium, chromium_missing_reason, static_server

ROOT = Path(__file__).resolve().parents[1]


def run(*args, env=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "scene", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def rite():
    from scene.rite.cache import load_rite
    return load_rite()


def _act_point(rite, section: int, phrase: str, aid: str):
    """(t, xyz 尺) at the middle of ``aid``'s act in the step of ``section`` acting ``phrase``."""
    sp = next(s for s in rite.spans if s.section == section and s.phrase == phrase and aid in s.who)
    a0, a1 = sp.act_of(aid)
    t = (a0 + a1) / 2
    p = rite.pose_at(t)
    xyz = p.actor_xyz_m[p.actor_ids.index(aid)] / rite.reading.chi_m
    return t, xyz


# ---------------------------------------------------------------- text
def test_text_report_of_section_10_names_the_host_and_the_dafu_and_places_the_host_at_baizhi(rite):
    r = run("review", "--section", "10")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("§10 ") and "主人 (zhuren)" in out and "大夫 (dafu)" in out
    # the clause 拜至: its block, then the 主人's row with x y z in 尺
    block = out.split("「拜至」", 1)[1].split("\n[c", 1)[0]
    row = next(line for line in block.splitlines() if "(zhuren)" in line and "尺)" in line)
    nums = re.findall(r"-?\d+\.\d\d", row)
    x, y, z = (float(v) for v in nums[:3])
    _, want = _act_point(rite, 10, "拜至", "zhuren")
    assert abs(x - want[0]) < 0.01 and abs(y - want[1]) < 0.01 and abs(z - want[2]) < 0.01, (row, want)
    assert "拜" in row                       # his posture during the bow
    assert "阼階上" in row                   # the nearest named place: he bows at the top of his stairs
    # the evidence of the step, as `python -m scene steps --json` gives it, and the checks
    from scene.rite.evidence import step_table
    sp = next(s for s in rite.spans if s.section == 10 and s.phrase == "拜至")
    ev = next(row for row in step_table(rite) if row["section"] == 10 and row["index"] == sp.index + 1)["evidence"]
    for aspect, e in ev.items():
        assert re.search(rf"{aspect} +{e['status']} +{re.escape(e['source'])}", block), (aspect, e)
    assert "holds" in block or "FAILS" in block


def test_text_columns_are_aligned_in_terminal_cells():
    from scene.print.review import cells, table
    lines = table([["主人 (zhuren)", "1.0"], ["a", "2.0"]])
    assert len({cells(line.split("1.0")[0]) for line in lines[:1]} | {cells(lines[1].split("2.0")[0])}) == 1
    assert cells("主人") == 4 and cells("ab") == 2


# ---------------------------------------------------------------- HTML
class _Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.ids, self.styles, self._in_style, self.text = [], [], [], False, io.StringIO()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "tr" and a.get("id", "").startswith("c"):
            self.rows.append(a["id"])
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)
        else:
            self.text.write(data)


def test_html_page_parses_with_one_row_per_clause_anchors_and_its_font(rite, tmp_path):
    from fontTools.ttLib import TTFont

    from scene.rite.review import review_section
    out = tmp_path / "s10.html"
    r = run("review", "--section", "10", "--html", "--out", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    p = _Rows()
    p.feed(page)
    p.close()
    rv = review_section(rite, 10)
    assert p.rows == [f"c{k}" for k in range(1, len(rv.clauses) + 1)]
    assert len(set(p.ids)) == len(p.ids)                           # every anchor once
    assert '<a href="#c' in page and "拜至" in p.text.getvalue()
    # the font the page names is embedded (one file) and has every CJK character the page shows
    css = "".join(p.styles)
    assert "font-family: 'XSLCJK'" in css and "XSLCJK" in css.split("body {", 1)[1].split("}", 1)[0]
    urls = re.findall(r"url\('data:font/otf;base64,([A-Za-z0-9+/=]+)'\)", css)
    assert urls
    have = set()
    for u in urls:
        have |= set(TTFont(io.BytesIO(base64.b64decode(u))).getBestCmap())
    shown = {c for c in p.text.getvalue() if ord(c) > 0x2E7F}
    assert shown and not {c for c in shown if ord(c) not in have}


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("bad", ["0", "52", "abc"])
def test_a_bad_section_is_one_line_and_exit_2_before_any_compile(bad, tmp_path):
    import os
    env = {**os.environ, "XIANGSHELI_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    r = run("review", "--section", bad, env=env, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and bad in r.stderr and "--section" in r.stderr
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").glob("rite-*"))   # nothing compiled
    assert time.perf_counter() - t0 < 20


def test_a_bad_out_is_one_line_before_any_compile(tmp_path):
    import os
    env = {**os.environ, "XIANGSHELI_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    for args in (["--out", str(tmp_path)], ["--html", "--out", str(tmp_path / "x.txt")]):
        r = run("review", "--section", "10", *args, env=env, timeout=60)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list((tmp_path / "cache").glob("rite-*")) if (tmp_path / "cache").exists() else True


# ---------------------------------------------------------------- the clause coverage, and the fallback
@dataclass(frozen=True)
class FakeClause:
    section: int
    source: str
    text: str
    start: int
    subject: str
    actors: tuple
    steps: tuple
    status: str
    checks: tuple
    failures: tuple
    reason: str


def test_the_coverage_is_used_when_it_can_be_imported(rite, monkeypatch, tmp_path):
    from scene.rite import review
    from scene.text import passage
    jing = passage(10).text
    at = jing.index("拜至")
    step = next(s.index for s in rite.spans if s.section == 10 and s.phrase == "拜至")
    calls = []

    def section_clauses(r, n):
        calls.append(n)
        return [FakeClause(n, "經", "拜至", at, "", ("zhuren",), (step,), "checked", ("verb:拜", "order"), (), ""),
                FakeClause(n, "經", "不去加席", jing.index("不去加席"), "主人", ("zhuren",), (), "not-acted", (), (),
                           "a refusal: nothing is done"),
                FakeClause(n, "記08", "醢以豆出自東房", 0, "", (), (step,), "acted", (), ("posture:坐 fails",), "")]
    fake = types.ModuleType("scene.rite.grammar.coverage")
    fake.section_clauses = section_clauses
    monkeypatch.setitem(sys.modules, "scene.rite.grammar.coverage", fake)
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))     # the fake's rows never reach the real cache
    assert review.coverage_source() is section_clauses
    rv = review.review_section(rite, 10)
    # every section's rows at the first miss, kept on disk: a report of another section asks nothing more
    assert sorted(calls) == list(range(1, 52)) and list(tmp_path.glob("coverage-*.pickle"))
    review.review_section(rite, 21)
    assert len(calls) == 51
    assert rv.basis == "coverage" and [c.text for c in rv.clauses] == ["拜至", "不去加席", "醢以豆出自東房"]
    c1 = rv.clauses[0]
    assert c1.checks == ("verb:拜", "order") and c1.ji == ("記08",) and c1.actors[0].id == "zhuren"
    _, want = _act_point(rite, 10, "拜至", "zhuren")
    assert max(abs(a - b) for a, b in zip(c1.actors[0].xyz_chi, want)) < 0.01
    assert rv.clauses[1].status == "not-acted" and rv.clauses[1].t0 is None and not rv.clauses[1].actors
    assert rv.clauses[2].failures == ("posture:坐 fails",)
    from scene.print.review import render_text
    from scene.web.review import page
    text = render_text(rv)
    assert "holds   verb:拜, order" in text and "FAILS   posture:坐 fails" in text and "a refusal" in text
    assert "clause coverage" in text
    page_ = page(rv, font_urls=["../pack/font/cjk.otf"])
    assert page_.count('<tr id="c') == 3 and "✓ verb:拜" in page_ and "✗ posture:坐 fails" in page_
    assert rv.clause_of_offset(at + 1) == 1


@pytest.mark.slow          # the whole checker runs (its findings are the review's failures)
def test_the_fallback_groups_the_steps_by_phrase_in_text_order(rite):
    from scene.rite import grammar
    from scene.rite.review import review_section
    rv = review_section(rite, 10, section_clauses=None)
    assert rv.basis == "steps"
    jing = [c for c in rv.clauses if c.source == "經"]
    sec = rite.choreography.section(10)
    assert {(c.start, c.text) for c in jing} == {(s.offset, s.phrase) for s in sec.steps}
    assert [c.start for c in jing] == sorted(c.start for c in jing)
    assert sorted(i for c in jing for i in c.steps) == sorted(s.index for s in rite.spans if s.section == 10)
    for c in jing:
        assert all(rite.choreography.section(10).steps[i].phrase == c.text for i in c.steps)
        for e in c.evidence:
            assert [a for a, _, _ in e.evidence] == ["where", "facing", "posture", "route", "timing"]
    # 記08 (出自東房) is cited by the 薦 of §10: a row of its own, and on the clause 乃薦脯醢
    assert any(c.source == "記08" for c in rv.clauses)
    assert "記08" in next(c for c in jing if c.text == "乃薦脯醢").ji
    # the failures are the checker's own findings on the steps (none in §10 under zheng: all hold)
    left = [f for f in grammar.check(rite) if f.section == 10]
    assert sum(len(c.failures) for c in rv.clauses) + len(rv.section_failures) == len(left)
    # posture words: 坐 then 興 in a clause that kneels and rises (主人坐奠爵于西楹南 … no 興; 坐祭卒爵拜: 坐 and 拜)
    c = next(c for c in jing if c.text == "坐祭卒爵拜")
    assert "坐" in c.actors[0].postures and "拜" in c.actors[0].postures
    # 坐取爵興 (§5): he kneels, takes the 爵 and rises — 坐 → 興, and holds the 爵 after, not before
    rv5 = review_section(rite, 5, section_clauses=None)
    c = next(c for c in rv5.clauses if c.text == "主人坐取爵興")
    a = c.actors[0]
    assert a.id == "zhuren" and a.postures[-2:] == ("坐", "興") and a.holding_after == "爵" and not a.holding_before


@pytest.mark.timing
def test_a_section_report_takes_under_two_seconds_once_the_rite_is_compiled(rite, tmp_path, monkeypatch):
    from scene.print.review import render_text
    from scene.rite.review import review_section
    from scene.web.review import page
    review_section(rite, 27)                         # the rules' findings: once per compiled rite (cached)
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))     # the page's font subset made afresh
    t0 = time.perf_counter()
    rv = review_section(rite, 21)
    render_text(rv)
    page(rv)
    assert time.perf_counter() - t0 < 2.0


# ---------------------------------------------------------------- the site and the player's 經 panel
@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    r = run("site", "--out", str(out), timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.mark.slow                # a subprocess builds the whole site
def test_the_site_writes_a_review_page_for_each_section_naming_its_font(site):
    pages = sorted(site.glob("review/*.html"))
    assert len(pages) == 51
    for f in pages:
        text = f.read_text(encoding="utf-8")
        for url in re.findall(r"url\('([^']+)'\)", text):
            assert (f.parent / url).resolve().is_file(), (f.name, url)
        assert "data:font" not in text                  # the site's pages share the pack's subset
    ten = (site / "review" / "10.html").read_text(encoding="utf-8")
    assert 'href="../index.html?stage=10"' in ten and 'href="9.html"' in ten and 'href="11.html"' in ten
    assert 'href="52.html"' not in (site / "review" / "51.html").read_text(encoding="utf-8")
    # every CJK character of the pages is in the font subset they name (no box)
    from fontTools.ttLib import TTFont
    have = set()
    for f in site.glob("pack/font/*.otf"):
        have |= set(TTFont(str(f)).getBestCmap())
    shown = {c for f in pages for c in f.read_text(encoding="utf-8") if ord(c) > 0x2E7F}
    assert shown and not {c for c in shown if ord(c) not in have}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))
def test_a_phrase_of_the_players_jing_panel_opens_its_clause_in_the_review(site):
    with static_server(site) as base, chromium() as b:
        # the site's policy refuses eval, which Playwright's waits use (issue 45): the test's scripts go past it
        page = b.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
        page.goto(base + "?stage=10")
        page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=60000)
        assert page.evaluate("window.__xslPlayer.state().stage") == 10
        link = page.locator("#xsl-jing a.xsl-review", has_text="拜至").first
        link.wait_for(timeout=20000)
        assert link.inner_text() == "拜至"
        with page.context.expect_page() as info:
            link.click()
        rev = info.value
        rev.wait_for_load_state()
        rev.wait_for_function("/^#c\\d+$/.test(location.hash)", timeout=10000)
        k = rev.evaluate("location.hash")
        row = rev.locator(f"tr{k}")
        assert "拜至" in row.locator("td.words").inner_text()
        assert rev.evaluate(f"(() => {{ const r = document.querySelector('tr{k}').getBoundingClientRect();"
                            f" return r.top >= 0 && r.top < innerHeight; }})()")
        assert rev.evaluate("document.fonts.check('16px XSLCJK', '拜至')")


def test_the_app_serves_its_own_review_pages_naming_its_font(rite, tmp_path, monkeypatch):
    """The app's hook: pages for its reading in their folder (served as xslreview/), chapter 4's in its subfolder
    (xslreview/xiangyinjiu/: issue 43), naming the font as the app serves it (xslfont/), and the 經 panel's 考 link
    to the clause of the phrase in the tab's chapter's pages (ui.py)."""
    import inspect

    from scene.web import app, review, ui
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))
    files = review.write_app_pages(None, ["xslfont/cjk.otf", "xslfont/cjk-fallback.otf"])
    five = [f for f in files if f.parent == review.app_folder(None)]
    four = [f for f in files if f.parent == review.app_folder(None) / "xiangyinjiu"]
    assert len(five) == 51 and len(four) == 25 and len(files) == 76
    text = (review.app_folder(None) / "10.html").read_text(encoding="utf-8")
    assert "url('../xslfont/cjk.otf')" in text and 'href="../?stage=10"' in text
    three = (review.app_folder(None) / "xiangyinjiu" / "3.html").read_text(encoding="utf-8")
    assert "url('../../xslfont/cjk.otf')" in three and 'href="../../?chapter=xiangyinjiu&amp;stage=3"' in three
    assert "主人一相迎于門外" in three and "朝服" not in three           # chapter 4's §3, not chapter 5's 速賓
    assert '"xslreview": str(_review_folder(service.reading))' in inspect.getsource(app.build)
    assert "xslreview/${chapter_id === 'xiangshe' ? '' : chapter_id + '/'}${text.n}.html" in \
        inspect.getsource(ui._text_panel)


def test_the_reports_caches_are_the_chapters_own(tmp_path, monkeypatch):
    """The coverage's, the evidence's and the findings' disk caches are named and keyed by the chapter too: chapter
    4's §3 report read chapter 5's rows (its 「羹定主人朝服乃速賓」) when the files were named by the reading alone."""
    from scene.rite import review
    from scene.rite.timeline import build_rite
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))
    five, four = build_rite("zheng"), build_rite("zheng", chapter="xiangyinjiu")
    assert review._cache_file(five, "coverage") != review._cache_file(four, "coverage")
    assert review._cache_file(five, "coverage").name.startswith("coverage-zheng-")      # chapter 5's name kept
    review.review_section(five, 3)                                   # chapter 5's rows written first …
    words = "".join(c.text for c in review.review_section(four, 3).clauses)
    assert "主人一相迎于門外" in words and "朝服" not in words         # … and chapter 4 reads its own
