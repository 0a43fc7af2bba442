"""seiche runs in Blender: File > Import > seiche run, or `blender --python` this file.

Imports a run directory of `seiche run` as animated objects that follow the timeline:
  - "seiche particles": a point cloud, frame by frame from frames/frame_NNNNNN.ply, with the
    point attributes `velocity` (vector, m/s), `speed` (m/s), `density` (kg/m^3) and `id`
    (creation index), usable in Geometry Nodes and shaders; a Geometry Nodes modifier makes
    points of the particle radius with a material coloured by speed (points render as spheres
    in Cycles);
  - "seiche surface": the fluid's surface from frames/surface_NNNNNN.ply (or .obj; `run
    --mesh`, `seiche mesh`), when the run has them, with the fluid's `velocity` and `speed` at
    its vertices (PLY);
  - "seiche body NAME": one object per rigid body, its mesh once (frames/bodies_local_NNN.ply)
    and its pose keyframed at every frame from bodies.csv (runs written before those meshes:
    "seiche bodies", all bodies as one mesh from frames/bodies_NNNNNN.ply, rebuilt each frame).
seiche is y-up in metres; Blender is z-up: (x, y, z) becomes (x, -z, y) for every object, as
Blender's OBJ importer does, so particles and meshes agree. The scene's frame rate and frame
range follow the run.

Install: Edit > Preferences > Add-ons > Install..., pick this file, enable "Import-Export:
seiche run". Without installing: blender --python tools/blender/seiche_blender.py -- RUN_DIR
A saved .blend keeps animating: the objects hold their run in custom properties and the file
holds this script as a registered text block (it runs when scripts may auto-run: `blender -y`).
"""
import json
import os
import re
import struct
import sys

import bpy
import numpy as np

bl_info = {
    "name": "seiche run",
    "author": "the seiche authors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > seiche run",
    "description": "Import a seiche run directory as animated particles, surface and bodies",
    "category": "Import-Export",
}

_runs = {}  # run directory -> what the frame handler needs


def read_ply(path):
    """seiche's binary PLY frame: a header, then rows of float32 x y z vx vy vz density and the
    uint32 creation id (frames of older runs have no id)."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode("ascii")
    n = int(re.search(r"element vertex (\d+)", header).group(1))
    types = {"float": "<f4", "float32": "<f4", "uint": "<u4", "uint32": "<u4", "int": "<i4",
             "int32": "<i4"}
    dtype = np.dtype([(name, types[kind]) for kind, name in
                      re.findall(r"property (\w+) (\w+)", header.split("element vertex")[1])])
    rows = np.frombuffer(data[end:end + dtype.itemsize * n], dtype=dtype, count=n)
    return {name: rows[name] for name in dtype.names}


def read_obj(path):
    """Vertices and faces of a Wavefront OBJ (v and f lines)."""
    vertices, faces = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                vertices.append([float(c) for c in line.split()[1:4]])
            elif line.startswith("f "):
                faces.append([int(c.split("/")[0]) - 1 for c in line.split()[1:]])
    return np.array(vertices, dtype=np.float32).reshape(-1, 3), faces


def read_mesh_ply(path):
    """A surface or body mesh as seiche writes it: binary PLY, float vertex properties (x y z
    first), faces as a uchar count and int indices."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode("ascii")
    n = int(re.search(r"element vertex (\d+)", header).group(1))
    faces = int(re.search(r"element face (\d+)", header).group(1)) if "element face" in header else 0
    vertex_part = header.split("element vertex")[1].split("element")[0]
    properties = len(re.findall(r"property float", vertex_part))
    rows = np.frombuffer(data[end:end + 4 * n * properties], dtype="<f4").reshape(n, properties)
    packed = np.frombuffer(data[end + 4 * n * properties:end + 4 * n * properties + 13 * faces],
                           dtype=np.dtype([("count", "u1"), ("index", "<i4", 3)]))
    return rows[:, :3].copy(), packed["index"].tolist()


def read_any_mesh(path):
    return read_mesh_ply(path) if path.endswith(".ply") else read_obj(path)


def z_up(xyz):
    """seiche's y-up (x, y, z) as Blender's z-up (x, -z, y)."""
    return np.stack([xyz[:, 0], -xyz[:, 2], xyz[:, 1]], axis=1)


