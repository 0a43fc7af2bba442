// Position Based Fluids — Macklin & Müller 2013, eqs. (1)–(13); boundary terms and unilateral
// constraint as in Bender & Fernández 2019, eqs. (7)–(10); Akinci et al. 2012 boundary volumes.
//
// Units. With equal fluid masses m we work with λ'_i = λ_i / m (m²) so that nothing depends on
// the mass scale: S'_i = m·S_i (1/m²), and eq. (9) becomes
//   Δx_i = Σ_j (m/ρ0)(λ'_i + λ'_j + s_corr) ∇W_ij + Σ_k V_k λ'_i ∇W_ik.
#include "seiche/pbf.hpp"

#include "seiche/parameters.hpp"

#include "pbf_passes.hpp"
#include "density_lanes.hpp"
#include "../neighbors/pair_lanes.hpp"

#include "seiche/step_context.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>

#include "seiche/boundary.hpp"
#include "seiche/domain.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

// The λ and Δx passes run sixteen lanes wide in WIDE and WIDE_SQRT builds (pair_lanes.hpp):
// heavy in arithmetic, they gain from full-width 512-bit units, to the same bits.
#ifdef SEICHE_LANES_PBF16
namespace wide = lanes16;
#else
namespace wide = lanes;
#endif

template <int D, class K>
PbfConstants pbf_constants(const PbfParams& p, const K& kernel, float mass, float rest_density,
                           float spacing) {
    // S' of a particle inside a resting lattice: the |Σ∇C|² term vanishes by symmetry.
    const double vol = double(mass) / rest_density;
    const double s_rest = vol * vol * lattice_sums<D>(kernel, spacing).grad2;
    PbfConstants c;
    c.epsilon = static_cast<float>(p.relaxation * s_rest);
    c.omega = static_cast<float>(p.over_relaxation);
    // s_corr acts like an extra compression k·(W/W(Δq))^n of the pair, converted to λ' units.
    c.s_corr_scale = p.tensile_correction ? static_cast<float>(p.s_corr_k / s_rest) : 0.0f;
    c.s_corr_n = static_cast<float>(p.s_corr_n);
    c.s_corr_power = p.s_corr_n == std::floor(p.s_corr_n) ? int(p.s_corr_n) : 0;
    c.s_corr_w_dq = kernel.W(static_cast<float>(p.s_corr_dq) * kernel.support());
    return c;
}

void density_error_stats(std::span<const float> rho, float rest_density, double& mean,
                         double& max, Processes* processes, std::span<const float> held) {
    // The sum in fixed point, 2^-32 of ρ0 per particle (each error truncated to that, once, on
    // its own; an error above 2^16 ρ0 counted as 2^16): integer sums do not depend on their
    // order, so the mean is the same bits however the particles are stored or split between
    // threads and processes. Fixed chunks in parallel; run four times a PBF step, this was the
    // largest serial part of it. Split over processes, a halo copy's term is zero (it is its
    // owner's), and the sums and the count are summed over the processes.
    const std::span<const std::uint8_t> halo =
        processes ? processes->halo() : std::span<const std::uint8_t>{};
    constexpr std::size_t chunk = 4096;
    const std::size_t chunks = (rho.size() + chunk - 1) / chunk;
    // Per calling thread, grown once: a warm step allocates nothing (test_allocation.cpp).
    // (The loop body runs on the pool's threads: it must see these through pointers, not by
    // naming the thread_local variables, which would be the workers' own.)
    thread_local std::vector<std::int64_t> sums_storage;
    thread_local std::vector<float> worst_storage;
    sums_storage.resize(chunks);
    worst_storage.resize(chunks);
    std::int64_t* sums = sums_storage.data();
    float* worst = worst_storage.data();
    parallel_for(
        chunks,
        [&](std::size_t c) {
            // Eight running sums (i mod 8) in one vector of 64-bit integers: at most 2^48 each
            // per term, 512 terms per lane, so no overflow.
            using namespace lanes;
            using I8 = std::int64_t __attribute__((vector_size(64)));
            I8 sum{};
            F w{};
            const std::size_t lo = c * chunk, hi = std::min(rho.size(), lo + chunk);
            // density_error, lane by lane (lanes past the end read 0 and give 0).
            const auto add = [&](F r, std::size_t i, int n) {
                F e = r / rest_density - 1.0f;
                if (!held.empty()) e -= load(&held[i], n);
                e = lanes::max(e, F{});
                if (!halo.empty()) {
                    F own{};
                    for (int l = 0; l < n; ++l) own[l] = halo[i + std::size_t(l)] ? 0.0f : 1.0f;
                    e *= own;
                }
                const F capped = e < 65536.0f ? e : F{} + 65536.0f;  // NaN: 2^16 too
                sum += __builtin_convertvector(capped * 4294967296.0f, I8);
                w = lanes::max(w, e);
            };
            std::size_t i = lo;
            for (; i + width <= hi; i += width) add(load(&rho[i], width), i, width);
            if (i < hi) add(load(&rho[i], static_cast<int>(hi - i)), i, static_cast<int>(hi - i));
            std::int64_t s = 0;
            for (int l = 0; l < width; ++l) s += sum[l];
            sums[c] = s;
            float wm = 0.0f;
            for (int l = 0; l < width; ++l) wm = std::max(wm, w[l]);
            worst[c] = wm;
        },
        2);
    __extension__ __int128 sum = 0;  // up to 2^20 chunks of 2^60
    float w = 0.0f;
    for (std::size_t c = 0; c < chunks; ++c) {
        sum += sums[c];
        w = std::max(w, worst[c]);
    }
    if (!processes) {
        mean = rho.empty() ? 0.0 : std::ldexp(double(sum), -32) / double(rho.size());
        max = w;
        return;
    }
    // The halves of the sum, the count of own particles: summed over the processes, the sum
    // rounded once as one process rounds it.
    std::array<std::int64_t, 3> total = {
        static_cast<std::int64_t>(sum & 0xFFFFFFFF), static_cast<std::int64_t>(sum >> 32),
        std::int64_t(rho.size() - std::size_t(std::count(halo.begin(), halo.end(), 1)))};
    processes->sum(total);
    std::array<double, 1> most = {w};
    processes->max(most);
    const double fixed = std::ldexp(double(total[1]), 32) + double(total[0]);
    mean = total[2] == 0 ? 0.0 : std::ldexp(fixed, -32) / double(total[2]);
    max = most[0];
}

