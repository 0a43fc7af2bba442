// A world: the fluid particles seeded from a WorldDef, the boundary objects and their particles
// (Akinci et al. 2012 volumes), and the solver. step() hands the solver a StepContext, whose
// stages are in stages.cpp; the time driver is in time_driver.cpp, the live setters in
// live_changes.cpp.
#include "seiche/world.hpp"
#include "seiche/laminar_viscosity.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <variant>

#include <glm/gtc/quaternion.hpp>

#include "bodies/rigid_dynamics.hpp"
#include "seiche/bodies.hpp"
#include "seiche/exact_sum.hpp"
#include "seiche/parallel.hpp"
#include "seiche/surface_tension.hpp"

namespace seiche {

namespace {

template <int D>
Vec3d to_vec3d(const Vec<D>& v) {
    Vec3d a{0, 0, 0};
    for (int k = 0; k < D; ++k) a[k] = v[k];
    return a;
}


}  // namespace

double fit_step(double dt, double remaining) {
    if (remaining <= dt * (1.0 + 1e-9)) return remaining;
    // The fewest steps of at most dt that reach the target (the 1e-9: a crumb of rounding in
    // `remaining` must not cost a step), all equal; dt itself when they are too many to count
    // (a target 1e300 s ahead made n infinite and the step 0).
    const double n = std::ceil(remaining / dt - 1e-9);
    return n < 1e15 ? remaining / n : dt;
}

namespace {
const WorldDef& checked(const WorldDef& def, int dimension) {
    std::vector<Problem> problems = validate(def);
    if (problems.empty() && def.dimension != dimension)
        problems.push_back({"dimension", "the definition is " + std::to_string(def.dimension) +
                                             "D, the world " + std::to_string(dimension) + "D"});
    if (!problems.empty()) throw DefinitionError(std::move(problems));
    return def;
}
}  // namespace

namespace {

// The largest adhesion β over the container, the obstacles and the bodies.
double largest_adhesion(const WorldDef& def) {
    double beta = def.container_adhesion;
    for (const Obstacle& o : def.obstacles) beta = std::max(beta, o.adhesion);
    for (const BodyDef& b : def.bodies) beta = std::max(beta, b.adhesion);
    return beta;
}

// The speed the surface forces give (0 without them): they drive the fluid without gravity,
// about √(a·h) from the largest acceleration they give. Cohesion's was measured as 130·γ m/s² at
// the corner of a cube of fluid (PBF, r = 5 and 2.5 mm alike): a drop pulled round reaches a few
// tenths of that. Adhesion's is at most adhesion_acceleration_per_beta·β. A particle at a drop's
// edge on a wall feels both at once, so they add.
double surface_force_speed(const WorldDef& def) {
    const double h = def.support_factor * def.particle_radius;
    return std::sqrt((130.0 * def.solver.surface_tension + adhesion_acceleration_per_beta *
                      largest_adhesion(def)) * h);
}

float max_initial_speed(const WorldDef& def) {
    float v = static_cast<float>(surface_force_speed(def));
    for (const Emitter& e : def.emitters) v = std::max(v, float(e.speed));
    for (const auto& blk : def.fluid) {
        double v2 = 0;
        for (int a = 0; a < def.dimension; ++a) v2 += blk.velocity[a] * blk.velocity[a];
        v = std::max(v, static_cast<float>(std::sqrt(v2)));
    }
    return v;
}

// Speed of sound for the explicit solvers: ten times the largest speed expected, the free-fall
// speed over the fluid's height (Becker & Teschner 2007, sec. 4; Monaghan 1994).
template <int D>
float sound_speed_for(const WorldDef& def) {
    // The solver's own speed_of_sound key, when its block has one (0: automatic).
    const double c_wanted = def.solver.visit_block([](const auto& block) -> double {
        if constexpr (requires { block.speed_of_sound; })
            return block.speed_of_sound;
        else
            return 0.0;
    });
    if (c_wanted > 0) return static_cast<float>(c_wanted);
    const Vec<D> g = to_vec<D>(def.gravity);
    float fluid_height = 0.0f;
    const Vec<D> down = glm::length(g) > 0 ? glm::normalize(g) : Vec<D>(0.0f);
    for (const auto& blk : def.fluid) {
        float hgt = 0.0f;
        for (int a = 0; a < D; ++a) hgt += std::abs(down[a]) * float(blk.max[a] - blk.min[a]);
        fluid_height = std::max(fluid_height, hgt);
    }
    const float v_expected =
        std::max({std::sqrt(2.0f * glm::length(g) * fluid_height), max_initial_speed(def), 0.1f});
    return 10.0f * v_expected;
}

template <int D>
FluidConstants<D> fluid_constants(const WorldDef& def) {
    const float d = static_cast<float>(2.0 * def.particle_radius);
    const float h = static_cast<float>(def.support_factor * def.particle_radius);
    const AnyKernel<D> kernel = make_kernel<D>(def.kernel, h);
    const float rho0 = static_cast<float>(def.rest_density);
    // By default the mass that makes a full rest lattice exactly ρ0 (within 0.1% of ρ0·d^D for the
    // cubic spline at h = 2d; poly6 over-counts by 1–1.5% there, and this removes that bias).
    const float mass = static_cast<float>(fluid_particle_mass(def));
    return {d, h, mass, rho0, sound_speed_for<D>(def), kernel, def.kernel};
}

// How far a block's lattice of n rows from `lo + d/2` moves along one axis so that its first
// row keeps gap_lo from the wall at wall_lo and its last gap_hi from the one at wall_hi: the
// least move that does it, none when both cannot be kept, and never more than `most`, so a
// block away from the walls, or one placed on purpose, stays where it is.
double rest_gap_shift(double lo, int n, double d, double wall_lo, double gap_lo, double wall_hi,
                      double gap_hi, double most) {
    const double first = lo + 0.5 * d, last = lo + (n - 0.5) * d;
    const double up = wall_lo + gap_lo - first, down = wall_hi - gap_hi - last;  // [up, down]
    if (up > down) return 0.0;  // no room for both
    return std::clamp(up > 0 ? up : down < 0 ? down : 0.0, -most, most);
}

// Each fluid block's lattice of spacing d, in creation order: visit(x, v) for every particle.
// With fluid[i].rest_gap, rows next to the container's walls or a solid's face start `gap` from
// them, where they read the bulk's density.
template <int D, class Visit>
void for_each_seeded(const WorldDef& def, float d, float gap, std::span<const Box<D>> solids,
                     Visit&& visit) {
    for (const auto& blk : def.fluid) {
        std::array<int, D> n;
        std::array<double, D> origin;
        for (int a = 0; a < D; ++a) {
            n[a] = particles_along(blk.min[a], blk.max[a], d);
            origin[a] = blk.min[a];
            if (!blk.rest_gap) continue;
            // The nearest wall on either side: the container's, or the face of an obstacle or a
            // body that the block rests on (or hangs under) across the other axes, kept `gap`
            // from; or the face of another fluid block, whose lattice it continues (d/2).
            double wall_lo = def.container_min[a], wall_hi = def.container_max[a];
            double gap_lo = gap, gap_hi = gap;
            const auto limit = [&](const Vec3d& o_min, const Vec3d& o_max, double face_gap) {
                for (int b = 0; b < D; ++b)
                    if (b != a && !(o_min[b] < blk.max[b] && o_max[b] > blk.min[b])) return;
                if (o_max[a] <= blk.min[a] + 0.5 * d && o_max[a] >= wall_lo)
                    wall_lo = o_max[a], gap_lo = face_gap;
                if (o_min[a] >= blk.max[a] - 0.5 * d && o_min[a] <= wall_hi)
                    wall_hi = o_min[a], gap_hi = face_gap;
            };
            for (const Box<D>& o : solids) {
                Vec3d o_min{}, o_max{};
                for (int b = 0; b < D; ++b) o_min[b] = o.min[b], o_max[b] = o.max[b];
                limit(o_min, o_max, gap);
            }
            for (const auto& other : def.fluid)
                if (&other != &blk) limit(other.min, other.max, 0.5 * d);
            origin[a] += rest_gap_shift(blk.min[a], n[a], d, wall_lo, gap_lo, wall_hi, gap_hi,
                                        std::abs(gap - 0.5 * d));
        }
        const Vec<D> v0 = to_vec<D>(blk.velocity);
        std::array<int, D> k{};
        bool empty = false;
        for (int a = 0; a < D; ++a) empty = empty || n[a] == 0;
        while (!empty) {
            Vec<D> x;
            for (int a = 0; a < D; ++a) x[a] = static_cast<float>(origin[a] + (k[a] + 0.5) * d);
            visit(x, v0);
            int a = 0;
            while (a < D && ++k[a] == n[a]) k[a++] = 0;
            if (a == D) break;
        }
    }
}

// How many particles for_each_seeded visits.
template <int D>
std::size_t seeded_count(const WorldDef& def, float d) {
    std::size_t total = 0;
    for (const auto& blk : def.fluid) {
        std::size_t n = 1;
        for (int a = 0; a < D; ++a) n *= std::size_t(particles_along(blk.min[a], blk.max[a], d));
        total += n;
    }
    return total;
}

// Fluid particles below which a split's plan sees every position; above, a sample of about as
// many (the split's balance within a few per cent; it is rebalanced as the run goes anyway).
constexpr std::size_t plan_sample = std::size_t(1) << 20;

// The fluid blocks seeded, ids in creation order. Split over processes: the domain planned
// from (a sample of) the positions, and only this process's own particles kept, with the ids
// they have in the whole scene, so no process ever holds the whole fluid.
template <int D>
ParticleSet<D> seed_fluid(const WorldDef& def, const FluidConstants<D>& fluid, Domain<D>* domain) {
    ParticleSet<D> p;
    const float d = fluid.spacing;
    // fluid[i].rest_gap: the gap, and the obstacles' and bodies' bounds (not those of a body
    // that holds the fluid inside it).
    float gap = 0.5f * d;
    std::vector<Box<D>> solids;
    if (std::any_of(def.fluid.begin(), def.fluid.end(), [](const auto& b) { return b.rest_gap; })) {
        if (!solver_traits(def.solver.type).walls_read_rest_at_half_spacing)
            gap = flat_wall_rest_gap<D>(fluid.kernel, d, fluid.mass / fluid.rest_density,
                                        WallSampling::for_kernel(def.kernel, d));
        for (const Obstacle& o : def.obstacles)
            solids.push_back({to_vec<D>(o.min), to_vec<D>(o.max)});
        for (std::size_t i = 0; i < def.bodies.size(); ++i) {
            const BoundaryObject<D> body = body_object<D>(def.bodies[i], i);
            if (!body.fluid_inside) solids.push_back(solid_bounds(body));
        }
    }
    if (domain) {
        const std::size_t total = seeded_count<D>(def, d);
        const std::size_t stride = std::max<std::size_t>(1, total / plan_sample);
        std::vector<Vec<D>> sample;
        sample.reserve(total / stride + 1);
        std::size_t i = 0;
        for_each_seeded<D>(def, d, gap, solids, [&](const Vec<D>& x, const Vec<D>&) {
            if (i++ % stride == 0) sample.push_back(x);
        });
        domain->plan(sample, double(stride), fluid.h);
    }
    std::uint32_t id = 0;
    for_each_seeded<D>(def, d, gap, solids, [&](const Vec<D>& x, const Vec<D>& v) {
        const std::uint32_t mine = id++;
        if (domain && !domain->owns(x)) return;
        p.x.push_back(x);
        p.v.push_back(v);
        p.id.push_back(mine);
    });
    const std::size_t n_fluid = p.x.size();
    std::vector<std::uint32_t> ids = std::move(p.id);
    p.resize(n_fluid);
    p.id = std::move(ids);
    p.x_prev = p.x;
    p.radius = static_cast<float>(def.particle_radius);
    p.mass = fluid.mass;
    std::fill(p.rho.begin(), p.rho.end(), fluid.rest_density);
    return p;
}

}  // namespace

double speed_of_sound(const WorldDef& def) {
    return def.dimension == 2 ? sound_speed_for<2>(def) : sound_speed_for<3>(def);
}

template <int D>
World<D>::World(const WorldDef& def) : World(def, nullptr) {}

template <int D>
World<D>::World(const WorldDef& def, std::shared_ptr<Domain<D>> domain)
    : def_(checked(def, D)),
      fluid_(fluid_constants<D>(def_)),
      gravity_(to_vec<D>(def_.gravity)),
      container_{to_vec<D>(def_.container_min), to_vec<D>(def_.container_max)},
      p_(seed_fluid<D>(def_, fluid_, domain.get())),
      solver_(make_solver<D>(def_.solver, fluid_, p_.size())),
      forces_(make_forces<D>(fluid_)) {
    solver_started();
    const WallSampling walls = WallSampling::for_kernel(def_.kernel, fluid_.spacing);
    b_ = sample_container<D>(container_, walls);
    BoundaryObject<D> box;
    box.name = "container";
    box.adhesion = float(def_.container_adhesion);
    box.fluid_inside = true;
    box.shape = container_;
    box.count = b_.x.size();
    objects_.push_back(box);
    for (std::size_t i = 0; i < def_.obstacles.size(); ++i) {
        const Obstacle& o = def_.obstacles[i];
        const Box<D> solid{to_vec<D>(o.min), to_vec<D>(o.max)};
        const Boundary<D> faces = sample_solid_box<D>(solid, walls);
        BoundaryObject<D> obj;
        obj.name = "obstacles[" + std::to_string(i) + "]";
        obj.adhesion = float(o.adhesion);
        obj.shape = solid;
        obj.first = b_.x.size();
        obj.count = faces.x.size();
        b_.x.insert(b_.x.end(), faces.x.begin(), faces.x.end());
        objects_.push_back(obj);
    }
    b_.local = b_.x;  // the container and the obstacles are at the identity pose
    add_bodies(walls);
    // Volumes over the fixed boundary particles together (a wall and an obstacle close to it
    // share); a moving body's over its own particles, in its frame, so they hold wherever it goes.
    {
        Boundary<D> fixed;
        std::vector<std::size_t> index;
        for (const auto& o : objects_) {
            if (o.moving) continue;
            for (std::size_t k = o.first; k < o.first + o.count; ++k) {
                fixed.x.push_back(b_.x[k]);
                index.push_back(k);
            }
        }
        fixed.volume.assign(fixed.x.size(), 0.0f);
        compute_boundary_volumes<D>(fixed, fluid_.kernel);
        b_.volume.assign(b_.x.size(), 0.0f);
        for (std::size_t j = 0; j < index.size(); ++j) b_.volume[index[j]] = fixed.volume[j];
        for (const auto& o : objects_) {
            if (!o.moving) continue;
            Boundary<D> own;
            own.x.assign(b_.local.begin() + std::ptrdiff_t(o.first),
                         b_.local.begin() + std::ptrdiff_t(o.first + o.count));
            own.volume.assign(own.x.size(), 0.0f);
            compute_boundary_volumes<D>(own, fluid_.kernel);
            std::copy(own.volume.begin(), own.volume.end(), b_.volume.begin() + std::ptrdiff_t(o.first));
        }
    }
    boundary_grid_.build(std::span<const Vec<D>>(b_.x.data(), first_moving_), fluid_.h);
    boundary_grid_.mark_neighbourhoods();
    boundary_grid_.release_build_scratch();
    v_scratch_.resize(p_.size());
    next_id_ = static_cast<std::uint32_t>(seeded_count<D>(def_, fluid_.spacing));
    for (const Emitter& e : def_.emitters) {
        emitter_sites_.push_back(emitter_sites<D>(e, fluid_.spacing));
        emitter_travel_.push_back(0.0);  // the first layer once a spacing of fluid has come out
    }
    derive_from_definition();
    domain_ = std::move(domain);
    if (domain_) domain_->appended(p_.size());  // seeded: this process's own share
    // The densities describe the positions from the start: frame 0 shows them, and a short PBF
    // step holds part of the error they measure (StepContext::leftover_share).
    refresh_density();
}


template <int D>
const ParticleSet<D>& World<D>::gather_particles() {
    if (!domain_) return p_;
    domain_->gather(p_, gathered_);
    return gathered_;
}

template <int D>
std::size_t World<D>::particle_count() const {
    if (!domain_) return p_.size();
    const auto halo = domain_->halo();
    std::array<std::int64_t, 1> n = {
        std::int64_t(p_.size() - std::size_t(std::count(halo.begin(), halo.end(), 1)))};
    domain_->sum(n);
    return std::size_t(n[0]);
}

// What follows from the definition and may change while the world runs (the live setters).
template <int D>
World<D>::~World() = default;
template <int D>
World<D>::World(World&&) noexcept = default;
template <int D>
World<D>& World<D>::operator=(World&&) noexcept = default;

// The bodies after the container and the obstacles: their particles sampled in their own frames
// and placed at their poses; the dynamic ones handed to the rigid-body dynamics.
template <int D>
void World<D>::add_bodies(const WallSampling& walls) {
    std::vector<float> density(objects_.size(), 0.0f), friction(objects_.size(), 0.5f);
    bool any_dynamic = false;
    std::vector<BoundaryObject<D>> bodies;
    std::vector<Boundary<D>> surfaces;
    for (std::size_t i = 0; i < def_.bodies.size(); ++i) {
        const BodyDef& def = def_.bodies[i];
        // A mesh's distance grid at half the particle spacing: collisions keep centres r off.
        bodies.push_back(seiche::body_object<D>(def, i, 0.5f * fluid_.spacing));
        BoundaryObject<D>& o = bodies.back();
        surfaces.push_back(sample_solid<D>(o, walls));
        any_dynamic = any_dynamic || o.motion == ObjectMotion::dynamic;
        if (o.motion == ObjectMotion::kinematic && def.motion_start > 0) {
            o.velocity = Vec<D>(0.0f);  // still until its motion starts
            o.angular_velocity = {};
        }
        density.push_back(float(def.density));
        friction.push_back(float(def.friction));
    }
    // The particles of fixed bodies first, then the moving ones': the boundary grid of the fixed
    // ones is built once, the moving ones' is small.
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) first_moving_ = b_.x.size();
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            BoundaryObject<D>& o = bodies[i];
            if (o.moving != (pass == 1)) continue;
            o.first = b_.x.size();
            o.count = surfaces[i].x.size();
            for (const Vec<D>& l : surfaces[i].x) {
                b_.local.push_back(l);
                b_.x.push_back(o.to_world(l));
            }
        }
    }
    for (auto& o : bodies) {
        boundary_moves_ = boundary_moves_ || o.moving;
        objects_.push_back(std::move(o));
    }
    if (any_dynamic) {
        dynamics_ = std::make_unique<RigidDynamics<D>>(objects_, density, friction, gravity_,
                                                       p_.radius);
        track_boundary_forces(true);
    }
}

