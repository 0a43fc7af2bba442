// Position Based Fluids — Macklin & Müller 2013, eqs. (1)–(13); boundary terms and unilateral
// constraint as in Bender & Fernández 2019, eqs. (7)–(10); Akinci et al. 2012 boundary volumes.
//
// Units. With equal fluid masses m we work with λ'_i = λ_i / m (m²) so that nothing depends on
// the mass scale: S'_i = m·S_i (1/m²), and eq. (9) becomes
//   Δx_i = Σ_j (m/ρ0)(λ'_i + λ'_j + s_corr) ∇W_ij + Σ_k V_k λ'_i ∇W_ik.
#include "seiche/pbf.hpp"

#include "pbf_passes.hpp"

#include "seiche/step_context.hpp"

#include <algorithm>
#include <cmath>

#include "seiche/boundary.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

template <int D, class K>
PbfConstants pbf_constants(const PbfParams& p, const K& kernel, float mass, float rest_density,
                           float spacing) {
    // S' of a particle inside a resting lattice: the |Σ∇C|² term vanishes by symmetry.
    const double vol = double(mass) / rest_density;
    const double s_rest = vol * vol * lattice_sums<D>(kernel, spacing).grad2;
    PbfConstants c;
    c.epsilon = static_cast<float>(p.relaxation * s_rest);
    // s_corr acts like an extra compression k·(W/W(Δq))^n of the pair, converted to λ' units.
    c.s_corr_scale = p.tensile_correction ? static_cast<float>(p.s_corr_k / s_rest) : 0.0f;
    c.s_corr_n = static_cast<float>(p.s_corr_n);
    c.s_corr_w_dq = kernel.W(static_cast<float>(p.s_corr_dq) * kernel.support());
    return c;
}

void density_error_stats(std::span<const float> rho, float rest_density, double& mean,
                         double& max) {
    double sum = 0.0;
    float worst = 0.0f;
    for (float r : rho) {
        const float e = density_error(r, rest_density);
        sum += e;
        worst = std::max(worst, e);
    }
    mean = rho.empty() ? 0.0 : sum / double(rho.size());
    max = worst;
}

namespace {

// The neighbour loops below are written for `omp simd`: one pair per lane, sums as explicit
// reductions. The reduction order is fixed by the compiled vector width, so results stay
// bitwise identical for any thread count.

// Density (eq. 2 with the boundary sum), constraint C_i (eq. 1), S'_i (eq. 8) and λ'_i
// (eqs. 6/10) in one pass over the neighbours.
}  // namespace

template <int D, class K>
void pbf_lambda_pass(const PbfParams& p, const PbfConstants& c, const K& kernel,
                     const FluidView<D>& f, std::span<float> rho, std::span<float> lambda) {
    const float volume = f.mass / f.rest_density;
    const Vec<D>* x = f.x.data();
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    parallel_for(f.x.size(), [&](std::size_t i) {
        // Local copies, so the loops vectorise (see sph.hpp).
        const K kern = kernel;
        const float vol = volume;
        const Vec<D> xi = x[i];
        float w_fluid = kern.W(0.0f), w_boundary = 0.0f, sum_grad2 = 0.0f;
        float g0 = 0.0f, g1 = 0.0f, g2 = 0.0f;  // ∇_{x_i} C_i, eq. (7), k = i
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
#pragma omp simd simdlen(8) reduction(+ : w_fluid, sum_grad2, g0, g1, g2)
        for (int k = 0; k < m; ++k) {
            const Vec<D>& xj = x[idx[k]];
            const float rx = xi.x - xj.x, ry = xi.y - xj.y, rz = z_of<D>(xi) - z_of<D>(xj);
            const float len2 = rx * rx + ry * ry + rz * rz;
            const float len = std::sqrt(len2);
            w_fluid += kern.W(len);
            const float gfk = kern.grad_factor(len);
            const float s = vol * gfk;
            g0 += s * rx;
            g1 += s * ry;
            g2 += s * rz;
            sum_grad2 += s * s * len2;  // |∇_{x_j} C_i|², fluid neighbour j
        }
        // Static boundary particles have infinite mass: no term of their own in S (eq. 8).
        const auto bn = f.boundary_nb.of(i);
        const std::uint32_t* bidx = bn.data();
        const int mb = static_cast<int>(bn.size());
#pragma omp simd simdlen(8) reduction(+ : w_boundary, g0, g1, g2)
        for (int k = 0; k < mb; ++k) {
            const Vec<D>& xk = bx[bidx[k]];
            const float rx = xi.x - xk.x, ry = xi.y - xk.y, rz = z_of<D>(xi) - z_of<D>(xk);
            const float len = std::sqrt(rx * rx + ry * ry + rz * rz);
            const float v = bv[bidx[k]];
            w_boundary += v * kern.W(len);
            const float gbk = kern.grad_factor(len);
            const float s = v * gbk;
            g0 += s * rx;
            g1 += s * ry;
            g2 += s * rz;
        }
        rho[i] = f.mass * w_fluid + f.rest_density * w_boundary;
        float C = rho[i] / f.rest_density - 1.0f;
        if (p.unilateral) C = std::max(C, 0.0f);  // eq. (10)
        const float S = g0 * g0 + g1 * g1 + g2 * g2 + sum_grad2;
        lambda[i] = -C / (S + c.epsilon);
    });
}

