// Velocity-level effects applied after the solver: XSPH viscosity and vorticity confinement.
#pragma once

#include <span>
#include <type_traits>
#include <vector>

#include "seiche/kernels.hpp"
#include "seiche/sph.hpp"

namespace seiche {

// XSPH (Schechter & Bridson 2012, eq. 8; Macklin & Müller 2013, eq. 17):
// v_i ← v_i + c Σ_j (m/ρ_j)(v_j − v_i) W_ij. Reads v, writes v_out (distinct arrays). records:
// one per particle of scratch (the pass first writes each particle's velocity and 1/ρ there, so
// a pair fetches both with one load; allocated here when empty).
template <int D, class K>
void xsph_viscosity(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
                    std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                    std::span<Float4> records = {});
// The same, and in the same pass ρ of the current positions into rho_out (as compute_density;
// distinct from rho, which XSPH reads for the neighbours' weights).
template <int D, class K>
void xsph_viscosity_and_density(const FluidView<D>& f, const K& kernel, float c,
                                std::span<const float> rho, std::span<const Vec<D>> v,
                                std::span<Vec<D>> v_out, std::span<float> rho_out,
                                std::span<Float4> records = {});

// Vorticity: a vector in 3D, the scalar z component in 2D.
template <int D>
using Vorticity = std::conditional_t<D == 3, Vec<3>, float>;

// Vorticity confinement (Fedkiw et al. 2001; Macklin & Müller 2013, eqs. 15–16):
// ω_i = Σ_j V_j (v_i − v_j) × ∇_i W_ij, η = ∇|ω|, N = η/|η|, v_i += Δt ε (N × ω_i).
// epsilon in m/s (ε·ω is an acceleration). omega is scratch of the particle count.
template <int D, class K>
void vorticity_confinement(const FluidView<D>& f, const K& kernel, float epsilon, float dt,
                           std::span<const float> rho, std::span<Vec<D>> v,
                           std::vector<Vorticity<D>>& omega);

}  // namespace seiche
