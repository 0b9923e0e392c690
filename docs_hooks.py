"""MkDocs hook (mkdocs.yml: ``hooks``): the site's navigation from the files in docs/.

Why a hook and not a ``nav:`` list: other pages are written beside these (docs/server.md, docs/classroom.md,
docs/checker.md …); a fixed ``nav`` would leave a new page off the site — and ``--strict`` fails on a page
that is not in it — until someone edits mkdocs.yml.  So the pages named in ``extra.first_pages`` come first,
in that order, those that exist; every other ``docs/*.md`` follows, by name.
"""
from __future__ import annotations

from pathlib import Path


def on_config(config, **kwargs):
    docs = Path(config["docs_dir"])
    present = sorted(p.name for p in docs.glob("*.md"))
    first = [name for name in config["extra"].get("first_pages", []) if name in present]
    config["nav"] = first + [name for name in present if name not in first]
    return config