// Density alone, after the last correction.
template <int D, class K>
void pbf_density_pass(const K& kernel, const FluidView<D>& f, std::span<float> rho) {
    compute_density<D>(f, kernel, rho);
}

// Position correction, eq. (9) with the tensile term s_corr of Macklin & Müller eq. (13).
template <int D, class K>
void pbf_delta_pass(const PbfConstants& c, const K& kernel, const FluidView<D>& f,
                    std::span<const float> lambda, std::span<Vec<D>> dx) {
    const float vol = f.mass / f.rest_density;
    const Vec<D>* x = f.x.data();
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    const float* lam = lambda.data();
    const bool s_corr = c.s_corr_scale > 0.0f;
    const float inv_w_dq = 1.0f / c.s_corr_w_dq;
    parallel_for(f.x.size(), [&](std::size_t i) {
        const K kern = kernel;  // a local copy, so the loops vectorise (see sph.hpp)
        const Vec<D> xi = x[i];
        const float li = lam[i];
        float f0 = 0.0f, f1 = 0.0f, f2 = 0.0f, b0 = 0.0f, b1 = 0.0f, b2 = 0.0f;
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
        if (s_corr) {
            for (int k = 0; k < m; ++k) {
                const Vec<D>& xj = x[idx[k]];
                const float rx = xi.x - xj.x, ry = xi.y - xj.y, rz = z_of<D>(xi) - z_of<D>(xj);
                const float len = std::sqrt(rx * rx + ry * ry + rz * rz);
                const float sc = -c.s_corr_scale * std::pow(kern.W(len) * inv_w_dq, c.s_corr_n);
                const float s = (li + lam[idx[k]] + sc) * kern.grad_factor(len);
                f0 += s * rx;
                f1 += s * ry;
                f2 += s * rz;
            }
        } else {
#pragma omp simd simdlen(8) reduction(+ : f0, f1, f2)
            for (int k = 0; k < m; ++k) {
                const Vec<D>& xj = x[idx[k]];
                const float rx = xi.x - xj.x, ry = xi.y - xj.y, rz = z_of<D>(xi) - z_of<D>(xj);
                const float len = std::sqrt(rx * rx + ry * ry + rz * rz);
                const float s = (li + lam[idx[k]]) * kern.grad_factor(len);
                f0 += s * rx;
                f1 += s * ry;
                f2 += s * rz;
            }
        }
        const auto bn = f.boundary_nb.of(i);
        const std::uint32_t* bidx = bn.data();
        const int mb = static_cast<int>(bn.size());
#pragma omp simd simdlen(8) reduction(+ : b0, b1, b2)
        for (int k = 0; k < mb; ++k) {
            const Vec<D>& xk = bx[bidx[k]];
            const float rx = xi.x - xk.x, ry = xi.y - xk.y, rz = z_of<D>(xi) - z_of<D>(xk);
            const float len = std::sqrt(rx * rx + ry * ry + rz * rz);
            const float s = bv[bidx[k]] * kern.grad_factor(len);
            b0 += s * rx;
            b1 += s * ry;
            b2 += s * rz;
        }
        Vec<D> d;
        d[0] = vol * f0 + li * b0;
        d[1] = vol * f1 + li * b1;
        if constexpr (D == 3) d[2] = vol * f2 + li * b2;
        dx[i] = d;
    });
}

