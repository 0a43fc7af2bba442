// Divergence-free SPH — Bender & Koschier 2017, eqs. (8)–(18), Algorithms 1–3 (2015: eqs. 5–16);
// Akinci et al. 2012 boundary particles (volumes V_k, ψ_k = ρ0 V_k) in every sum.
//
// Units. With ρ̂ = ρ/ρ0 and V = m/ρ0 every sum is in volumes, and a solve's stiffness κ̂ (m²/s²;
// the papers' κ = p/ρ² is κ̂/ρ0) accelerates the particles by eq. (9)/(12):
//   a_i = −Σ_j V (κ̂_i + κ̂_j) ∇W_ij − Σ_k V_k (κ̂_i + κ̂_k) ∇W_ik,
// the boundary's κ̂_k extrapolated from the fluid around it (Adami, Hu & Adams 2012, eq. 27,
// without its body-force term: β times the Shepard mean of its fluid neighbours' κ̂) and read,
// like the neighbours' κ̂_j, from the last iteration. β = 2ω − 1 (ω of flat_wall_push_match,
// 0.885 in 2D, 0.897 in 3D): under a uniform κ̂ a flat wall of Akinci volumes then pushes as the
// fluid it stands for. (With the boundary term −Σ_k V_k κ̂_i ∇W_ik alone, as Akinci et al. 2012
// and SPlisHSPlasH, the wall's pressure is in effect 0: a settled tank's first row of particles
// sat 0.82 r from the floor with 1.59 ρ0 g (H − z), the second took 0.89, and the pressure slope
// read 8% steep. With β = 1 a closed box filled to the lid jumped by 0.13 m·g·d per particle at
// the start.)
// Each solve finds κ̂ ≥ 0 such that v* + Δt a leaves no compression after Δt (constant density)
// or no compression rate (divergence), by relaxed Jacobi iterations on κ̂ with the diagonal
//   S_i = |Σ_j V ∇W_ij + Σ_k V_k ∇W_ik|² + Σ_j |V ∇W_ij|²
// (eq. 11: 1/S_i is α_i/ρ_i in these units), the same passes for both solves. The
// constant-density solve's iterations from the fourth on are a Chebyshev semi-iteration over
// them (Golub & Varga 1961, "Chebyshev semi-iterative methods, ..."; on position-based solvers
// Wang 2015, "A Chebyshev semi-iterative approach for accelerating projective and position-based
// dynamics") where a free surface pins the pressure's level.
#include "seiche/dfsph.hpp"

#include "seiche/parameters.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "../neighbors/pair_lanes.hpp"
#include "density_lanes.hpp"
#include "seiche/boundary.hpp"
#include "seiche/parallel.hpp"
#include "seiche/pbf.hpp"  // density_error_stats
#include "seiche/step_context.hpp"

namespace seiche {

namespace {

// Fewer neighbours than this (fluid and boundary) and the divergence solve leaves a particle
// alone: at the free surface the velocity field is not divergence-free (SPlisHSPlasH: 20 in 3D,
// 7 in 2D, with the same support of 4r).
template <int D>
constexpr std::uint32_t divergence_min_neighbours = D == 3 ? 20 : 7;

// ρ_i (eq. 2 with the boundary term) and the factor 1/S_i (eq. 11) in one pass over the pairs.
template <int D, class K>
void density_and_factor(const K& kernel, const FluidView<D>& f, std::span<float> rho,
                        std::span<float> factor, std::span<Vec<D>> boundary_gradient) {
    using namespace lanes;
    const float vol = f.mass / f.rest_density;
    const Vec<D>* x = f.x.data();
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(f.x.size(), [&](std::size_t i0, int n) {
            const Points<D> xi = load_points<D>(x, i0, n);
            F w_fluid = splat(kernel.W(0.0f)), sum2{};
            F g0{}, g1{}, g2{};
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                const I m = nb.active(k);
                Index j[width];
                nb.fetch(k, j);
                const Separation r = separation<D>(xi, fetch_points<D, Padded>(x, j));
                w_fluid += keep(m, W(kernel, r));
                const F s = keep(m, vol * grad_factor(kernel, r));
                g0 += s * r.x;
                g1 += s * r.y;
                g2 += s * r.z;
                sum2 += s * s * r.len2;
            }
            const BoundarySums bs = boundary_sums<D>(kernel, f, xi, i0, n);
            const F w_boundary = bs.w, b0 = bs.gx, b1 = bs.gy, b2 = bs.gz;
            for (int l = 0; l < n; ++l) {
                Vec<D>& g = boundary_gradient[i0 + l];
                g.x = b0[l];
                g.y = b1[l];
                if constexpr (D == 3) g.z = b2[l];
            }
            g0 += b0;
            g1 += b1;
            g2 += b2;
            store(&rho[i0], f.mass * w_fluid + f.rest_density * w_boundary, n);
            const F S = g0 * g0 + g1 * g1 + g2 * g2 + sum2;
            // A particle without neighbours has S = 0: no correction (the papers' α → ∞ guard).
            const F inv = select(S > 1e-6f * (sum2 + 1.0f), 1.0f / select(S > 0.0f, S, splat(1.0f)),
                                 splat(0.0f));
            store(&factor[i0], inv, n);
        });
    });
}