// Each open emitter's fluid moves out at its speed; each time the last layer is one spacing out,
// a new layer goes in at the opening, placed where the fluid it stands for has got to since.
template <int D>
void World<D>::emit(double dt) {
    const float d = fluid_.spacing;
    const std::size_t before = p_.size();
    std::size_t emitted = 0;  // over all processes
    for (std::size_t k = 0; k < def_.emitters.size(); ++k) {
        const Emitter& e = def_.emitters[k];
        const double stop = e.stop < 0 ? 1e300 : e.stop;
        const double open = std::max(0.0, std::min(time_ + dt, stop) - std::max(time_, e.start));
        if (open <= 0) continue;
        emitter_travel_[k] += e.speed * open;
        const EmitterSites<D>& sites = emitter_sites_[k];
        const Vec<D> v = float(e.speed) * sites.direction;
        while (emitter_travel_[k] >= d) {
            emitter_travel_[k] -= d;
            const Vec<D> shift = float(emitter_travel_[k]) * sites.direction;
            // A site is free when no particle is within 0.75 d of it (fluid pooled at the
            // opening, or the last layer held back): the layer is emitted without it.
            Box<D> near{Vec<D>(1e30f), Vec<D>(-1e30f)};
            for (const Vec<D>& x : sites.x) {
                near.min = glm::min(near.min, x + shift - Vec<D>(d));
                near.max = glm::max(near.max, x + shift + Vec<D>(d));
            }
            std::vector<std::int64_t> taken(sites.x.size(), 0);
            const float r2 = 0.75f * d * 0.75f * d;
            for (std::size_t i = 0; i < p_.size(); ++i) {
                if (!near.contains(p_.x[i]) || !counts(i)) continue;
                for (std::size_t s = 0; s < sites.x.size(); ++s) {
                    const Vec<D> dx = p_.x[i] - (sites.x[s] + shift);
                    if (glm::dot(dx, dx) < r2) taken[s] = 1;
                }
            }
            // Split over processes: a site is taken when any process's particle takes it; every
            // process numbers the layer alike and keeps the particles in its own cells.
            if (domain_) domain_->sum(taken);
            for (std::size_t s = 0; s < sites.x.size(); ++s) {
                if (taken[s]) continue;
                const Vec<D> x = sites.x[s] + shift;
                ++emitted;
                const std::uint32_t id = next_id_++;
                if (domain_ && !domain_->owns(x)) continue;
                p_.push_back(x, v, fluid_.rest_density, id);
                if (domain_) domain_->appended(1);
            }
        }
    }
    total_emitted_ += emitted;
    if (p_.size() != before) particles_resized();
}