template <int D, class K>
PbfResult pbf_project(const PbfParams& p, const PbfConstants& c, const K& kernel,
                      const FluidView<D>& view, std::span<Vec<D>> x, std::span<float> rho,
                      PbfState<D>& state, std::span<Vec<D>> dx,
                      std::span<float> lambda_sum) {
    PbfResult r;
    collide_with_objects<D>(x, view.objects, view.radius, view.collisions);
    for (;;) {
        // After the last allowed correction only the density is needed (for the statistics); an
        // interrupt ends the iterations there too, so a slow step answers within one iteration.
        const bool stop = view.stop && view.stop->load(std::memory_order_relaxed);
        if (r.iterations >= p.max_iterations || stop) {
            pbf_density_pass<D, K>(kernel, view, rho);
            density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max);
            break;
        }
        pbf_lambda_pass<D, K>(p, c, kernel, view, rho, state.lambda);
        density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max);
        const bool converged =
            r.iterations >= p.min_iterations && r.density_error_mean <= p.density_tolerance;
        if (converged) break;
        pbf_delta_pass<D, K>(c, kernel, view, state.lambda, dx);
        parallel_for(x.size(), [&](std::size_t i) { x[i] += dx[i]; });
        if (!lambda_sum.empty())
            parallel_for(x.size(), [&](std::size_t i) { lambda_sum[i] += state.lambda[i]; });
        collide_with_objects<D>(x, view.objects, view.radius, view.collisions);
        ++r.iterations;
    }
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

// Macklin & Müller 2013, Algorithm 1.
template <int D>
void Pbf<D>::step(StepContext<D>& c) {
    c.apply_external_accelerations();  // apply forces: v ← v + Δt f_ext
    c.predict();                       // predict position: x* ← x + Δt v
    c.find_neighbors();                // find neighbouring particles
    PbfResult r;
    ParticleSet<D>& p = c.particles();
    const bool forces = c.tracking_boundary_forces();
    if (forces) state.lambda_sum.assign(p.size(), 0.0f);
    c.timed(&StageTimes::solver, [&] {  // while iter < solverIterations: λ, Δp, collisions
        std::visit(
            [&](const auto& k) {
                r = pbf_project<D>(params, constants, k, c.view(), p.x, p.rho, state,
                                   c.vector_scratch(),
                                   forces ? std::span<float>(state.lambda_sum) : std::span<float>());
            },
            c.kernel());
    });
    if (forces) {
        // The boundary's share of each correction (eq. 9, boundary term) moves particle i by
        // Δx_ik = λ'_i V_k ∇W_ik per iteration; over the step that is an impulse m Σ Δx_ik / Δt
        // delivered in Δt, so a force m Σ Δx_ik / Δt² on i, and by Newton's third law
        // f_k = −(m/Δt²) Σ_i Λ_i V_k ∇W_ik with Λ_i = Σ λ'_i over the applied corrections. The
        // gradient is taken at the final positions: the corrections of one step are a small
        // fraction of h, and a fluid at rest on a floor gives back its weight (test).
        const float scale = -p.mass / (c.dt() * c.dt());
        const float* lambda_sum = state.lambda_sum.data();
        const float* volume = c.view().bvolume.data();
        std::visit(
            [&](const auto& k) {
                c.boundary_reaction([&, k](std::uint32_t i, std::size_t b, float len) {
                    return scale * lambda_sum[i] * volume[b] * k.grad_factor(len);
                });
            },
            c.kernel());
    }
    c.stats().iterations = r.iterations;
    c.stats().density_error_mean = r.density_error_mean;
    c.stats().density_error_max = r.density_error_max;
    c.contain_and_update_velocities();  // update velocity: v ← (x* − x)/Δt
    c.post_velocity();                  // apply vorticity confinement and XSPH viscosity
}

template struct Pbf<2>;
template struct Pbf<3>;

#define SEICHE_INSTANTIATE_PBF(D, K)                                                             \
    template PbfConstants pbf_constants<D, K<D>>(const PbfParams&, const K<D>&, float, float,    \
                                                 float);                                         \
    template PbfResult pbf_project<D, K<D>>(const PbfParams&, const PbfConstants&, const K<D>&,  \
                                            const FluidView<D>&, std::span<Vec<D>>,              \
                                            std::span<float>, PbfState<D>&, std::span<Vec<D>>,   \
                                            std::span<float>);                                   \
    template void pbf_lambda_pass<D, K<D>>(const PbfParams&, const PbfConstants&, const K<D>&,   \
                                           const FluidView<D>&, std::span<float>,                \
                                           std::span<float>);                                    \
    template void pbf_density_pass<D, K<D>>(const K<D>&, const FluidView<D>&, std::span<float>); \
    template void pbf_delta_pass<D, K<D>>(const PbfConstants&, const K<D>&, const FluidView<D>&, \
                                          std::span<const float>, std::span<Vec<D>>);
SEICHE_INSTANTIATE_PBF(2, CubicSpline)
SEICHE_INSTANTIATE_PBF(3, CubicSpline)
SEICHE_INSTANTIATE_PBF(2, Poly6Spiky)
SEICHE_INSTANTIATE_PBF(3, Poly6Spiky)
#undef SEICHE_INSTANTIATE_PBF

}  // namespace seiche
