"""The browser app (trame + Vuetify 3): explore the hall, play the rite, read the source.

The server is a thin, stateless service. Each browser tab owns its own state
(stage, time, camera, reading, panels — all *client-only* trame state), draws
the scene itself from a scene pack (:mod:`scene.webpack`, the same meshes the
stills use) with ``assets/web/player.js``, and calls the server only for what
needs Python:

* ``xsl_pack(query)``   — the pack URL of a reading (``zheng,bu_chi=8``), built once and cached;
* ``xsl_export(...)``   — a PNG of the tab's camera by the still exporter (``python -m scene still``);
* ``xsl_zip(...)``      — every stage's still in one zip;
* ``xsl_sheet(query, actor, chapter)`` — the role sheet (PDF booklet) of the person selected in the inspector,
  of the tab's chapter (``python -m scene --chapter ID sheets --roles ACTOR``).

So tabs cannot disturb each other, a slow export blocks nobody (it runs in a
subprocess), and playback never waits for the network.
"""
from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import json
import math
import os
import shutil
import signal
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from ..geometry import reading_picks as picks_mod
from ..geometry import readings as readings_mod
from ..paths import WEB_ASSETS as WEB  # noqa: E402
from ..render import views as views_mod
from . import live as live_mod
from . import workers
from .chapters import DEFAULT_CHAPTER, app_chapters, chapter_argv, chapter_of, known_chapter
from .guard import short as guard_short
from .startchecks import AppError, check_gl, check_port  # noqa: F401  (app.py and the tests use them here)

#: sizes the export button offers: name → (w, h)
EXPORT_SIZES = {"1080p": (1920, 1080), "4K": (3840, 2160)}

#: per-tab state: never sent to the server, never shared between tabs
CLIENT_ONLY = (
    "t", "t_label", "duration", "stage_n", "stage_title", "step_phrase", "playing", "speed",
    "view", "labels", "roof", "dims", "lang", "show_notes", "classroom", "message", "busy", "inspect",
    "text", "nav", "marks", "reading_q", "reading_title", "reading_vals", "reading_preset", "ghost",
    "right_tab", "link_copied", "fps", "ready", "live_role", "live_seen", "nav_open", "building", "quality_pick",
    "roof_menu", "quality_menu", "speed_menu", "quality_info_open", "chapter_id", "chapter_title", "chapter_sub",
    "pack_views",
)


