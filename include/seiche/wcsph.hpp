// Weakly compressible SPH: Becker & Teschner 2007 (Tait equation of state, symmetric pressure
// force, symplectic Euler), with Akinci et al. 2012 boundary particles and Monaghan 1992
// artificial viscosity.
#pragma once

#include <span>
#include <vector>

#include "seiche/world_def.hpp"
#include "seiche/sph.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

struct WcsphConstants {
    float c;      //!< speed of sound, m/s
    float B;      //!< Tait stiffness ρ0c²/γ, Pa (linear: c², m²/s²)
    float gamma;  //!< Tait exponent
    bool linear;
    bool clamp;
    float alpha;  //!< artificial viscosity
    // ω: the boundary's pressure push scaled to the fluid a flat wall stands for (the walls'
    // Akinci volumes make its density right and its push 11–13% too strong; flat_wall_push_match).
    float wall_push = 1.0f;
    bool gradient_correction = false;  //!< Bonet & Lok 1999's renormalised pressure gradient
};

WcsphConstants wcsph_constants(const WcsphParams& p, float rest_density, float speed_of_sound);

// With `gradient_correction`: each particle's L_i of the last force pass, and its entries as
// records a neighbour's pair reads (wcsph.cpp).
template <int D>
struct WcsphCorrection {
    std::vector<Mat<D>> L;
    std::vector<Float4> diagonal, off_diagonal;
};

template <int D>
struct WcsphState {
    std::vector<float> pressure;       //!< Pa
    std::vector<Vec<D>> acceleration;  //!< m/s²
    //! per particle (x, y, z, p/ρ²) and (vx, vy, vz, ρ): what the force pass reads of a
    //! neighbour, in two 16-byte loads
    std::vector<Float4> position_pressure, velocity_density;
    WcsphCorrection<D> correction;  //!< empty without `gradient_correction`
    void resize(std::size_t n) {
        pressure.resize(n);
        acceleration.resize(n);
    }
};

// Becker & Teschner 2007, eq. (6): p_i from ρ_i.
void wcsph_pressure(const WcsphConstants& c, float rest_density, std::span<const float> rho,
                    std::span<float> pressure);

// Becker & Teschner 2007, eqs. (5), (7): a_i = g − Σ_j m (p_i/ρ_i² + p_j/ρ_j²) ∇W_ij
// − Σ_k ψ_k ω (p_i + p_k)/ρ_i² ∇W_ik + viscosity (Akinci 2012 eq. 10, with the boundary
// pressure p_k = p_i + ρ_i g·(x_k − x_i) of Adami et al. 2012, eq. 27, and ω = c.wall_push).
// With c.gradient_correction the fluid pairs' ∇W_ij is (L_i + L_j)/2 ∇W_ij (equal and
// opposite: momentum is kept) and the walls' L_i ∇W_ik, L_i of gradient_correction (below).
template <int D, class K>
void wcsph_accelerations(const WcsphConstants& c, const K& kernel, const FluidView<D>& f,
                         std::span<const Vec<D>> v, std::span<const float> rho,
                         std::span<const float> pressure, const Vec<D>& gravity,
                         std::span<Vec<D>> acceleration, std::vector<Float4>& position_pressure,
                         std::vector<Float4>& velocity_density, WcsphCorrection<D>& correction);

// Bonet & Lok 1999, eq. (4.4): the pressure gradient's correction L_i from M_i = Σ_j V_j
// (x_j − x_i) ⊗ ∇W_ij: M_i⁻¹ where the neighbourhood is complete (M_i's smallest eigenvalue at
// least 0.9), I where it is not (below 0.8), blended between.
template <int D>
Mat<D> gradient_correction(const Mat<D>& M);

// The WCSPH solver; step() is Becker & Teschner 2007: density, pressure, forces, then symplectic
// Euler.
template <int D>
struct Wcsph {
    WcsphParams params;
    WcsphConstants constants{};
    WcsphState<D> state;

    Wcsph(const WcsphParams& p, const FluidConstants<D>& fluid, std::size_t particles);
    void step(StepContext<D>& c);
    std::span<const float> pressure() const { return state.pressure; }
};

}  // namespace seiche
