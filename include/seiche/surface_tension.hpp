// Surface tension, cohesion and adhesion — Akinci, Akinci & Teschner 2013, "Versatile surface
// tension and adhesion for SPH fluids", eqs. (1)–(7): cohesion with the spline C(r), a curvature
// term from the surface normals, both symmetrised by K_ij = 2ρ0/(ρ_i + ρ_j), and adhesion to the
// boundary particles with the kernel A(r) and their ψ_k (Akinci et al. 2012). The forces of the
// paper divided by m_i: accelerations, added in the step's external-force stage.
#pragma once

#include <span>
#include <vector>

#include "seiche/forces.hpp"
#include "seiche/kernels.hpp"
#include "seiche/sph.hpp"
#include "seiche/vec.hpp"

namespace seiche {

// The two kernels of the paper for support h. In 3D exactly eq. (2), C(r) = 32/(π h⁹)·(...),
// and eq. (7), A(r) = 0.007/h^3.25·(...)^¼; in 2D the same shapes, scaled so that their integral
// over the disc of radius h equals the 3D one over the ball (the paper gives only 3D).
template <int D>
struct SurfaceKernels {
    float h = 0;
    float c_norm = 0;  //!< C(r) = c_norm · c(r/h), 1/m^D
    float a_norm = 0;  //!< A(r) = a_norm · a(r/h), 1/m^D (the paper's h^¼ folded in)

    explicit SurfaceKernels(float support);
    float cohesion(float r) const;   // C(r)
    float adhesion(float r) const;   // A(r)
};

// ∫ C dV and ∫ A dV over the support (dV: the ball in 3D, the disc in 2D), closed form for C and
// by Simpson's rule for A (no closed form: a fourth root); the 2D kernels are scaled by these.
double cohesion_integral_3d();
double adhesion_integral_3d();

// The largest acceleration adhesion gives a fluid particle per unit β, m/s²: 6.75 in 2D and 5.0
// in 3D, measured on a lone particle in a container's corner (the test
// `Adhesion.ItsStepBoundHoldsItsLargestPull`), rounded up. Independent of r: ψ_k scales as r^D
// and A as 1/r^D. It bounds the step and sets the speed guard as 130·γ does for cohesion.
inline constexpr double adhesion_acceleration_per_beta = 7.0;

// The surface tension the cohesion's bonds give a 2D fluid at rest density ρ0 (kg/m³) for a
// surface-tension γ and support h (m): cutting it along a line breaks the pairs across it, at
// the pair potential U(r) = −γ m² ∫_r^h C, so σ_b = −n² ∫ U r² dr = γ ρ0² ∫_0^h C(r) r³ dr / 3
// (n = 1/d², m = ρ0 d²). N/m, as σ_eff in 2D.
double bond_surface_tension_2d(double gamma, float h, double rho0);
// The same in 3D: a plane cut breaks the pairs across it, σ_b = −(π/2) n² ∫ U r³ dr
// = (π/8) γ ρ0² ∫_0^h C(r) r⁴ dr (n = 1/d³, m = ρ0 d³). N/m.
double bond_surface_tension_3d(double gamma, float h, double rho0);

// The accelerations of the three forces on every fluid particle:
//   a_i = Σ_j K_ij (−γ) (m C(|x_ij|) x̂_ij + (n_i − n_j)) − Σ_k β_k ψ_k A(|x_ik|) x̂_ik
// with n_i = h Σ_j (m/ρ_j) ∇W_ij (eq. 4) over the fluid neighbours. `adhesion` holds β_k ψ_k per
// boundary particle (kg; empty: no adhesion). `x_rho` and `normal` hold one record per particle
// (used only with γ > 0): x_rho is scratch (x_i, ρ_i), normal returns n_i in x, y, z.
template <int D, class K>
void surface_accelerations(const FluidView<D>& f, const K& kernel, const SurfaceKernels<D>& sk,
                           float gamma, std::span<const float> adhesion, std::span<const float> rho,
                           std::span<Float4> x_rho, std::span<Float4> normal,
                           std::span<Vec<D>> acceleration);

// Surface tension (γ = solver.surface_tension) and adhesion (each boundary object's β) as a force
// of the list: accelerations at the current neighbour lists and densities. With the world
// tracking boundary forces, the adhesion's reaction on every boundary particle, N.
template <int D>
struct SurfaceTension {
    static constexpr ForceTraits traits{"surface_tension", "Akinci, Akinci & Teschner 2013, eqs. 1–7",
                                        ForceStage::non_pressure};
    static std::span<const Param<WorldDef>> keys();  // solver.surface_tension

    SurfaceKernels<D> kernels;                  //!< C(r), A(r) for the support h (set once)
    std::vector<Vec<D>> acceleration;           //!< per fluid particle
    std::vector<Float4> x_rho, normal;          //!< per fluid particle, with γ > 0
    std::vector<float> adhesion_weight;         //!< β_k ψ_k per boundary particle, kg
    std::vector<Vec<D>> boundary_force;         //!< of the adhesion on each boundary particle, N

    explicit SurfaceTension(const FluidConstants<D>& fluid);
    void apply(StepContext<D>& c, ForceStageArgs& args);
};

}  // namespace seiche
