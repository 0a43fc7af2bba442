// Divergence-free SPH: Bender & Koschier 2015 ("Divergence-free smoothed particle hydrodynamics")
// and 2017 ("Divergence-free SPH for incompressible and viscous fluids"), eqs. (8)–(18) and
// Algorithms 1–3, with Akinci et al. 2012 boundary particles.
#pragma once

#include <span>
#include <vector>

#include "seiche/world_def.hpp"
#include "seiche/sph.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

// Scratch of the DFSPH solver, sized to the fluid particle count. Units: with ρ̂ = ρ/ρ0 and
// V = m/ρ0, a solve's stiffness κ̂_i (m²/s²) moves velocities by
// Δv_i = −Δt [Σ_j V (κ̂_i + κ̂_j) ∇W_ij + Σ_k V_k (κ̂_i + κ̂_k) ∇W_ik]; κ̂ = κρ0 of the papers'
// κ = p/ρ², κ̂_k the boundary's, extrapolated from the fluid (src/solvers/dfsph.cpp).
template <int D>
struct DfsphState {
    std::vector<float> factor;  //!< 1/S_i (α_i/ρ_i of eq. 11 in these units), m²
    std::vector<float> source;  //!< s_i of the running solve: the error v* would leave
    //! the pressure acceleration of the current κ̂ (x, y, z, 0), m/s²: 16-byte records that the
    //! update pass loads whole
    std::vector<Float4> acceleration;
    //! each particle's position and κ̂ of the running solve, (x, y, z, κ̂): the acceleration
    //! pass reads a neighbour's with one load
    std::vector<Float4> records;
    std::vector<float> error;  //!< ρ0(1 + the error left, ≥ 0): its mean is the solve's error
    std::vector<float> pressure;  //!< of the step's two solves, Pa
    std::vector<Vec<D>> boundary_velocity;  //!< of moving boundary particles, m/s
    //! Σ_k V_k ∇W_ik over the boundary neighbours, m²: the positions are the step's in both
    //! solves, so every boundary term of their iterations is this times κ̂_i, a_i or v_i
    std::vector<Vec<D>> boundary_gradient;
    //! κ̂Δt² of the last step's solves (their warm starts; ParticleSet::carried holds them
    //! between steps), and κ̂ of this step's, m²/s²: constant density, divergence.
    std::vector<float> warm_density, warm_divergence, kappa_density, kappa_divergence;
    //! The boundary's κ̂_k, extrapolated from the fluid's, times its volume V_k (the Shepard
    //! weights, β V_k W_ik / Σ_i W_ik, one per boundary–fluid pair in the reaction lists' order):
    //! each solve's, then their sum, m⁵/s² (m³/s² in 2D)
    std::vector<float> boundary_weight, boundary_vkappa_density, boundary_vkappa_divergence,
        boundary_vkappa;
    //! The Chebyshev semi-iteration's κ̂_{k−1} and κ̂_k, m²/s²
    std::vector<float> kappa_before, kappa_now;
    //! per chunk of particles, how many are at a free surface (has_free_surface)
    std::vector<std::int64_t> counts;
    void resize(std::size_t n) {
        for (auto* a : {&factor, &source, &error, &pressure, &warm_density, &warm_divergence,
                        &kappa_density, &kappa_divergence, &kappa_before, &kappa_now})
            a->resize(n);
        acceleration.resize(n);
        records.resize(n);
        boundary_gradient.resize(n);
    }
};

// Iterations and the last measured error of one solve.
struct DfsphSolve {
    int iterations = 0;
    bool capped = false;  //!< stopped at its max_iterations above its tolerance
    //! ended above its tolerance at more than diverged_growth times the lowest mean error it
    //! reached: its iterations drove the error up (StepStats::diverged)
    bool diverged = false;
    double error_mean = 0, error_max = 0;
};

// The DFSPH solver. step() is Bender & Koschier 2017, Algorithm 1, with the divergence solve
// (Algorithm 2) at the start of the step, on the positions it ends with (as SPlisHSPlasH orders
// it), and the constant-density solve (Algorithm 3) after the non-pressure forces.
template <int D>
struct Dfsph {
    DfsphParams params;
    //! β of the boundary's κ̂_k = β × the fluid's Shepard mean: 2ω − 1 (ω of
    //! flat_wall_push_match), so that under a uniform κ̂ a flat wall of Akinci volumes pushes,
    //! (1 + β) κ̂ Σ_k V_k ∇W_ik, as the fluid it stands for would, 2κ̂ Σ_j V ∇W_ij
    float mirror_share;
    DfsphState<D> state;
    DfsphSolve last_density, last_divergence;

    Dfsph(const DfsphParams& p, const FluidConstants<D>& fluid, std::size_t particles);
    void step(StepContext<D>& c);
    std::span<const float> pressure() const { return state.pressure; }
};

}  // namespace seiche
