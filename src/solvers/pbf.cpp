// Position Based Fluids — Macklin & Müller 2013, eqs. (1)–(13); boundary terms and unilateral
// constraint as in seed 000, eqs. (7)–(10); Akinci et al. 2012 boundary volumes.
//
// Units. With equal fluid masses m we work with λ'_i = λ_i / m (m²) so that nothing depends on
// the mass scale: S'_i = m·S_i (1/m²), and eq. (9) becomes
//   Δx_i = Σ_j (m/ρ0)(λ'_i + λ'_j + s_corr) ∇W_ij + Σ_k V_k λ'_i ∇W_ik.
#include "seiche/pbf.hpp"

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

// Density (eq. 2 with the boundary sum), constraint C_i (eq. 1), S'_i (eq. 8) and λ'_i
// (eqs. 6/10) in one pass over the neighbours.
template <int D, class K>
void compute_lambda(const PbfParams& p, const PbfConstants& c, const K& kernel,
                    const FluidView<D>& f, std::span<float> rho, std::span<float> lambda) {
    const float vol = f.mass / f.rest_density;
    parallel_for(f.x.size(), [&](std::size_t i) {
        const Vec<D> xi = f.x[i];
        float w_fluid = kernel.W(0.0f), w_boundary = 0.0f;
        Vec<D> grad_i(0.0f);  // ∇_{x_i} C_i, eq. (7), k = i
        float sum_grad2 = 0.0f;
        for (std::uint32_t j : f.fluid_nb.of(i)) {
            const Vec<D> r = xi - f.x[j];
            const float len = glm::length(r);
            w_fluid += kernel.W(len);
            const Vec<D> g = vol * kernel.grad_W(r, len);
            grad_i += g;
            sum_grad2 += glm::dot(g, g);  // |∇_{x_j} C_i|², fluid neighbour j
        }
        for (std::uint32_t k : f.boundary_nb.of(i)) {
            const Vec<D> r = xi - f.bx[k];
            const float len = glm::length(r);
            w_boundary += f.bvolume[k] * kernel.W(len);
            grad_i += f.bvolume[k] * kernel.grad_W(r, len);
            // Static boundary particles have infinite mass: no term of their own in S (eq. 8).
        }
        rho[i] = f.mass * w_fluid + f.rest_density * w_boundary;
        float C = rho[i] / f.rest_density - 1.0f;
        if (p.unilateral) C = std::max(C, 0.0f);  // eq. (10)
        const float S = glm::dot(grad_i, grad_i) + sum_grad2;
        lambda[i] = -C / (S + c.epsilon);
    });
}

// Position correction, eq. (9) with the tensile term s_corr of Macklin & Müller eq. (13).
template <int D, class K>
void compute_delta(const PbfConstants& c, const K& kernel, const FluidView<D>& f,
                   std::span<const float> lambda, std::span<Vec<D>> dx) {
    const float vol = f.mass / f.rest_density;
    parallel_for(f.x.size(), [&](std::size_t i) {
        const Vec<D> xi = f.x[i];
        const float li = lambda[i];
        Vec<D> fluid(0.0f), boundary(0.0f);
        for (std::uint32_t j : f.fluid_nb.of(i)) {
            const Vec<D> r = xi - f.x[j];
            const float len = glm::length(r);
            float s_corr = 0.0f;
            if (c.s_corr_scale > 0.0f)
                s_corr = -c.s_corr_scale * std::pow(kernel.W(len) / c.s_corr_w_dq, c.s_corr_n);
            fluid += (li + lambda[j] + s_corr) * kernel.grad_W(r, len);
        }
        for (std::uint32_t k : f.boundary_nb.of(i)) {
            const Vec<D> r = xi - f.bx[k];
            boundary += f.bvolume[k] * kernel.grad_W(r, glm::length(r));
        }
        dx[i] = vol * fluid + li * boundary;
    });
}

}  // namespace

template <int D, class K>
PbfResult pbf_project(const PbfParams& p, const PbfConstants& c, const K& kernel,
                      const FluidView<D>& view, std::span<Vec<D>> x, std::span<float> rho,
                      PbfState<D>& state) {
    PbfResult r;
    collide_with_box<D>(x, view.collision_box);
    for (;;) {
        compute_lambda<D, K>(p, c, kernel, view, rho, state.lambda);
        density_error_stats(rho, view.rest_density, r.density_error_mean, r.density_error_max);
        const bool converged =
            r.iterations >= p.min_iterations && r.density_error_mean <= p.density_tolerance;
        if (converged || r.iterations >= p.max_iterations) break;
        compute_delta<D, K>(c, kernel, view, state.lambda, state.dx);
        parallel_for(x.size(), [&](std::size_t i) { x[i] += state.dx[i]; });
        collide_with_box<D>(x, view.collision_box);
        ++r.iterations;
    }
    return r;
}

#define SEICHE_INSTANTIATE_PBF(D, K)                                                            \
    template PbfConstants pbf_constants<D, K<D>>(const PbfParams&, const K<D>&, float, float,   \
                                                 float);                                        \
    template PbfResult pbf_project<D, K<D>>(const PbfParams&, const PbfConstants&, const K<D>&, \
                                            const FluidView<D>&, std::span<Vec<D>>,             \
                                            std::span<float>, PbfState<D>&);
SEICHE_INSTANTIATE_PBF(2, CubicSpline)
SEICHE_INSTANTIATE_PBF(3, CubicSpline)
SEICHE_INSTANTIATE_PBF(2, Poly6Spiky)
SEICHE_INSTANTIATE_PBF(3, Poly6Spiky)
#undef SEICHE_INSTANTIATE_PBF

}  // namespace seiche
