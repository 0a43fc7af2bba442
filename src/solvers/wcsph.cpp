// Weakly compressible SPH — Becker & Teschner 2007, eqs. (5)–(7) and (10); boundary pressure of
// Akinci et al. 2012, eq. (10), with the fluid particle's pressure mirrored onto the boundary
// particle; artificial viscosity of Monaghan 1992, eq. (4.1) (Becker & Teschner eq. 11).
#include "seiche/wcsph.hpp"

#include <algorithm>
#include <cmath>

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

template <int D, class K>
void wcsph_accelerations(const WcsphConstants& c, const K& kernel, const FluidView<D>& f,
                         std::span<const Vec<D>> v, std::span<const float> rho,
                         std::span<const float> pressure, const Vec<D>& gravity,
                         std::span<Vec<D>> acceleration) {
    parallel_for(f.x.size(), [&](std::size_t i) {
        // Locals, not captures, and no branches, so the loops vectorise (see sph.hpp).
        const K kern = kernel;
        const float h = kern.support();
        const float eta2 = 0.01f * h * h;  // keeps Π finite for close pairs (Monaghan 1992)
        const float visc = 2.0f * c.alpha * h * c.c, mass = f.mass;
        const Vec<D>* x = f.x.data();
        const Vec<D>* vel = v.data();
        const Vec<D>* bx = f.bx.data();
        const float* bv = f.bvolume.data();
        const float* p = pressure.data();
        const float* density = rho.data();
        const Vec<D> xi = x[i], vi = vel[i];
        const float rho_i = density[i];
        const float pi = p[i] / (rho_i * rho_i);
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f;
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
#pragma omp simd simdlen(8) reduction(+ : a0, a1, a2)
        for (int k = 0; k < m; ++k) {
            const std::uint32_t j = idx[k];
            const Vec<D>& xj = x[j];
            const Vec<D>& vj = vel[j];
            const float rx = xi.x - xj.x, ry = xi.y - xj.y, rz = z_of<D>(xi) - z_of<D>(xj);
            const float len2 = rx * rx + ry * ry + rz * rz;
            const float g = kern.grad_factor(std::sqrt(len2));
            const float rho_j = density[j];
            // Artificial viscosity acts only on approaching pairs.
            const float vr =
                (vi.x - vj.x) * rx + (vi.y - vj.y) * ry + (z_of<D>(vi) - z_of<D>(vj)) * rz;
            const float pi_ij = vr < 0.0f ? -visc / (rho_i + rho_j) * vr / (len2 + eta2) : 0.0f;
            const float s = mass * (pi + p[j] / (rho_j * rho_j) + pi_ij) * g;
            a0 -= s * rx;
            a1 -= s * ry;
            a2 -= s * rz;
        }
        const float wall = f.rest_density * 2.0f * pi;
        const auto bn = f.boundary_nb.of(i);
        const std::uint32_t* bidx = bn.data();
        const int mb = static_cast<int>(bn.size());
#pragma omp simd simdlen(8) reduction(+ : a0, a1, a2)
        for (int k = 0; k < mb; ++k) {
            const Vec<D>& xk = bx[bidx[k]];
            const float rx = xi.x - xk.x, ry = xi.y - xk.y, rz = z_of<D>(xi) - z_of<D>(xk);
            const float s =
                wall * bv[bidx[k]] * kern.grad_factor(std::sqrt(rx * rx + ry * ry + rz * rz));
            a0 -= s * rx;
            a1 -= s * ry;
            a2 -= s * rz;
        }
        Vec<D> a = gravity;
        a.x += a0;
        a.y += a1;
        if constexpr (D == 3) a.z += a2;
        acceleration[i] = a;
    });
}

template <int D>
Wcsph<D>::Wcsph(const WcsphParams& p, const FluidConstants<D>& fluid, std::size_t particles)
    : params(p), constants(wcsph_constants(p, fluid.rest_density, fluid.speed_of_sound)) {
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
                wcsph_pressure(constants, f.rest_density, p.rho, state.pressure);  // eq. (6)
                wcsph_accelerations<D>(constants, k, f, p.v, p.rho, state.pressure,
                                       c.external_acceleration(), state.acceleration);
            },
            c.kernel());
    });
    if (c.tracking_boundary_forces()) {
        // Akinci et al. 2012, eq. (10): the boundary particle feels the opposite of the pressure
        // force it exerts, f_k = −f_ik = m ψ_k (2 p_i/ρ_i²) ∇W_ik with ψ_k = ρ0 V_k (the term of
        // wcsph_accelerations, with the mirrored pressure; the boundary has no viscosity term).
        const float* pressure = state.pressure.data();
        const float* rho = p.rho.data();
        const float* volume = f.bvolume.data();
        const float scale = 2.0f * p.mass * f.rest_density;
        std::visit(
            [&](const auto& k) {
                c.boundary_reaction([&, k](std::uint32_t i, std::size_t b, float len) {
                    return scale * volume[b] * pressure[i] / (rho[i] * rho[i]) *
                           k.grad_factor(len);
                });
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

#define SEICHE_INSTANTIATE(D, K)                                                          \
    template void wcsph_accelerations<D, K<D>>(                                           \
        const WcsphConstants&, const K<D>&, const FluidView<D>&, std::span<const Vec<D>>, \
        std::span<const float>, std::span<const float>, const Vec<D>&, std::span<Vec<D>>);
SEICHE_INSTANTIATE(2, CubicSpline)
SEICHE_INSTANTIATE(3, CubicSpline)
SEICHE_INSTANTIATE(2, Poly6Spiky)
SEICHE_INSTANTIATE(3, Poly6Spiky)
#undef SEICHE_INSTANTIATE

}  // namespace seiche
