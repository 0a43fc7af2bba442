#!/usr/bin/env python3
"""Per-step cost of driving a world from Python, step by step, for comparison with
`seiche bench SCENE --steps N --threads T` (the same lines: median and mean ms per step).

    PYTHONPATH=build/python python3 tools/bench_python.py scenes/bench/dam_break_reference_3d.json --steps 200 --threads 2
"""
import argparse
import statistics
import time

import seiche


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scene")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    seiche.set_threads(args.threads)
    scene = seiche.load_scene(args.scene)
    w = seiche.World(scene)
    ms = []
    start = time.perf_counter()
    for _ in range(args.steps):
        t0 = time.perf_counter()
        w.step()
        ms.append(1e3 * (time.perf_counter() - t0))
    total = time.perf_counter() - start
    print(f"{scene.name} from Python, {seiche.threads()} threads, {args.steps} steps")
    dec = 3 if statistics.median(ms) < 1 else 2  # as seiche bench prints them
    print(f"  ms per step        {statistics.median(ms):.{dec}f} (median), "
          f"{1e3 * total / args.steps:.{dec}f} (mean); world's own stage total "
          f"{1e3 * w.stage_times['total'] / args.steps:.{dec}f} ms/step")


if __name__ == "__main__":
    main()
