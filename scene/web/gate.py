"""The HTTP gate of the classroom server (issue 26): what a request must be before any handler sees it.

wslink's aiohttp app answers any ``Host`` (a page served as ``http://attacker.example:PORT/`` that resolves to
this server — DNS rebinding — would read our page and its secret), serves trame's unguarded ``index.html``
under other spellings (``/./index.html``, ``/index.html/``), sends no ``Content-Security-Policy`` or
``nosniff``, keeps a half-sent request open forever and logs a malformed request with its traceback.
:func:`install` closes each at aiohttp's own seams:

* **host** — a request (the websocket's upgrade too) whose ``Host`` is not an address literal, ``localhost``,
  this machine's name, the name the server was started for or one given with ``--allow-host`` is refused
  (403) before any handler: the page, and so its secret, is never served to another host name;
* **paths** — only the page's own spelling serves it; a path with ``.``/``..``/empty segments, an encoded
  ``.`` or ``/``, a trailing ``/`` or a name ``index.html`` anywhere else is 404; only GET and HEAD, no body;
* **headers** — ``nosniff`` on every answer; the page (any HTML) with its CSP (inline scripts by hash only,
  ``connect-src`` this server), no framing, no referrer, no store;
* **connections** — a connection with no request under way (idle, or still sending its request line and
  headers) for :data:`HEADER_TIMEOUT` s is closed; one address may hold :data:`IDLE_PER_ADDRESS` such connections
  (a newer one closes its oldest, once that one had :data:`IDLE_GRACE` s to speak) and :data:`CONNS_PER_ADDRESS`
  in all. A response still being *sent* is under way, never idle (issue 45: the sweep used to abort packs
  mid-``sendfile``); a reader that takes nothing for :data:`SEND_STALL` s is closed — progress, not age, so a slow
  link gets its 4 MB pack however long it takes;
* **files** — static files and packs go out through the transport in chunks (aiohttp's own fallback, not the
  kernel's ``sendfile``): a stalled reader is seen (its write buffer does not move) and its file is closed when
  its connection is (an abort mid-``sendfile`` left asyncio's sendfile waiting for ever, its file open);
* **log** — aiohttp's own error lines become one short escaped line each, rate limited (:mod:`.quietlog`).
"""
from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import socket
import time

from .quietlog import note

#: seconds a connection may spend outside a handler (sending its headers, or idle between requests)
HEADER_TIMEOUT = 10.0
#: connections of one address outside a handler at once (a newer one closes the oldest)
IDLE_PER_ADDRESS = 24
#: connections of one address in all (websockets included; more are closed at once)
CONNS_PER_ADDRESS = 160
#: seconds a new connection has to send its request before a newer one may close it to make room
IDLE_GRACE = 1.0
#: bytes of a file read and written at a time (aiohttp's 256 KB, held for each stalled reader, was 620 MB of
#: memory for a thousand of them)
SEND_CHUNK = 16 * 1024
#: seconds a response may wait for its reader to take a byte (what waits to go unchanged) before it is closed
SEND_STALL = 20.0

#: the entry of a connection: [address, since, busy (inside the gate's handler), write buffer seen, its time]
ADDR, SINCE, BUSY, BUF, MOVED = range(5)

#: every live connection: protocol → [address, since (monotonic), busy, write buffer, moved (monotonic)]
_conns: dict = {}
_sweeper = None


# --------------------------------------------------------------------------- host names
def own_names(host: str, extra=()) -> frozenset[str]:
    """The host names this server answers to: localhost, this machine's names, the --host name, --allow-host."""
    names = {"localhost", "localhost.localdomain"}
    me = socket.gethostname()
    for n in (me, f"{me.split('.')[0]}.local", socket.getfqdn(), host, *extra):     # .local: mDNS
        if n:
            names.add(n.strip().lower().rstrip("."))
    return frozenset(names)


