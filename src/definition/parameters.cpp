// The world's parameter table and the checks of a definition (validate). Ranges are written here
// and nowhere else: the loader, the schema and the docs read them from these declarations.
#include "seiche/parameters.hpp"
#include "seiche/laminar_viscosity.hpp"

#include "seiche/bodies.hpp"
#include "seiche/emitters.hpp"
#include "seiche/force_list.hpp"
#include "seiche/kernels.hpp"
#include "seiche/mesh_sdf.hpp"
#include "seiche/sph.hpp"

#include "problem_text.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <variant>

namespace seiche {

using problem_text::axis_name;
using problem_text::format;
using problem_text::num;

std::vector<std::string> key_parts(std::string_view key) {
    std::vector<std::string> parts;
    std::size_t i = 0;
    while (true) {
        const std::size_t dot = key.find('.', i);
        parts.emplace_back(key.substr(i, dot == std::string_view::npos ? dot : dot - i));
        if (dot == std::string_view::npos) return parts;
        i = dot + 1;
    }
}

bool Range::contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
}

std::string Range::text() const {
    return std::string(lo_open ? "(" : "[") + num(lo) + ", " + num(hi) + (hi_open ? ")" : "]");
}

Range closed(double lo, double hi) {
    return {lo, hi, false, false};
}
Range positive(double hi) {
    return {0, hi, true, std::isinf(hi)};
}
Range open(double lo, double hi) {
    return {lo, hi, true, true};
}
Range half_open(double lo, double hi) {
    return {lo, hi, false, true};
}

namespace {

// The names of the list's solvers: solver.type's choices, in the enum's order.
std::vector<std::string_view> solver_choices() {
    std::vector<std::string_view> names;
    for (const SolverTraits& t : all_solver_traits) names.push_back(t.name);
    return names;
}

}  // namespace

