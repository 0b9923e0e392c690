"""The websockets of the classroom server, one by one (issue 26): no tab can hold up another.

wslink sends every message of every tab under one lock (``attachment_atomic``): a tab that stops reading its
socket stalls every other tab's answers. Here each socket has its own :class:`Outbox` — a bounded queue and
one writer — and a socket whose outbox overflows, or whose writes stall for :data:`STALL` s, is dropped
(its transport aborted), never waited for. A socket must say hello within :data:`HELLO_TIMEOUT` s; before
it has, anything else closes it. Each socket knows its address and its **session** (the page's cookie,
signed by the server; without one, its address): fairness, caps and cancellation go by session, not socket.
"""
from __future__ import annotations

import asyncio
import collections
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field

from .quietlog import note

#: bytes a socket's outbox may hold before the socket is dropped (a tab's largest answer is ~100 KB)
OUTBOX_BYTES = 4 * 1024 * 1024
#: seconds one write may wait for the client to read
STALL = 10.0
#: seconds from the upgrade to the hello
HELLO_TIMEOUT = 5.0
#: sockets of one address before their hello (a newer one closes the oldest: a tab says hello at once, so
#: the oldest silent one is a stranger's; 48, as forty tabs of one classroom behind one address open at once)
PENDING_PER_ADDRESS = 48
#: sockets of one address in all (at the cap, a silent one of that address makes room, else 429)
SOCKETS_PER_ADDRESS = 96
#: the session cookie's name
COOKIE = "xsl_session"
#: sessions one address may be given in SESSION_WINDOW s (a classroom behind one NAT address: forty
#: browsers); past it, a page without a cookie shares one of that address's sessions (issue 45: every page
#: load without a cookie minted one, so a script's tabs were as many "people" as it liked)
SESSIONS_PER_ADDRESS = 48
SESSION_WINDOW = 3600.0


@dataclass
class Peer:
    address: str
    session: str
    transport: object
    opened: float = field(default_factory=time.monotonic)
    outbox: Outbox | None = None


#: client id → its peer (every handler of this process)
peers: dict[str, Peer] = {}


def session_of(client_id: str) -> str:
    p = peers.get(client_id)
    return p.session if p is not None else f"socket:{client_id}"


def address_of(client_id: str) -> str:
    p = peers.get(client_id)
    return p.address if p is not None else "?"


# --------------------------------------------------------------------------- the session cookie
class Sessions:
    """Session ids signed with the server's secret: a forged or stale cookie counts as none."""

    def __init__(self, secret: str) -> None:
        self.key = hashlib.sha256(b"xsl-session:" + secret.encode()).digest()
        self.minted: dict[str, collections.deque] = {}      # address → (when, cookie), oldest first

    def new(self, address: str | None = None) -> str:
        """A new session's cookie — or, for an address that had SESSIONS_PER_ADDRESS in the window, the
        oldest of them again (moved to the end: the next one shares the next oldest)."""
        now = time.monotonic()
        mine = self.minted.get(address) if address is not None else None
        if mine is not None:
            while mine and now - mine[0][0] > SESSION_WINDOW:
                mine.popleft()
            if len(mine) >= SESSIONS_PER_ADDRESS:
                when, cookie = mine.popleft()
                mine.append((when, cookie))
                return cookie
        sid = secrets.token_urlsafe(12)
        cookie = f"{sid}.{self._sign(sid)}"
        if address is not None:
            if len(self.minted) > 4096:
                self.minted.clear()
            self.minted.setdefault(address, collections.deque()).append((now, cookie))
        return cookie

    def _sign(self, sid: str) -> str:
        return hmac.new(self.key, sid.encode(), hashlib.sha256).hexdigest()[:24]

    def check(self, cookie: str | None) -> str | None:
        if not isinstance(cookie, str) or len(cookie) > 80 or "." not in cookie:
            return None
        sid, sig = cookie.rsplit(".", 1)
        return sid if hmac.compare_digest(sig, self._sign(sid)) else None


