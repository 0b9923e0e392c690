"""Can this machine render off-screen?  Asked in a subprocess, because VTK cannot say.

Where no OpenGL context can be made (no EGL, no Mesa driver, no OSMesa), VTK
does not raise: the process dies of a segfault.  So before the first render we
run the smallest possible render in a child process and, if it dies, fail with
one line naming the system packages to install.  The probe starts early and
runs on another core while the parent compiles the scene (:func:`start`), so a
cold still pays little for it.

Without a display, VTK is told to use EGL straight away (with Mesa's llvmpipe
when there is no GPU) instead of trying X first.
"""
from __future__ import annotations

import ctypes.util
import glob
import os
import subprocess
import sys

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


def start() -> None:
    """Start the probe (once per process) without waiting for it."""
    global _started
    if _ok is None and _started is None:
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
    if os.environ.get("XIANGSHELI_SKIP_GLPROBE"):
        _ok = "skipped"
        return _ok
    start()
    assert _started is not None
    try:
        _ok = _started.result()
    finally:
        _started = None
    return _ok
