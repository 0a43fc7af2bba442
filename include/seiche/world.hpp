// A running simulation: fluid particles, boundary objects (container, obstacles, bodies), the
// solver of the scene and the forces of the list, built from a WorldDef. step() advances by one
// time step; nothing here does I/O.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <memory>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include "seiche/boundary.hpp"
#include "seiche/domain.hpp"
#include "seiche/emitters.hpp"
#include "seiche/force_list.hpp"
#include "seiche/kernels.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"
#include "seiche/parameters.hpp"
#include "seiche/particle_set.hpp"
#include "seiche/solver.hpp"
#include "seiche/step_context.hpp"
#include "seiche/world_def.hpp"

namespace seiche {

// How World::advance_to steps and whom it tells. Steps follow time.dt_mode: CFL steps land on
// every sample time and the end in even steps (fit_step); fixed steps are
// time.dt, the last one shortened to end exactly at t_end, and a sample is taken at the first
// step that reaches its time.
struct AdvanceOptions {
    double every = 0;             //!< s; on_sample at t = k·every, k = 1, 2, ... (0: no samples)
    std::int64_t max_steps = 0;   //!< stop after this many steps of this call (0: no limit)
    //! After every step (also the one that went unstable); return false to stop.
    std::function<bool(const StepStats&)> on_step;
    //! At sample k (time k·every); when one step passes several, once, with the last k. False stops.
    std::function<bool(std::int64_t k)> on_sample;
};

// A checkpoint that cannot be used: damaged, of another world, or written for another definition.
struct CheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RestoreResult {
    std::string extra;                 //!< what the writer stored with World::save
    std::vector<std::string> changed;  //!< live keys now different: "solver.xsph: 0.01 → 0.02"
};

// Keys a running world may change (World::set): gravity, solver.*, time.*, container.adhesion.
// The others shape the particles or the boundary.
bool is_live_key(std::string_view key);

template <int D>
class RigidDynamics;

struct AdvanceResult {
    enum class Status { reached, unstable, stopped, step_limit };
    Status status = Status::reached;
    std::int64_t steps = 0;  //!< taken by this call
    StepStats last;          //!< the last step; its instability when unstable
};

template <int D>
class World {
  public:
    // Throws DefinitionError, listing every problem with its key path, for an invalid definition.
    // The particles' densities are measured at their starting positions (refresh_density).
    explicit World(const WorldDef& def);
    // This process's part of a scene split over processes (seiche/domain.hpp; docs/scale-out.md):
    // every process builds the world from the same definition and keeps its own cells' fluid.
    // Each step, each reduction and gather_particles() are then collective: every process calls
    // them, in the same order.
    World(const WorldDef& def, std::shared_ptr<Domain<D>> domain);
    ~World();
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;

    // The next step size: the fixed dt, or the CFL bound in [min_dt, max_dt] (times step_scale).
    double suggested_dt() const;
    // With time.target_iterations, the share of the CFL bound the next step takes: 0.9 times the
    // last after a step whose solve stopped at its cap, or when this step's and the last one's
    // iterations average more than the target (DFSPH's warm start from half the last pressure
    // alternates long and short solves), up to 1/0.9 times it when they average less than half
    // of it; at least 0.05; 1 without, and after the solver restarts. It travels in checkpoints.
    double step_scale() const { return step_scale_; }
    StepStats step(double dt) { return step(dt, std::numeric_limits<double>::quiet_NaN()); }
    // Steps until time t_end (or a stop, an instability, max_steps), calling back after steps and
    // at sample times. The one time loop of every front end: run, validate, compare, bench.
    AdvanceResult advance_to(double t_end, const AdvanceOptions& options = {});
    // Finds neighbours of the current positions and fills particles().rho (the constructor and
    // set_positions do).
    // fluid_mass > 0 (kg) sums the fluid with another particle mass than this world's: another
    // code's particles measured on seiche's terms (SPlisHSPlasH gives a particle 0.8 (2r)^D ρ0,
    // seiche ρ0 / Σ W over the rest lattice, so the same positions are different densities).
    void refresh_density(float fluid_mass = 0.0f);
    // Moves every particle: x[k] is the position of the particle created k-th (particles().id
    // maps storage to creation order), m. Velocities are kept. Throws std::invalid_argument for
    // another count, a non-finite coordinate or a position outside the container (naming the
    // particle), the world unchanged. The densities are measured again at the new positions.
    void set_positions(std::span<const Vec<D>> x);
    // The same for the velocities (m/s), positions kept.
    void set_velocities(std::span<const Vec<D>> v);
    // Adds fluid particles at x (m) with velocities v (m/s), each with the next creation id (a
    // block dropped in from the viewer, a script's own inflow); they count as emitted. Throws
    // std::invalid_argument, the world unchanged, for unequal counts, a non-finite value or a
    // position outside the container (naming the particle).
    void add_particles(std::span<const Vec<D>> x, std::span<const Vec<D>> v);

