// Scene JSON: one explicit table of keys, each with its type, default and valid range. Unknown
// keys are refused (with the closest valid key as a hint), so a typo never silently does nothing.
#include "seiche/io/scene_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "seiche/world.hpp"

namespace seiche::io {

using nlohmann::json;

namespace {

std::string type_name(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        default:
            return "a number";
    }
}

std::string shown(const json& j) {
    std::string s = j.dump();
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return type_name(j) + " (" + s + ")";
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

struct Range {
    double lo, hi;
    bool lo_open = false, hi_open = false;
    bool contains(double v) const {
        return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
    }
    std::string text() const {
        auto num = [](double v) {
            if (std::isinf(v)) return std::string(v > 0 ? "inf" : "-inf");
            return fmt::format("{}", v);
        };
        return fmt::format("{}{}, {}{}", lo_open ? "(" : "[", num(lo), num(hi),
                           hi_open ? ")" : "]");
    }
};
constexpr double inf = std::numeric_limits<double>::infinity();
Range positive(double hi = inf) {
    return {0, hi, true, hi == inf};
}
Range closed(double lo, double hi) {
    return {lo, hi};
}

// Reads one JSON object, remembering which keys were used; finish() refuses the rest.
class ObjectReader {
  public:
    ObjectReader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
        if (!j.is_object()) throw SceneError(path_or_root(), "expected an object, got " + shown(j));
    }

    std::string child(const std::string& key) const {
        return path_.empty() ? key : path_ + "." + key;
    }

    bool has(const std::string& key) {
        known_.insert(key);
        return j_.contains(key);
    }

    const json& get(const std::string& key) {
        known_.insert(key);
        return j_.at(key);
    }

    void require(const std::string& key, const std::string& what) {
        if (!has(key)) throw SceneError(child(key), "missing; expected " + what);
    }

    double number(const std::string& key, double def, Range range) {
        if (!has(key)) return def;
        return number_value(get(key), child(key), range);
    }

    int integer(const std::string& key, int def, Range range) {
        if (!has(key)) return def;
        const json& v = get(key);
        if (!v.is_number_integer() &&
            !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
            throw SceneError(child(key),
                             "expected an integer in " + range.text() + ", got " + shown(v));
        const double d = v.get<double>();
        if (!range.contains(d))
            throw SceneError(child(key),
                             "expected an integer in " + range.text() + ", got " + shown(v));
        return static_cast<int>(d);
    }

    bool boolean(const std::string& key, bool def) {
        if (!has(key)) return def;
        const json& v = get(key);
        if (!v.is_boolean())
            throw SceneError(child(key), "expected true or false, got " + shown(v));
        return v.get<bool>();
    }

    std::string string(const std::string& key, const std::string& def) {
        if (!has(key)) return def;
        const json& v = get(key);
        if (!v.is_string()) throw SceneError(child(key), "expected a string, got " + shown(v));
        return v.get<std::string>();
    }

    std::string choice(const std::string& key, const std::string& def,
                       const std::vector<std::string>& choices) {
        const std::string v = string(key, def);
        if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
            std::string list;
            for (const auto& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
            throw SceneError(child(key), "expected one of " + list + ", got \"" + v + "\"");
        }
        return v;
    }

    // A vector of `dim` numbers; 2D scenes give two components.
    Vec3d vector(const std::string& key, int dim, Vec3d def, Range range = closed(-inf, inf)) {
        if (!has(key)) return def;
        return vector_value(get(key), child(key), dim, range);
    }

    void finish() const {
        for (auto it = j_.begin(); it != j_.end(); ++it) {
            if (known_.count(it.key())) continue;
            std::string best;
            std::size_t best_d = 4;
            for (const auto& k : known_) {
                const std::size_t d = edit_distance(it.key(), k);
                if (d < best_d) best_d = d, best = k;
            }
            std::string valid;
            for (const auto& k : known_) valid += (valid.empty() ? "" : ", ") + k;
            throw SceneError(child(it.key()),
                             "unknown key" +
                                 (best.empty() ? "" : " (did you mean \"" + best + "\"?)") +
                                 "; valid keys here: " + valid);
        }
    }

    static double number_value(const json& v, const std::string& path, Range range) {
        if (!v.is_number())
            throw SceneError(path, "expected a number in " + range.text() + ", got " + shown(v));
        const double d = v.get<double>();
        if (!std::isfinite(d) || !range.contains(d))
            throw SceneError(path, "expected a number in " + range.text() + ", got " + v.dump());
        return d;
    }

    static Vec3d vector_value(const json& v, const std::string& path, int dim, Range range) {
        if (!v.is_array() || v.size() != std::size_t(dim))
            throw SceneError(
                path, fmt::format("expected an array of {} numbers (the scene is {}D), got {}", dim,
                                  dim, shown(v)));
        Vec3d out{0, 0, 0};
        for (int a = 0; a < dim; ++a)
            out[a] = number_value(v[a], fmt::format("{}[{}]", path, a), range);
        return out;
    }

  private:
    std::string path_or_root() const { return path_.empty() ? "(top level)" : path_; }
    const json& j_;
    std::string path_;
    std::set<std::string> known_;
};

void check_box(const Vec3d& lo, const Vec3d& hi, int dim, const std::string& path) {
    for (int a = 0; a < dim; ++a)
        if (!(hi[a] > lo[a]))
            throw SceneError(path,
                             fmt::format("max must be greater than min on axis {} (min {}, max {})",
                                         "xyz"[a], lo[a], hi[a]));
}

}  // namespace

Scene parse_scene(const json& doc, const std::string& name) {
    Scene s;
    ObjectReader top(doc, "");
    s.name = top.string("name", name);
    top.string("description", "");
    s.dimension = top.integer("dimension", 3, closed(2, 3));
    const int dim = s.dimension;
    s.particle_radius = top.number("particle_radius", s.particle_radius, positive(10.0));
    s.kernel =
        top.choice("kernel", "cubic_spline", {"cubic_spline", "poly6_spiky"}) == "poly6_spiky"
            ? KernelType::poly6_spiky
            : KernelType::cubic_spline;
    s.support_factor = top.number("support_factor", s.support_factor, closed(3.0, 8.0));
    s.rest_density = top.number("rest_density", s.rest_density, positive(1.0e5));
    s.gravity = top.vector("gravity", dim, Vec3d{0, -9.81, 0}, closed(-1000, 1000));

    top.require("container", "an object with \"min\" and \"max\"");
    {
        ObjectReader c(top.get("container"), "container");
        c.require("min", fmt::format("an array of {} numbers (m)", dim));
        c.require("max", fmt::format("an array of {} numbers (m)", dim));
        s.container_min = c.vector("min", dim, {});
        s.container_max = c.vector("max", dim, {});
        c.finish();
        check_box(s.container_min, s.container_max, dim, "container");
        for (int a = 0; a < dim; ++a)
            if (s.container_max[a] - s.container_min[a] < 4.0 * s.particle_radius)
                throw SceneError("container",
                                 fmt::format("the container is narrower than two particle "
                                             "diameters on axis {}",
                                             "xyz"[a]));
    }

    top.require("fluid", "an array of fluid blocks");
    {
        const json& arr = top.get("fluid");
        if (!arr.is_array() || arr.empty())
            throw SceneError("fluid",
                             "expected a non-empty array of fluid blocks, got " + shown(arr));
        for (std::size_t i = 0; i < arr.size(); ++i) {
            const std::string path = fmt::format("fluid[{}]", i);
            ObjectReader b(arr[i], path);
            FluidBlock blk;
            b.require("min", fmt::format("an array of {} numbers (m)", dim));
            b.require("max", fmt::format("an array of {} numbers (m)", dim));
            blk.min = b.vector("min", dim, {});
            blk.max = b.vector("max", dim, {});
            blk.velocity = b.vector("velocity", dim, {0, 0, 0}, closed(-1000, 1000));
            b.finish();
            check_box(blk.min, blk.max, dim, path);
            for (int a = 0; a < dim; ++a) {
                if (blk.min[a] < s.container_min[a] - 1e-9 ||
                    blk.max[a] > s.container_max[a] + 1e-9)
                    throw SceneError(
                        path, fmt::format("the block is outside the container on axis {} "
                                          "(block [{}, {}], container [{}, {}])",
                                          "xyz"[a], blk.min[a], blk.max[a], s.container_min[a],
                                          s.container_max[a]));
                if (blk.max[a] - blk.min[a] < 2.0 * s.particle_radius * (1 - 1e-6))
                    throw SceneError(path, fmt::format("the block is thinner than one particle "
                                                       "diameter ({} m) on axis {}",
                                                       2.0 * s.particle_radius, "xyz"[a]));
            }
            s.fluid.push_back(blk);
        }
    }

    if (top.has("obstacles")) {
        const json& arr = top.get("obstacles");
        if (!arr.is_array())
            throw SceneError("obstacles", "expected an array of boxes, got " + shown(arr));
        for (std::size_t i = 0; i < arr.size(); ++i) {
            const std::string path = fmt::format("obstacles[{}]", i);
            ObjectReader b(arr[i], path);
            Obstacle o;
            b.require("min", fmt::format("an array of {} numbers (m)", dim));
            b.require("max", fmt::format("an array of {} numbers (m)", dim));
            o.min = b.vector("min", dim, {});
            o.max = b.vector("max", dim, {});
            b.finish();
            check_box(o.min, o.max, dim, path);
            for (int a = 0; a < dim; ++a) {
                if (o.min[a] < s.container_min[a] - 1e-9 || o.max[a] > s.container_max[a] + 1e-9)
                    throw SceneError(path, fmt::format("the obstacle is outside the container on "
                                                       "axis {} (obstacle [{}, {}], container "
                                                       "[{}, {}])",
                                                       "xyz"[a], o.min[a], o.max[a],
                                                       s.container_min[a], s.container_max[a]));
                if (o.max[a] - o.min[a] < 2.0 * s.particle_radius * (1 - 1e-6))
                    throw SceneError(path, fmt::format("the obstacle is thinner than one particle "
                                                       "diameter ({} m) on axis {}",
                                                       2.0 * s.particle_radius, "xyz"[a]));
            }
            for (std::size_t j = 0; j < s.fluid.size(); ++j) {
                bool overlap = true;
                for (int a = 0; a < dim; ++a)
                    overlap = overlap && o.min[a] < s.fluid[j].max[a] - 1e-9 &&
                              s.fluid[j].min[a] < o.max[a] - 1e-9;
                if (overlap)
                    throw SceneError(path, fmt::format("the obstacle overlaps fluid[{}]; fluid "
                                                       "cannot start inside a solid",
                                                       j));
            }
            s.obstacles.push_back(o);
        }
    }

    if (top.has("solver")) {
        ObjectReader sv(top.get("solver"), "solver");
        const std::string type = sv.choice("type", "pbf", {"pbf", "wcsph", "ddr"});
        s.solver.type = type == "wcsph" ? SolverType::wcsph
                        : type == "ddr" ? SolverType::ddr
                                        : SolverType::pbf;
        if (sv.has("pbf")) {
            ObjectReader p(sv.get("pbf"), "solver.pbf");
            PbfParams& q = s.solver.pbf;
            q.max_iterations = p.integer("max_iterations", q.max_iterations, closed(1, 1000));
            q.min_iterations = p.integer("min_iterations", q.min_iterations, closed(1, 1000));
            if (q.min_iterations > q.max_iterations)
                throw SceneError("solver.pbf.min_iterations",
                                 fmt::format("must not exceed max_iterations ({}), got {}",
                                             q.max_iterations, q.min_iterations));
            q.density_tolerance =
                p.number("density_tolerance", q.density_tolerance, {0, 1, true, true});
            q.relaxation = p.number("relaxation", q.relaxation, closed(0, 10));
            q.unilateral = p.boolean("unilateral", q.unilateral);
            q.tensile_correction = p.boolean("tensile_correction", q.tensile_correction);
            q.s_corr_k = p.number("s_corr_k", q.s_corr_k, closed(0, 1));
            q.s_corr_n = p.number("s_corr_n", q.s_corr_n, closed(1, 8));
            q.s_corr_dq = p.number("s_corr_dq", q.s_corr_dq, {0, 1, true, true});
            p.finish();
        }
        if (sv.has("wcsph")) {
            ObjectReader w(sv.get("wcsph"), "solver.wcsph");
            WcsphParams& q = s.solver.wcsph;
            q.speed_of_sound = w.number("speed_of_sound", q.speed_of_sound, closed(0, 1e5));
            q.eos = w.choice("equation_of_state", "tait", {"tait", "linear"}) == "linear"
                        ? WcsphParams::Eos::linear
                        : WcsphParams::Eos::tait;
            q.gamma = w.number("gamma", q.gamma, closed(1, 10));
            q.clamp_pressure = w.boolean("clamp_pressure", q.clamp_pressure);
            q.viscosity = w.number("viscosity", q.viscosity, closed(0, 10));
            w.finish();
        }
        if (sv.has("ddr")) {
            ObjectReader d(sv.get("ddr"), "solver.ddr");
            DdrParams& q = s.solver.ddr;
            q.speed_of_sound = d.number("speed_of_sound", q.speed_of_sound, closed(0, 1e5));
            q.near_stiffness = d.number("near_stiffness", q.near_stiffness, closed(0, 10));
            q.cohesion = d.number("cohesion", q.cohesion, closed(0, 1));
            q.linear_viscosity = d.number("linear_viscosity", q.linear_viscosity, closed(0, 1e6));
            q.quadratic_viscosity =
                d.number("quadratic_viscosity", q.quadratic_viscosity, closed(0, 1e6));
            d.finish();
        }
        s.solver.xsph = sv.number("xsph", default_xsph(s.solver.type), closed(0, 1));
        s.solver.vorticity = sv.number("vorticity", s.solver.vorticity, closed(0, 1000));
        s.solver.max_speed = sv.number("max_speed", s.solver.max_speed, closed(0, 1e6));
        sv.finish();
    }

    if (s.solver.xsph < 0) s.solver.xsph = default_xsph(s.solver.type);

    if (top.has("time")) {
        ObjectReader t(top.get("time"), "time");
        TimeParams& q = s.time;
        q.end_time = t.number("end_time", q.end_time, positive(1e6));
        q.frame_rate = t.number("frame_rate", q.frame_rate, positive(1e4));
        q.mode = t.choice("dt_mode", "cfl", {"cfl", "fixed"}) == "fixed" ? TimeParams::Mode::fixed
                                                                         : TimeParams::Mode::cfl;
        q.dt = t.number("dt", q.dt, positive(1.0));
        q.cfl = t.number("cfl", q.cfl, {0, 1, true, false});
        q.max_dt = t.number("max_dt", q.max_dt, positive(1.0));
        q.min_dt = t.number("min_dt", q.min_dt, positive(1.0));
        if (q.min_dt > q.max_dt)
            throw SceneError("time.min_dt", fmt::format("must not exceed time.max_dt ({}), got {}",
                                                        q.max_dt, q.min_dt));
        t.finish();
    }

    if (top.has("output")) {
        ObjectReader o(top.get("output"), "output");
        s.output.directory = o.string("directory", "");
        s.output.vtk = o.boolean("vtk", true);
        s.output.ply = o.boolean("ply", true);
        s.output.stats = o.boolean("stats", true);
        s.output.mesh = o.boolean("mesh", false);
        s.output.mesh_obj = o.boolean("mesh_obj", true);
        s.output.mesh_ply = o.boolean("mesh_ply", true);
        s.output.mesh_vtk = o.boolean("mesh_vtk", true);
        s.output.render = o.boolean("render", false);
        s.output.preview = o.boolean("preview", true);
        o.finish();
    }
    if (s.output.directory.empty()) s.output.directory = "out/" + s.name;

    if (top.has("surface")) {
        ObjectReader m(top.get("surface"), "surface");
        SurfaceParams& q = s.surface;
        q.cell_size = m.number("cell_size", q.cell_size, {0.1, 8.0});
        q.iso = m.number("iso", q.iso, {0.0, 1.0, true, true});
        q.smoothing_radius = m.number("smoothing_radius", q.smoothing_radius, {2.0, 16.0});
        q.smoothing_iterations =
            m.integer("smoothing_iterations", q.smoothing_iterations, {0, 100});
        q.narrow_band = m.boolean("narrow_band", q.narrow_band);
        m.finish();
    }
    if (top.has("render")) {
        ObjectReader r(top.get("render"), "render");
        RenderParams& q = s.render;
        q.width = r.integer("width", q.width, {64, 8192});
        q.height = r.integer("height", q.height, {64, 8192});
        q.color_by = r.choice("color_by", "speed", {"speed", "density"}) == "density"
                         ? RenderParams::Color::density
                         : RenderParams::Color::speed;
        if (r.has("range")) {
            const Vec3d range =
                ObjectReader::vector_value(r.get("range"), "render.range", 2, closed(0, 1e9));
            if (!(range[1] > range[0]))
                throw SceneError("render.range",
                                 fmt::format("expected [low, high] with low < high, got [{}, {}]",
                                             range[0], range[1]));
            q.range_min = range[0];
            q.range_max = range[1];
        }
        if (r.has("camera")) {
            ObjectReader c(r.get("camera"), "render.camera");
            if (dim != 3)
                throw SceneError(
                    "render.camera",
                    "a camera is for 3D scenes; 2D pictures always show the container");
            c.require("position", "[x, y, z] in m");
            c.require("target", "[x, y, z] in m");
            q.camera_auto = false;
            q.camera_position = c.vector("position", 3, q.camera_position);
            q.camera_target = c.vector("target", 3, q.camera_target);
            const double dx = q.camera_target[0] - q.camera_position[0],
                         dy = q.camera_target[1] - q.camera_position[1],
                         dz = q.camera_target[2] - q.camera_position[2];
            if (dx * dx + dy * dy + dz * dz < 1e-12)
                throw SceneError("render.camera.target", "must differ from the position");
            if (dx * dx + dz * dz < 1e-6 * (dx * dx + dy * dy + dz * dz))
                throw SceneError("render.camera.target",
                                 "the camera looks straight up or down; tilt it a little");
            q.fov = c.number("fov", q.fov, {1, 170, true, true});
            c.finish();
        }
        q.supersample = r.integer("supersample", q.supersample, {1, 4});
        r.finish();
    }
    top.finish();

    // Impossible sizes: refuse before allocating anything.
    const std::size_t n = count_fluid_particles(s);
    if (n > 200'000'000)
        throw SceneError("fluid",
                         fmt::format("{} particles is more than this build supports (2e8)", n));
    // Two wall layers at spacing d over the container's surface.
    const double d = 2.0 * s.particle_radius;
    const double ex = s.container_max[0] - s.container_min[0],
                 ey = s.container_max[1] - s.container_min[1];
    const double ez = dim == 3 ? s.container_max[2] - s.container_min[2] : 0.0;
    const double wall_particles =
        dim == 3 ? 4.0 * (ex * ey + ey * ez + ex * ez) / (d * d) : 4.0 * (ex + ey) / d;
    if (wall_particles > 2.0e8)
        throw SceneError("container",
                         fmt::format("the container needs about {:.3g} boundary particles "
                                     "at particle_radius {} m; make it smaller or the "
                                     "particles larger",
                                     wall_particles, s.particle_radius));
    return s;
}

namespace {

// Splits "a.b[2].c" into steps: keys and indices.
struct PathStep {
    std::string key;
    long index = -1;
};

std::vector<PathStep> split_path(const std::string& path) {
    std::vector<PathStep> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        std::size_t j = i;
        while (j < path.size() && path[j] != '.' && path[j] != '[') ++j;
        if (j == i) throw SceneError(path, "malformed key in --set (expected a.b.c or a[0].b)");
        steps.push_back({path.substr(i, j - i)});
        while (j < path.size() && path[j] == '[') {
            const std::size_t close = path.find(']', j);
            if (close == std::string::npos) throw SceneError(path, "missing ']' in --set key");
            try {
                steps.push_back({"", std::stol(path.substr(j + 1, close - j - 1))});
            } catch (const std::exception&) {
                throw SceneError(path, "array index in --set key must be a number");
            }
            j = close + 1;
        }
        if (j < path.size() && path[j] == '.') ++j;
        i = j;
    }
    if (steps.empty()) throw SceneError(path, "empty key in --set");
    return steps;
}

}  // namespace