// Whether any particle has a λ' other than zero (over every process): with none, a Δx pass
// moves nobody.
static bool any_correction(std::span<const PositionLambda> x_lambda, Processes* processes) {
    constexpr std::size_t chunk = 4096;
    const std::size_t chunks = (x_lambda.size() + chunk - 1) / chunk;
    thread_local std::vector<std::uint8_t> flags_storage;  // grown once, as above
    flags_storage.resize(chunks);
    std::uint8_t* flags = flags_storage.data();
    parallel_for(
        chunks,
        [&](std::size_t c) {
            const std::size_t lo = c * chunk, hi = std::min(x_lambda.size(), lo + chunk);
            bool any = false;
            for (std::size_t i = lo; i < hi; ++i) any |= x_lambda[i].w != 0.0f;
            flags[c] = any;
        },
        2);
    std::array<double, 1> any = {0.0};
    for (std::size_t c = 0; c < chunks; ++c) any[0] = std::max(any[0], double(flags[c]));
    if (processes) processes->max(any);
    return any[0] != 0.0;
}

// The pair loops run eight particles at a time, one per lane (pair_lanes.hpp).

// Density (eq. 2 with the boundary sum), constraint C_i (eq. 1), S'_i (eq. 8) and λ'_i
// (eqs. 6/10) in one pass over the neighbours. The boundary's sums Σ_k V_k W_ik and
// Σ_k V_k ∇W_ik are summed at the step's first pass (first_pass) and kept in `boundary`; later
// passes take them as pbf_delta_pass carried them along: a step's corrections move a particle by
// a small fraction of h (at most 2·10⁻⁵ of ρ0 apart from the sum, in a tank at rest). (S'_i is
// summed afresh every pass: its fluid part swings by a few per cent between Jacobi iterations in
// a packed corner, and kept from the first pass a tank's floor read 14% under ρ0gH.)
template <int D, class K>
void pbf_lambda_pass(const PbfParams& p, const PbfConstants& c, const K& kernel,
                     const FluidView<D>& f, std::span<float> rho,
                     std::span<PositionLambda> x_lambda, std::span<Float4> boundary,
                     bool first_pass, std::span<const float> held,
                     const std::vector<std::uint32_t>* groups) {
    using namespace wide;
    const float vol = f.mass / f.rest_density;
    const Vec<D>* x = f.x.data();
    const auto pass = [&](auto padded, auto first) {
        constexpr bool Padded = decltype(padded)::value;
        constexpr bool First = decltype(first)::value;
        for_each_group(f.x.size(), groups, [&](std::size_t i0, int n) {
            const Points<D> xi = load_points<D>(x, i0, n);
            F w_fluid = splat(kernel.W(0.0f)), sum_grad2{};
            F g0{}, g1{}, g2{};  // ∇_{x_i} C_i, eq. (7), k = i
            const Lists nb(f.fluid_nb, i0, n);
            // The next step's neighbours are fetched before this step's arithmetic, so their loads
            // overlap it.
            Points<D> next{F{}, F{}, F{}};
            if (nb.longest() > 0) {
                Index j[width];
                nb.fetch(0, j);
                next = fetch_points<D, Padded>(x, j);
            }
            for (int k = 0; k < nb.longest(); ++k) {
                const I m = nb.active(k);
                const Points<D> pj = next;
                if (k + 1 < nb.longest()) {
                    Index j[width];
                    nb.fetch(k + 1, j);
                    next = fetch_points<D, Padded>(x, j);
                }
                const Separation r = separation<D>(xi, pj);
                w_fluid += keep(m, W(kernel, r));
                const F s = keep(m, vol * grad_factor(kernel, r));
                g0 += s * r.x;
                g1 += s * r.y;
                g2 += s * r.z;
                sum_grad2 += s * s * r.len2;  // |∇_{x_j} C_i|², fluid neighbour j
            }
            // Static boundary particles have infinite mass: no term of their own in S (eq. 8).
            F w_boundary{}, b0{}, b1{}, b2{};
            if constexpr (First) {
                const BoundarySums bs = boundary_sums<D>(kernel, f, xi, i0, n);
                w_boundary = bs.w;
                b0 = bs.gx;
                b1 = bs.gy;
                b2 = bs.gz;
                store_points4(&boundary[0].x, i0, n, b0, b1, b2, w_boundary);
            } else {
                load_records(&boundary[0].x, i0, n, b0, b1, b2, w_boundary);
            }
            g0 += b0;
            g1 += b1;
            g2 += b2;
            const F S = g0 * g0 + g1 * g1 + g2 * g2 + sum_grad2;
            const F density = f.mass * w_fluid + f.rest_density * w_boundary;
            F C = density / f.rest_density - 1.0f;
            if (!held.empty()) C -= load(&held[i0], n);
            if (p.unilateral) C = max(C, F{});  // eq. (10)
            store(&rho[i0], density, n);
            const F lambda = -c.omega * C / (S + c.epsilon);
            store_points4(&x_lambda[0].x, i0, n, xi.x, xi.y, xi.z, lambda);
        });
    };
    with_padding<D>(f.x_padded, [&](auto padded) {
        if (first_pass)
            pass(padded, std::true_type{});
        else
            pass(padded, std::false_type{});
    });
}

