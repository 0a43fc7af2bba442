// The passes of the PBF solver (Macklin & Müller 2013): internal to the library, declared here
// for pbf.cpp and the micro-benchmarks (bench/), not installed.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "seiche/pbf.hpp"

namespace seiche {

// Runs the constraint iterations on the predicted positions x (in place). On return rho holds
// the density of the last λ pass (Pbf::step measures the final one in XSPH's pass over the
// pairs, StepContext::post_velocity_and_density). lambda_sum (optional, per particle): adds up the λ' of every applied correction, for the
// reaction on the boundary particles.
template <int D, class K>
PbfResult pbf_project(const PbfParams& p, const PbfConstants& c, const K& kernel,
                      const FluidView<D>& view, std::span<Vec<D>> x, std::span<float> rho,
                      PbfState<D>& state, std::span<float> lambda_sum = {},
                      std::span<const float> warm = {});

// The passes of one iteration, public for the micro-benchmarks. λ pass: density, C, S' and λ'
// (eqs. 1, 2, 6–8, 10), written with the positions it used to x_lambda (the boundary's sums
// summed at a step's first pass, kept for its later ones); Δx pass: eq. (9) with
// s_corr (eq. 13), reading the positions and λ' from x_lambda and writing the corrected and
// collided positions to x_out (adding each λ' to lambda_sum if given); density pass: ρ alone.
// `groups` (optional): only those groups of eight particles (lanes::for_each_group); `apply`
// (optional, per particle): the Δx pass moves only the particles whose byte is set; `lost`
// (optional, per particle): what the rounding of x lost of the corrections, added to the next
// one and updated (zero where a wall clamped the coordinate).
template <int D, class K>
void pbf_lambda_pass(const PbfParams& p, const PbfConstants& c, const K& kernel,
                     const FluidView<D>& f, std::span<float> rho,
                     std::span<PositionLambda> x_lambda, std::span<Float4> boundary,
                     bool first_pass = true, std::span<const float> held = {},
                     const std::vector<std::uint32_t>* groups = nullptr);
template <int D, class K>
void pbf_delta_pass(const PbfConstants& c, const K& kernel, const FluidView<D>& f,
                    std::span<const PositionLambda> x_lambda, std::span<Vec<D>> x_out,
                    std::span<Float4> boundary, std::span<float> lambda_sum = {},
                    const std::vector<std::uint32_t>* groups = nullptr,
                    const std::uint8_t* apply = nullptr, std::span<Vec<D>> lost = {});
template <int D, class K>
void pbf_density_pass(const K& kernel, const FluidView<D>& f, std::span<float> rho);

}  // namespace seiche