def frame_files(run, prefix, ext):
    folder = os.path.join(run, "frames")
    found = {}
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        m = re.fullmatch(prefix + r"_(\d+)\." + ext, name)
        if m:
            found[int(m.group(1))] = os.path.join(folder, name)
    return [found[k] for k in sorted(found)]


def set_points(mesh, frame):
    xyz = z_up(np.stack([frame["x"], frame["y"], frame["z"]], axis=1))
    v = z_up(np.stack([frame["vx"], frame["vy"], frame["vz"]], axis=1))
    n = len(xyz)
    mesh.clear_geometry()
    mesh.vertices.add(n)
    mesh.vertices.foreach_set("co", xyz.astype(np.float32).ravel())
    attributes = {
        "velocity": ("FLOAT_VECTOR", "vector", v.astype(np.float32).ravel()),
        "speed": ("FLOAT", "value", np.linalg.norm(v, axis=1).astype(np.float32)),
        "density": ("FLOAT", "value", frame["density"].astype(np.float32)),
        "id": ("INT", "value", frame["id"].astype(np.int32) if "id" in frame
               else np.arange(n, dtype=np.int32)),
    }
    for name, (kind, field, values) in attributes.items():
        if name in mesh.attributes:
            mesh.attributes.remove(mesh.attributes[name])
        mesh.attributes.new(name, kind, "POINT").data.foreach_set(field, values)
    mesh.update()


def mesh_velocity(path):
    """The fluid's velocity at a surface PLY's vertices (vx vy vz after the normals), or None."""
    if not path.endswith(".ply"):
        return None
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode("ascii")
    names = re.findall(r"property float (\w+)", header.split("element vertex")[1].split("element")[0])
    if not {"vx", "vy", "vz"} <= set(names):
        return None
    n = int(re.search(r"element vertex (\d+)", header).group(1))
    rows = np.frombuffer(data[end:end + 4 * n * len(names)], dtype="<f4").reshape(n, len(names))
    return np.stack([rows[:, names.index(a)] for a in ("vx", "vy", "vz")], axis=1)


def set_mesh(mesh, path):
    vertices, faces = read_any_mesh(path)
    mesh.clear_geometry()
    mesh.from_pydata(z_up(vertices).tolist(), [], faces)
    v = mesh_velocity(path)
    if v is not None and len(v) == len(mesh.vertices):  # a surface: colour it by speed
        v = z_up(v)
        for name, kind, field, values in (
                ("velocity", "FLOAT_VECTOR", "vector", v.astype(np.float32).ravel()),
                ("speed", "FLOAT", "value", np.linalg.norm(v, axis=1).astype(np.float32))):
            if name in mesh.attributes:
                mesh.attributes.remove(mesh.attributes[name])
            mesh.attributes.new(name, kind, "POINT").data.foreach_set(field, values)
    mesh.update()


def particle_material(radius, top_speed):
    """Points of the particle radius (Geometry Nodes) with a speed colour ramp."""
    material = bpy.data.materials.new("seiche speed")
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    bsdf = nodes.get("Principled BSDF")
    attribute = nodes.new("ShaderNodeAttribute")
    attribute.attribute_name = "speed"
    scale = nodes.new("ShaderNodeMath")
    scale.operation = "DIVIDE"
    scale.inputs[1].default_value = max(top_speed, 1e-6)
    ramp = nodes.new("ShaderNodeValToRGB")
    stops = [(0.0, (0.267, 0.004, 0.329)), (0.5, (0.129, 0.569, 0.549)), (1.0, (0.992, 0.906, 0.145))]
    ramp.color_ramp.elements[0].position, ramp.color_ramp.elements[0].color = stops[0][0], (*stops[0][1], 1)
    ramp.color_ramp.elements[1].position, ramp.color_ramp.elements[1].color = stops[2][0], (*stops[2][1], 1)
    middle = ramp.color_ramp.elements.new(stops[1][0])
    middle.color = (*stops[1][1], 1)
    links.new(attribute.outputs["Fac"], scale.inputs[0])
    links.new(scale.outputs[0], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])

    group = bpy.data.node_groups.new("seiche particles", "GeometryNodeTree")
    group.inputs.new("NodeSocketGeometry", "Geometry")
    group.outputs.new("NodeSocketGeometry", "Geometry")
    g_in = group.nodes.new("NodeGroupInput")
    g_out = group.nodes.new("NodeGroupOutput")
    to_points = group.nodes.new("GeometryNodeMeshToPoints")
    to_points.inputs["Radius"].default_value = radius
    set_material = group.nodes.new("GeometryNodeSetMaterial")
    set_material.inputs["Material"].default_value = material
    group.links.new(g_in.outputs["Geometry"], to_points.inputs["Mesh"])
    group.links.new(to_points.outputs["Points"], set_material.inputs["Geometry"])
    group.links.new(set_material.outputs["Geometry"], g_out.inputs["Geometry"])
    return group


