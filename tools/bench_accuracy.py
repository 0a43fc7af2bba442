#!/usr/bin/env python3
"""Speed at equal accuracy: seiche's solvers and the reference's DFSPH (SPlisHSPlasH 2.16) (issue 43).

Runs each setting on the reference dam break (scenes/bench/dam_break_reference_3d.json: 44,733
particles of radius 0.025 m in a 5 x 3 x 2 m box, XSPH 0.01) with CFL steps to t = --end (0.5 s)
and to t = --short (0.05 s), and prints per setting: whole-process CPU seconds per simulated
second with the start-up removed ((long - short) / (end - short)), steps and iterations per step
to the end, and the mean / max density error of the t = --end frame measured by `seiche density`
(each code with its own particle mass: SPlisHSPlasH's is 0.8 (2r)^3 rho0, 0.1 kg, which the
reference scene's particle_mass gives seiche too: both start from the same particles), and its
mean over the particles farther than h from the container's walls, where the boundary model plays
no part (another code's particles may rest nearer a wall than seiche's boundary lets its own),
with the median ρ/ρ0 there (the error counts compression alone: a fluid held apart reads none).
Runs are interleaved round by round (every setting once per round); --runs N takes the median
of N rounds. Last, per reference row, the answer at equal accuracy: seiche's fastest setting
with the same threads whose mean error at t = --end is at most the reference's, and whose median
density is at most 0.2% below the reference's, and the ratio of their CPU times (with --runs 2
or more also the ratio within each round, and its median: the paired figure); a reference row
whose own fluid is held apart (median below 0.995) gets none.

Settings (default: the 2-thread rows of docs/performance.md's table, the reference at its
defaults and with CFL factor 0.7 (its fastest whose fluid comes together), and seiche's fastest
PBF and DFSPH at 0.01% and 0.1%):
  ref:0.01   SPlisHSPlasH DFSPH, maxError 0.01% (its default; in per cent, as SPlisHSPlasH
             takes it), maxErrorV 0.1%, CFL to 5 ms
  ref:0.1    SPlisHSPlasH DFSPH, maxError 0.1%
  dfsph:E    seiche DFSPH, solver.dfsph.density_tolerance E (0.0001 = 0.01%)
  pbf:E      seiche PBF, solver.pbf.density_tolerance E, up to 100 iterations
On a machine shared with other processes give OMP_WAIT_POLICY=passive (the reference's OpenMP
threads spin at every barrier by default, which beside other load triples its 2-thread CPU time;
the tool warns). A setting may end in @1 for one thread (default --threads 2), e.g. dfsph:0.0001@1, and a seiche
setting may add scene keys with +, e.g. pbf:0.0001+solver.pbf.over_relaxation=1.5, and a reference
setting its Configuration keys, e.g. ref:0.01+cflFactor=1 (its CFL factor, 0.5 by default).

The reference is built from its public repository (docs/performance-history.md, "Side by side
with the reference code"); give its binary with --sph (needed only for the ref settings).

With --plot FILE.png it also draws CPU time per simulated second against the mean density error
(both logarithmic): the reference's rows as squares, seiche's PBF as circles and DFSPH as
triangles, filled for 2 threads and hollow for 1, with a bar over the rounds' range when there
are two or more, each reference row joined to its answer at equal accuracy with the ratio
written beside it (needs python3-matplotlib).

A run with fewer threads than the machine's processors is held to the first of them (the same
for both codes; --no-pin lets the kernel place it): on a shared virtual machine the processors
can differ in speed by more than half, and a run's time would depend on where it landed. Before
each round and after the last the tool times a short `seiche bench` of the scene on one thread
held to each processor in turn, prints the ms per step, and says when they differed or moved by
more than a tenth: processors that differ slow every 2-thread row (a thread runs on each), the
reference's as well as seiche's, and a speed that moves within a round moves its ratios.

Usage: bench_accuracy.py [--sph PATH/bin/SPHSimulator] [--seiche build/seiche] [--runs 1]
                         [--end 0.5] [--short 0.05] [--threads 2] [--plot FILE.png] [--no-pin]
                         [SETTING ...]
"""
import argparse
import glob
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_reference  # noqa: E402  (the reference's scene)