    // The particles this process holds: with a domain, its own and its halo's (halo()).
    const ParticleSet<D>& particles() const { return p_; }
    // The processes the scene is split over, or nullptr for a whole scene in one process.
    Processes* processes() const { return domain_.get(); }
    // Every particle of the scene, in creation order, on process 0 (collective; elsewhere
    // empty); without a domain, particles() itself.
    const ParticleSet<D>& gather_particles();
    // Fluid particles over all processes.
    std::size_t particle_count() const;
    const Boundary<D>& boundary() const { return b_; }
    const Box<D>& container() const { return container_; }
    double time() const { return time_; }
    std::int64_t steps() const { return steps_; }
    float support_radius() const { return fluid_.h; }
    float max_speed() const { return max_speed_; }
    double kinetic_energy() const;
    std::size_t total_contained() const { return total_contained_; }
    // Emitters and sinks: particles added and removed so far; the next creation id (ids are
    // unique over the run; with sinks they are no longer 0 .. size − 1).
    std::size_t total_emitted() const { return total_emitted_; }
    std::size_t total_removed() const { return total_removed_; }
    std::uint32_t next_id() const { return next_id_; }
    const StageTimes& stage_times() const { return times_; }

    float speed_of_sound() const { return fluid_.speed_of_sound; }
    // WCSPH pressure of the last step, Pa (empty for the other solvers).
    std::span<const float> pressure() const;
    // The vorticity ω = ∇ × v of the last step, 1/s (2D: its z component), per particle in
    // storage order: computed by vorticity confinement, so empty when solver.vorticity is 0.
    std::span<const Vorticity<D>> vorticity() const {
        const auto& omega = forces_.vorticity.omega;
        if (!(def_.solver.vorticity > 0) || omega.size() != p_.size()) return {};
        return omega;
    }
    const Solver<D>& solver() const { return solver_; }

    // ---- live changes, validated like the file; they act from the next step ----
    // Sets one key of the definition (as in the scene file: "solver.pbf.max_iterations",
    // "gravity", "solver.type" with a name such as "wcsph"). Only keys in live_keys() can change
    // while the world runs; a change of the solver or its parameters restarts the solver on the
    // current particles. Throws DefinitionError naming the key, the world unchanged.
    void set(std::string_view key, const ParamValue& value);
    static std::span<const std::string_view> live_keys();
    void set_gravity(const Vec3d& g) { set("gravity", g); }
    void set_solver(SolverType type) { set("solver.type", std::string(solver_name(type))); }
    void set_pbf_iterations(int min_iterations, int max_iterations);
    void set_xsph(double c) { set("solver.xsph", c); }
    void set_vorticity(double epsilon) { set("solver.vorticity", epsilon); }
    // Replaces every live key at once (the others must equal the running definition's).
    void set_definition(const WorldDef& def);

    // An interrupt: while *flag is true, advance_to stops before the next step and the PBF
    // iterations of a running step stop at the next iteration (the step still completes, with
    // fewer corrections). The flag may be set from a signal handler. nullptr: none.
    void set_stop_flag(const std::atomic<bool>* flag) { stop_ = flag; }
    bool stop_requested() const { return stop_ && stop_->load(std::memory_order_relaxed); }

