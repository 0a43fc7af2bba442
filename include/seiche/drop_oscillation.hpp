// An oscillating drop (Rayleigh 1879; Lamb 1932, sec. 275): in zero gravity a round drop of
// radius R kicked into its l = 2 mode oscillates with ω² = 6σ/(ρR³) (2D) or 8σ/(ρR³) (3D). The
// period of its deformation gives the surface tension σ_eff (N/m) that a surface-tension γ
// produces; its decay, an equivalent kinematic viscosity. Used by `seiche validate
// surface_tension` and the tests.
#pragma once

#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "seiche/world_def.hpp"

namespace seiche {

struct DropOscillation {
    double radius = NAN;  //!< R of the drop's volume, m
    double period = NAN;  //!< s, from up to 8 half periods between extrema of the deformation
    double sigma = NAN;   //!< σ_eff = ω²ρR³/6 (2D) or /8 (3D), N/m
    double decay = NAN;   //!< 1/τ of the swings' amplitude, 1/s
    // The same from a damped sinusoid fitted to the deformation from the kick to its
    // DropFluid::fit_extremum-th extremum (fit_damped_sine): the reading for a drop that rings
    // about round from the kick on (the Wendland kernel's; docs/solvers.md). NAN as the extrema's are.
    double fitted_period = NAN;  //!< s
    double fitted_sigma = NAN;   //!< N/m
    double fitted_decay = NAN;   //!< 1/s
    int half_periods = 0;  //!< extrema of the deformation over the whole run, less one
    std::vector<std::pair<double, double>> signal;  //!< (t after the kick, (I_xx − I_yy)/(I_xx + I_yy))
};

// A drop of R ≈ drop_radius (5 cm) at particle radius r (m) and surface tension γ in a box of
// 6R (0.3 m at least), relaxed round for 0.5 s/√γ, kicked with v = A(x, −y) (3D: A(x, −y/2,
// −z/2)), A = kick·√γ 1/s, and followed for 2 s/√γ, sampled every 2 ms/√γ: every time of the
// protocol is in the surface forces' own time scale, as the step is (World::suggested_dt), so the
// same start moves the same way at every γ. A drop of another size relaxes and is followed
// (R/5 cm)^1.5 times as long: its capillary period's scale. seed ≠ 0 moves every starting site by
// up to ±1 µm at random (a generator seeded with it): a drop's period depends on the packing it
// relaxes to, and an ensemble of such starts gives its spread. Throws std::runtime_error when the
// solver goes unstable, and std::invalid_argument for a drop smaller than 5 particle radii.
//
// `fluid` picks the drop's kernel and support, and stretches the protocol's relaxation and the
// time followed by `time_factor`: a drop whose σ_eff is k times smaller rings √k times slower
// (the Wendland kernel at support_factor 5: 3, docs/solvers.md).
struct DropFluid {
    KernelType kernel = KernelType::cubic_spline;
    double support_factor = 4.0;
    double time_factor = 1.0;
    // The speed of sound of the solvers that resolve it (WCSPH, DDR), m/s; 0: automatic.
    double speed_of_sound = 0.0;
    // The fitted sinusoid runs from the kick to this extremum of the deformation (4: about 1.75
    // periods; fewer when the drop swings fewer times). A 2D drop's later swings are chaotic, so
    // its fit stops early; a 3D drop rings cleanly for ten half periods, and a longer window
    // averages out its first swing's transient (6: the calibration, docs/solvers.md). At least 2.
    int fit_extremum = 4;
};

// The damped sinusoid s(t) ≈ c + e^{−λt}(a sin ωt + b cos ωt) nearest a signal (t, s) in least
// squares: ω and λ by a grid over ω in [0.6, 1.6]·omega0 and λ in [−0.2, 0.6]·omega0 refined
// three times, (c, a, b) linear for each. Throws std::invalid_argument for fewer than 8 samples, a
// sample that is not finite, or a guess that is not positive.
struct DampedSine {
    double omega = NAN;  //!< 1/s
    double decay = NAN;  //!< λ, 1/s
    double residual = NAN;
};
DampedSine fit_damped_sine(std::span<const std::pair<double, double>> signal, double omega0);

template <int D>
DropOscillation oscillating_drop(SolverType solver, double gamma, double r, double kick = 0.3,
                                 unsigned seed = 0, double drop_radius = 0.05,
                                 const DropFluid& fluid = {});

}  // namespace seiche
