// Weakly compressible SPH — Becker & Teschner 2007, eqs. (5)–(7) and (10); boundary pressure of
// Akinci et al. 2012, eq. (10), the boundary particle's pressure taken from the fluid particle's
// with the hydrostatic step between them (Adami et al. 2012, eq. 27, pair by pair) and the push
// matched to the fluid a flat wall stands for; artificial viscosity of Monaghan 1992, eq. (4.1)
// (Becker & Teschner eq. 11).
#include "seiche/wcsph.hpp"

#include "seiche/parameters.hpp"

#include <algorithm>
#include <cmath>

#include "../neighbors/pair_lanes.hpp"
#include "density_lanes.hpp"
#include "seiche/boundary.hpp"
#include "seiche/parallel.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

WcsphConstants wcsph_constants(const WcsphParams& p, float rest_density, float c) {
    WcsphConstants k;
    k.c = c;
    k.linear = p.eos == WcsphParams::Eos::linear;
    k.gamma = static_cast<float>(p.gamma);
    k.B = k.linear ? c * c : static_cast<float>(rest_density * double(c) * c / p.gamma);
    k.clamp = p.clamp_pressure;
    k.alpha = static_cast<float>(p.viscosity);
    k.gradient_correction = p.gradient_correction;
    return k;
}

void wcsph_pressure(const WcsphConstants& c, float rest_density, std::span<const float> rho,
                    std::span<float> pressure) {
    parallel_for(rho.size(), [&](std::size_t i) {
        float p = c.linear ? c.B * (rho[i] - rest_density)
                           : c.B * (std::pow(rho[i] / rest_density, c.gamma) - 1.0f);
        if (c.clamp) p = std::max(p, 0.0f);
        pressure[i] = p;
    });
}

namespace {

// The smallest eigenvalue of a symmetric matrix (3×3: the trigonometric solution of its
// characteristic cubic).
template <int D>
float smallest_eigenvalue(const Mat<D>& M) {
    if constexpr (D == 2) {
        const double t = 0.5 * (M[0][0] + M[1][1]), d = 0.5 * (M[0][0] - M[1][1]);
        return float(t - std::sqrt(d * d + double(M[0][1]) * M[0][1]));
    } else {
        const double a = M[0][0], b = M[1][1], c = M[2][2];
        const double p1 = double(M[0][1]) * M[0][1] + double(M[0][2]) * M[0][2] +
                          double(M[1][2]) * M[1][2];
        const double q = (a + b + c) / 3;
        const double p2 = (a - q) * (a - q) + (b - q) * (b - q) + (c - q) * (c - q) + 2 * p1;
        const double p = std::sqrt(p2 / 6);
        if (p < 1e-12) return float(q);
        const glm::dmat3 B = (glm::dmat3(M) - q * glm::dmat3(1.0)) / p;
        const double r = std::clamp(glm::determinant(B) / 2, -1.0, 1.0);
        const double phi = std::acos(r) / 3;
        return float(q + 2 * p * std::cos(phi + 2.0943951023931957));  // + 2π/3
    }
}

}  // namespace

// Bonet & Lok 1999, eq. (4.4) (Randles & Libersky 1996): the gradient renormalised by
// L_i = M_i⁻¹, M_i = Σ_j V_j (x_j − x_i) ⊗ ∇W_ij (the walls' particles with ω V_k, as they
// push), which makes the gradient of a linear field exact. On the packing a settled tank
// takes, M_i ≈ 0.986 I: the uncorrected force is that much short and the pressure's slope that
// much steep. Where a particle's neighbourhood is incomplete (the free surface: M_i's smallest
// eigenvalue falls towards 0.5) M_i⁻¹ would multiply the surface's push; there the correction
// blends back to I, whole below 0.8 and none above 0.9.
template <int D>
Mat<D> gradient_correction(const Mat<D>& M) {
    // The blend needs the smallest eigenvalue only between 0.8 and 0.9. Gershgorin's discs bound
    // it from below and the smallest diagonal entry from above, which settles the bulk (w = 1)
    // and the thin surface (w = 0) without the cubic's acos and cos; the margins keep float's
    // rounding of the bounds from ever deciding, so the result is the cubic's, bit for bit.
    float lower = M[0][0], upper = M[0][0];
    for (int a = 0; a < D; ++a) {
        float radius = 0.0f;
        for (int b = 0; b < D; ++b)
            if (b != a) radius += std::abs(M[a][b]);
        lower = std::min(lower, M[a][a] - radius);
        upper = std::min(upper, M[a][a]);
    }
    const float lambda = lower >= 0.91f   ? lower
                         : upper <= 0.79f ? upper
                                          : smallest_eigenvalue<D>(M);
    const float w = std::clamp((lambda - 0.8f) / 0.1f, 0.0f, 1.0f);
    if (w == 0.0f) return Mat<D>(1.0f);
    return (1.0f - w) * Mat<D>(1.0f) + w * glm::inverse(M);
}