enum class Residual { density, divergence };

// The density error already there that one step of the flow's own length corrects, at most: 20
// times the solve's tolerance, or half the error where that is more (see source_pass).
constexpr float max_correction = 20.0f;
constexpr float share_correction = 0.5f;

// Particle i's neighbours in the step's lists, fluid and boundary.
template <int D>
std::uint32_t neighbour_count(const FluidView<D>& f, std::size_t i) {
    return f.fluid_nb.offset[i + 1] - f.fluid_nb.offset[i] + f.boundary_nb.offset[i + 1] -
           f.boundary_nb.offset[i];
}

// The lanes of particles i0 … i0 + n − 1 with at least divergence_min_neighbours neighbours.
template <int D>
lanes::I enough_neighbours(const FluidView<D>& f, std::size_t i0, int n) {
    lanes::I enough{};
    for (int l = 0; l < n; ++l)
        enough[l] = neighbour_count(f, i0 + l) >= divergence_min_neighbours<D> ? -1 : 0;
    return enough;
}

// The source of a solve from eq. (8)/(12), Dρ̂_i/Dt = Σ_j V (v_i − v_j)·∇W_ij +
// Σ_k V_k (v_i − v_k)·∇W_ik at the velocities v*: the density error the velocities would leave
// after Δt, s_i — constant density: ρ̂_i + Δt Dρ̂_i/Dt − 1 (eq. 13); divergence: Δt Dρ̂_i/Dt
// (eq. 16) — and the start of κ̂ where s_i > 0: the warm start (2017 §4.4) or, without one,
// s_i/(Δt² S_i) (eq. 14).
template <Residual R, bool Moving, int D, class K>
void source_pass(const K& kernel, const FluidView<D>& f, std::span<const Float4> records,
                 std::span<const Vec<D>> v,
                 std::span<const Vec<D>> boundary_velocity,
                 std::span<const Vec<D>> boundary_gradient, std::span<const float> rho,
                 std::span<const float> factor, float dt, float correction, float bound_share,
                 const float* warm,
                 float warm_share,
                 std::span<float> source, std::span<float> kappa) {
    using namespace lanes;
    const float vol = f.mass / f.rest_density, inv_rho0 = 1.0f / f.rest_density;
    const float inv_dt2 = 1.0f / (dt * dt);
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const Vec<D>* bx = f.bx.data();
    const Vec<D>* bvel = boundary_velocity.data();
    const float* bv = f.bvolume.data();
    const float* rec = reinterpret_cast<const float*>(records.data());
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        const Points<D> vi = load_points<D>(vel, i0, n);
        F div_fluid{}, div_boundary{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 pj = fetch_points4(rec, j);  // the position (x, y, z) of a record
            const Separation r = separation<D>(xi, Points<D>{pj.x, pj.y, pj.z});
            const Points<D> vj = fetch_points<D>(vel, j);
            const F dv = (vi.x - vj.x) * r.x + (vi.y - vj.y) * r.y + (vi.z - vj.z) * r.z;
            div_fluid += keep(nb.active(k), dv * grad_factor(kernel, r));
        }
        // Σ_k V_k v_i·∇W_ik = v_i·Σ_k V_k ∇W_ik, the sum kept from density_and_factor.
        const Points<D> gb = load_points<D>(boundary_gradient.data(), i0, n);
        div_boundary = vi.x * gb.x + vi.y * gb.y + vi.z * gb.z;
        if constexpr (Moving) {
            const Lists bn(f.boundary_nb, i0, n);
            for (int k = 0; k < bn.longest(); ++k) {
                Index b[width];
                bn.fetch(k, b);
                const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
                const Points<D> vk = fetch_points<D>(bvel, b);
                const F dv = vk.x * r.x + vk.y * r.y + vk.z * r.z;
                div_boundary -= keep(bn.active(k), fetch(bv, b) * dv * grad_factor(kernel, r));
            }
        }
        const F rate = vol * div_fluid + div_boundary;  // Dρ̂/Dt, 1/s
        // Of the density error already there a step corrects at most `correction` (20 times the
        // tolerance: 0.2% at the default) or half of it, whichever is more (the compression the
        // velocities would add, all of it): a splash thrown deep into a wall's support (tens of
        // per cent) is pushed out over a few steps instead of at tens of m/s in one, and a
        // closed box's start-up error (0.25%) does not set it sloshing (1% at once did); flows
        // keep their errors far below it. (A fixed 0.2% let a loose solve's wall errors pile
        // up: 0.83% mean at a tolerance of 0.1%; 0.2% alone let particle pairs squeezed into the
        // reference dam break's back corners reach 11% over ρ0: the solve parted them more
        // slowly than the flow pressed them together.)
        // That correction is a rate per unit time: where the viscous bound shortens the step
        // below the flow's own, the step corrects that share of it (StepContext::bound_share).
        // Corrected whole in a step of 0.31 ms (ν = 1e-2, the flow's own step 5 ms), a layer's
        // start-up excess of 1.6% under a sliding plate took 130 kPa and threw a particle at
        // 1 m/s in 4 steps; per unit time, 0.7 kPa. (A step fitted to a sample time is not
        // shortened by the flow and corrects in full: the frame it ends on is as exact.)
        const F excess = load(&rho[i0], n) * inv_rho0 - 1.0f;
        F corrected = lanes::min(excess, lanes::max(splat(correction), share_correction * excess));
        if (bound_share < 1.0f) corrected *= bound_share;  // (1: the same bits as without)
        const F src = R == Residual::density ? corrected + dt * rate : dt * rate;
        store(&source[i0], src, n);
        // The solve starts from the warm start — constant density: a share of the last step's
        // κ̂ for every particle (a column's pressure does not vanish where the velocities
        // happen to expand), the pressure of a column at rest being the same for any step;
        // divergence: of κ̂Δt, the velocity change it made, where the particle has the
        // neighbours to take part — or without one from the source where it compresses.
        I start = warm ? splat_i(-1) : I(src > 0.0f);
        if constexpr (R == Residual::divergence) start &= enough_neighbours<D>(f, i0, n);
        const float warm_scale = R == Residual::density ? warm_share : warm_share / dt;
        const F k = warm ? warm_scale * load(warm + i0, n) : src * load(&factor[i0], n) * inv_dt2;
        store(&kappa[i0], keep(start, k), n);
    });
}