// Particles whose centre is in a sink leave; the others keep their order.
template <int D>
void World<D>::drain() {
    if (def_.sinks.empty()) return;
    std::vector<Box<D>> boxes;
    for (const Sink& k : def_.sinks) boxes.push_back({to_vec<D>(k.min), to_vec<D>(k.max)});
    std::size_t kept = 0;
    std::vector<std::uint32_t> order;  // split over processes: where each kept one was
    for (std::size_t i = 0; i < p_.size(); ++i) {
        bool in = false;
        for (const Box<D>& b : boxes) in = in || b.contains(p_.x[i]);
        // A halo copy stays (the next exchange drops it); its owner removes the particle.
        if (in && counts(i)) continue;
        if (kept != i) p_.move_particle(i, kept);
        if (domain_) order.push_back(std::uint32_t(i));
        ++kept;
    }
    std::array<std::int64_t, 1> removed = {std::int64_t(p_.size() - kept)};
    if (domain_) {
        domain_->reordered(order);
        domain_->sum(removed);
    }
    total_removed_ += std::size_t(removed[0]);
    if (kept == p_.size()) return;
    p_.resize(kept);
    particles_resized();
}

template <int D>
void World<D>::solver_started() {
    p_.carrying = solver_traits(def_.solver.type).carries_values;
    p_.carried.assign(p_.carrying ? p_.size() : 0, Float2{});
}