std::span<const Param<WorldDef>> world_params() {
    using W = WorldDef;
    static const std::vector<Param<W>> head = {
        integer_param<W, &W::dimension>("dimension", "", closed(2, 3), "2 or 3"),
        number_param<W, &W::particle_radius>(
            "particle_radius", "m", positive(10),
            "r; particles are seeded on a lattice of spacing 2r"),
        choice_param<W, &W::kernel>("kernel", {"cubic_spline", "poly6_spiky", "wendland_c2"},
                                    "SPH kernel; poly6_spiky uses poly6 for W and spiky for ∇W, "
                                    "as the PBF paper; wendland_c2 is for wider supports "
                                    "(support_factor 5), where a drop's surface tension acts as "
                                    "one (docs/solvers.md)"),
        number_param<W, &W::support_factor>(
            "support_factor", "", closed(3, 5),
            "support radius h = factor · r (4 means two spacings). At most 4.5 with the cubic "
            "spline and poly6: the walls are sampled for h near 2d, and beyond 4.5 r they "
            "over-count a wall particle's density by 6–12%, which PBF's Jacobi iterations turn "
            "into a blow-up at the first step; up to 5 with wendland_c2"),
        number_param<W, &W::rest_density>("rest_density", "kg/m³", closed(1e-3, 1e5),
                                          "ρ0"),
        with_default_note(
            number_param<W, &W::particle_mass>(
                "particle_mass", "kg", closed(0, 1e30),
                "mass of a fluid particle (2D: per metre of depth); 0 = seiche's, which makes the "
                "fluid blocks' lattice exactly ρ0. Otherwise 0.5–1.1 times that: less starts the "
                "blocks loose, as SPlisHSPlasH does (0.8·(2r)³·ρ0)"),
            "0 (seiche's)"),
        // Gravity restarts the solver: the automatic speed of sound follows it.
        restarts_solver(vector_param<W, &W::gravity>(
            "gravity", "m/s²", closed(-1000, 1000),
            "acceleration of gravity; y is up in the shipped scenes")),
        required(vector_param<W, &W::container_min>(
            "container.min", "m", closed(-1e6, 1e6),
            "the inside of the closed container: lower corner")),
        required(vector_param<W, &W::container_max>(
            "container.max", "m", closed(-1e6, 1e6),
            "upper corner; at least two particle diameters from min on every axis")),
        // The walls' adhesion is weighed afresh every step.
        live(number_param<W, &W::container_adhesion>(
            "container.adhesion", "", closed(0, 1000),
            "adhesion β of the walls (Akinci et al. 2013 eq. 6): how the fluid clings to them; "
            "0 = off (docs/solvers.md)")),

        restarts_solver(choice_param<W, &W::solver, &SolverParams::type>(
            "solver.type", solver_choices(),
            "the solver (docs/solvers.md); `--solver` overrides it")),
    };
    static const std::vector<Param<W>> after_forces = {
        live(with_default_note(
            number_param<W, &W::solver, &SolverParams::max_speed>(
                "solver.max_speed", "m/s", closed(0, 1e6),
                "the stability guard stops the run when a particle is faster; 0 = 10 × (free-fall "
                "speed over the container's largest extent + the largest initial speed)"),
            "0 (automatic)")),

    };
    static const std::vector<Param<W>> time = {
        number_param<W, &W::time, &TimeParams::end_time>("time.end_time", "s", positive(1e6),
                                                         "simulated time at which a run ends"),
        number_param<W, &W::time, &TimeParams::frame_rate>(
            "time.frame_rate", "1/s", positive(1e4),
            "frames per simulated second; frame 0 is the initial state"),
        choice_param<W, &W::time, &TimeParams::mode>(
            "time.dt_mode", {"cfl", "fixed"},
            "cfl: the step follows the CFL bound; fixed: always time.dt"),
        number_param<W, &W::time, &TimeParams::dt>(
            "time.dt", "s", closed(1e-7, 1),
            "the step in fixed mode (at least 0.1 µs: times are added up in float)"),
        number_param<W, &W::time, &TimeParams::cfl>(
            "time.cfl", "", {0, 1, true, false},
            "dt = cfl · 2r / (v_max + |g|·max_dt) in CFL mode (+ c for WCSPH and DDR); with surface "
            "tension or adhesion at most cfl · 2r / √((130 γ + 7 β) h), β the largest adhesion"),
        with_default_note(
            number_param<W, &W::time, &TimeParams::max_dt>(
                "time.max_dt", "s", closed(0, 1),
                "upper bound in CFL mode; 0 = the solver's (2 ms; DFSPH, whose divergence-free "
                "velocities allow longer steps, 5 ms and at most 0.07·√(2r/|g|)), and at most "
                "k·2r/√(|g|·H), H the fluid's extent along g, k 0.5 for PBF and DFSPH "
                "(deep water: docs/solvers.md); a value here replaces both"),
            "0 (the solver's)"),
        number_param<W, &W::time, &TimeParams::min_dt>("time.min_dt", "s", closed(1e-9, 1),
                                                       "lower bound in CFL mode; at most max_dt"),
        with_default_note(
            integer_param<W, &W::time, &TimeParams::target_iterations>(
                "time.target_iterations", "", closed(0, 100000),
                "CFL mode: the step follows the solve, 10% shorter after a step stopped at its "
                "cap or while the last two steps' iterations average more than this, 10% longer "
                "while they average less than half of it, from a twentieth of the CFL bound to "
                "the bound; a solve in deep water at rest then meets its tolerance "
                "(docs/solvers.md); 0 = off"),
            "0 (off)"),
    };
    // The shared keys with the forces' (in the force list's order), each solver's block (declared with its code) in the list's order, time.
    static const std::vector<Param<W>> table = [] {
        std::vector<Param<W>> t = head;
#define SEICHE_FORCE_KEYS(id, Class) \
    for (const auto& p : Class<3>::keys()) t.push_back(p);
        SEICHE_FORCES(SEICHE_FORCE_KEYS)
#undef SEICHE_FORCE_KEYS
        t.insert(t.end(), after_forces.begin(), after_forces.end());
        // A solver's own keys restart it (its constants derive from them); time.* is live.
#define SEICHE_SOLVER_KEYS(id, Class, Params) \
    for (const auto& p : Params::keys()) t.push_back(restarts_solver(p));
        SEICHE_SOLVERS(SEICHE_SOLVER_KEYS)
#undef SEICHE_SOLVER_KEYS
        for (const auto& p : time) t.push_back(live(p));
        return t;
    }();
    return table;
}

std::span<const Param<FluidBlock>> fluid_block_params() {
    using B = FluidBlock;
    static const std::vector<Param<B>> table = {
        required(vector_param<B, &B::min>(
            "min", "m", closed(-1e6, 1e6),
            "lower corner of a box inside the container, at least one particle diameter thick")),
        required(vector_param<B, &B::max>("max", "m", closed(-1e6, 1e6), "upper corner")),
        vector_param<B, &B::velocity>("velocity", "m/s", closed(-1000, 1000), "initial velocity"),
        boolean_param<B, &B::rest_gap>(
            "rest_gap",
            "true: the rows next to a wall the block rests on (the container's, or an obstacle's "
            "or a body's face) start where the walls read the bulk's density, about 0.03 particle "
            "diameters farther out than half a diameter (DDR: half a diameter, where its walls "
            "read rho0), so a column released at once gets no push from its walls; not along an "
            "axis where the block fills the room between two walls or touches another block. "
            "false: the lattice fills the block from half a diameter in, where the walls read "
            "1.2-1.6% above the bulk"),
    };
    return table;
}