// The pressure acceleration of eq. (9)/(12) from the current κ̂ and the boundary's κ̂_k:
// a_i = −Σ_j V (κ̂_i + κ̂_j) ∇W_ij − Σ_k V_k (κ̂_i + κ̂_k) ∇W_ik. A neighbour's position and
// κ̂ come in one record (x, y, z, κ̂): one load and a transpose, as PBF's Δx pass reads x and λ;
// the next neighbours are fetched before this one's arithmetic, so their loads overlap it.
template <int D, class K>
void acceleration_pass(const K& kernel, const FluidView<D>& f,
                       std::span<const Vec<D>> boundary_gradient, std::span<const float> kappa,
                       std::span<const Float4> records, const float* boundary_vkappa,
                       std::span<Float4> a) {
    using namespace lanes;
    const float vol = f.mass / f.rest_density;
    const Vec<D>* x = f.x.data();
    const float* kp = kappa.data();
    const float* rec = reinterpret_cast<const float*>(records.data());
    const Vec<D>* bx = f.bx.data();
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const F ki = load(kp + i0, n);
        const Points<D> xi = load_points<D>(x, i0, n);
        F a0{}, a1{}, a2{};
        const Lists nb(f.fluid_nb, i0, n);
        Points4 next{};
        if (nb.longest() > 0) {
            Index j[width];
            nb.fetch(0, j);
            next = fetch_points4(rec, j);
        }
        for (int k = 0; k < nb.longest(); ++k) {
            const Points4 pj = next;
            if (k + 1 < nb.longest()) {
                Index j[width];
                nb.fetch(k + 1, j);
                next = fetch_points4(rec, j);
            }
            const Separation r = separation<D>(xi, Points<D>{pj.x, pj.y, pj.z});
            const F s = keep(nb.active(k), (ki + pj.w) * grad_factor(kernel, r));
            a0 += s * r.x;
            a1 += s * r.y;
            a2 += s * r.z;
        }
        a0 *= vol;
        a1 *= vol;
        a2 *= vol;
        const Lists bn(f.boundary_nb, i0, n);
        for (int k = 0; k < bn.longest(); ++k) {
            Index b[width];
            bn.fetch(k, b);
            const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
            const F s = keep(bn.active(k), fetch(boundary_vkappa, b) * grad_factor(kernel, r));
            a0 += s * r.x;
            a1 += s * r.y;
            a2 += s * r.z;
        }
        // Σ_k V_k κ̂_i ∇W_ik = κ̂_i Σ_k V_k ∇W_ik, the sum kept from density_and_factor.
        const Points<D> gb = load_points<D>(boundary_gradient.data(), i0, n);
        for (int l = 0; l < n; ++l) {
            Float4& al = a[i0 + l];
            al.x = -(a0[l] + ki[l] * gb.x[l]);
            al.y = -(a1[l] + ki[l] * gb.y[l]);
            al.z = D == 3 ? -(a2[l] + ki[l] * gb.z[l]) : 0.0f;
            al.w = 0.0f;
        }
    });
}

