"""Test (pvpython, under Xvfb): a short run read back by ParaView 5.11's own readers through
tools/paraview/open_run.py: every time step of particles.pvd with the particle count and the
arrays velocity (3 components), density and id, the times the .pvd lists, the surface meshes as
a series, and a picture of the last frame with the particles in it.
Usage: pvpython check_series.py SEICHE_BINARY SCENE OUT_DIR. Exit 1 on a failed check."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paraview import servermanager  # noqa: E402
from paraview import simple as pv  # noqa: E402

import open_run  # noqa: E402

binary, scene, out = sys.argv[1], sys.argv[2], sys.argv[3]
run = os.path.join(out, "run")
subprocess.run([binary, "run", scene, "-o", run, "--end-time", "0.1", "-q", "--mesh", "--overwrite"],
               check=True, stdout=subprocess.DEVNULL)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


listed = [float(t) for t in re.findall(r'timestep="([^"]+)"', open(os.path.join(run, "particles.pvd")).read())]
particles, surface, view = open_run.open_run(run)
times = list(particles.TimestepValues)
check(len(times) == len(listed) and all(abs(a - b) < 1e-9 for a, b in zip(times, listed)),
      f"{len(times)} time steps, as particles.pvd lists")
n = None
for t in times:
    particles.UpdatePipeline(t)
    data = servermanager.Fetch(particles)
    block = data.GetBlock(0) if data.IsA("vtkMultiBlockDataSet") else data
    count = block.GetNumberOfPoints()
    n = n or count
    arrays = block.GetPointData()
    ok = (count == n and count > 0 and arrays.GetArray("velocity") is not None and
          arrays.GetArray("velocity").GetNumberOfComponents() == 3 and
          arrays.GetArray("density") is not None and arrays.GetArray("id") is not None)
    check(ok, f"t = {t:.4f} s: {count} points with velocity, density, id")
check(surface is not None, "the surface meshes open as a series")
if surface is not None:
    # At the last time, the last frame's mesh (its vertex count from the PLY header).
    last_ply = sorted(f for f in os.listdir(os.path.join(run, "frames")) if f.startswith("surface_") and f.endswith(".ply"))[-1]
    header = open(os.path.join(run, "frames", last_ply), "rb").read(400).decode("ascii", "replace")
    vertices = int(re.search(r"element vertex (\d+)", header).group(1))
    surface.UpdatePipeline(times[-1])
    shown = servermanager.Fetch(surface)
    check(shown.GetNumberOfPoints() == vertices,
          f"t = {times[-1]:.4f} s: the surface is {last_ply} ({vertices} vertices)")
picture = os.path.join(out, "last.png")
particles.UpdatePipeline(times[-1])
pv.GetAnimationScene().AnimationTime = times[-1]
pv.SaveScreenshot(picture, view, ImageResolution=[480, 270])
check(os.path.getsize(picture) > 5000, f"a picture of the last frame ({os.path.getsize(picture)} bytes)")
print("paraview check: " + (f"{len(failures)} failed" if failures else "all passed"), flush=True)
# Straight out: ParaView 5.11 under Xvfb aborts in its OpenGL teardown (GLXBadContext) after
# everything is done, which would turn a pass into a crash.
os._exit(1 if failures else 0)