def host_ok(header: str | None, names: frozenset[str]) -> bool:
    """A Host header naming an address (a literal cannot be rebound) or one of our names."""
    if not header or len(header) > 300:
        return False
    h = header.strip().lower()
    if h.startswith("["):                                   # [v6]:port
        end = h.find("]")
        if end < 0:
            return False
        name = h[1:end]
    else:
        name = h.rsplit(":", 1)[0] if h.count(":") == 1 else h
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name.rstrip(".") in names or "*" in names


# --------------------------------------------------------------------------- paths and headers
_BAD_PATH = re.compile(r"(^|/)\.{1,2}(/|$)|//|%2e|%2f|%5c|\\", re.IGNORECASE)


def path_ok(raw_path: str, path: str) -> bool:
    """Only one spelling of each file: no dot segments, empty segments, encoded dots or slashes, no trailing
    slash but the root's, and ``index.html`` nowhere but at ``/index.html``."""
    raw = raw_path.split("?", 1)[0]
    if len(raw) > 2000 or _BAD_PATH.search(raw) or _BAD_PATH.search(path):
        return False
    if path != "/" and path.endswith("/"):
        return False
    return path == "/index.html" or path.rsplit("/", 1)[-1].lower() != "index.html"


def script_hashes(html: str) -> list[str]:
    """The CSP hashes of a page's inline scripts (their text exactly as the browser sees it)."""
    out = []
    for m in re.finditer(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.DOTALL | re.IGNORECASE):
        digest = hashlib.sha256(m.group(1).encode("utf-8")).digest()
        out.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return out


def csp(hashes: list[str]) -> str:
    """The page's policy. Vue compiles trame's templates at run time (``new Function``): 'unsafe-eval' is
    needed, inline script is not (hashed). Vuetify sets inline styles. connect-src: this server only."""
    return ("default-src 'self'; "
            f"script-src 'self' 'unsafe-eval' {' '.join(hashes)}; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
            "connect-src 'self'; worker-src 'self' blob:; media-src 'self' blob: data:; "
            "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'none'")


PAGE_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def middleware(names: frozenset[str], policy: str):
    import aiohttp.web as web
    from aiohttp.web_fileresponse import FileResponse

    @web.middleware
    async def gate(request, handler):
        if not host_ok(request.headers.get("Host"), names):
            note("host", "refused a request for host %s from %s", request.headers.get("Host"), request.remote)
            return _close(web.Response(status=403, text="host not allowed"))
        if request.method not in ("GET", "HEAD"):
            return _close(web.Response(status=405, text="method not allowed"))
        if request.body_exists or (request.content_length or 0) > 0:
            return _close(web.Response(status=413, text="no request bodies here"))
        if not path_ok(request.raw_path, request.path):
            return _headers(web.Response(status=404, text="not found"), policy)
        entry = _conns.get(request.protocol)
        if entry is not None:
            entry[BUSY] = True
        try:
            resp = await handler(request)
        except web.HTTPException as exc:
            resp = exc
            if resp.status < 400:
                raise _headers(resp, policy) from None
            return _headers(web.Response(status=resp.status, text=resp.reason or "error"), policy)
        finally:
            if entry is not None:
                entry[SINCE], entry[BUSY] = time.monotonic(), False
        if isinstance(resp, FileResponse):
            resp._chunk_size = min(resp._chunk_size, SEND_CHUNK)
            if resp._path.suffix.lower() in (".html", ".htm"):
                # a served page (the review pages, an exported sheet): its content type is known only once
                # it is sent, so the page's headers were missing; its own inline scripts by hash (issue 45)
                return _file_page_headers(resp)
        return _headers(resp, policy)

    return gate


_file_policies: dict[tuple[str, int, int], str] = {}


