"""A headless classroom viewer: one websocket client of the app, speaking trame's wire protocol.

It connects as a browser tab does (wslink ``hello`` with the secret of the page the server serves, msgpack messages in
wslink chunks), then records every ``xsl_live`` the server pushes — the presenter's stage, time and
camera — with the time it arrived. Thirty of them on one asyncio loop stand in for thirty students'
tabs at the server's end (the browser-side applying is tested with real Chromium tabs).
"""
from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

import msgpack
from wslink.chunking import UnChunker, generate_chunks

SECRET_RE = re.compile(r"searchParams\.set\('secret','([^']+)'\)")


async def page_secret(http, ws_url: str) -> str:
    """The websocket secret, as a tab gets it: from the page the server serves (fresh at each start)."""
    base = ws_url.replace("ws://", "http://", 1).replace("wss://", "https://", 1).rsplit("/ws", 1)[0]
    async with http.get(base + "/index.html") as resp:
        m = SECRET_RE.search(await resp.text())
    return m.group(1) if m else "wslink-secret"


@dataclass
class Viewer:
    """One connected viewer: what it received, when (ms since the epoch), and any error."""

    url: str
    received: list[tuple[float, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    answers: list[dict] = field(default_factory=list)
    states: list[tuple[float, dict]] = field(default_factory=list)
    ws: object = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    _rpc: int = 0

    async def _send(self, ws, method: str, args: list) -> None:
        self._rpc += 1
        msg = msgpack.packb({"wslink": "1.0", "id": f"system:c0:{self._rpc}" if method.startswith("wslink.")
                             else f"rpc:c0:{self._rpc}", "method": method, "args": args, "kwargs": {}})
        for chunk in generate_chunks(msg, 4 * 1024 * 1024):
            await ws.send_bytes(chunk)

    async def run(self, stop: asyncio.Event) -> None:
        import aiohttp
        try:
            # a browser keeps the page's cookie (the server's session) for the socket: so does a viewer
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                secret = await page_secret(http, self.url)
                origin = self.url.replace("ws://", "http://", 1).rsplit("/ws", 1)[0]
                async with http.ws_connect(self.url, max_msg_size=0, origin=origin) as ws:
                    self.ws = ws
                    await self._send(ws, "wslink.hello", [{"secret": secret}])
                    await self._loop(ws, stop)
        except Exception as exc:                     # reported, not raised: the bench counts them
            self.errors.append(f"{type(exc).__name__}: {exc}")

    async def call(self, method: str, args: list) -> None:
        """Send an RPC (its answer lands in ``answers``)."""
        await self._send(self.ws, method, args)

    async def ask(self, method: str, args: list, timeout: float = 30.0) -> dict | None:
        """Send an RPC and wait for its answer (taken out of ``answers``); None when none came in ``timeout`` s."""
        await self.call(method, args)
        rid = f"rpc:c0:{self._rpc}"
        t0 = time.time()
        while time.time() - t0 < timeout:
            for a in self.answers:
                if a.get("id") == rid:
                    self.answers.remove(a)
                    return a
            await asyncio.sleep(0.02)
        return None

    async def _loop(self, ws, stop) -> None:
        import aiohttp
        un = UnChunker()
        un.set_max_message_size(64 * 1024 * 1024)
        while not stop.is_set():
            try:
                msg = await asyncio.wait_for(ws.receive(), 0.5)
            except TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.BINARY:
                if msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                    self.errors.append(f"socket {msg.type.name}")
                    return
                continue
            full = un.process_chunk(msg.data)
            if full is not None:
                self._handle(full)

    def _handle(self, full) -> None:
        now = time.time() * 1000.0
        if isinstance(full, (bytes, bytearray)):
            full = msgpack.unpackb(full)
        rid = str(full.get("id", ""))
        if rid.startswith("rpc:"):
            self.answers.append(full)
            return
        if "error" in full:
            self.errors.append(str(full["error"]))
            return
        if rid.startswith("system:"):
            self.connected.set()
        elif rid.startswith("publish:trame.state.topic"):
            self.states.append((now, full.get("result") or {}))
            live = (full.get("result") or {}).get("xsl_live")
            if live:
                self.received.append((now, live))


async def classroom(url: str, n: int, stop: asyncio.Event) -> tuple[list[Viewer], list[asyncio.Task]]:
    """Connect n viewers; returns them and their tasks once all have said hello."""
    viewers = [Viewer(url) for _ in range(n)]
    tasks = [asyncio.create_task(v.run(stop)) for v in viewers]
    try:
        await asyncio.wait_for(asyncio.gather(*(v.connected.wait() for v in viewers)), 60)
    except TimeoutError:
        errs = sorted({e for v in viewers for e in v.errors})
        raise TimeoutError(f"{sum(not v.connected.is_set() for v in viewers)} of {n} viewers did not connect: "
                           f"{errs[:3]}") from None
    return viewers, tasks
