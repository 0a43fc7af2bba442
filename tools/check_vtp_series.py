#!/usr/bin/env python3
"""Reads a run's particles.pvd series with VTK's own XML reader (Debian's python3-vtk9, the reader
ParaView uses), independently of seiche's: every frame must have the particle count, the arrays
velocity (3 components), density and id (a permutation of 0..n-1), and field data TimeValue equal
to the time the .pvd lists. Exit 77 (skipped) when VTK's Python module is not installed.
Usage: tools/check_vtp_series.py SEICHE_BINARY SCENE"""
import os
import re
import subprocess
import sys
import tempfile

try:
    import vtk  # noqa: F401
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError:
    print("check_vtp_series: skipped: VTK's Python module is not installed (apt-get install "
          "python3-vtk9)")
    sys.exit(77)


def main():
    binary, scene = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        subprocess.run([binary, "run", scene, "-o", out, "--end-time", "0.1", "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        pvd = open(os.path.join(out, "particles.pvd")).read()
        entries = re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', pvd)
        assert len(entries) >= 3, entries
        n = None
        for t, f in entries:
            r = vtk.vtkXMLPolyDataReader()
            r.SetFileName(os.path.join(out, f))
            r.Update()
            o = r.GetOutput()
            count = o.GetNumberOfPoints()
            n = n or count
            assert count == n and n > 0, (f, count, n)
            pd = o.GetPointData()
            v, rho, ids = pd.GetArray("velocity"), pd.GetArray("density"), pd.GetArray("id")
            assert v is not None and v.GetNumberOfComponents() == 3, f
            assert rho is not None and ids is not None, f
            d = vtk_to_numpy(rho)
            assert (d > 500).all() and (d < 2000).all(), (f, d.min(), d.max())
            assert sorted(vtk_to_numpy(ids).tolist()) == list(range(n)), f
            tv = o.GetFieldData().GetArray("TimeValue")
            assert tv is not None and abs(tv.GetValue(0) - float(t)) < 1e-9, (f, t)
        print(f"check_vtp_series: {len(entries)} frames of {n} particles read by VTK "
              f"{vtk.vtkVersion.GetVTKVersion()}: velocity, density, id and TimeValue as listed")


if __name__ == "__main__":
    main()
