#!/usr/bin/python3
"""Plots of `seiche validate`: simulation against measurement, one PNG per case.

Usage: plot_validation.py RESULTS_DIR DATA_DIR  (called by seiche validate)
Reads RESULTS_DIR/{koshizuka,ritter,stoker,hydrostatic,spheric,spheric_pressures,lobovsky,lobovsky_3d,lobovsky_fine,
surface_tension,verdicts}.csv and the
measured data in DATA_DIR.
"""
import csv
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"pbf": "tab:blue", "wcsph": "tab:orange", "ddr": "tab:green", "dfsph": "tab:purple"}


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def overrides(out):
    """The --set overrides the cases ran with (RESULTS_DIR/overrides.txt), key to value."""
    path = os.path.join(out, "overrides.txt")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        pairs = [line.strip().split("=", 1) for line in f if "=" in line]
    return {k.strip(): v.strip() for k, v in pairs}


def verdicts(out):
    path = os.path.join(out, "verdicts.csv")
    return rows(path) if os.path.exists(path) else []


def label(case, solver, table):
    marks = [v for v in table if v["case"] == case and v["solver"] == solver]
    # "not met (reported)": a known property of the model, shown but not part of the verdict.
    if not marks:
        return solver.upper()
    if any(v["verdict"] == "fail" for v in marks):
        return f"{solver.upper()} (FAIL)"
    if any(v["verdict"] != "pass" for v in marks):
        return f"{solver.upper()} (not met, reported)"
    return f"{solver.upper()} (pass)"


def koshizuka(out, data, table):
    sim = rows(os.path.join(out, "koshizuka.csv"))
    exp = rows(os.path.join(data, "koshizuka_oka_1996_front.csv"))
    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=120)
    for solver in dict.fromkeys(r["solver"] for r in sim):
        pts = [(float(r["T"]), float(r["Z"])) for r in sim if r["solver"] == solver]
        ax.plot(*zip(*pts), color=COLORS.get(solver), label=label("koshizuka", solver, table))
        # The same front read later by the start delay fitted to Martin & Moyce (its verdict).
        fit = [re.search(r"start delay ([-+][0-9.]+) in T", v.get("detail", "")) for v in table
               if v["case"] == "koshizuka" and v["solver"] == solver]
        fit = [m for m in fit if m]
        if fit:
            delay = float(fit[0].group(1))
            ax.plot([T + delay for T, _ in pts], [Z for _, Z in pts], "--", lw=0.8,
                    color=COLORS.get(solver), label=f"{solver.upper()} {delay:+.2f} in T")
    T = [float(r["T"]) for r in exp]
    Z = [float(r["Z"]) for r in exp]
    ax.errorbar(T, Z, yerr=[0.12 * z for z in Z], fmt="ko", capsize=3,
                label="Koshizuka & Oka 1996 (±12%: spread to Martin & Moyce)")
    mm_path = os.path.join(data, "martin_moyce_1952_front.csv")
    if os.path.exists(mm_path):
        mm = rows(mm_path)
        for a, marker in (("0.05715", "s"), ("0.028575", "^")):
            pts = [(float(r["T"]), float(r["Z"])) for r in mm if r["a_m"] == a and float(r["Z"]) <= 4.2]
            ax.plot(*zip(*pts), marker, color="0.35", mfc="none",
                    label=f"Martin & Moyce 1952, a = {1000 * float(a):.1f} mm")
    ax.plot([0, 1.5], [1, 4], "k:", lw=1, label="Ritter dry-bed bound Z = 1 + 2T")
    ax.set(xlabel="T = t √(2g/L)", ylabel="Z = front / L", xlim=(0, 3.3), ylim=(0.9, 4.1),
           title="2D column collapse: surge front (50 particles across L)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "koshizuka.png"))


def dam_profile(out, table, case, exact, exact_label, gated, title, legend="upper right"):
    """A 2D dam break's depth profile h/h0 against ξ: each solver at t = 0.4 s (dashed) and at its
    last instant (solid), the shallow-water solution `exact` (a function of ξ) and the gated
    ranges, each (from, to, label)."""
    sim = rows(os.path.join(out, case + ".csv"))
    times = sorted({float(r["t"]) for r in sim})
    shown = [t for t in times if abs(t - 0.4) < 1e-6 or abs(t - times[-1]) < 1e-6]
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    for solver in dict.fromkeys(r["solver"] for r in sim):
        for t, style in zip(shown, ("--", "-")):
            pts = [(float(r["xi"]), float(r["h_over_h0"])) for r in sim
                   if r["solver"] == solver and abs(float(r["t"]) - t) < 1e-6]
            name = label(case, solver, table) if style == "-" else None
            ax.plot(*zip(*pts), style, color=COLORS.get(solver), lw=1.2, label=name)
    xi = [k / 1000 for k in range(-1200, 2001)]
    ax.plot(xi, [exact(x) for x in xi], "k", lw=2, alpha=0.6, label=exact_label)
    for (a, b, what), shade in zip(gated, ("0.9", "0.8")):
        ax.axvspan(a, b, color=shade, zorder=0, label=what)
    ax.set(xlabel="ξ = (x − x_dam) / (c0 t),  c0 = √(g h0)", ylabel="h / h0", xlim=(-1.2, 2.0),
           ylim=(0, 1.1), title=f"{title}: t = {shown[0]:g} s dashed, {shown[-1]:g} s solid")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc=legend)
    fig.tight_layout()
    fig.savefig(os.path.join(out, case + ".png"))