def _file_page_headers(resp):
    """An HTML file's answer with the page's headers: CSP (its own inline scripts by hash), no framing, no
    referrer, nosniff. The policy is cached per (path, size, mtime): a page is hashed once, not per request."""
    try:
        st = resp._path.stat()
        key = (str(resp._path), st.st_size, st.st_mtime_ns)
        pol = _file_policies.get(key)
        if pol is None:
            text = resp._path.read_text(encoding="utf-8", errors="replace") if st.st_size < 4 << 20 else ""
            if len(_file_policies) > 512:
                _file_policies.clear()
            pol = _file_policies[key] = csp(script_hashes(text))
    except OSError:
        pol = csp([])
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Content-Security-Policy"] = pol
    for k, v in PAGE_HEADERS.items():
        if k != "Cache-Control":             # a file keeps aiohttp's validators (ETag, Last-Modified)
            resp.headers[k] = v
    return resp


def _close(resp):
    resp.force_close()
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


def _headers(resp, policy: str):
    if getattr(resp, "prepared", False):
        return resp
    resp.headers["X-Content-Type-Options"] = "nosniff"
    if (resp.content_type or "").startswith("text/html"):
        resp.headers["Content-Security-Policy"] = policy
        for k, v in PAGE_HEADERS.items():
            resp.headers[k] = v
    return resp


# --------------------------------------------------------------------------- connections
def _address(transport) -> str:
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"


def _busy(proto, entry) -> bool:
    """A request under way: inside a handler, or its response still being sent (aiohttp sets
    ``_request_in_progress`` until ``finish_response`` is done; :func:`check` verifies it exists)."""
    return bool(entry[BUSY] or getattr(proto, "_request_in_progress", False))


def _patch_server() -> None:
    import aiohttp.web_fileresponse as wf
    import aiohttp.web_server as ws
    # files in chunks through the transport: its write buffer shows a stalled reader, and a lost connection
    # fails the next write, so the file is closed (aiohttp's own path when sendfile is unavailable)
    wf.NOSENDFILE = True
    if getattr(ws.Server, "_xsl_gated", False):
        return
    made, lost = ws.Server.connection_made, ws.Server.connection_lost

    def connection_made(self, handler, transport):
        made(self, handler, transport)
        addr = _address(transport)
        now = time.monotonic()
        mine = [(p, e) for p, e in _conns.items() if e[ADDR] == addr]
        idle = [e for p, e in mine if not _busy(p, e)]
        if len(idle) >= IDLE_PER_ADDRESS or len(mine) >= CONNS_PER_ADDRESS:
            # the oldest connection that had IDLE_GRACE s to send its request and did not makes room (not a
            # young one: forty tabs opening at once are young together, and their requests are on the way)
            # — unless the address is at its cap: then the oldest idle one, however young
            old = sorted((e[SINCE], id(p), p) for p, e in mine
                         if not _busy(p, e) and (now - e[SINCE] > IDLE_GRACE or len(mine) >= CONNS_PER_ADDRESS))
            if old:
                _drop(old[0][2])
            elif len(mine) >= CONNS_PER_ADDRESS:
                note("conns", "closed a connection of %s: %d open already", addr, len(mine))
                transport.abort()
                return
        _conns[handler] = [addr, now, False, 0, now]
        _sweep_soon()

    def connection_lost(self, handler, exc=None):
        _conns.pop(handler, None)
        lost(self, handler, exc)

    ws.Server.connection_made = connection_made
    ws.Server.connection_lost = connection_lost
    ws.Server._xsl_gated = True


def _drop(proto) -> None:
    _conns.pop(proto, None)
    tr = getattr(proto, "transport", None)
    if tr is not None:
        tr.abort()


def _sweep_soon() -> None:
    global _sweeper
    if _sweeper is None:
        import asyncio
        _sweeper = asyncio.get_running_loop().call_later(1.0, _sweep)