// One relaxed Jacobi update of κ̂ (2017 eq. 14 as a fixed-point iteration on κ̂ itself, as
// SPlisHSPlasH 2.x does): the density change the accelerations a make in Δt²,
// (Aκ̂)_i = Δt² [Σ_j V (a_i − a_j)·∇W_ij + Σ_k V_k a_i·∇W_ik], leaves the error e_i = s_i + (Aκ̂)_i;
// κ̂_i ← max(κ̂_i + ω e_i/(Δt² S_i), 0). κ̂ may fall as well as rise, and never pulls. error
// gets ρ0(1 + max(e_i, 0)) (0 excess for a particle the divergence solve leaves alone).
template <Residual R, int D, class K>
void update_pass(const K& kernel, const FluidView<D>& f,
                 std::span<const Vec<D>> boundary_gradient, std::span<const Float4> records,
                 std::span<const Float4> a, std::span<const float> source,
                 std::span<const float> factor, float dt, float omega, std::span<float> kappa,
                 std::span<float> error) {
    using namespace lanes;
    const float vol = f.mass / f.rest_density, dt2 = dt * dt, inv_dt2 = 1.0f / dt2;
    const Vec<D>* x = f.x.data();
    const float* rec = reinterpret_cast<const float*>(records.data());
    const float* acc = reinterpret_cast<const float*>(a.data());
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        Points<D> ai{F{}, F{}, F{}};
        for (int l = 0; l < n; ++l) {
            ai.x[l] = a[i0 + l].x;
            ai.y[l] = a[i0 + l].y;
            ai.z[l] = a[i0 + l].z;
        }
        F fluid{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 pj = fetch_points4(rec, j);
            const Separation r = separation<D>(xi, Points<D>{pj.x, pj.y, pj.z});
            const Points4 aj = fetch_points4(acc, j);
            const F da = (ai.x - aj.x) * r.x + (ai.y - aj.y) * r.y + (ai.z - aj.z) * r.z;
            fluid += keep(nb.active(k), da * grad_factor(kernel, r));
        }
        // Σ_k V_k a_i·∇W_ik = a_i·Σ_k V_k ∇W_ik, the sum kept from density_and_factor.
        const Points<D> gb = load_points<D>(boundary_gradient.data(), i0, n);
        const F boundary = ai.x * gb.x + ai.y * gb.y + ai.z * gb.z;
        const F e = load(&source[i0], n) + dt2 * (vol * fluid + boundary);
        F k = lanes::max(load(&kappa[i0], n) + omega * inv_dt2 * e * load(&factor[i0], n), F{});
        F counted = lanes::max(e, F{});
        if constexpr (R == Residual::divergence) {
            // Too few neighbours (a splash, the surface): no divergence solve of its own. Its
            // S_i is a few small gradients, and κ̂ = e/(Δt² S_i) threw such a particle at 100 m/s.
            const I enough = enough_neighbours<D>(f, i0, n);
            k = keep(enough, k);
            counted = keep(enough, counted);
        }
        store(&kappa[i0], k, n);
        store(&error[i0], f.rest_density * (1.0f + counted), n);
    });
}

// The boundary's pressure, extrapolated from the fluid (Adami, Hu & Adams 2012, "A generalized
// wall boundary condition for SPH", eq. 27, without its body-force term, which moved a settled
// tank's figures by less than their scatter): κ̂_k of boundary particle k is β Σ_i W_ik κ̂_i /
// Σ_i W_ik over its fluid neighbours. The weights (β and V_k included: the gather gives V_k κ̂_k),
// once per step in the reaction lists' order, then each iteration a gather: the same sums for any
// thread count.
template <int D, class K>
void shepard_weights(const K& kernel, const ReactionLists<D>& l, std::span<const float> volume,
                     float share, std::vector<float>& weight) {
    weight.resize(l.fluid.size());
    parallel_for(l.bx.size(), [&](std::size_t k) {
        float sum = 0.0f;
        for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e) {
            weight[e] = kernel.W(glm::length(l.x[l.fluid[e]] - l.bx[k]));
            sum += weight[e];
        }
        const float inv = sum > 0.0f ? share * volume[k] / sum : 0.0f;
        for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e) weight[e] *= inv;
    });
}

