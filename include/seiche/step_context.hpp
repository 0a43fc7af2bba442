// What a solver's step sees: the particles, the kernel, the step size, the statistics it fills,
// and the stages every solver shares, by name (Box2D's b2StepContext is the model). A solver's
// step() is its paper's algorithm written as a sequence of these stages around its own passes.
#pragma once

#include <span>
#include <vector>

#include "seiche/kernels.hpp"
#include "seiche/particle_set.hpp"
#include "seiche/sph.hpp"

namespace seiche {

struct StepStats;
struct StageTimes;
template <int D>
class World;

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
    StepContext(World<D>& world, float dt, StepStats& stats) : w_(world), dt_(dt), stats_(stats) {}

    float dt() const { return dt_; }
    StepStats& stats() { return stats_; }
    ParticleSet<D>& particles();
    const AnyKernel<D>& kernel() const;
    // What the SPH passes read: positions, boundary particles and the neighbour lists.
    FluidView<D> view() const;
    // One vector per particle of scratch, shared by the passes of a step (PBF's Δx, XSPH).
    std::span<Vec<D>> vector_scratch();

    // ---- the shared stages, in the order a step usually takes them ----
    // External accelerations: gravity now; surface tension and adhesion go here. The field an
    // explicit solver adds to its own forces, m/s².
    Vec<D> external_acceleration() const;
    // v += Δt·a_ext (the first line of PBF's and Clavet's algorithms).
    void apply_external_accelerations();
    // x_prev = x; x += Δt·v.
    void predict();
    // Grid, Z-curve reorder of every particle field, fluid and boundary neighbour lists.
    void find_neighbors();
    // Particle centres kept at least r inside the container and outside solids.
    void collide();
    // Last-resort containment, then v = (x − x_prev)/Δt.
    void contain_and_update_velocities();
    // XSPH viscosity and vorticity confinement, as the scene asks.
    void post_velocity();
    // ρ of the current positions (stats and frames for solvers that do not compute it).
    void compute_density();
    // Mean and max density error of particles().rho into the statistics.
    void measure_density();
    // The fluid's force on the boundary (Newton's third law on the solver's boundary term):
    // f_k = Σ_i term(i, k, |x_i − x_k|)·(x_i − x_k) over the fluid neighbours i of boundary
    // particle k, at the current positions. Does nothing unless the world tracks forces.
    bool tracking_boundary_forces() const;
    template <class Term>
    void boundary_reaction(Term&& term);
    // Runs fn and adds its wall time to one stage of World::stage_times().
    template <class Fn>
    void timed(double StageTimes::*stage, Fn&& fn);

  private:
    World<D>& w_;
    float dt_;
    StepStats& stats_;
};

}  // namespace seiche
