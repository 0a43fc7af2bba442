#!/usr/bin/python3
"""The pressure sensors of a run: sensors.png from sensors.csv.

Usage: plot_sensors.py RUN_DIR  (called by seiche run when the scene has sensors)
Reads RUN_DIR/sensors.csv (time, then one column of pressure in Pa per sensor) and writes
RUN_DIR/sensors.png: every sensor's pressure against time, in kPa, one panel per sensor (up to
eight; more share panels eight by eight).
"""
import csv
import json
import math
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(run_dir):
    with open(os.path.join(run_dir, "sensors.csv")) as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [[float(c) for c in row] for row in reader if row]
    names = header[1:]
    if not rows or not names:
        return 0
    t = [r[0] for r in rows]
    panels = min(len(names), 8)
    cols = 1 if panels <= 3 else 2
    lines = math.ceil(panels / cols)
    fig, axes = plt.subplots(lines, cols, figsize=(6 * cols, 2.2 * lines + 0.8), sharex=True,
                             squeeze=False)
    for k, name in enumerate(names):
        ax = axes[(k % panels) // cols][(k % panels) % cols]
        ax.plot(t, [r[k + 1] / 1000 for r in rows], lw=0.8, label=name)
    for i in range(lines):
        for j in range(cols):
            ax = axes[i][j]
            if i * cols + j >= panels:
                ax.set_visible(False)
                continue
            ax.axhline(0, color="0.7", lw=0.5)
            ax.set_ylabel("p (kPa)")
            ax.legend(loc="upper right", fontsize=8)
            ax.grid(alpha=0.3)
        axes[lines - 1][j].set_xlabel("t (s)")
    name = os.path.basename(os.path.abspath(run_dir))
    try:
        with open(os.path.join(run_dir, "scene.json")) as f:
            name = json.load(f).get("name", name)
    except (OSError, ValueError):
        pass
    fig.suptitle(f"{name}: pressure sensors (each point the mean since the one before)",
                 fontsize=10)
    fig.tight_layout()
    # Written beside and renamed: a run directory never holds half a picture.
    fd, tmp = tempfile.mkstemp(suffix=".png.part", dir=run_dir)
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=100)
        mask = os.umask(0)  # mkstemp makes the file private; a picture is as any file written
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, os.path.join(run_dir, "sensors.png"))
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