template <int D>
void boundary_kappa_pass(const ReactionLists<D>& l, std::span<const float> weight,
                         std::span<const float> kappa, std::vector<float>& out) {
    out.resize(l.bx.size());
    parallel_for(l.bx.size(), [&](std::size_t k) {
        float sum = 0.0f;
        for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e)
            sum += weight[e] * kappa[l.fluid[e]];
        out[k] = sum;
    });
}

// Jacobi relaxation of SPlisHSPlasH's DFSPH (and of IISPH, Ihmsen et al. 2014): 0.5.
constexpr float relaxation = 0.5f;

// The Chebyshev semi-iteration's first update: its first extrapolation (ω₂ = 2/(2 − ρ²), 1.96 at
// ρ = 0.99) overshoots, and a unilateral solve keeps what it overshot where it stops after a few
// iterations: begun at the second, the reference dam break at 0.1% ended held apart (median
// 0.993 ρ0 away from the walls), at the fourth as plain Jacobi (1.0003).
constexpr int chebyshev_start = 4;

// A solve that ends above its tolerance at more than this times the lowest mean error it reached
// diverged (DfsphSolve::diverged). The walls' extrapolated pressure (κ̂_k, above) couples the
// fluid's κ̂ through the walls unsymmetrically: where walls close the fluid in over some 40
// supports or more (a layer under a plate or a body; a box filled to the lid), some mode of κ̂
// compresses the fluid where it presses, and relaxed Jacobi's predicted error grows by about
// 0.4% an iteration (the semi-iteration's faster): neither more iterations nor shorter steps
// help (docs/solvers.md, "Fluid closed in by walls"). No validation scene has such a step; a
// box 0.3 m × 2 cm filled to the lid (r = 1.25 mm) ends its first solve, plain Jacobi's 100
// iterations, at 1.55 times its lowest.
constexpr double diverged_growth = 1.5;

// Fewer neighbours than this (fluid and boundary) and a particle is at a free surface: a flat
// surface's top row has 5–7 in 2D and 18–24 in 3D (4r support), where every particle of a box
// filled to the lid has at least 9 and 26.
template <int D>
constexpr std::uint32_t surface_neighbours = D == 3 ? 24 : 8;

// Whether the fluid has a free surface (or a gap) over every process: some owned particle with
// fewer than surface_neighbours. Only then is the pressure's level pinned: in fluid under
// pressure everywhere (a closed box filled to the lid) a uniform κ̂ moves nothing, the solve
// cannot converge as the lattice's wall rows leave more fluid than the box holds at ρ0, and a
// solve that converges further pushes harder each step (Solvers.EnergyDoesNotGrowAtRest: plain
// Jacobi to 1,000 iterations, or Chebyshev, took 0.2–0.6 m·g·d per particle of kinetic energy
// into the box at rest, against 0.001–0.06 capped at 100). Decided from the step's lists, not
// from its pressures: a rule that flipped from step to step (some κ̂ = 0 at the solve's start)
// alternated capped and converged solves in a tank at rest, whose kinetic energy then spiked
// to 0.40 J/m against plain Jacobi's 0.11 (2D, 0.4 m deep).
template <int D>
bool has_free_surface(const FluidView<D>& f, Processes* pr, std::vector<std::int64_t>& counts) {
    const std::span<const std::uint8_t> halo = pr ? pr->halo() : std::span<const std::uint8_t>{};
    const std::size_t n = f.x.size();
    constexpr std::size_t chunk = 4096;
    const std::size_t chunks = (n + chunk - 1) / chunk;
    counts.resize(chunks);
    std::int64_t* c = counts.data();
    parallel_for(
        chunks,
        [&](std::size_t k) {
            std::int64_t few = 0;
            for (std::size_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i) {
                if (!halo.empty() && halo[i]) continue;
                few += neighbour_count(f, i) < surface_neighbours<D>;
            }
            c[k] = few;
        },
        2);
    std::array<std::int64_t, 1> total{};
    for (std::size_t k = 0; k < chunks; ++k) total[0] += c[k];
    if (pr) pr->sum(std::span<std::int64_t>(total));
    return total[0] > 0;
}