namespace {

// L_i of every particle (Bonet & Lok 1999, eq. 4.4), into `correction` and, for the force
// pass's neighbours, into records of its upper triangle: (xx, xy, yy, ·) in 2D; (xx, yy, zz, ·)
// and (xy, xz, yz, ·) in 3D.
template <int D, class K>
void correction_pass(const WcsphConstants& c, const K& kernel, const FluidView<D>& f,
                     const float* xp, const float* vrho, Mat<D>* correction, Float4* diagonal,
                     Float4* off_diagonal) {
    using namespace lanes;
    const Vec<D>* x = f.x.data();
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    const float mass = f.mass;
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        F mxx{}, myy{}, mzz{}, mxy{}, mxz{}, myz{};
        const auto add = [&](const F& m, const Separation& r) {
            mxx += m * r.x * r.x;
            myy += m * r.y * r.y;
            mxy += m * r.x * r.y;
            if constexpr (D == 3) {
                mzz += m * r.z * r.z;
                mxz += m * r.x * r.z;
                myz += m * r.y * r.z;
            }
        };
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 xj = fetch_points4(xp, j);
            const Separation r = separation<D>(xi, Points<D>{xj.x, xj.y, xj.z});
            const F rho_j = fetch_points4(vrho, j).w;
            // (x_j − x_i) ⊗ ∇W_ij = −(dW/dr / r) r ⊗ r, r = x_i − x_j
            add(keep(nb.active(k), -mass / rho_j * grad_factor(kernel, r)), r);
        }
        const Lists bn(f.boundary_nb, i0, n);
        for (int k = 0; k < bn.longest(); ++k) {
            Index b[width];
            bn.fetch(k, b);
            const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
            add(keep(bn.active(k), -c.wall_push * fetch(bv, b) * grad_factor(kernel, r)), r);
        }
        for (int l = 0; l < n; ++l) {
            Mat<D> M;  // symmetric
            if constexpr (D == 2)
                M = Mat<D>(mxx[l], mxy[l], mxy[l], myy[l]);
            else
                M = Mat<D>(mxx[l], mxy[l], mxz[l], mxy[l], myy[l], myz[l], mxz[l], myz[l], mzz[l]);
            const Mat<D> L = gradient_correction<D>(M);
            correction[i0 + l] = L;
            if constexpr (D == 2) {
                diagonal[i0 + l] = Float4{L[0][0], 0.5f * (L[0][1] + L[1][0]), L[1][1], 0.0f};
            } else {
                diagonal[i0 + l] = Float4{L[0][0], L[1][1], L[2][2], 0.0f};
                off_diagonal[i0 + l] = Float4{0.5f * (L[0][1] + L[1][0]),
                                              0.5f * (L[0][2] + L[2][0]),
                                              0.5f * (L[1][2] + L[2][1]), 0.0f};
            }
        }
    });
}