class Service:
    """What the tabs ask of Python: packs, PNG exports, zips. No per-tab state but the export queue."""

    def __init__(self, out_dir: Path, reading, presenter_key: str = "") -> None:
        from . import pack as webpack
        from .jobs import Jobs
        from .pack import store
        self.webpack = webpack
        self.store = store
        self.out_dir = out_dir
        from .guard import tell
        from .sockets import session_of
        #: the sessions that presented with the right key: their exports and builds go first (issue 45)
        self.presenters: set[str] = set()
        self.jobs = Jobs(out_dir, tell=tell, session_of=session_of, first=self.presenters.__contains__)
        self.presenter_key = presenter_key
        from .appargs import KeyGuesses
        from .builds import Builds
        from .sockets import session_of
        self.builds = Builds(store, self.pack_url, session_of, first=self.presenters.__contains__)
        self.guesses = KeyGuesses()
        self.built: set[str] = set(readings_mod.preset_names())     # readings a presenter may send followers to
        store.clean_tmp()
        self.reading = reading
        self.packs_root = store.roots()[0]                 # the pack and font folders, served as xslpack/
        self.packs_root.mkdir(parents=True, exist_ok=True)
        self.default_url: str | None = None
        self.font_dir: Path | None = None
        self.font_urls: list[str] | None = None
        self._fonts: concurrent.futures.Future = concurrent.futures.Future()
        # warm: the pack is there (its key is a hash of the sources: cheap) and so is the font (its key is
        # remembered): ready now. Cold: :meth:`prepare`, while the server already answers pages
        fonts = store.existing_font() if store.existing(reading) is not None else None
        if fonts is not None:
            self._fonts.set_result(fonts)
            self._ready(fonts)

    def fonts(self) -> Path:
        """The font folder (waits for a first start's subset: the page's CSS names it, as xslfont/)."""
        if self.font_dir is None:
            self.font_dir, files = self._fonts.result()
            self.font_urls = [f"xslfont/{f.name}" for f in files]
        return self.font_dir

    @property
    def ready(self) -> bool:
        return self.default_url is not None

    def prepare(self) -> None:
        """Build what a cold start lacks (blocking: the app runs it in a thread while pages load).

        Three things take seconds: the rite's compilation, the director's track (most of the pack) and the
        font subset (pure-Python fontTools: a thread would share the GIL). Two worker processes take them,
        away from the server's GIL: one the font (even its key: it reads and converts every source), the
        other the rite and its pack, with a worker of its own for the director's track once the rite is
        compiled (:func:`.workers.build_pack`); this process then verifies and keeps what they made.  The static set's
        bake (it needs no rite) goes first in the font's worker, while the rite compiles."""
        if self.ready:
            return
        import multiprocessing
        store = self.store
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        try:
            with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx, initializer=workers.die_with_parent) as ex:
                self._pool = ex
                pack = ex.submit(workers.build_pack, self.reading)
                # the other worker: the font (the address line waits for it), then the static set's light
                # (it needs the reading only) while the rite compiles — the pack worker, when it gets there,
                # finds it baked or waits for it (bake._alone) while the director's worker goes on
                font = ex.submit(store.font_dir)
                font.add_done_callback(lambda f: self._fonts.set_exception(f.exception()) if f.exception()
                                       else self._fonts.set_result(f.result()))
                ex.submit(workers.prebake, self.reading)
                pack.result()
                fonts = font.result()
        except BaseException as exc:
            if not self._fonts.done():
                self._fonts.set_exception(exc)
            raise
        self._pool = None
        self._ready(fonts)

    def abandon(self) -> None:
        """Stop the workers of a build still running (the app is stopping: nobody will see it)."""
        self.builds.close()
        pool = getattr(self, "_pool", None)
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.kill()

    def _ready(self, fonts) -> None:
        store = self.store
        first = store.pack_dir(self.reading)                               # verified, and kept by this process
        store.pin(first)
        store.pin(store.ready(fonts[0].name, lambda tmp: None, ("cjk.otf",)))   # verified, and kept
        self.built.add(readings_mod.to_query(store.normalise(self.reading)))
        self.fonts()
        self.default_url = self._url(first)
        from .review import spawn_app_pages  # the 經 panel's 考 links: review pages, made aside
        self.reviews = spawn_app_pages(self.reading, self.font_urls)

    def _url(self, d: Path) -> str:
        return f"xslpack/{d.relative_to(self.packs_root).as_posix()}/"

    def pack_url(self, reading, chapter=None) -> str:
        return self._url(self.store.pack_dir(reading, chapter=chapter))

    def known_reading(self, query) -> str | None:
        """The normalised query of a reading a follower may be sent to (a preset or built), else None."""
        try:
            q = readings_mod.to_query(self.store.normalise(_reading_of(query)))
        except (readings_mod.ReadingError, ValueError):
            return None
        return q if q in self.built else None

    async def pack(self, query=None, chapter=None) -> dict:
        """{url, query, title, chapter} of the reading the query names, of ``chapter`` (an id of a chapter
        with a rite; None: chapter 5), or {error} (one line)."""
        from .builds import BuildRefused
        from .guard import CLIENT
        try:
            r = self.store.normalise(_reading_of(query))
            ch = chapter_of(chapter)
            readings_mod.get(r, chapter=ch)          # another chapter's choice: one line, before any build
        except (readings_mod.ReadingError, ValueError) as exc:
            return {"error": str(exc)}
        q = readings_mod.to_query(r)
        try:
            url = await self.builds.get(r, q, CLIENT.get(), None if ch == DEFAULT_CHAPTER else ch)
        except BuildRefused as exc:
            return {"error": str(exc)}
        except Exception as exc:           # a reading that cannot be timed: say so, keep serving
            return {"error": f"reading {q}: {guard_short(str(exc).splitlines()[0] if str(exc) else exc, 200)}"}
        self.built.add(q)
        return {"url": url, "query": q, "title": r.title, "chapter": ch}

    def left(self, client: str) -> None:
        """A tab left: its exports and the builds only it waited for are cancelled."""
        self.jobs.cancel(client)
        self.builds.left(client)

    def _served(self, out: Path, folder: Path) -> str:
        return f"xslout/{folder.name}/{out.name}"

    async def export_png(self, query=None, t=0.0, camera=None, view="overview", size="1080p", labels=True,
                         roof="cutaway", chapter=None) -> dict:
        """A PNG of the tab's camera at time t (of its chapter), by the still exporter, at 1080p or 4K."""
        from .guard import CLIENT
        from .jobs import JobError
        client = CLIENT.get()
        if not isinstance(size, str) or size not in EXPORT_SIZES:
            return {"error": f"size {guard_short(size)}: choose {', '.join(EXPORT_SIZES)}"}
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or not 0 <= t <= 1e6:
            return {"error": f"t {guard_short(t)}: not a time"}
        if not isinstance(roof, str) or roof not in ("cutaway", "solid", "ghost", "none"):
            return {"error": f"roof {guard_short(roof)}: cutaway, solid, ghost or none"}
        try:
            r, extra = _reading_of(query), chapter_argv(chapter)
            cam = live_mod.clean_camera(camera)
            if cam is not None:
                views_mod.camera_from_json(cam, "free")
        except ValueError as exc:         # (ReadingError, ViewError, LiveError, a chapter's: one line each)
            return {"error": str(exc)}
        w, h = EXPORT_SIZES[size]
        view = view if isinstance(view, str) and view in views_mod.VIEWS else "overview"

        def make(folder: Path):
            out = folder / f"xiangsheli-{int(time.time() * 1000)}-{w}x{h}.png"
            argv = ["still", "--t", f"{float(t):.3f}", "--view", view, "--size", f"{w}x{h}",
                    "--reading", readings_mod.to_query(r), "--labels" if labels else "--no-labels",
                    "--roof", roof, "--out", str(out), *extra]
            if cam is not None:
                argv[5:5] = ["--camera", json.dumps(cam)]
            return argv, out, None
        try:
            out, folder = await self.jobs.run(client, "png", make)
        except JobError as exc:
            return {"error": str(exc)}
        return {"url": self._served(out, folder), "name": out.name}

    async def export_zip(self, query=None, size="1080p", chapter=None) -> dict:
        """Every stage's still (overview) in one zip, with the contact sheet."""
        from .guard import CLIENT
        from .jobs import JobError
        client = CLIENT.get()
        if not isinstance(size, str) or size not in EXPORT_SIZES:
            return {"error": f"size {guard_short(size)}: choose {', '.join(EXPORT_SIZES)}"}
        try:
            r, extra = _reading_of(query), chapter_argv(chapter)
        except ValueError as exc:
            return {"error": str(exc)}
        w, h = EXPORT_SIZES[size]

        def make(folder: Path):
            work = folder / "stills"
            name = f"xiangsheli-stills-{readings_mod.safe_name(r.name)}-{w}x{h}-{int(time.time())}.zip"

            def finish() -> Path:
                with zipfile.ZipFile(folder / name, "w", zipfile.ZIP_STORED) as z:   # PNGs do not deflate
                    for f in sorted(work.rglob("*")):
                        if f.is_file():
                            z.write(f, f.relative_to(work).as_posix())
                shutil.rmtree(work, ignore_errors=True)
                return folder / name
            return (["stills", "--out", str(work), "--size", f"{w}x{h}", "--reading", readings_mod.to_query(r), *extra],
                    folder / name, finish)
        try:
            out, folder = await self.jobs.run(client, "zip", make)
        except JobError as exc:
            return {"error": str(exc)}
        return {"url": self._served(out, folder), "name": out.name}

    def key_ok(self, key) -> bool:
        return live_mod.key_ok(key, self.presenter_key)

    def is_presenter(self, session: str) -> bool:
        return session in self.presenters

    def add(self, session: str) -> None:
        if len(self.presenters) < 64:                # a teacher's tabs and devices, not a list to fill
            self.presenters.add(session)

    def queue(self) -> dict:
        """Where the asking tab's export stands in the queue."""
        from .guard import CLIENT
        return self.jobs.position(CLIENT.get())

    def present(self, payload=None, key=None) -> dict:
        """A presenter's state, checked, for every follower (needs the presenter key). The right key is never
        refused: a student behind the teacher's address (a classroom's NAT) giving wrong ones must not stop
        her presenting (issue 45); wrong keys are counted per address, logged, and an address with too many
        is answered with a wait (guessing a 32-character key is hopeless anyway)."""
        from .guard import CLIENT
        from .sockets import address_of
        addr = address_of(CLIENT.get())
        if not live_mod.key_ok(key, self.presenter_key):
            locked = self.guesses.locked(addr)
            self.guesses.failed(addr)
            if locked:
                return {"error": "too many wrong presenter keys from this computer: wait a minute"}
            return {"error": "presenting needs the presenter key (printed when the app starts)"}
        from .sockets import session_of
        self.add(session_of(CLIENT.get()))
        try:
            return {"live": live_mod.clean_payload(payload, self.known_reading, known_chapter)}
        except live_mod.LiveError as exc:
            return {"error": f"presenter payload: {exc}"}


    async def role_sheet(self, query=None, actor=None, chapter=None) -> dict:
        """The role sheet (PDF booklet) of the person selected in the inspector, of the tab's chapter, as an
        export job."""
        from .guard import CLIENT
        return await role_sheet(self.jobs, CLIENT.get(), query, actor, self._served, chapter)


