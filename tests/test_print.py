"""The printed matter (scene/print/): role sheets, the call sheet and the book of plans.

The PDFs are read back the way a reader's tools read them — pypdf for pages, text and fonts, pdftoppm
(poppler) for pixels — and held against the compiled rite they are made from: one page per stage a role
acts in plus the cover, the phrases of his steps on those pages in CJK, the fonts embedded as subsets
that cover those characters; the book one page per stage with its 經.  Bad input fails in one line
before any work."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from scene.__main__ import main
from scene.print import roles as roles_mod

ROLES = ("ou1_up", "huozhe", "shihuozhe")


def _to_unicode(font) -> dict[int, str]:
    cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    return {int(a, 16): bytes.fromhex(b).decode("utf-16-be") for a, b in
            re.findall(r"<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]{4,8})>", cmap)}


def text_of(page) -> str:
    """A page's text, whitespace removed: its content stream parsed by pypdf, each Tj's two-byte codes
    (fpdf2 writes Identity-H) decoded through the font's own ToUnicode CMap.  (pypdf's extract_text
    mis-decodes the codes above 0xFF of such fonts; poppler's pdftotext agrees with this decoding.)"""
    from pypdf.generic import ContentStream
    fonts = {name: _to_unicode(f.get_object()) for name, f in page["/Resources"]["/Font"].items()}
    out, cmap = [], {}
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"Tf":
            cmap = fonts[operands[0]]
        elif op == b"Tj":
            raw = bytes(operands[0].original_bytes if hasattr(operands[0], "original_bytes") else operands[0])
            out.append("".join(cmap.get(int.from_bytes(raw[i:i + 2], "big"), "\ufffd")
                               for i in range(0, len(raw) - 1, 2)))
    return re.sub(r"\s", "", "".join(out))


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    out = tmp_path_factory.mktemp("sheets") / "out"
    assert main(["sheets", "--roles", "上耦上射,獲者,釋獲者", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book") / "rite.pdf"
    assert main(["book", "--out", str(out)]) == 0
    return out


def acting_stages(rite, aid: str) -> list[int]:
    """Stages where he is named in a step, or takes a posture or speaks (the definition, from the tracks)."""
    named = {sp.section for sp in rite.spans if aid in sp.who}
    acts = {rite.stage_at(t).n for t, kind, v in rite.director.actors[aid].events
            if t > 0 and ((kind == "posture" and v in ("sit", "bow", "salute", "shoot")) or (kind == "say" and v))}
    return sorted(named | acts)


@pytest.mark.slow
@pytest.mark.parametrize("aid", ROLES)
def test_a_sheet_has_the_cover_and_a_page_per_stage_he_acts_in(sheets, rite, aid):
    pdf = PdfReader(sheets / f"{aid}.pdf")
    stages = acting_stages(rite, aid)
    assert len(stages) >= 5
    assert len(pdf.pages) == len(stages) + 1
    assert rite.names[aid] in text_of(pdf.pages[0])
    for page, n in zip(pdf.pages[1:], stages):
        t = text_of(page)
        assert t.startswith(f"§{n}"), (n, t[:20])
        title = next(s.title for s in rite.stages if s.n == n)
        assert title.replace(" ", "") in t


@pytest.mark.slow
@pytest.mark.parametrize("aid", ROLES)
def test_his_phrases_are_on_his_pages_in_cjk(sheets, rite, aid):
    pdf = PdfReader(sheets / f"{aid}.pdf")
    stages = acting_stages(rite, aid)
    for page, n in zip(pdf.pages[1:], stages):
        t = text_of(page)
        mine = [sp.phrase for sp in rite.spans if sp.section == n and aid in sp.who]
        for ph in mine:
            assert ph in t, (aid, n, ph)


@pytest.mark.slow
def test_the_huozhe_calls_his_hits(sheets, rite):
    """The 獲者 is not named in the pairs' 拾發, but he calls 獲 on each hit: those stages and words are his."""
    pdf = PdfReader(sheets / "huozhe.pdf")
    stages = acting_stages(rite, "huozhe")
    hits = {rite.stage_at(t).n for t, k, v in rite.director.actors["huozhe"].events if k == "say" and v == "獲"}
    assert hits and hits <= set(stages)
    for page, n in zip(pdf.pages[1:], stages):
        if n in hits:
            assert "曰「獲" in text_of(page), n


@pytest.mark.slow
def test_the_fonts_are_embedded_subsets_covering_the_text(sheets, rite):
    pdf = PdfReader(sheets / "ou1_up.pdf")
    mapped = set()
    for page in pdf.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert re.match(r"/[A-Z]{6}\+", str(font["/BaseFont"])), font["/BaseFont"]   # a subset
            desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            assert "/FontFile3" in desc or "/FontFile2" in desc                      # embedded
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            for a, b in re.findall(r"<([0-9A-F]{4})>\s*<([0-9A-F]{4,8})>", cmap):
                if int(a, 16):
                    mapped.add(chr(int(b[:4], 16)))
    cjk = {c for sp in rite.spans if "ou1_up" in sp.who for c in sp.phrase}
    assert cjk and cjk <= mapped, cjk - mapped


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")
def test_a_stage_page_draws_a_plan_and_a_cue_list(sheets, tmp_path):
    import numpy as np
    from PIL import Image
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "4", "-l", "4", str(sheets / "ou1_up.pdf"),
                    str(tmp_path / "p")], check=True)
    img = np.asarray(Image.open(next(tmp_path.glob("p*.png"))).convert("L"), dtype=float) / 255
    h, w = img.shape
    plan = img[int(h * 0.12):int(h * 0.9), int(w * 0.05):int(w * 0.55)]
    cues = img[int(h * 0.12):int(h * 0.5), int(w * 0.62):int(w * 0.95)]
    blank = img[int(h * 0.93):, int(w * 0.5):int(w * 0.85)]
    assert (plan < 0.5).mean() > 0.01 and (plan > 0.95).mean() > 0.3       # ink, and paper around it
    assert (cues < 0.7).mean() > 0.01                                      # text in the column
    assert img.min() < 0.2 and (blank < 0.5).mean() < 0.01                 # black and white, margins clear


