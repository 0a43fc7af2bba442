#!/usr/bin/python3
"""Plots and the HTML report of `seiche compare`.

Usage: plot_compare.py REPORT_DIR  (called by seiche compare)
Reads REPORT_DIR/{runs,timeseries,scaling,stability,stable_dt,accuracy}.csv (and sensors.csv when
the scene has pressure sensors: sensors.png) and settings.json;
writes density_error.png, kinetic_energy.png, run_time.png, ms_per_step.png, stable_dt.png,
accuracy.png and index.html, a single file with every picture inlined, so it can be mailed or
archived as it is.
"""
import base64
import csv
import html
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

COLORS = {"pbf": "tab:blue", "wcsph": "tab:orange", "ddr": "tab:green", "dfsph": "tab:purple"}
STYLES = ["-", "--", ":", "-."]


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def run_styles(runs):
    """Colour by solver, line style by sweep combination."""
    params = list(dict.fromkeys(r["params"] for r in runs))
    return {r["run"]: (COLORS.get(r["solver"], "k"), STYLES[params.index(r["params"]) % 4])
            for r in runs}


def time_plot(out, runs, series, column, scale, ylabel, title, name, log=False, hline=None):
    styles = run_styles(runs)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    if hline is not None:
        value, label = hline
        ax.axhline(value, color="#555", linestyle=":", linewidth=1.2, label=label)
    for run in styles:
        pts = [(float(s["t"]), scale * float(s[column])) for s in series if s["run"] == run]
        if pts:
            color, style = styles[run]
            ax.plot(*zip(*pts), color=color, linestyle=style, label=run.upper()
                    if run in COLORS else run)
    ax.set(xlabel="simulated time t (s)", ylabel=ylabel, title=title)
    if log:
        ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, name))
    plt.close(fig)


def sensors_plot(out, runs, sensors):
    """sensors.png: each pressure sensor of the scene (a panel, up to eight) under every run."""
    names = [k for k in sensors[0] if k not in ("run", "time")][:8]
    styles = run_styles(runs)
    cols = 1 if len(names) <= 2 else 2
    lines = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(lines, cols, figsize=(7 * cols, 2.6 * lines + 0.6), dpi=110,
                             sharex=True, squeeze=False)
    for k, name in enumerate(names):
        ax = axes[k // cols][k % cols]
        for run in styles:
            pts = [(float(s["time"]), float(s[name]) / 1000) for s in sensors if s["run"] == run]
            if pts:
                color, style = styles[run]
                ax.plot(*zip(*pts), color=color, linestyle=style, linewidth=0.9,
                        label=run.upper() if run in COLORS else run)
        ax.axhline(0, color="0.7", linewidth=0.5)
        ax.set(ylabel="p (kPa)", title=name)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for k in range(len(names), lines * cols):
        axes[k // cols][k % cols].set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("simulated time t (s)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sensors.png"))
    plt.close(fig)


def scaling_plot(out, scaling, runs):
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for solver in dict.fromkeys(r["solver"] for r in scaling + runs):
        pts = sorted((int(r["fluid_particles"]), float(r["ms_per_step"]),
                      float(r.get("ms_per_step_min") or r["ms_per_step"]),
                      float(r.get("ms_per_step_max") or r["ms_per_step"]))
                     for r in scaling if r["solver"] == solver)
        if pts:
            n, med, lo, hi = zip(*pts)
            repeats = next((r.get("repeats") for r in scaling if r["solver"] == solver), "1")
            ax.errorbar(n, med, yerr=[[m - a for m, a in zip(med, lo)],
                                      [b - m for m, b in zip(med, hi)]],
                        fmt="o-", capsize=3, color=COLORS.get(solver),
                        label=f"{solver.upper()} (40 steps; median, min-max of {repeats})")
        full = [(int(r["fluid_particles"]), float(r["ms_per_step"]))
                for r in runs if r["solver"] == solver]
        if full:
            ax.plot(*zip(*full), "s", mfc="none", color=COLORS.get(solver),
                    label=f"{solver.upper()} (whole runs)")
    ax.set(xlabel="fluid particles", ylabel="wall time per step (ms, median)",
           title="Time per step against particle count")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "ms_per_step.png"))
    plt.close(fig)