std::span<const Param<Obstacle>> obstacle_params() {
    using O = Obstacle;
    static const std::vector<Param<O>> table = {
        required(vector_param<O, &O::min>("min", "m", closed(-1e6, 1e6),
                                          "lower corner of a solid box inside the container; it "
                                          "may touch the walls but not overlap a fluid block")),
        required(vector_param<O, &O::max>(
            "max", "m", closed(-1e6, 1e6),
            "upper corner; at least one particle diameter thick on every axis")),
        number_param<O, &O::adhesion>("adhesion", "", closed(0, 1000),
                                      "adhesion β (Akinci et al. 2013 eq. 6) of its faces; 0 = off"),
    };
    return table;
}

std::span<const Param<BodyDef>> body_params() {
    using B = BodyDef;
    static const std::vector<Param<B>> table = {
        text_param<B, &B::name>("name", "names the body in bodies.csv: unique, without commas, "
                                        "quotes or control characters; default body_N, N its index"),
        choice_param<B, &B::shape>("shape", {"box", "sphere", "cylinder", "circle", "mesh", "polygon"},
                                   "3D: box, sphere, cylinder or mesh; 2D: box, circle or polygon"),
        vector_param<B, &B::size>("size", "m", closed(0, 1e6),
                                  "box: its full extents along its own axes"),
        number_param<B, &B::radius>("radius", "m", closed(0, 1e6), "sphere, circle, cylinder"),
        number_param<B, &B::height>("height", "m", closed(0, 1e6),
                                    "cylinder: its length along its own y axis"),
        points_param<B, &B::vertices>("vertices", "m", closed(-1e6, 1e6),
                                      "polygon (2D): its corners in order (either way round), 3 "
                                      "to 2,000, edges not crossing; the shape is moved so that its "
                                      "centroid is at position"),
        text_param<B, &B::mesh_file>("mesh", "mesh: a closed triangle mesh, OBJ or STL, in m, "
                                             "its path relative to the scene file; placed by "
                                             "position and rotation (a dynamic one is first "
                                             "moved so that its centre of mass is at position)"),
        boolean_param<B, &B::inside>("inside", "mesh: the fluid lives inside the closed mesh (a "
                                               "tank, a bottle) instead of outside it; static or "
                                               "kinematic, within the container box"),
        required(vector_param<B, &B::position>("position", "m", closed(-1e6, 1e6),
                                               "the centre of the shape and of its mass")),
        vector_param<B, &B::rotation>(
            "rotation", "rad", closed(-1e3, 1e3),
            "orientation: turned about the world's x axis, then y, then z (Blender's XYZ Euler); "
            "2D: z only",
            3),
        choice_param<B, &B::motion>("motion", {"static", "kinematic", "dynamic"},
                                    "static: fixed; kinematic: moves with the given velocities; "
                                    "dynamic: moves under gravity, the fluid and contacts"),
        vector_param<B, &B::velocity>("velocity", "m/s", closed(-1000, 1000),
                                      "kinematic: the prescribed velocity; dynamic: the initial one"),
        vector_param<B, &B::angular_velocity>(
            "angular_velocity", "rad/s", closed(-1e4, 1e4),
            "about the world axes through position (kinematic: prescribed; dynamic: initial); "
            "2D: z only",
            3),
        number_param<B, &B::motion_start>("motion_start", "s", closed(0, 1e9),
                                          "kinematic: the time it starts to move"),
        with_automatic(number_param<B, &B::motion_stop>("motion_stop", "s", closed(0, 1e9),
                                                        "kinematic: the time it stops"),
                       -1, "-1: never"),
        with_rows(text_param<B, &B::keyframe_file>(
                      "keyframes",
                      "kinematic: poses over time, [time, x, y, z, rx, ry, rz] (s, m, rad) each: "
                      "a CSV file of such lines relative to the scene file, or the list itself; "
                      "positions interpolated linearly, rotations by quaternion slerp; held "
                      "before the first and after the last"),
                  7),
        number_param<B, &B::density>("density", "kg/m³", closed(0, 1e6),
                                     "dynamic bodies: mass = density × volume (2D: per metre of "
                                     "depth); required and positive for them"),
        number_param<B, &B::friction>("friction", "", closed(0, 10),
                                      "Coulomb friction of its contacts with walls and bodies"),
        number_param<B, &B::adhesion>("adhesion", "", closed(0, 1000),
                                      "adhesion β (Akinci et al. 2013 eq. 6): how the fluid clings "
                                      "to it; 0 = off"),
    };
    return table;
}

const ParamList<WorldDef, BodyDef>& body_list() {
    static const ParamList<WorldDef, BodyDef> list{
        "bodies", "bodies", "rigid bodies: static, kinematic or dynamic (docs/bodies.md)", 0,
        &body_params, [](WorldDef& w) -> std::vector<BodyDef>& { return w.bodies; },
        [](const WorldDef& w) -> const std::vector<BodyDef>& { return w.bodies; }};
    return list;
}