@pytest.mark.slow
def test_the_call_sheet_lists_every_stage(sheets, rite):
    pdf = PdfReader(sheets / "call-sheet.pdf")
    t = "".join(text_of(p) for p in pdf.pages)
    for st in rite.stages:
        assert f"§{st.n}{st.title.replace(' ', '')}" in t
    assert len(pdf.pages) > 10


@pytest.mark.slow
def test_the_book_has_a_page_per_stage_with_its_jing(book, rite):
    from scene import text as texts
    pdf = PdfReader(book)
    assert len(pdf.pages) == len(rite.stages) == 51
    for page, st in zip(pdf.pages, rite.stages):
        t = text_of(page)
        assert t.startswith(f"§{st.n}")
        bare = re.sub(r"[0-9]", "", t)
        assert texts.passage(st.n).text[:16] in bare, st.n
        assert "stated" in t and "assumed" in t                  # the evidence legend


def test_html_sheets_print_the_same_pages(tmp_path, rite):
    out = tmp_path / "html"
    assert main(["sheets", "--roles", "釋獲者", "--out", str(out), "--format", "html", "--jobs", "1"]) == 0
    html = (out / "shihuozhe.html").read_text(encoding="utf-8")
    assert html.count("<svg") == len(acting_stages(rite, "shihuozhe")) + 1
    assert (out / "font" / "sans.otf").stat().st_size > 10_000
    for sp in rite.spans:
        if "shihuozhe" in sp.who:
            assert sp.phrase in re.sub(r"<[^>]+>|\s", "", html)


def test_roles_resolve_by_id_name_and_the_texts_role(rite):
    chor = rite.choreography
    assert roles_mod.resolve("上射", chor, rite.reading) == ["ou1_up", "ou2_up", "ou3_up"]
    assert roles_mod.resolve("ou1_up,獲者", chor, rite.reading) == ["ou1_up", "huozhe"]
    assert roles_mod.resolve("司馬", chor, rite.reading) == ["xiang"]
    assert len(roles_mod.resolve("all", chor, rite.reading)) == len(roles_mod.present_actors(chor, rite.reading))


@pytest.mark.parametrize("argv, word", [
    (["sheets", "--roles", "獲獲者"], "unknown role"),
    (["sheets", "--format", "docx"], "invalid choice"),
    (["sheets", "--reading", "nosuch"], "nosuch"),
    (["book", "--out", "{tmp}/plans.txt"], ".pdf or .html"),
    (["book", "--out", "{tmp}/nodir/rite.pdf"], "does not exist"),
])
def test_bad_input_is_one_line_before_any_work(tmp_path, capsys, argv, word):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "sheets":
        argv += ["--out", str(tmp_path / "new")]
    with pytest.raises(SystemExit) if "--format" in argv else _nothing():
        code = main(argv)
        assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and word in err, err
    assert not (tmp_path / "new").exists()                # nothing was written