// Becker & Teschner's forces, uncorrected (Correct false: the bits they always had), or with
// the fluid pairs' gradient (L_i + L_j)/2 ∇W_ij, equal and opposite for the pair, and the walls'
// L_i ∇W_ik (the reaction takes the same, Wcsph::step).
template <bool Correct, int D, class K>
void accelerations(const WcsphConstants& c, const K& kernel, const FluidView<D>& f,
                   std::span<const Vec<D>> v, std::span<const float> rho,
                   std::span<const float> pressure, const Vec<D>& gravity,
                   std::span<Vec<D>> acceleration, const float* xp, const float* vrho,
                   const Mat<D>* correction, const float* diagonal, const float* off_diagonal) {
    using namespace lanes;
    const float h = kernel.support();
    const float eta2 = 0.01f * h * h;  // keeps Π finite for close pairs (Monaghan 1992)
    const float visc = 2.0f * c.alpha * h * c.c, mass = f.mass;
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    const float* p = pressure.data();
    const float* density = rho.data();
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        const Points<D> vi = load_points<D>(vel, i0, n);
        // Lanes past the end: density 1, so that p/ρ² stays finite; their sums are not stored.
        const F rho_i = select(iota() < n, load(density + i0, n), splat(1.0f));
        const F pi = load(p + i0, n) / (rho_i * rho_i);
        // a: the pressure and viscosity (one sum, as it always was); corrected, a the fluid
        // pairs' pressure along r (for L_i), b the same along L_j r, w the walls' (for L_i).
        F a0{}, a1{}, a2{};
        F b0{}, b1{}, b2{};
        F w0{}, w1{}, w2{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 xj = fetch_points4(xp, j);  // x_j, p_j/ρ_j²
            const Separation r = separation<D>(xi, Points<D>{xj.x, xj.y, xj.z});
            const Points4 vj = fetch_points4(vrho, j);  // v_j, ρ_j
            const F rho_j = vj.w;
            // Artificial viscosity acts only on approaching pairs.
            const F vr = (vi.x - vj.x) * r.x + (vi.y - vj.y) * r.y + (vi.z - vj.z) * r.z;
            const F pi_ij = keep(vr < 0.0f, -visc / (rho_i + rho_j) * vr / (r.len2 + eta2));
            if constexpr (Correct) {
                const F gf = keep(nb.active(k), grad_factor(kernel, r));
                const F s = mass * (pi + xj.w) * gf, sv = mass * pi_ij * gf;
                a0 -= s * r.x;
                a1 -= s * r.y;
                a2 -= s * r.z;
                w0 -= sv * r.x;  // the viscosity, uncorrected, with the walls' sum
                w1 -= sv * r.y;
                w2 -= sv * r.z;
                const Points4 d = fetch_points4(diagonal, j);
                if constexpr (D == 2) {  // (xx, xy, yy)
                    b0 -= s * (d.x * r.x + d.y * r.y);
                    b1 -= s * (d.y * r.x + d.z * r.y);
                } else {
                    const Points4 o = fetch_points4(off_diagonal, j);  // (xy, xz, yz)
                    b0 -= s * (d.x * r.x + o.x * r.y + o.y * r.z);
                    b1 -= s * (o.x * r.x + d.y * r.y + o.z * r.z);
                    b2 -= s * (o.y * r.x + o.z * r.y + d.z * r.z);
                }
            } else {
                const F s = keep(nb.active(k),
                                 mass * (pi + xj.w + pi_ij) * grad_factor(kernel, r));
                a0 -= s * r.x;
                a1 -= s * r.y;
                a2 -= s * r.z;
            }
        }
        // The boundary particle's pressure p_k = p_i + ρ_i g·(x_k − x_i): the wall stands for
        // fluid continued through it, whose pressure grows with the depth. (With p_k = p_i, the
        // mirrored pressure, a wall held the fluid 0.15 r off and buoyancy came out 15% high.)
        const F p_raw = load(p + i0, n);
        const F push = f.rest_density * c.wall_push / (rho_i * rho_i);
        const float gx = gravity[0], gy = gravity[1], gz = D == 3 ? gravity[D - 1] : 0.0f;
        F c0{}, c1{}, c2{};  // corrected: the walls' pressure, for L_i
        const Lists bn(f.boundary_nb, i0, n);
        for (int k = 0; k < bn.longest(); ++k) {
            Index b[width];
            bn.fetch(k, b);
            const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
            // r = x_i − x_k, so g·(x_k − x_i) = −g·r.
            F pk = p_raw - rho_i * (gx * r.x + gy * r.y + gz * r.z);
            if (c.clamp) pk = select(pk > 0.0f, pk, splat(0.0f));
            const F s = keep(bn.active(k),
                             push * (p_raw + pk) * fetch(bv, b) * grad_factor(kernel, r));
            if constexpr (Correct) {
                c0 -= s * r.x;
                c1 -= s * r.y;
                c2 -= s * r.z;
            } else {
                a0 -= s * r.x;
                a1 -= s * r.y;
                a2 -= s * r.z;
            }
        }
        for (int l = 0; l < n; ++l) {
            Vec<D> a;
            a.x = a0[l];
            a.y = a1[l];
            if constexpr (D == 3) a.z = a2[l];
            if constexpr (Correct) {
                Vec<D> fluid_j, walls, viscous;
                fluid_j.x = b0[l], walls.x = c0[l], viscous.x = w0[l];
                fluid_j.y = b1[l], walls.y = c1[l], viscous.y = w1[l];
                if constexpr (D == 3) fluid_j.z = b2[l], walls.z = c2[l], viscous.z = w2[l];
                const Mat<D>& L = correction[i0 + l];
                a = 0.5f * (L * a + fluid_j) + L * walls + viscous;
            }
            acceleration[i0 + l] = gravity + a;
        }
    });
}

}  // namespace

