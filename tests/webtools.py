"""Helpers for the browser tests and benches: a real headless Chromium (Mesa llvmpipe through
ANGLE/EGL, no GPU), a local static server, a recorder of requests that leave the machine, and
pixel helpers (screenshots as numpy arrays).

Used as pytest fixtures from tests (``from webtools import *`` in a test module's namespace, or
the plain functions from bench/).
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import io
import os
import shutil
import socketserver
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlparse

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "assets" / "web"
CHROMIUM = os.environ.get("XIANGSHELI_CHROMIUM", "/usr/bin/chromium")

#: Chromium as the player is measured: headless (new), ANGLE on EGL → Mesa llvmpipe (SwiftShader,
#: Chromium's own software GL, is slower), and nothing that calls home.
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--use-gl=angle", "--use-angle=gl-egl", "--ignore-gpu-blocklist",
    "--disable-background-networking", "--disable-component-update", "--no-first-run",
    "--disable-default-apps", "--disable-sync", "--metrics-recording-only", "--no-default-browser-check",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
]
#: what a pytest session adds (:data:`SESSION`): the page composited in software, the WebGL picture still
#: drawn by ANGLE on llvmpipe.  GPU compositing on llvmpipe only draws each frame of the page through the software
#: rasteriser a second time — measured here on the app at 1600×900: a page load 3.53 → 2.93 s of Chromium's CPU,
#: and 3 s of play 105 → 175 frames for 8.3 → 6.9 s of CPU.  (Chrome's GPU blocklist lists compositing and WebGL
#: apart: a browser can composite in software and still draw WebGL.)  The benches (bench/) keep CHROMIUM_ARGS
#: alone: the player's figures were measured so.
TEST_ARGS = ["--disable-gpu-compositing"]
#: what a browser without WebGL adds (a school browser whose GPU is blocklisted), with the blocklist obeyed
NO_WEBGL_ARGS = ["--disable-webgl", "--disable-3d-apis"]
#: in a pytest session (tests/conftest.py sets it): one Chromium shared by the session's tests, launched with
#: TEST_ARGS; outside one (the benches), a Chromium of its own per block, with CHROMIUM_ARGS alone
SESSION = False


def launch_args(webgl: bool = True) -> list[str]:
    """The flags a browser of these tests is launched with: CHROMIUM_ARGS (without WebGL: NO_WEBGL_ARGS in place
    of ignoring the GPU blocklist), and TEST_ARGS in a pytest session."""
    base = CHROMIUM_ARGS if webgl else [a for a in CHROMIUM_ARGS if a != "--ignore-gpu-blocklist"] + NO_WEBGL_ARGS
    return [*base, *(TEST_ARGS if SESSION else [])]


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium; the test command installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is missing: the extra [test] (pip install -c constraints.txt -e '.[test]')"
    return None


#: the pytest session's one Chromium (closed by tests/conftest.py at the end)
_shared: dict = {}


def shared_browser():
    """The session's Chromium, launched on first use (main thread only: Playwright's sync objects stay in
    the thread that made them)."""
    if "browser" not in _shared:
        from playwright.sync_api import sync_playwright
        pw = sync_playwright().start()
        _shared["pw"] = pw
        _shared["browser"] = pw.chromium.launch(executable_path=CHROMIUM, headless=False, args=launch_args())
    return _shared["browser"]


def close_shared() -> None:
    b, pw = _shared.pop("browser", None), _shared.pop("pw", None)
    if b is not None:
        b.close()
    if pw is not None:
        pw.stop()


@contextlib.contextmanager
def chromium():
    """A Playwright Chromium browser (sync API), closed on exit — or, in a pytest session, the session's one
    Chromium, whose pages and contexts opened inside the block are closed on exit (each test starts clean)."""
    if SESSION and threading.current_thread() is threading.main_thread():
        b = shared_browser()
        before = set(b.contexts)
        try:
            yield b
        finally:
            for ctx in b.contexts:
                if ctx not in before:
                    ctx.close()
        return
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=False, args=launch_args())
        try:
            yield browser
        finally:
            browser.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json",
                      ".bin": "application/octet-stream", ".otf": "font/otf", ".woff2": "font/woff2",
                      ".css": "text/css", ".html": "text/html; charset=utf-8"}

    def log_message(self, *args) -> None:       # no request log on stderr
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def machines(browser, n: int, **context_opts):
    """``n`` pages, each in a browser context of its own: a window each, as the presenter and the followers of a
    class each have a machine.  Two pages of one context are two tabs of one window, and Chromium gives the
    tab behind animation frames about once a second (measured: 2 s for two) — a presenter's click that waits
    for the page to be stable then waits on that, once the pages stop redrawing when nothing moves."""
    contexts = [browser.new_context(**context_opts) for _ in range(n)]
    try:
        yield [c.new_page() for c in contexts]
    finally:
        for c in contexts:
            c.close()


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


@contextlib.contextmanager
def static_server(root: Path):
    """Serve ``root`` on 127.0.0.1 (a free port); yields the base URL ('http://127.0.0.1:PORT/')."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    srv = _Server(("127.0.0.1", 0), handler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()


