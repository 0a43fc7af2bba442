#!/usr/bin/env python3
"""PBF iterations 1..8 on the 2D dam break: the density error each buys against its cost.

    python3 examples/python/sweep_iterations.py            # 0.5 s of the collapse per run
    python3 examples/python/sweep_iterations.py --quick    # 0.1 s (a smoke test)

Writes OUT/sweep_iterations.csv and OUT/sweep_iterations.png (OUT = out/python by default).
Every run takes exactly k iterations per step (min = max = k), CFL steps as the scene says.
"""
import argparse
import csv
import pathlib
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import seiche  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="0.1 s per run instead of 0.5 s")
    parser.add_argument("--out", default="out/python", help="directory for the CSV and the plot")
    parser.add_argument("--iterations", type=int, default=8, help="largest iteration count")
    args = parser.parse_args()
    end = 0.1 if args.quick else 0.5
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    rows = []
    for k in range(1, args.iterations + 1):
        scene = seiche.scene_of(ROOT / "scenes" / "dam_break_2d.json",
                                **{"solver.pbf.min_iterations": k, "solver.pbf.max_iterations": k})
        w = seiche.World(scene)
        errors = []
        start = time.perf_counter()
        try:
            while w.time < end - 1e-12:
                stats = w.step()  # the scene's next step (CFL); the GIL is released while it runs
                errors.append(stats["density_error_mean"])
        except seiche.UnstableError as e:  # too few iterations for this step: say so, go on
            print(f"{k} iterations: unstable at step {e.step} (t = {e.time:.3f} s, particle "
                  f"{e.particle}: {e.reason})")
            rows.append({"iterations": k, "steps": e.step, "ms_per_step": float("nan"),
                         "density_error_mean_percent": float("nan"), "unstable_at": e.time})
            continue
        wall = time.perf_counter() - start
        rows.append({
            "iterations": k,
            "steps": w.steps,
            "ms_per_step": 1e3 * wall / w.steps,
            "density_error_mean_percent": 100 * sum(errors) / len(errors),
            "unstable_at": "",
        })
        print(f"{k} iterations: {rows[-1]['ms_per_step']:.2f} ms per step, mean density error "
              f"{rows[-1]['density_error_mean_percent']:.3f}% over {w.steps} steps")

    with open(out / "sweep_iterations.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    stable = [r for r in rows if r["unstable_at"] == ""]
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    ax.plot([r["ms_per_step"] for r in stable], [r["density_error_mean_percent"] for r in stable],
            "o-")
    for r in stable:
        ax.annotate(str(r["iterations"]), (r["ms_per_step"], r["density_error_mean_percent"]),
                    textcoords="offset points", xytext=(5, 5))
    ax.set_xlabel("wall time per step (ms)")
    ax.set_ylabel("mean density error over the run (%)")
    ax.set_yscale("log")
    unstable = [str(r["iterations"]) for r in rows if r["unstable_at"] != ""]
    ax.set_title(f"PBF iterations per step (labels), 2D dam break, {end} s, "
                 f"{seiche.threads()} threads" + (f"\nunstable: {', '.join(unstable)}" if unstable else ""),
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "sweep_iterations.png")
    print(f"wrote {out / 'sweep_iterations.png'} and {out / 'sweep_iterations.csv'}")


if __name__ == "__main__":
    main()