def new_object(name, collection):
    mesh = bpy.data.meshes.new(name)
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    return obj


def run_files(run):
    """The run's frame files (particles, surface, bodies), listed once per session."""
    if run not in _runs:
        _runs[run] = {"ply": frame_files(run, "frame", "ply"), "shown": {}}
        for key in ("surface", "bodies"):
            # The binary PLY seiche writes by default, else the OBJ.
            _runs[run][key] = frame_files(run, key, "ply") or frame_files(run, key, "obj")
    return _runs[run]


def show_frame(particles, frame):
    """Loads the frame of the timeline into a particle object and its surface and bodies. What
    to load is stored on the object itself (custom properties seiche_run, seiche_surface,
    seiche_bodies), so it survives saving the .blend."""
    run = particles["seiche_run"]
    files = run_files(run)
    if not files["ply"]:
        return
    k = min(max(frame - int(particles.get("seiche_first", 0)), 0), len(files["ply"]) - 1)
    if files["shown"].get(particles.name) == k:
        return
    files["shown"][particles.name] = k
    set_points(particles.data, read_ply(files["ply"][k]))
    for key in ("surface", "bodies"):
        name = particles.get("seiche_" + key, "")
        if name and name in bpy.data.objects and k < len(files[key]):
            set_mesh(bpy.data.objects[name].data, files[key][k])


@bpy.app.handlers.persistent
def seiche_on_frame_change(scene, *args):
    for obj in scene.objects:
        if "seiche_run" in obj:
            show_frame(obj, scene.frame_current)


@bpy.app.handlers.persistent
def seiche_on_load(*args):
    _runs.clear()  # another file: its objects show their frames afresh


def install_handlers():
    """The frame handler, once (a module run again replaces its older copy)."""
    for handlers, fn in ((bpy.app.handlers.frame_change_pre, seiche_on_frame_change),
                         (bpy.app.handlers.load_post, seiche_on_load)):
        for h in list(handlers):
            if getattr(h, "__name__", "") == fn.__name__:
                handlers.remove(h)
        handlers.append(fn)


def read_body_rows(path):
    """bodies.csv: (time, name, position, quaternion w x y z) per row, seiche's axes."""
    rows = []
    with open(path) as f:
        header = f.readline().strip().split(",")
        col = {name: k for k, name in enumerate(header)}
        for line in f:
            c = line.strip().split(",")
            if len(c) < len(header):
                continue
            rows.append((float(c[col["time"]]), c[col["body"]],
                         [float(c[col[a]]) for a in ("x", "y", "z")],
                         [float(c[col[a]]) for a in ("qw", "qx", "qy", "qz")]))
    return rows


def import_bodies(run, collection, fps):
    """One object per body: its mesh once (frames/bodies_local_NNN.ply, in its own frame) and its
    pose keyframed at every frame from bodies.csv, so it can be selected, shaded and motion-
    blurred on its own. Returns the objects ([] for runs written before these meshes)."""
    local = frame_files(run, "bodies_local", "ply")
    csv_path = os.path.join(run, "bodies.csv")
    if not local or not os.path.exists(csv_path):
        return []
    rows = read_body_rows(csv_path)
    names = list(dict.fromkeys(name for _, name, _, _ in rows))
    objects = []
    for k, path in enumerate(local):
        name = names[k] if k < len(names) else f"body_{k}"
        obj = new_object("seiche body " + name, collection)
        set_mesh(obj.data, path)
        obj.rotation_mode = "QUATERNION"
        obj["seiche_body"] = name
        objects.append(obj)
    by_name = {o["seiche_body"]: o for o in objects}
    for time, name, x, q in rows:
        obj = by_name.get(name)
        if obj is None:
            continue
        frame = int(round(time * fps))
        # seiche's y-up pose in Blender's z-up axes: A p, and A R A^-1 as a quaternion (A, +90
        # degrees about x, turns the quaternion's vector part as it turns points).
        obj.location = (x[0], -x[2], x[1])
        obj.rotation_quaternion = (q[0], q[1], -q[3], q[2])
        obj.keyframe_insert("location", frame=frame)
        obj.keyframe_insert("rotation_quaternion", frame=frame)
    for obj in objects:  # straight between frames, as the run's own frames are samples
        if obj.animation_data and obj.animation_data.action:
            for curve in obj.animation_data.action.fcurves:
                for point in curve.keyframe_points:
                    point.interpolation = "LINEAR"
    return objects


