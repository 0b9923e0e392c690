"""The browser app (trame + Vuetify 3): explore the hall, play the rite, read the source.

The server is a thin, stateless service. Each browser tab owns its own state
(stage, time, camera, reading, panels — all *client-only* trame state), draws
the scene itself from a scene pack (:mod:`scene.webpack`, the same meshes the
stills use) with ``assets/web/player.js``, and calls the server only for what
needs Python:

* ``xsl_pack(query)``   — the pack URL of a reading (``zheng,bu_chi=8``), built once and cached;
* ``xsl_export(...)``   — a PNG of the tab's camera by the still exporter (``python -m scene still``);
* ``xsl_zip(...)``      — every stage's still in one zip;
* ``xsl_sheet(query, actor)`` — the role sheet (PDF booklet) of the person selected in the inspector
  (``python -m scene sheets --roles ACTOR``).

So tabs cannot disturb each other, a slow export blocks nobody (it runs in a
subprocess), and playback never waits for the network.
"""
from __future__ import annotations

import asyncio
import atexit
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from ..geometry import readings as readings_mod
from ..render import views as views_mod

from ..paths import ROOT, WEB_ASSETS as WEB  # noqa: E402

#: sizes the export button offers: name → (w, h)
EXPORT_SIZES = {"1080p": (1920, 1080), "4K": (3840, 2160)}

#: per-tab state: never sent to the server, never shared between tabs
CLIENT_ONLY = (
    "t", "t_label", "duration", "stage_n", "stage_title", "step_phrase", "playing", "speed",
    "view", "labels", "roof", "dims", "lang", "show_notes", "classroom", "message", "busy", "inspect",
    "text", "nav", "marks", "reading_q", "reading_title", "reading_vals", "reading_preset", "ghost",
    "right_tab", "link_copied", "fps", "ready", "live_role", "live_seen", "nav_open",
)


class AppError(Exception):
    """Something that stops the app from starting (one line)."""