// Density alone, after the last correction.
template <int D, class K>
void pbf_density_pass(const K& kernel, const FluidView<D>& f, std::span<float> rho) {
    compute_density<D>(f, kernel, rho);
}

// Position correction, eq. (9) with the tensile term s_corr of Macklin & Müller eq. (13), applied
// at once: x_i ← x_i + Δx_i, then the collision response (Algorithm 1, line 15) — per particle, so
// one pass does what three did, with the same arithmetic. Each lane's own position comes from
// x_lambda (the positions the λ pass used), so x_out may be the positions themselves.
template <int D, class K>
void pbf_delta_pass(const PbfConstants& c, const K& kernel, const FluidView<D>& f,
                    std::span<const PositionLambda> x_lambda, std::span<Vec<D>> x_out,
                    std::span<Float4> boundary, std::span<float> lambda_sum,
                    const std::vector<std::uint32_t>* groups, const std::uint8_t* apply,
                    std::span<Vec<D>> lost) {
    using namespace wide;
    const float vol = f.mass / f.rest_density;
    const PositionLambda* xl = x_lambda.data();
    Vec<D>* carry = lost.empty() ? nullptr : lost.data();
    const bool s_corr = c.s_corr_scale > 0.0f;
    const float inv_w_dq = 1.0f / c.s_corr_w_dq;
    bool clamp_only = f.collisions.push == nullptr;
    for (const BoundaryObject<D>& o : f.objects) clamp_only = clamp_only && o.collides_by_clamp();
    for_each_group(x_lambda.size(), groups, [&](std::size_t i0, int n) {
        Points<D> xi{F{}, F{}, F{}};
        F li{};
        for (int l = 0; l < n; ++l) {
            xi.x[l] = xl[i0 + l].x;
            xi.y[l] = xl[i0 + l].y;
            if constexpr (D == 3) xi.z[l] = xl[i0 + l].z;
            li[l] = xl[i0 + l].w;
        }
        F f0{}, f1{}, f2{}, b0{}, b1{}, b2{}, wb{};
        // Σ_k V_k ∇W_ik and Σ_k V_k W_ik of the boundary, at the positions of the λ pass.
        load_records(&boundary[0].x, i0, n, b0, b1, b2, wb);
        const Lists nb(f.fluid_nb, i0, n);
        // As in the λ pass: the next neighbours are fetched before this one's arithmetic.
        Points4 next{};
        if (nb.longest() > 0) {
            Index j[width];
            nb.fetch(0, j);
            next = fetch_points4(&xl[0].x, j);
        }
        for (int k = 0; k < nb.longest(); ++k) {
            const I m = nb.active(k);
            const Points4 pj = next;
            if (k + 1 < nb.longest()) {
                Index j[width];
                nb.fetch(k + 1, j);
                next = fetch_points4(&xl[0].x, j);
            }
            const Separation r = separation<D>(xi, Points<D>{pj.x, pj.y, pj.z});
            F coef = li + pj.w;
            if (s_corr) {
                const F w = W(kernel, r) * inv_w_dq;
                // (W/W(Δq))^n: for a whole n (M&M's 4) by products on the eight lanes, which
                // std::pow per lane made s_corr triple the cost of the pass.
                F sc;
                if (c.s_corr_power > 0) {
                    sc = w;
                    for (int e = 1; e < c.s_corr_power; ++e) sc *= w;
                } else {
                    for (int l = 0; l < width; ++l) sc[l] = std::pow(w[l], c.s_corr_n);
                }
                coef -= c.s_corr_scale * sc;
            }
            const F s = keep(m, coef * grad_factor(kernel, r));
            f0 += s * r.x;
            f1 += s * r.y;
            f2 += s * r.z;
        }
        F d0 = vol * f0 + li * b0, d1 = vol * f1 + li * b1, d2 = vol * f2 + li * b2;
        // The part of the earlier corrections that the rounding of x lost joins this one, and
        // what x cannot take of the sum is kept again (Fast2Sum: exact where |Δx| ≤ |x|). At
        // steps of tens of µs a correction lies below half the ulp of a coordinate of 1–2 m
        // (6·10⁻⁸ m), and the velocity taken from the move lost it: a dam break 8 m from the
        // origin at 50 µs steps stood as a block (test_solvers.cpp).
        Points<D> rest{F{}, F{}, F{}};
        if (carry) {
            rest = load_points<D>(carry, i0, n);
            d0 += rest.x;
            d1 += rest.y;
            if constexpr (D == 3) d2 += rest.z;
        }
        Points<D> xn{xi.x + d0, xi.y + d1, xi.z + d2};
        if (carry) {
            rest.x = d0 - (xn.x - xi.x);
            rest.y = d1 - (xn.y - xi.y);
            if constexpr (D == 3) rest.z = d2 - (xn.z - xi.z);
        }
        const Points<D> unclamped = xn;
        if (clamp_only) {
            // Every object collides by a clamp and no log is kept: BoundaryObject::collide on
            // the eight lanes (glm::clamp's comparisons, so a NaN stays NaN for the stability
            // check).
            const auto clamp = [](F v, float lo, float hi) {
                v = select(v < lo, splat(lo), v);
                return select(hi < v, splat(hi), v);
            };
            for (const BoundaryObject<D>& o : f.objects) {
                const Box<D> room = o.centre_room(f.radius);
                xn.x = clamp(xn.x, room.min[0], room.max[0]);
                xn.y = clamp(xn.y, room.min[1], room.max[1]);
                if constexpr (D == 3) xn.z = clamp(xn.z, room.min[2], room.max[2]);
            }
        }
        if (clamp_only && !apply && n == width) {
            // A whole group, every particle moved: the lanes' results stored as vectors (the
            // arithmetic of the loop below, lane by lane).
            F moved = b0 * (xn.x - xi.x) + b1 * (xn.y - xi.y);
            if constexpr (D == 3) moved += b2 * (xn.z - xi.z);
            store_points4(&boundary[0].x, i0, n, b0, b1, b2, wb + moved);
            store_points<D>(x_out.data(), i0, n, xn);
            if (carry) {
                // A clamped coordinate keeps nothing: the wall took the move.
                rest.x = select(xn.x != unclamped.x, F{}, rest.x);
                rest.y = select(xn.y != unclamped.y, F{}, rest.y);
                if constexpr (D == 3) rest.z = select(xn.z != unclamped.z, F{}, rest.z);
                store_points<D>(carry, i0, n, rest);
            }
            if (!lambda_sum.empty())
                store(&lambda_sum[i0], load(&lambda_sum[i0], n) + li, n);
            return;
        }
        for (int l = 0; l < n; ++l) {
            const std::size_t i = i0 + l;
            if (apply && !apply[i]) continue;
            Vec<D> p;
            p[0] = xn.x[l];
            p[1] = xn.y[l];
            if constexpr (D == 3) p[2] = xn.z[l];
            if (!clamp_only) collide_particle<D>(i, p, f.objects, f.radius, f.collisions);
            // The boundary's density sum carried to the new position to first order: a step's
            // corrections move a particle by a small fraction of h (its neighbours are fixed
            // for the step), so the next λ pass needs no boundary pairs.
            float moved = b0[l] * (p[0] - xi.x[l]) + b1[l] * (p[1] - xi.y[l]);
            if constexpr (D == 3) moved += b2[l] * (p[2] - xi.z[l]);
            boundary[i].w = wb[l] + moved;
            x_out[i] = p;
            if (carry) {
                carry[i][0] = p[0] == unclamped.x[l] ? rest.x[l] : 0.0f;
                carry[i][1] = p[1] == unclamped.y[l] ? rest.y[l] : 0.0f;
                if constexpr (D == 3) carry[i][2] = p[2] == unclamped.z[l] ? rest.z[l] : 0.0f;
            }
            if (!lambda_sum.empty()) lambda_sum[i] += li[l];
        }
    });
}