std::span<const Param<Emitter>> emitter_params() {
    using E = Emitter;
    static const std::vector<Param<E>> table = {
        choice_param<E, &E::shape>("shape", {"rectangle", "circle"},
                                   "the opening: a rectangle (2D: a slot) or a circle (3D)"),
        required(vector_param<E, &E::position>("position", "m", closed(-1e6, 1e6),
                                               "centre of the opening, inside the container")),
        vector_param<E, &E::direction>("direction", "", closed(-1e6, 1e6),
                                       "the way the fluid leaves (any length but zero)"),
        number_param<E, &E::width>("width", "m", closed(0, 1e6),
                                   "rectangle: across the opening (2D: its length)"),
        with_automatic(number_param<E, &E::height>("height", "m", closed(0, 1e6),
                                                   "rectangle, 3D: its other side"),
                       0, "0: the width"),
        number_param<E, &E::radius>("radius", "m", closed(0, 1e6), "circle"),
        number_param<E, &E::speed>("speed", "m/s", positive(1000), "of the fluid leaving it"),
        number_param<E, &E::start>("start", "s", closed(0, 1e9), "when it opens"),
        with_automatic(number_param<E, &E::stop>("stop", "s", closed(0, 1e9), "when it closes"),
                       -1, "-1: never"),
    };
    return table;
}

const ParamList<WorldDef, Emitter>& emitter_list() {
    static const ParamList<WorldDef, Emitter> list{
        "emitters", "emitters", "nozzles that add fluid during the run (docs/bodies.md)", 0,
        &emitter_params, [](WorldDef& w) -> std::vector<Emitter>& { return w.emitters; },
        [](const WorldDef& w) -> const std::vector<Emitter>& { return w.emitters; }};
    return list;
}

std::span<const Param<Sink>> sink_params() {
    using K = Sink;
    static const std::vector<Param<K>> table = {
        required(vector_param<K, &K::min>("min", "m", closed(-1e6, 1e6),
                                          "lower corner of a box where fluid is removed")),
        required(vector_param<K, &K::max>("max", "m", closed(-1e6, 1e6), "upper corner")),
    };
    return table;
}

const ParamList<WorldDef, Sink>& sink_list() {
    static const ParamList<WorldDef, Sink> list{
        "sinks", "sinks", "boxes where fluid leaves the simulation", 0, &sink_params,
        [](WorldDef& w) -> std::vector<Sink>& { return w.sinks; },
        [](const WorldDef& w) -> const std::vector<Sink>& { return w.sinks; }};
    return list;
}

const ParamList<WorldDef, FluidBlock>& fluid_list() {
    static const ParamList<WorldDef, FluidBlock> list{
        "fluid", "fluid blocks", "boxes of fluid, seeded on a lattice of spacing 2r", 1, &fluid_block_params,
        [](WorldDef& w) -> std::vector<FluidBlock>& { return w.fluid; },
        [](const WorldDef& w) -> const std::vector<FluidBlock>& { return w.fluid; }};
    return list;
}

const ParamList<WorldDef, Obstacle>& obstacle_list() {
    static const ParamList<WorldDef, Obstacle> list{
        "obstacles", "boxes", "solid boxes inside the container", 0, &obstacle_params,
        [](WorldDef& w) -> std::vector<Obstacle>& { return w.obstacles; },
        [](const WorldDef& w) -> const std::vector<Obstacle>& { return w.obstacles; }};
    return list;
}

std::string check_param_value(ParamKind kind, const Range& range, double automatic,
                              std::size_t choices, int components, const ParamValue& v,
                              int dimension) {
    switch (kind) {
        case ParamKind::number: {
            const double d = std::get<double>(v);
            if (d == automatic) return "";
            if (!std::isfinite(d) || !range.contains(d))
                return "expected a number in " + range.text() + ", got " + num(d);
            return "";
        }
        case ParamKind::integer: {
            const double d = std::get<double>(v);
            if (!range.contains(d))
                return "expected an integer in " + range.text() + ", got " + num(d);
            return "";
        }
        case ParamKind::choice: {
            const double d = std::get<double>(v);
            if (d < 0 || d >= double(choices))
                return "not one of the choices (enum value " + num(d) + ")";
            return "";
        }
        case ParamKind::vector: {
            const Vec3d a = std::get<Vec3d>(v);
            const int n = components > 0 ? components : dimension;
            for (int k = 0; k < n; ++k)
                if (!std::isfinite(a[k]) || !range.contains(a[k]))
                    return format("component %d: expected a number in %s, got %s", k,
                                  range.text().c_str(), num(a[k]).c_str());
            return "";
        }
        case ParamKind::points: {
            const auto& pts = std::get<std::vector<Vec3d>>(v);
            const int n = components > 0 ? components : dimension;
            for (std::size_t j = 0; j < pts.size(); ++j)
                for (int k = 0; k < n; ++k)
                    if (!std::isfinite(pts[j][k]) || !range.contains(pts[j][k]))
                        return format("point %zu, component %d: expected a number in %s, got %s", j, k,
                                      range.text().c_str(), num(pts[j][k]).c_str());
            return "";
        }
        case ParamKind::boolean:
        case ParamKind::text:
            return "";
    }
    return "";
}


