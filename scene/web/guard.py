"""The websocket guard: what a hostile tab on the same classroom server can no longer do.

wslink and trame, as they come, accept a websocket from any ``Origin`` with a public default secret
(``wslink-secret``), let an authenticated client claim a 4 GiB message in a 13-byte chunk header, let any
client write any state key (``trame__template_main`` is the page's own template: script in every tab)
and answer a failing trigger with the server's traceback.  :func:`install` closes each of these at the
seams wslink offers, without forking either library:

* **origin** — the handshake of ``/ws`` is refused (403) unless its ``Origin`` is the server's own
  (``http(s)://<Host header>``) or one given with ``--allow-origin``; a client with no ``Origin`` at all
  (a script, not a browser) is let through to the secret check;
* **secret** — made fresh at each start (:func:`new_secret`) and given only inside the page this server
  serves (an inline script puts it where trame's client reads it, ``?secret=``, and trame strips it from the
  address bar); a cross-origin page cannot read our page, so it cannot learn it;
* **size** — a client's pending messages may claim at most :data:`MAX_MESSAGE` bytes in all (a chunk header
  claiming more closes the connection: nothing is allocated); the number of connections is capped;
* **state writes** — only the keys of :data:`WRITABLE` (the page writes none: every per-tab key is
  client-only) are accepted from a client; every other write is dropped, and logged once per key;
* **RPCs** — only the ones the page uses are callable (``application.exit`` is not); a trigger that raises
  answers ``{error: one line}``, never a traceback; unknown triggers and lifecycle names are refused;
* **sockets** (issue 26, :mod:`.sockets`) — each socket writes through its own bounded outbox (a tab that
  does not read is dropped, never waited for); a socket says hello within seconds, and before it has, any
  other message closes it; every message is checked (an object, its depth and size bounded) before wslink
  sees it; a text frame, a malformed message or a flood of calls closes the socket with one log line;
  the sockets of one address are capped (silent ones make room, oldest first);
* **HTTP** (:mod:`.gate`) — the Host allow-list, one spelling per path, the page's CSP and ``nosniff``,
  header timeouts and per-address caps; the page sets a signed session cookie (fairness goes by session).
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from pathlib import Path

log = logging.getLogger("xiangsheli.guard")

#: the most a client's pending messages may claim in all (the page's largest message is a few KB)
MAX_MESSAGE = 256 * 1024
#: before the hello: the hello itself only
PRE_AUTH_MESSAGE = 4096
#: open websockets at once (tabs and viewers)
MAX_CONNECTIONS = 200
#: of those, kept for the presenter's sessions (issue 45: 96 + 96 + 8 sockets of three addresses filled the
#: 200 and the teacher's tab got 503 like everyone's)
RESERVED = 16
#: a tab's calls under way at once (more wait their turn)
MAX_INFLIGHT = 4
#: a tab's calls waiting or under way (a tab that sends more is dropped)
BACKLOG = 64
#: bytes of a tab's calls waiting or under way, as they came (still packed: a call is decoded only when its
#: turn comes, under the limits of :func:`decode`); a tab that sends more is dropped. Issue 45: sixty calls of
#: 234 KB, each decoded at once into a 240 000-element list, held ~1 GB behind four slow ones
QUEUED_BYTES = 1024 * 1024
#: state keys a client may write (none: every per-tab key is client-only and never sent)
WRITABLE: frozenset[str] = frozenset()
#: the RPCs the page calls
ALLOWED_RPC = frozenset({"trame.state.get", "trame.trigger", "trame.state.update", "trame.lifecycle.update",
                         "trame.error.client"})
LIFECYCLES = frozenset({"client_connected", "client_unmounted", "client_exited"})

#: the websocket handlers of this server (to tell one tab something: :func:`tell`)
_handlers: list = []

#: the websocket client id of the message being handled (triggers read it: who asked)
CLIENT: contextvars.ContextVar[str] = contextvars.ContextVar("xsl_client", default="")


class GuardError(ValueError):
    """A refused message (one line)."""


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def short(value, limit: int = 80) -> str:
    """An echoed input: shortened first (linear in ``limit``, whatever the input), then escaped (no control
    characters reach a terminal or a log)."""
    from .quietlog import clean
    return clean(value, limit)


# --------------------------------------------------------------------------- message size
def decode(raw: bytes):
    """A message, decoded with msgpack's own limits (no string, list or map longer than a message may hold:
    :data:`.sockets.MAX_NODES` items), so its decoded size is bounded by its packed size; GuardError (one line)."""
    import msgpack

    from .sockets import MAX_NODES
    try:
        return msgpack.unpackb(raw, max_str_len=MAX_MESSAGE, max_bin_len=MAX_MESSAGE, max_ext_len=0,
                               max_array_len=MAX_NODES, max_map_len=MAX_NODES)
    except Exception as exc:                           # noqa: BLE001  (msgpack's errors: one line)
        raise GuardError(f"a malformed message ({type(exc).__name__})") from None


def bounded_unchunker():
    """wslink's UnChunker with a cap on what all pending messages may claim together, which hands back a
    whole message still packed (bytes): the guard decodes it only when its turn comes (:func:`decode`)."""
    from wslink.chunking import HEADER_LENGTH, UnChunker, _decode_header

    class BoundedUnChunker(UnChunker):
        def __init__(self):
            super().__init__()
            self.max_message_size = PRE_AUTH_MESSAGE

        def set_max_message_size(self, size):          # wslink asks for 4 GiB after the hello
            self.max_message_size = min(int(size), MAX_MESSAGE)

        def process_chunk(self, chunk):
            if len(chunk) < HEADER_LENGTH:
                raise GuardError("a chunk shorter than its header")
            mid, offset, total = _decode_header(chunk[:HEADER_LENGTH])
            pending = self.pending_messages.get(mid)
            if pending is None:
                claimed = sum(len(p["content"]) for p in self.pending_messages.values())
                if total + claimed > self.max_message_size:
                    self.pending_messages = {}
                    raise GuardError(f"a message of {total:,} bytes (the cap is {self.max_message_size:,})")
                pending = self.pending_messages[mid] = {"received_size": 0, "content": bytearray(total)}
            body = chunk[HEADER_LENGTH:]
            if total != len(pending["content"]) or offset < 0 or offset + len(body) > total:
                self.pending_messages = {}
                raise GuardError("a malformed message (a chunk outside its message)")
            pending["content"][offset:offset + len(body)] = body
            pending["received_size"] += len(body)
            if pending["received_size"] < total:
                return None
            del self.pending_messages[mid]
            return bytes(pending["content"])

    return BoundedUnChunker


# --------------------------------------------------------------------------- the page and its secret
def page_html(www: Path, secret: str) -> bytes:
    """trame's index.html with the secret put where its client reads it (``?secret=``, then stripped)."""
    html = (Path(www) / "index.html").read_text(encoding="utf-8")
    inject = ("<script>(function(){var u=new URL(location.href);u.searchParams.set('secret',"
              f"'{secret}');history.replaceState(history.state,'',u.toString());}})();</script>")
    return html.replace("<head>", "<head>" + inject, 1).encode("utf-8")