    // ---- boundary objects: the container first, then the obstacles, then the bodies, each in
    // scene order ----
    std::span<const BoundaryObject<D>> boundary_objects() const { return objects_; }
    // The object of bodies[i] of the definition.
    std::size_t body_object(std::size_t body) const { return 1 + def_.obstacles.size() + body; }
    // Mass of bodies[i], kg (2D: per metre of depth); 0 unless it is dynamic.
    float body_mass(std::size_t body) const;
    // Computes the fluid's force on every boundary particle each step (Boundary::force) and sums
    // it per object (BoundaryObject::force, torque). Off by default: it costs a pass over the
    // boundary particles near the fluid.
    void track_boundary_forces(bool on);
    bool tracking_boundary_forces() const { return track_forces_; }
    // With forces tracked: the force an object's collision (the push that keeps centres off its
    // surface: the container's clamp, an obstacle's or a body's push out) exerted on that object
    // through each fluid particle in the last step, N (2D: N/m), and which object it was
    // (no_object: none; a particle pushed by two objects counts for the last). An object's force
    // is the sum of its boundary particles' and these; a pressure sensor on a face reads both.
    std::span<const Vec<D>> contact_forces() const { return contact_; }
    std::span<const std::uint32_t> contact_objects() const { return contact_object_; }
    static constexpr std::uint32_t no_object = 0xffffffffu;
    // Moves object `index` to a new pose (its particles follow; they are re-binned every step
    // from now on). rotation: the object's axes in the world, as columns.
    void set_object_pose(std::size_t index, const Vec<D>& position, const Mat<D>& rotation);
    void set_object_velocity(std::size_t index, const Vec<D>& velocity);
    const WorldDef& definition() const { return def_; }

    // ---- checkpoints ----
    // Writes everything the next step needs — particles in storage order, time, step count,
    // object poses — with a copy of the definition and a checksum. `extra` is stored as given (a
    // front end's own state: frame counters, totals). Stepping on from restore() is bitwise the
    // run that never stopped, for any thread count. Split over processes, process 0 writes
    // what every process's gather_particles() just gathered: the checkpoint one process writes.
    void save(std::ostream& out, std::string_view extra = {}) const;
    // Continues from a checkpoint written by a world of the same definition. Keys that shape the
    // particles or the boundary must match; live keys may differ (this world's values apply, and
    // are listed in `changed`). Throws CheckpointError, the world unchanged, for a damaged file
    // or another definition (naming the key and both values). Split over processes, every
    // process reads the same checkpoint and keeps its own cells' particles: a checkpoint of any
    // number of processes resumes on any number.
    RestoreResult restore(std::istream& in);

  private:
    friend class StepContext<D>;

    // The step the flow's own speeds allow: the fixed dt, or the CFL bound in [min_dt, max_dt]
    // before the viscous bound (suggested_dt is the smaller of the two).
    double flow_step() const;
    // A step of dt; flow: the CFL step of the flow at its start when the caller has it (the time
    // driver), NaN for StepContext::leftover_share to measure it if it needs it.
    StepStats step(double dt, double flow);
    // The CFL bound in [min_dt, max_dt] of the flow's own speeds whatever time.dt_mode says
    // (flow_step in CFL mode). Split over processes, collective.
    double cfl_step() const;
    // A CFL step of the flow bounded by the viscous term (suggested_dt of flow_step()).
    double viscous_bounded(double flow) const;

    // The stages shared by all solvers (StepContext names them for the solvers).
    void predict_positions(float dt);  // x_prev = x; x += dt·v
    void find_neighbors();
    void collide();
    void contain_and_update_velocities(float dt, StepStats& s);  // v += (x − x̃)/dt
    void measure_density(StepStats& s);
    void finish_step(double dt, StepStats& s);
    void adapt_step_scale(const StepStats& s);  // time.target_iterations: step_scale_