// The largest error, corrected where it is (solver.pbf.peak_tolerance). Once the iterations
// have met the mean tolerance, a step's largest errors lie in scattered spots (impacts, corners)
// which more iterations over every particle would reach slowly, the mean having been met. Here
// the particles above half the peak tolerance and their neighbours (moving) are corrected again
// by themselves, Jacobi iterations as above; the neighbours of the moving ones (measured) hold
// still, but their λ' is recomputed and pushes back, so the moving particles do not compress
// them unseen; until the largest error of the measured is within the tolerance, or after
// max_iterations. Each particle's flags come from its neighbourhood alone (gathered over its
// list; a halo copy takes its owner's), so a split run picks the particles one process picks.
template <int D, class K>
void pbf_correct_peaks(const PbfParams& p, const PbfConstants& c, const K& kernel,
                       const FluidView<D>& view, std::span<Vec<D>> x, std::span<float> rho,
                       PbfState<D>& state, std::span<float> lambda_sum, PbfResult& r) {
    const std::size_t n = x.size();
    constexpr std::size_t width = wide::width;
    state.seed.resize(n);
    state.moving.resize(n);
    state.measured.resize(n);
    const float rho0 = view.rest_density;
    const float* held = state.held.empty() ? nullptr : state.held.data();
    const auto error = [&](std::size_t i) {
        return rho[i] / rho0 - 1.0f - (held ? held[i] : 0.0f);
    };
    // Seeds from half the tolerance on: the region then takes in the particles about to pass
    // it, which would otherwise pass it in the next step (at the whole tolerance, the reference
    // dam break's peak errors at 0.5 s stood 20% higher for the same time).
    const float limit = 0.5f * static_cast<float>(p.peak_tolerance);
    std::uint8_t* seed = state.seed.data();
    parallel_for(n, [&](std::size_t i) { seed[i] = error(i) > limit; }, 4096);
    refresh_halo(view.processes, std::span<std::uint8_t>(state.seed));
    // to[i]: from[i] or any neighbour's. Set particles are few (in the 0.01% benchmark row 3%
    // are seeds and 27% move), so each set particle marks its neighbours (the fluid lists are
    // symmetric: d·d of a pair is the same bits either way); every particle asking its own
    // neighbours was 5% of that row's time. Marks are idempotent, so their order does not
    // matter. Split over processes a halo copy's list may lack some of its owner's neighbours:
    // there each particle asks its own, as before.
    const NeighborList& nb = view.fluid_nb;
    const auto spread = [&](const std::vector<std::uint8_t>& from, std::vector<std::uint8_t>& to) {
        const std::uint8_t* in = from.data();
        std::uint8_t* out = to.data();
        if (view.processes) {
            parallel_for(
                n,
                [&](std::size_t i) {
                    std::uint8_t v = in[i];
                    if (!v)
                        for (std::uint32_t j : nb.of(i))
                            if (in[j]) {
                                v = 1;
                                break;
                            }
                    out[i] = v;
                },
                1024);
        } else {
            std::copy(in, in + n, out);
            parallel_for(
                n,
                [&](std::size_t i) {
                    if (in[i])
                        for (std::uint32_t j : nb.of(i))
                            std::atomic_ref<std::uint8_t>(out[j]).store(1, std::memory_order_relaxed);
                },
                1024);
        }
        refresh_halo(view.processes, std::span<std::uint8_t>(to));
    };
    spread(state.seed, state.moving);
    spread(state.moving, state.measured);
    // The groups of eight that hold a moving (a measured) particle: the passes run over these.
    // Each group's flag in parallel, then the list in group order (serially, one byte a group:
    // the loop over the particles was serial too, and the other threads waited for it).
    const std::size_t groups = (n + width - 1) / width;
    constexpr std::size_t chunk = 64;  // groups a task of the largest error's loop (below)
    state.group_flag.resize(groups);
    state.chunk_max.reserve((groups + chunk - 1) / chunk);  // a warm step allocates nothing
    const auto groups_of = [&](const std::vector<std::uint8_t>& flag, std::vector<std::uint32_t>& g) {
        std::uint8_t* any = state.group_flag.data();
        const std::uint8_t* f = flag.data();
        parallel_for(groups, [&](std::size_t k) {
            std::uint8_t a = 0;
            for (std::size_t i = k * width; i < std::min(n, (k + 1) * width); ++i) a |= f[i];
            any[k] = a;
        }, 256);
        g.clear();
        g.reserve(groups);  // grown once: a warm step allocates nothing
        for (std::size_t k = 0; k < groups; ++k)
            if (any[k]) g.push_back(static_cast<std::uint32_t>(k));
    };
    groups_of(state.moving, state.moving_groups);
    groups_of(state.measured, state.measured_groups);
    const std::span<const std::uint8_t> halo =
        view.processes ? view.processes->halo() : std::span<const std::uint8_t>{};
    double worst = r.density_error_max;
    for (int it = 0; it < p.max_iterations && worst > p.peak_tolerance; ++it) {
        pbf_delta_pass<D, K>(c, kernel, view, state.x_lambda, x, state.boundary, lambda_sum,
                             &state.moving_groups, state.moving.data(), state.lost);
        refresh_halo(view.processes, x);
        pbf_lambda_pass<D, K>(p, c, kernel, view, rho, state.x_lambda, state.boundary, false,
                              state.held, &state.measured_groups);
        refresh_halo(view.processes, std::span<PositionLambda>(state.x_lambda));
        // The largest error of the measured, a chunk of groups at a time (a maximum: the same
        // whatever the split).
        const std::vector<std::uint32_t>& mg = state.measured_groups;
        const std::size_t chunks = (mg.size() + chunk - 1) / chunk;
        state.chunk_max.assign(chunks, 0.0f);
        float* chunk_max = state.chunk_max.data();
        parallel_for(chunks, [&](std::size_t c) {
            float m = 0.0f;
            for (std::size_t k = c * chunk; k < std::min(mg.size(), (c + 1) * chunk); ++k)
                for (std::size_t i = std::size_t(mg[k]) * width;
                     i < std::min(n, std::size_t(mg[k] + 1) * width); ++i)
                    if (state.measured[i] && (halo.empty() || !halo[i])) m = std::max(m, error(i));
            chunk_max[c] = m;
        }, 2);
        std::array<double, 1> most = {0.0};
        for (std::size_t c = 0; c < chunks; ++c) most[0] = std::max(most[0], double(chunk_max[c]));
        if (view.processes) view.processes->max(most);
        worst = most[0];
        ++r.peak_iterations;
    }
    // Jacobi over a region whose rim holds still can stall above the tolerance (one step of the
    // 2D dam break of Pbf.PeakToleranceBoundsTheLargestError on an Intel Xeon's bits: 100
    // iterations, 0.0022 against 0.002): such a step counts as one that stopped at its cap.
    if (worst > p.peak_tolerance) r.capped = r.capped_peak = true;
    density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max,
                        view.processes, state.held);
}