# --------------------------------------------------------------------------- outboxes
class Outbox:
    """One socket's messages in order, written by one task; overflow or a stalled write drops the socket."""

    def __init__(self, client_id: str, ws, drop) -> None:
        self.client_id, self.ws, self.drop = client_id, ws, drop
        self.q: collections.deque = collections.deque()
        self.bytes = 0
        self.task: asyncio.Task | None = None
        self.dead = False

    def put(self, chunks: list[bytes]) -> None:
        if self.dead:
            return
        n = sum(len(c) for c in chunks)
        if self.bytes + n > OUTBOX_BYTES:
            note("outbox", "dropped a client of %s that does not read (%d bytes waiting)",
                 address_of(self.client_id), self.bytes + n)
            self.close()
            return
        self.q.append((chunks, n))
        self.bytes += n
        if self.task is None:
            self.task = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        try:
            while self.q and not self.dead:
                chunks, n = self.q[0]
                for c in chunks:
                    if self.ws.closed:
                        self.close()
                        return
                    await asyncio.wait_for(self.ws.send_bytes(c), STALL)
                self.q.popleft()
                self.bytes -= n
        except (TimeoutError, ConnectionError, RuntimeError):
            note("outbox", "dropped a client of %s whose writes stalled", address_of(self.client_id))
            self.close()
        finally:
            self.task = None

    def close(self) -> None:
        self.dead = True
        self.q.clear()
        self.bytes = 0
        self.drop(self.client_id)


def drop(client_id: str) -> None:
    """Close a socket at once (its transport aborted: a client that does not read is not waited for)."""
    p = peers.get(client_id)
    tr = p.transport if p is not None else None
    if tr is not None:
        try:
            tr.abort()
        except Exception:          # noqa: BLE001  (already gone)
            pass


def install_outboxes(handler) -> None:
    """Replace wslink's two senders (one global lock) by per-socket outboxes."""
    import msgpack
    from wslink.chunking import generate_chunks
    from wslink.protocol import MAX_MSG_SIZE, RESULT_SERIALIZE_ERROR

    def targets(client_id, skip_last):
        if client_id:
            return [client_id] if client_id in handler.authentified_client_ids or client_id in handler.connections \
                else []
        last = handler.web_app.last_active_client_id if skip_last else None
        return [c for c in list(handler.connections) if c in handler.authentified_client_ids and c != last]

    def enqueue(packed: bytes, ids) -> None:
        chunks = list(generate_chunks(packed, MAX_MSG_SIZE))
        for c in ids:
            p = peers.get(c)
            if p is not None and p.outbox is not None:
                p.outbox.put(chunks)
        handler.network_monitor.network_call_completed()

    async def send_message(rpcid, content, method="", client_id=None, skip_last_active_client=False):
        if client_id and client_id not in handler.authentified_client_ids:
            return
        try:
            packed = msgpack.packb({"wslink": "1.0", "id": rpcid, "result": content})
        except Exception:                                      # noqa: BLE001
            await send_error(rpcid, RESULT_SERIALIZE_ERROR, "Method result cannot be serialized", None, client_id)
            return
        enqueue(packed, targets(client_id, skip_last_active_client))

    async def send_error(rpcid, code, message, data=None, client_id=None):
        wrapper = {"wslink": "1.0", "id": rpcid, "error": {"code": code, "message": str(message)[:200]}}
        packed = msgpack.packb(wrapper)
        enqueue(packed, [client_id] if client_id else targets(None, False))

    handler.sendWrappedMessage = send_message
    handler.sendWrappedError = send_error


# --------------------------------------------------------------------------- messages
MAX_DEPTH = 24
MAX_NODES = 20000
RPC_KEYS = frozenset({"wslink", "id", "method", "args", "kwargs"})


def rpc_problem(rpc) -> str | None:
    """What is wrong with a message before wslink sees it (its secret-stripping copy recurses; it indexes
    ``rpc["method"]`` unchecked): None, or one line. Linear in the message, bounded in depth."""
    if not isinstance(rpc, dict):
        return f"a message that is a {type(rpc).__name__}, not an object"
    if not set(rpc) <= RPC_KEYS:
        return "a message with unknown keys"
    if not isinstance(rpc.get("id"), str) or len(rpc["id"]) > 80:
        return "a message without a proper id"
    if not isinstance(rpc.get("method"), str) or len(rpc["method"]) > 80:
        return "a message without a proper method"
    if not isinstance(rpc.get("args", []), list) or not isinstance(rpc.get("kwargs", {}), dict):
        return "a message whose arguments are not a list and an object"
    stack, nodes = [(rpc, 0)], 0
    while stack:
        v, d = stack.pop()
        nodes += 1
        if d > MAX_DEPTH:
            return f"a message nested deeper than {MAX_DEPTH}"
        if nodes > MAX_NODES:
            return f"a message of more than {MAX_NODES} values"
        if isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, (str, int)):
                    return "a message with a key that is not a string"
                stack.append((x, d + 1))
        elif isinstance(v, (list, tuple)):
            stack.extend((x, d + 1) for x in v)
    return None
