// Position Based Fluids: Macklin & Müller 2013, with the boundary terms and the unilateral
// constraint of Bender & Fernández 2019 (eqs. 7–10).
#pragma once

#include <span>
#include <vector>

#include "seiche/world_def.hpp"
#include "seiche/sph.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

// A particle's position (m; z = 0 in 2D) and, in w, its Lagrange multiplier λ'_i = λ_i / m (m²)
// side by side in 16 aligned bytes: the Δx pass reads both for a neighbour with one load.
using PositionLambda = Float4;

// Scratch of the PBF solver, sized to the fluid particle count.
template <int D>
struct PbfState {
    std::vector<PositionLambda> x_lambda;  //!< the positions of the last λ pass and their λ'
    //! Σ_k V_k ∇W_ik (x, y, z) and Σ_k V_k W_ik (w) of the boundary particles, summed at the
    //! step's first λ pass, w carried along each correction to first order
    std::vector<Float4> boundary;
    //! Σ λ' over the step's corrections (boundary forces, warm start)
    std::vector<float> lambda_sum;
    //! The positions of the step's first λ pass, where the walls' Σ_k V_k ∇W_ik was taken for
    //! the whole step: the walls' reaction is summed there (kept while boundary forces are
    //! tracked, else empty)
    std::vector<Vec<D>> wall_push_at;
    //! The step's StepContext::leftover_share, and each particle's density error at the step's
    //! start, within the tolerance whole and 1 − share of its excess: the part of C this step
    //! leaves (empty at share 1)
    float share = 1.0f;
    std::vector<float> held;
    std::vector<float> start_rho;  //!< ρ of x_n after the pre-stabilisation (Pbf::step)
    std::vector<float> warm;  //!< λ' joined to each particle's first correction (warm start)
    //! What the rounding of x lost of the step's corrections (pbf_delta_pass); Pbf::step adds
    //! it to the velocity
    std::vector<Vec<D>> lost;
    //! The peak correction's flags per particle (above the peak tolerance; it or a neighbour
    //! is; it or a neighbour moves) and the groups of eight holding a moving / measured one
    std::vector<std::uint8_t> seed, moving, measured;
    std::vector<std::uint32_t> moving_groups, measured_groups;
    std::vector<std::uint8_t> group_flag;  //!< per group of eight: it holds a flagged particle
    std::vector<float> chunk_max;          //!< the largest error of each chunk of measured groups
    void resize(std::size_t n) {
        x_lambda.resize(n);
        boundary.resize(n);
    }
};

// Values derived once from the parameters and the rest lattice, in the solver's units.
struct PbfConstants {
    float epsilon;       //!< relaxation ε added to S'_i, 1/m²
    float omega;         //!< over-relaxation ω of each Jacobi correction
    float s_corr_scale;  //!< k / S'_rest, m² (0 when the tensile correction is off)
    float s_corr_n;
    int s_corr_power = 0;  //!< s_corr_n when it is a whole number (products, not pow), else 0
    float s_corr_w_dq;  //!< W(|Δq|), 1/m^D
};

struct PbfResult {
    int iterations = 0;             //!< position corrections applied
    double density_error_mean = 0;  //!< of the last λ pass (the convergence test)
    double density_error_max = 0;
    int peak_iterations = 0;  //!< of the peak correction (solver.pbf.peak_tolerance)
    //! Stopped at max_iterations above the tolerance, or the peak tolerance (StepStats).
    bool capped = false;
    bool capped_peak = false;  //!< the peak tolerance's (StepStats::capped_peak)
};

template <int D, class K>
PbfConstants pbf_constants(const PbfParams& p, const K& kernel, float mass, float rest_density,
                           float spacing);

// The PBF solver: its parameters, the constants derived from them and its scratch. step() is
// Macklin & Müller 2013, Algorithm 1.
template <int D>
struct Pbf {
    PbfParams params;
    PbfConstants constants{};
    PbfState<D> state;

    Pbf(const PbfParams& p, const FluidConstants<D>& fluid, std::size_t particles);
    void step(StepContext<D>& c);

  private:
    // state.held: each particle's error at the step's start (ρ start_rho), within the
    // tolerance whole and 1 − share of its excess (empty at share 1).
    void hold_leftover(StepContext<D>& c, float share, std::span<const float> start_rho);
    // The start's error corrected on x_n, x* moved with it (pre-stabilisation); state.start_rho
    // the densities of the new x_n.
    void stabilise_start(StepContext<D>& c);
};

// Mean and max of max(0, ρ/ρ0 − 1 − held) (held: none when empty), the sum exact in fixed point
// (2^-32 per particle): the same bits for any storage order, thread count or split. With
// processes, over every process's own particles (halo copies left out).
void density_error_stats(std::span<const float> rho, float rest_density, double& mean, double& max,
                         Processes* processes = nullptr, std::span<const float> held = {});

}  // namespace seiche