def _in_background(fn) -> concurrent.futures.Future:
    """fn() in a daemon thread (an app that stops does not wait for it), as a future."""
    import threading
    fut: concurrent.futures.Future = concurrent.futures.Future()

    def run() -> None:
        try:
            fut.set_result(fn())
        except BaseException as exc:        # noqa: BLE001  (handed to whoever waits)
            fut.set_exception(exc)
    threading.Thread(target=run, name="xsl-build", daemon=True).start()
    return fut


async def _publish(server, service: Service, building: concurrent.futures.Future, t0: float) -> None:
    """Once the build is done, the pack and the font to every tab (they wait for them)."""
    try:
        await asyncio.wrap_future(building)
    except Exception as exc:            # the default reading cannot be built: one line, and stop
        from .appargs import error_line
        print(error_line("the scene could not be built: "
                         f"{guard_short(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 200)}"),
              file=sys.stderr, flush=True)
        os._exit(2)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with server.state:
        server.state.xsl_font_urls = service.font_urls
        server.state.xsl_default_pack = service.default_url
    print(f"鄉射禮 app: scene ready in {time.perf_counter() - t0:.1f} s", flush=True)


def _reading_of(query):
    """A tab's reading query (a string or nothing), or ReadingError (one line): the one parser and its cap
    (:data:`scene.geometry.readings.MAX_QUERY`)."""
    return readings_mod.from_query("zheng" if query is None or query == "" else query)