template <int D, class K>
PbfResult pbf_project(const PbfParams& p, const PbfConstants& c, const K& kernel,
                      const FluidView<D>& view, std::span<Vec<D>> x, std::span<float> rho,
                      PbfState<D>& state, std::span<float> lambda_sum,
                      std::span<const float> warm) {
    PbfResult r;
    collide_with_objects<D>(x, view.objects, view.radius, view.collisions);
    bool measured = true;  // r holds the error of the last λ pass
    // Over-relaxed Jacobi (ω > 1) diverges where a neighbourhood's largest eigenvalue passes 2/ω:
    // once the largest error grows from one measured pass to the next, the step goes on at ω = 1.
    PbfConstants k = c;
    double last_max = INFINITY;
    bool met = false;  // the iterations met the tolerance: x_lambda and rho are x's
    for (;;) {
        // After the last allowed correction, the density of the final positions comes from
        // XSPH's pass (Pbf::step); an interrupt ends the iterations too, so a slow step answers
        // within one iteration.
        const bool stop = view.stop && view.stop->load(std::memory_order_relaxed);
        if (r.iterations >= p.max_iterations || stop) break;
        pbf_lambda_pass<D, K>(p, k, kernel, view, rho, state.x_lambda, state.boundary,
                              r.iterations == 0, state.held);
        // The warm start joins the first correction (a halo copy takes its owner's below): added
        // to it, or (warm_start_join larger) the larger push of the two where both push the same
        // way, since the sum counts twice the push this pass computed anyway; their sum where
        // one is zero (a particle not compressed at the prediction) or they differ in sign.
        if (r.iterations == 0 && !warm.empty()) {
            if (p.warm_start_join == PbfParams::WarmJoin::sum)
                parallel_for(
                    x.size(), [&](std::size_t i) { state.x_lambda[i].w += warm[i]; }, 4096);
            else
                parallel_for(
                    x.size(),
                    [&](std::size_t i) {
                        const float l = state.x_lambda[i].w, w = warm[i];
                        state.x_lambda[i].w =
                            l * w > 0.0f ? (std::abs(l) >= std::abs(w) ? l : w) : l + w;
                    },
                    4096);
        }
        refresh_halo(view.processes, std::span<PositionLambda>(state.x_lambda));  // λ' for Δx
        if (r.iterations == 0 && state.wall_push_at.size() == x.size())
            positions_of<D>(state.x_lambda, state.wall_push_at);
        // Nothing compressed and nothing carried (a fluid in free fall, or held apart): every
        // correction would move no particle (Δx = 0 to the bit), and every later λ pass would
        // measure this one's positions again, so the step ends here, with no correction. Not
        // with a fixed count (min = max): a benchmark that asks for N iterations gets them.
        if (r.iterations == 0 && p.min_iterations < p.max_iterations &&
            !any_correction(state.x_lambda, view.processes)) {
            density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max,
                                view.processes, state.held);
            met = true;
            break;
        }
        // The error decides only from min_iterations on; before that it is measured for the last
        // allowed pass alone (it is what the result reports). One loop over the particles, and
        // one wait for the other threads, fewer per skipped iteration.
        // Over-relaxed, every pass is measured: the largest error is the guard's signal.
        measured = r.iterations >= p.min_iterations || r.iterations + 1 >= p.max_iterations ||
                   k.omega != 1.0f;
        if (measured) {
            density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max,
                                view.processes, state.held);
            if (r.density_error_max > last_max) k.omega = 1.0f;
            last_max = r.density_error_max;
        }
        // Holding a share 1 − s of the start's error, a step corrects to s times the tolerance:
        // the error then stays within it as it would with whole steps (the held part shrinks
        // by 1 − s a step), and a short step takes as many iterations as a whole one.
        const bool converged = r.iterations >= p.min_iterations &&
                               r.density_error_mean <= p.density_tolerance * state.share;
        if (converged) {
            met = true;
            break;
        }
        pbf_delta_pass<D, K>(k, kernel, view, state.x_lambda, x, state.boundary, lambda_sum,
                             nullptr, nullptr, state.lost);
        refresh_halo(view.processes, x);  // the positions the next λ pass reads
        ++r.iterations;
    }
    const bool interrupted = view.stop && view.stop->load(std::memory_order_relaxed);
    r.capped = !met && !interrupted && p.min_iterations < p.max_iterations;
    if (met && p.peak_tolerance > 0.0 && r.density_error_max > p.peak_tolerance)
        pbf_correct_peaks<D, K>(p, k, kernel, view, x, rho, state, lambda_sum, r);
    // Interrupted before a measured pass: the error of the last one there was.
    if (!measured)
        density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max,
                            view.processes, state.held);
    refresh_halo(view.processes, rho);  // XSPH weighs the neighbours by these
    return r;
}

