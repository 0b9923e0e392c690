"""The static web edition: the player page, three.js and a playable pack in one folder any web server can host."""
from __future__ import annotations

from pathlib import Path

#: the player's files that a site needs (the app's bridge app.js/app.css stays out: no server behind a site);
#: tests/test_house.py checks that every module these import is among them
SITE_FILES = ("player.js", "player-build.js", "player-pose.js", "player-labels.js", "player-camera.js",
              "player-playback.js", "player-picking.js", "player-tracks.js", "player-batch.js", "player-pace.js",
              "player-page.js",
              "player.css", "director.js", "lessons.js", "captions.js", "caption-place.js", "classroom.js",
              "evidence.js", "paths.js", "sound.js", "palette.js", "toggle.js", "contact.js", "quality.js",
              "quality-ui.js", "adaptive.js", "review-links.js", "keys.js", "lesson-toml.js", "simp.js",
              "inspector.js", "plan-fit.js", "still-view.js", "notes-panel.js", "listbox.js",
              "framecheck.js")


def write_site(out_dir, reading=None, seed: int | None = None) -> Path:
    """``python -m scene site``: a self-contained folder — ``index.html`` (the standalone player page), the
    player, three.js (vendored, with its licence), the pack at ``pack/`` and the CJK font subset at
    ``pack/font/`` — that any static web server can host with no Python behind it."""
    import shutil

    from ...paths import WEB_ASSETS as web
    from . import write_playable
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(web / "player.html", out / "index.html")
    for name in SITE_FILES:
        shutil.copyfile(web / name, out / name)
    shutil.copytree(web / "vendor", out / "vendor", dirs_exist_ok=True)
    aside = _findings_aside(reading, seed)
    files = write_playable(out / "pack", reading, seed)
    if aside is not None:
        aside.join()
    write_reviews(out, [f for f in files if f.parent.name == "font"], reading, seed)
    return out


def _findings_aside(reading, seed):
    """What the review pages need of the checker (the clause coverage's rows, or without it the rules'
    findings: seconds over the whole rite), made by a forked child while the pack is built, into their disk
    cache; None when it is cached already (or with no fork here)."""
    import multiprocessing

    from ...rite.cache import load_rite
    from ...rite.review import warm, warm_file
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    rite = load_rite(reading, seed)                 # compiled once, here: the child inherits it
    f = warm_file(rite)
    if f is None or f.exists():
        return None
    p = multiprocessing.get_context("fork").Process(target=warm, args=(rite,), daemon=True)
    p.start()
    return p


def write_reviews(out: Path, fonts: list[Path], reading=None, seed: int | None = None) -> list[Path]:
    """``review/<n>.html``: the scholar's report of each section (考, :mod:`scene.web.review`), naming the
    site's font subset; a character the subset lacks (a report quotes the rules' and the data's words)
    is added to it (the subset is made again with them)."""
    from ...rite.cache import load_rite
    from ..review import section_pages
    from .font import write_font
    rite = load_rite(reading, seed)
    def urls(fs):
        return [f"../{f.relative_to(out).as_posix()}" for f in fs]
    from ... import progress
    with progress.phase(f"the scholar's reports of the {len(rite.stages)} sections"):
        pages = section_pages(rite, urls(fonts), "../index.html?stage={n}")
    have = _font_chars(fonts)
    missing = {c for text in pages.values() for c in text if ord(c) > 0x2E7F and ord(c) not in have}
    if missing and fonts:
        main = fonts[0]
        extra = (main.parent.parent / "scene.json").read_text(encoding="utf-8") + "".join(sorted(missing))
        new = write_font(main, extra)
        if [f.name for f in new] != [f.name for f in fonts]:      # a fallback file appeared: name it too
            pages = section_pages(rite, urls(new), "../index.html?stage={n}")
    from ..review import write_pages
    return write_pages(out / "review", pages)


def _font_chars(fonts: list[Path]) -> set[int]:
    from fontTools.ttLib import TTFont
    have: set[int] = set()
    for f in fonts:
        with TTFont(str(f), lazy=True) as font:
            have |= set(font.getBestCmap())
    return have
