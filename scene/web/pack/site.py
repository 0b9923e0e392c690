"""The static web edition: the player page, three.js and a playable pack in one folder any web server can host."""
from __future__ import annotations

from pathlib import Path

#: the player's files that a site needs (the app's bridge app.js/app.css stays out: no server behind a site);
#: tests/test_house.py checks that every module these import is among them
SITE_FILES = ("player.js", "player-build.js", "player-pose.js", "player-labels.js", "player-camera.js",
              "player-playback.js", "player-picking.js", "player-tracks.js", "player-batch.js", "player-pace.js", "signals.js",
              "player-page.js",
              "player.css", "director.js", "lessons.js", "captions.js", "caption-place.js", "classroom.js",
              "evidence.js", "paths.js", "sound.js", "palette.js", "toggle.js", "contact.js", "quality.js",
              "quality-ui.js", "adaptive.js", "review-links.js", "keys.js", "lesson-toml.js", "simp.js",
              "inspector.js", "plan-fit.js", "still-view.js", "notes-panel.js", "listbox.js",
              "framecheck.js", "chapters.js", "beside-page.js")


def write_site(out_dir, reading=None, seed: int | None = None, opens=None) -> Path:
    """``python -m scene site``: a self-contained folder — ``index.html`` (the standalone player page), the
    player, three.js (vendored, with its licence), chapter 5's pack at ``pack/`` and its CJK font subset at
    ``pack/font/``, every other chapter with a rite at ``pack-<id>/`` (鄉飲酒禮: ``pack-xiangyinjiu/``), and
    ``chapters.json``, the list the page's chapter switch shows with each chapter's pack and the folder of its
    scholar's reports (``review/`` of chapter 5, ``review-<id>/`` of another; ``opens``: the chapter the page
    opens without ``?chapter=``, chapter 5 by default), ``beside.html`` with ``parallels.json`` (two parallel sections played
    together, their differences listed) — that any static web server can host with no Python behind it."""
    from ...atomic import check_folder, write_bytes, write_text
    from ...paths import WEB_ASSETS as web
    from . import write_playable
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_text(out / "index.html", with_policy((web / "player.html").read_text(encoding="utf-8")))
    write_text(out / HEADERS_FILE, host_headers())
    for name in SITE_FILES:                  # through the one safe writer: no link planted meanwhile is followed
        write_bytes(out / name, (web / name).read_bytes())
    vendor = check_folder(out / "vendor")
    for f in sorted((web / "vendor").iterdir()):
        if f.is_file():
            write_bytes(vendor / f.name, f.read_bytes())
    aside = _findings_aside(reading, seed)
    files = write_playable(out / "pack", reading, seed)
    if aside is not None:
        aside.join()
    write_reviews(out, [f for f in files if f.parent.name == "font"], reading, seed)
    listed = []
    for ch in site_chapters():
        folder = chapter_folder(ch)
        if folder != "pack":                 # its pack, and its reports beside chapter 5's (named by its font)
            more = write_playable(out / folder, reading, seed, ch)
            write_reviews(out, [f for f in more if f.parent.name == "font"], reading, seed, ch)
        listed.append({"id": ch.id, "number": ch.number, "title": ch.title, "title_en": ch.title_en,
                       "pack": f"{folder}/", "review": f"{review_folder(ch)}/"})
    import json

    from ...chapter import resolve
    write_text(out / "chapters.json", json.dumps({"opens": resolve(opens).id, "chapters": listed},
                                                 ensure_ascii=False, indent=1))
    # the side-by-side page (beside.html?beside=xiangyinjiu:5) and the pairs it plays, with their differences
    from .parallels import parallels_doc
    write_text(out / "beside.html", with_policy((web / "beside.html").read_text(encoding="utf-8")))
    write_text(out / "parallels.json", json.dumps(parallels_doc([c["id"] for c in listed]), ensure_ascii=False,
                                                  indent=1))
    return out


def site_chapters() -> list:
    """The chapters a site carries: every chapter of the package with a rite, chapter 5 first."""
    from ...chapter import chapters, resolve
    default = resolve(None)
    others = [resolve(c) for c in chapters() if c != default.id]
    return [default] + sorted((c for c in others if c.rite is not None and c.cast is not None),
                              key=lambda c: c.number)


def chapter_folder(ch) -> str:
    """Where a site keeps a chapter's pack: ``pack`` for chapter 5 (as before chapters), else ``pack-<id>``."""
    from ...chapter import resolve
    return "pack" if ch == resolve(None) else f"pack-{ch.id}"