// One solve (Algorithm 2 or 3): the source and the warm start, relaxed Jacobi iterations until
// the mean error is at most `tolerance` (and at least min_iterations were made) or
// max_iterations, then v += Δt a(κ̂). `carried` holds the previous step's κ̂ (constant density)
// or κ̂Δt (divergence) and gets this step's; `kappa_out` gets the κ̂ that acted. With
// `chebyshev` = ρ > 0, from update chebyshev_start on each Jacobi update
// κ̃ of κ̂_k is extrapolated, κ̂_{k+1} = max(ω_{k+1} (κ̃ − κ̂_{k−1}) + κ̂_{k−1}, 0), with
// ω_s = 2/(2 − ρ²) at the first and ω_{k+1} = 4/(4 − ρ² ω_k) after (Wang 2015's recurrence).
// The relaxed Jacobi's slowest mode, a deep column's pressure, is what a step's solve mostly
// rebuilds (Jacobi moves a correction about a support an iteration): the semi-iteration's
// polynomial damps it in about the square root as many iterations, and converges for any ρ < 1
// on a spectrum inside (−1, 1).
template <Residual R, int D, class K>
DfsphSolve solve(const K& kernel, const FluidView<D>& f, DfsphState<D>& s, std::span<Vec<D>> v,
                 std::span<const float> rho, float dt, float warm_start, int min_iterations,
                 int max_iterations, double tolerance, float chebyshev,
                 std::vector<float>& carried, std::vector<float>& kappa_out, bool moving,
                 float bound_share,
                 const ReactionLists<D>& walls, std::span<const float> weight,
                 std::vector<float>& boundary_vkappa, StepContext<D>& ctx) {
    const float* warm = warm_start > 0.0f ? carried.data() : nullptr;
    const float correction = max_correction * float(tolerance);
    if (moving)
        source_pass<R, true, D, K>(kernel, f, s.records, v, s.boundary_velocity,
                                   s.boundary_gradient, rho, s.factor, dt, correction, bound_share,
                                   warm, warm_start, s.source, kappa_out);
    else
        source_pass<R, false, D, K>(kernel, f, s.records, v, {}, s.boundary_gradient, rho,
                                    s.factor, dt, correction, bound_share, warm, warm_start,
                                    s.source, kappa_out);
    // Split over processes: each pass's output, read by the neighbours in the next, refreshed.
    Processes* const pr = f.processes;
    refresh_halo(pr, std::span<float>(kappa_out));  // the warm start, cut where the source is
    // The boundary's κ̂_k from the current κ̂, then the pressure accelerations.
    const auto accelerate = [&] {
        boundary_kappa_pass<D>(walls, weight, kappa_out, boundary_vkappa);
        ctx.share_boundary_values(boundary_vkappa);
        Float4* rec = s.records.data();
        const float* kp = kappa_out.data();
        parallel_for(kappa_out.size(), [&](std::size_t i) { rec[i].w = kp[i]; }, 4096);
        acceleration_pass<D, K>(kernel, f, s.boundary_gradient, kappa_out, s.records,
                                boundary_vkappa.data(), s.acceleration);
        refresh_halo(pr, std::span<Float4>(s.acceleration));
    };
    const bool semi = chebyshev > 0.0f;
    const float rho2 = chebyshev * chebyshev;
    float omega = 1.0f;
    DfsphSolve out;
    double lowest = std::numeric_limits<double>::infinity();
    for (;;) {
        const bool stop = f.stop && f.stop->load(std::memory_order_relaxed);
        if (stop) break;
        if (out.iterations >= max_iterations) {
            out.capped = min_iterations < max_iterations;
            break;
        }
        accelerate();
        const int update = out.iterations + 1;
        if (semi && update >= chebyshev_start - 1) {  // κ̂_k, the next extrapolation's κ̂_{k−1}
            const float* k = kappa_out.data();
            float* now = s.kappa_now.data();
            parallel_for(kappa_out.size(), [&](std::size_t i) { now[i] = k[i]; }, 4096);
        }
        update_pass<R, D, K>(kernel, f, s.boundary_gradient, s.records, s.acceleration, s.source,
                             s.factor, dt, relaxation, kappa_out, s.error);
        if (semi && update >= chebyshev_start) {
            omega = update == chebyshev_start ? 2.0f / (2.0f - rho2) : 4.0f / (4.0f - rho2 * omega);
            float* k = kappa_out.data();
            const float* before = s.kappa_before.data();
            const float w = omega;
            parallel_for(
                kappa_out.size(),
                [&](std::size_t i) { k[i] = std::max(w * (k[i] - before[i]) + before[i], 0.0f); },
                4096);
        }
        if (semi && update >= chebyshev_start - 1) s.kappa_before.swap(s.kappa_now);
        refresh_halo(pr, std::span<float>(kappa_out));
        ++out.iterations;
        density_error_stats(s.error, f.rest_density, out.error_mean, out.error_max, pr);
        lowest = std::min(lowest, out.error_mean);
        if (out.iterations >= min_iterations && out.error_mean <= tolerance) break;
    }
    out.diverged = out.error_mean > tolerance && out.error_mean > diverged_growth * lowest;
    accelerate();
    const Float4* a = s.acceleration.data();
    Vec<D>* vel = v.data();
    float* c = carried.data();
    const float* k = kappa_out.data();
    parallel_for(v.size(), [&](std::size_t i) {
        vel[i].x += dt * a[i].x;
        vel[i].y += dt * a[i].y;
        if constexpr (D == 3) vel[i].z += dt * a[i].z;
        c[i] = R == Residual::density ? k[i] : k[i] * dt;
    });
    return out;
}

}  // namespace

