"""`make blender-check`: imports a run with the add-on in Blender's background mode and checks
what a user relies on. blender --background --factory-startup --python check_import.py -- RUN

  - the frame range and rate follow the run;
  - at the first and last frame the point cloud holds the frame's particles, in Blender's z-up
    axes, with the attributes velocity, speed, density and id, the id the creation id of the
    PLY frame (make blender-check runs a sink, so that ids and row numbers differ);
  - the surface mesh agrees with the particles (every vertex within 3 particle radii of one);
  - the particles move between the first and the last frame.
Exits 1 with the failed checks listed.
"""
import json
import os
import sys

import bpy
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, load_addon, run  # noqa: E402

addon = load_addon()

addon.register()
particles = addon.import_run(run)
scene = bpy.context.scene
plys = addon.frame_files(run, "frame", "ply")
with open(os.path.join(run, "scene.json")) as f:
    settings = json.load(f)
radius = settings["particle_radius"]
check(scene.frame_start == 0 and scene.frame_end == len(plys) - 1,
      f"frames 0..{scene.frame_end} for {len(plys)} frame files")
check(abs(scene.render.fps / scene.render.fps_base - settings["time"]["frame_rate"]) < 1e-6,
      f"frame rate {scene.render.fps / scene.render.fps_base:g} = the run's")

positions, ids = {}, {}
for k in (0, len(plys) - 1):
    scene.frame_set(k)
    mesh = particles.data
    ply = addon.read_ply(plys[k])
    n = len(ply["x"])
    co = np.empty(3 * len(mesh.vertices), dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    positions[k] = co
    ids[k] = ply["id"] if "id" in ply else np.arange(n)
    check(len(co) == n, f"frame {k}: {len(co)} points for {n} particles")
    expected = np.stack([ply["x"], -ply["z"], ply["y"]], axis=1)  # y-up -> z-up
    check(np.allclose(co, expected, atol=1e-6), f"frame {k}: positions in z-up axes")
    for name, size in (("velocity", 3), ("speed", 1), ("density", 1), ("id", 1)):
        present = name in mesh.attributes and len(mesh.attributes[name].data) == n
        check(present, f"frame {k}: attribute {name} on every point")
    if "id" in mesh.attributes and "id" in ply:
        got = np.empty(n, dtype=np.int32)
        mesh.attributes["id"].data.foreach_get("value", got)
        check(np.array_equal(got, ply["id"].astype(np.int32)), f"frame {k}: id is the creation id")
    if "density" in mesh.attributes:
        d = np.empty(n, dtype=np.float32)
        mesh.attributes["density"].data.foreach_get("value", d)
        check(np.allclose(d, ply["density"]), f"frame {k}: density values from the frame")
    if particles["seiche_surface"]:
        surface = bpy.data.objects[particles["seiche_surface"]].data
        sv = np.empty(3 * len(surface.vertices), dtype=np.float32)
        surface.vertices.foreach_get("co", sv)
        sv = sv.reshape(-1, 3)[::max(1, len(surface.vertices) // 300)]
        nearest = np.sqrt(((sv[:, None, :] - co[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
        if k > 0:
            check("speed" in surface.attributes and "velocity" in surface.attributes,
                  f"frame {k}: the surface has the fluid's velocity and speed")
            if "speed" in surface.attributes:
                sp = np.empty(len(surface.vertices), dtype=np.float32)
                surface.attributes["speed"].data.foreach_get("value", sp)
                check(sp.max() > 0.1, f"frame {k}: the surface moves (top speed {sp.max():.2f} m/s)")
        check(len(sv) > 0 and nearest.max() < 3 * radius,
              f"frame {k}: surface vertices within {nearest.max() / radius:.2f} r of a particle (< 3 r)")
# The same particles (by id: the sink removes some) stand elsewhere at the end.
last = len(plys) - 1
common, first_rows, last_rows = np.intersect1d(ids[0], ids[last], return_indices=True)
check(len(common) > 0 and len(ids[last]) < len(ids[0]) if "id" in ply else len(common) > 0,
      f"{len(ids[0]) - len(ids[last])} particles left through the sink, {len(common)} stayed")
check(len(common) > 0 and not np.allclose(positions[0][first_rows], positions[last][last_rows]),
      "the particles move over the run")
# z is up: the resting column stands on z = 0, as high as the scene's block.
block_top = settings["fluid"][0]["max"][1]
check(abs(positions[0][:, 2].min() - radius) < 0.5 * radius and
      abs(positions[0][:, 2].max() - (block_top - radius)) < 0.5 * radius,
      f"frame 0: z from {positions[0][:, 2].min():.3f} to {positions[0][:, 2].max():.3f} m (the column's height is up)")
# The surface the add-on read (the PLY) is what Blender's own OBJ importer makes of the same
# frame's OBJ (its default axes): the run writes both for this check.
surface_files = addon.frame_files(run, "surface", "obj")
check(len(addon.frame_files(run, "surface", "ply")) == len(plys), "a PLY surface mesh per frame")
if surface_files:
    scene.frame_set(0)
    bpy.ops.wm.obj_import(filepath=surface_files[0])
    imported = bpy.context.selected_objects[0]
    world = np.array(imported.matrix_world)
    iv = np.empty(3 * len(imported.data.vertices), dtype=np.float32)
    imported.data.vertices.foreach_get("co", iv)
    iv = iv.reshape(-1, 3) @ world[:3, :3].T + world[:3, 3]
    ours = bpy.data.objects[particles["seiche_surface"]].data
    ov = np.empty(3 * len(ours.vertices), dtype=np.float32)
    ours.vertices.foreach_get("co", ov)
    ov = ov.reshape(-1, 3)
    same = len(iv) == len(ov) and np.allclose(np.sort(iv, axis=0), np.sort(ov, axis=0), atol=1e-5)
    check(same, "frame 0: the surface (PLY) equals what Blender's OBJ importer makes of the OBJ")
    bpy.data.objects.remove(imported)
group = particles.modifiers["seiche points"].node_group
to_points = next(n for n in group.nodes if n.bl_idname == "GeometryNodeMeshToPoints")
check(abs(to_points.inputs["Radius"].default_value - radius) < 1e-9,
      f"points of the particle radius {radius} m (Geometry Nodes)")
# Saved for the second half (check_reopen.py, and a render from the command line): the frames
# must follow the timeline in a fresh Blender that opens the file, without the add-on.
check(addon.TEXT_NAME in bpy.data.texts and bpy.data.texts[addon.TEXT_NAME].use_module,
      "the frame handler is in the .blend, as a text block registered as a module")
if "Cube" in bpy.data.objects:  # the factory scene's cube would hide the fluid from the camera
    bpy.data.objects.remove(bpy.data.objects["Cube"])
scene.render.engine = "CYCLES"
scene.cycles.samples = 1
scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
scene.cycles.device = "CPU"
scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 96, 64, 100
scene.render.image_settings.file_format = "BMP"  # no metadata: equal frames give equal files
scene.render.filepath = os.path.join(os.path.abspath(run), "blender_render", "frame_")
camera_data = bpy.data.cameras.new("seiche check camera")
camera = bpy.data.objects.new("seiche check camera", camera_data)
scene.collection.objects.link(camera)
camera.location = (0.8, -2.5, 0.6)
camera.rotation_euler = (1.45, 0.0, 0.0)
scene.camera = camera
scene.frame_set(0)
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(os.path.abspath(run), "check.blend"))
finish("blender-check")