    FluidView<D> view() const;
    void derive_from_definition();
    void transpose_boundary_neighbors();
    void sum_object_forces(float dt);
    // Boundary::face_plane and face_side of object `index`'s particles (while forces are tracked).
    void set_face_planes(std::size_t index);
    void move_kinematic_objects(double dt);  // before the fluid step: prescribed motions
    void emit(double dt);                    // before the step: the emitters' new layers
    void drain();                            // after it: fluid in the sinks is removed
    void particles_resized();                // the solver's and the world's scratch follow
    void solver_started();  // the particles carry what the new solver carries, from zero
    void add_bodies(const WallSampling& walls);
    // A checkpoint read and checked, not yet applied (restore() applies it).
    struct Restored {
        ParticleSet<D> p;
        double time = 0;
        std::int64_t steps = 0;
        double step_scale = 1;
        std::int32_t last_iterations = 0;
        std::uint64_t contained = 0, emitted = 0, removed = 0;
        std::uint32_t next_id = 0;
        std::vector<double> travel;
        std::vector<BoundaryObject<D>> objects;
        RestoreResult result;
    };
    Restored read_checkpoint(std::istream& in) const;
    Restored read_checkpoint_split(std::istream& in);
    // Throws CheckpointError naming the first value a run cannot have written.
    void check_restored_values(const ParticleSet<D>& p, const std::vector<BoundaryObject<D>>& objects,
                               const std::vector<double>& travel, std::uint64_t emitted,
                               std::uint64_t removed) const;
    // The first bad particle, if any; with kinetic (and potential), also the energies, J.
    std::optional<Instability> check_stability(double* kinetic = nullptr,
                                               double* potential = nullptr) const;
    template <class Fn>
    void timed(double StageTimes::*stage, Fn&& fn) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        times_.*stage +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    // Whether this process counts particle i (not a halo copy of another's).
    bool counts(std::size_t i) const { return !domain_ || !domain_->halo()[i]; }

    WorldDef def_;
    FluidConstants<D> fluid_;
    Vec<D> gravity_;
    Box<D> container_;
    ParticleSet<D> p_;
    Boundary<D> b_;
    std::vector<BoundaryObject<D>> objects_;
    bool track_forces_ = false;
    std::unique_ptr<RigidDynamics<D>> dynamics_;  //!< when a body is dynamic
    const std::atomic<bool>* stop_ = nullptr;
    bool boundary_moves_ = false;
    // The fluid → boundary lists turned around (boundary particle → fluid particles), built in
    // a fixed order so the forces gather deterministically; turned once per neighbour search.
    std::vector<std::uint32_t> reaction_offset_, reaction_fluid_;
    bool reaction_current_ = false;
    mutable std::vector<Vec<D>> collision_push_;  //!< per fluid particle, this step (forces tracked)
    mutable std::vector<std::uint32_t> collision_object_;
    std::vector<Vec<D>> contact_;               //!< per fluid particle, N (forces tracked)
    std::vector<std::uint32_t> contact_object_;  //!< per fluid particle (forces tracked)
    // The boundary in two grids: the fixed particles [0, first_moving_) built once (with its
    // neighbourhood mask), the moving bodies' particles after them rebuilt every step.
    NeighborGrid<D> fluid_grid_, boundary_grid_, moving_grid_;
    std::size_t first_moving_ = 0;
    bool fixed_moves_ = false;  //!< an object of the fixed range was moved (set_object_pose)
    NeighborList fluid_nb_, boundary_nb_;
    Solver<D> solver_;
    std::vector<Vec<D>> v_scratch_;  //!< reorder, PBF position corrections, XSPH velocities
    std::vector<float> f_scratch_;
    std::vector<std::uint32_t> id_scratch_;
    Forces<D> forces_;  //!< the forces of seiche/force_list.hpp, each with its scratch
    float max_speed_ = 0;
    double time_ = 0;
    std::int64_t steps_ = 0;
    double step_scale_ = 1.0;
    int last_iterations_ = 0;  //!< the last step's, for step_scale_
    std::size_t total_contained_ = 0;
    std::size_t total_emitted_ = 0, total_removed_ = 0;
    std::uint32_t next_id_ = 0;
    std::vector<EmitterSites<D>> emitter_sites_;
    std::vector<double> emitter_travel_;  //!< per emitter: how far its last layer has moved, m
    StageTimes times_;
    std::shared_ptr<Domain<D>> domain_;  //!< when the scene is split over processes
    ParticleSet<D> gathered_;            //!< gather_particles() on process 0
};

// The next step towards a time `remaining` ahead (a frame, a sample), at most dt: what is left
// divided evenly into the fewest steps of at most dt, so the step neither slivers nor changes at a
// sample time. Both hurt PBF, whose velocities are position changes over dt: a solver correction
// of 10 µm over a 1 µs step is 10 m/s, and a 3 m deep 3D tank at rest whose 1.85 ms steps halved
// before every frame (the last two sharing what was left) kept ten times the kinetic energy of
// steps even over the frame.
double fit_step(double dt, double remaining);

extern template class World<2>;
extern template class World<3>;

}  // namespace seiche
