"""Exports, bounded per server and per tab.

One export runs at a time (``workers``); the others wait in a queue whose position the waiting tab
can ask for (``position(client)``); a **session** (``session_of(client)``: the page's cookie, else the
address — not the socket, so a student's eight sockets are one) may have ``per_tab`` exports queued or
running, so nobody is more than one export per other session from the front; when a tab leaves, its
exports are cancelled — a queued one taken out of the queue at once (the exporter's process group is killed, its work folder removed);
a finished file lives in its own unguessable folder (``xslout/<token>/<name>``, the URL is given only
to the tab that asked) and is deleted after ``ttl`` seconds.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import ROOT

#: the niceness of an export's child process: the server's event loop (every tab's updates) goes first
EXPORT_NICE = 10


class JobError(Exception):
    """An export that is refused or failed (one line)."""


@dataclass
class Job:
    client: str
    kind: str
    folder: Path
    session: str = ""
    task: asyncio.Task | None = None
    proc: asyncio.subprocess.Process | None = None
    cancelled: bool = False
    first: bool = False                 # the presenter's: ahead of every student's in the queue
    started: asyncio.Event = field(default_factory=asyncio.Event)


class Jobs:
    def __init__(self, out_dir: Path, workers: int = 1, per_tab: int = 1, ttl: float = 900.0, tell=None,
                 session_of=None, first=None) -> None:
        self.session_of = session_of or (lambda client: client)
        #: first(session): whether that session presents (its exports go before every student's, issue 45:
        #: the teacher's export waited at position 6–8 behind one student's six tabs)
        self.first = first or (lambda session: False)
        self.tell = tell                    # tell(client, {"xsl_queue_pos": n}): the waiting tab sees its place
        self.out_dir = Path(out_dir)
        self.workers = max(1, workers)
        self.per_tab = max(1, per_tab)
        self.ttl = ttl
        self.queue: list[Job] = []          # waiting, in order
        self.running: list[Job] = []

    def position(self, client: str) -> dict:
        """Where this tab's export stands: {running, position (1 = next), waiting}."""
        mine = [i for i, j in enumerate(self.queue) if j.client == client]
        return {"running": any(j.client == client for j in self.running),
                "position": mine[0] + 1 if mine else 0, "waiting": len(self.queue)}

    def _changed(self) -> None:
        if self.tell is None:
            return
        for i, j in enumerate(self.queue):
            self.tell(j.client, {"xsl_queue_pos": i + 1})
        for j in self.running:
            self.tell(j.client, {"xsl_queue_pos": 0})

    def cancel(self, client: str) -> int:
        """Cancel every export of a tab (it left); returns how many."""
        n = 0
        for j in [*self.queue, *self.running]:
            if j.client == client and not j.cancelled:
                j.cancelled = True
                n += 1
                if j.proc is not None and j.proc.returncode is None:
                    try:
                        os.killpg(j.proc.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                elif j in self.queue and j.task is not None and not j.task.done():
                    j.task.cancel()                   # waiting for the slot: it goes now, not when its turn comes
        self.queue = [j for j in self.queue if not j.cancelled]
        if n:
            self._changed()
        return n

    async def run(self, client: str, kind: str, make) -> tuple[Path, Path]:
        """Queue an export; ``make(folder)`` → (argv of ``python -m scene``, the file it writes) and
        optionally a finishing coroutine. Returns (the served file, its token folder)."""
        session = self.session_of(client)
        if sum(1 for j in [*self.queue, *self.running] if j.session == session) >= self.per_tab:
            raise JobError("one export at a time for this tab: wait for the one under way")
        folder = self.out_dir / secrets.token_urlsafe(16)
        job = Job(client, kind, folder, session, asyncio.current_task(), first=bool(self.first(session)))
        if job.first:                       # after the presenter's own, before every student's
            at = next((i for i, j in enumerate(self.queue) if not j.first), len(self.queue))
            self.queue.insert(at, job)
        else:
            self.queue.append(job)
        self._changed()
        try:
            self._start()
            await job.started.wait()
            if job.cancelled:
                raise JobError("cancelled")
            folder.mkdir(parents=True)
            argv, out, finish = make(folder)
            code, text = await self._exec(job, argv)
            if job.cancelled:
                raise JobError("cancelled")
            if code != 0:
                raise JobError(text.splitlines()[-1] if text else f"the exporter failed ({code})")
            if finish is not None:
                out = await asyncio.get_running_loop().run_in_executor(None, finish)
            if not out.exists():
                raise JobError("the exporter wrote nothing")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        finally:
            if job in self.queue:
                self.queue.remove(job)
            if job in self.running:
                self.running.remove(job)
            self._start()
        asyncio.get_running_loop().call_later(self.ttl, shutil.rmtree, folder, True)
        return out, folder

    def _start(self) -> None:
        """Start the queue's first jobs while a worker is free (the queue's order: the presenter's first)."""
        while self.queue and len(self.running) < self.workers:
            job = self.queue.pop(0)
            if job.cancelled:
                continue
            self.running.append(job)
            job.started.set()
        self._changed()

    async def _exec(self, job: Job, argv: list[str]) -> tuple[int, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "scene", *argv, cwd=str(ROOT), start_new_session=True,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        job.proc = proc
        with contextlib.suppress(OSError):     # below the server: an export's render never starves its followers
            os.setpriority(os.PRIO_PROCESS, proc.pid, EXPORT_NICE)
        try:
            out, _ = await proc.communicate()
        except asyncio.CancelledError:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            raise
        return proc.returncode, out.decode("utf-8", "replace").strip()[-2000:]

    def sweep(self, now: float | None = None) -> None:
        """Delete token folders older than the ttl (a restart's leftovers, a lost timer)."""
        now = time.time() if now is None else now
        for d in self.out_dir.iterdir() if self.out_dir.exists() else ():
            try:
                if d.is_dir() and now - d.stat().st_mtime > self.ttl and not any(j.folder == d for j in self.running):
                    shutil.rmtree(d, ignore_errors=True)
            except OSError:
                pass
