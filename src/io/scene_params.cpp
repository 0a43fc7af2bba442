// The front end's keys: the scene's name, what a run writes, how meshes and pictures are made.
// Declared like the world's (src/definition/parameters.cpp); the core never sees them.
#include <unistd.h>

#include <cmath>

#include "seiche/scene.hpp"
#include "../definition/problem_text.hpp"

namespace seiche {

namespace {

bool has_range(const Scene& s) {
    return s.render.range_max > s.render.range_min;
}
bool has_camera(const Scene& s) {
    return !s.render.camera_auto;
}

Param<Scene> colour_range() {
    Param<Scene> p{"render.range", ParamKind::vector, "m/s or kg/m³", closed(0, 1e9), {},
                   "colour range [low, high], low < high; automatic: speed from 0 to what all "
                   "but the fastest 0.5% of the particles of every frame of the run stay below "
                   "(two significant digits; a picture drawn while the run goes, and the viewer, "
                   "use √(2|g|H), the free-fall speed from the top of the fluid), density "
                   "ρ0·[0.97, 1.03]; the same for every frame, so movies do not flicker",
                   nullptr, nullptr};
    p.components = 2;
    p.default_note = "automatic";
    p.written = &has_range;
    p.get = [](const Scene& s) -> ParamValue {
        return Vec3d{s.render.range_min, s.render.range_max, 0};
    };
    p.set = [](Scene& s, const ParamValue& v) {
        s.render.range_min = std::get<Vec3d>(v)[0];
        s.render.range_max = std::get<Vec3d>(v)[1];
    };
    return p;
}

bool has_schema(const Scene& s) {
    return !s.schema.empty();
}

Param<Scene> schema_reference() {
    Param<Scene> p = text_param<Scene, &Scene::schema>(
        "$schema", "the JSON Schema editors check the file against (docs/scene.schema.json); "
                   "seiche ignores it");
    p.written = &has_schema;
    return p;
}

Param<Scene> camera(Param<Scene> p) {
    p.written = &has_camera;
    return p;
}

}  // namespace

std::span<const Param<Scene>> scene_params() {
    using S = Scene;
    using O = OutputParams;
    using M = SurfaceParams;
    using R = RenderParams;
    static const std::vector<Param<S>> table = {
        with_default_note(text_param<S, &S::name>("name", "used for the default output directory"),
                          "the file name without .json"),
        text_param<S, &S::description>("description", "free text"),
        schema_reference(),

        with_default_note(text_param<S, &S::output, &O::directory>(
                              "output.directory", "where the run is written (`-o` overrides it)"),
                          "out/<name>"),
        boolean_param<S, &S::output, &O::vtk>("output.vtk", "`frames/*.vtp` and `particles.pvd`"),
        boolean_param<S, &S::output, &O::ply>("output.ply", "`frames/*.ply`"),
        boolean_param<S, &S::output, &O::stats>("output.stats", "`stats.csv`, one row per step"),
        boolean_param<S, &S::output, &O::mesh>(
            "output.mesh", "a surface mesh per frame (`seiche run --mesh` sets it)"),
        boolean_param<S, &S::output, &O::mesh_obj>("output.mesh_obj",
                                                   "meshes as `frames/surface_NNNNNN.obj` (text, about 3× the PLY)"),
        boolean_param<S, &S::output, &O::mesh_ply>("output.mesh_ply",
                                                   "meshes as binary `frames/surface_NNNNNN.ply` (the default format)"),
        boolean_param<S, &S::output, &O::mesh_vtk>(
            "output.mesh_vtk", "meshes as compressed `frames/surface_NNNNNN.vtp` and `surface.pvd` (a "
                              "time series for ParaView)"),
        boolean_param<S, &S::output, &O::vdb>(
            "output.vdb",
            "OpenVDB files for Houdini and Blender: `frames/frame_NNNNNN.vdb`, a points grid "
            "`points` with P, v, density and id, and with meshes in 3D "
            "`frames/surface_NNNNNN.vdb`, the surface as a level set `surface`; needs a seiche "
            "built with OpenVDB (libopenvdb-dev)"),
        boolean_param<S, &S::output, &O::render>(
            "output.render",
            "a picture per frame, `render/frame_NNNNNN.png`, and `render/movie.mp4` when ffmpeg "
            "is installed (`seiche run --render` sets it)"),
        boolean_param<S, &S::output, &O::preview>(
            "output.preview", "`preview_first.png` and `preview_last.png`: the first and the last "
                              "frame written"),
        number_param<S, &S::output, &O::sensor_rate>(
            "output.sensor_rate", "Hz", closed(1, 1e6),
            "rows of `sensors.csv` per simulated second (with `sensors`): a row at the end of the "
            "first step at or after each multiple of 1/rate, each sensor's mean over the steps "
            "since the row before, weighted by their Δt (steps longer than 1/rate give a row "
            "per step)"),
        number_param<S, &S::output, &O::checkpoint_every>(
            "output.checkpoint_every", "s", closed(0, 1e6),
            "simulated time between checkpoints (`checkpoint.bin`, written at the first frame at or "
            "after each multiple and at the last frame); `seiche run --resume DIR` continues from "
            "the last one, bitwise as if never stopped. 0: none"),
        boolean_param<S, &S::output, &O::pieces>(
            "output.pieces",
            "particle frames in pieces: each process of a split run (`mpirun`) writes its own "
            "particles, `frames/frame_NNNNNN_K.vtp`, joined by `frames/frame_NNNNNN.pvtp`, which "
            "`particles.pvd` lists (ParaView reads one series; seiche's commands read the frames "
            "whole, in creation order); no process gathers the whole fluid. Needs output.ply, "
            "output.vdb and output.mesh false; no previews are drawn (`seiche render` draws "
            "pictures from the pieces)"),

        number_param<S, &S::surface, &M::cell_size>(
            "surface.cell_size", "r", closed(0.1, 8),
            "marching-cubes cell edge in particle radii; 0.5 gives 4× the triangles"),
        number_param<S, &S::surface, &M::iso>(
            "surface.iso", "", open(0, 1),
            "level of the colour field (1 inside the fluid at rest); the surface of a resting "
            "pool is one radius above its top particles at 0.5"),
        number_param<S, &S::surface, &M::smoothing_radius>(
            "surface.smoothing_radius", "r", closed(2, 16),
            "support of the field's cubic spline kernel in particle radii"),
        integer_param<S, &S::surface, &M::smoothing_iterations>(
            "surface.smoothing_iterations", "", closed(0, 100),
            "Taubin λ|μ smoothing passes on the mesh (no shrinkage)"),
        boolean_param<S, &S::surface, &M::narrow_band>(
            "surface.narrow_band",
            "skip evaluating blocks deep inside the fluid (same mesh, about 2× faster on big "
            "pools)"),

        integer_param<S, &S::render, &R::width>("render.width", "pixels", closed(64, 8192),
                                                "picture width"),
        integer_param<S, &S::render, &R::height>("render.height", "pixels", closed(64, 8192),
                                                 "picture height"),
        choice_param<S, &S::render, &R::color_by>("render.color_by", {"speed", "density"},
                                                  "the colour map's quantity"),
        colour_range(),
        camera(required(vector_param<S, &S::render, &R::camera_position>(
            "render.camera.position", "m",
            closed(-1e6, 1e6),
            "3D only; without a camera the picture looks from the front, a little right and "
            "above, and fits the whole container",
            3))),
        camera(required(vector_param<S, &S::render, &R::camera_target>(
            "render.camera.target", "m", closed(-1e6, 1e6), "the point looked at", 3))),
        camera(number_param<S, &S::render, &R::fov>(
            "render.camera.fov", "degrees", open(1, 170), "vertical field of view")),
        integer_param<S, &S::render, &R::supersample>(
            "render.supersample", "", closed(1, 4),
            "samples per pixel along each axis (anti-aliasing)"),
    };
    return table;
}

std::span<const Param<SensorDef>> sensor_params() {
    using P = SensorDef;
    static const std::vector<Param<P>> table = {
        text_param<P, &P::name>("name", "its column in sensors.csv: unique, without commas, quotes "
                                        "or control characters; default sensor_N, N its index"),
        text_param<P, &P::object>("object", "the box it sits on: \"container\" or "
                                            "\"obstacles[i]\" (bodies: their force is in "
                                            "bodies.csv)"),
        required(choice_param<P, &P::face>(
            "face", {"-x", "+x", "-y", "+y", "-z", "+z"},
            "which face of the object: the one at its smallest or largest x, y or z (the "
            "container's -x is its left wall, an obstacle's +x the face looking along +x)")),
        required(vector_param<P, &P::centre>(
            "centre", "m", closed(-1e6, 1e6),
            "the patch's centre; its coordinate across the face is ignored (the face's own)")),
        required(number_param<P, &P::size>(
            "size", "m", open(0, 1e6),
            "the patch's width along each direction of the face: the boundary particles within "
            "size/2 of the centre, the rows kept centred on it (at least one particle spacing 2r)")),
    };
    return table;
}

const ParamList<Scene, SensorDef>& sensor_list() {
    static const ParamList<Scene, SensorDef> list{
        "sensors", "pressure sensors",
        "pressure sensors on faces of the container and the obstacles, read every step into "
        "`sensors.csv` (docs/scene-format.md, \"Pressure sensors\")",
        0, &sensor_params, [](Scene& s) -> std::vector<SensorDef>& { return s.sensors; },
        [](const Scene& s) -> const std::vector<SensorDef>& { return s.sensors; }};
    return list;
}

namespace {

// The problems of scene.sensors[i] beyond its values' ranges: the object, the face, the centre.
void sensor_problems(const Scene& s, const SensorDef& d, std::size_t i, const std::string& path,
                     std::vector<Problem>& out) {
    if (std::string why = problem_text::csv_name_problem(d.name, "sensors.csv"); !why.empty())
        out.push_back({path + ".name", why});
    for (std::size_t j = 0; j < i; ++j)
        if (sensor_name(s.sensors[j], j) == sensor_name(d, i))
            out.push_back({path + ".name", "\"" + sensor_name(d, i) +
                                               "\" is already the name of sensors[" +
                                               std::to_string(j) + "]"});
    Vec3d lo = s.container_min, hi = s.container_max;
    bool found = d.object == "container";
    for (std::size_t k = 0; k < s.obstacles.size() && !found; ++k)
        if (d.object == "obstacles[" + std::to_string(k) + "]") {
            lo = s.obstacles[k].min;
            hi = s.obstacles[k].max;
            found = true;
        }
    if (!found) {
        std::string names = "\"container\"";
        if (!s.obstacles.empty())
            names += s.obstacles.size() == 1
                         ? " or \"obstacles[0]\""
                         : ", or \"obstacles[0]\" to \"obstacles[" +
                               std::to_string(s.obstacles.size() - 1) + "]\"";
        std::string body;
        for (std::size_t b = 0; b < s.bodies.size(); ++b)
            if (body_name(s.bodies[b], b) == d.object)
                body = " (bodies[" + std::to_string(b) + "] is a body: its force and torque are in "
                       "bodies.csv; sensors read fixed boxes)";
        out.push_back({path + ".object", "expected " + names + ", got \"" + d.object + "\"" + body});
        return;
    }
    const int axis = int(d.face) / 2;
    if (axis >= s.dimension) {
        out.push_back({path + ".face", "a 2D scene's faces are -x, +x, -y and +y"});
        return;
    }
    const char* const axes = problem_text::axis_name;
    for (int a = 0; a < s.dimension; ++a) {
        if (a == axis) continue;
        if (d.centre[a] < lo[a] || d.centre[a] > hi[a])
            out.push_back({path + ".centre",
                           std::string("its ") + axes[a] + " (" + problem_text::num(d.centre[a]) +
                               " m) is off the face, which spans " + problem_text::num(lo[a]) + " to " +
                               problem_text::num(hi[a]) + " m along " + axes[a]});
    }
    if (d.size < 2 * s.particle_radius)
        out.push_back({path + ".size", "expected at least one particle spacing (2r = " +
                                           problem_text::num(2 * s.particle_radius) + " m), got " +
                                           problem_text::num(d.size) + " m: a smaller patch holds no "
                                           "boundary particle"});
}

}  // namespace

double picture_bytes(const RenderParams& r) {
    return 16.0 * r.width * r.height * r.supersample * r.supersample;
}

std::vector<Problem> validate_scene(const Scene& s) {
    std::vector<Problem> out = validate(s);
    for (const auto& p : scene_params()) {
        if (p.written && !p.written(s)) continue;  // an absent group: nothing to check
        if (std::string m = check_value(p, s, s.dimension); !m.empty())
            out.push_back({std::string(p.key), m});
    }
    // Each sensor looks through its object's boundary particles once, and its name through the
    // others': a list of a million would take hours to set up.
    constexpr std::size_t max_sensors = 10000;
    if (s.sensors.size() > max_sensors)
        out.push_back({"sensors", "at most " + std::to_string(max_sensors) + " sensors, got " +
                                      std::to_string(s.sensors.size())});
    for (std::size_t i = 0; i < s.sensors.size() && i < max_sensors; ++i) {
        const std::string path = "sensors[" + std::to_string(i) + "]";
        const std::size_t before = out.size();
        for (const auto& p : sensor_params())
            if (std::string m = check_value(p, s.sensors[i], s.dimension); !m.empty())
                out.push_back({path + "." + std::string(p.key), m});
        if (out.size() == before) sensor_problems(s, s.sensors[i], i, path, out);
    }
    const RenderParams& r = s.render;
    // A picture is drawn at supersample² samples per pixel, 16 bytes each (colour and depth).
    const double bytes = picture_bytes(r), ram = double(::sysconf(_SC_PHYS_PAGES)) *
                                                 double(::sysconf(_SC_PAGESIZE));
    if (ram > 0 && bytes > 0.5 * ram)
        out.push_back({"render.supersample",
                       "a " + std::to_string(r.width) + " x " + std::to_string(r.height) +
                           " picture at supersample " + std::to_string(r.supersample) +
                           " needs " + std::to_string(int(bytes / (1 << 30))) +
                           " GiB, more than half of this machine's memory; make it smaller or "
                           "lower render.supersample"});
    if (has_range(s) || r.range_min != 0 || r.range_max != 0) {
        if (!(r.range_max > r.range_min))
            out.push_back({"render.range", "expected [low, high] with low < high, got [" +
                                               std::to_string(r.range_min) + ", " +
                                               std::to_string(r.range_max) + "]"});
    }
    if (!r.camera_auto) {
        if (s.dimension != 3)
            out.push_back({"render.camera",
                           "a camera is for 3D scenes; 2D pictures always show the container"});
        const double dx = r.camera_target[0] - r.camera_position[0],
                     dy = r.camera_target[1] - r.camera_position[1],
                     dz = r.camera_target[2] - r.camera_position[2];
        if (dx * dx + dy * dy + dz * dz < 1e-12)
            out.push_back({"render.camera.target", "must differ from the position"});
        else if (dx * dx + dz * dz < 1e-6 * (dx * dx + dy * dy + dz * dz))
            out.push_back({"render.camera.target",
                           "the camera looks straight up or down; tilt it a little"});
    }
    return out;
}

}  // namespace seiche
