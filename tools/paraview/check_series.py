"""Test (pvpython, under Xvfb): a short run read back by ParaView 5.11's own readers through
tools/paraview/open_run.py: every time step of particles.pvd with the particle count and the
arrays velocity (3 components), density and id, the times the .pvd lists, the surface meshes as
a series coloured by the fluid's speed at their vertices, and pictures: every frame's particles
inside the picture (none cut off at an edge) and clear of the colour bar's strip, the bar in it.
Usage: pvpython check_series.py SEICHE_BINARY SCENE OUT_DIR. Exit 1 on a failed check."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paraview import servermanager  # noqa: E402
from paraview import simple as pv  # noqa: E402

import numpy as np  # noqa: E402
from vtkmodules.util import numpy_support  # noqa: E402
from vtkmodules.vtkIOImage import vtkPNGReader  # noqa: E402

import open_run  # noqa: E402

binary, scene, out = sys.argv[1], sys.argv[2], sys.argv[3]
run = os.path.join(out, "run")
subprocess.run([binary, "run", scene, "-o", run, "--end-time", "0.8", "-q", "--mesh", "--overwrite",
                "--set", "output.mesh_vtk=true"],
               check=True, stdout=subprocess.DEVNULL)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


listed = [float(t) for t in re.findall(r'timestep="([^"]+)"', open(os.path.join(run, "particles.pvd")).read())]
last_ply = sorted(f for f in os.listdir(os.path.join(run, "frames")) if f.startswith("surface_") and f.endswith(".ply"))[-1]
header = open(os.path.join(run, "frames", last_ply), "rb").read(400).decode("ascii", "replace")
vertices = int(re.search(r"element vertex (\d+)", header).group(1))

# The run as a user with PLY meshes only has it: the surface as a numbered PLY series.
ply_run = os.path.join(out, "run_ply")
shutil.rmtree(ply_run, ignore_errors=True)
shutil.copytree(run, ply_run, ignore=shutil.ignore_patterns("surface.pvd", "surface_*.vtp"))
particles, surface, view = open_run.open_run(ply_run)
check(surface is not None, "PLY meshes only: the surface meshes open as a series")
if surface is not None:
    surface.UpdatePipeline(list(particles.TimestepValues)[-1])
    shown = servermanager.Fetch(surface)
    check(shown.GetNumberOfPoints() == vertices,
          f"PLY meshes only: at the last time the surface is {last_ply} ({vertices} vertices)")

pv.SetActiveView(pv.CreateRenderView())
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
check(surface is not None, "the surface meshes open as a series (surface.pvd)")
if surface is not None:
    # At the last time, the last frame's mesh (its vertex count from the PLY header).
    surface.UpdatePipeline(times[-1])
    data = servermanager.Fetch(surface)
    shown = data.GetBlock(0) if data.IsA("vtkMultiBlockDataSet") else data
    check(shown.GetNumberOfPoints() == vertices,
          f"t = {times[-1]:.4f} s: the surface is the last frame's mesh ({vertices} vertices)")
    speed = shown.GetPointData().GetArray("velocity")
    check(speed is not None and speed.GetNumberOfComponents() == 3 and speed.GetRange(-1)[1] > 0.1,
          "the surface carries the fluid's velocity at its vertices" +
          (f" (up to {speed.GetRange(-1)[1]:.2f} m/s)" if speed is not None else ""))
    check(view.Representations and any(getattr(r, "Input", None) == surface and
                                       r.ColorArrayName[1] == "velocity" for r in view.Representations),
          "the surface is coloured by speed")

def picture_at(t, path, bar_shown):
    """A 480 x 270 picture at time T as an array of rows of RGB, and the background colour."""
    pv.GetScalarBar(pv.GetColorTransferFunction("velocity"), view).Visibility = int(bar_shown)
    pv.GetAnimationScene().AnimationTime = t
    pv.SaveScreenshot(path, view, ImageResolution=[480, 270])
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    w, h, _ = image.GetDimensions()
    rgb = numpy_support.vtk_to_numpy(image.GetPointData().GetScalars())[:, :3].reshape(h, w, 3).astype(int)
    colours, counts = np.unique(rgb.reshape(-1, 3), axis=0, return_counts=True)
    background = colours[np.argmax(counts)]
    return rgb, np.abs(rgb - background).max(axis=2) > 12


# Every frame with the bar hidden: the fluid touches no edge of the picture (the camera frames
# the whole run, not its first frame) and stays left of the colour bar's strip.
strip = int(480 * (open_run.BAR_LEFT - 0.02))
edge_frames, strip_frames = [], []
for t in times:
    _, fluid = picture_at(t, os.path.join(out, "frame.png"), False)
    if fluid[0, :].any() or fluid[-1, :].any() or fluid[:, 0].any() or fluid[:, -1].any():
        edge_frames.append(round(t, 3))
    if fluid[:, strip:].any():
        strip_frames.append(round(t, 3))
check(not edge_frames, f"every frame's particles inside the picture (cut off at t = {edge_frames[:5]})")
check(not strip_frames, f"every frame's particles clear of the colour bar's strip (in it at t = {strip_frames[:5]})")
picture = os.path.join(out, "last.png")
_, drawn = picture_at(times[-1], picture, True)
check(drawn[:, strip:].sum() > 200, f"the colour bar in its strip ({drawn[:, strip:].sum()} pixels drawn there)")
check(drawn[:, :strip].sum() > 2000, f"a picture of the last frame with the particles in it "
      f"({drawn[:, :strip].sum()} pixels drawn, {os.path.getsize(picture)} bytes)")
print("paraview check: " + (f"{len(failures)} failed" if failures else "all passed"), flush=True)
# Straight out: ParaView 5.11 under Xvfb aborts in its OpenGL teardown (GLXBadContext) after
# everything is done, which would turn a pass into a crash.
os._exit(1 if failures else 0)
