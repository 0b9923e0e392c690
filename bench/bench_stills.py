"""Still-export figures (issue 4), in one run.

1. Whole-process time of one cold 1920×1080 still (``python -m scene still`` in a subprocess), twice:
   the first may have to compile the rite (its disk cache is keyed by the choreography's bytes), the
   second is a cold process with the compiled rite cached.            Target ≤ 2.5 s.
2. Per-still time when exporting every stage at 1920×1080 with one plotter (render + PNG).
                                                                      Target ≤ 0.6 s a still.
3. The baseline: a bare pyvista render of the same meshes (the same polydata, one mesh per layer as
   ours) at the same size, each frame swapping in the frame's dynamic mesh, screenshot + PNG — and the
   ratio of ours to it.                                               Target ≤ 1.3.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")

SIZE = (1920, 1080)


def cold_still(out: Path) -> float:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "scene", "still", "--stage", "21", "--size", f"{SIZE[0]}x{SIZE[1]}",
                        "--out", str(out)], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit(r.stderr)
    return dt


def main() -> None:
    from scene.render import glprobe
    glprobe.configure()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        first = cold_still(tmp / "a.png")
        second = cold_still(tmp / "b.png")
        print(f"cold still 1920x1080 (whole process): {first:.2f} s first, {second:.2f} s with the compiled rite "
              f"cached (target ≤ 2.5 s)")

        from scene.render import meshes, stills
        t0 = time.perf_counter()
        studio = stills.Studio(None, SIZE)
        setup = time.perf_counter() - t0
        rite = studio.rite
        times = [stills.representative_t(rite, st) for st in rite.stages]
        studio.render(times[0], "overview", stage=rite.stages[0])        # warm the shaders, as a batch does
        per = []
        dyn_polys = []
        for st, t in zip(rite.stages, times):
            a = time.perf_counter()
            still = studio.render(t, "overview", stage=st)
            stills.save_png(still.image, tmp / stills.file_name(st))
            per.append(time.perf_counter() - a)
        n_layers = sum(1 for a in studio.static_actors.values() if a.GetVisibility()) + 1
        studio.close()
        ours = sum(per) / len(per)
        print(f"batch: {len(per)} stills at {SIZE[0]}x{SIZE[1]} in {sum(per):.1f} s = {ours:.3f} s a still "
              f"(min {min(per):.3f}, max {max(per):.3f}; plotter setup {setup:.2f} s) (target ≤ 0.6 s)")

        # baseline: the same meshes in a bare pyvista plotter
        import pyvista as pv
        st_set = meshes.build_static(None)
        layers = [meshes.to_polydata(b, st_set.scale) for name, b in st_set.batches().items()
                  if name != "roof_south"]
        for _st, t in zip(rite.stages, times):
            d = meshes.build_dynamic(rite, rite.pose_at(t))
            d.main.extend(d.shadows)
            dyn_polys.append(meshes.to_polydata(d.main))
        p = pv.Plotter(off_screen=True, window_size=SIZE)
        for poly in layers:
            p.add_mesh(poly, scalars="rgb", rgb=True)
        dyn_actor = p.add_mesh(dyn_polys[0], scalars="rgb", rgb=True, name="dynamic")
        p.camera_position = [(60, -60, 50), (0, -30, 0), (0, 0, 1)]
        p.screenshot(tmp / "warm.png")
        base = []
        for k, poly in enumerate(dyn_polys):
            a = time.perf_counter()
            dyn_actor.mapper.dataset.copy_from(poly)
            p.render()
            p.screenshot(tmp / f"base{k}.png")
            base.append(time.perf_counter() - a)
        p.close()
        b = sum(base) / len(base)
        print(f"baseline: bare pyvista, the same {n_layers} meshes, {b:.3f} s a frame → ratio {ours / b:.2f} "
              f"(target ≤ 1.3)")


if __name__ == "__main__":
    main()
