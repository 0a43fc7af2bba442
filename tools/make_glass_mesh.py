#!/usr/bin/env python3
"""Writes scenes/meshes/glass.obj: a drinking glass as a closed solid of revolution about y (m).

The profile (radius, height) runs round the wall's cross-section: the base's centre underneath,
out along the bottom, up the outside, over the rim, down the inside to the inner floor and back
to the axis. Revolved in `segments` steps, with one vertex where the profile meets the axis, it
is closed, and its triangles turn counter-clockwise seen from outside.
With --tank it writes a closed cylindrical tank instead (radius --outer, length --height, centred
on the origin, axis y), for a body that holds the fluid inside ("inside": true):
scenes/meshes/tank.obj is `tools/make_glass_mesh.py scenes/meshes/tank.obj --tank --outer 0.15
--height 0.5 --segments 32`.
Usage: tools/make_glass_mesh.py [OUT] [--outer R] [--inner R] [--height H] [--base B] [--tank]
"""
import argparse
import math


def glass(outer, inner, height, base):
    return [(0.0, 0.0), (outer, 0.0), (outer, height), (inner, height), (inner, base), (0.0, base)]


def tank(radius, length):
    return [(0.0, -0.5 * length), (radius, -0.5 * length), (radius, 0.5 * length), (0.0, 0.5 * length)]


def revolve(profile, segments):
    verts, faces, ring = [], [], []
    for r, y in profile:
        if r == 0.0:
            ring.append([len(verts)] * segments)
            verts.append((0.0, y, 0.0))
            continue
        row = []
        for k in range(segments):
            t = 2 * math.pi * k / segments
            row.append(len(verts))
            verts.append((r * math.cos(t), y, -r * math.sin(t)))
        ring.append(row)
    for a, b in zip(ring, ring[1:]):
        for k in range(segments):
            k1 = (k + 1) % segments
            quad = [a[k], b[k], b[k1], a[k1]]
            tris = [(quad[0], quad[2], quad[1]), (quad[0], quad[3], quad[2])]
            for tri in tris:
                if len(set(tri)) == 3:
                    faces.append(tri)
    return verts, faces


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", nargs="?", default="scenes/meshes/glass.obj")
    p.add_argument("--outer", type=float, default=0.07)
    p.add_argument("--inner", type=float, default=0.05)
    p.add_argument("--height", type=float, default=0.16)
    p.add_argument("--base", type=float, default=0.02)
    p.add_argument("--segments", type=int, default=48)
    p.add_argument("--tank", action="store_true", help="a closed cylinder: radius --outer, length --height")
    a = p.parse_args()
    if a.tank:
        verts, faces = revolve(tank(a.outer, a.height), a.segments)
        title = f"a closed tank, radius {a.outer} m, length {a.height} m along y, centred"
    else:
        verts, faces = revolve(glass(a.outer, a.inner, a.height, a.base), a.segments)
        title = f"a glass, outer radius {a.outer} m, inner {a.inner} m, height {a.height} m, base {a.base} m"
    with open(a.out, "w") as f:
        f.write(f"# seiche: {title} (tools/make_glass_mesh.py)\n")
        for v in verts:
            f.write("v %.6f %.6f %.6f\n" % v)
        for t in faces:
            f.write("f %d %d %d\n" % tuple(i + 1 for i in t))


if __name__ == "__main__":
    main()
