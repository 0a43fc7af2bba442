"""`make blender-check`, the bodies: imports a run with bodies (blender --background
--factory-startup --python check_bodies.py -- RUN) and checks that each body is its own object,
its mesh read once, whose keyframed pose puts its vertices where the run's frame meshes
(frames/bodies_NNNNNN.ply, all bodies at their poses) have them, at the first and the last frame,
and that the bodies move. Exits 1 with the failed checks listed.
"""
import os
import sys

import bpy
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, load_addon, run  # noqa: E402

addon = load_addon()

particles = addon.import_run(run)
scene = bpy.context.scene
names = list(dict.fromkeys(name for _, name, _, _ in addon.read_body_rows(os.path.join(run, "bodies.csv"))))
objects = [bpy.data.objects.get("seiche body " + n) for n in names]
check(len(names) > 1 and all(o is not None for o in objects),
      f"one object per body: {', '.join(names)}")
check(not particles["seiche_bodies"], "no per-frame mesh of all bodies besides them")
combined = addon.frame_files(run, "bodies", "ply")
where = {}
for k in (0, len(combined) - 1):
    scene.frame_set(k)
    expected = addon.z_up(addon.read_mesh_ply(combined[k])[0])
    at = 0
    for name, obj in zip(names, objects):
        local = np.array([v.co[:] for v in obj.data.vertices])
        world = local @ np.array(obj.matrix_world)[:3, :3].T + np.array(obj.matrix_world)[:3, 3]
        mine = expected[at:at + len(world)]
        at += len(world)
        where.setdefault(name, []).append(world)
        check(len(mine) == len(world) and np.allclose(world, mine, atol=2e-5),
              f"frame {k}: {name}'s {len(world)} vertices where the run's frame mesh has them")
    check(at == len(expected), f"frame {k}: the bodies' vertices are all of the frame mesh's")
check(any(not np.allclose(a, b) for a, b in where.values()), "the bodies move over the run")
check(all(o.animation_data and o.animation_data.action and
          len(o.animation_data.action.fcurves) == 7 for o in objects),
      "each body's location and rotation are keyframed (7 curves)")
finish("blender-check (bodies)")
