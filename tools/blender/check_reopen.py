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
from checks import check, finish, load_addon, run  # noqa: E402

# Only its PLY reader: loading the file registers nothing (the add-on stays off in this Blender).
read_ply = load_addon().read_ply


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
    frame = read_ply(os.path.join(run, "frames", frames[k]))
    xyz, ids = np.stack([frame["x"], frame["y"], frame["z"]], axis=1), frame["id"]
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