TEXT_NAME = "seiche_run_handler.py"


def embed_handler():
    """Puts this file into the .blend as a text block registered as a module, so that a saved
    file animates when opened on a machine without the add-on (Blender runs it when scripts may
    auto-run: Preferences > Save & Load > Auto Run, or `blender -y`)."""
    text = bpy.data.texts.get(TEXT_NAME) or bpy.data.texts.new(TEXT_NAME)
    with open(os.path.abspath(__file__)) as f:
        # Blender runs it as __main__: the first line tells it from a command-line run.
        text.from_string("SEICHE_FROM_BLEND = True\n" + f.read())
    text.use_module = True


def import_run(run):
    """Imports RUN (a seiche run directory); returns the particle object."""
    run = os.path.abspath(run)
    files = run_files(run)
    ply = files["ply"]
    if not ply:
        raise RuntimeError(f"{run}: no frames/frame_NNNNNN.ply (seiche writes them with output.ply)")
    with open(os.path.join(run, "scene.json")) as f:
        scene_json = json.load(f)
    radius = float(scene_json.get("particle_radius", 0.01))
    fps = float(scene_json.get("time", {}).get("frame_rate", 30))
    collection = bpy.data.collections.new("seiche " + scene_json.get("name", os.path.basename(run)))
    bpy.context.scene.collection.children.link(collection)
    particles = new_object("seiche particles", collection)
    last = read_ply(ply[-1])  # its 99th percentile of speed tops the colour ramp
    speed = np.sqrt(last["vx"] ** 2 + last["vy"] ** 2 + last["vz"] ** 2)
    top = float(np.percentile(speed, 99)) if len(speed) else 1.0
    modifier = particles.modifiers.new("seiche points", "NODES")
    modifier.node_group = particle_material(radius, max(top, 0.1))
    particles["seiche_run"] = run
    particles["seiche_first"] = 0
    bodies = import_bodies(run, collection, fps)
    for key in ("surface", "bodies"):
        # The bodies as one mesh rebuilt every frame only for runs without their own meshes.
        wanted = files[key] and not (key == "bodies" and bodies)
        particles["seiche_" + key] = new_object("seiche " + key, collection).name if wanted else ""
    scene = bpy.context.scene
    scene.render.fps = max(1, int(round(fps)))
    scene.render.fps_base = scene.render.fps / fps
    scene.frame_start = 0
    scene.frame_end = len(ply) - 1
    install_handlers()
    embed_handler()
    show_frame(particles, scene.frame_current)
    return particles


class ImportSeicheRun(bpy.types.Operator):
    """Import a seiche run directory (pick its scene.json)"""

    bl_idname = "import_scene.seiche_run"
    bl_label = "Import seiche run"
    filepath: bpy.props.StringProperty(subtype="FILE_PATH")
    filter_glob: bpy.props.StringProperty(default="scene.json", options={"HIDDEN"})

    def execute(self, context):
        try:
            import_run(os.path.dirname(self.filepath))
        except (OSError, RuntimeError, ValueError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        return {"FINISHED"}

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}


def menu_entry(self, context):
    self.layout.operator(ImportSeicheRun.bl_idname, text="seiche run (scene.json)")


def register():
    bpy.utils.register_class(ImportSeicheRun)
    bpy.types.TOPBAR_MT_file_import.append(menu_entry)
    install_handlers()


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(menu_entry)
    bpy.utils.unregister_class(ImportSeicheRun)


if globals().get("SEICHE_FROM_BLEND"):
    # Run from the text block of a saved .blend as it opens: the frames follow the timeline.
    install_handlers()
elif __name__ == "__main__":
    # blender --python seiche_blender.py -- RUN_DIR: import it now (and offer the menu entry).
    register()
    if "--" in sys.argv and len(sys.argv) > sys.argv.index("--") + 1:
        import_run(sys.argv[sys.argv.index("--") + 1])
