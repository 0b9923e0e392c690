"""The app's role sheets and 考 follow the tab's chapter (issue 43): a teacher switches the app to 鄉飲酒禮, picks a
person in the view, presses 印 (print the sheet of this role) and gets that person's booklet of chapter 4 — read
back with pdftotext — not chapter 5's, nor a refusal; the 經 panel's 考 opens chapter 4's report of the section."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from webtools import READY, chromium, chromium_missing_reason

pytestmark = [pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason())),
              pytest.mark.browser, pytest.mark.slow]


#: the tab plays chapter 4: its state says so, the player holds its pack, and no build is under way
CHAPTER_4_PLAYS = ("window.trame.state.get('chapter_id') === 'xiangyinjiu' && !window.trame.state.get('busy') && "
                   "((window.__xslPlayer.pack || {}).chapter || {}).id === 'xiangyinjiu'")


def pdf_text(path: Path) -> str:
    """Every page's text (pdftotext), without the layout's spaces and line breaks."""
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is not installed (poppler-utils): the sheet's text cannot be read")
    got = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    return "".join(got.stdout.split())


def print_sheet_of(page, actor: str, tmp: Path) -> tuple[str, str]:
    """Click the person's label in the view (found by the actor it labels: the 相's reads 相 or 司正（相）, the
    相者' 相者), then 印: the downloaded PDF's (file name, text)."""
    page.evaluate("(id) => { for (const el of document.querySelectorAll('.xsl-label.actor')) "
                  "if (el._xsl && el._xsl.id === id) el.dataset.testActor = id; }", actor)
    page.click(f".xsl-label[data-test-actor={actor}]")
    page.wait_for_function(f"((window.trame.state.get('inspect') || {{}}).actor) === {actor!r}", timeout=20000)
    with page.expect_download(timeout=180000) as dl:
        page.click("#xsl-print-sheet")
    out = tmp / dl.value.suggested_filename
    dl.value.save_as(out)
    return dl.value.suggested_filename, pdf_text(out)


def test_the_app_prints_the_role_sheets_of_the_chosen_chapter(app_url, tmp_path):
    from scene.rite.cache import load_rite
    ch4 = load_rite("zheng", chapter="xiangyinjiu")
    with chromium() as b:
        ctx = b.new_context(viewport={"width": 1600, "height": 900}, accept_downloads=True)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(app_url + "?stage=15&view=hall")
        page.wait_for_function(READY, timeout=120000)
        # the teacher chooses 鄉飲酒禮 in the chapter switch, then §15 司正安賓 (the 相 made 司正), the hall's view
        page.click("#xsl-chapter-xiangyinjiu")
        page.wait_for_function(CHAPTER_4_PLAYS, timeout=120000)
        page.evaluate("window.xsl.gotoStage(15)")
        page.click("#view-hall")
        page.wait_for_function("window.__xslPlayer.state().stage === 15", timeout=60000)
        name, text = print_sheet_of(page, "xiang", tmp_path)
        assert name.startswith("xiangyinjiu-sheet-xiang-"), name
        # chapter 4's booklet of the 相: its title, his office, the sections he acts in (not chapter 5's)
        assert "鄉飲酒禮rolesheet" in text and "相（司正）" in text, text[:300]
        acted = sorted({sp.section for sp in ch4.spans if "xiang" in sp.who})
        titles = {s.n: s.title for s in ch4.stages}
        for n in acted:
            assert f"§{n}{titles[n]}" in text, (n, titles[n])
        assert f"{len(acted)}stages," in text             # the cover counts his stages of chapter 4, no more
        # … and the 介's (鄉射 無介: a role chapter 5 has not): §7 主人獻介
        page.evaluate("window.xsl.gotoStage(7)")
        page.wait_for_function("window.__xslPlayer.state().stage === 7", timeout=60000)
        name, text = print_sheet_of(page, "jie", tmp_path)
        assert name.startswith("xiangyinjiu-sheet-jie-") and "§7主人獻介" in text and "§8介酢主人" in text, name
        assert not errors, errors
        ctx.close()


def test_the_apps_review_link_opens_the_chosen_chapters_report(app_url):
    """The 經 panel's 考 (the scholar's report of the section, made aside when the app starts) of a tab playing
    鄉飲酒禮 opens chapter 4's report of that section (xslreview/xiangyinjiu/<n>.html), not chapter 5's of the
    same number; its 播放 link comes back to that section of chapter 4."""
    with chromium() as b:
        page = b.new_page(viewport={"width": 1600, "height": 900})
        page.goto(app_url + "?chapter=xiangyinjiu&stage=3")
        page.wait_for_function(READY, timeout=120000)
        page.wait_for_function(CHAPTER_4_PLAYS, timeout=120000)
        page.wait_for_function("window.__xslPlayer.state().stage === 3", timeout=60000)
        href = page.get_attribute("#xsl-review-link", "href")
        assert href.startswith("xslreview/xiangyinjiu/3.html#p"), href
        url = app_url + href.split("#")[0]
        for _ in range(120):                  # the pages are made by a child after the scene is ready
            r = page.request.get(url)
            if r.ok:
                break
            page.wait_for_timeout(1000)
        assert r.ok, f"{url}: {r.status}"
        with page.context.expect_page() as info:
            page.click("#xsl-review-link")
        rev = info.value
        rev.wait_for_load_state()
        assert rev.title().startswith("§3 速賓迎賓拜至")
        assert "主人一相迎于門外" in rev.inner_text("body") and "朝服乃速賓" not in rev.inner_text("body")
        with rev.expect_navigation():
            rev.click("text=播放 play")
        rev.wait_for_function(READY, timeout=120000)
        rev.wait_for_function("window.trame.state.get('chapter_id') === 'xiangyinjiu'", timeout=120000)
        rev.wait_for_function("window.trame.state.get('stage_n') === 3", timeout=60000)
