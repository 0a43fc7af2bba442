// The first instants of a dam break (the small-time problem of Korobkin & Yilmaz 2009, "The
// initial stages of dam-break flow", J. Eng. Math. 63: the leading order of the pressure of a
// column released at once is harmonic). A record's gauge in the reservoir, far from the front and
// from every wall it runs along, tells when the water began to move, and so where the record's
// clock stands against the release. Used by `seiche validate spheric` and `lobovsky` and the tests.
#pragma once

#include <span>
#include <utility>

namespace seiche {

// The downward acceleration (m/s²) at t = 0+ of the free surface of a 2D column of depth H (m) and
// length L (m), at rest on a floor against a back wall and released at once along its other
// face, at `distance` (m) from that face: with p = ρg(H − y) + p', p' harmonic, zero on the free
// surface, −ρg(H − y) on the released face and without flux through the floor and the back wall,
//   a0 = Σ_n (2g / (H k_n)) (−1)^(n+1) cosh(k_n (L − x)) / cosh(k_n L),  k_n = (2n − 1)π / (2H).
// It is g at the face's top corner (x → 0, free fall) and (4g/π) e^(−πx/(2H)) far from it.
// Throws std::invalid_argument unless H, L, g > 0 and 0 < distance ≤ L.
double dam_break_surface_acceleration(double depth, double length, double distance, double g);

struct DamBreakStart {
    double offset = 0;  //!< τ, s: the water moved as if released at t = −τ
    double level = 0;   //!< h0, m: the depth before the release
    double rms = 0;     //!< m: the samples' RMS distance from the fitted law
    int samples = 0;    //!< samples with 0 ≤ t ≤ t_end
};

// Fits h(t) = h0 − ½ a0 max(t + τ, 0)² to the samples (t, h) (s, m) with 0 ≤ t ≤ t_end (least
// squares; τ within ±t_end to 0.1 ms, h0 for each τ exactly): the law of a gauge's first fall
// (a0 from dam_break_surface_acceleration) with the release τ before the record's t = 0.
// The law is the leading order in t, so t_end stays well short of √(H/g). Throws
// std::invalid_argument for fewer than 5 samples in the window, a non-finite sample, a0 ≤ 0 or
// t_end ≤ 0.
DamBreakStart fit_dam_break_start(std::span<const std::pair<double, double>> samples, double a0,
                                  double t_end);

}  // namespace seiche