template <int D>
void World<D>::particles_resized() {
    std::visit([&](auto& solver) { solver.state.resize(p_.size()); }, solver_);
    v_scratch_.resize(p_.size());
}

template <int D>
float World<D>::body_mass(std::size_t body) const {
    if (body >= def_.bodies.size())
        throw std::out_of_range("body " + std::to_string(body) + " of " +
                                std::to_string(def_.bodies.size()));
    return dynamics_ ? dynamics_->mass(body_object(body)) : 0.0f;
}

// Kinematic bodies follow their prescribed velocities inside their motion windows; objects given
// a velocity through set_object_velocity translate with it.
template <int D>
void World<D>::move_kinematic_objects(double dt) {
    const std::size_t first_body = body_object(0);
    for (std::size_t o = 0; o < objects_.size(); ++o) {
        BoundaryObject<D>& obj = objects_[o];
        if (obj.motion == ObjectMotion::dynamic) continue;
        if (o >= first_body && obj.motion == ObjectMotion::kinematic &&
            def_.bodies[o - first_body].keyframes) {
            // Keyframes: the pose at the step's end; the velocities that take it there.
            const auto& keys = *def_.bodies[o - first_body].keyframes;
            Vec<D> p;
            Mat<D> r;
            keyframe_pose<D>(keys, time_ + dt, p, r);
            obj.velocity = (p - obj.position) / float(dt);
            const Mat<D> turn = r * glm::transpose(obj.rotation);  // this step's rotation
            if constexpr (D == 3) {
                const glm::quat q = glm::quat_cast(turn);
                const float angle = 2.0f * std::acos(std::clamp(q.w, -1.0f, 1.0f));
                const Vec<3> axis(q.x, q.y, q.z);
                obj.angular_velocity = glm::length(axis) > 0
                                           ? glm::normalize(axis) * (angle / float(dt))
                                           : Vec<3>(0.0f);
            } else {
                obj.angular_velocity = std::atan2(turn[0][1], turn[0][0]) / float(dt);
            }
            set_object_pose(o, p, r);
            continue;
        }
        if (o >= first_body && obj.motion == ObjectMotion::kinematic) {
            const BodyDef& b = def_.bodies[o - first_body];
            // The part of [t, t + dt] inside the window, so a start or stop between steps is exact.
            const double stop = b.motion_stop < 0 ? 1e300 : b.motion_stop;
            const double active = std::max(0.0, std::min(time_ + dt, stop) - std::max(time_, b.motion_start));
            const bool moving_now = time_ + dt > b.motion_start && time_ + dt <= stop;
            Vec<D> v(0.0f);
            Torque<D> w{};
            if (active > 0) {
                for (int a = 0; a < D; ++a) v[a] = float(b.velocity[a]);
                if constexpr (D == 3)
                    w = Vec<3>(float(b.angular_velocity[0]), float(b.angular_velocity[1]),
                               float(b.angular_velocity[2]));
                else
                    w = float(b.angular_velocity[2]);
            }
            obj.velocity = moving_now ? v : Vec<D>(0.0f);
            obj.angular_velocity = moving_now ? w : Torque<D>{};
            if (active <= 0) continue;
            set_object_pose(o, obj.position + float(active) * v,
                            rotation_step<D>(w, float(active)) * obj.rotation);
            continue;
        }
        if (obj.velocity != Vec<D>(0.0f))
            set_object_pose(o, obj.position + float(dt) * obj.velocity, obj.rotation);
    }
}