SEICHE_SCENE = "scenes/bench/dam_break_reference_3d.json"
# The settings of docs/performance.md's table: the reference at its defaults and with longer
# steps, and seiche's fastest PBF and DFSPH at its defaults' mean error, at 0.01% and 0.1%. The
# 0.1% PBF row takes the 0.01% row's steps (CFL 1, up to 6 ms) at a tolerance of 0.0007 with ω 1.1:
# 0.88 of the CPU time of CFL 0.8, up to 5 ms, at 0.00075 with ω 1 (0.941–0.946 for the steps,
# 0.934–0.935 more for ω; paired), 0.0667% / 0.82% at 0.5 s against 0.0687% / 0.88%
# (docs/performance-history.md, "The 0.1% row at the 0.01% row's steps"). (The table's figures of
# 2026-11-29 were measured at CFL 0.8 and 0.0008, whose error sat at the reference's.)
DEFAULT = ["ref:0.01", "ref:0.008+cflFactor=0.7",
           "pbf:0.00009+solver.pbf.over_relaxation=1.45+solver.pbf.warm_start=0.8"
           "+solver.pbf.warm_start_join=larger+solver.pbf.peak_tolerance=0.0011"
           "+solver.pbf.min_iterations=1+time.cfl=1+time.max_dt=0.006",
           "dfsph:0.00007",
           "ref:0.1", "ref:0.1+cflFactor=0.7",
           "pbf:0.0007+solver.pbf.over_relaxation=1.1+solver.pbf.warm_start=0.8"
           "+solver.pbf.warm_start_join=larger+solver.pbf.min_iterations=1+time.cfl=1"
           "+time.max_dt=0.006",
           "dfsph:0.0007"]


def reference_scene(max_error, box_obj, end):
    """The dam break of bench_reference.py with DFSPH, CFL steps (its defaults: factor 0.5, up to
    5 ms) and the last frame exported as VTK."""
    scene = bench_reference.reference_scene("dfsph", max_error, box_obj)
    scene["Configuration"].update({"cflMethod": 1, "cflFactor": 0.5, "cflMaxTimeStepSize": 0.005,
                                   "enableVTKExport": True, "dataExportFPS": 1.0 / end})
    return scene


def timed(cmd, env, log, cpus=None):
    """Runs cmd, held to the processors cpus if given; returns the CPU seconds of the finished
    child."""
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, preexec_fn=pin)
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        print(f"bench_accuracy: {' '.join(map(str, cmd))} failed (see {log})", file=sys.stderr)
        return None
    return usage.ru_utime + usage.ru_stime


def density(seiche, frame, mass=None):
    # Another code's frame: the reference scene with that code's particle mass; seiche's: the
    # scene its run wrote (its own particle_mass).
    cmd = [seiche, "density", str(frame)]
    if mass:
        cmd += ["--scene", SEICHE_SCENE, "--mass", str(mass)]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"density error\s+mean ([0-9.]+)%, max ([0-9.]+)%", text)
    # Farther than h from the container's walls the boundary model plays no part: the fluid's
    # own sum, the same measure for either code's particles.
    a = re.search(r"away from the walls .*: mean ([0-9.]+)%", text)
    # The error counts compression alone: a fluid held apart reads no error. Its median density
    # away from the walls shows that.
    d = re.search(r"rho/rho0 away from the walls: median ([0-9.]+)", text)
    return float(m.group(1)), float(m.group(2)), float(a.group(1)), float(d.group(1))


