"""The static web edition: the player page, three.js and a playable pack in one folder any web server can host."""
from __future__ import annotations

from pathlib import Path



#: the player's files that a site needs (the app's bridge app.js/app.css stays out: no server behind a site)
SITE_FILES = ("player.js", "player-page.js", "player.css", "director.js", "lessons.js", "captions.js", "classroom.js",
              "evidence.js", "paths.js", "sound.js", "palette.js", "toggle.js", "contact.js", "quality.js",
              "quality-ui.js", "keys.js", "lesson-toml.js", "simp.js", "inspector.js", "plan-fit.js",
              "still-view.js")


def write_site(out_dir, reading=None, seed: int | None = None) -> Path:
    """``python -m scene site``: a self-contained folder — ``index.html`` (the standalone player page), the
    player, three.js (vendored, with its licence), the pack at ``pack/`` and the CJK font subset at
    ``pack/font/`` — that any static web server can host with no Python behind it."""
    import shutil
    from . import write_playable
    from ...paths import WEB_ASSETS as web
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(web / "player.html", out / "index.html")
    for name in SITE_FILES:
        shutil.copyfile(web / name, out / name)
    shutil.copytree(web / "vendor", out / "vendor", dirs_exist_ok=True)
    write_playable(out / "pack", reading, seed)
    return out
