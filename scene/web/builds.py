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
#: the niceness of a build's child process (the server's event loop goes first)
BUILD_NICE = 10


class BuildRefused(Exception):
    """A build that is not started (one line)."""


class Builds:
    def __init__(self, store, url_of, session_of, first=None) -> None:
        self.store, self.url_of, self.session_of = store, url_of, session_of
        #: first(session): whether that session presents — its builds are never refused for the students'
        #: and go before theirs (issue 45: the teacher's switch was refused, "building 6 other readings")
        self.first = first or (lambda session: False)
        self.building: dict[str, asyncio.Future] = {}
        self.askers: dict[str, set[str]] = {}
        self._busy = False
        self._turns: list[tuple[bool, str, asyncio.Future]] = []   # (first, query, its turn), in order
        self._pool = None

    async def get(self, r, q: str, client: str, chapter=None) -> str:
        """The pack URL of reading ``r`` (query ``q``) of ``chapter`` (an id, None: chapter 5) for the tab
        ``client``: the cache's, or built.  Two chapters of one reading are two builds (``q`` is keyed
        ``chapter:query`` for any chapter but the default)."""
        if chapter is not None:
            q = f"{chapter}:{q}"
        session = self.session_of(client)
        for other, who in self.askers.items():
            if other != q and any(self.session_of(c) == session for c in who):
                raise BuildRefused(f"this tab is building the reading {other} already: wait for it, then switch")
        first = bool(self.first(session))
        if q not in self.building:
            if len(self.building) >= MAX_BUILDS and not first:
                raise BuildRefused(f"the server is building {len(self.building)} other readings: "
                                   "try again in a minute")
            fut = asyncio.ensure_future(self._build(r, q, first, chapter))
            fut.add_done_callback(lambda _f: self.building.pop(q, None))   # the disk cache answers next time
            self.building[q] = fut
        elif first:                          # the presenter asks what a student's build waits for: its turn moves up
            self._turns = sorted(self._turns, key=lambda t: not (t[0] or t[1] == q))
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

    async def _build(self, r, q: str = "", first: bool = False, chapter=None) -> str:
        loop = asyncio.get_running_loop()
        ch = () if chapter is None else (None, chapter)         # (seed, chapter) after the reading
        url = (lambda: self.url_of(r)) if chapter is None else (lambda: self.url_of(r, chapter))
        if await loop.run_in_executor(None, self.store.existing, r, *ch) is not None:
            return await loop.run_in_executor(None, url)
        await self._my_turn(q, first)
        try:
            if await loop.run_in_executor(None, self.store.existing, r, *ch) is None:
                await (self._in_child(loop, r) if chapter is None else self._in_child(loop, r, chapter))
        finally:
            self._busy = False
            self._next()
        return await loop.run_in_executor(None, url)

    async def _my_turn(self, q: str, first: bool) -> None:
        """One build at a time; the presenter's wait ahead of the students' (then in order)."""
        if not self._busy and not self._turns:
            self._busy = True
            return
        turn = asyncio.get_running_loop().create_future()
        entry = (first, q, turn)
        if first:
            at = next((i for i, t in enumerate(self._turns) if not t[0]), len(self._turns))
            self._turns.insert(at, entry)
        else:
            self._turns.append(entry)
        try:
            await turn
        except asyncio.CancelledError:
            if entry in self._turns:
                self._turns.remove(entry)
            elif turn.done() and not turn.cancelled():     # given the turn as it was cancelled: pass it on
                self._busy = False
                self._next()
            raise

    def _next(self) -> None:
        while self._turns and not self._busy:
            _first, _q, turn = self._turns.pop(0)
            if not turn.done():
                self._busy = True
                turn.set_result(None)

    async def _in_child(self, loop, r, chapter=None) -> None:
        if self._pool is None:
            import multiprocessing
            import os
            # below the server's priority: on two cores a build beside the server delayed every follower's
            # presenter updates by seconds (bench_soak, issue 45)
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=1,
                initializer=os.nice, initargs=(BUILD_NICE,))
        pool = self._pool
        try:
            ch = () if chapter is None else (None, chapter)
            await loop.run_in_executor(pool, self.store.build_elsewhere, r, self.store.protected(), *ch)
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