template <int D>
void World<D>::derive_from_definition() {
    gravity_ = to_vec<D>(def_.gravity);
    fluid_.speed_of_sound = sound_speed_for<D>(def_);
    max_speed_ = static_cast<float>(def_.solver.max_speed);
    if (max_speed_ <= 0.0f) {
        // Automatic: ten times the free-fall speed over the container's largest extent.
        const Vec<D> e = container_.extent();
        float extent = 0.0f;
        for (int a = 0; a < D; ++a) extent = std::max(extent, e[a]);
        const float fall = std::sqrt(2.0f * glm::length(gravity_) * extent);
        max_speed_ = std::max(1.0f, 10.0f * (fall + max_initial_speed(def_)));
    }
}

template <int D>
FluidView<D> World<D>::view() const {
    CollisionLog<D> log;
    if (track_forces_) log = CollisionLog<D>{collision_push_.data(), collision_object_.data()};
    // Split over processes, a step is not cut short: the processes would disagree on where.
    return {p_.x,      p_.mass,      fluid_.rest_density, fluid_nb_, b_.x,
            b_.volume, boundary_nb_, objects_,            p_.radius, log,
            domain_ ? nullptr : stop_, p_.x.capacity() > p_.x.size(), domain_.get()};
}

template <int D>
std::span<const float> World<D>::pressure() const {
    return solver_pressure<D>(solver_);
}

template <int D>
double World<D>::suggested_dt() const {
    const TimeParams& t = def_.time;
    if (t.mode == TimeParams::Mode::fixed) return t.dt;
    return viscous_bounded(flow_step());
}

template <int D>
double World<D>::viscous_bounded(double flow) const {
    // The fluid's viscous pairs are explicit (seiche/laminar_viscosity.hpp). flow is in
    // [min_dt, max_dt] already, so the result is too.
    const double dt = std::min(flow, viscous_step_bound(def_.solver.kinematic_viscosity,
                                                        def_.particle_radius));
    const double scale = def_.time.target_iterations > 0 ? step_scale_ : 1.0;
    return std::clamp(dt * scale, def_.time.min_dt, max_dt(def_));
}

template <int D>
double World<D>::flow_step() const {
    const TimeParams& t = def_.time;
    if (t.mode == TimeParams::Mode::fixed) return t.dt;
    return cfl_step();
}

template <int D>
double World<D>::cfl_step() const {
    const TimeParams& t = def_.time;
    const SolverTraits& traits = solver_traits(def_.solver.type);
    const double g = glm::length(gravity_);
    // The fluid's extent along g (max_dt_depth), from the highest to the lowest particle.
    const bool depth = traits.max_dt_depth > 0.0 && t.max_dt == 0.0 && g > 0.0;
    const Vec<D> down = depth ? gravity_ / float(g) : Vec<D>(0.0f);
    float vmax = 0.0f;  // max is order independent: the same for any thread count
    float top = -std::numeric_limits<float>::infinity(), bottom = top;  // bottom: −(lowest)
    for (std::size_t i = 0; i < p_.size(); ++i)
        if (counts(i)) {
            vmax = std::max(vmax, glm::length(p_.v[i]));
            if (depth) {
                const float along = glm::dot(p_.x[i], down);
                bottom = std::max(bottom, along);
                top = std::max(top, -along);
            }
        }
    if (domain_) {  // the halo's velocities are stale (the last pass computed their own)
        std::array<double, 3> m = {vmax, top, bottom};
        domain_->max(std::span<double>(m.data(), depth ? 3 : 1));
        vmax = float(m[0]);
        top = float(m[1]);
        bottom = float(m[2]);
    }
    // Include what gravity adds during the step, so a fluid at rest does not get max_dt blindly;
    // the explicit solvers also resolve their sound waves.
    double longest = max_dt(def_);
    // Deep water: the iterations' own stability bound (SolverTraits::max_dt_depth). Measured in
    // 2D tanks at rest (0.2 m wide; H = 1.5 m at r = 5 and 2.5 mm, 3 m at 5 mm; fixed steps, in
    // units of 2r/√(gH)): DFSPH calm at 0.77, 17–117 J/m of kinetic energy at 0.96–1.0; PBF
    // 16.7 J/m at 1.08 (3 m), 1.4 at 1.15 (1.5 m), blown up at 1.5–1.9. Under the bound (0.5)
    // 0.06–0.8 J/m; PBF at 0.75 read 4–12 times its 0.5's, DFSPH's solves at 0.7 stop at their cap.
    if (depth && bottom + top > 0.0f)
        longest = std::min(longest, traits.max_dt_depth * 2.0 * def_.particle_radius /
                                        std::sqrt(g * double(bottom + top)));
    double speed = vmax + g * longest;
    if (traits.resolves_sound) speed += fluid_.speed_of_sound;
    // Surface tension's own time scale, however still the fluid: explicit surface forces must
    // resolve the capillary waves of the particle scale (Brackbill, Kothe & Zemach 1992), so a
    // step crosses a spacing at surface_force_speed at most. Every time scale of the surface
    // forces is ∝ 1/√γ, and so is this bound: a drop in zero gravity then moves the same way at
    // every γ, only faster (docs/solvers.md). (At r = 1.25 mm, γ = 1 it is 1.2 ms; Brackbill's
    // √(ρd³/(2πσ)) with the σ_eff measured there is 0.9 ms; max_dt is 2 ms.) Adhesion's pull is
    // explicit too: unbounded, DFSPH's 5 ms steps shook water clinging to a box in zero gravity
    // until a particle passed the speed guard.
    speed = std::max(speed, surface_force_speed(def_));
    const double dt = speed > 0.0 ? t.cfl * 2.0 * def_.particle_radius / speed : longest;
    return std::clamp(dt, t.min_dt, longest);
}

template <int D>
double World<D>::kinetic_energy() const {
    double kinetic = 0.0, potential = 0.0;
    check_stability(&kinetic, &potential);  // the sums of the statistics, bit for bit
    return kinetic;
}

template <int D>
void World<D>::refresh_density(float fluid_mass) {
    find_neighbors();
    FluidView<D> v = view();
    if (fluid_mass > 0.0f) v.mass = fluid_mass;
    std::visit([&](const auto& k) { compute_density<D>(v, k, p_.rho); }, fluid_.kernel);
}