def processor_speeds(seiche, allowed):
    """ms per step of a short `seiche bench` of the reference scene on one thread, held to each
    processor in turn (None where it could not be read): on a shared virtual machine the
    processors' speeds differ and change, and a 2-thread run has a thread on each."""
    speeds = []
    for cpu in allowed:
        text = subprocess.run([seiche, "bench", SEICHE_SCENE, "--steps", "40", "--threads", "1"],
                              capture_output=True, text=True,
                              preexec_fn=lambda c=cpu: os.sched_setaffinity(0, {c})).stdout
        m = re.search(r"ms per step\s+([\d.]+) \(median\)", text)
        speeds.append(float(m.group(1)) if m else None)
    return speeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("settings", nargs="*", default=DEFAULT)
    ap.add_argument("--sph", help="SPlisHSPlasH's bin/SPHSimulator")
    ap.add_argument("--seiche", default="build/seiche")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--end", type=float, default=0.5)
    ap.add_argument("--short", type=float, default=0.05)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--plot", help="also draw the rows and the answers into this PNG")
    ap.add_argument("--no-pin", action="store_true",
                    help="let the kernel place runs with fewer threads than processors")
    args = ap.parse_args()
    # A run with fewer threads than processors is held to the first processors this tool may
    # use, the same ones for both codes: the two vCPUs of a shared machine ran the same 1-thread
    # run in 1.8 and 3.1 s in the same minutes (2026-12-08), so unpinned, each run's time would
    # depend on where the kernel put it.
    allowed = sorted(os.sched_getaffinity(0))
    pins = lambda threads: (None if args.no_pin or threads >= len(allowed)
                            else set(allowed[:threads]))
    if args.plot:
        try:
            import matplotlib  # noqa: F401  (checked before the runs, not after them)
        except ImportError:
            sys.exit("bench_accuracy: --plot needs matplotlib (Debian: python3-matplotlib; run "
                     "with /usr/bin/python3)")
    work = pathlib.Path(tempfile.mkdtemp(prefix="seiche_accuracy_"))
    load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {load()}; median of {args.runs} run(s); t = {args.end} s, start-up removed with "
          f"t = {args.short} s; logs in {work}")
    if not args.no_pin and any(int(s.partition("@")[2] or args.threads) < len(allowed)
                               for s in args.settings):
        print(f"# runs with fewer threads than the {len(allowed)} processors held to the first "
              f"of them (1 thread: processor {allowed[0]}); --no-pin to let the kernel place them")
    # SPlisHSPlasH's threads are OpenMP's, which spin at every barrier by default: beside other
    # processes (a shared machine) that tripled its 2-thread CPU time (191.8 against 60.6 CPU s
    # per simulated s with OMP_WAIT_POLICY=passive, 2026-11-28, load 3). seiche's pool is not
    # OpenMP. Say which policy the figures had.
    policy = os.environ.get("OMP_WAIT_POLICY", "")
    print(f"# OMP_WAIT_POLICY={policy or '(unset: OpenMP spins)'}")
    # The pair loops the build runs (SEICHE_PAIR_LANES): builds compare only with this in view.
    try:
        version = subprocess.run([args.seiche, "--version"], capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"bench_accuracy: cannot run seiche ({args.seiche}): {e.strerror}; build it "
                 "(make build) or give --seiche")
    print(f"# {version.stdout.strip() or args.seiche + ': no --version'}")
    if not policy and float(load().split()[0]) >= 0.5 * (os.cpu_count() or 1) and any(
            s.startswith("ref:") and int(s.partition("@")[2] or args.threads) > 1
            for s in args.settings):
        print("bench_accuracy: the machine is busy and OMP_WAIT_POLICY is unset: the reference's "
              "spinning OpenMP threads will read far more CPU time than they need; "
              "run with OMP_WAIT_POLICY=passive for a fair comparison", file=sys.stderr)
    # Whether the processors ran alike and kept their speed: timed before each round and after
    # the last.
    probe = any(not x.startswith("ref:") for x in args.settings) and len(allowed) > 1
    probes = []
    print("| setting | threads | CPU s per simulated s | steps | iterations per step (both solves) | "
          "density error at t = end: mean / max | mean farther than h from the walls | "
          "median ρ/ρ0 there |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    # Every setting's commands first; then round after round, each round running every setting
    # once (short and long), so that the settings' medians come from the same stretches of the
    # machine's load (a shared machine's speed drifts by a third within minutes).
    plan = []
    for setting in args.settings:
        name, _, threads = setting.partition("@")
        threads = int(threads or args.threads)
        name, *extra = name.split("+")
        kind, _, value = name.partition(":")
        if kind == "ref" and value and float(value) < 0.005:
            # SPlisHSPlasH's maxError is in per cent, seiche's tolerances are fractions.
            print(f"bench_accuracy: {setting}: the reference's maxError is in per cent "
                  f"(ref:0.01 = 0.01%); did you mean ref:{float(value) * 100:g}?", file=sys.stderr)
        tag = "".join("_" + re.sub(r"[^\w.=]", "", e.rpartition(".pbf.")[2].rpartition(".dfsph.")[2])
                      for e in extra)
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        cmds = {}
        for t in (args.short, args.end):
            out = work / f"{kind}_{value}{tag}_{threads}_{t}"
            if kind == "ref":
                if not args.sph:
                    sys.exit("bench_accuracy: the ref settings need --sph")
                sph = pathlib.Path(args.sph).resolve()
                box = sph.parent.parent / "data" / "models" / "UnitBox.obj"
                scene = work / f"ref_{value}{tag}_{t}.json"
                config = reference_scene(float(value), box, t)
                for e in extra:  # the reference's own keys: ref:0.01+cflFactor=1
                    key, _, v = e.partition("=")
                    if key not in config["Configuration"]:
                        sys.exit(f"bench_accuracy: {setting}: the reference scene has no "
                                 f"Configuration key {key}")
                    config["Configuration"][key] = json.loads(v)
                scene.write_text(json.dumps(config, indent=1))
                cmd = [str(sph), "--no-gui", "--no-cache", "--no-initial-pause", "--stopAt",
                       str(t), "--output-dir", str(out), str(scene)]
            elif kind in ("dfsph", "pbf"):
                cmd = [args.seiche, "run", SEICHE_SCENE, "-q", "--overwrite", "-o", str(out),
                       f"--threads={threads}", "--solver", kind, "--end-time", str(t),
                       "--set", "time.dt_mode=cfl", "--set", f"time.frame_rate={1.0 / t}",
                       "--set", "output.vtk=true", "--set", "output.stats=true",
                       "--set", f"solver.{kind}.density_tolerance={value}"]
                if kind == "pbf":
                    cmd += ["--set", "solver.pbf.max_iterations=100"]
                for e in extra:
                    cmd += ["--set", e]
            else:
                sys.exit(f"bench_accuracy: unknown setting {setting}")
            cmds[t] = (cmd, out)
        plan.append(dict(setting=setting, threads=threads, kind=kind, value=value, extra=extra,
                         tag=tag, env=env, cmds=cmds, runs={t: [] for t in cmds}))
    for i in range(args.runs):
        if probe:
            probes.append(processor_speeds(args.seiche, allowed))
        for s in plan:
            for t, (cmd, out) in s["cmds"].items():
                if None in s["runs"][t]:
                    continue  # failed before (unstable): not run again
                print(f"  {s['setting']} t={t} run {i + 1}/{args.runs}, load {load()}",
                      file=sys.stderr)
                s["runs"][t].append(timed(cmd, s["env"], work / f"{out.name}_{i}.log",
                                          pins(s["threads"])))
    if probe:
        probes.append(processor_speeds(args.seiche, allowed))
        show = lambda p: ", ".join(f"{c}: {v:.2f}" if v else f"{c}: ?" for c, v in zip(allowed, p))
        print("# processors' speeds (seiche bench of the scene, 1 thread held to each, ms per "
              "step), before each round and after the last: " + " / ".join(map(show, probes)))
        seen = [v for p in probes for v in p if v]
        if seen and max(seen) > 1.1 * min(seen):
            print(f"# the processors' speeds differed or moved by {max(seen) / min(seen) - 1:.0%} "
                  "over the call: a round's runs ran at different speeds, and the ratios are "
                  "less certain than their spread shows")
    rows = []  # (kind, row label, threads, CPU s per simulated s, mean error %, median, point)
    points = []  # the rows for the plot
    matches = []  # (reference point, seiche point) at equal accuracy
    for s in plan:
        setting, threads, kind, value, extra, tag = (
            s["setting"], s["threads"], s["kind"], s["value"], s["extra"], s["tag"])
        cpu = {t: None if None in r else statistics.median(r) for t, r in s["runs"].items()}
        if None in cpu.values():  # a run failed (unstable): said so, and on to the next setting
            print(f"| {setting} | {threads} | failed: see {work} | | | | |")
            continue
        per_second = (cpu[args.end] - cpu[args.short]) / (args.end - args.short)
        # Round by round as well: a ratio taken within each round pairs runs made minutes apart,
        # so a machine whose speed drifts between rounds moves it less than the medians' ratio.
        per_round = [(b - a) / (args.end - args.short)
                     for a, b in zip(s["runs"][args.short], s["runs"][args.end])]
        out = work / f"{kind}_{value}{tag}_{threads}_{args.end}"
        if kind == "ref":
            frames = sorted(glob.glob(str(out / "vtk" / "ParticleData_Fluid_*.vtk")),
                            key=lambda p: int(re.findall(r"_(\d+)\.vtk$", p)[0]))
            mean, worst, away, median = density(args.seiche, frames[-1], 0.8 * 0.05 ** 3 * 1000)
            # At exit it prints its counters: "Total number: Time step size: T" is the sum of its
            # steps, "Average number: ..." the mean per step.
            text = (work / f"{out.name}_0.log").read_text(errors="replace")
            number = lambda kind, what: [float(v) for v in re.findall(
                kind + r" number: " + re.escape(what) + r":\s*([0-9.eE+-]+)", text)]
            total, mean_dt = number("Total", "Time step size"), number("Average", "Time step size")
            rho_it = number("Average", "DFSPH - iterations")
            div_it = number("Average", "DFSPH - iterationsV")
            steps_text = str(round(total[-1] / mean_dt[-1])) if total and mean_dt else "see log"
            iters_text = (f"{rho_it[-1] + div_it[-1]:.1f}" if rho_it and div_it else "see log")
        else:
            frame = sorted((out / "frames").glob("frame_*.vtp"))[-1]
            mean, worst, away, median = density(args.seiche, frame)
            summary = json.loads((out / "summary.json").read_text())
            steps_text = str(summary["steps"])
            iters_text = f"{summary['mean_iterations']:.1f}"
            # Steps whose solve stopped at max_iterations above its tolerance (the error measured
            # is what the row compares; this says how it got there).
            if summary.get("capped_steps", 0) > 0:
                iters_text += f" ({100 * summary['capped_steps'] / summary['steps']:.0f}% capped)"
        label = {"ref": "SPlisHSPlasH DFSPH, maxError", "dfsph": "seiche DFSPH, tolerance",
                 "pbf": "seiche PBF, tolerance"}[kind]
        shown = f"{value}%" if kind == "ref" else value
        row_label = f"{label} {shown}{' ' + ' '.join(extra) if extra else ''}"
        print(f"| {row_label} | {threads} | {per_second:.1f} | {steps_text} | {iters_text} | "
              f"{mean:.4f}% / {worst:.3f}% | {away:.4f}% | {median:.4f} |")
        sys.stdout.flush()
        points.append(dict(kind=kind, value=value, extra=extra, threads=threads, cpu=per_second,
                           mean=mean, per_round=per_round))
        rows.append((kind, row_label, threads, per_second, mean, median, points[-1]))
    # The answer at equal accuracy: against each reference row, seiche's fastest setting with
    # the same threads whose mean error at t = end is at most the reference's, and whose fluid
    # is not held apart instead (its median density away from the walls at most 0.2% below the
    # reference's: a warm start that pushes too hard leaves no compression to count).
    speedups = []
    for kind, ref_label, threads, ref_cpu, ref_mean, ref_median, ref_point in rows:
        if kind != "ref":
            continue
        if ref_median < 0.995:
            # The reference's own fluid held apart (its CFL factor 1 at 0.5 s: 0.92): its low
            # error is not accuracy, and no ratio against it is one at equal accuracy.
            speedups.append(f"- {ref_label} ({threads} thread{'s' if threads > 1 else ''}, "
                            f"{ref_mean:.4f}%): its fluid is held apart (median ρ/ρ0 away from "
                            f"the walls {ref_median:.4f}): not a row to compare at equal accuracy")
            continue
        ok = [(cpu, label, mean, point) for k, label, th, cpu, mean, median, point in rows
              if k != "ref" and th == threads and mean <= ref_mean and cpu > 0
              and median >= ref_median - 0.002]
        if ok:
            cpu, label, mean, answer = min(ok, key=lambda o: o[0])
            matches.append((ref_point, answer))
            rounds = [r / a for r, a in zip(ref_point["per_round"], answer["per_round"]) if a > 0]
            paired = (f"; round by round {' / '.join(f'{x:.2f}' for x in rounds)}, median "
                      f"{statistics.median(rounds):.2f}x" if len(rounds) > 1 else "")
            speedups.append(f"- {ref_label} ({threads} thread{'s' if threads > 1 else ''}, "
                            f"{ref_mean:.4f}%): {label}, {ref_cpu / cpu:.2f}x less CPU time "
                            f"({cpu:.2f} against {ref_cpu:.2f} s per simulated s, {mean:.4f}%"
                            f"{paired})")
        else:
            speedups.append(f"- {ref_label} ({threads} thread{'s' if threads > 1 else ''}, "
                            f"{ref_mean:.4f}%): no seiche setting here reached its error")
    if speedups:
        print("\nAt equal accuracy (seiche's fastest setting at or below each reference row's "
              "mean error, its fluid not held apart, the same threads):")
        print("\n".join(speedups))
    if args.plot:
        plot(args.plot, points, matches, args.end)


def short_label(q):
    """'ref 0.01%, CFL 0.7', 'PBF 0.0008', 'DFSPH 0.00007' (with the thread count if 1)."""
    name = {"ref": "ref", "pbf": "PBF", "dfsph": "DFSPH"}[q["kind"]]
    text = f"{name} {q['value']}{'%' if q['kind'] == 'ref' else ''}"
    for e in q["extra"]:
        key, _, v = e.partition("=")
        if key == "cflFactor":
            text += f", CFL {v}"
    return text + (" @1" if q["threads"] == 1 else "")


def plot(path, points, matches, end):
    """CPU s per simulated s against the mean density error, one marker per row (a row with no
    error at all has no place on the logarithmic axis: left out, and said so)."""
    for q in points:
        if not q["mean"] > 0:
            print(f"plot: {short_label(q)} left out (mean density error {q['mean']:g}%)")
    points = [q for q in points if q["mean"] > 0]
    matches = [(a, b) for a, b in matches if a["mean"] > 0 and b["mean"] > 0]
    if not points:
        print("plot: no row to draw")
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401  (matplotlib.ticker below)
    style = {"ref": ("s", "0.35"), "pbf": ("o", "tab:blue"), "dfsph": ("^", "tab:purple")}
    fig, ax = plt.subplots(figsize=(9, 6))
    ratios = {}  # id of a seiche point: "7.0x ref 0.01%", one line per reference row it answers
    for ref, answer in matches:
        ax.plot([ref["mean"], answer["mean"]], [ref["cpu"], answer["cpu"]], ls="--", lw=0.8,
                color="0.7", zorder=1)
        ratios.setdefault(id(answer), []).append(
            f"{ref['cpu'] / answer['cpu']:.1f}x less than {short_label(ref).replace(' @1', '')}")
    for q in points:
        marker, color = style[q["kind"]]
        rounds = q.get("per_round", [])
        if len(rounds) > 1:  # the spread of the rounds (the point is their median)
            ax.plot([q["mean"]] * 2, [min(rounds), max(rounds)], color=color, lw=1.2, zorder=2,
                    solid_capstyle="butt")
        ax.scatter([q["mean"]], [q["cpu"]], marker=marker, s=60, edgecolors=color,
                   facecolors=color if q["threads"] > 1 else "none", linewidths=1.5, zorder=3)
        text = "\n".join([short_label(q)] + ratios.get(id(q), []))
        # The pairs of 1 and 2 threads sit close together: seiche's 1-thread labels below their
        # points, the reference's to the left.
        if q["threads"] == 1 and q["kind"] == "ref":
            where = dict(xytext=(-8, 0), ha="right", va="center")
        elif q["threads"] == 1:
            where = dict(xytext=(8, -10), ha="left", va="top")
        else:
            where = dict(xytext=(8, 2), ha="left", va="bottom")
        ax.annotate(text, (q["mean"], q["cpu"]), textcoords="offset points", fontsize=7,
                    color=color, **where)
    ax.set_xscale("log")
    ax.set_yscale("log")
    lo = min(q["mean"] for q in points)
    hi = max(q["mean"] for q in points)
    ax.set_xlim(lo / 2.5, hi * 4)  # room for the labels
    ax.set_ylim(min(min([q["cpu"]] + q.get("per_round", [])) for q in points) / 1.4,
                max(max([q["cpu"]] + q.get("per_round", [])) for q in points) * 1.3)
    ax.set_xlabel(f"mean density error at t = {end:g} s, % (compression only)")
    ax.set_ylabel("CPU s per simulated s (start-up removed)")
    ax.set_title("Reference dam break, 44,733 particles: SPlisHSPlasH DFSPH (squares) against "
                 "seiche\nPBF (circles) and DFSPH (triangles); filled 2 threads, hollow 1; "
                 "bars: the rounds' range", fontsize=9)
    # Plain numbers at 1-2-5 steps on both logarithmic axes.
    steps = [m * 10.0 ** k for k in range(-4, 4) for m in (1, 2, 5)]
    for axis, (a, b) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        axis.set_major_locator(matplotlib.ticker.FixedLocator([t for t in steps if a <= t <= b]))
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    fig.tight_layout()
    # Written beside and renamed: an interrupted run leaves the last whole figure, not half of one.
    partial = f"{path}.partial.png"
    fig.savefig(partial, dpi=110)
    os.replace(partial, path)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
