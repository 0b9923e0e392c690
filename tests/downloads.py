"""Hostile downloaders of the classroom server (issue 45), shared by ``tests/test_soak.py`` and
``bench/bench_soak.py``: readers that stall, readers on a slow link, and the server's open files.

Every client is on loopback: the server listens on 127.0.0.1 and the clients bind 127.0.0.2, 127.0.0.3, … as
their own address (all of 127/8 is this machine), so several "students" stand beside each other the way a
classroom's addresses do, each under its own per-address caps.
"""
from __future__ import annotations

import asyncio
import os
import socket
import time


def request(port: int, path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


def open_files(pid: int) -> int:
    """How many file descriptors the process holds (Linux /proc)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def files_named(pid: int, name: str) -> int:
    """How many of its descriptors are open on a file whose name ends with ``name``."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").endswith(name):
                n += 1
        except OSError:
            pass
    return n


def stall(port: int, path: str, n: int, first_address: int = 2, per_address: int = 100) -> list[socket.socket]:
    """``n`` downloads that ask for ``path`` and never read a byte of the answer (a receive buffer of 4 KB,
    so the kernel takes little of it for them): the sockets, kept open by the caller."""
    out = []
    for i in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind((f"127.0.0.{first_address + i // per_address}", 0))
        s.settimeout(10)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(request(port, path))
        except OSError:
            s.close()
            continue
        out.append(s)
    return out


async def slow_read(port: int, path: str, rate: float, address: str, timeout: float = 300.0) -> dict:
    """One download read at ``rate`` bytes/s (a slow link): {ok, bytes, seconds, why}."""
    loop = asyncio.get_running_loop()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)     # so the kernel does not read ahead for us
    s.bind((address, 0))
    s.setblocking(False)
    t0 = time.monotonic()
    got, need, head = 0, None, b""
    try:
        await asyncio.wait_for(loop.sock_connect(s, ("127.0.0.1", port)), 10)
        await loop.sock_sendall(s, request(port, path))
        while need is None or got < need:
            if time.monotonic() - t0 > timeout:
                return {"ok": False, "bytes": got, "seconds": time.monotonic() - t0, "why": "timeout"}
            chunk = await asyncio.wait_for(loop.sock_recv(s, 4096), 60)
            if not chunk:
                return {"ok": False, "bytes": got, "seconds": time.monotonic() - t0, "why": "closed by the server"}
            if need is None:
                head += chunk
                if b"\r\n\r\n" not in head:
                    continue
                top, _, body = head.partition(b"\r\n\r\n")
                if not top.startswith(b"HTTP/1.1 200"):
                    return {"ok": False, "bytes": 0, "seconds": 0.0, "why": top.split(b"\r\n")[0].decode()}
                length = [ln for ln in top.split(b"\r\n") if ln.lower().startswith(b"content-length:")]
                need = int(length[0].split(b":")[1])
                got = len(body)
            else:
                got += len(chunk)
            # keep to the rate: sleep until the bytes so far are due
            ahead = got / rate - (time.monotonic() - t0)
            if ahead > 0:
                await asyncio.sleep(ahead)
        return {"ok": True, "bytes": got, "seconds": time.monotonic() - t0, "why": ""}
    except (TimeoutError, OSError) as exc:
        return {"ok": False, "bytes": got, "seconds": time.monotonic() - t0, "why": type(exc).__name__}
    finally:
        s.close()


def gaps(times: list[float], start: float, end: float) -> tuple[float, float]:
    """The longest time with no receipt between ``start`` and ``end`` (the ends included), and when (seconds
    after ``start``) it began."""
    ts = [start] + sorted(t for t in times if start <= t <= end) + [end]
    return max((b - a, a - start) for a, b in zip(ts, ts[1:]))


# --------------------------------------------------------------------------- the downloaders in a process of their own
def _crowd_main(argv: list[str]) -> None:
    """``python tests/downloads.py PORT PATH STALLED SLOW RATE``: the stalled downloads (from a thread) and the
    slow ones at once; prints one JSON line ({stalled, slow}) once every slow reader is done, then keeps the
    stalled sockets open until a line comes on standard input."""
    import json
    import sys
    import threading
    port, path, n_stalled, n_slow, rate = int(argv[0]), argv[1], int(argv[2]), int(argv[3]), float(argv[4])
    os.nice(10)              # the classroom's other machines: on this one they must not take the server's CPU
    stalled: list[socket.socket] = []
    opener = threading.Thread(target=lambda: stalled.extend(stall(port, path, n_stalled)), daemon=True)
    opener.start()

    async def slow_ones():
        return await asyncio.gather(*(slow_read(port, path, rate, f"127.0.0.{200 + i // 20}") for i in range(n_slow)))
    slow = asyncio.run(slow_ones())
    opener.join(120)
    print(json.dumps({"stalled": len(stalled), "slow": slow}), flush=True)
    sys.stdin.readline()
    for s in stalled:
        s.close()


class Crowd:
    """The stalled and slow downloads of ``path`` in a child process (:func:`_crowd_main`): on two cores, a
    thousand blocking connects and a hundred readers waking twelve times a second in the follower's own process
    delayed the follower's receipts — its gaps measured the test's process, not the server."""

    def __init__(self, port: int, path: str, stalled: int, slow: int, rate: float) -> None:
        import subprocess
        import sys
        self.proc = subprocess.Popen([sys.executable, __file__, str(port), path, str(stalled), str(slow), str(rate)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    async def done(self) -> dict:
        """{stalled: how many opened, slow: each slow reader's result} once the slow readers are done."""
        import json
        line = await asyncio.get_running_loop().run_in_executor(None, self.proc.stdout.readline)
        return json.loads(line) if line.strip() else {"stalled": 0, "slow": [{"ok": False, "why": "no answer"}]}

    def close(self) -> None:
        """Close the stalled sockets and end the child."""
        import subprocess
        try:
            self.proc.stdin.write("\n")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


if __name__ == "__main__":
    import sys
    _crowd_main(sys.argv[1:])
