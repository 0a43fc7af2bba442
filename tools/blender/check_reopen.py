"""`make blender-check`, second half: opens the .blend that check_import.py saved, in a fresh
Blender without the add-on (blender -b RUN/check.blend -y --factory-startup --python
check_reopen.py -- RUN), and checks that the animation survived: the frame handler came back
from the file's text block, and at the first and the last frame the points are the PLY frames'
(count, positions in z-up axes, creation ids). Exits 1 with the failed checks listed.
"""
import os
import sys

import bpy
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, run  # noqa: E402


def read_ply(path):
    # Only the header's layout is needed here: float x y z ... density, uint id (32 bytes a row).
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    n = int(data[:end].decode().split("element vertex ")[1].split()[0])
    rows = np.frombuffer(data[end:end + 32 * n], dtype=np.dtype([("f", "<f4", 7), ("id", "<u4")]))
    return rows["f"][:, :3], rows["id"]


names = [h.__name__ for h in bpy.app.handlers.frame_change_pre]
check("seiche_on_frame_change" in names, "the frame handler is back after opening the file")
scene = bpy.context.scene
particles = next((o for o in scene.objects if "seiche_run" in o), None)
check(particles is not None, "the particle object keeps its run (custom property seiche_run)")
frames = sorted(f for f in os.listdir(os.path.join(run, "frames")) if f.startswith("frame_")
                and f.endswith(".ply"))
seen = {}
for k in (scene.frame_end, scene.frame_start):
    scene.frame_set(k)
    xyz, ids = read_ply(os.path.join(run, "frames", frames[k]))
    mesh = particles.data
    co = np.empty(3 * len(mesh.vertices), dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    seen[k] = co
    check(len(co) == len(xyz), f"frame {k}: {len(co)} points for {len(xyz)} particles")
    if len(co) == len(xyz):
        expected = np.stack([xyz[:, 0], -xyz[:, 2], xyz[:, 1]], axis=1)
        check(np.allclose(co, expected, atol=1e-6), f"frame {k}: the frame's positions")
    got = np.empty(len(mesh.vertices), dtype=np.int32)
    mesh.attributes["id"].data.foreach_get("value", got)
    check(np.array_equal(got, ids.astype(np.int32)), f"frame {k}: the frame's ids")
check(len(seen[scene.frame_start]) != len(seen[scene.frame_end]) or
      not np.allclose(seen[scene.frame_start], seen[scene.frame_end]),
      "the points move between the first and the last frame")
finish("blender-check (reopened)")
