"""Long work shows what it is doing and how far (issue 44), on a terminal only: the phases are drawn on standard
error when it is a terminal, never into a pipe or a log, never with --quiet, and never by a forked worker."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from scene import progress

ROOT = Path(__file__).resolve().parent.parent


def test_reporting_is_off_unless_a_terminal_asks_for_it(monkeypatch):
    class Tty:
        def isatty(self):
            return True
    monkeypatch.delenv("XIANGSHELI_PROGRESS", raising=False)
    assert progress.wanted(stream=Tty())
    assert not progress.wanted(quiet=True, stream=Tty())
    assert not progress.wanted(stream=open(os.devnull, "w"))          # a file, a pipe: nothing drawn
    monkeypatch.setenv("XIANGSHELI_PROGRESS", "0")
    assert not progress.wanted(stream=Tty())
    monkeypatch.setenv("XIANGSHELI_PROGRESS", "1")
    assert progress.wanted(stream=open(os.devnull, "w"))


def test_a_phase_is_silent_when_off_and_in_a_forked_worker(capsys, monkeypatch):
    with progress.phase("nothing to see", total=3) as ph:             # off: a library call, a test
        ph.advance()
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("XIANGSHELI_PROGRESS", "1")
    progress.enable()
    try:
        assert progress._active()
        monkeypatch.setattr(progress, "_pid", -1)                     # as a forked child sees it
        assert not progress._active()
        with progress.phase("a worker's phase") as ph:
            ph.advance()
    finally:
        monkeypatch.setattr(progress, "_pid", os.getpid())
        progress.disable()
    assert "a worker's phase" not in capsys.readouterr().err


def _book(tmp_path: Path, *extra: str, tty: bool) -> tuple[str, str, int]:
    """``python -m scene book`` with standard error on a pseudo-terminal (``tty``) or a pipe; standard output is
    always a pipe (what a script reads)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("XIANGSHELI_PROGRESS", None)
    argv = [sys.executable, "-m", "scene", "book", "--out", str(tmp_path / "book.pdf"), *extra]
    if not tty:
        r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
        return r.stdout, r.stderr, r.returncode
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    while True:
        ready, _, _ = select.select([master], [], [], 600)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:                       # the child closed its end
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read().decode()
    proc.wait(60)
    os.close(master)
    return out, err.decode(errors="replace"), proc.returncode


@pytest.mark.slow
def test_book_shows_its_phases_on_a_terminal_and_nothing_in_a_pipe_or_with_quiet(tmp_path):
    out, err, rc = _book(tmp_path, tty=True)
    assert rc == 0, err[-2000:]
    assert "the book of plans: a plan for each stage" in err and "writing its" in err, err[-2000:]
    assert "pages" in out and "\x1b" not in out                      # what a script reads is unchanged
    out, err, rc = _book(tmp_path, tty=False)
    assert rc == 0 and "pages" in out and err == "", err[-2000:]
    out, err, rc = _book(tmp_path, "--quiet", tty=True)
    assert rc == 0 and "book of plans:" not in err, err[-2000:]