def tell(client_id: str, state: dict) -> None:
    """Push state keys to one tab only (a tab's RPCs run one after another, so it cannot ask while it waits)."""
    for h in _handlers:
        if client_id in h.connections:
            h.publish("trame.state.topic", state, client_id=client_id)


def origin_ok(request, allowed: frozenset[str]) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True                                   # not a browser: the secret decides
    host = request.headers.get("Host", "")
    own = {f"http://{host}", f"https://{host}"}
    return origin in own or origin in allowed or "*" in allowed


def install(server, secret: str, allowed_origins=(), on_close=None, hosts=frozenset(), presenter=None) -> None:
    """Wire the guard into a trame server before it starts (``on_close(client_id)``: a tab left; ``hosts``:
    the host names the server answers to, :func:`.gate.own_names`; ``presenter``: an object with
    ``key_ok(key)``, ``is_presenter(session)`` and ``add(session)`` — the teacher's sessions, which have
    :data:`RESERVED` sockets of their own)."""
    import aiohttp.web as web
    import wslink.protocol as wsproto
    from trame_server.protocol import CoreServer

    from . import gate, sockets
    CoreServer.authentication_token = secret
    server.cli.set_defaults(authKey=secret, authKeyFile=None)   # trame's start() reads the secret from the CLI
    try:
        server._options["ws_max_msg_size"] = MAX_MESSAGE     # frames of at most this (both ways)
    except (AttributeError, TypeError):
        pass
    wsproto.UnChunker = bounded_unchunker()            # the handler makes one per connection
    allowed = frozenset(allowed_origins)
    sessions = sockets.Sessions(secret)

    def bind(wsserver) -> None:
        www = Path(server._www)
        page = page_html(www, secret)
        gate.install(wsserver.app, frozenset(hosts) or gate.own_names("127.0.0.1"), page.decode("utf-8"))

        async def index(request):
            resp = web.Response(body=page, content_type="text/html", charset="utf-8", headers=dict(gate.PAGE_HEADERS))
            sid = sessions.check(request.cookies.get(sockets.COOKIE))
            if sid is None:
                cookie = sessions.new(str(request.remote))
                sid = sessions.check(cookie)
                resp.set_cookie(sockets.COOKIE, cookie, httponly=True, samesite="Strict", path="/")
            # the presenter address (?present=1&key=…) makes this browser's session the teacher's at once:
            # its sockets may use the reserved ones before it has presented
            key = request.query.get("key")
            if presenter is not None and key and presenter.key_ok(key):
                presenter.add(f"s:{sid}")
            return resp

        async def root(request):
            q = f"?{request.query_string}" if request.query_string else ""
            raise web.HTTPFound(f"index.html{q}")

        wsserver.app.router.add_get("/", root)
        wsserver.app.router.add_get("/index.html", index)
        for handler in wsserver._ws_handlers:
            _guard_handler(handler, allowed, on_close, sessions, secret, presenter)
            _handlers.append(handler)
        problems = check(wsserver)
        if problems:
            import os
            import sys

            from .appargs import error_line
            print(error_line(f"a safeguard did not take ({problems[0]}): this version of wslink, aiohttp or "
                             "trame-server is not the one the guard was written for; refusing to run"),
                  file=sys.stderr, flush=True)
            os._exit(2)

    server.controller.on_server_bind.add(bind)