def check_port(host: str, port: int) -> None:
    """Fail with one line when the port is taken (before trame prints its banner)."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            raise AppError(f"cannot listen on {host}:{port}: {exc.strerror or exc} "
                           f"(another server there? start with --port N)") from None


def check_gl() -> None:
    """The exporter renders with OpenGL: say so at start, in one line, if there is none."""
    from ..render import glprobe
    glprobe.configure()
    try:
        glprobe.start()
        glprobe.ensure()
    except glprobe.GLUnavailable as exc:
        raise AppError(f"no OpenGL for the still exporter: {exc}") from None


class Service:
    """What the tabs ask of Python: packs, PNG exports, zips. No per-tab state."""

    def __init__(self, out_dir: Path, reading) -> None:
        from . import pack as webpack
        self.webpack = webpack
        self.out_dir = out_dir
        self._building: dict[str, asyncio.Future] = {}
        first = webpack.pack_dir(reading)
        self.packs_root = first.parent
        self.default_url = self._url(first)
        self.font_urls = self._font()

    def _url(self, d: Path) -> str:
        return f"xslpack/{d.relative_to(self.packs_root).as_posix()}/"

    def pack_url(self, reading) -> str:
        return self._url(self.webpack.pack_dir(reading))

    def _font(self) -> list[str]:
        """The CJK font subset the page loads (built once per set of characters)."""
        import hashlib
        key = hashlib.sha256(self.webpack.font_chars().encode()).hexdigest()[:12]
        d = self.packs_root / f"webfont-{key}"
        files = sorted(d.glob("cjk*.otf")) if d.exists() else []
        if not files:
            files = self.webpack.write_font(d / "cjk.otf")
        self.font_dir = d
        return [f"xslfont/{f.name}" for f in sorted(files, key=lambda f: len(f.name))]

    async def pack(self, query: str) -> dict:
        """{url, query, title} of the reading the query names, or {error} (one line)."""
        try:
            r = readings_mod.from_query(query or "zheng")
        except readings_mod.ReadingError as exc:
            return {"error": str(exc)}
        q = readings_mod.to_query(r)
        if q not in self._building:       # one build per reading, however many tabs ask at once
            fut = asyncio.get_running_loop().run_in_executor(None, self.pack_url, r)
            fut.add_done_callback(lambda _f: self._building.pop(q, None))   # the disk cache answers next time
            self._building[q] = fut
        try:
            url = await self._building[q]
        except Exception as exc:           # a reading that cannot be timed: say so, keep serving
            return {"error": f"reading {q}: {str(exc).splitlines()[0]}"}
        return {"url": url, "query": q, "title": r.title}

    async def _run(self, args: list[str]) -> tuple[int, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "scene", *args, cwd=str(ROOT),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await proc.communicate()
        return proc.returncode, out.decode("utf-8", "replace").strip()

    async def export_png(self, query: str, t: float, camera: dict, view: str, size: str, labels: bool,
                         roof: str) -> dict:
        """A PNG of the tab's camera at time t, by the still exporter, at 1080p or 4K."""
        if size not in EXPORT_SIZES:
            return {"error": f"size {size!r}: choose {', '.join(EXPORT_SIZES)}"}
        try:
            r = readings_mod.from_query(query or "zheng")
            views_mod.camera_from_json(camera, view)
        except (readings_mod.ReadingError, views_mod.ViewError) as exc:
            return {"error": str(exc)}
        w, h = EXPORT_SIZES[size]
        name = f"xiangsheli-{int(time.time() * 1000)}-{w}x{h}.png"
        out = self.out_dir / name
        code, text = await self._run([
            "still", "--t", f"{float(t):.3f}", "--view", view if view in views_mod.VIEWS else "overview",
            "--camera", json.dumps(camera), "--size", f"{w}x{h}", "--reading", readings_mod.to_query(r),
            "--labels" if labels else "--no-labels", "--roof", roof, "--out", str(out)])
        if code != 0 or not out.exists():
            return {"error": text.splitlines()[-1] if text else f"the exporter failed ({code})"}
        return {"url": f"xslout/{name}", "name": name}

    async def export_zip(self, query: str, size: str) -> dict:
        """Every stage's still (overview) in one zip, with the contact sheet."""
        if size not in EXPORT_SIZES:
            return {"error": f"size {size!r}: choose {', '.join(EXPORT_SIZES)}"}
        try:
            r = readings_mod.from_query(query or "zheng")
        except readings_mod.ReadingError as exc:
            return {"error": str(exc)}
        w, h = EXPORT_SIZES[size]
        work = Path(tempfile.mkdtemp(prefix="stills-", dir=self.out_dir))
        code, text = await self._run(["stills", "--out", str(work), "--size", f"{w}x{h}",
                                      "--reading", readings_mod.to_query(r)])
        if code != 0:
            return {"error": text.splitlines()[-1] if text else f"the exporter failed ({code})"}
        name = f"xiangsheli-stills-{r.name}-{w}x{h}-{int(time.time())}.zip"
        count = len(list(work.glob("*.png")))
        with zipfile.ZipFile(self.out_dir / name, "w", zipfile.ZIP_STORED) as z:   # PNGs do not deflate
            for f in sorted(work.rglob("*")):
                if f.is_file():
                    z.write(f, f.relative_to(work).as_posix())
        shutil.rmtree(work, ignore_errors=True)
        return {"url": f"xslout/{name}", "name": name, "count": count}


    async def role_sheet(self, query: str, actor: str) -> dict:
        return await role_sheet(self.out_dir, query, actor, self._run)


async def role_sheet(out_dir: Path, query: str, actor: str, run=None) -> dict:
    """{url, name} of the role sheet of ``actor`` (an id of the cast) under the reading, or {error}."""
    from ..rite import choreography as chor
    try:
        r = readings_mod.from_query(query or "zheng")
    except readings_mod.ReadingError as exc:
        return {"error": str(exc)}
    if not isinstance(actor, str) or actor not in chor.default().actors:
        return {"error": f"no role sheet for {actor!r}: select a person"}
    if run is None:
        async def run(args):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "scene", *args, cwd=str(ROOT),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            out, _ = await proc.communicate()
            return proc.returncode, out.decode("utf-8", "replace").strip()
    work = Path(tempfile.mkdtemp(prefix="sheet-", dir=out_dir))
    code, text = await run(["sheets", "--roles", actor, "--out", str(work), "--no-call-sheet", "--jobs", "1",
                            "--reading", readings_mod.to_query(r)])
    made = work / f"{actor}.pdf"
    if code != 0 or not made.exists():
        shutil.rmtree(work, ignore_errors=True)
        return {"error": text.splitlines()[-1] if text else f"the sheet printer failed ({code})"}
    name = f"xiangsheli-sheet-{actor}-{r.name}-{int(time.time())}.pdf"
    made.replace(out_dir / name)
    shutil.rmtree(work, ignore_errors=True)
    return {"url": f"xslout/{name}", "name": name}