template <int D>
Pbf<D>::Pbf(const PbfParams& p, const FluidConstants<D>& fluid, std::size_t particles)
    : params(p) {
    std::visit(
        [&](const auto& k) {
            constants =
                pbf_constants<D>(p, k, fluid.mass, fluid.rest_density, fluid.spacing);
        },
        fluid.kernel);
    state.resize(particles);
}

template <int D>
void Pbf<D>::stabilise_start(StepContext<D>& c) {
    // The iterations on x_n (the neighbours found at x* serve: a short step moves a particle by
    // a small fraction of h) to the mean tolerance, then each particle's error to it too (the
    // peak correction), with x_n's own densities and no warm start; no boundary force (a move
    // without a velocity carries no impulse).
    ParticleSet<D>& p = c.particles();
    FluidView<D> start = c.view();
    start.x = p.x_prev;
    start.x_padded = false;
    state.held.clear();
    state.share = 1.0f;
    PbfParams q = params;
    q.peak_tolerance = params.density_tolerance;
    state.start_rho.resize(p.size());
    std::visit(
        [&](const auto& k) {
            pbf_project<D>(q, constants, k, start, p.x_prev, state.start_rho, state, {}, {});
            // ρ of the final x_n (the last λ pass measured the positions before its correction).
            pbf_density_pass<D>(k, start, state.start_rho);
        },
        c.kernel());
    // x* again from the moved x_n, as predict() makes it: the velocity stays as it was.
    const float dt = c.dt();
    parallel_for(p.size(), [&](std::size_t i) { p.x[i] = p.x_prev[i] + dt * p.v[i]; }, 4096);
    std::fill(state.lost.begin(), state.lost.end(), Vec<D>{});  // x_n's: no velocity
}

template <int D>
void Pbf<D>::hold_leftover(StepContext<D>& c, float share, std::span<const float> start_rho) {
    state.share = share;
    if (share >= 1.0f) {
        state.held.clear();
        return;
    }
    // The error of the step's start (ρ of x_n, as the last step's final pass or the
    // pre-stabilisation measured it; a new particle's ρ0 holds nothing): within the tolerance,
    // whole (what whole steps leave, a short step leaves too), and 1 − share of its excess.
    const ParticleSet<D>& p = c.particles();
    state.held.resize(p.size());
    const float inv_rho0 = 1.0f / c.view().rest_density;
    const float keep = 1.0f - share;
    const float tolerance = float(params.density_tolerance);
    const bool unilateral = params.unilateral;
    const float* rho = start_rho.data();
    float* held = state.held.data();
    parallel_for(
        p.size(),
        [&](std::size_t i) {
            float e = rho[i] * inv_rho0 - 1.0f;
            if (unilateral) e = std::max(e, 0.0f);
            const float within = std::clamp(e, -tolerance, tolerance);
            held[i] = within + keep * (e - within);
        },
        4096);
}

