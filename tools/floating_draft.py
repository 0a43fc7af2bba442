#!/usr/bin/env python3
"""The draft of the floating box of a run of scenes/floating_box_3d.json.

The draft is the water level minus the bottom of the box (its centre minus half its height),
averaged over the frames from --from (s) to the end, against Archimedes' (rho_b/rho0) * height.
Three water levels:
  volume   where the fluid's own volume (N particles of d^3, at rest density) stands in the tank
           around the box's submerged part: the level Archimedes' law speaks of;
  corners  the highest particle within 6 cm of the tank's vertical edges, plus r (as
           tests/test_bodies.cpp measures it);
  columns  the mean over columns 2r wide of each column's highest particle, plus r, for the
           columns more than 3 cm from the walls and the box (reads low: a rough top layer
           leaves some columns' highest particle a layer down).

Usage: tools/floating_draft.py RUN_DIR [--from 2.0]
"""
import argparse
import csv
import json
import pathlib
import struct
import sys


def read_ply_positions(path):
    data = path.read_bytes()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode().splitlines()
    count = next(int(l.split()[2]) for l in header if l.startswith("element vertex"))
    props = [l.split()[2] for l in header if l.startswith("property ")]  # 4 bytes each
    stride = 4 * len(props)
    out = []
    for i in range(count):
        out.append(struct.unpack_from("<3f", data, end + i * stride))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=pathlib.Path)
    ap.add_argument("--from", dest="start", type=float, default=2.0,
                    help="first time (s) of the average; default 2.0")
    a = ap.parse_args()
    scene = json.loads((a.run / "scene.json").read_text())
    r = scene["particle_radius"]
    box = scene["bodies"][0]
    height = box["size"][1]
    lo, hi = scene["container"]["min"], scene["container"]["max"]
    with open(a.run / "bodies.csv") as f:
        rows = [row for row in csv.DictReader(f)]
    width = box["size"][0]
    depth = box["size"][2]
    d = 2 * r
    area = (hi[0] - lo[0]) * (hi[2] - lo[2])
    drafts, mean_drafts, volume_drafts = [], [], []
    for k, row in enumerate(rows):
        t = float(row["time"])
        if t < a.start - 1e-9:
            continue
        frame = a.run / "frames" / f"frame_{k:06d}.ply"
        points = read_ply_positions(frame)
        bottom = float(row["y"]) - 0.5 * height
        top = max(y for x, y, z in points
                  if (x < lo[0] + 0.06 or x > hi[0] - 0.06) and (z < lo[2] + 0.06 or z > hi[2] - 0.06))
        drafts.append(top + r - bottom)
        fluid = len(points) * d ** 3
        level = (fluid - width * depth * bottom) / (area - width * depth)
        volume_drafts.append(level - bottom)
        bx, bz, column = float(row["x"]), float(row["z"]), 2 * r
        tops = {}
        for x, y, z in points:
            cx, cz = int(x // column), int(z // column)
            tops[(cx, cz)] = max(y, tops.get((cx, cz), y))
        kept = []
        for (cx, cz), y in tops.items():
            x, z = (cx + 0.5) * column, (cz + 0.5) * column
            off_box = max(abs(x - bx) - 0.5 * width, abs(z - bz) - 0.5 * depth)
            off_wall = min(x - lo[0], hi[0] - x, z - lo[2], hi[2] - z)
            if off_box > 0.03 and off_wall > 0.03:
                kept.append(y)
        if kept:
            mean_drafts.append(sum(kept) / len(kept) + r - bottom)
    if not drafts:
        sys.exit(f"floating_draft: no frames at or after t = {a.start} s in {a.run}")
    archimedes = box["density"] / scene["rest_density"] * height
    print(f"{scene['solver']['type']}, r = {r * 1000:g} mm, {len(drafts)} frames, Archimedes {archimedes:.4f} m:")
    for label, values in (("fluid's volume", volume_drafts),
                          ("highest particle in the corners", drafts),
                          ("mean of the columns' tops", mean_drafts)):
        if values:
            draft = sum(values) / len(values)
            print(f"  level from the {label}: draft {draft:.4f} m "
                  f"({100 * (draft - archimedes) / height:+.1f}% of the height)")


if __name__ == "__main__":
    main()