template <int D, class K>
void wcsph_accelerations(const WcsphConstants& c, const K& kernel, const FluidView<D>& f,
                         std::span<const Vec<D>> v, std::span<const float> rho,
                         std::span<const float> pressure, const Vec<D>& gravity,
                         std::span<Vec<D>> acceleration, std::vector<Float4>& position_pressure,
                         std::vector<Float4>& velocity_density, WcsphCorrection<D>& correction) {
    // What a neighbour's pair reads, packed per particle once: (x, p/ρ²) and (v, ρ), two
    // aligned 16-byte loads instead of two 12-byte ones and two lone floats.
    lanes::point_records<D>(f.x, position_pressure,
                            [&](std::size_t i) { return pressure[i] / (rho[i] * rho[i]); });
    lanes::point_records<D>(v, velocity_density, [&](std::size_t i) { return rho[i]; });
    const float* xp = reinterpret_cast<const float*>(position_pressure.data());
    const float* vrho = reinterpret_cast<const float*>(velocity_density.data());
    if (!c.gradient_correction) {
        accelerations<false, D>(c, kernel, f, v, rho, pressure, gravity, acceleration, xp, vrho,
                                nullptr, nullptr, nullptr);
        return;
    }
    const std::size_t n = f.x.size();
    correction.L.resize(n);
    correction.diagonal.resize(n);
    correction.off_diagonal.resize(D == 3 ? n : 0);
    correction_pass<D>(c, kernel, f, xp, vrho, correction.L.data(), correction.diagonal.data(),
                       correction.off_diagonal.data());
    refresh_halo(f.processes, std::span<Mat<D>>(correction.L));
    refresh_halo(f.processes, std::span<Float4>(correction.diagonal));
    if constexpr (D == 3) refresh_halo(f.processes, std::span<Float4>(correction.off_diagonal));
    accelerations<true, D>(c, kernel, f, v, rho, pressure, gravity, acceleration, xp, vrho,
                           correction.L.data(),
                           reinterpret_cast<const float*>(correction.diagonal.data()),
                           reinterpret_cast<const float*>(correction.off_diagonal.data()));
}

template <int D>
Wcsph<D>::Wcsph(const WcsphParams& p, const FluidConstants<D>& fluid, std::size_t particles)
    : params(p), constants(wcsph_constants(p, fluid.rest_density, fluid.speed_of_sound)) {
    constants.wall_push = flat_wall_push_match<D>(
        fluid.kernel, fluid.spacing, WallSampling::for_kernel(fluid.kernel_type, fluid.spacing));
    state.resize(particles);
}