namespace {

// Storage indices of the particles in creation order (ids are dense unless a sink removed some),
// after checking that `values` holds one finite vector per particle.
template <int D>
std::vector<std::uint32_t> checked_creation_order(std::span<const Vec<D>> values,
                                                  std::span<const std::uint32_t> id,
                                                  const char* what, const char* one) {
    if (values.size() != id.size())
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(values.size()) + " " +
                                    one + "s for " + std::to_string(id.size()) + " particles");
    for (std::size_t k = 0; k < values.size(); ++k)
        for (int a = 0; a < D; ++a)
            if (!std::isfinite(values[k][a]))
                throw std::invalid_argument(std::string(what) + ": " + one + " " + std::to_string(k) +
                                            " is not finite");
    return creation_order(id);
}

}  // namespace

template <int D>
void World<D>::set_positions(std::span<const Vec<D>> x) {
    const auto by_id = checked_creation_order<D>(x, p_.id, "set_positions", "position");
    // As add_particles: a particle outside the container was put back by the containment in
    // the next step and reported as an instability of its speed.
    for (std::size_t k = 0; k < x.size(); ++k)
        if (!container_.contains(x[k]))
            throw std::invalid_argument("set_positions: position " + std::to_string(k) +
                                        " is outside the container");
    for (std::size_t r = 0; r < by_id.size(); ++r) p_.x[by_id[r]] = p_.x_prev[by_id[r]] = x[r];
    refresh_density();  // of the new positions, as at construction
}

template <int D>
void World<D>::set_velocities(std::span<const Vec<D>> v) {
    const auto by_id = checked_creation_order<D>(v, p_.id, "set_velocities", "velocity");
    for (std::size_t r = 0; r < by_id.size(); ++r) p_.v[by_id[r]] = v[r];
}

template <int D>
void World<D>::add_particles(std::span<const Vec<D>> x, std::span<const Vec<D>> v) {
    if (x.size() != v.size())
        throw std::invalid_argument("add_particles: " + std::to_string(x.size()) + " positions but " +
                                    std::to_string(v.size()) + " velocities");
    for (std::size_t k = 0; k < x.size(); ++k) {
        bool finite = true;
        for (int a = 0; a < D; ++a) finite = finite && std::isfinite(x[k][a]) && std::isfinite(v[k][a]);
        if (!finite)
            throw std::invalid_argument("add_particles: particle " + std::to_string(k) +
                                        " has a non-finite position or velocity");
        if (!container_.contains(x[k]))
            throw std::invalid_argument("add_particles: particle " + std::to_string(k) +
                                        " is outside the container");
    }
    for (std::size_t k = 0; k < x.size(); ++k)
        p_.push_back(x[k], v[k], fluid_.rest_density, next_id_++);
    total_emitted_ += x.size();
    particles_resized();
}

template <int D>
StepStats World<D>::step(double dt, double flow) {
    const auto t0 = std::chrono::steady_clock::now();
    StepStats s;
    s.dt = dt;
    emit(dt);
    move_kinematic_objects(dt);
    if (track_forces_) {  // a collision is a contact force too: logged, then summed per object
        collision_push_.assign(p_.size(), Vec<D>(0.0f));
        collision_object_.assign(p_.size(), no_object);
    }
    StepContext<D> c(*this, static_cast<float>(dt), s, times_, flow);
    std::visit([&](auto& solver) { solver.step(c); }, solver_);
    if (track_forces_) sum_object_forces(float(dt));
    if (dynamics_) {
        // The bodies move under the fluid's force of this step, gravity and their contacts; the
        // fluid meets them at their new poses in the next step (Akinci et al. 2012, sec. 5).
        dynamics_->step(float(dt), objects_);
        for (std::size_t o = 0; o < objects_.size(); ++o)
            if (objects_[o].motion == ObjectMotion::dynamic)
                set_object_pose(o, objects_[o].position, objects_[o].rotation);
    }
    drain();
    finish_step(dt, s);
    adapt_step_scale(s);
    times_.total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s;
}

// ---- boundary objects and their forces ----

template <int D>
void World<D>::track_boundary_forces(bool on) {
    track_forces_ = on || dynamics_ != nullptr;  // dynamic bodies move by these forces
    on = track_forces_;
    b_.force.assign(on ? b_.x.size() : 0, Vec<D>(0.0f));
    b_.face_force.assign(on ? b_.x.size() : 0, Vec<D>(0.0f));
    b_.face_plane.assign(on ? b_.x.size() : 0, Vec<D>(0.0f));
    b_.face_side.assign(on ? b_.x.size() : 0, Vec<D>(0.0f));
    for (std::size_t oi = 0; on && oi < objects_.size(); ++oi) set_face_planes(oi);
    for (auto& o : objects_) o.force = Vec<D>(0.0f), o.torque = {};
}

template <int D>
void World<D>::set_face_planes(std::size_t index) {
    const BoundaryObject<D>& o = objects_[index];
    if (b_.face_side.size() != b_.x.size()) return;  // forces not tracked
    // A fixed, unposed solid box: along each axis, the face nearer the particle, the fluid
    // beyond it. Any other shape, a body or a moved box: every pair counts (its planes would move
    // with it); a container too: its fluid is always on its faces' open side, nothing to leave out
    // (and no second pass over its particles).
    const bool box = o.kind == ShapeKind::box && !o.posed && o.motion == ObjectMotion::fixed &&
                     !o.fluid_inside;
    for (std::size_t k = o.first; k < o.first + o.count && k < b_.x.size(); ++k)
        for (int a = 0; a < D; ++a) {
            const bool high = b_.x[k][a] - o.shape.min[a] > o.shape.max[a] - b_.x[k][a];
            b_.face_plane[k][a] = box ? (high ? o.shape.max[a] : o.shape.min[a]) : 0.0f;
            b_.face_side[k][a] = !box ? 0.0f : high ? 1.0f : -1.0f;
        }
}

