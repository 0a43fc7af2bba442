// XSPH velocity smoothing — Schechter & Bridson 2012, eq. (8), as used by Macklin & Müller 2013,
// eq. (17). Only fluid neighbours: the walls are free-slip.
#include <cmath>

#include "seiche/forces.hpp"

namespace seiche {

template <int D, class K>
void xsph_viscosity(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
                    std::span<const Vec<D>> v, std::span<Vec<D>> v_out) {
    parallel_for(f.x.size(), [&](std::size_t i) {
        // Locals, not captures, so the loop vectorises (see sph.hpp).
        const K kern = kernel;
        const Vec<D>* x = f.x.data();
        const Vec<D>* vel = v.data();
        const float* density = rho.data();
        const Vec<D> xi = x[i], vi = vel[i];
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f;
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
#pragma omp simd simdlen(8) reduction(+ : s0, s1, s2)
        for (int k = 0; k < m; ++k) {
            const std::uint32_t j = idx[k];
            const Vec<D>& vj = vel[j];
            const float w = kern.W(std::sqrt(dist2<D>(xi, x[j]))) / density[j];
            s0 += w * (vj.x - vi.x);
            s1 += w * (vj.y - vi.y);
            s2 += w * (z_of<D>(vj) - z_of<D>(vi));
        }
        Vec<D> sum;
        sum.x = s0;
        sum.y = s1;
        if constexpr (D == 3) sum.z = s2;
        v_out[i] = vi + (c * f.mass) * sum;
    });
}

template void xsph_viscosity<2, CubicSpline<2>>(const FluidView<2>&, const CubicSpline<2>&, float,
                                                std::span<const float>, std::span<const Vec<2>>,
                                                std::span<Vec<2>>);
template void xsph_viscosity<3, CubicSpline<3>>(const FluidView<3>&, const CubicSpline<3>&, float,
                                                std::span<const float>, std::span<const Vec<3>>,
                                                std::span<Vec<3>>);
template void xsph_viscosity<2, Poly6Spiky<2>>(const FluidView<2>&, const Poly6Spiky<2>&, float,
                                               std::span<const float>, std::span<const Vec<2>>,
                                               std::span<Vec<2>>);
template void xsph_viscosity<3, Poly6Spiky<3>>(const FluidView<3>&, const Poly6Spiky<3>&, float,
                                               std::span<const float>, std::span<const Vec<3>>,
                                               std::span<Vec<3>>);

}  // namespace seiche
