"""A first start's build, in worker processes (see :meth:`.app.Service.prepare`): the pack (the rite, then
the director's track in a worker of its own), the static set's bake, and what every worker is: tied to the
app's life, and below it in priority."""
from __future__ import annotations

import concurrent.futures
import os
import signal


def build_pack(reading) -> str:
    """The pack folder of a reading, built in this (worker) process, the director's track in another."""
    import multiprocessing

    from .pack import store
    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx, initializer=die_with_parent) as ex:
        def director(rite):
            # forked at this first submit, the worker has the rite already: it is not pickled over (8 MB)
            _FORKED["rite"] = rite
            try:
                return ex.submit(director_track, None if ctx is not None else rite).result
            finally:
                _FORKED.pop("rite", None)
        return str(store.pack_dir(reading, director=director))


_FORKED: dict = {}      # what a forked worker inherits instead of receiving it pickled


def prebake(reading) -> None:
    """The bake and the sun's map of a reading's static set, into the cache (in a worker process)."""
    from ..geometry import readings
    from ..render import meshes
    static = meshes.build_static(readings.get(reading))
    static.baked()
    static.sunlit_floors()


BUILD_NICE = 5     # a first start's build workers yield the CPU to the server, its GL probe and the browser


def die_with_parent() -> None:
    """A build worker ends with the process that made it (Linux: PR_SET_PDEATHSIG), so an app stopped or
    killed mid-build leaves no worker behind (an orphaned pool worker would wait for work forever).  It also
    runs at a lower priority (:data:`BUILD_NICE`): on two busy cores the server's GL probe, and so the
    address line and the page, would otherwise wait seconds for the build that the page waits for anyway."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)        # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    try:
        os.nice(max(0, BUILD_NICE - os.nice(0)))      # to BUILD_NICE, not past it (the director's worker)
    except (OSError, AttributeError):
        pass


def director_track(rite=None):
    """The director's track of a compiled rite (in a worker process; None: the one it was forked with)."""
    from ..render.shots import track
    return track(rite if rite is not None else _FORKED["rite"])
