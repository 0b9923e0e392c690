"""Reading builds of the classroom server, fair per session (issue 26).

A reading not in the cache is built in a child process, one build at a time. Before, one tab could queue
six builds and tie up the builder for a minute (the teacher's switch got no answer), and a build went on
after its tab had left. Here a **session** (:func:`.sockets.session_of`: the page's cookie, else the
address; not the socket, so eight sockets are one student) has at most one reading building or waiting;
the builds wait their turn in order; a build nobody waits for any more (every asking tab left) is
cancelled — taken out of the queue, or its child process killed.
"""
from __future__ import annotations

import asyncio
import concurrent.futures

#: readings building or waiting at once, all sessions together
MAX_BUILDS = 6


class BuildRefused(Exception):
    """A build that is not started (one line)."""


class Builds:
    def __init__(self, store, url_of, session_of) -> None:
        self.store, self.url_of, self.session_of = store, url_of, session_of
        self.building: dict[str, asyncio.Future] = {}
        self.askers: dict[str, set[str]] = {}
        self._slot: asyncio.Semaphore | None = None
        self._pool = None

    async def get(self, r, q: str, client: str) -> str:
        """The pack URL of reading ``r`` (query ``q``) for the tab ``client``: the cache's, or built."""
        session = self.session_of(client)
        for other, who in self.askers.items():
            if other != q and any(self.session_of(c) == session for c in who):
                raise BuildRefused(f"this tab is building the reading {other} already: wait for it, then switch")
        if q not in self.building:
            if len(self.building) >= MAX_BUILDS:
                raise BuildRefused(f"the server is building {len(self.building)} other readings: "
                                   "try again in a minute")
            fut = asyncio.ensure_future(self._build(r))
            fut.add_done_callback(lambda _f: self.building.pop(q, None))   # the disk cache answers next time
            self.building[q] = fut
        who = self.askers.setdefault(q, set())
        who.add(client)
        try:
            return await asyncio.shield(self.building[q])
        finally:
            who.discard(client)
            if not who and self.askers.get(q) is who:
                del self.askers[q]

    def left(self, client: str) -> int:
        """A tab left: the builds only it waited for are cancelled; returns how many."""
        n = 0
        for q, who in list(self.askers.items()):
            who.discard(client)
            if not who:
                del self.askers[q]
                fut = self.building.get(q)
                if fut is not None and not fut.done():
                    fut.cancel()
                    n += 1
        return n

    async def _build(self, r) -> str:
        loop = asyncio.get_running_loop()
        if await loop.run_in_executor(None, self.store.existing, r) is not None:
            return await loop.run_in_executor(None, self.url_of, r)
        if self._slot is None:
            self._slot = asyncio.Semaphore(1)
        async with self._slot:
            if await loop.run_in_executor(None, self.store.existing, r) is None:
                await self._in_child(loop, r)
        return await loop.run_in_executor(None, self.url_of, r)

    async def _in_child(self, loop, r) -> None:
        if self._pool is None:
            import multiprocessing
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=1)
        pool = self._pool
        try:
            await loop.run_in_executor(pool, self.store.build_elsewhere, r, self.store.protected())
        except asyncio.CancelledError:
            self._kill(pool)
            loop.call_later(2.0, lambda: loop.run_in_executor(None, self.store.clean_tmp))
            raise
        except concurrent.futures.process.BrokenProcessPool:
            self._pool = None
            raise RuntimeError("the pack builder stopped") from None

    def _kill(self, pool) -> None:
        """Stop a build nobody waits for: its child killed (its half-built folder is in packs-tmp, which
        :func:`~.pack.store.clean_tmp` removes once the child is gone)."""
        self._pool = None
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            try:
                proc.kill()
            except (OSError, AttributeError):
                pass
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._kill(self._pool)