def check(wsserver) -> list[str]:
    """What of the guard's changes to wslink's, aiohttp's and trame-server's internals did not take (a new
    version may rename what they replace): one line each; the app refuses to run on any (issue 45)."""
    import wslink.protocol as wsproto

    from . import gate
    out = gate.check()
    if not getattr(wsproto.UnChunker, "__name__", "") == "BoundedUnChunker":
        out.append("wslink.protocol.UnChunker is not the bounded one")
    handlers = list(getattr(wsserver, "_ws_handlers", None) or [])
    if not handlers:
        out.append("wslink's server has no websocket handlers (_ws_handlers)")
    routes = {getattr(r, "_handler", None) for r in wsserver.app.router.routes()}
    for h in handlers:
        for name in ("handleWsRequest", "onConnect", "onMessage", "onCompleteMessage", "onClose",
                     "validateToken", "sendWrappedMessage", "sendWrappedError"):
            if name not in vars(h):
                out.append(f"wslink's handler kept its own {name}")
        if vars(h).get("handleWsRequest") not in routes:
            out.append("the websocket route does not go through the guard")
        if not set(getattr(h, "functionMap", {})) <= ALLOWED_RPC:
            out.append("wslink's RPC map has more than the page's calls")
    return out


def _guard_handler(handler, allowed, tab_left, sessions, handler_secret: str, presenter=None) -> None:
    import aiohttp.web as web

    from . import sockets
    from .quietlog import note
    plain_ws = handler.handleWsRequest
    plain_complete = handler.onCompleteMessage
    plain_connect = handler.onConnect
    plain_close = handler.onClose
    sockets.install_outboxes(handler)

    def pending(addr=None):
        return [c for c in list(handler.connections) if c not in handler.authentified_client_ids
                and (addr is None or sockets.address_of(c) == addr)]

    async def ws_request(request):
        if not origin_ok(request, allowed):
            note("origin", "refused a websocket from origin %s", request.headers.get("Origin"))
            return web.Response(status=403, text="origin not allowed")
        addr = str(request.remote)
        mine = [c for c in list(handler.connections) if sockets.address_of(c) == addr]
        waiting = sorted((c for c in mine if c not in handler.authentified_client_ids),
                         key=lambda c: sockets.peers[c].opened if c in sockets.peers else 0)
        extra = max(len(waiting) - sockets.PENDING_PER_ADDRESS + 1, len(mine) - sockets.SOCKETS_PER_ADDRESS + 1, 0)
        if extra > len(waiting):
            note("sockets", "refused a websocket of %s: %d open", addr, len(mine))
            return web.Response(status=429, text="too many connections from this address")
        for c in waiting[:extra]:
            sockets.drop(c)                               # the oldest silent sockets make room
        sid = sessions.check(request.cookies.get(sockets.COOKIE))
        teacher = presenter is not None and sid is not None and presenter.is_presenter(f"s:{sid}")
        cap = MAX_CONNECTIONS if teacher else MAX_CONNECTIONS - RESERVED
        if len(handler.connections) >= cap:
            silent = sorted(pending(), key=lambda c: sockets.peers[c].opened if c in sockets.peers else 0)
            if not silent:
                note("sockets", "refused a websocket of %s: %d open", addr, len(handler.connections))
                return web.Response(status=503, text="too many connections")
            sockets.drop(silent[0])
        return await plain_ws(request)

    async def on_connect(request, client_id):
        sid = sessions.check(request.cookies.get(sockets.COOKIE))
        peer = sockets.Peer(str(request.remote), f"s:{sid}" if sid else f"a:{request.remote}", request.transport)
        peer.outbox = sockets.Outbox(client_id, handler.connections[client_id], sockets.drop)
        sockets.peers[client_id] = peer
        await plain_connect(request, client_id)

        def silent():
            if client_id in handler.connections and client_id not in handler.authentified_client_ids:
                note("hello", "closed a websocket of %s: no hello in %.0f s", peer.address, sockets.HELLO_TIMEOUT)
                sockets.drop(client_id)
        asyncio.get_running_loop().call_later(sockets.HELLO_TIMEOUT, silent)

    async def validate_token(token, client_id=None):
        """The guard's secret, whatever an option said: ``--authKey`` (wslink's) or ``--authKeyFile`` set
        trame's token after the guard did, so the page's secret failed and the public default worked."""
        import hmac
        return isinstance(token, str) and hmac.compare_digest(token.encode("utf-8", "replace"),
                                                              handler_secret.encode("utf-8"))

    def refuse(client_id, why, *args):
        note("refused", "closed a websocket of %s: " + why, sockets.address_of(client_id), *args)
        sockets.drop(client_id)

    async def dispatch(full, client_id):
        try:
            with handler.network_monitor:
                await on_complete(full, client_id)
        except (KeyError, ConnectionError, asyncio.CancelledError):   # the tab left while its call ran
            pass
        except Exception as exc:                      # noqa: BLE001  (never a traceback: one line)
            refuse(client_id, "%s", f"{type(exc).__name__}: {exc}")

    async def on_complete(rpc, client_id):
        problem = sockets.rpc_problem(rpc)
        if problem is not None:
            refuse(client_id, "%s", problem)
            return
        if client_id not in handler.authentified_client_ids:
            if rpc["method"] != "wslink.hello" or not rpc["id"].startswith("system:"):
                refuse(client_id, "%s before its hello", rpc["method"])
                return
            await plain_complete(rpc, client_id)
            if client_id not in handler.authentified_client_ids:
                note("secret", "a websocket of %s gave a wrong secret", sockets.address_of(client_id))
                asyncio.get_running_loop().call_later(0.5, sockets.drop, client_id)
            return
        await plain_complete(rpc, client_id)

    inflight: dict[str, list] = {}

    async def on_message(is_binary, msg, client_id):
        """An authenticated tab's calls run beside its socket's reader (wslink awaits each one before it reads
        the next message), so a tab that leaves mid-export is seen at once: at most MAX_INFLIGHT run at a
        time, BACKLOG wait; a tab that sends more is dropped. A text frame closes the socket (one line)."""
        import aiohttp
        if msg.type != aiohttp.WSMsgType.BINARY:
            refuse(client_id, "a %s frame of %d bytes", msg.type.name.lower(), len(msg.data or b""))
            return
        try:
            raw = handler.unchunkers[client_id].process_chunk(msg.data)
            if raw is not None and client_id not in handler.authentified_client_ids:
                await dispatch(decode(raw), client_id)    # the hello, in order
                return
        except GuardError as exc:
            refuse(client_id, "%s", str(exc))
            return
        except KeyError:                                  # closed meanwhile
            return
        if raw is None:
            return
        # [its turn, calls waiting or under way, their packed bytes]
        mine = inflight.setdefault(client_id, [asyncio.Semaphore(MAX_INFLIGHT), 0, 0])
        if mine[1] >= BACKLOG or mine[2] + len(raw) > QUEUED_BYTES:
            refuse(client_id, "%d calls of %d bytes waiting", mine[1], mine[2] + len(raw))
            return
        mine[1] += 1
        mine[2] += len(raw)

        async def run():
            try:
                async with mine[0]:
                    try:
                        full = decode(raw)
                    except GuardError as exc:
                        refuse(client_id, "%s", str(exc))
                        return
                    await dispatch(full, client_id)
            finally:
                mine[1] -= 1
                mine[2] -= len(raw)
        asyncio.ensure_future(run())

    async def on_close(client_id):
        inflight.pop(client_id, None)
        peer = sockets.peers.pop(client_id, None)
        if peer is not None and peer.outbox is not None:
            peer.outbox.dead = True
        try:
            await plain_close(client_id)
        except KeyError:
            pass
        if tab_left is not None:
            tab_left(client_id)

    handler.handleWsRequest = ws_request
    handler.onConnect = on_connect
    handler.onMessage = on_message
    handler.onCompleteMessage = on_complete
    handler.onClose = on_close
    handler.validateToken = validate_token
    # the route was registered with the bound method: point it at the guarded one
    for route in list(handler.web_app.app.router.routes()):
        if getattr(route.handler, "__func__", None) is type(handler).handleWsRequest and \
                getattr(route.handler, "__self__", None) is handler:
            route._handler = ws_request
    _guard_rpcs(handler)