def _unsent(tr) -> int:
    """Bytes of a connection's answer not yet taken by its reader: the transport's buffer and the kernel's send
    queue. The kernel's counts too: its send buffer grows to megabytes and the socket is writable again only
    when a third of it is free, so on a slow link the transport's buffer alone stands still for tens of
    seconds while the reader takes every byte (Linux ``SIOCOUTQ``; elsewhere the transport's buffer only)."""
    if tr is None:
        return 0
    try:
        n = tr.get_write_buffer_size()
        sock = tr.get_extra_info("socket")
        if sock is not None and _OUTQ is not None:
            import fcntl
            import struct
            n += struct.unpack("i", fcntl.ioctl(sock.fileno(), _OUTQ, b"\0\0\0\0"))[0]
        return n
    except Exception:                          # noqa: BLE001  (a transport closing meanwhile)
        return 0


try:                                           # SIOCOUTQ is TIOCOUTQ on Linux
    import termios
    _OUTQ: int | None = termios.TIOCOUTQ
except (ImportError, AttributeError):
    _OUTQ = None


def _sweep() -> None:
    """Close connections with no request under way for longer than HEADER_TIMEOUT (slowloris, forgotten
    keep-alives), and those whose reader took nothing of their response for SEND_STALL s."""
    global _sweeper
    _sweeper = None
    now = time.monotonic()
    late, stalled = [], []
    for p, e in _conns.items():
        buf = _unsent(getattr(p, "transport", None))
        # the end of a response still on its way (the handler is done, its last bytes wait in the transport or the
        # kernel's queue for a slow reader) is not idle either: closing it then cut the file's tail
        if not _busy(p, e) and buf == 0:
            if now - e[SINCE] > HEADER_TIMEOUT:
                late.append(p)
            continue
        e[SINCE] = now                        # idle, when it is, from the end of its response
        # progress: what is waiting to go moved (the reader took some, or the writer added some). A handler at
        # work (an export) has nothing waiting and is not a stalled reader.
        if buf != e[BUF] or buf == 0:
            e[BUF], e[MOVED] = buf, now
        elif now - e[MOVED] > SEND_STALL:
            stalled.append(p)
    for p in late + stalled:
        _drop(p)
    if late:
        note("slow", "closed %d connections that sent no complete request in %.0f s", len(late), HEADER_TIMEOUT)
    if stalled:
        note("stall", "closed %d connections that read nothing of their answer in %.0f s", len(stalled), SEND_STALL)
    if _conns:
        _sweep_soon()


def check() -> list[str]:
    """What of the gate's changes to aiohttp did not take (one line each; :func:`.guard.check`)."""
    import aiohttp.web_fileresponse as wf
    import aiohttp.web_protocol as wp
    import aiohttp.web_server as ws
    out = []
    if not getattr(ws.Server, "_xsl_gated", False):
        out.append("aiohttp's Server does not count connections through the gate")
    if "_request_in_progress" not in getattr(wp.RequestHandler, "__slots__", ()):
        out.append("aiohttp's RequestHandler has no _request_in_progress (a response being sent would be idle)")
    if getattr(wf, "NOSENDFILE", None) is not True:
        out.append("aiohttp's FileResponse still uses sendfile")
    fallback = getattr(getattr(wf.FileResponse, "_sendfile_fallback", None), "__code__", None)
    if fallback is None or "_chunk_size" not in fallback.co_names:
        out.append("aiohttp's FileResponse does not send in _chunk_size pieces")
    return out


def install(app, names: frozenset[str], page_html: str) -> None:
    """Wire the gate into wslink's aiohttp app (before it starts)."""
    import logging

    from .quietlog import OneLine
    _patch_server()
    app.middlewares.insert(0, middleware(names, csp(script_hashes(page_html))))
    for name in ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "wslink.protocol",
                 "wslink.backends.aiohttp", "asyncio"):
        lg = logging.getLogger(name)
        if not any(isinstance(f, OneLine) for f in lg.filters):
            lg.addFilter(OneLine())