def ritter_depth(x):
    return 1.0 if x < -1 else (2 - x) ** 2 / 9 if x < 2 else 0.0


def ritter(out, table):
    dam_profile(out, table, "ritter", ritter_depth, "Ritter 1892: h/h0 = (2 - ξ)²/9",
                [(-0.9, 1.0, "gated range, from t = 0.8 s")],
                "2D dry-bed dam break, h0 = 0.1 m")


def stoker(out, data, table):
    """Stoker's state for the layer's depth (the solution's value far downstream in the CSV), from
    the analytic file: h2, the bore speed S and the rarefaction's tail."""
    sim = rows(os.path.join(out, "stoker.csv"))
    h1 = float(max(sim, key=lambda r: float(r["xi"]))["stoker"])
    state = min(rows(os.path.join(data, "analytic_stoker_wet_bed_dambreak.csv")),
                key=lambda r: abs(float(r["h1_over_h0"]) - h1))
    h2, S, tail = (float(state[k]) for k in ("h2_over_h0", "S_over_c0", "xi_tail_over_c0"))

    def depth(x):
        return ritter_depth(x) if x < tail else h2 if x < S else h1

    dam_profile(out, table, "stoker", depth,
                f"Stoker 1957: h2/h0 = {h2:.3f} behind a bore at S = {S:.3f} c0",
                [(0.1, 0.8, "h2 gated (the mean, 5%), from t = 0.8 s"),
                 (0.95 * S, 1.05 * S, "the bore gated (5% of S)")],
                f"2D wet-bed dam break, h1/h0 = {h1:g}", legend="lower left")


def hydrostatic(out, table):
    sim = rows(os.path.join(out, "hydrostatic.csv"))
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(13.5, 4.5), dpi=120)
    panels = {"p_over_rhogH": a, "rho_over_rho0": b, "wall_p_over_rhogH": c}
    for solver in dict.fromkeys(r["solver"] for r in sim):
        for quantity, ax in panels.items():
            pts = [(float(r["sim"]), float(r["z_over_H"])) for r in sim
                   if r["solver"] == solver and r["quantity"] == quantity]
            if pts:
                ax.plot(*zip(*pts), "o" if quantity.startswith("wall") else "o-",
                        color=COLORS.get(solver), label=label("hydrostatic", solver, table))
    for ax in (a, c):
        ax.plot([1, 0], [0, 1], "k--", label="p = ρg(H − z)")
    a.set(xlabel="p / (ρ g H)", ylabel="z / H", title="Particle pressure against depth")
    b.axvline(1.0, color="k", ls="--", label="ρ0")
    b.axvspan(0.98, 1.02, color="0.9", label="±2%")
    b.set(xlabel="ρ / ρ0", ylabel="z / H", title="Density against depth (PBF, DDR)",
          xlim=(0.95, 1.05))
    c.set(xlabel="p / (ρ g H)", ylabel="z / H",
          title="Pressure on the side walls (wall sensors)")
    for ax in (a, b, c):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Hydrostatic tank, 2D, averaged over the last 0.5 s of 3 s")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "hydrostatic.png"))