template <int D>
void World<D>::transpose_boundary_neighbors() {
    const std::size_t nb = b_.x.size(), nf = p_.size();
    reaction_offset_.assign(nb + 1, 0);
    for (std::size_t i = 0; i < nf; ++i)
        for (std::uint32_t k : boundary_nb_.of(i)) ++reaction_offset_[k + 1];
    for (std::size_t k = 0; k < nb; ++k) reaction_offset_[k + 1] += reaction_offset_[k];
    reaction_fluid_.resize(reaction_offset_[nb]);
    // Filled in fluid order: the same lists, in the same order, for any thread count.
    id_scratch_.assign(reaction_offset_.begin(), reaction_offset_.end() - 1);
    for (std::size_t i = 0; i < nf; ++i)
        for (std::uint32_t k : boundary_nb_.of(i))
            reaction_fluid_[id_scratch_[k]++] = static_cast<std::uint32_t>(i);
    // Each boundary particle's fluid neighbours in creation order: the same sums however the
    // fluid is stored (or split between processes).
    const std::uint32_t* id = p_.id.data();
    parallel_for(nb, [&](std::size_t k) {
        std::uint32_t* f = reaction_fluid_.data();
        std::sort(f + reaction_offset_[k], f + reaction_offset_[k + 1],
                  [id](std::uint32_t a, std::uint32_t b) { return id[a] < id[b]; });
    });
}

// Per object: the boundary particles' forces, plus the collisions' pushes on fluid particles,
// each an impulse m Δx / Δt over the step, so a force −m Δx / Δt² on the object that pushed.
template <int D>
void World<D>::sum_object_forces(float dt) {
    // Exact sums (ExactSum): an object's force is the same bits however the fluid particles are
    // stored or split between processes. Grown once per thread: a warm step allocates nothing.
    constexpr int torque_components = D == 3 ? 3 : 1;
    struct Sums {
        std::array<ExactSum, D> f;
        std::array<ExactSum, torque_components> t;
    };
    const std::size_t n_objects = objects_.size();
    thread_local std::vector<Sums> sums;
    sums.assign(n_objects, Sums{});
    auto add_to = [](Sums& s, const Vec<D>& r, const Vec<D>& f) {
        for (int a = 0; a < D; ++a) s.f[a].add(f[a]);
        if constexpr (D == 3) {
            const Vec<3> t = glm::cross(r, f);
            for (int a = 0; a < 3; ++a) s.t[a].add(t[a]);
        } else {
            s.t[0].add(r.x * f.y - r.y * f.x);
        }
    };
    // The reactions of the forces besides pressure (adhesion, wall friction) this step.
    std::array<const std::vector<Vec<D>>*, 4> reactions{};
    std::size_t n_reactions = 0;
    forces_.for_each_boundary_force(
        [&](const std::vector<Vec<D>>& f) { reactions.at(n_reactions++) = &f; });
    // The boundary particles in a fixed number of chunks, each summed on its own by whichever
    // thread takes it, then the chunks added up: the sums are exact, so the same bits for any
    // split. A particle with no force adds nothing to them and is passed over (most of a tank's
    // wall is dry).
    constexpr std::size_t chunks = 8;
    thread_local std::vector<Sums> chunk_store;
    chunk_store.assign(chunks * n_objects, Sums{});
    // This thread's store, by reference: inside the loop the name would be each thread's own.
    std::vector<Sums>& chunk_sums = chunk_store;
    const std::size_t nb = b_.x.size();
    parallel_for(
        chunks,
        [&](std::size_t c) {
            const std::size_t lo = nb * c / chunks, hi = nb * (c + 1) / chunks;
            for (std::size_t oi = 0; oi < n_objects; ++oi) {
                const BoundaryObject<D>& o = objects_[oi];
                const std::size_t end = std::min(hi, o.first + o.count);
                for (std::size_t k = std::max(lo, o.first); k < end; ++k) {
                    // Split over processes, each boundary particle counts on the process that
                    // owns its cell (which holds every fluid neighbour it gathered from).
                    if (domain_ && !domain_->owns(b_.x[k])) continue;
                    Vec<D> fk = b_.force[k];
                    for (std::size_t r = 0; r < n_reactions; ++r) fk += (*reactions[r])[k];
                    if (fk == Vec<D>(0.0f)) continue;
                    add_to(chunk_sums[c * n_objects + oi], b_.x[k] - o.position, fk);
                }
            }
        },
        1);
    for (std::size_t c = 0; c < chunks; ++c)
        for (std::size_t oi = 0; oi < n_objects; ++oi) {
            const Sums& part = chunk_sums[c * n_objects + oi];
            for (int a = 0; a < D; ++a) sums[oi].f[a] += part.f[a];
            for (int a = 0; a < torque_components; ++a) sums[oi].t[a] += part.t[a];
        }
    auto add = [&](std::size_t o, const Vec<D>& r, const Vec<D>& f) { add_to(sums[o], r, f); };
    const float scale = -p_.mass / (dt * dt);
    contact_.assign(p_.size(), Vec<D>(0.0f));
    contact_object_.assign(collision_object_.begin(), collision_object_.end());
    for (std::size_t i = 0; i < p_.size(); ++i) {
        if (collision_object_[i] == no_object || !counts(i)) continue;
        const Vec<D> f = scale * collision_push_[i];
        add(collision_object_[i], p_.x[i] - objects_[collision_object_[i]].position, f);
        contact_[i] = f;
    }
    if (domain_)
        for (Sums& o : sums) {
            for (ExactSum& e : o.f) domain_->sum(e);
            for (ExactSum& e : o.t) domain_->sum(e);
        }
    for (std::size_t oi = 0; oi < objects_.size(); ++oi) {
        BoundaryObject<D>& o = objects_[oi];
        for (int a = 0; a < D; ++a) o.force[a] = static_cast<float>(sums[oi].f[a].value());
        if constexpr (D == 3)
            for (int a = 0; a < 3; ++a) o.torque[a] = static_cast<float>(sums[oi].t[a].value());
        else
            o.torque = static_cast<float>(sums[oi].t[0].value());
    }
}

template <int D>
void World<D>::set_object_pose(std::size_t index, const Vec<D>& position, const Mat<D>& rotation) {
    if (index >= objects_.size())
        throw std::out_of_range("boundary object " + std::to_string(index) + " of " +
                                std::to_string(objects_.size()));
    BoundaryObject<D>& o = objects_[index];
    o.set_pose(position, rotation);
    o.moving = true;
    set_face_planes(index);
    boundary_moves_ = true;
    if (o.count > 0 && o.first < first_moving_) fixed_moves_ = true;
    for (std::size_t k = o.first; k < o.first + o.count; ++k) b_.x[k] = o.to_world(b_.local[k]);
}

template <int D>
void World<D>::set_object_velocity(std::size_t index, const Vec<D>& velocity) {
    if (index >= objects_.size())
        throw std::out_of_range("boundary object " + std::to_string(index) + " of " +
                                std::to_string(objects_.size()));
    objects_[index].velocity = velocity;
    objects_[index].moving = true;
    boundary_moves_ = true;
    if (objects_[index].count > 0 && objects_[index].first < first_moving_) fixed_moves_ = true;
}