// Macklin & Müller 2013, Algorithm 1; a short first step pre-stabilised as in Macklin et al.
// 2014, section 4.4.
template <int D>
void Pbf<D>::step(StepContext<D>& c) {
    // The velocity is the step's displacement over Δt (line 17), so a correction of compression
    // left by earlier steps makes a speed ∝ 1/Δt: a step shorter than half the flow's CFL step
    // corrects only its share of that error and holds the rest (StepContext::leftover_share).
    // That share acts as a spring stiffening as 1/Δt: a short step holds the error within the
    // tolerance whole, and a short first step, whose start is the scene's packing (a lattice's
    // excess at the walls), first corrects it on x_n, moving x_n and x* alike, which makes no
    // velocity (1 µs steps from a lattice reached 0.57 m/s without both, 0.49 with either one
    // alone, 0.25 with both: test_solvers.cpp).
    const float share = c.leftover_share();  // of the velocities the step starts from
    c.accelerate_and_predict();  // apply forces: v ← v + Δt f_ext; predict: x* ← x + Δt v
    c.find_neighbors();                // find neighbouring particles
    ParticleSet<D>& p = c.particles();
    state.lost.resize(p.size());  // grown once: a warm step allocates nothing
    std::fill(state.lost.begin(), state.lost.end(), Vec<D>{});
    // After the search: it reorders the particles.
    const bool stabilising = share < 1.0f && c.first_step();
    if (stabilising) stabilise_start(c);
    hold_leftover(c, share, stabilising ? std::span<const float>(state.start_rho)
                                        : std::span<const float>(p.rho));
    c.apply_non_pressure_forces(true);     // surface tension, adhesion (at x*, densities of the last step)
    PbfResult r;
    const bool forces = c.tracking_boundary_forces();
    // The warm start: a share of the smaller of the last two steps' Σλ' (per Δt², so a change of
    // step carries over), joined to the first correction. The smaller of two: a push that one
    // step needed once (an impact) is not repeated; the steady part (a resting column's weight,
    // which Jacobi otherwise rebuilds from the floor up every step) is. Joined as the larger push
    // (warm_start_join), where the push shrinks from step to step (a column running out) its
    // trend carried one step on, 2a − b, if that is smaller still (none once it changes sign):
    // the larger push is not reduced by the first pass's own, as the sum's is.
    const bool warm = params.warm_start > 0.0 && p.carrying && p.carried.size() == p.size();
    if (warm) {
        state.warm.resize(p.size());
        const float scale = float(params.warm_start) * c.dt() * c.dt();
        const bool trend = params.warm_start_join == PbfParams::WarmJoin::larger;
        const Float2* carried = p.carried.data();
        float* out = state.warm.data();
        parallel_for(
            p.size(),
            [&](std::size_t i) {
                // The one of smaller size; none where they differ in sign (a bilateral
                // constraint's pull after a push).
                const float a = carried[i].a, b = carried[i].b;
                if (!(a * b > 0.0f)) {
                    out[i] = 0.0f;
                    return;
                }
                const float smaller = a < 0.0f ? std::max(a, b) : std::min(a, b);
                if (!trend) {
                    out[i] = scale * smaller;
                    return;
                }
                const float ahead = 2.0f * a - b;
                out[i] = ahead * a > 0.0f
                             ? scale * (a < 0.0f ? std::max(smaller, ahead) : std::min(smaller, ahead))
                             : 0.0f;
            },
            4096);
    }
    const bool sums = forces || warm;
    if (sums) state.lambda_sum.assign(p.size(), 0.0f);
    if (forces)
        state.wall_push_at.resize(p.size());
    else
        state.wall_push_at.clear();
    c.timed(&StageTimes::solver, [&] {  // while iter < solverIterations: λ, Δp, collisions
        std::visit(
            [&](const auto& k) {
                r = pbf_project<D>(params, constants, k, c.view(), p.x, p.rho, state,
                                   sums ? std::span<float>(state.lambda_sum) : std::span<float>(),
                                   warm ? std::span<const float>(state.warm)
                                        : std::span<const float>());
            },
            c.kernel());
    });
    if (p.carrying && p.carried.size() == p.size()) {
        // This step's Σλ' per Δt² becomes the last; the last, the one before (zero without a
        // warm start: nothing is carried then).
        const float inv_dt2 = 1.0f / (c.dt() * c.dt());
        Float2* carried = p.carried.data();
        const float* sum = state.lambda_sum.data();
        parallel_for(
            p.size(),
            [&](std::size_t i) {
                carried[i] = warm ? Float2{sum[i] * inv_dt2, carried[i].a} : Float2{};
            },
            4096);
    }
    if (forces) {
        // The boundary's share of each correction (eq. 9, boundary term) moves particle i by
        // Δx_ik = λ'_i V_k ∇W_ik per iteration; over the step that is an impulse m Σ Δx_ik / Δt
        // delivered in Δt, so a force m Σ Δx_ik / Δt² on i, and by Newton's third law
        // f_k = −(m/Δt²) Σ_i Λ_i V_k ∇W_ik with Λ_i = Σ λ'_i over the applied corrections. The
        // gradient is taken where the corrections took it, at the step's first λ pass
        // (wall_push_at), so the walls get back exactly what the fluid got. (Taken at the final
        // positions, a few per cent of h nearer or farther, a free box's and its water's momenta
        // summed to −0.056 N·s/m where the box had 0.13, and a held box felt ρ0·g·V +1.34%
        // against +0.15%: docs/bodies.md, "Forces on a body".)
        const float scale = -p.mass / (c.dt() * c.dt());
        const float* lambda_sum = state.lambda_sum.data();
        const float* volume = c.view().bvolume.data();
        std::visit(
            [&](const auto& k) {
                c.boundary_reaction(
                    [&, k](std::uint32_t i, std::size_t b, float len) {
                        return scale * lambda_sum[i] * volume[b] * k.grad_factor(len);
                    },
                    state.wall_push_at);
            },
            c.kernel());
    }
    c.stats().iterations = r.iterations;
    c.stats().capped = r.capped;
    c.stats().capped_peak = r.capped_peak;
    c.contain_and_update_velocities();  // update velocity: v ← (x* − x)/Δt
    // The corrections' part that the rounding of x lost (pbf_delta_pass), as a velocity; a halo
    // copy takes its owner's (its own passes are overwritten by the owner's positions).
    refresh_halo(c.view().processes, std::span<Vec<D>>(state.lost));
    const float inv_dt = 1.0f / c.dt();
    const Vec<D>* lost = state.lost.data();
    parallel_for(p.size(), [&](std::size_t i) { p.v[i] += lost[i] * inv_dt; }, 4096);
    // Apply vorticity confinement and XSPH viscosity; the density of the final positions (for
    // the statistics and the frames) comes from XSPH's pass over the pairs.
    c.post_velocity_and_density(state.x_lambda);  // x_lambda is free once the iterations are done
}