def spheric_clock(table):
    """The record's clock against its water's release, s (validate's "H4 first fall" row), or None."""
    for v in table:
        if v["case"] == "spheric" and v["quantity"].startswith("H4 first fall"):
            m = re.search(r"the record's tau = ([+-]?[0-9.]+) ms", v.get("detail", ""))
            if m:
                return float(m.group(1)) / 1000
    return None


def spheric(out, data, table):
    sim = rows(os.path.join(out, "spheric.csv"))
    exp = rows(os.path.join(data, "kleefsman_2005_spheric_test2_water_heights.csv"))
    exp = [r for r in exp if float(r["t_s"]) <= 1.6]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.6), dpi=120)
    # In the order of the flow: H4 in the reservoir, H3 and H2 on the way, H1 behind the box.
    for ax, probe, column, x in ((axes[0][0], "H4", "H4_x2.638_m", 2.638),
                                 (axes[0][1], "H3", "H3_x1.488_m", 1.488),
                                 (axes[1][0], "H2", "H2_x0.992_m", 0.992),
                                 (axes[1][1], "H1", "H1_x0.496_m", 0.496)):
        ax.plot([float(r["t_s"]) for r in exp], [float(r[column]) for r in exp], "k-", lw=1.2,
                label="Kleefsman et al. 2005 (MARIN)")
        clock = spheric_clock(table)
        if clock:
            ax.plot([float(r["t_s"]) + clock for r in exp], [float(r[column]) for r in exp], "--",
                    color="0.55", lw=0.9, label=f"the same on its H4 clock (+{1000 * clock:.0f} ms)")
        for solver in dict.fromkeys(r["solver"] for r in sim):
            pts = [(float(r["t"]), float(r[probe])) for r in sim if r["solver"] == solver]
            marks = [v for v in table if v["case"] == "spheric" and v["solver"] == solver
                     and v["quantity"].startswith(f"water height {probe} ")]
            dev = f", RMS {100 * float(marks[0]['deviation']):.1f}% of 0.55 m" if marks else ""
            ax.plot(*zip(*pts), color=COLORS.get(solver), label=solver.upper() + dev)
        ax.set(xlabel="t (s)", ylabel="water height (m)", xlim=(0, 1.5),
               title=f"{probe} (x = {x} m, centre line)" + (", behind the box" if probe == "H1" else ""))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("SPHERIC Test 2: 3D dam break with a box, water heights")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "spheric.png"))


