#!/usr/bin/env python3
"""Compressibility of seiche and of the reference code, measured the same way (issue 15, scope 4).


For each PBF iteration count, runs the 3D dam break of scenes/bench/dam_break_reference_3d.json
to t = 0.5 s in SPlisHSPlasH 2.16 (its particles exported as legacy VTK at t = 0.5 s) and in
seiche (a .vtp frame at t = 0.5 s), then measures both frames with `seiche density`: mean and
largest max(0, rho/rho0 - 1) over the fluid particles, the density summed over fluid and
seiche's boundary particles, each code's fluid with its own particle mass (SPlisHSPlasH's is
0.8 (2r)^3 rho0, seiche's rho0 over the rest lattice's kernel sum). "Equal error" then means the
same thing on both sides. Prints a
table with each code's own time per step (SPlisHSPlasH's SimStep average, seiche's ms per
step), and for each code the fewest iterations whose mean error is at most --target.

Usage: compressibility.py --sph PATH/bin/SPHSimulator [--seiche build/seiche]
                          [--iterations 1 2 3 4 6] [--target 0.5] [--threads 2]
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_reference import SEICHE_SCENE, reference_scene  # noqa: E402


def run(cmd, log, env=None, unstable_ok=False):
    with open(log, "w") as out:
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                           stdin=subprocess.DEVNULL)
    text = pathlib.Path(log).read_text(errors="replace")
    if r.returncode == 3 and unstable_ok:  # seiche's exit status for a blown-up run
        return None
    if r.returncode != 0:
        sys.exit(f"compressibility: {' '.join(map(str, cmd))} failed (see {log})")
    return text


def density(seiche, frame, log, mass=None):
    extra = ["--mass", str(mass)] if mass else []
    text = run([seiche, "density", str(frame), "--scene", SEICHE_SCENE] + extra, log)
    m = re.search(r"density error\s+mean ([0-9.]+)%, max ([0-9.]+)%", text)
    w = re.search(r"away from the walls.*mean ([0-9.]+)%, max ([0-9.]+)%", text)
    if not m or not w:
        sys.exit(f"compressibility: no density error in {log}")
    return float(m.group(1)), float(m.group(2)), float(w.group(1)), float(w.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sph", required=True, help="SPlisHSPlasH's bin/SPHSimulator")
    ap.add_argument("--seiche", default="build/seiche")
    ap.add_argument("--iterations", type=int, nargs="+", default=[1, 2, 3, 4, 6])
    ap.add_argument("--target", type=float, default=0.5, help="mean density error, %%")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--end", type=float, default=0.5, help="simulated seconds")
    args = ap.parse_args()
    sph = pathlib.Path(args.sph).resolve()
    box = sph.parent.parent / "data" / "models" / "UnitBox.obj"
    if not sph.exists() or not box.exists():
        sys.exit(f"compressibility: no SPHSimulator (or its data/models/UnitBox.obj) at {sph}")
    work = pathlib.Path(tempfile.mkdtemp(prefix="seiche_compressibility_"))
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    print(f"# dam break to t = {args.end} s, {args.threads} threads, logs in {work}; density error "
          "by `seiche density` (fluid + seiche's boundary particles) for both codes")
    print("| PBF iterations | SPlisHSPlasH mean / max error (away from walls) | seiche mean / max "
          "error (away from walls) | SPlisHSPlasH ms per step | seiche ms per step |")
    print("| --- | --- | --- | --- | --- |")
    rows = []
    for it in args.iterations:
        scene = reference_scene("pbf", it, box)
        cfg = scene["Configuration"]
        cfg["enableVTKExport"] = True
        cfg["dataExportFPS"] = 1.0 / args.end  # frames at t = 0 and t = end
        cfg["particleAttributes"] = "velocity"
        sph_scene = work / f"pbf_{it}.json"
        sph_scene.write_text(json.dumps(scene, indent=1))
        out = work / f"sph_{it}"
        text = run([sph, "--no-gui", "--no-cache", "--no-initial-pause", "--stopAt", str(args.end),
                    "--output-dir", out, sph_scene], work / f"sph_{it}.log", env)
        m = re.search(r"Average time: SimStep: ([0-9.]+) ms", text)
        sph_ms = float(m.group(1)) if m else float("nan")
        frames = sorted((out / "vtk").glob("ParticleData_Fluid_*.vtk"),
                        key=lambda p: int(re.search(r"_(\d+)\.vtk$", p.name).group(1)))
        if not frames:
            sys.exit(f"compressibility: SPlisHSPlasH wrote no particles in {out}/vtk")
        # SPlisHSPlasH's particle mass, 0.8 (2r)^3 rho0 (FluidModel.cpp): its fluid rests at 1/0.8
        # of the lattice's particle density, and is measured with its own mass.
        ref = density(args.seiche, frames[-1], work / f"density_sph_{it}.log",
                      mass=0.8 * 0.05 ** 3 * 1000.0)
        run_dir = work / f"seiche_{it}"
        text = run([args.seiche, "run", SEICHE_SCENE, "-q", "-o", run_dir, "--threads",
                    str(args.threads), "--end-time", str(args.end),
                    "--set", f"solver.pbf.min_iterations={it}",
                    "--set", f"solver.pbf.max_iterations={it}", "--set", "output.vtk=true",
                    "--set", f"time.frame_rate={1.0 / args.end}"], work / f"seiche_{it}.log",
                   unstable_ok=True)
        if text is None:  # seiche stopped the run: report it, do not measure a wreck
            unstable = (work / f"seiche_{it}.log").read_text(errors="replace")
            m = re.search(r"unstable at step \d+ \(t = ([0-9.]+) s", unstable)
            own, own_ms = (float("inf"),) * 4, float("nan")
            own_text = f"unstable at t = {float(m.group(1)):.3f} s" if m else "unstable"
        else:
            m = re.search(r"([0-9.]+) ms per step", text)
            own_ms = float(m.group(1)) if m else float("nan")
            own_frames = sorted((run_dir / "frames").glob("frame_*.vtp"))
            own = density(args.seiche, own_frames[-1], work / f"density_seiche_{it}.log")
            own_text = f"{own[0]:.3f}% / {own[1]:.2f}% ({own[2]:.3f}% / {own[3]:.2f}%)"
        rows.append((it, ref, own, sph_ms, own_ms))
        ref_text = f"{ref[0]:.3f}% / {ref[1]:.2f}% ({ref[2]:.3f}% / {ref[3]:.2f}%)"
        print(f"| {it} | {ref_text} | {own_text} | {sph_ms:.1f} | "
              f"{own_ms:.1f} |")
        sys.stdout.flush()
    for name, k, ms in (("SPlisHSPlasH", 1, 3), ("seiche", 2, 4)):
        hit = next((r for r in rows if r[k][0] <= args.target), None)
        if hit:
            print(f"- {name}: mean error <= {args.target}% from {hit[0]} iterations, "
                  f"{hit[ms]:.1f} ms per step there")
        else:
            print(f"- {name}: mean error above {args.target}% at every iteration count tried")
    hits = [next((r for r in rows if r[k][0] <= args.target), None) for k in (1, 2)]
    if all(hits):
        print(f"- at equal error: {hits[0][3] / hits[1][4]:.1f}x (time per step, "
              f"{args.threads} threads)")


if __name__ == "__main__":
    main()