def field_table() -> list[dict]:
    """The readings panel: every switch with its options and their sources."""
    out = []
    for f in readings_mod.FIELDS:
        d = {"key": f.key, "label": f.label, "kind": f.kind.__name__}
        if f.options:
            d["options"] = [{"value": v, "title": f"{v}", "source": s} for v, s in f.options.items()]
        if f.open_range is not None:
            d["range"] = list(f.open_range)
            d["basis"] = f.basis
        out.append(d)
    return out


def build(server, service: Service) -> None:
    """State, triggers and the Vuetify layout."""
    from . import ui
    state = server.state
    state.trame__title = "鄉射禮 · District Archery Rite"
    state.update({
        "xsl_default_pack": service.default_url,
        "xsl_font_urls": service.font_urls,
        "xsl_fields": field_table(),
        "xsl_preset_vals": {k: {f.key: getattr(r, f.key) for f in readings_mod.FIELDS}
                            for k, r in readings_mod.PRESETS.items()},
        "xsl_presets": [{"value": k, "title": f"{k} — {r.title}"} for k, r in readings_mod.PRESETS.items()],
        "xsl_views": [{"value": k, "title": views_mod.VIEWS[k]} for k in ui.VIEW_ORDER],
        "roof_modes": list(ui.ROOFS),
        # per-tab (client-only) state, with its initial values
        "t": 0.0, "t_label": "", "duration": 1.0, "stage_n": 0, "stage_title": "",
        "step_phrase": "", "playing": False, "speed": 1.0, "view": "overview", "labels": True,
        "roof": "cutaway", "dims": False, "lang": "trad", "show_notes": False, "classroom": False,
        "message": "", "busy": "", "inspect": None, "text": None, "nav": [], "marks": [],
        "reading_q": "zheng", "reading_title": "", "reading_vals": {}, "reading_preset": "zheng",
        "ghost": False, "right_tab": "text", "link_copied": False, "fps": 0,
        "ready": False, "live_role": "", "live_seen": None, "nav_open": True,
        # the one shared key: the presenter's last state, pushed to every tab (followers apply it)
        "xsl_live": None,
    })
    state.client_only(*CLIENT_ONLY)
    server.enable_module({
        "serve": {"xsl": str(WEB), "xslpack": str(service.packs_root), "xslout": str(service.out_dir),
                  "xslfont": str(service.font_dir)},
        "module_scripts": ["xsl/app.js"],
        "styles": ["xsl/app.css"],
    })
    server.controller.trigger("xsl_pack")(service.pack)
    server.controller.trigger("xsl_export")(service.export_png)
    server.controller.trigger("xsl_zip")(service.export_zip)
    server.controller.trigger("xsl_sheet")(service.role_sheet)

    @server.controller.trigger("xsl_present")
    def present(payload: dict) -> bool:
        """A presenter tab's stage, time, camera and reading → every follower (last presenter wins)."""
        if not isinstance(payload, dict) or not isinstance(payload.get("stage"), int):
            return False
        state.xsl_live = {**payload, "server_ms": time.time() * 1000.0}
        return True
    ui.layout(server)


def main(argv: list[str] | None = None) -> int:
    from trame.app import get_server
    server = get_server("xiangsheli", client_type="vue3")
    server.cli.description = "鄉射禮 — the browser app"
    # our defaults: loopback only, and serve until stopped (wslink's 300 s stops a server with no tab)
    server.cli.set_defaults(host="127.0.0.1", port=8080, timeout=0)
    server.cli.add_argument("--reading", default="zheng",
                            help="the reading tabs open with: a preset, or preset,key=value,…")
    args, _ = server.cli.parse_known_args(argv)
    try:
        check_port(args.host, int(args.port))
        check_gl()
        reading = readings_mod.from_query(args.reading)
        out_dir = Path(tempfile.mkdtemp(prefix="xiangsheli-app-"))   # exports, removed when the app stops
        atexit.register(shutil.rmtree, out_dir, True)
        t0 = time.perf_counter()
        service = Service(out_dir, reading)
        build(server, service)
    except (AppError, readings_mod.ReadingError, ValueError, OSError) as exc:
        print(f"app.py: error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    url = f"http://{args.host}:{args.port}/"
    print(f"鄉射禮 app: scene ready in {time.perf_counter() - t0:.1f} s; open {url}  (Ctrl-C stops)", flush=True)
    os.environ.setdefault("TRAME_DISABLE_V3_WARNING", "1")
    server.start(host=args.host, port=int(args.port), timeout=int(args.timeout), open_browser=False,
                 show_connection_info=False)
    return 0
