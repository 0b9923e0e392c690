"""Can this machine render off-screen?  Asked in a subprocess, because VTK cannot say.

Where no OpenGL context can be made (no EGL, no Mesa driver, no OSMesa), VTK
does not raise: the process dies of a segfault.  So before the first render we
run the smallest possible render in a child process and, if it dies, fail with
one line naming the system packages to install.  The probe starts early and
runs on another core while the parent compiles the scene (:func:`start`), so a
cold still pays little for it.

Without a display, VTK is told to use EGL straight away (with Mesa's llvmpipe
when there is no GPU) instead of trying X first.

A probe that passed is remembered in the cache folder under a stamp of what decides it (the Python, VTK's
version and OpenGL modules, the GL libraries and drivers with their sizes and mtimes, the environment
variables EGL, Mesa and VTK read): while none of them changes, the next start does not probe again
(about a second). A failure is never remembered.
"""
from __future__ import annotations

import ctypes.util
import glob
import os
import subprocess
import sys

from .. import settings

_PROBE = (
    "from vtkmodules.vtkRenderingCore import vtkRenderWindow, vtkRenderer\n"
    "import vtkmodules.vtkRenderingOpenGL2\n"
    "w = vtkRenderWindow(); w.SetOffScreenRendering(1); w.SetSize(8, 8)\n"
    "w.AddRenderer(vtkRenderer()); w.Render(); print(w.GetClassName())\n"
)


class GLUnavailable(RuntimeError):
    """No off-screen OpenGL context can be made here (one line, naming what to install)."""


def configure() -> None:
    """Environment for off-screen rendering; call before VTK's rendering modules are imported."""
    os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")


def missing_packages() -> list[str]:
    """Debian packages whose libraries are absent (EGL, Mesa's DRI drivers, OSMesa)."""
    out = []
    if os.environ.get("VTK_DEFAULT_OPENGL_WINDOW") == "vtkOSOpenGLRenderWindow":
        return [] if ctypes.util.find_library("OSMesa") else ["libosmesa6"]
    if not ctypes.util.find_library("EGL"):
        out.append("libegl1")
    drivers = glob.glob("/usr/lib/*/dri/swrast_dri.so") + glob.glob("/usr/lib/*/dri/*gallium*") + \
        glob.glob("/usr/lib/*/libgallium*.so") + glob.glob("/usr/lib/dri/swrast_dri.so")
    if not drivers:
        out.append("libgl1-mesa-dri")
    if not ctypes.util.find_library("GL"):
        out.append("libgl1")
    if not ctypes.util.find_library("OSMesa") and out:
        out.append("libosmesa6")
    return out


class Probe:
    """A probe render running in a child process."""

    def __init__(self) -> None:
        configure()
        self.proc = subprocess.Popen([sys.executable, "-c", _PROBE], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=os.environ.copy())

    def result(self, timeout: float = 60.0) -> str:
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise GLUnavailable("the OpenGL probe hung for 60 s: off-screen rendering does not work here") from None
        if self.proc.returncode == 0:
            return out.decode(errors="replace").strip()
        how = (f"died of signal {-self.proc.returncode}" if self.proc.returncode < 0
               else f"exited with status {self.proc.returncode}")
        miss = missing_packages()
        hint = (f"install {' '.join(miss)} (apt-get install {' '.join(miss)})" if miss else
                "check EGL/Mesa (Debian: libegl1 libgl1-mesa-dri, or libosmesa6 with "
                "VTK_DEFAULT_OPENGL_WINDOW=vtkOSOpenGLRenderWindow)")
        raise GLUnavailable(f"cannot render off-screen: an OpenGL probe {how}; {hint}")


_started: Probe | None = None
_ok: str | None = None

_LIBS = ("/usr/lib/*/libEGL*.so*", "/usr/lib/*/libGL*.so*", "/usr/lib/*/libOpenGL*.so*", "/usr/lib/*/libgbm*.so*",
         "/usr/lib/*/libgallium*", "/usr/lib/*/dri/*.so", "/usr/lib/dri/*.so", "/usr/lib/*/libOSMesa*",
         "/usr/lib/*/libLLVM*.so*", "/usr/share/glvnd/egl_vendor.d/*.json", "/dev/dri/*")
_ENV = ("DISPLAY", "WAYLAND_DISPLAY", "PYVISTA_OFF_SCREEN", "LD_LIBRARY_PATH")
_ENV_PREFIXES = ("VTK_", "EGL_", "MESA_", "LIBGL_", "GALLIUM_", "__EGL", "__GLX")


def _stamp() -> str:
    """A hash of everything that decides whether the probe passes (see the module's docstring)."""
    import hashlib
    import importlib.util
    from importlib.metadata import PackageNotFoundError, version
    h = hashlib.sha256(sys.executable.encode())
    try:
        h.update(version("vtk").encode())
    except PackageNotFoundError:
        h.update(b"?")
    spec = importlib.util.find_spec("vtkmodules")
    files = []
    for d in (spec.submodule_search_locations or []) if spec else []:
        files += glob.glob(os.path.join(d, "*Rendering*OpenGL2*.so")) + glob.glob(os.path.join(d, "*RenderingCore*.so"))
    for pat in _LIBS:
        files += glob.glob(pat)
    for f in sorted(set(files)):
        try:
            st = os.stat(f)
            h.update(f"{f}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"{f}:-\n".encode())
    for k in sorted(os.environ):
        if k in _ENV or k.startswith(_ENV_PREFIXES):
            h.update(f"{k}={os.environ[k]}\n".encode())
    return h.hexdigest()[:20]


def _memo():
    from ..paths import cache_dir
    return cache_dir() / f"glprobe-ok-{_stamp()}"


def start() -> None:
    """Start the probe (once per process) without waiting for it; nothing to start when this machine's
    probe passed before and nothing it depends on has changed."""
    global _started, _ok
    if _ok is None and _started is None:
        try:
            if _memo().exists():
                _ok = "remembered"
                return
        except OSError:
            pass
        _started = Probe()


def stop() -> None:
    """Kill a probe still running (a start that fails on its arguments does not leave it behind)."""
    global _started
    if _started is not None:
        _started.proc.kill()
        _started.proc.wait()
        _started = None


def ensure() -> str:
    """Wait for the probe (starting it if needed); raise :class:`GLUnavailable` if rendering would crash."""
    global _ok, _started
    if _ok is not None:
        return _ok
    if settings.skip_glprobe():
        _ok = "skipped"
        return _ok
    start()
    if _ok is not None:
        return _ok
    assert _started is not None
    try:
        _ok = _started.result()
    finally:
        _started = None
    try:
        memo = _memo()
        memo.parent.mkdir(parents=True, exist_ok=True)
        memo.write_text(_ok + "\n", encoding="utf-8")
    except OSError:
        pass
    return _ok