template <int D>
Dfsph<D>::Dfsph(const DfsphParams& p, const FluidConstants<D>& fluid, std::size_t particles)
    : params(p),
      mirror_share(2.0f * flat_wall_push_match<D>(fluid.kernel, fluid.spacing,
                                                  WallSampling::for_kernel(fluid.kernel_type,
                                                                           fluid.spacing)) -
                   1.0f) {
    state.resize(particles);
}

// Bender & Koschier 2017, Algorithm 1, in SPlisHSPlasH's order: the neighbours, ρ and α of the
// positions the last step ended with, the divergence solve (Algorithm 2) on them, the
// non-pressure forces, the constant-density solve (Algorithm 3), then the positions.
template <int D>
void Dfsph<D>::step(StepContext<D>& c) {
    // Of the velocities the step starts from. A step shorter than half the flow's own (fixed
    // steps, a caller's) corrects its share too: a lattice's 2% at the walls, half of it in one
    // step of 1 µs, was a speed of 100 m/s (StepContext::leftover_share; a CFL driver's step
    // keeps bound_share, the same bits).
    const float bound_share = std::min(c.bound_share(), c.leftover_share());
    c.find_neighbors();
    ParticleSet<D>& p = c.particles();
    const FluidView<D> f = c.view();
    const float dt = c.dt();
    const std::size_t n = p.size();
    // The positions stay put through both solves: each neighbour's (x, κ̂) record gets its
    // position once here, its κ̂ before each acceleration pass.
    lanes::point_records<D>(p.x, state.records, [](std::size_t) { return 0.0f; });
    // The carried warm starts, unpacked (a: constant density, b: divergence).
    std::vector<float>& warm_density = state.warm_density;
    std::vector<float>& warm_divergence = state.warm_divergence;
    std::vector<float>& kappa_density = state.kappa_density;
    std::vector<float>& kappa_divergence = state.kappa_divergence;
    for (std::size_t i = 0; i < n; ++i) {
        warm_density[i] = p.carried[i].a;
        warm_divergence[i] = p.carried[i].b;
    }
    const bool moving = boundary_velocities<D>(f, state.boundary_velocity);
    last_divergence = {};
    const ReactionLists<D> walls = c.reaction_lists();
    c.timed(&StageTimes::solver, [&] {
        std::visit(
            [&](const auto& k) {
                using K = std::decay_t<decltype(k)>;
                density_and_factor<D>(k, f, p.rho, state.factor, state.boundary_gradient);  // eqs. (2), (11)
                shepard_weights<D>(k, walls, f.bvolume, mirror_share, state.boundary_weight);
                refresh_halo(f.processes, std::span<float>(p.rho));
                refresh_halo(f.processes, std::span<float>(state.factor));
                if (params.divergence_solve)                        // Algorithm 2
                    last_divergence = solve<Residual::divergence, D, K>(
                        k, f, state, p.v, p.rho, dt, float(params.warm_start), 1,
                        params.max_divergence_iterations, params.divergence_tolerance, 0.0f,
                        warm_divergence, kappa_divergence, moving, bound_share, walls,
                        state.boundary_weight, state.boundary_vkappa_divergence, c);
                else {
                    std::fill(kappa_divergence.begin(), kappa_divergence.end(), 0.0f);
                    state.boundary_vkappa_divergence.assign(walls.bx.size(), 0.0f);
                    std::fill(warm_divergence.begin(), warm_divergence.end(), 0.0f);
                }
            },
            c.kernel());
    });
    c.measure_density();
    c.apply_external_accelerations();    // v* = v + Δt g
    c.apply_non_pressure_forces(false);  // surface tension, adhesion: v* += Δt a
    c.timed(&StageTimes::solver, [&] {
        std::visit(
            [&](const auto& k) {
                using K = std::decay_t<decltype(k)>;
                last_density = solve<Residual::density, D, K>(  // Algorithm 3
                    k, f, state, p.v, p.rho, dt, float(params.warm_start), params.min_iterations,
                    params.max_iterations, params.density_tolerance,
                    params.chebyshev > 0.0 && has_free_surface(f, f.processes, state.counts)
                        ? float(params.chebyshev)
                        : 0.0f,
                    warm_density, kappa_density,
                    moving, bound_share, walls, state.boundary_weight,
                    state.boundary_vkappa_density, c);
            },
            c.kernel());
    });
    for (std::size_t i = 0; i < n; ++i) p.carried[i] = {warm_density[i], warm_divergence[i]};
    // The pressure that acted: κ = p/ρ² = κ̂/ρ0 summed over both solves.
    const float inv_rho0 = 1.0f / f.rest_density;
    parallel_for(n, [&](std::size_t i) {
        state.pressure[i] = (kappa_density[i] + kappa_divergence[i]) * p.rho[i] * p.rho[i] * inv_rho0;
    });
    if (c.tracking_boundary_forces()) {
        // The boundary term of eq. (9) on particle i is m a = −m V_k (κ̂_i + κ̂_k) ∇W_ik for each
        // solve's κ̂; by Newton's third law boundary particle k feels the sum over both solves,
        // f_k = m V_k (κ̂_i + κ̂v_i + κ̂_k + κ̂v_k) ∇W_ik.
        state.boundary_vkappa.resize(walls.bx.size());
        for (std::size_t b = 0; b < walls.bx.size(); ++b)
            state.boundary_vkappa[b] =
                state.boundary_vkappa_density[b] + state.boundary_vkappa_divergence[b];
        const float* vkb = state.boundary_vkappa.data();
        const float* kd = kappa_density.data();
        const float* kv = kappa_divergence.data();
        const float* volume = f.bvolume.data();
        const float mass = p.mass;
        std::visit(
            [&](const auto& k) {
                c.boundary_reaction([&, k](std::uint32_t i, std::size_t b, float len) {
                    return mass * (volume[b] * (kd[i] + kv[i]) + vkb[b]) * k.grad_factor(len);
                });
            },
            c.kernel());
    }
    c.stats().iterations = last_density.iterations + last_divergence.iterations;
    // The constant-density solve's: its keys are the ones the traits name.
    c.stats().capped = last_density.capped;
    c.stats().diverged = last_density.diverged || last_divergence.diverged;
    c.predict();  // x = x + Δt v*
    // Collisions keep centres r/2 from the walls (PBF's and WCSPH's keep r): only a splash that
    // the pressure did not stop is caught, before it reaches the wall's own particles. (While
    // the walls pushed with κ̂_i alone, a clamp at r fought the solve: a tank at rest kept 20
    // times the kinetic energy. With the walls' pressure the tank is as calm either way, but
    // particles an impact pushes nearer than r are then moved without the solve, and the
    // reference dam break's density error at 0.5 s read 0.025% / 1.25% instead of 0.012% / 0.14%.)
    collide_with_objects<D>(p.x, f.objects, 0.5f * f.radius, f.collisions);
    c.contain_and_update_velocities();
    c.post_velocity();  // XSPH, vorticity confinement
}

