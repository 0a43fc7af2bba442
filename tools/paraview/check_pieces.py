"""Test (pvpython, under Xvfb): a run split over 4 processes with its frames in pieces
(mpirun -np 4 seiche run SCENE --set output.pieces=true) opens in ParaView 5.11 as one series:
particles.pvd's every time step reads as one data set with all the particles, and their
positions, velocities and densities, matched by id, are those of the same run in one process
(read by ParaView too). Skipped (77) without mpirun.
Usage: pvpython check_pieces.py SEICHE_BINARY SCENE OUT_DIR. Exit 1 on a failed check."""
import os
import shutil
import subprocess
import sys

from paraview import servermanager
from paraview import simple as pv
from vtkmodules.util import numpy_support
import numpy as np

binary, scene, out = sys.argv[1], sys.argv[2], sys.argv[3]
if shutil.which("mpirun") is None:
    print("paraview pieces check: skipped: no mpirun (openmpi-bin)", flush=True)
    sys.exit(77)
common = ["run", scene, "--end-time", "0.1", "-q", "--overwrite", "--threads", "1",
          "--set", "particle_radius=0.02", "--set", "output.preview=false",
          "--set", "output.ply=false"]
one, four = os.path.join(out, "one"), os.path.join(out, "four")
# pvpython started MPI for itself (a singleton): its variables would make mpirun's processes
# its own, and mpirun fail.
env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PMI_"))}
subprocess.run([binary] + common + ["-o", one], check=True, stdout=subprocess.DEVNULL, env=env)
mpi = ["mpirun", "--oversubscribe", "-np", "4"] + (["--allow-run-as-root"] if os.getuid() == 0 else [])
split = subprocess.run(mpi + [binary] + common + ["-o", four, "--set", "output.pieces=true"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
if split.returncode != 0 and "built without MPI" in split.stdout:
    print("paraview pieces check: skipped: this seiche was built without MPI", flush=True)
    sys.exit(77)
if split.returncode != 0:
    print("FAIL the run under mpirun -np 4:\n" + split.stdout, flush=True)
    sys.exit(1)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def arrays(source, t):
    """The points of SOURCE at time T as id-sorted arrays, and how many pieces it came in."""
    source.UpdatePipeline(t)
    data = servermanager.Fetch(source)
    block = data.GetBlock(0) if data.IsA("vtkMultiBlockDataSet") else data
    ids = numpy_support.vtk_to_numpy(block.GetPointData().GetArray("id"))
    order = np.argsort(ids, kind="stable")
    got = {"id": ids[order],
           "position": numpy_support.vtk_to_numpy(block.GetPoints().GetData())[order]}
    for name in ("velocity", "density"):
        got[name] = numpy_support.vtk_to_numpy(block.GetPointData().GetArray(name))[order]
    return got


pieces = sorted(f for f in os.listdir(os.path.join(four, "frames")) if f.endswith(".vtp"))
check(any(f.endswith("_3.vtp") for f in pieces) and os.path.exists(os.path.join(four, "frames", "frame_000000.pvtp")),
      f"4 processes wrote pieces ({len(pieces)} .vtp files) joined by .pvtp files")
whole = pv.PVDReader(FileName=os.path.join(one, "particles.pvd"))
split_run = pv.PVDReader(FileName=os.path.join(four, "particles.pvd"))
times = list(split_run.TimestepValues)
check(len(times) > 1 and len(times) == len(whole.TimestepValues) and
      all(abs(a - b) < 1e-12 for a, b in zip(times, whole.TimestepValues)),
      f"one series of {len(times)} time steps, the one-process run's times")
for t in times:
    a, b = arrays(whole, t), arrays(split_run, t)
    same = all(a[k].shape == b[k].shape and np.array_equal(a[k], b[k]) for k in a)
    check(same, f"t = {t:.4f} s: {len(b['id'])} points, positions, velocities and densities "
                f"those of one process, id for id")
sys.exit(1 if failures else 0)