def _one_line(name: str, exc: BaseException) -> dict:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return {"error": f"{name}: {short(text, 120)}"}


def _safe(name: str, fn):
    """Any arguments, any failure: one line back, never the traceback (wslink would send it)."""
    async def call(self, *args, **kwargs):
        try:
            out = fn(self, *args, **kwargs)
            if hasattr(out, "__await__"):
                out = await out
            return out
        except TypeError as exc:
            return _one_line(name, TypeError(f"wrong arguments ({exc})"))
        except Exception as exc:
            from .quietlog import note
            note("rpc", "%s failed: %s", name, str(exc))
            return _one_line(name, exc)
    return call


def _guard_rpcs(handler) -> None:
    fmap = handler.functionMap
    for name in list(fmap):
        if name not in ALLOWED_RPC:
            del fmap[name]                               # "Unregistered method called"
    refused: set[str] = set()

    obj, update = fmap["trame.state.update"]

    def state_update(self, changes=None):
        if not isinstance(changes, list):
            return None
        ok = []
        for ch in changes[:64]:
            key = ch.get("key") if isinstance(ch, dict) else None
            if isinstance(key, str) and key in WRITABLE:
                ok.append(ch)
            elif isinstance(key, str) and key not in refused and len(refused) < 256:
                refused.add(key)
                log.warning("refused a client's write of state key %s", short(key, 60))
        return update(self, ok) if ok else None

    obj, trigger = fmap["trame.trigger"]

    async def guarded_trigger(self, name=None, args=None, kwargs=None):
        CLIENT.set(str(handler.web_app.last_active_client_id or ""))
        fn = self.server.controller.trigger_fn(name) if isinstance(name, str) and len(name) < 100 else None
        if not fn:
            return {"error": f"unknown trigger {short(name, 40)}"}
        if not isinstance(args if args is not None else [], list) or \
                not isinstance(kwargs if kwargs is not None else {}, dict):
            return {"error": f"{name}: bad trigger arguments"}
        return await trigger(self, name, args or [], kwargs or {})

    obj, life = fmap["trame.lifecycle.update"]

    def lifecycle(self, name=None):
        return life(self, name) if name in LIFECYCLES else None

    def client_error(self, message=None):
        from .quietlog import note
        note("page", "a page reported: %s", message, level=logging.INFO)

    for name, fn in (("trame.state.update", state_update), ("trame.trigger", guarded_trigger),
                     ("trame.lifecycle.update", lifecycle), ("trame.error.client", client_error),
                     ("trame.state.get", fmap["trame.state.get"][1])):
        fmap[name] = (fmap[name][0], _safe(name, fn))