async def role_sheet(jobs, client: str, query, actor, served=None, chapter=None) -> dict:
    """{url, name} of the role sheet of ``actor`` (an id of the chapter's cast) under the reading, or {error}:
    one job of the export queue (one at a time per tab, its folder removed on failure, served to the asking
    tab).  ``chapter``: the tab's (chapter 5 when None), as the other exports take it."""
    from ..rite import choreography as chor
    from .jobs import JobError
    try:
        r, extra, ch = _reading_of(query), chapter_argv(chapter), chapter_of(chapter)
    except ValueError as exc:          # (ReadingError, a chapter's: one line each)
        return {"error": str(exc)}
    if not isinstance(actor, str) or actor not in chor.cast_of(ch)[0]:
        return {"error": f"no role sheet for {guard_short(actor)}: select a person"}

    def make(folder: Path):
        work = folder / "sheet"
        prefix = "xiangsheli" if ch == DEFAULT_CHAPTER else ch        # (chapter 5's name as before)
        name = f"{prefix}-sheet-{actor}-{readings_mod.safe_name(r.name)}-{int(time.time())}.pdf"

        def finish() -> Path:
            (work / f"{actor}.pdf").replace(folder / name)
            shutil.rmtree(work, ignore_errors=True)
            return folder / name
        return (["sheets", "--roles", actor, "--out", str(work), "--no-call-sheet", "--jobs", "1",
                 "--reading", readings_mod.to_query(r), *extra], folder / name, finish)
    try:
        out, folder = await jobs.run(client, "pdf", make)
    except JobError as exc:
        return {"error": str(exc)}
    return {"url": served(out, folder) if served else f"xslout/{folder.name}/{out.name}", "name": out.name}


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


def _review_folder(reading) -> Path:
    from .review import app_folder
    d = app_folder(reading)
    d.mkdir(parents=True, exist_ok=True)
    return d