def review_folder(ch) -> str:
    """Where a site keeps a chapter's reports (考): ``review`` for chapter 5 (as before chapters), else
    ``review-<id>`` (鄉飲酒禮: ``review-xiangyinjiu/``)."""
    from ...chapter import resolve
    return "review" if ch == resolve(None) else f"review-{ch.id}"


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


def write_reviews(out: Path, fonts: list[Path], reading=None, seed: int | None = None, chapter=None) -> list[Path]:
    """``review/<n>.html`` (another chapter's: ``review-<id>/<n>.html``): the scholar's report of each section
    (考, :mod:`scene.web.review`), naming the font subset of the chapter's pack, each with its link back to the
    player at that section of that chapter; a character the subset lacks (a report quotes the rules' and the
    data's words) is added to it (the subset is made again with them)."""
    from ...chapter import resolve
    from ...rite.cache import load_rite
    from ..review import section_pages
    from .font import write_font
    ch = resolve(chapter)
    rite = load_rite(reading, seed, chapter=ch)
    def urls(fs):
        return [f"../{f.relative_to(out).as_posix()}" for f in fs]
    back = "../index.html?stage={n}" if ch == resolve(None) else f"../index.html?chapter={ch.id}&stage={{n}}"
    from ... import progress
    with progress.phase(f"the scholar's reports of the {len(rite.stages)} sections of {ch.title}"):
        pages = section_pages(rite, urls(fonts), back)
    have = _font_chars(fonts)
    missing = {c for text in pages.values() for c in text if ord(c) > 0x2E7F and ord(c) not in have}
    if missing and fonts:
        main = fonts[0]
        extra = (main.parent.parent / "scene.json").read_text(encoding="utf-8") + "".join(sorted(missing))
        new = write_font(main, extra)
        if [f.name for f in new] != [f.name for f in fonts]:      # a fallback file appeared: name it too
            pages = section_pages(rite, urls(new), back)
    from ..review import write_pages
    return write_pages(out / review_folder(ch), {n: with_policy(text) for n, text in pages.items()})


#: the headers a host should send with every file of the site (framing cannot be refused from inside a page),
#: in the ``_headers`` file that Netlify and Cloudflare Pages read; docs/server.md gives nginx's and others'
HEADERS_FILE = "_headers"
HOST_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def site_policy(html: str) -> str:
    """A site page's Content-Security-Policy: everything from the site's own origin, inline scripts only by
    their hash (the import map, a review page's script and its data), nothing evaluated (the player has no
    Vue: no 'unsafe-eval', unlike the app's page), no plugins, no base or form elsewhere. ``frame-ancestors``
    is not here: a policy in a ``<meta>`` cannot carry it (the host's header does, :data:`HOST_HEADERS`)."""
    from ..gate import script_hashes
    return ("default-src 'self'; "
            f"script-src 'self' {' '.join(script_hashes(html))}; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
            "connect-src 'self'; worker-src 'self' blob:; media-src 'self' blob: data:; "
            "object-src 'none'; base-uri 'self'; form-action 'none'").replace("  ", " ")


def with_policy(html: str) -> str:
    """A site page with its policy and no referrer, as ``<meta>`` right after its charset (before any script:
    a policy governs only what comes after it). A static server sends no headers of ours; these two are the
    ones a page can say itself."""
    import html as _html
    import re
    meta = (f'<meta http-equiv="Content-Security-Policy" content="{_html.escape(site_policy(html), quote=False)}">'
            '<meta name="referrer" content="no-referrer">')
    m = re.search(r"<meta charset=[\"']?utf-8[\"']?\s*/?>", html, re.IGNORECASE) or re.search(r"<head[^>]*>", html,
                                                                                            re.IGNORECASE)
    if m is None:
        raise ValueError("a site page without <head>")
    return html[:m.end()] + meta + html[m.end():]


def host_headers() -> str:
    """``_headers``: every path of the site with :data:`HOST_HEADERS`."""
    return "/*\n" + "".join(f"  {k}: {v}\n" for k, v in HOST_HEADERS.items())


def _font_chars(fonts: list[Path]) -> set[int]:
    from fontTools.ttLib import TTFont
    have: set[int] = set()
    for f in fonts:
        with TTFont(str(f), lazy=True) as font:
            have |= set(font.getBestCmap())
    return have