@contextlib.contextmanager
def site(pack_dir: Path, web_dir: Path = WEB):
    """A temporary document root: the player's files (assets/web, linked) and the pack at pack/.
    Yields (root, base_url); the page is base_url + 'player.html'."""
    tmp = Path(tempfile.mkdtemp(prefix="xsl-site-"))
    try:
        for entry in web_dir.iterdir():
            (tmp / entry.name).symlink_to(entry)
        (tmp / "pack").symlink_to(Path(pack_dir).resolve())
        with static_server(tmp) as url:
            yield tmp, url
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class RequestRecorder:
    """Records every request a page makes; ``foreign`` lists those that leave the machine."""

    LOCAL = {"127.0.0.1", "localhost", "::1", "[::1]"}

    def __init__(self, page) -> None:
        self.urls: list[str] = []
        page.on("request", lambda req: self.urls.append(req.url))

    @property
    def foreign(self) -> list[str]:
        out = []
        for u in self.urls:
            p = urlparse(u)
            if p.scheme in ("data", "blob", "about", "chrome", "devtools"):
                continue
            if p.hostname not in self.LOCAL:
                out.append(u)
        return out


def screenshot(page, clip: dict | None = None) -> np.ndarray:
    """The page (or a clip {x, y, width, height}) as an (h, w, 3) uint8 array."""
    from PIL import Image
    png = page.screenshot(clip=clip) if clip else page.screenshot()
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def save_png(img: np.ndarray, path: Path) -> None:
    from PIL import Image
    Image.fromarray(img).save(path)


def background_fraction(img: np.ndarray, tol: int = 6) -> float:
    """The share of pixels that have the most common colour (± tol)."""
    flat = img.reshape(-1, 3).astype(np.int16)
    colours, counts = np.unique(flat, axis=0, return_counts=True)
    bg = colours[counts.argmax()]
    near = np.all(np.abs(flat - bg) <= tol, axis=1)
    return float(near.mean())


def ink(img: np.ndarray, background=None, tol: int = 40) -> int:
    """How many pixels differ from the background colour (default: the most common one) by > tol."""
    flat = img.reshape(-1, 3).astype(np.int16)
    if background is None:
        colours, counts = np.unique(flat, axis=0, return_counts=True)
        background = colours[counts.argmax()]
    d = np.abs(flat - np.asarray(background, dtype=np.int16)).sum(axis=1)
    return int((d > tol).sum())


def diff_fraction(a: np.ndarray, b: np.ndarray, tol: int = 24) -> float:
    """The share of pixels whose colours differ by more than tol (sum over channels)."""
    assert a.shape == b.shape, (a.shape, b.shape)
    d = np.abs(a.astype(np.int16) - b.astype(np.int16)).sum(axis=2)
    return float((d > tol).mean())


def distinct_colours(img: np.ndarray) -> int:
    return int(len(np.unique(img.reshape(-1, 3), axis=0)))


# ---------------------------------------------------------------------------
# the app (python app.py) as a subprocess, for tests and benches