def test_a_foreign_folder_or_file_is_not_overwritten(tmp_path, capsys):
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep")
    assert main(["sheets", "--roles", "獲者", "--out", str(foreign)]) == 2
    assert [p.name for p in foreign.iterdir()] == ["mine.txt"]
    f = tmp_path / "essay.pdf"
    f.write_text("not a pdf")
    assert main(["book", "--out", str(f)]) == 2
    assert f.read_text() == "not a pdf"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("error:") for line in err)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.slow
def test_the_app_prints_the_sheet_of_the_selected_role(tmp_path, rite):
    """The inspector's button calls xsl_sheet: the booklet of that person, and no call sheet."""
    import asyncio

    from scene.web.app import role_sheet
    from scene.web.jobs import Jobs
    jobs = Jobs(tmp_path)
    res = asyncio.run(role_sheet(jobs, "tab1", "zheng", "shihuozhe"))
    assert "error" not in res, res
    folder = tmp_path / res["url"].split("/")[1]
    pdf = PdfReader(folder / res["name"])
    assert len(pdf.pages) == len(acting_stages(rite, "shihuozhe")) + 1
    assert [p.name for p in folder.iterdir()] == [res["name"]]             # the work folder is gone
    assert "error" in asyncio.run(role_sheet(jobs, "tab1", "zheng", "nobody"))
    assert "error" in asyncio.run(role_sheet(jobs, "tab1", "nosuch", "huozhe"))
    assert "error" in asyncio.run(role_sheet(jobs, "tab1", {"x": 1}, "huozhe"))


@pytest.mark.slow
def test_the_apps_sheet_is_of_the_tabs_chapter(tmp_path):
    """xsl_sheet with the tab's chapter (issue 43): the 介 of 鄉飲酒禮 (鄉射 無介: chapter 5 has no such role, and
    without the chapter he is refused); an unknown chapter is one line."""
    import asyncio

    from scene.web.app import role_sheet
    from scene.web.jobs import Jobs
    jobs = Jobs(tmp_path)
    assert "error" in asyncio.run(role_sheet(jobs, "tab1", "zheng", "jie"))
    bad = asyncio.run(role_sheet(jobs, "tab1", "zheng", "jie", None, "nope"))
    assert "nope" in bad["error"] and "\n" not in bad["error"]
    res = asyncio.run(role_sheet(jobs, "tab1", "zheng", "jie", None, "xiangyinjiu"))
    assert "error" not in res, res
    assert res["name"].startswith("xiangyinjiu-sheet-jie-")
    import subprocess
    got = subprocess.run(["pdftotext", "-l", "1", str(tmp_path / res["url"].split("/")[1] / res["name"]), "-"],
                         capture_output=True, text=True, timeout=60)
    cover = "".join(got.stdout.split())
    assert "鄉飲酒禮rolesheet·介" in cover and "§7主人獻介" in cover, cover[:200]


def test_the_books_legend_prints_a_steps_own_evidence(rite):
    """A step that carries ``evidence`` (aspect → stated / commentary / assumed, with its source) has it
    printed against its phrase number; a stage without any says so."""
    import dataclasses
    import types

    from scene.print import book as book_mod
    from scene.print.canvas import Page
    stage = next(s for s in rite.stages if s.n == 21)
    phrases = book_mod.numbered_phrases(rite, stage)
    sec = rite.choreography.section(21)
    n, off, ph, _ = phrases[2]
    steps = tuple(dataclasses.replace(st, evidence=(("where", "commentary", "鄭：負侯，負侯而俟"),))
                  if (st.offset, st.phrase) == (off, ph) else st for st in sec.steps)
    fake = types.SimpleNamespace(choreography=types.SimpleNamespace(
        section=lambda k: dataclasses.replace(sec, steps=steps)))
    page = Page(210, 297)
    book_mod._evidence(page, fake, stage, phrases, 250)
    said = "".join(op[3] for op in page.ops if op[0] == "text")
    assert f"[{n}] where: commentary — 鄭：負侯，負侯而俟" in said
    page = Page(210, 297)
    book_mod._evidence(page, rite, stage, phrases, 250)
    said = "".join(op[3] for op in page.ops if op[0] == "text")
    # the steps as scene.rite.evidence reads them: the counts of the stage, and the 鄭注 it quotes
    from scene.rite.evidence import rite_evidence
    evs = [e for sp, e in zip(rite.spans, rite_evidence(rite)) if sp.section == 21]
    n_stated = sum(e["where"].status == "stated" for e in evs)
    n_assumed = sum(e["where"].status == "assumed" for e in evs)
    n_comm = len(evs) - n_stated - n_assumed
    assert f"where {n_stated} / {n_comm} / {n_assumed}" in said
    quoted = {e[a].source for e in evs for a in e if e[a].status == "commentary"}
    assert any(q in said for q in quoted) or not quoted