def build(server, service: Service) -> None:
    """State, triggers and the Vuetify layout."""
    from . import ui
    state = server.state
    state.trame__title = "儀禮 · 鄉射禮 鄉飲酒禮"
    state.update({
        "xsl_default_pack": service.default_url,      # None until a first start's build is done
        "xsl_font_urls": service.font_urls if service.ready else None,
        "xsl_fields": field_table() + picks_mod.panel_fields(),    # a chapter's own choices: its panel only
        "xsl_preset_vals": picks_mod.panel_values(readings_mod.PRESETS),
        "xsl_presets": [{"value": k, "title": f"{k} — {r.title}"} for k, r in readings_mod.PRESETS.items()]
        + picks_mod.panel_presets(),
        "xsl_views": [{"value": k, "title": views_mod.VIEWS[k]} for k in ui.VIEW_ORDER],
        "xsl_chapters": app_chapters(),
        "roof_modes": list(ui.ROOFS),
        # per-tab (client-only) state, with its initial values
        "t": 0.0, "t_label": "", "duration": 1.0, "stage_n": 0, "stage_title": "",
        "step_phrase": "", "playing": False, "speed": 1.0, "view": "auto", "labels": True,
        "roof": "cutaway", "dims": False, "lang": "trad", "show_notes": False, "classroom": False,
        "message": "", "busy": "", "inspect": None, "text": None, "nav": [], "marks": [],
        "reading_q": "zheng", "reading_title": "", "reading_vals": {}, "reading_preset": "zheng",
        "chapter_id": DEFAULT_CHAPTER, "chapter_title": "鄉射禮", "pack_views": [], "chapter_sub": "District Archery Rite · 儀禮 第五",
        "ghost": False, "right_tab": "text", "link_copied": False, "fps": 0,
        "ready": False, "live_role": "", "live_seen": None, "nav_open": True, "building": "", "quality_pick": "auto",
        "roof_menu": False, "quality_menu": False, "speed_menu": False, "quality_info_open": False,
        # the one shared key: the presenter's last state, pushed to every tab (followers apply it)
        "xsl_live": None,
    })
    state.client_only(*CLIENT_ONLY)
    server.enable_module({
        "serve": {"xsl": str(WEB), "xslpack": str(service.packs_root), "xslout": str(service.out_dir),
                  "xslfont": str(service.fonts()), "xslreview": str(_review_folder(service.reading))},
        "module_scripts": ["xsl/app.js"],
        "styles": ["xsl/app.css"],
    })
    server.controller.trigger("xsl_pack")(service.pack)
    server.controller.trigger("xsl_export")(service.export_png)
    server.controller.trigger("xsl_zip")(service.export_zip)
    server.controller.trigger("xsl_queue")(service.queue)
    server.controller.trigger("xsl_sheet")(service.role_sheet)
    from . import still as still_mod  # the still of the moment for a browser without WebGL
    still_mod.register(server, service)
    from . import remote as remote_mod  # frames of the scene as it plays, orbit and zoom: the no-WebGL view
    remote_mod.register(server, service)

    @server.controller.trigger("xsl_present")
    def present(payload=None, key=None) -> dict:
        """A presenter tab's stage, time, camera and reading → every follower (last presenter wins)."""
        res = service.present(payload, key)
        if "live" in res:
            state.xsl_live = {**res["live"], "server_ms": time.time() * 1000.0}
            return {"ok": True}
        return res
    ui.layout(server)


def main(argv: list[str] | None = None) -> int:
    from ..render import glprobe
    glprobe.configure()
    glprobe.start()                    # the GL probe (a child process, ~1 s) runs while trame is imported
    try:
        return _main(argv)
    finally:
        glprobe.stop()                 # only a start that failed leaves one running