template <int D>
void World<D>::adapt_step_scale(const StepStats& s) {
    // As SPlisHSPlasH's "CFL - iterations" step (its cflMethod 2, a band of 5–10): the solve's
    // iterations grow faster than the step in deep water (Jacobi lifts the column a kernel
    // radius an iteration), so a shorter step there costs less time per simulated second.
    // Split over processes every process counts the same iterations: the same scale everywhere.
    const int target = def_.time.target_iterations;
    const std::int64_t pair = std::int64_t(s.iterations) + last_iterations_;
    last_iterations_ = s.iterations;
    if (target <= 0 || def_.time.mode != TimeParams::Mode::cfl) return;
    // At most 20 times shorter than the CFL bound (water 4 m deep at r = 5 mm needs a tenth).
    const double lowest = 0.05;
    if (s.capped || pair > 2 * std::int64_t(target))
        step_scale_ = std::max(lowest, 0.9 * step_scale_);
    else if (pair < target)
        step_scale_ = std::min(1.0, step_scale_ / 0.9);
}

template <int D>
void World<D>::finish_step(double dt, StepStats& s) {
    time_ += dt;
    ++steps_;
    s.step = steps_;
    s.time = time_;
    s.particles = particle_count();
    s.instability = check_stability(&s.kinetic_energy, &s.potential_energy);
}

template <int D>
std::optional<Instability> World<D>::check_stability(double* kinetic, double* potential) const {
    // Every particle is checked each step: in parallel over fixed chunks, each finding its first
    // bad particle; the first of those is reported (the same one for any thread count). The
    // energies are summed in the same pass, chunk by chunk in a fixed order (the same bits for
    // any thread count); serial, the two sums were a fifth of the time outside the passes. The
    // sums are exact (ExactSum): the same bits however the particles are stored or split.
    constexpr std::size_t chunk = 4096;
    const std::size_t chunks = (p_.size() + chunk - 1) / chunk;
    // Grown once, so a warm step allocates nothing; the loop body, which runs on the pool's
    // threads, sees it through a pointer (by name it would be each worker's own).
    thread_local std::vector<std::size_t> first_bad_storage;
    thread_local std::vector<ExactSum> sums_storage;
    first_bad_storage.assign(chunks, p_.size());
    sums_storage.assign(2 * chunks, ExactSum{});
    std::size_t* first_bad = first_bad_storage.data();
    ExactSum* sums = sums_storage.data();
    const bool energies = kinetic != nullptr;
    const float max_speed2 = max_speed_ * max_speed_;
    parallel_for(
        chunks,
        [&](std::size_t c) {
            ExactSum v2, gx;
            bool found = false;
            for (std::size_t i = c * chunk; i < std::min(p_.size(), (c + 1) * chunk); ++i) {
                if (!counts(i)) continue;  // another process's
                const Vec<D>& x = p_.x[i];
                const Vec<D>& v = p_.v[i];
                if (energies) {
                    v2.add(glm::dot(v, v));
                    gx.add(glm::dot(gravity_, x));
                }
                bool ok = glm::dot(v, v) <= max_speed2;  // false for NaN too
                for (int a = 0; a < D; ++a) ok = ok && std::isfinite(x[a]) && std::isfinite(v[a]);
                if (!ok || !container_.contains(objects_[0].to_local(x))) {
                    // The lowest creation id: the same particle however they are stored.
                    if (!found || p_.id[i] < p_.id[first_bad[c]]) first_bad[c] = i;
                    found = true;
                }
            }
            sums[2 * c] = v2;
            sums[2 * c + 1] = gx;
        },
        2);
    if (energies) {
        ExactSum v2, gx;
        for (std::size_t c = 0; c < chunks; ++c) {
            v2 += sums[2 * c];
            gx += sums[2 * c + 1];
        }
        if (domain_) {
            domain_->sum(v2);
            domain_->sum(gx);
        }
        *kinetic = 0.5 * p_.mass * v2.value();
        *potential = -p_.mass * gx.value();
    }
    std::size_t i = p_.size();
    for (std::size_t c = 0; c < chunks; ++c)
        if (first_bad[c] != p_.size() && (i == p_.size() || p_.id[first_bad[c]] < p_.id[i]))
            i = first_bad[c];
    Vec<D> x_bad(0.0f), v_bad(0.0f);
    std::uint32_t id_bad = i != p_.size() ? p_.id[i] : 0;
    bool bad = i != p_.size();
    if (bad) x_bad = p_.x[i], v_bad = p_.v[i];
    if (domain_) {
        // The lowest id over all processes, and its owner's position and velocity.
        std::array<double, 1> lowest = {bad ? -double(id_bad) : -1e300};
        domain_->max(lowest);
        bad = lowest[0] > -1e300;
        const bool mine = bad && i != p_.size() && -double(id_bad) == lowest[0];
        std::array<double, 2 * D> xv;
        for (int a = 0; a < D; ++a) {
            xv[a] = mine ? double(x_bad[a]) : -INFINITY;
            xv[D + a] = mine ? double(v_bad[a]) : -INFINITY;
        }
        domain_->max(xv);
        if (bad) {
            id_bad = std::uint32_t(-lowest[0]);
            for (int a = 0; a < D; ++a) x_bad[a] = float(xv[a]), v_bad[a] = float(xv[D + a]);
        }
    }
    if (bad) {
        const Vec<D>& x = x_bad;
        const Vec<D>& v = v_bad;
        std::string reason;
        bool finite_x = true, finite_v = true;
        for (int a = 0; a < D; ++a) {
            finite_x = finite_x && std::isfinite(x[a]);
            finite_v = finite_v && std::isfinite(v[a]);
        }
        const float speed = glm::length(v);
        if (!finite_x)
            reason = "position is not finite";
        else if (!finite_v)
            reason = "velocity is not finite";
        else if (!(glm::dot(v, v) <= max_speed2))  // the test above, so the two agree
            reason = "speed " + std::to_string(speed) + " m/s exceeds the limit of " +
                     std::to_string(max_speed_) + " m/s";
        else if (!container_.contains(objects_[0].to_local(x)))
            reason = "left the container";
        // The creation id, not the index: particles are kept in Z-curve order, frames list them
        // by id, and the user looks the number up there.
        if (!reason.empty()) return Instability{id_bad, reason, to_vec3d<D>(x), to_vec3d<D>(v)};
    }
    return std::nullopt;
}

template class World<2>;
template class World<3>;


}  // namespace seiche