namespace {

// Two wall layers at spacing d over the container's surface, plus the obstacles' faces.
double boundary_particle_estimate(const WorldDef& w) {
    const double d = 2.0 * w.particle_radius;
    auto surface = [&](const Vec3d& lo, const Vec3d& hi) {
        const double ex = hi[0] - lo[0], ey = hi[1] - lo[1];
        if (w.dimension == 2) return 2.0 * (ex + ey) / d;
        const double ez = hi[2] - lo[2];
        return 2.0 * (ex * ey + ey * ez + ex * ez) / (d * d);
    };
    double n = 2.0 * surface(w.container_min, w.container_max);
    for (const Obstacle& o : w.obstacles) n += 2.0 * surface(o.min, o.max);
    for (const BodyDef& b : w.bodies) {
        const double r = b.radius, pi = 3.14159265358979;
        switch (b.shape) {
            case BodyShape::box: n += 2.0 * surface({0, 0, 0}, b.size); break;
            case BodyShape::circle: n += 2.0 * 2.0 * pi * r / d; break;
            case BodyShape::sphere: n += 2.0 * 4.0 * pi * r * r / (d * d); break;
            case BodyShape::cylinder: n += 2.0 * 2.0 * pi * r * (r + b.height) / (d * d); break;
            case BodyShape::mesh:
                if (b.mesh) {
                    const Box<3> mb = mesh_bounds(*b.mesh);
                    n += 2.0 * surface({mb.min.x, mb.min.y, mb.min.z}, {mb.max.x, mb.max.y, mb.max.z});
                }
                break;
            case BodyShape::polygon:
                for (std::size_t k = 0; k < b.vertices.size(); ++k) {
                    const Vec3d& p = b.vertices[k];
                    const Vec3d& q = b.vertices[(k + 1) % b.vertices.size()];
                    n += 2.0 * std::hypot(q[0] - p[0], q[1] - p[1]) / d;
                }
                break;
        }
    }
    return n;
}

bool box_problem(const Vec3d& lo, const Vec3d& hi, int dim, const std::string& path,
                 std::vector<Problem>& out) {
    for (int a = 0; a < dim; ++a)
        if (!(hi[a] > lo[a])) {
            out.push_back({path, format("max must be greater than min on axis %c (min %s, max %s)",
                                        axis_name[a], num(lo[a]).c_str(), num(hi[a]).c_str())});
            return true;
        }
    return false;
}

// A box (fluid block or obstacle) inside the container and at least one diameter thick.
void placed_box_problems(const Vec3d& lo, const Vec3d& hi, const WorldDef& w, const char* what,
                         const std::string& path, std::vector<Problem>& out) {
    if (box_problem(lo, hi, w.dimension, path, out)) return;
    for (int a = 0; a < w.dimension; ++a) {
        if (lo[a] < w.container_min[a] - 1e-9 || hi[a] > w.container_max[a] + 1e-9) {
            out.push_back({path, format("the %s is outside the container on axis %c (%s [%s, %s], "
                                        "container [%s, %s])",
                                        what, axis_name[a], what, num(lo[a]).c_str(),
                                        num(hi[a]).c_str(), num(w.container_min[a]).c_str(),
                                        num(w.container_max[a]).c_str())});
            return;
        }
        if (hi[a] - lo[a] < 2.0 * w.particle_radius * (1 - 1e-6)) {
            out.push_back({path, format("the %s is thinner than one particle diameter (%s m) on "
                                        "axis %c",
                                        what, num(2.0 * w.particle_radius).c_str(), axis_name[a])});
            return;
        }
    }
}

// An emitter: an opening of the dimension, at least one site, every site inside the container.
template <int D>
void emitter_problems(const Emitter& e, const WorldDef& w, const std::string& path,
                      std::vector<Problem>& out) {
    const double d = 2.0 * w.particle_radius;
    if (D == 2 && e.shape == EmitterShape::circle) {
        out.push_back({path + ".shape", "2D emitters are slots: give rectangle and width"});
        return;
    }
    double dir2 = 0;
    for (int a = 0; a < D; ++a) dir2 += e.direction[a] * e.direction[a];
    if (!(dir2 > 0)) {
        out.push_back({path + ".direction", "must not be zero"});
        return;
    }
    if (e.shape == EmitterShape::rectangle && e.width < d * (1 - 1e-6)) {
        out.push_back({path + ".width", format("expected at least one particle diameter (%s m), got %s",
                                               num(d).c_str(), num(e.width).c_str())});
        return;
    }
    if (e.shape == EmitterShape::circle && e.radius < 0.5 * d * (1 - 1e-6)) {
        out.push_back({path + ".radius", format("expected at least one particle radius (%s m), got %s",
                                                num(0.5 * d).c_str(), num(e.radius).c_str())});
        return;
    }
    if (e.stop >= 0 && e.stop < e.start) {
        out.push_back({path + ".stop", format("must not be before start (%s s), got %s",
                                              num(e.start).c_str(), num(e.stop).c_str())});
        return;
    }
    if (const double sites = emitter_site_count(e, D, float(d)); sites > max_emitter_sites) {
        out.push_back({path, format("the opening holds %s particle sites, at most %s (%s m "
                                    "particles; a narrower opening, or larger particles)",
                                    num(sites).c_str(), num(max_emitter_sites).c_str(),
                                    num(d).c_str())});
        return;
    }
    const std::vector<Vec<D>> sites = emitter_sites<D>(e, float(d)).x;
    for (const Vec<D>& x : sites)
        for (int a = 0; a < D; ++a)
            if (x[a] < w.container_min[a] + 0.5 * d * (1 - 1e-4) ||
                x[a] > w.container_max[a] - 0.5 * d * (1 - 1e-4)) {
                out.push_back({path, format("the emitter is outside the container on axis %c (a "
                                            "site at %s, the fluid may be in [%s, %s])",
                                            axis_name[a], num(x[a]).c_str(),
                                            num(w.container_min[a] + 0.5 * d).c_str(),
                                            num(w.container_max[a] - 0.5 * d).c_str())});
                return;
            }
    // No site inside a body's solid (or, for a tank that holds the fluid, outside it): fluid
    // emitted there is thrown out of the solid in its first steps. Checked once the bodies are
    // valid; only sites within a body's bounds are measured.
    if (!out.empty()) return;
    for (std::size_t k = 0; k < w.bodies.size(); ++k) {
        const BoundaryObject<D> o = body_object<D>(w.bodies[k], k);
        const Box<D> box = solid_bounds(o);
        for (const Vec<D>& x : sites) {
            bool near = true;
            for (int a = 0; a < D; ++a) near = near && box.min[a] <= x[a] && x[a] <= box.max[a];
            if ((near || o.fluid_inside) && o.signed_distance(x) < 0) {
                std::string at = "(";
                for (int a = 0; a < D; ++a) at += (a ? ", " : "") + num(std::round(x[a] * 1e4) / 1e4);
                out.push_back({path, format("a site at %s) is %s bodies[%zu]; fluid cannot be "
                                            "emitted into a solid",
                                            at.c_str(), o.fluid_inside ? "outside the tank of" : "inside",
                                            k)});
                return;
            }
        }
    }
}

double physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

}  // namespace

