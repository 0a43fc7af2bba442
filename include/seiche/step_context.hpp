// What a solver's step sees: the particles, the kernel, the step size, the statistics it fills,
// and the stages every solver shares, by name (Box2D's b2StepContext is the model). A solver's
// step() is its paper's algorithm written as a sequence of these stages around its own passes.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "seiche/forces.hpp"
#include "seiche/domain.hpp"
#include "seiche/kernels.hpp"
#include "seiche/parallel.hpp"
#include "seiche/particle_set.hpp"
#include "seiche/sph.hpp"
#include "seiche/step_stats.hpp"
#include "seiche/world_def.hpp"

namespace seiche {

template <int D>
class World;

// The boundary particle → fluid particle lists and what the reaction pass reads and writes.
template <int D>
struct ReactionLists {
    std::span<const std::uint32_t> offset, fluid;  //!< CSR: fluid neighbours of boundary particle k
    std::span<const Vec<D>> x, bx;                 //!< fluid and boundary positions, m
    std::span<Vec<D>> force;                       //!< per boundary particle, N
    //! Boundary::face_force and its planes (empty when the particles' faces are not known).
    std::span<Vec<D>> face_force;
    std::span<const Vec<D>> face_plane, face_side;
};

// Constants of the fluid that every solver derives its own from (set once per world).
template <int D>
struct FluidConstants {
    float spacing;         //!< rest spacing d = 2r, m
    float h;               //!< kernel support, m
    float mass;            //!< per particle, kg
    float rest_density;    //!< ρ0, kg/m³
    float speed_of_sound;  //!< c for the explicit solvers, m/s
    AnyKernel<D> kernel;
    KernelType kernel_type;
};

template <int D>
class StepContext {
  public:
    // flow: World::cfl_step at the step's start if the caller has it (the time driver), else NaN
    // (bound_share and leftover_share measure it when they need it).
    StepContext(World<D>& world, float dt, StepStats& stats, StageTimes& times,
                double flow = std::numeric_limits<double>::quiet_NaN())
        : w_(world), dt_(dt), flow_(flow), stats_(stats), times_(times) {}

    float dt() const { return dt_; }
    // World::suggested_dt over World::flow_step: the share of the step the flow's own speeds
    // allow that the viscous bound leaves (1 where it does not bind, and with fixed steps). A
    // solver that corrects an error already there at a rate per unit time scales it by this.
    // Split over processes, collective (a reduction of the speeds).
    float bound_share() const;
    // The share of a density error left by earlier steps that this step corrects, for a solver
    // whose velocity is its displacement over Δt (PBF): min(1, 2Δt / World::cfl_step). A step of
    // at least half the flow's CFL step — every step the CFL driver takes, a step fitted to a
    // sample time included — corrects it whole; a shorter one its share, so the speed the
    // correction makes is a CFL step's, however short the step. Split over processes, collective
    // (the same branch on every process: Δt and max_dt are everyone's).
    float leftover_share() const;
    // The world's first step: its start is the scene's packing, not a flow's.
    bool first_step() const;
    StepStats& stats() { return stats_; }
    ParticleSet<D>& particles();
    const AnyKernel<D>& kernel() const;
    // What the SPH passes read: positions, boundary particles and the neighbour lists.
    FluidView<D> view() const;
    // The running definition (the forces read their keys from it).
    const WorldDef& definition() const;

    // ---- the shared stages, in the order a step usually takes them ----
    // External accelerations: gravity. The field an explicit solver adds to its own forces, m/s².
    Vec<D> external_acceleration() const;
    // v += Δt·a_ext (the first line of PBF's and Clavet's algorithms).
    void apply_external_accelerations();
    // The forces of the non_pressure stage (seiche/force_list.hpp: surface tension, cohesion
    // and adhesion, viscosity), each as the scene asks: v += Δt·a at the current neighbour lists
    // and densities; `predicted`: the positions were already advanced by Δt·v, so they are
    // predicted again, x = x_prev + Δt·v, from the new velocities.
    void apply_non_pressure_forces(bool predicted);
    // x_prev = x; x += Δt·v.
    void predict();
    // apply_external_accelerations() and predict() in one loop over the particles (one wait for
    // the threads, not two), for a step that takes them one after the other.
    void accelerate_and_predict();
    // Grid, Z-curve reorder of every particle field, fluid and boundary neighbour lists.
    void find_neighbors();
    // Particle centres kept at least r inside the container and outside solids.
    void collide();
    // Last-resort containment, then v += (x − x̃)/Δt, x̃ = x_prev + Δt·v the prediction: the
    // solver's and the collisions' moves, without rounding Δt·v into x and back.
    void contain_and_update_velocities();
    // The forces of the velocity_filter stage (XSPH viscosity, vorticity confinement), each as
    // the scene asks.
    void post_velocity();
    // The same, with ρ of the current positions computed first and measured into the
    // statistics: for a solver that leaves rho at other positions (PBF, after its last
    // correction). XSPH then weights the neighbours by the densities rho held before (as
    // SPlisHSPlasH does), and both come from one pass over the pairs. scratch: 16 bytes per
    // particle the solver lends for the pass (PBF: its x_lambda), saving the world its own.
    void post_velocity_and_density(std::span<Float4> scratch = {});
    // ρ of the current positions (stats and frames for solvers that do not compute it).
    void compute_density();
    // Mean and max density error of particles().rho into the statistics.
    void measure_density();
    // The processes the scene is split over (nullptr: this one holds it all): a pass that
    // writes a field its neighbours read later refreshes the halo (seiche/domain.hpp).
    Processes* processes() const;
    // The fluid's force on the boundary (Newton's third law on the solver's boundary term):
    // f_k = Σ_i term(i, k, |x_i − x_k|)·(x_i − x_k) over the fluid neighbours i of boundary
    // particle k, at the current positions or at `at` (the positions, one per fluid particle,
    // where the solver took the pairs' push; or Σ_i term(i, k, x_i − x_k) for a term that takes
    // the vector and returns the pair's force). Does nothing unless the world tracks forces.
    bool tracking_boundary_forces() const;
    template <class Term>
    void boundary_reaction(Term&& term, std::span<const Vec<D>> at = {});
    // Runs fn and adds its wall time to one stage of World::stage_times().
    template <class Fn>
    void timed(double StageTimes::*stage, Fn&& fn);

