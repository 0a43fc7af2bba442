#!/usr/bin/env python3
"""The draft of the floating box of a run of scenes/floating_box_3d.json.

The draft is the water level far from the box (the highest particle within 6 cm of the tank's
vertical edges, plus r) minus the bottom of the box (its centre minus half its height), averaged
over the frames from --from (s) to the end. Prints it against Archimedes' (rho_b/rho0) * height.

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
    props = [l.split()[2] for l in header if l.startswith("property float")]
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
    drafts = []
    for k, row in enumerate(rows):
        t = float(row["time"])
        if t < a.start - 1e-9:
            continue
        frame = a.run / "frames" / f"frame_{k:06d}.ply"
        top = max(y for x, y, z in read_ply_positions(frame)
                  if (x < lo[0] + 0.06 or x > hi[0] - 0.06) and (z < lo[2] + 0.06 or z > hi[2] - 0.06))
        drafts.append(top + r - (float(row["y"]) - 0.5 * height))
    if not drafts:
        sys.exit(f"floating_draft: no frames at or after t = {a.start} s in {a.run}")
    draft = sum(drafts) / len(drafts)
    archimedes = box["density"] / scene["rest_density"] * height
    print(f"{scene['solver']['type']}, r = {r * 1000:g} mm: draft {draft:.4f} m over {len(drafts)} "
          f"frames, Archimedes {archimedes:.4f} m ({100 * (draft - archimedes) / height:+.1f}% of the height)")


if __name__ == "__main__":
    main()