int particles_along(double lo, double hi, double spacing) {
    // The slack absorbs float rounding of the spacing: 0.146 m / 0.00292f must give 50, not 49.
    return std::max(0, static_cast<int>(std::floor((hi - lo) / spacing + 1.0e-4)));
}

std::size_t count_fluid_particles(const WorldDef& def) {
    const double d = 2.0 * def.particle_radius;
    std::size_t total = 0;
    for (const auto& b : def.fluid) {
        std::size_t n = 1;
        for (int a = 0; a < def.dimension; ++a) n *= particles_along(b.min[a], b.max[a], d);
        total += n;
    }
    return total;
}

double estimated_bytes(const WorldDef& def) {
    // Measured at 1M particles (docs/performance-history.md): 292 B per fluid particle with everything the
    // step holds; a boundary particle keeps its position, volume and grid entry. Emitters add up
    // to rate × open time (sinks may remove some; not counted).
    double fluid = double(count_fluid_particles(def));
    for (const Emitter& e : def.emitters) {
        const double stop = e.stop >= 0 ? std::min(e.stop, def.time.end_time) : def.time.end_time;
        const float d = float(2.0 * def.particle_radius);
        const double rate = def.dimension == 2 ? emitter_rate<2>(e, d) : emitter_rate<3>(e, d);
        fluid += rate * std::max(0.0, stop - e.start);
    }
    return 300.0 * fluid + 24.0 * boundary_particle_estimate(def);
}