#: the app's page is ready: trame connected and the player drew its first pose
#: the one other reading the browser tests load (the 乏 五步 west of the 左个, not of the 侯道: the reading panel's
#: choice test_app clicks, so also the spec the app writes): its pack is a whole build (a compiled rite, the
#: director's track), made once in the suite's cache and read by every later test — with a reading of their
#: own, test_app, test_clicker and test_player built three (~25 s of both cores each here)
OTHER_READING = "zheng,fa_west_from=左个"

READY = "window.trame && window.trame.state && window.trame.state.get('ready') === true"


def plays(browser, url: str) -> None:
    """The app's page at ``url`` comes up ready and plays: Space, and its time moves on by half a second."""
    ctx = browser.new_context(viewport={"width": 960, "height": 540})
    try:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=120000)
        t0 = page.evaluate("window.trame.state.get('t')")
        page.keyboard.press("Space")                              # play
        page.wait_for_function(f"window.trame.state.get('t') > {t0} + 0.5", timeout=60000)
    finally:
        ctx.close()


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(port: int, *extra: str, timeout: float = 240.0):
    """``python app.py --port PORT`` started, past its 'open http://' line and its scene ready (a first
    start prints the address first and 'scene ready in' when its build is done); returns the Popen."""
    import subprocess
    import sys
    import time
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port), *extra], cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + timeout
    lines = []
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "open http://" in line:
            while "scene ready in" not in line and time.time() < deadline:    # a first start builds
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line)
            if "scene ready in" not in line:
                break
            # keep reading its output so a chatty server never blocks on a full pipe
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
            import socket
            while time.time() < deadline:          # the line comes just before the server binds
                try:
                    socket.create_connection(("127.0.0.1", port), 0.5).close()
                    return proc
                except OSError:
                    if proc.poll() is not None:
                        break
                    time.sleep(0.1)
            break
    proc.kill()
    raise RuntimeError("the app did not start:\n" + "".join(lines))


def rss_mb(pid: int) -> float:
    """Resident memory of a process (Linux /proc), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextlib.contextmanager
def app_on_free_port(*args: str):
    """The app started on a free port with ``args``; yields the port, stops the app after."""
    port = free_port()
    proc = start_app(port, *args)
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


class LoggedApp:
    """An app started by :func:`logged_app`: its port, its process and the file its output goes to."""

    def __init__(self, port: int, proc, log: Path) -> None:
        self.port, self.proc, self.log = port, proc, log

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def launch_logged(port: int, *extra: str, log: Path, timeout: float = 240.0):
    """``python app.py --port PORT *extra``, its output into ``log`` (which the tests read), in a session of its
    own; returns the Popen once the scene is ready and the port answers."""
    import socket
    import subprocess
    import sys
    import time
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    fh = open(log, "w")
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port), *extra], cwd=ROOT, env=env,
                            stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + timeout
    while time.time() < deadline and proc.poll() is None:
        if "scene ready in" in log.read_text(encoding="utf-8", errors="replace"):
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                return proc
            except OSError:
                pass
        time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"the app did not start: {log.read_text()[-2000:]}")


@contextlib.contextmanager
def logged_app(log: Path, *args: str):
    """The app on a free port with ``args``, its output in ``log`` (:func:`launch_logged`); yields a
    :class:`LoggedApp`, stops the app after (killed if it has not stopped in 10 s)."""
    import subprocess
    port = free_port()
    proc = launch_logged(port, *args, log=log)
    try:
        yield LoggedApp(port, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def choose(page, sel: str, value: str) -> None:
    """Pick ``value`` from the page's drop-down ``sel`` as a user does: an <xsl-select> (listbox.js; the player
    has no native select) clicked open, then its option clicked."""
    page.click(sel)
    page.click(f'{sel} [role="option"][data-value="{value}"]')


def choose_vuetify(page, sel: str, text: str) -> None:
    """Pick the item showing ``text`` from the app's Vuetify select whose field has the id ``sel``."""
    page.click(f".v-select:has({sel}) .v-field")
    page.locator(".v-overlay--active .v-list-item", has_text=text).first.click()