def stability_plot(out, trials, best):
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    solvers = list(dict.fromkeys([b["solver"] for b in best] + [t["solver"] for t in trials]))
    for k, solver in enumerate(solvers):
        for t in trials:
            if t["solver"] == solver:
                ok = t["stable"] == "yes"
                ax.plot(k, float(t["dt"]), "o" if ok else "x", color="tab:green" if ok else
                        "tab:red", ms=7)
        for b in best:
            if b["solver"] == solver and float(b["largest_stable_dt"]) > 0:
                dt = float(b["largest_stable_dt"])
                ax.bar(k, dt, width=0.5, color=COLORS.get(solver), alpha=0.45)
                ax.annotate(f"{dt * 1e3:.3g} ms", (k, dt), ha="center", va="bottom", fontsize=9,
                            xytext=(0, 4), textcoords="offset points")
    ax.plot([], [], "o", color="tab:green", label="trial stable")
    ax.plot([], [], "x", color="tab:red", label="trial blew up")
    ax.set_xticks(range(len(solvers)), [s.upper() for s in solvers])
    ax.set_yscale("log")
    ax.set(ylabel="fixed time step dt (s)",
           title="Largest stable time step (bars) and the search's trials")
    ax.grid(alpha=0.3, axis="y", which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "stable_dt.png"))
    plt.close(fig)


def accuracy_points(acc, runs):
    """(solver, mean density error, wall s per simulated s, label) of every finished run: the
    accuracy runs and the main runs at the scene's own settings."""
    pts = []
    for r in acc:
        if r["status"] == "done" and float(r["simulated_time"]) > 0:
            pts.append((r["solver"], float(r["density_error_mean"]),
                        float(r["wall_s_per_simulated_s"]), f"target {100 * float(r['target_error']):.3g}%"))
    for r in runs:
        if r["status"] == "done" and float(r["simulated_time"]) > 0:
            pts.append((r["solver"], float(r["density_error_mean"]),
                        float(r["wall_s_per_simulated_s"]), r["run"]))
    return pts


def accuracy_plot(out, acc, runs):
    pts = accuracy_points(acc, runs)
    if not acc or not pts:
        return
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for solver in dict.fromkeys(p[0] for p in pts):
        color = COLORS.get(solver, "k")
        mine = sorted((e, w, label.startswith("target ")) for s_, e, w, label in pts
                      if s_ == solver)
        ax.plot([e for e, _, _ in mine], [w for _, w, _ in mine], "-", color=color, alpha=0.6)
        targeted = [(e, w) for e, w, t in mine if t]
        own = [(e, w) for e, w, t in mine if not t]
        if targeted:
            ax.plot(*zip(*targeted), "o", color=color, label=f"{solver.upper()} at the targets")
        if own:
            ax.plot(*zip(*own), "s", mfc="none", ms=8, color=color,
                    label=f"{solver.upper()}, the scene's settings")
    for r in acc:
        ax.axvline(float(r["target_error"]), color="#bbb", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set(xlabel="mean density error (time average, fraction of ρ0)",
           ylabel="wall time per simulated second (s)",
           title="Accuracy against run time (lower left is better)")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "accuracy.png"))
    plt.close(fig)


def fastest_rows(acc, runs):
    """Per target error: each solver's least wall time per simulated second among its runs whose
    measured mean error is at most the target, and the fastest solver."""
    pts = accuracy_points(acc, runs)
    solvers = list(dict.fromkeys(p[0] for p in pts))
    out = []
    for target in sorted({float(r["target_error"]) for r in acc}, reverse=True):
        row = {"target": f"{100 * target:.3g}%"}
        best = None
        for solver in solvers:
            ok = [(w, e, label) for s_, e, w, label in pts if s_ == solver and e <= target]
            if ok:
                w, e, label = min(ok)
                row[solver] = f"{w:.2f} s ({100 * e:.3g}%, {label})"
                if best is None or w < best[0]:
                    best = (w, solver)
            else:
                row[solver] = "did not reach it"
        if best:
            others = [min(w for s_, e, w, _ in pts if s_ == s and e <= target)
                      for s in solvers if s != best[1] and
                      any(s_ == s and e <= target for s_, e, _, _ in pts)]
            row["fastest"] = best[1].upper() + (
                f", {min(others) / best[0]:.1f}× faster than the next" if others else "")
        else:
            row["fastest"] = "none reached it"
        out.append(row)
    return solvers, out


