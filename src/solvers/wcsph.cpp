// Weakly compressible SPH — Becker & Teschner 2007, eqs. (5)–(7) and (10); boundary pressure of
// Akinci et al. 2012, eq. (10), with the fluid particle's pressure mirrored onto the boundary
// particle; artificial viscosity of Monaghan 1992, eq. (4.1) (Becker & Teschner eq. 11).
#include "seiche/wcsph.hpp"

#include <algorithm>
#include <cmath>

#include "seiche/parallel.hpp"

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
    const float h = kernel.support();
    const float eta2 = 0.01f * h * h;  // keeps Π finite for close pairs (Monaghan 1992)
    parallel_for(f.x.size(), [&](std::size_t i) {
        const Vec<D> xi = f.x[i], vi = v[i];
        const float pi = pressure[i] / (rho[i] * rho[i]);
        Vec<D> a(0.0f);
        for (std::uint32_t j : f.fluid_nb.of(i)) {
            const Vec<D> r = xi - f.x[j];
            const float len = glm::length(r);
            const Vec<D> g = kernel.grad_W(r, len);
            float term = pi + pressure[j] / (rho[j] * rho[j]);
            // Artificial viscosity acts only on approaching pairs.
            const float vr = glm::dot(vi - v[j], r);
            if (vr < 0.0f && c.alpha > 0.0f) {
                const float nu = 2.0f * c.alpha * h * c.c / (rho[i] + rho[j]);
                term += -nu * vr / (len * len + eta2);
            }
            a -= (f.mass * term) * g;
        }
        for (std::uint32_t k : f.boundary_nb.of(i)) {
            const Vec<D> r = xi - f.bx[k];
            a -= (f.rest_density * f.bvolume[k] * 2.0f * pi) * kernel.grad_W(r, glm::length(r));
        }
        acceleration[i] = a + gravity;
    });
}

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