template struct Dfsph<2>;
template struct Dfsph<3>;

// ---- its keys: solver.dfsph.* ----

std::span<const Param<WorldDef>> DfsphParams::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        integer_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::min_iterations>(
            "solver.dfsph.min_iterations", "", closed(0, 1000),
            "constant-density iterations always made per step; at most max_iterations"),
        integer_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::max_iterations>(
            "solver.dfsph.max_iterations", "", closed(1, 1000),
            "upper bound of the constant-density iterations per step"),
        number_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::density_tolerance>(
            "solver.dfsph.density_tolerance", "", open(0, 1),
            "stop when the mean predicted density error falls to this (0.0001 = 0.01%, "
            "SPlisHSPlasH's default)"),
        boolean_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::divergence_solve>(
            "solver.dfsph.divergence_solve",
            "make the velocity field divergence-free at the start of each step (Algorithm 2); "
            "without it DFSPH is a constant-density solver alone"),
        integer_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::max_divergence_iterations>(
            "solver.dfsph.max_divergence_iterations", "", closed(1, 1000),
            "upper bound of the divergence iterations per step"),
        number_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::divergence_tolerance>(
            "solver.dfsph.divergence_tolerance", "", open(0, 1),
            "stop when the mean density change over one step falls to this (0.001 = 0.1%)"),
        number_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::warm_start>(
            "solver.dfsph.warm_start", "", closed(0, 1),
            "each solve starts from this share of the last step's pressure (Bender & Koschier "
            "2017, §4.4; 0 = no warm start; SPlisHSPlasH takes 0.5)"),
        number_param<W, &W::solver, &SolverParams::dfsph, &DfsphParams::chebyshev>(
            "solver.dfsph.chebyshev", "", half_open(0, 1),
            "spectral radius ρ of the Chebyshev semi-iteration that accelerates the "
            "constant-density solve's Jacobi iterations from the fourth on, where the fluid has "
            "a free surface (Wang 2015); 0 = plain relaxed Jacobi, as SPlisHSPlasH"),
    };
    return table;
}

}  // namespace seiche