def inline_png(path):
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")


def table(rows_, columns, headers):
    if not rows_:
        return "<p>(none)</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>"
                                    for c in columns) + "</tr>" for r in rows_)
    return f"<table><tr>{head}</tr>{body}</table>"


def run_time_plot(out, runs):
    """Wall time per simulated second of each run: what a user waits for (time per step alone
    misleads when the solvers take steps of very different sizes)."""
    done = [r for r in runs if float(r["simulated_time"]) > 0]
    if not done:
        return
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(done)))
    names = [r["run"] for r in done]
    values = [float(r["wall_s_per_simulated_s"]) for r in done]
    colors = ["#c0392b" if r["status"] != "done" else "#2c7fb8" for r in done]
    ax.barh(range(len(done)), values, color=colors)
    for k, (v, r) in enumerate(zip(values, done)):
        ax.text(v, k, f" {v:.1f} s  ({int(r['steps'])} steps of {float(r['ms_per_step']):.2f} ms)",
                va="center", fontsize=8)
    ax.set_yticks(range(len(done)))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("wall time per simulated second (s)")
    ax.set_xlim(0, max(values) * 1.6)
    ax.set_title("Run time per simulated second (red: stopped as unstable)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "run_time.png"))
    plt.close(fig)


def summary(runs):
    """One sentence comparing the fastest and the slowest finished run per simulated second."""
    done = [r for r in runs if r["status"] == "done" and float(r["simulated_time"]) > 0]
    if len(done) < 2:
        return ""
    done.sort(key=lambda r: float(r["wall_s_per_simulated_s"]))
    fast, slow = done[0], done[-1]
    ratio = float(slow["wall_s_per_simulated_s"]) / max(float(fast["wall_s_per_simulated_s"]), 1e-12)
    step_ratio = float(slow["ms_per_step"]) / max(float(fast["ms_per_step"]), 1e-12)
    return (f"{fast['run']} ran the scene {ratio:.1f}× faster per simulated second than "
            f"{slow['run']} ({float(fast['wall_s_per_simulated_s']):.1f} against "
            f"{float(slow['wall_s_per_simulated_s']):.1f} s of wall time per simulated second), at "
            f"a mean density error of {100 * float(fast['density_error_mean']):.3f}% against "
            f"{100 * float(slow['density_error_mean']):.3f}%. Per step it took "
            f"{1 / step_ratio if step_ratio > 0 else 0:.2f}× the time of {slow['run']}, with "
            f"{int(fast['steps'])} steps against {int(slow['steps'])}.")


def pbf_tolerance(settings, runs):
    """PBF's density tolerance of the base scene, when a PBF run is in the report."""
    if not any(r["solver"] == "pbf" for r in runs):
        return None
    try:
        return float(settings["scene_settings"]["solver"]["pbf"]["density_tolerance"])
    except (KeyError, TypeError, ValueError):
        return None


def report(out, settings, runs, best, acc):
    sentence = summary(runs)
    acc_solvers, fastest = fastest_rows(acc, runs)
    tolerance = pbf_tolerance(settings, runs)
    for r in runs:
        r["ms_per_step"] = f"{float(r['ms_per_step']):.2f}"
        r["wall_s"] = f"{float(r['wall_s']):.2f}"
        r["wall_s_per_simulated_s"] = f"{float(r['wall_s_per_simulated_s']):.2f}"
        for c in ("density_error_mean", "density_error_max"):
            r[c] = f"{100 * float(r[c]):.3f}%"
        r["kinetic_energy_final"] = f"{float(r['kinetic_energy_final']):.4g}"
    for r in acc:
        r["target_error"] = f"{100 * float(r['target_error']):.3g}%"
        r["wall_s_per_simulated_s"] = f"{float(r['wall_s_per_simulated_s']):.2f}"
        for c in ("density_error_mean", "density_error_max"):
            r[c] = f"{100 * float(r[c]):.3f}%"
    for b in best:
        b["largest_stable_dt"] = f"{1e3 * float(b['largest_stable_dt']):.4g} ms"
        b["smallest_unstable_dt"] = f"{1e3 * float(b['smallest_unstable_dt']):.4g} ms"
    figures = [
        ("side_by_side.png", f"The same moment (t = {settings['picture_time']:.3f} s) under each "
                             "solver, coloured by speed."),
        ("density_error.png", "Mean density error over time (compressibility)." + (
            f" PBF iterates until the mean error is at most its tolerance "
            f"({100 * tolerance:.2g}%, dotted) or it has made solver.pbf.max_iterations "
            f"corrections: a flat PBF curve at that line is its stopping rule, not a limit of the "
            f"method." if tolerance is not None else "")),
        ("kinetic_energy.png", "Kinetic energy over time (dissipation)."),
        ("sensors.png", "The scene's pressure sensors under each run (sensors.csv: each point the "
                        "mean since the one before, at output.sensor_rate). Reading them tracks the "
                        "boundary forces, which the main runs' times include."),
        ("run_time.png", "Wall time per simulated second of each run: what a user waits for. "
                         "Time per step alone misleads between solvers whose steps differ in size."),
        ("accuracy.png", "Wall time per simulated second against the mean density error of "
                         "every run: which solver reaches a given accuracy fastest."),
        ("ms_per_step.png", "Wall time per step against particle count (run time)."),
        ("stable_dt.png", "Largest stable fixed time step (stability)."),
    ]
    figs = "".join(
        f'<figure><img src="{inline_png(os.path.join(out, f))}" alt="{html.escape(f)}">'
        f"<figcaption>{html.escape(c)}</figcaption></figure>"
        for f, c in figures if os.path.exists(os.path.join(out, f)))
    shown = {k: v for k, v in settings.items() if k != "scene_settings"}
    doc = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>seiche compare: {html.escape(settings['scene_name'])}</title>
<style>
body {{ font-family: sans-serif; max-width: 1400px; margin: 2em auto; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 14px; }}
td, th {{ border: 1px solid #ccc; padding: 4px 8px; text-align: left; }}
th {{ background: #eef; }}
figure {{ display: inline-block; margin: 1em; vertical-align: top; }}
figure img {{ max-width: 100%; border: 1px solid #ddd; }}
pre {{ background: #f6f6f6; padding: 1em; overflow: auto; font-size: 12px; }}
</style></head>
<body>
<h1>seiche compare: {html.escape(settings['scene_name'])}</h1>
<p>Scene <code>{html.escape(settings['scene'])}</code>, {settings['dimension']}D, solvers
{html.escape(', '.join(settings['solvers']))}, {settings['end_time']} s simulated per run,
{settings['threads']} threads, report made in {settings['wall_time']:.0f} s.</p>
<h2>Runs</h2>
<p>{html.escape(sentence)}</p>
{table(runs, ["run", "fluid_particles", "steps", "ms_per_step", "wall_s", "wall_s_per_simulated_s",
              "density_error_mean", "density_error_max", "kinetic_energy_final", "status",
              "detail"],
       ["run", "fluid particles", "steps", "ms per step", "wall time (s)",
        "wall s per simulated second", "mean density error", "max density error",
        "final kinetic energy (J)", "status", "detail"])}
<h2 id="accuracy">Which solver reaches a given accuracy fastest</h2>
<p>Each solver also ran at each target mean density error: PBF and DFSPH iterate down to it
(their density_tolerance, up to 100 iterations); WCSPH and DDR reach it by their stiffness, the
speed of sound of their main run scaled by √(measured error/target) (their error falls about as
1/c²), so they land near the target rather than on it. A cell is
the least wall time per simulated second among a solver's runs (these and the main runs) whose
measured mean density error, averaged over the run, is at most the target.</p>
{table(fastest, ["target"] + acc_solvers + ["fastest"],
       ["target mean error"] + [s.upper() for s in acc_solvers] + ["fastest"])}
{table(acc, ["solver", "target_error", "setting", "steps", "iterations_per_step",
             "wall_s_per_simulated_s", "density_error_mean", "density_error_max", "status"],
       ["solver", "target", "setting", "steps", "iterations per step",
        "wall s per simulated second", "mean density error", "max density error", "status"])
 if acc else "<p>(no accuracy runs: --no-accuracy)</p>"}
<h2>Largest stable time step</h2>
<p>{"(skipped: --no-stability) " if not settings.get('stability_trial_time') else ""}Per solver, fixed-dt runs of {settings.get('stability_trial_time') or 'the trial'} s start at the
scene's time.max_dt and double or halve the step until the outcome flips, then bisect
geometrically three times. A trial counts as blown up when the stability guard fires (a position
or velocity that is not finite, a particle leaving the container, a speed above the limit) or
when the mean density error passes 10%, beyond which the fluid is no longer incompressible.</p>
{table(best, ["solver", "largest_stable_dt", "smallest_unstable_dt", "trial_time", "note"],
       ["solver", "largest stable dt", "smallest unstable dt", "trial length (s)", "note"])}
<h2>Plots</h2>
{figs}
<h2>Settings</h2>
<pre>{html.escape(json.dumps(shown, indent=2))}</pre>
<details><summary>Resolved scene</summary>
<pre>{html.escape(json.dumps(settings['scene_settings'], indent=2))}</pre></details>
<p>Data: runs.csv, timeseries.csv, sensors.csv (with sensors), scaling.csv, stability.csv, stable_dt.csv, accuracy.csv next to
this file.</p>
<script>
// For headless checks: how many pictures decoded.
window.addEventListener("load", () => {{
  const imgs = Array.from(document.images);
  const ok = imgs.filter(i => i.complete && i.naturalWidth > 0).length;
  document.body.dataset.imagesLoaded = ok + "/" + imgs.length;
}});
</script>
</body></html>
"""
    path = os.path.join(out, "index.html")
    with open(path + ".part", "w") as f:
        f.write(doc)
    os.replace(path + ".part", path)


def main():
    out = sys.argv[1]
    with open(os.path.join(out, "settings.json")) as f:
        settings = json.load(f)
    runs = rows(os.path.join(out, "runs.csv"))
    series = rows(os.path.join(out, "timeseries.csv"))
    tolerance = pbf_tolerance(settings, runs)
    time_plot(out, runs, series, "density_error_mean", 100, "mean density error (%)",
              "Compressibility: mean of max(0, ρ/ρ0 − 1)", "density_error.png",
              hline=None if tolerance is None else
              (100 * tolerance, f"PBF stopping tolerance ({100 * tolerance:.2g}%)"))
    time_plot(out, runs, series, "kinetic_energy", 1, "kinetic energy (J, per metre in 2D)"
              if settings["dimension"] == 2 else "kinetic energy (J)",
              "Kinetic energy", "kinetic_energy.png")
    sensors = rows(os.path.join(out, "sensors.csv"))
    if sensors:
        sensors_plot(out, runs, sensors)
    scaling_plot(out, rows(os.path.join(out, "scaling.csv")), runs)
    run_time_plot(out, runs)
    trials = rows(os.path.join(out, "stability.csv"))
    best = rows(os.path.join(out, "stable_dt.csv"))
    if trials:
        stability_plot(out, trials, best)
    acc = rows(os.path.join(out, "accuracy.csv"))
    accuracy_plot(out, acc, runs)
    report(out, settings, runs, best, acc)


if __name__ == "__main__":
    main()