    // ---- for the forces ----
    // The boundary → fluid lists (turned around from the fluid → boundary lists once per step).
    ReactionLists<D> reaction_lists();
    // Split over processes: each boundary particle's value as the process owning its cell
    // gathered it from the reaction lists (the others' halo does not reach all of its fluid
    // neighbours), on every process. Nothing in one process.
    void share_boundary_values(std::span<float> values);
    // The world's buffers of the Z-curve reorder, free between neighbour searches: a pass that
    // writes a new velocity or density field writes it there and swaps it in.
    std::vector<Vec<D>>& velocity_scratch();
    std::vector<float>& density_scratch();
    // With args.density_pending: ρ of the current positions, now (the pending is cleared).
    void settle_density(ForceStageArgs& args);

  private:

    World<D>& w_;
    float dt_;
    double flow_;
    StepStats& stats_;
    StageTimes& times_;
};

template <int D>
template <class Fn>
void StepContext<D>::timed(double StageTimes::*stage, Fn&& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    times_.*stage += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A reaction term is a scalar s along r = x_i − x_k (s·r), or, where the fluid's force on
// the pair is not along r (WCSPH's corrected gradient), the vector itself from r.
template <int D, class Term>
Vec<D> pair_reaction(Term& term, std::uint32_t i, std::size_t k, const Vec<D>& r) {
    if constexpr (std::is_invocable_v<Term&, std::uint32_t, std::size_t, const Vec<D>&>)
        return term(i, k, r);
    else
        return term(i, k, glm::length(r)) * r;
}

// f_k = Σ_i term(i, k, |x_i − x_k|) (x_i − x_k) over the fluid neighbours i of boundary particle
// k; each k gathers, in the lists' fixed order, so the forces are the same for any thread count.
// Beside it, Boundary::face_force: per axis, the pairs whose fluid particle is on the open side
// of the particle's face along that axis (where every pair is, the same bits as f_k).
template <int D>
template <class Term>
void StepContext<D>::boundary_reaction(Term&& term, std::span<const Vec<D>> at) {
    if (!tracking_boundary_forces()) return;
    ReactionLists<D> l = reaction_lists();
    if (!at.empty()) l.x = at;
    const bool faces = l.face_force.size() == l.bx.size() && l.face_plane.size() == l.bx.size() &&
                       l.face_side.size() == l.bx.size();
    parallel_for(l.bx.size(), [&](std::size_t k) {
        Vec<D> f(0.0f);
        for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e) {
            const std::uint32_t i = l.fluid[e];
            const Vec<D> r = l.x[i] - l.bx[k];
            f += pair_reaction(term, i, k, r);
        }
        l.force[k] = f;
        if (!faces) return;
        l.face_force[k] = f;
        const Vec<D> plane = l.face_plane[k], side = l.face_side[k];
        bool any_cut = false;
        for (int a = 0; a < D; ++a)
            if (side[a] != 0.0f) any_cut = true;
        if (!any_cut) return;
        // A second pass, only for particles with a face: the first keeps f_k's bits untouched.
        for (int a = 0; a < D; ++a) {
            if (side[a] == 0.0f) continue;
            float g = 0.0f;
            bool cut = false;
            for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e) {
                const std::uint32_t i = l.fluid[e];
                if (side[a] * (l.x[i][a] - plane[a]) < 0.0f) {
                    cut = true;
                    continue;
                }
                const Vec<D> r = l.x[i] - l.bx[k];
                g += pair_reaction(term, i, k, r)[a];
            }
            if (cut) l.face_force[k][a] = g;
        }
    });
}

}  // namespace seiche