def _main(argv: list[str] | None) -> int:
    from trame.app import get_server

    from . import guard
    server = get_server("xiangsheli", client_type="vue3")
    server.cli.description = "鄉射禮 — the browser app"
    # our defaults: loopback only, and serve until stopped (wslink's 300 s stops a server with no tab)
    server.cli.set_defaults(host="127.0.0.1", port=8080, timeout=0)
    server.cli.add_argument("--reading", default="zheng",
                            help="the reading tabs open with: a preset, or preset,key=value,…")
    server.cli.add_argument("--presenter-key", default=None,
                            help="the key a tab needs to present (default: a fresh one, printed at start); "
                                 "readable by every user in the process list: prefer --presenter-key-file or "
                                 "the environment variable XSL_PRESENTER_KEY")
    server.cli.add_argument("--presenter-key-file", default=None,
                            help="a file holding the presenter key (its first line)")
    server.cli.add_argument("--allow-origin", action="append", default=[],
                            help="another origin whose pages may open the websocket (repeatable; * for any)")
    server.cli.add_argument("--allow-host", action="append", default=[],
                            help="another host name the pages may be asked for (repeatable; addresses and "
                                 "this machine's names need none)")
    from .appargs import check_args, error_line, one_line_errors, prog
    server.cli.prog = prog()                        # what the user ran (scene.launch): its usage and errors
    one_line_errors(server.cli)
    args, _ = server.cli.parse_known_args(argv)
    building = None                     # a first start's build, once it runs
    try:
        port = check_args(args)                      # (the presenter key too: option, file or environment)
        check_port(args.host, port)
        reading = readings_mod.from_query(args.reading)
        t0 = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(1) as ex:   # the GL probe while the scene loads
            gl = ex.submit(check_gl)
            out_dir = Path(tempfile.mkdtemp(prefix=f"xiangsheli-app-{os.getpid()}-"))   # exports; removed at exit
            atexit.register(shutil.rmtree, out_dir, True)
            key = args.presenter_key or live_mod.new_key()      # check_args read the file or the environment
            service = Service(out_dir, reading, key)
            if not service.ready:       # a first start: the build starts now, not after the probe and the server
                building = _in_background(service.prepare)
                # a stop (kill, a launcher) meanwhile exits at once, its workers killed (default again once built)
                signal.signal(signal.SIGTERM, lambda *_: _abandon(service, out_dir, 0))
            gl.result()
        build(server, service)
        secret = args.authKey if getattr(args, "authKey", None) not in (None, "", "wslink-secret") else guard.new_secret()
        from .gate import own_names
        guard.install(server, secret, args.allow_origin, on_close=service.left, presenter=service,
                      hosts=own_names(args.host, args.allow_host))
    except (AppError, readings_mod.ReadingError, ValueError, OSError, RuntimeError) as exc:
        print(error_line(guard_short(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 200)),
              file=sys.stderr, flush=True)
        if building is not None and not building.done():    # do not wait for a build nobody will see
            _abandon(service, out_dir, 2)
        return 2
    url = f"http://{args.host}:{port}/"
    if building is None:
        print(f"鄉射禮 app: scene ready in {time.perf_counter() - t0:.1f} s; open {url}  (Ctrl-C stops)\n"
              f"  presenter: {url}?present=1&key={key}", flush=True)
    else:
        # a first start: pages load (trame, Vuetify, three.js: a second or two) while the scene is built;
        # they wait for its pack (app.js) and draw as soon as it is there.  Published whenever a build ran,
        # even one already done by now (a cached rite and a shipped track: a second): the pages' state was
        # made while it ran, without the pack, and only _publish gives it to them (else they wait for ever)
        print(f"鄉射禮 app: building the scene (a first start: the rite, its pack, the font); open {url}  "
              f"(Ctrl-C stops)\n  presenter: {url}?present=1&key={key}", flush=True)
        server.controller.on_server_ready.add_task(lambda **_: _publish(server, service, building, t0))
    os.environ.setdefault("TRAME_DISABLE_V3_WARNING", "1")
    server.start(host=args.host, port=port, timeout=int(args.timeout), open_browser=False,
                 show_connection_info=False)
    if building is not None and not building.done():        # stopped during a first start's build
        _abandon(service, out_dir, 0)
    return 0


def _abandon(service: Service, out_dir: Path, code: int) -> None:
    """Exit now, without waiting for the build (its workers killed; its folders are in packs-tmp, which the
    next start cleans)."""
    service.abandon()
    shutil.rmtree(out_dir, True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    # ``python -m scene.web.app`` used to import this module and exit without a word: it starts the app, as
    # ``xiangsheli`` and ``python app.py`` do (scene.launch)
    from ..launch import main as _launch
    sys.exit(_launch(prog="python -m scene.web.app"))