def spheric_pressures(out, data, table):
    """The box's sensors: the front face's P1-P4 (checked) and the top's P5-P8, 5 ms means."""
    sim = rows(os.path.join(out, "spheric_pressures.csv"))
    exp = [r for r in rows(os.path.join(data, "kleefsman_2005_spheric_test2_pressures.csv"))
           if float(r["t_s"]) <= 1.6]
    columns = list(exp[0].keys())[1:9]
    Te = [float(r["t_s"]) for r in exp]
    solvers = list(dict.fromkeys(r["solver"] for r in sim))
    fig, axes = plt.subplots(2, 4, figsize=(17, 7.5), dpi=100)
    for k, ax in enumerate(axes.flat):
        name = f"P{k + 1}"
        record_kpa = [v / 1000 for v in window_mean(Te, [float(r[columns[k]]) for r in exp], 0.0025)]
        ax.plot(Te, record_kpa, "k-", lw=1.1, label="Kleefsman et al. 2005 (MARIN), 5 ms mean")
        clock = spheric_clock(table)
        if clock and k < 4:
            ax.plot([t + clock for t in Te], record_kpa, "--", color="0.55", lw=0.9,
                    label=f"the same on its H4 clock (+{1000 * clock:.0f} ms)")
        for solver in solvers:
            mine = [(float(r["t"]), float(r[name])) for r in sim if r["solver"] == solver]
            Ts = [t for t, _ in mine]
            marks = [v for v in table if v["case"] == "spheric" and v["solver"] == solver
                     and v["quantity"].startswith(name + " ")]
            verdict = ""
            if marks:
                verdict = " (" + ", ".join(
                    f"{v['quantity'].split(' ', 1)[1]} {100 * float(v['deviation']):.0f}%"
                    for v in marks) + ")"
            ax.plot(Ts, [v / 1000 for v in window_mean(Ts, [p for _, p in mine], 0.0025)],
                    color=COLORS.get(solver), lw=1.0, label=solver.upper() + verdict)
        where = "front face" if k < 4 else "top face"
        ax.set(xlabel="t (s)", ylabel="p (kPa)", xlim=(0.3, 1.5) if k < 4 else (0.3, 1.5),
               title=f"{name} ({where})")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    fig.suptitle("SPHERIC Test 2: pressure on the box (5 ms means; the front face's impact time "
                 "and first peak are checked)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "spheric_pressures.png"))


def window_mean(T, p, half):
    """Centred mean of p over T ± half (T ascending)."""
    out, a, b, total = [], 0, 0, 0.0
    for i, t in enumerate(T):
        while b < len(T) and T[b] <= t + half:
            total += p[b]
            b += 1
        while T[a] < t - half:
            total -= p[a]
            a += 1
        out.append(total / (b - a))
    return out


def lobovsky(out, data, table, case="lobovsky"):
    sim = rows(os.path.join(out, case + ".csv"))
    smooth = rows(os.path.join(out, case + "_sensor2_5ms.csv"))
    band = rows(os.path.join(data, "lobovsky_2014_H300_sensor2_percentiles.csv"))
    band = band[::5]  # 20 kHz: every fifth sample draws the same band
    event = rows(os.path.join(data, "lobovsky_2014_H300_pressure_event5.csv"))[::5]
    T = [float(r["T"]) for r in band]
    solvers = list(dict.fromkeys(r["solver"] for r in sim))
    field_path = os.path.join(out, case + "_field.csv")
    field = rows(field_path) if os.path.exists(field_path) else []
    half = 0.5 * 0.005 * (9.81 / 0.3) ** 0.5
    fig, axes = plt.subplots(2, 3, figsize=(15, 8), dpi=110)
    for ax, (lo_T, hi_T) in zip(axes[0], ((0, 7.2), (2.2, 3.2))):
        ax.fill_between(T, [float(r["p_2.5"]) for r in band], [float(r["p_97.5"]) for r in band],
                        color="0.8", label="Lobovsky et al. 2014: 2.5–97.5% of ~100 runs")
        ax.plot(T, [float(r["p_median"]) for r in band], "k-", lw=1, label="median of the runs")
        for solver in solvers:
            pts = [(float(r["T"]), float(r["p2"])) for r in sim if r["solver"] == solver]
            ax.plot(*zip(*pts), color=COLORS.get(solver), lw=0.5, alpha=0.25)
            pts = [(float(r["T"]), float(r["p2"])) for r in smooth if r["solver"] == solver]
            ax.plot(*zip(*pts), color=COLORS.get(solver), lw=1.3,
                    label=label(case, solver, table) + ", 5 ms mean (faint: each step)")
            if field:  # the same sensor read from WCSPH's pressure field
                mine = [(float(r["T"]), float(r["p2"])) for r in field if r["solver"] == solver]
                if mine:
                    Ts = [t for t, _ in mine]
                    ax.plot(Ts, window_mean(Ts, [p for _, p in mine], half), "--",
                            color=COLORS.get(solver), lw=1.0,
                            label=solver.upper() + " from its pressure field, 5 ms mean")
        ax.set(xlabel="T = t √(g/H)", ylabel="p / (ρ g H)", xlim=(lo_T, hi_T), ylim=(-0.2, 3.0),
               title="sensor 2 (15 mm), whole run" if lo_T == 0 else "sensor 2, the first impact")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    # The other sensors against one repetition (event 5): not a gate, the shape of the record.
    for ax, (column, record, title) in zip(
            [axes[0][2], axes[1][0], axes[1][1]],
            (("p1", "p_s1", "sensor 1 (3 mm)"), ("p3", "p_s3", "sensor 3 (30 mm)"),
             ("p4", "p_s4", "sensor 4 (80 mm)"))):
        ax.plot([float(r["T"]) for r in event], [float(r[record]) for r in event], "k-", lw=0.8,
                label="Lobovsky et al. 2014, one run (event 5)")
        for solver in solvers:
            mine = [(float(r["T"]), float(r[column])) for r in sim if r["solver"] == solver]
            Ts = [t for t, _ in mine]
            ax.plot(Ts, window_mean(Ts, [p for _, p in mine], half), color=COLORS.get(solver),
                    lw=1.1, label=solver.upper() + ", 5 ms mean")
        ax.set(xlabel="T = t √(g/H)", ylabel="p / (ρ g H)", xlim=(2, 7.2), ylim=(-0.2, 3.5),
               title=title)
        ax.grid(alpha=0.3)
    axes[1][0].legend(fontsize=7)
    # The water levels at the four gauges against the record's series (not labelled in its
    # source: both drawn where it has two).
    ax = axes[1][2]
    levels_path = os.path.join(out, case + "_levels.csv")
    level_record = rows(os.path.join(data, "lobovsky_2014_H300_water_levels.csv"))
    if os.path.exists(levels_path) and level_record:
        levels = rows(levels_path)
        shown = solvers[:1] if len(solvers) > 1 else solvers  # one solver: four gauges stay legible
        shades = {"h1": "0.0", "h2": "0.3", "h3": "0.5", "h4": "0.7"}
        Tr = [float(r["T"]) for r in level_record]
        for gauge, columns in (("h1", ["H1_2_ETSIN01"]), ("h2", ["H2_3_ETSIN02", "H2_4_ETSIN01"]),
                               ("h3", ["H3_3_ETSIN02", "H3_4_ETSIN01"]),
                               ("h4", ["H4_4_ETSIN02", "H4_5_ETSIN01"])):
            for k, column in enumerate(columns):
                ax.plot(Tr, [float(r[column]) for r in level_record], color=shades[gauge],
                        lw=0.8, ls="-" if k == 0 else ":",
                        label=f"record {gauge.upper()}" if k == 0 else None)
            for solver in shown:
                mine = [(float(r["T"]), float(r[gauge])) for r in levels if r["solver"] == solver]
                ax.plot(*zip(*mine), color=COLORS.get(solver), lw=1.0, alpha=0.2 + 0.2 * int(gauge[1]),
                        label=f"{solver.upper()} {gauge.upper()}")
        ax.set(xlabel="T = t √(g/H)", ylabel="h / H", xlim=(0, 7.2), ylim=(0, 1.05),
               title="water levels at H1–H4 (dotted: the record's second series)")
        ax.title.set_fontsize(10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, ncol=2)
    else:
        ax.axis("off")
    # The particle radius and the wall function the case ran with: its scene's, or --set's.
    given = overrides(out)
    radius = 1000 * float(given.get("particle_radius", {"lobovsky": 0.0025, "lobovsky_3d": 0.005,
                                                          "lobovsky_fine": 0.000625}[case]))
    wall = given.get("solver.wall_function", "true" if case.endswith("fine") else "false")
    where = ("3D, the experiment's 0.15 m tank" if case.endswith("3d") else "2D") + \
        f", r = {radius:g} mm" + (", the wall function" if wall == "true" else "")
    fig.suptitle(f"Lobovsky et al. 2014, H = 300 mm ({where}): pressure on the downstream wall, "
                 "water levels at x = 0.300, 0.865, 1.114 and 1.3625 m")
    fig.tight_layout()
    fig.savefig(os.path.join(out, case + ".png"))


def surface_tension(out, table):
    sim = rows(os.path.join(out, "surface_tension.csv"))
    drops = rows(os.path.join(out, "surface_tension_drops.csv"))
    angle_rows = rows(os.path.join(out, "contact_angles.csv")) if os.path.exists(
        os.path.join(out, "contact_angles.csv")) else []
    fig, ((a, b), (c, d)) = plt.subplots(2, 2, figsize=(12, 9), dpi=120)
    styles = ["-", "--", ":", "-."]
    for solver in dict.fromkeys(r["solver"] for r in angle_rows):
        pts = [(float(r["beta"]), float(r["contact_angle_deg"])) for r in angle_rows if r["solver"] == solver]
        c.plot(*zip(*pts), "o-", color=COLORS.get(solver), label=solver.upper())
    c.set(xlabel="adhesion beta of the plate", ylabel="contact angle (deg)",
          title="drops on plates (contact_angle_3d, gamma 2)")
    c.grid(alpha=0.3)
    c.legend(fontsize=8)
    for solver in dict.fromkeys(r["solver"] for r in sim):
        runs = list(dict.fromkeys((r["dim"], r["gamma"], r["r"]) for r in sim if r["solver"] == solver))
        for k, run in enumerate(runs):
            pts = [(float(r["t"]), float(r["deformation"])) for r in sim
                   if r["solver"] == solver and (r["dim"], r["gamma"], r["r"]) == run]
            a.plot(*zip(*pts), color=COLORS.get(solver), ls=styles[k % 4], lw=1,
                   label=f"{solver.upper()} {run[0]}D, gamma {run[1]}, r {float(run[2]) * 1000:g} mm")
        # The γ sweep (2D, r = 1.25 mm): every drop of each ensemble, and the ensembles' medians.
        offset = {"pbf": 0.96, "wcsph": 1.0, "ddr": 1.04}.get(solver, 1.0)
        mine = [e for e in drops if e["solver"] == solver and e.get("set", "sweep") == "sweep"
                and e["dim"] == "2" and e["r"] == "0.00125" and e["sigma_eff"] != "nan"]
        b.plot([float(e["gamma"]) * offset for e in mine], [float(e["sigma_over_gamma"]) for e in mine],
               ".", color=COLORS.get(solver), alpha=0.35)
        gammas = sorted({float(e["gamma"]) for e in mine})
        medians = [statistics.median(float(e["sigma_over_gamma"]) for e in mine if float(e["gamma"]) == g)
                   for g in gammas]
        b.plot([g * offset for g in gammas], medians, "o-", color=COLORS.get(solver), ms=7,
               label=f"{label('surface', solver, table)} median")
        # The resolution: σ_eff at γ = 1 against the particle radius, every drop and the medians.
        for dim, style in (("2", "o-"), ("3", "s--")):
            at = [e for e in drops if e["solver"] == solver and e["dim"] == dim and float(e["gamma"]) == 1.0
                  and e.get("set", "sweep") in ("sweep", "resolution") and e["sigma_eff"] != "nan"]
            radii = sorted({float(e["r"]) for e in at})
            if len(radii) < 2:
                continue
            d.plot([float(e["r"]) * 1000 * offset for e in at], [float(e["sigma_eff"]) for e in at], ".",
                   color=COLORS.get(solver), alpha=0.35)
            d.plot([r * 1000 * offset for r in radii],
                   [statistics.median(float(e["sigma_eff"]) for e in at if float(e["r"]) == r) for r in radii],
                   style, color=COLORS.get(solver), ms=6, label=f"{solver.upper()} {dim}D median")
        # The drop's size: 2D drops of twice the radius at γ = 1, r = 1.25 mm (a surface tension
        # would give them the same σ_eff as the sweep's drops beside them).
        large = [e for e in drops if e["solver"] == solver and e.get("set") == "size" and e["sigma_eff"] != "nan"]
        if large:
            x = float(large[0]["r"]) * 1000 * offset * 1.08
            d.plot([x] * len(large), [float(e["sigma_eff"]) for e in large], ".", color=COLORS.get(solver),
                   alpha=0.35)
            d.plot([x], [statistics.median(float(e["sigma_eff"]) for e in large)], "^", mfc="none",
                   color=COLORS.get(solver), ms=8,
                   label=f"{solver.upper()} 2D, R {float(large[0]['R']) * 100:.0f} cm median")
        # The Wendland kernel at h = 2.5 spacings (2D, gamma 1, r = 1.25 mm), R 5 cm (diamonds) and
        # 2.5 cm (thin diamonds), left of the cubic spline's drops: a surface rings alike at both.
        for wset, marker, shift in (("wendland", "D", 0.86), ("wendland_small", "d", 0.80)):
            wend = [e for e in drops if e["solver"] == solver and e.get("set") == wset and e["sigma_eff"] != "nan"]
            if wend:
                x = float(wend[0]["r"]) * 1000 * offset * shift
                d.plot([x] * len(wend), [float(e["sigma_eff"]) for e in wend], ".", color=COLORS.get(solver),
                       alpha=0.35)
                first = not any(line.get_gid() == wset for line in d.get_lines())  # one legend entry
                d.plot([x], [statistics.median(float(e["sigma_eff"]) for e in wend)], marker, mfc="none",
                       color=COLORS.get(solver), ms=7, gid=wset,
                       label=(f"Wendland, R {float(wend[0]['R']) * 100:.1f} cm median" if first else None))
    a.set(xlabel="t after release (s)", ylabel="(Ixx - Iyy) / (Ixx + Iyy)",
          title="round drop kicked into its l = 2 mode")
    a.grid(alpha=0.3)
    a.legend(fontsize=6)
    b.set(xlabel="gamma", ylabel="sigma_eff / gamma (N/m per unit gamma)", xscale="log",
          title="sigma_eff / gamma, 2D drops r 1.25 mm (dots: single drops)")
    b.grid(alpha=0.3)
    b.legend(fontsize=7)
    d.set(xlabel="particle radius r (mm)", ylabel="sigma_eff (N/m) at gamma 1", xscale="log", yscale="log",
          title="resolution, size (triangles: R 10 cm), Wendland (diamonds)")
    radii = sorted({float(e["r"]) * 1000 for e in drops
                    if float(e["gamma"]) == 1.0 and e.get("set", "sweep") in ("sweep", "resolution")})
    if len(radii) > 1:
        # Guides: what σ_eff ∝ r would look like, through the middle of the plot.
        lo, hi = d.get_ylim()
        mid = (lo * hi) ** 0.5
        d.plot([radii[0], radii[-1]], [mid * radii[0] / radii[1], mid * radii[-1] / radii[1]], ":",
               color="gray", label="slope of sigma_eff ~ r")
        d.set_xticks(radii)
        d.set_xticklabels([f"{r:g}" for r in radii])
        ticks = [t for t in (0.2, 0.5, 1, 2, 5, 10, 20) if lo <= t <= hi]
        d.set_yticks(ticks)
        d.set_yticklabels([f"{t:g}" for t in ticks])
        d.minorticks_off()
    d.grid(alpha=0.3)
    d.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "surface_tension.png"))
    surface_tension_calibration(out, drops, table)