std::vector<Problem> validate(const WorldDef& w) {
    std::vector<Problem> out;
    const int dim = w.dimension == 2 ? 2 : 3;
    for (const auto& p : world_params())
        if (std::string m = check_value(p, w, dim); !m.empty()) out.push_back({std::string(p.key), m});
    if (!out.empty()) return out;  // the checks below assume every value in its range

    if (w.support_factor > 4.5 && w.kernel != KernelType::wendland_c2)
        out.push_back({"support_factor",
                       format("must be at most 4.5 with the %s kernel (beyond, its walls over-count "
                              "a wall particle's density; wendland_c2 takes up to 5), got %s",
                              std::string(kernel_name(w.kernel)).c_str(),
                              num(w.support_factor).c_str())});
    const PbfParams& pbf = w.solver.pbf;
    if (pbf.min_iterations > pbf.max_iterations)
        out.push_back({"solver.pbf.min_iterations",
                       format("must not exceed max_iterations (%d), got %d", pbf.max_iterations,
                              pbf.min_iterations)});
    if (w.particle_mass > 0) {
        const double m = lattice_particle_mass(w);
        if (!(w.particle_mass >= 0.5 * m && w.particle_mass <= 1.1 * m))
            out.push_back({"particle_mass",
                           format("must be 0 (seiche's: %.6g %s) or 0.5–1.1 times that (a heavier "
                                  "start is compressed past what the solvers resolve), got %s",
                                  m, dim == 2 ? "kg/m" : "kg", num(w.particle_mass).c_str())});
    }
    // A solve takes more than its min_iterations a step (DFSPH: one of its divergence solve too):
    // a target that low would shorten the step to its floor for nothing.
    if (const int t = w.time.target_iterations; t > 0) {
        const std::string key = "solver." + std::string(solver_name(w.solver.type)) +
                                ".min_iterations";
        int least = 4;
        for (const auto& p : world_params())
            if (p.key == key) least = std::max(least, int(std::get<double>(p.get(w))) + 1);
        if (t < least)
            out.push_back({"time.target_iterations",
                           format("must be 0 (off) or at least %d (4, and more than %s: a step "
                                  "takes at least that many), got %d",
                                  least, key.c_str(), t)});
    }
    if (w.time.max_dt > 0 && w.time.max_dt < 1e-7)
        out.push_back({"time.max_dt", format("must be 0 (the solver's) or at least 1e-07 s (times "
                                             "are added up in float), got %s",
                                             num(w.time.max_dt).c_str())});
    else if (w.time.min_dt > max_dt(w))
        out.push_back({"time.min_dt", format("must not exceed time.max_dt (%s), got %s",
                                             num(max_dt(w)).c_str(), num(w.time.min_dt).c_str())});

    // The log law needs the fluid's ν (its y⁺); without it the walls are free-slip.
    if (w.solver.wall_function && !(w.solver.kinematic_viscosity > 0))
        out.push_back({"solver.wall_function",
                       "needs solver.kinematic_viscosity > 0 (the log law's ν; water: 1e-6 "
                       "m²/s), got true with an inviscid fluid (ν = 0)"});
    // The fluid's viscous pairs are explicit: a step longer than 0.125 (2r)²/ν amplifies them.
    if (const double bound = viscous_step_bound(w.solver.kinematic_viscosity, w.particle_radius);
        w.time.mode == TimeParams::Mode::fixed && w.time.dt > bound)
        out.push_back({"time.dt", format("must be at most 0.125 (2r)²/ν = %s s with "
                                         "solver.kinematic_viscosity %s (the viscous term is "
                                         "explicit), got %s",
                                         num(bound).c_str(), num(w.solver.kinematic_viscosity).c_str(),
                                         num(w.time.dt).c_str())});
    else if (w.time.mode == TimeParams::Mode::cfl && w.time.min_dt > bound)
        out.push_back({"time.min_dt", format("must be at most 0.125 (2r)²/ν = %s s with "
                                             "solver.kinematic_viscosity %s (the viscous term is "
                                             "explicit), got %s",
                                             num(bound).c_str(),
                                             num(w.solver.kinematic_viscosity).c_str(),
                                             num(w.time.min_dt).c_str())});

    if (!box_problem(w.container_min, w.container_max, dim, "container", out))
        for (int a = 0; a < dim; ++a)
            if (w.container_max[a] - w.container_min[a] < 4.0 * w.particle_radius) {
                out.push_back({"container", format("the container is narrower than two particle "
                                                   "diameters on axis %c",
                                                   axis_name[a])});
                break;
            }

    if (w.fluid.size() < fluid_list().min_count)
        out.push_back({"fluid", "expected a non-empty array of fluid blocks, got an empty one"});
    // Each element's keys against its table; then, when they are all fine, the checks between
    // keys (more(element, index, path)).
    const auto each = [&](const auto& items, std::string_view key, auto params, auto&& more) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string path = std::string(key) + "[" + std::to_string(i) + "]";
            const std::size_t before = out.size();
            for (const auto& p : params())
                if (std::string m = check_value(p, items[i], dim); !m.empty())
                    out.push_back({path + "." + std::string(p.key), m});
            if (out.size() == before) more(items[i], i, path);
        }
    };
    each(w.fluid, "fluid", fluid_block_params, [&](const FluidBlock& b, std::size_t, const std::string& path) {
        placed_box_problems(b.min, b.max, w, "block", path, out);
    });
    // Two blocks sharing space would put two particles on one lattice site.
    for (std::size_t i = 0; i < w.fluid.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            bool overlap = true;
            for (int a = 0; a < dim; ++a)
                overlap = overlap && w.fluid[i].min[a] < w.fluid[j].max[a] - 1e-9 &&
                          w.fluid[j].min[a] < w.fluid[i].max[a] - 1e-9;
            if (overlap) {
                out.push_back({"fluid[" + std::to_string(i) + "]",
                               format("the block overlaps fluid[%zu]; blocks may touch but not "
                                      "share space",
                                      j)});
                break;
            }
        }
    each(w.obstacles, "obstacles", obstacle_params, [&](const Obstacle& o, std::size_t, const std::string& path) {
        const std::size_t before = out.size();
        placed_box_problems(o.min, o.max, w, "obstacle", path, out);
        if (out.size() != before) return;
        for (std::size_t j = 0; j < w.fluid.size(); ++j) {
            bool overlap = true;
            for (int a = 0; a < dim; ++a)
                overlap = overlap && o.min[a] < w.fluid[j].max[a] - 1e-9 &&
                          w.fluid[j].min[a] < o.max[a] - 1e-9;
            if (overlap) {
                out.push_back({path, format("the obstacle overlaps fluid[%zu]; fluid cannot start "
                                            "inside a solid",
                                            j)});
                break;
            }
        }
    });
    each(w.bodies, "bodies", body_params, [&](const BodyDef& b, std::size_t i, const std::string& path) {
        if (dim == 2)
            body_problems<2>(b, i, w, path, out);
        else
            body_problems<3>(b, i, w, path, out);
    });
    each(w.emitters, "emitters", emitter_params, [&](const Emitter& e, std::size_t, const std::string& path) {
        if (dim == 2)
            emitter_problems<2>(e, w, path, out);
        else
            emitter_problems<3>(e, w, path, out);
    });
    each(w.sinks, "sinks", sink_params, [&](const Sink& k, std::size_t, const std::string& path) {
        box_problem(k.min, k.max, dim, path, out);
    });
    if (!out.empty()) return out;

    // Impossible sizes: refused before anything is allocated.
    const std::size_t n = count_fluid_particles(w);
    if (n > 200'000'000)
        out.push_back({"fluid", format("%zu particles is more than this build supports (2e8)", n)});
    const double walls = boundary_particle_estimate(w);
    if (walls > 2.0e8)
        out.push_back({"container", format("the container needs about %.3g boundary particles at "
                                           "particle_radius %s m; make it smaller or the particles "
                                           "larger",
                                           walls, num(w.particle_radius).c_str())});
    const double bytes = estimated_bytes(w), ram = physical_memory_bytes();
    if (out.empty() && ram > 0 && bytes > 0.9 * ram)
        out.push_back({"particle_radius",
                       format("%zu fluid particles and about %.3g boundary particles need about "
                              "%.1f GiB, more than this machine's %.1f GiB; make the particles "
                              "larger",
                              n, walls, bytes / (1 << 30), ram / (1 << 30))});
    return out;
}

