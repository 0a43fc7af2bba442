#!/usr/bin/env python3
"""A notebook as a plain script: run the 2D dam break, look at it, measure its front.

Each "# %%" cell runs in Jupyter or VS Code as a notebook cell, and the whole file runs as a
script. The surge front is compared with Koshizuka & Oka's (1996) experiment (the column of
the scene has their aspect ratio, height = 2 x width).

    python3 examples/python/notebook_dam_break.py            # 0.6 s of the collapse
    python3 examples/python/notebook_dam_break.py --quick    # 0.15 s
"""
# %% Set-up: the scene, changed from Python
import argparse
import pathlib

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import seiche  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--quick", action="store_true", help="0.15 s instead of 0.6 s")
parser.add_argument("--out", default="out/python", help="directory for the figure")
args, _ = parser.parse_known_args()
out = pathlib.Path(args.out)
out.mkdir(parents=True, exist_ok=True)
end = 0.15 if args.quick else 0.6

scene = seiche.scene_of(ROOT / "scenes" / "dam_break_2d.json", **{"solver.xsph": 0.02})
print(scene, "particle radius", scene.get("particle_radius"), "m")

# %% Run, sampling the front (the rightmost particle centre plus r) 60 times a second
w = seiche.World(scene)
column = scene.get("fluid[0].max")[0]  # L, m
r = scene.get("particle_radius")
t, front = [0.0], [column]


def sample(w):
    t.append(w.time)
    front.append(float(w.positions[:, 0].max()) + r)


w.advance_to(end, every=1 / 60, callback=sample)
print(f"{w.steps} steps, {w.stage_times['total']:.2f} s of stepping, "
      f"density error now {100 * w.stats['density_error_max']:.2f}% (max)")

# %% The picture of the last state, as `seiche render` draws it, and the front against K&O
picture = seiche.render(w, settings={"width": 640, "height": 360})
rows = [line.split(",") for line in
        (ROOT / "validation" / "data" / "koshizuka_oka_1996_front.csv").read_text().splitlines()
        if line and not line.startswith("#")]
header, values = rows[0], np.array([[float(c) for c in row] for row in rows[1:]])
T_exp, Z_exp = values[:, header.index("T")], values[:, header.index("Z")]

fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.8), dpi=110)
a.imshow(picture)
a.set_axis_off()
a.set_title(f"t = {w.time:.2f} s")
g = 9.81
b.plot(np.array(t) * np.sqrt(2 * g / column), np.array(front) / column, label="seiche PBF")
b.plot(T_exp, Z_exp, "o", label="Koshizuka & Oka 1996")
b.set_xlabel("T = t sqrt(2g/L)")
b.set_ylabel("front Z = z/L")
b.set_xlim(0, t[-1] * np.sqrt(2 * g / column) * 1.05)
b.legend()
b.grid(alpha=0.3)
fig.tight_layout()
fig.savefig(out / "notebook_dam_break.png")
print(f"wrote {out / 'notebook_dam_break.png'}")
