#!/usr/bin/env python3
"""seiche side by side with the reference code, SPlisHSPlasH 2.16, on the same scene (issue 15).

Runs the reference's SPHSimulator (A) and `seiche bench` (B) in turn, A B A B ..., on the 3D dam break
of scenes/bench/dam_break_reference_3d.json (44,733 fluid particles of radius 0.025 m in a
5 x 3 x 2 m box, fixed steps of 1 ms, XSPH 0.01), for a long and a short simulated time, and
prints per code the whole-process CPU and wall time per step with the start-up removed
((long - short) / extra steps), and the ratio A/B pair by pair. Neither program writes output.

Settings (any of them, default pbf pbf1 wcsph):
  pbf    PBF, exactly N iterations per step (--iterations, default 3), 2 threads
  pbf1   the same on 1 thread
  wcsph  WCSPH, Tait stiffness 50000 Pa and exponent 7 (seiche: c = sqrt(B*gamma/rho0)),
         XSPH 0.01 and no other viscosity, 2 threads

The reference is built from its public repository (docs/performance-history.md, "Side by side with the reference code", says how); give its binary
with --sph. Its scenes are written to a temporary folder from the settings below, the box taken
from its own data/models/UnitBox.obj. Both programs use all their threads through OMP_NUM_THREADS
or --threads.

Usage: bench_reference.py --sph PATH/bin/SPHSimulator [--seiche build/seiche] [--runs 5]
                          [--long 0.1] [--short 0.02] [--iterations 3] [SETTING ...]
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

SEICHE_SCENE = "scenes/bench/dam_break_reference_3d.json"


def reference_scene(method, iterations, box_obj):
    """The dam break in SPlisHSPlasH 2.16's scene format (one namespace per solver); for dfsph,
    `iterations` is its maxError in per cent."""
    config = {
        "pause": False, "sim2D": False, "particleRadius": 0.025,
        "gravitation": [0.0, -9.81, 0.0], "timeStepSize": 0.001, "cflMethod": 0,
        "kernel": 0, "gradKernel": 0, "boundaryHandlingMethod": 0,  # cubic spline, Akinci 2012
        "enablePartioExport": False, "enableVTKExport": False, "enableRigidBodyExport": False,
        "enableStateExport": False,
    }
    if method == "pbf":
        config["simulationMethod"] = 2
        config["PBF"] = {"minIterations": iterations, "maxIterations": iterations,
                         "maxError": 1e-6, "velocityUpdateMethod": 0}
    elif method == "dfsph":  # its defaults but maxError; bench_accuracy.py sets its CFL steps
        config["simulationMethod"] = 4
        config["DFSPH"] = {"minIterations": 2, "maxIterations": 100, "maxError": iterations,
                           "enableDivergenceSolver": True, "maxIterationsV": 100, "maxErrorV": 0.1}
    else:
        config["simulationMethod"] = 0
        config["WCSPH"] = {"stiffness": 50000, "exponent": 7}
    return {
        "Configuration": config,
        "Materials": [{"id": "Fluid", "density0": 1000, "viscosityMethod": 0, "vorticityMethod": 0,
                       "surfaceTensionMethod": 0, "dragMethod": 0, "elasticityMethod": 0,
                       "XSPH": {"xsph": 0.01, "xsphBoundary": 0.0}}],
        "RigidBodies": [{"geometryFile": str(box_obj), "translation": [0.0, 1.5, 0.0],
                         "rotationAxis": [1, 0, 0], "rotationAngle": 0, "scale": [5.0, 3.0, 2.0],
                         "isDynamic": False, "isWall": True, "samplingMode": 1}],
        "FluidBlocks": [{"id": "Fluid", "denseMode": 0, "start": [-2.45, 0.05, -0.95],
                         "end": [-0.85, 2.05, 0.95], "translation": [0, 0, 0], "scale": [1, 1, 1]}],
    }


def timed(cmd, env, log):
    """Runs cmd; returns (wall s, cpu s, peak RSS MiB) of the finished child, and its output."""
    t0 = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_reference: {' '.join(cmd)} failed (see {log})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def median(xs):
    return statistics.median(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("settings", nargs="*", default=["pbf", "pbf1", "wcsph"])
    ap.add_argument("--sph", required=True, help="SPlisHSPlasH's bin/SPHSimulator")
    ap.add_argument("--seiche", default="build/seiche")
    ap.add_argument("--runs", type=int, default=5, help="pairs per setting and length")
    ap.add_argument("--long", type=float, default=0.1, help="simulated seconds of a long run")
    ap.add_argument("--short", type=float, default=0.02, help="simulated seconds of a short run")
    ap.add_argument("--iterations", type=int, default=3, help="PBF iterations per step")
    ap.add_argument("--threads", type=int, default=2, help="threads of the pbf and wcsph settings")
    args = ap.parse_args()
    sph = pathlib.Path(args.sph).resolve()
    box = sph.parent.parent / "data" / "models" / "UnitBox.obj"
    for path, what in ((sph, "SPHSimulator"), (box, "its data/models/UnitBox.obj"),
                       (pathlib.Path(args.seiche), "seiche")):
        if not path.exists():
            sys.exit(f"bench_reference: no {what} at {path}")
    work = pathlib.Path(tempfile.mkdtemp(prefix="seiche_reference_"))
    dt = 0.001
    load = lambda: open("/proc/loadavg").read().split()[:3]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {' '.join(load())}; {args.runs} pairs per row, logs in {work}")
    print("| setting | code | ms CPU per step | ms wall per step | CPU ratio ref/seiche "
          "(pairs: median, min-max) | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- |")
    for setting in args.settings:
        if setting not in ("pbf", "pbf1", "wcsph"):
            sys.exit(f"bench_reference: unknown setting {setting} (pbf, pbf1, wcsph)")
        method = "wcsph" if setting == "wcsph" else "pbf"
        threads = 1 if setting == "pbf1" else args.threads
        scene = work / f"dambreak_{method}.json"
        scene.write_text(json.dumps(reference_scene(method, args.iterations, box), indent=1))
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        seiche_args = [f"--threads={threads}"]
        if method == "pbf":
            seiche_args += ["--set", f"solver.pbf.min_iterations={args.iterations}",
                            "--set", f"solver.pbf.max_iterations={args.iterations}"]
        else:
            # SPlisHSPlasH's Tait equation: B = 50000 Pa, gamma = 7 -> c = sqrt(B gamma / rho0).
            seiche_args += ["--solver", "wcsph", "--set", "solver.wcsph.speed_of_sound=18.708",
                            "--set", "solver.wcsph.gamma=7", "--set", "solver.wcsph.viscosity=0",
                            "--set", "solver.xsph=0.01"]
        res = {}
        for t in (args.short, args.long):
            steps = round(t / dt)
            a_cmd = [str(sph), "--no-gui", "--no-cache", "--no-initial-pause", "--stopAt", str(t),
                     "--output-dir", str(work / "sph_out"), str(scene)]
            b_cmd = [args.seiche, "bench", SEICHE_SCENE, "--steps", str(steps)] + seiche_args
            timed(a_cmd, env, work / "warmup_a.log")  # one pair not counted
            timed(b_cmd, env, work / "warmup_b.log")
            for i in range(args.runs):
                print(f"  {setting} t={t} pair {i + 1}/{args.runs}, load {' '.join(load())}",
                      file=sys.stderr)
                a = timed(a_cmd, env, work / f"{setting}_{t}_a{i}.log")
                b = timed(b_cmd, env, work / f"{setting}_{t}_b{i}.log")
                res.setdefault(t, []).append((a, b))
            # SPlisHSPlasH stops at the first step past stopAt: count its steps from its log.
            text = (work / f"{setting}_{t}_a0.log").read_text(errors="replace")
            # "Total number: Time step size: T" is the sum of its step sizes.
            m = re.findall(r"Total number: Time step size:\s*([0-9.eE+-]+)", text)
            res[(t, "a_steps")] = round(float(m[-1]) / dt) if m else steps
            res[(t, "b_steps")] = steps
        per_step = {}
        for who, k in (("SPlisHSPlasH 2.16", 0), ("seiche", 1)):
            extra = res[(args.long, "ab"[k] + "_steps")] - res[(args.short, "ab"[k] + "_steps")]
            cpu = (median(r[k][1] for r in res[args.long]) -
                   median(r[k][1] for r in res[args.short])) / extra * 1000
            wall = (median(r[k][0] for r in res[args.long]) -
                    median(r[k][0] for r in res[args.short])) / extra * 1000
            per_step[k] = cpu
            rss = median(r[k][2] for r in res[args.long])
            ratios = sorted(r[0][1] / r[1][1] for r in res[args.long])
            ratio = (f"{median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f}) whole process"
                     if k == 1 else "")
            print(f"| {setting} ({threads} thread{'s' if threads > 1 else ''}) | {who} | "
                  f"{cpu:.1f} | {wall:.1f} | {ratio} | {rss:.0f} MiB |")
        print(f"| {setting} | ratio, start-up removed | **{per_step[0] / per_step[1]:.2f}x** "
              f"| | | |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