// Becker & Teschner 2007: density, pressure, forces, then symplectic Euler.
template <int D>
void Wcsph<D>::step(StepContext<D>& c) {
    c.find_neighbors();
    ParticleSet<D>& p = c.particles();
    const FluidView<D> f = c.view();
    c.timed(&StageTimes::solver, [&] {
        std::visit(
            [&](const auto& k) {
                compute_density<D>(f, k, p.rho);                                   // eq. (1)
                refresh_halo(f.processes, std::span<float>(p.rho));
                wcsph_pressure(constants, f.rest_density, p.rho, state.pressure);  // eq. (6)
                wcsph_accelerations<D>(constants, k, f, p.v, p.rho, state.pressure,
                                       c.external_acceleration(), state.acceleration,
                                       state.position_pressure, state.velocity_density,
                                       state.correction);
                refresh_halo(f.processes, std::span<Vec<D>>(state.acceleration));
            },
            c.kernel());
    });
    c.apply_non_pressure_forces(false);  // surface tension, adhesion: v += Δt·a now, as the forces below
    if (c.tracking_boundary_forces()) {
        // Akinci et al. 2012, eq. (10): the boundary particle feels the opposite of the pressure
        // force it exerts, f_k = −f_ik = m ψ_k ω (p_i + p_k)/ρ_i² ∇W_ik with ψ_k = ρ0 V_k (the
        // term of wcsph_accelerations; the boundary has no viscosity term).
        const float* pressure = state.pressure.data();
        const float* rho = p.rho.data();
        const float* volume = f.bvolume.data();
        const float scale = p.mass * f.rest_density * constants.wall_push;
        const Vec<D> g = c.external_acceleration();
        const bool clamp = constants.clamp;
        std::visit(
            [&](const auto& k) {
                const auto term = [&, k](std::uint32_t i, std::size_t b, float len) {
                    float pk = pressure[i] + rho[i] * glm::dot(g, f.bx[b] - f.x[i]);
                    if (clamp) pk = std::max(pk, 0.0f);
                    return scale * volume[b] * (pressure[i] + pk) / (rho[i] * rho[i]) *
                           k.grad_factor(len);
                };
                if (constants.gradient_correction) {
                    // The force on i was L_i times the pair's: so is its reaction.
                    const Mat<D>* L = state.correction.L.data();
                    c.boundary_reaction([&](std::uint32_t i, std::size_t b, const Vec<D>& r) {
                        return L[i] * (term(i, b, glm::length(r)) * r);
                    });
                } else {
                    c.boundary_reaction(term);
                }
            },
            c.kernel());
    }
    c.measure_density();
    const float dt = c.dt();
    parallel_for(p.size(), [&](std::size_t i) { p.v[i] += dt * state.acceleration[i]; });
    c.predict();
    c.collide();
    c.stats().iterations = 1;
    c.contain_and_update_velocities();
    c.post_velocity();
}

template struct Wcsph<2>;
template struct Wcsph<3>;
template Mat<2> gradient_correction<2>(const Mat<2>&);
template Mat<3> gradient_correction<3>(const Mat<3>&);

#define SEICHE_INSTANTIATE(D, K)                                                          \
    template void wcsph_accelerations<D, K<D>>(                                           \
        const WcsphConstants&, const K<D>&, const FluidView<D>&, std::span<const Vec<D>>, \
        std::span<const float>, std::span<const float>, const Vec<D>&, std::span<Vec<D>>, \
        std::vector<Float4>&, std::vector<Float4>&, WcsphCorrection<D>&);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

// ---- its keys: solver.wcsph.* ----

std::span<const Param<WorldDef>> WcsphParams::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        with_default_note(
            number_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::speed_of_sound>(
                "solver.wcsph.speed_of_sound", "m/s", closed(0, 1e5),
                "c; 0 = 10·sqrt(2|g|H), H the tallest fluid block along gravity (density varies "
                "by about (v/c)² ≈ 1%)"),
            "0 (automatic)"),
        choice_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::eos>(
            "solver.wcsph.equation_of_state", {"tait", "linear"},
            "tait: p = B((ρ/ρ0)^γ − 1), B = ρ0c²/γ; linear: p = c²(ρ − ρ0)"),
        number_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::gamma>(
            "solver.wcsph.gamma", "", closed(1, 10), "Tait exponent γ"),
        boolean_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::clamp_pressure>(
            "solver.wcsph.clamp_pressure", "p ≥ 0: no attraction from under-pressure"),
        number_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::viscosity>(
            "solver.wcsph.viscosity", "", closed(0, 10),
            "α of Monaghan's artificial viscosity, dimensionless"),
        boolean_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::gradient_correction>(
            "solver.wcsph.gradient_correction",
            "the pressure gradient renormalised (Bonet & Lok 1999) where the neighbourhood is "
            "complete: a linear pressure field's gradient exact"),
    };
    return table;
}

}  // namespace seiche
