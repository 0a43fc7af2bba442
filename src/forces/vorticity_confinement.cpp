// Vorticity confinement — Fedkiw, Stam & Jensen 2001, eq. (11); Macklin & Müller 2013,
// eqs. (15)–(16). In 2D the vorticity is the scalar ω_z and N × ω = ω (N_y, −N_x).
#include <algorithm>
#include <cmath>

#include "seiche/domain.hpp"
#include "seiche/forces.hpp"
#include "seiche/parameters.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

namespace {

// |ω|: the length of the vector in 3D, |ω_z| in 2D.
inline float magnitude(const Vec<3>& w) {
    return std::sqrt(w.x * w.x + w.y * w.y + w.z * w.z);
}
inline float magnitude(float w) {
    return std::abs(w);
}

// N × ω; in 2D ω = ω_z ẑ, so N × ω = ω (N_y, −N_x).
inline Vec<3> confinement(const Vec<3>& n, const Vec<3>& w) {
    return glm::cross(n, w);
}
inline Vec<2> confinement(const Vec<2>& n, float w) {
    return w * Vec<2>(n.y, -n.x);
}

}  // namespace

// The pair loops use locals, not captures, and plain floats, so they vectorise (see sph.hpp).
template <int D, class K>
void vorticity_confinement(const FluidView<D>& f, const K& kernel, float epsilon, float dt,
                           std::span<const float> rho, std::span<Vec<D>> v,
                           std::vector<Vorticity<D>>& omega) {
    const std::size_t n = f.x.size();
    omega.resize(n);
    // ω_i = Σ_j (m/ρ_j) (v_i − v_j) × ∇_i W_ij, with ∇_i W_ij = g(r) r_ij; in 2D only the z
    // component is non-zero.
    parallel_for(n, [&](std::size_t i) {
        const K kern = kernel;
        const float mass = f.mass;
        const Vec<D>* x = f.x.data();
        const Vec<D>* vel = v.data();
        const float* density = rho.data();
        const Vec<D> xi = x[i], vi = vel[i];
        float w0 = 0.0f, w1 = 0.0f, w2 = 0.0f;
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
#pragma omp simd simdlen(8) reduction(+ : w0, w1, w2)
        for (int k = 0; k < m; ++k) {
            const std::uint32_t j = idx[LaneList::stride * k];
            const Vec<D>& xj = x[j];
            const Vec<D>& vj = vel[j];
            const float rx = xi.x - xj.x, ry = xi.y - xj.y, rz = z_of<D>(xi) - z_of<D>(xj);
            const float ux = vi.x - vj.x, uy = vi.y - vj.y, uz = z_of<D>(vi) - z_of<D>(vj);
            const float s =
                mass / density[j] * kern.grad_factor(std::sqrt(rx * rx + ry * ry + rz * rz));
            w0 += s * (uy * rz - uz * ry);
            w1 += s * (uz * rx - ux * rz);
            w2 += s * (ux * ry - uy * rx);
        }
        if constexpr (D == 3)
            omega[i] = Vec<3>(w0, w1, w2);
        else
            omega[i] = w2;
    });
    refresh_halo(f.processes, std::span<Vorticity<D>>(omega));  // η_i reads the neighbours' ω
    // η = ∇|ω| by the difference formula; the update of v_i reads only ω, so it is in place.
    parallel_for(n, [&](std::size_t i) {
        const K kern = kernel;
        const float mass = f.mass;
        const Vec<D>* x = f.x.data();
        const float* density = rho.data();
        const Vorticity<D>* w = omega.data();
        const Vec<D> xi = x[i];
        const float wi = magnitude(w[i]);
        float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f;
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
#pragma omp simd simdlen(8) reduction(+ : e0, e1, e2)
        for (int k = 0; k < m; ++k) {
            const std::uint32_t j = idx[LaneList::stride * k];
            const Vec<D>& xj = x[j];
            const float rx = xi.x - xj.x, ry = xi.y - xj.y, rz = z_of<D>(xi) - z_of<D>(xj);
            float wj;
            if constexpr (D == 3) {
                const Vec<3>& o = w[j];
                wj = std::sqrt(o.x * o.x + o.y * o.y + o.z * o.z);
            } else {
                wj = std::abs(w[j]);
            }
            const float s = mass / density[j] * (wj - wi) *
                            kern.grad_factor(std::sqrt(rx * rx + ry * ry + rz * rz));
            e0 += s * rx;
            e1 += s * ry;
            e2 += s * rz;
        }
        Vec<D> eta;
        eta.x = e0;
        eta.y = e1;
        if constexpr (D == 3) eta.z = e2;
        // N = η/|η| only where |ω| really varies: where |η| is below 0.1·|ω|/h its direction is
        // SPH noise (a solid-body rotation has uniform ω and would get a full-size random push),
        // so N is scaled down in proportion there.
        const float floor = 0.1f * wi / kern.support();
        const float len = std::max(glm::length(eta), floor);
        if (len <= 0.0f) return;
        v[i] += (dt * epsilon) * confinement(eta / len, w[i]);
    });
}

template void vorticity_confinement<2, CubicSpline<2>>(const FluidView<2>&, const CubicSpline<2>&,
                                                       float, float, std::span<const float>,
                                                       std::span<Vec<2>>, std::vector<float>&);
template void vorticity_confinement<3, CubicSpline<3>>(const FluidView<3>&, const CubicSpline<3>&,
                                                       float, float, std::span<const float>,
                                                       std::span<Vec<3>>, std::vector<Vec<3>>&);
template void vorticity_confinement<2, Poly6Spiky<2>>(const FluidView<2>&, const Poly6Spiky<2>&,
                                                      float, float, std::span<const float>,
                                                      std::span<Vec<2>>, std::vector<float>&);
template void vorticity_confinement<3, Poly6Spiky<3>>(const FluidView<3>&, const Poly6Spiky<3>&,
                                                      float, float, std::span<const float>,
                                                      std::span<Vec<3>>, std::vector<Vec<3>>&);

// ---- as a force of the list ----

template <int D>
std::span<const Param<WorldDef>> VorticityConfinement<D>::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        live(number_param<W, &W::solver, &SolverParams::vorticity>(
            "solver.vorticity", "m/s", closed(0, 1000),
            "vorticity confinement ε (M&M 2013 eqs. 15–16); ε·ω is an acceleration")),
    };
    return table;
}

template <int D>
void VorticityConfinement<D>::apply(StepContext<D>& c, ForceStageArgs& args) {
    const double epsilon = c.definition().solver.vorticity;
    if (!(epsilon > 0.0)) return;
    c.settle_density(args);  // it weighs the neighbours by ρ of the current positions
    ParticleSet<D>& p = c.particles();
    // The forces before it (XSPH) left the halo's velocities and densities of their own.
    refresh_halo(c.processes(), std::span<Vec<D>>(p.v));
    refresh_halo(c.processes(), std::span<float>(p.rho));
    const FluidView<D> f = c.view();
    std::visit(
        [&](const auto& kernel) {
            vorticity_confinement<D>(f, kernel, static_cast<float>(epsilon), c.dt(), p.rho, p.v,
                                     omega);
        },
        c.kernel());
}

template struct VorticityConfinement<2>;
template struct VorticityConfinement<3>;

}  // namespace seiche