template struct Pbf<2>;
template struct Pbf<3>;

#define SEICHE_INSTANTIATE_PBF(D, K)                                                             \
    template PbfConstants pbf_constants<D, K<D>>(const PbfParams&, const K<D>&, float, float,    \
                                                 float);                                         \
    template PbfResult pbf_project<D, K<D>>(const PbfParams&, const PbfConstants&, const K<D>&,  \
                                            const FluidView<D>&, std::span<Vec<D>>,              \
                                            std::span<float>, PbfState<D>&, std::span<float>,    \
                                            std::span<const float>);                             \
    template void pbf_lambda_pass<D, K<D>>(const PbfParams&, const PbfConstants&, const K<D>&,   \
                                           const FluidView<D>&, std::span<float>,                \
                                           std::span<PositionLambda>, std::span<Float4>, bool,   \
                                           std::span<const float>,                               \
                                           const std::vector<std::uint32_t>*);                   \
    template void pbf_density_pass<D, K<D>>(const K<D>&, const FluidView<D>&, std::span<float>); \
    template void pbf_delta_pass<D, K<D>>(const PbfConstants&, const K<D>&, const FluidView<D>&, \
                                          std::span<const PositionLambda>, std::span<Vec<D>>,     \
                                          std::span<Float4>, std::span<float>,                   \
                                          const std::vector<std::uint32_t>*,                     \
                                          const std::uint8_t*, std::span<Vec<D>>);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE_PBF)
#undef SEICHE_INSTANTIATE_PBF

// ---- its keys: solver.pbf.* ----

std::span<const Param<WorldDef>> PbfParams::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        integer_param<W, &W::solver, &SolverParams::pbf, &PbfParams::min_iterations>(
            "solver.pbf.min_iterations", "", closed(1, 1000),
            "position corrections always applied per step; at most max_iterations (none while no "
            "particle is compressed and no warm start is carried, each would move nobody, "
            "unless min_iterations = max_iterations)"),
        integer_param<W, &W::solver, &SolverParams::pbf, &PbfParams::max_iterations>(
            "solver.pbf.max_iterations", "", closed(1, 1000), "upper bound per step"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::density_tolerance>(
            "solver.pbf.density_tolerance", "", open(0, 1),
            "stop when the mean density error falls to this (0.002 = 0.2%)"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::relaxation>(
            "solver.pbf.relaxation", "", closed(0, 10),
            "constraint-force mixing ε, as a fraction of S'_i of a particle in a full rest "
            "neighbourhood, so it does not depend on units or resolution"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::over_relaxation>(
            "solver.pbf.over_relaxation", "", closed(0.5, 2),
            "ω: each Jacobi correction is ω times eq. (9)'s; 1 is the paper's, 1.5 needs about "
            "half the iterations at a 0.01% tolerance, and from about 1.7 a step of few "
            "iterations can blow up (a step whose largest error grows goes on at ω = 1)"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::warm_start>(
            "solver.pbf.warm_start", "", closed(0, 0.9),
            "share of the smaller of the last two steps' corrections (Σλ') that joins the next "
            "step's first (solver.pbf.warm_start_join); 0 = none. Added: 0.5 needs about a "
            "third fewer iterations at a 0.01% tolerance, 40% fewer in a resting tank, and from "
            "about 0.8 the fluid ends expanded; as the larger push: 0.8 (0.9 holds a resting "
            "tank's top layers apart)"),
        choice_param<W, &W::solver, &SolverParams::pbf, &PbfParams::warm_start_join>(
            "solver.pbf.warm_start_join", {"sum", "larger"},
            "sum: the warm start is added to the first correction; larger: the larger push of "
            "the two (the carried one following its trend where it shrinks), which with a "
            "share of 0.8 takes the fewest iterations, with solver.pbf.peak_tolerance at 0.01% "
            "and min_iterations 1 at 0.1%"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::peak_tolerance>(
            "solver.pbf.peak_tolerance", "", closed(0, 1),
            "the largest density error a step leaves (0 = unbounded): once the mean meets "
            "density_tolerance, the particles above half of it and their neighbours are "
            "corrected again on their own until none is above it, up to max_iterations times; "
            "10 times density_tolerance suits the warm start"),
        boolean_param<W, &W::solver, &SolverParams::pbf, &PbfParams::unilateral>(
            "solver.pbf.unilateral",
            "treat the constraint as C ≤ 0 (Bender & Fernández, eq. 10): only compression is "
            "corrected, which avoids clumping at the free surface"),
        boolean_param<W, &W::solver, &SolverParams::pbf, &PbfParams::tensile_correction>(
            "solver.pbf.tensile_correction", "add the artificial pressure s_corr (M&M 2013 eq. 13)"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::s_corr_k>(
            "solver.pbf.s_corr_k", "", closed(0, 1),
            "strength k of s_corr, as an equivalent density error"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::s_corr_n>(
            "solver.pbf.s_corr_n", "", closed(1, 8), "exponent n of s_corr"),
        number_param<W, &W::solver, &SolverParams::pbf, &PbfParams::s_corr_dq>(
            "solver.pbf.s_corr_dq", "", open(0, 1), "|Δq| of s_corr as a fraction of h"),
    };
    return table;
}

}  // namespace seiche