namespace {
std::string join(const std::vector<Problem>& problems) {
    std::string s;
    for (const Problem& p : problems) s += (s.empty() ? "" : "\n") + p.path + ": " + p.message;
    return s;
}
}  // namespace

DefinitionError::DefinitionError(std::vector<Problem> problems)
    : std::invalid_argument(join(problems)), problems_(std::move(problems)) {}

double lattice_particle_mass(const WorldDef& def) {
    const float d = float(2.0 * def.particle_radius), h = float(def.support_factor * def.particle_radius);
    const auto mass = [&](auto dim) {
        constexpr int D = decltype(dim)::value;
        return std::visit([&](const auto& k) { return float(def.rest_density) / lattice_sums<D>(k, d).w; },
                          make_kernel<D>(def.kernel, h));
    };
    return def.dimension == 2 ? mass(std::integral_constant<int, 2>{})
                              : mass(std::integral_constant<int, 3>{});
}

double fluid_particle_mass(const WorldDef& def) {
    return def.particle_mass > 0 ? def.particle_mass : lattice_particle_mass(def);
}

double max_dt(const WorldDef& def) {
    if (def.time.max_dt > 0) return def.time.max_dt;
    const SolverTraits& t = solver_traits(def.solver.type);
    const double g = std::sqrt(def.gravity[0] * def.gravity[0] + def.gravity[1] * def.gravity[1] +
                               def.gravity[2] * def.gravity[2]);
    if (t.max_dt_gravity > 0 && g > 0)
        return std::min(t.default_max_dt,
                        t.max_dt_gravity * std::sqrt(2.0 * def.particle_radius / g));
    return t.default_max_dt;
}

}  // namespace seiche