void apply_override(json& doc, const std::string& assignment) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw SceneError("", "--set expects key=value, got \"" + assignment + "\"");
    const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded()) value = text;  // a bare word: a string

    json* node = &doc;
    std::string where;
    for (const PathStep& st : split_path(key)) {
        if (st.index >= 0) {
            where += "[" + std::to_string(st.index) + "]";
            if (!node->is_array() || std::size_t(st.index) >= node->size())
                throw SceneError(where, "--set: no such array element");
            node = &(*node)[std::size_t(st.index)];
        } else {
            where += (where.empty() ? "" : ".") + st.key;
            if (node->is_null()) *node = json::object();
            if (!node->is_object()) throw SceneError(where, "--set: the parent is not an object");
            node = &(*node)[st.key];
        }
    }
    *node = value;
}

Scene load_scene(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
    std::ifstream in(file);
    if (!in) throw SceneError("", "cannot read scene file " + file.string());
    std::stringstream buf;
    buf << in.rdbuf();
    json doc;
    try {
        doc = json::parse(buf.str());
    } catch (const json::parse_error& e) {
        throw SceneError("", file.string() + " is not valid JSON: " + e.what());
    }
    for (const auto& o : overrides) apply_override(doc, o);
    return parse_scene(doc, file.stem().string());
}