def surface_tension_calibration(out, drops, table):
    """The calibration: the Wendland kernel's 3D drops at R/d = 10, every drop's sigma_eff/gamma
    against gamma with its ensemble's median and the 5% band; sigma_eff against r (the same R/d)
    and against R/d."""
    cal = [e for e in drops if e.get("set") == "wendland_3d" and e["sigma_eff"] != "nan"]
    if not cal:
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.8), dpi=120)
    solvers = list(dict.fromkeys(e["solver"] for e in cal))
    for k, solver in enumerate(solvers):
        offset = 1 + 0.05 * (k - (len(solvers) - 1) / 2)
        mine = [e for e in cal if e["solver"] == solver]
        gammas = sorted({float(e["gamma"]) for e in mine})
        a.plot([float(e["gamma"]) * offset for e in mine], [float(e["sigma_over_gamma"]) for e in mine], ".",
               color=COLORS.get(solver), alpha=0.5)
        medians = [statistics.median(float(e["sigma_over_gamma"]) for e in mine if float(e["gamma"]) == g)
                   for g in gammas]
        # The verdict of the calibration's own checks (the case's others are the cubic spline's).
        mine_checks = [v for v in table if v["case"] == "surface" and v["solver"] == solver
                       and v["quantity"].startswith("Wendland 3D")]
        verdict = ("FAIL" if any(v["verdict"] == "fail" for v in mine_checks)
                   else "pass" if mine_checks and all(v["verdict"] == "pass" for v in mine_checks) else "")
        a.plot([g * offset for g in gammas], medians, "o-", color=COLORS.get(solver), ms=6, mfc="none",
               label=f"{solver.upper()}{f' ({verdict})' if verdict else ''} median")
        for g, m in zip(gammas, medians):
            a.fill_between([g * offset / 1.02, g * offset * 1.02], [0.95 * m] * 2, [1.05 * m] * 2,
                           color=COLORS.get(solver), alpha=0.15, lw=0)
        # sigma_eff at gamma 1 against r (R/d = 10 at both radii) and the drops at R/d = 15.
        at_1 = [float(e["sigma_eff"]) for e in mine if float(e["gamma"]) == 1.0]
        coarse = [float(e["sigma_eff"]) for e in drops if e["solver"] == solver
                  and e.get("set") == "wendland_3d_coarse" and e["sigma_eff"] != "nan"]
        large = [float(e["sigma_eff"]) for e in drops if e["solver"] == solver
                 and e.get("set") == "wendland_3d_large" and e["sigma_eff"] != "nan"]
        if at_1 and coarse:
            rs = [1.25 * offset, 2.5 * offset]
            b.plot([rs[0]] * len(at_1) + [rs[1]] * len(coarse), at_1 + coarse, ".", color=COLORS.get(solver),
                   alpha=0.5)
            b.plot(rs, [statistics.median(at_1), statistics.median(coarse)], "o-", mfc="none",
                   color=COLORS.get(solver), label=f"{solver.upper()}, R/d 10")
        if at_1 and large:
            b.plot([1.25 * offset * 0.93] * len(large), large, ".", color=COLORS.get(solver), alpha=0.5)
            b.plot([1.25 * offset * 0.93], [statistics.median(large)], "^", mfc="none", ms=8,
                   color=COLORS.get(solver), label=f"{solver.upper()}, R/d 15")
    a.set(xlabel="gamma", ylabel="sigma_eff / gamma (N/m per unit gamma)", xscale="log",
          title="3D drops, Wendland C2, h = 2.5d, R/d 10\n(dots: single drops; bands: median ±5%)")
    a.set_xticks([0.5, 1, 2])
    a.set_xticklabels(["0.5", "1", "2"])
    a.minorticks_off()
    a.grid(alpha=0.3)
    a.legend(fontsize=7)
    all_1 = [float(e["sigma_eff"]) for e in cal if float(e["gamma"]) == 1.0]
    if all_1:
        m = statistics.median(all_1)
        b.plot([1.25, 2.5], [m, 4 * m], ":", color="gray", label="sigma_eff ~ r^2 (the bond energy)")
    b.set(xlabel="particle radius r (mm)", ylabel="sigma_eff (N/m) at gamma 1", xscale="log", yscale="log",
          title="sigma_eff against r (R/d 10)\nand at R/d 15 (triangles)")
    b.set_xticks([1.25, 2.5])
    b.set_xticklabels(["1.25", "2.5"])
    lo, hi = b.get_ylim()
    ticks = [t for t in (0.2, 0.3, 0.4, 0.5, 0.7, 1, 1.5, 2, 3, 4, 5) if lo <= t <= hi]
    b.set_yticks(ticks)
    b.set_yticklabels([f"{t:g}" for t in ticks])
    b.minorticks_off()
    b.grid(alpha=0.3)
    b.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "surface_tension_calibration.png"))


def main():
    out, data = sys.argv[1], sys.argv[2]
    table = verdicts(out)
    if os.path.exists(os.path.join(out, "koshizuka.csv")):
        koshizuka(out, data, table)
    if os.path.exists(os.path.join(out, "ritter.csv")):
        ritter(out, table)
    if os.path.exists(os.path.join(out, "stoker.csv")):
        stoker(out, data, table)
    if os.path.exists(os.path.join(out, "hydrostatic.csv")):
        hydrostatic(out, table)
    if os.path.exists(os.path.join(out, "spheric.csv")):
        spheric(out, data, table)
    if os.path.exists(os.path.join(out, "spheric_pressures.csv")):
        spheric_pressures(out, data, table)
    for case in ("lobovsky", "lobovsky_3d", "lobovsky_fine"):
        if os.path.exists(os.path.join(out, case + ".csv")):
            lobovsky(out, data, table, case)
    if os.path.exists(os.path.join(out, "surface_tension_drops.csv")):
        surface_tension(out, table)


if __name__ == "__main__":
    main()