json scene_to_json(const Scene& s) {
    const int dim = s.dimension;
    auto vec = [&](const Vec3d& v) {
        json a = json::array();
        for (int k = 0; k < dim; ++k) a.push_back(v[k]);
        return a;
    };
    json j;
    j["name"] = s.name;
    j["dimension"] = dim;
    j["particle_radius"] = s.particle_radius;
    j["kernel"] = std::string(kernel_name(s.kernel));
    j["support_factor"] = s.support_factor;
    j["rest_density"] = s.rest_density;
    j["gravity"] = vec(s.gravity);
    j["container"] = {{"min", vec(s.container_min)}, {"max", vec(s.container_max)}};
    j["fluid"] = json::array();
    for (const auto& b : s.fluid)
        j["fluid"].push_back(
            {{"min", vec(b.min)}, {"max", vec(b.max)}, {"velocity", vec(b.velocity)}});
    if (!s.obstacles.empty()) {
        j["obstacles"] = json::array();
        for (const auto& o : s.obstacles)
            j["obstacles"].push_back({{"min", vec(o.min)}, {"max", vec(o.max)}});
    }
    const PbfParams& p = s.solver.pbf;
    const WcsphParams& w = s.solver.wcsph;
    const DdrParams& d = s.solver.ddr;
    j["solver"] = {{"type", std::string(solver_name(s.solver.type))},
                   {"pbf",
                    {{"max_iterations", p.max_iterations},
                     {"min_iterations", p.min_iterations},
                     {"density_tolerance", p.density_tolerance},
                     {"relaxation", p.relaxation},
                     {"unilateral", p.unilateral},
                     {"tensile_correction", p.tensile_correction},
                     {"s_corr_k", p.s_corr_k},
                     {"s_corr_n", p.s_corr_n},
                     {"s_corr_dq", p.s_corr_dq}}},
                   {"wcsph",
                    {{"speed_of_sound", w.speed_of_sound},
                     {"equation_of_state", w.eos == WcsphParams::Eos::linear ? "linear" : "tait"},
                     {"gamma", w.gamma},
                     {"clamp_pressure", w.clamp_pressure},
                     {"viscosity", w.viscosity}}},
                   {"ddr",
                    {{"speed_of_sound", d.speed_of_sound},
                     {"near_stiffness", d.near_stiffness},
                     {"cohesion", d.cohesion},
                     {"linear_viscosity", d.linear_viscosity},
                     {"quadratic_viscosity", d.quadratic_viscosity}}},
                   {"xsph", s.solver.xsph},
                   {"vorticity", s.solver.vorticity},
                   {"max_speed", s.solver.max_speed}};
    const TimeParams& t = s.time;
    j["time"] = {{"end_time", t.end_time},
                 {"frame_rate", t.frame_rate},
                 {"dt_mode", t.mode == TimeParams::Mode::fixed ? "fixed" : "cfl"},
                 {"dt", t.dt},
                 {"cfl", t.cfl},
                 {"max_dt", t.max_dt},
                 {"min_dt", t.min_dt}};
    j["output"] = {{"directory", s.output.directory},
                   {"vtk", s.output.vtk},
                   {"ply", s.output.ply},
                   {"stats", s.output.stats},
                   {"mesh", s.output.mesh},
                   {"mesh_obj", s.output.mesh_obj},
                   {"mesh_ply", s.output.mesh_ply},
                   {"mesh_vtk", s.output.mesh_vtk},
                   {"render", s.output.render},
                   {"preview", s.output.preview}};
    j["surface"] = {{"cell_size", s.surface.cell_size},
                    {"iso", s.surface.iso},
                    {"smoothing_radius", s.surface.smoothing_radius},
                    {"smoothing_iterations", s.surface.smoothing_iterations},
                    {"narrow_band", s.surface.narrow_band}};
    const RenderParams& r = s.render;
    j["render"] = {{"width", r.width},
                   {"height", r.height},
                   {"color_by", r.color_by == RenderParams::Color::density ? "density" : "speed"},
                   {"supersample", r.supersample}};
    if (r.range_max > r.range_min) j["render"]["range"] = {r.range_min, r.range_max};
    if (!r.camera_auto)
        j["render"]["camera"] = {
            {"position", r.camera_position}, {"target", r.camera_target}, {"fov", r.fov}};
    return j;
}

}  // namespace seiche::io
