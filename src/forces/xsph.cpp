// XSPH velocity smoothing — Schechter & Bridson 2012, eq. (8), as used by Macklin & Müller 2013,
// eq. (17). Only fluid neighbours: the walls are free-slip.
#include "seiche/forces.hpp"

namespace seiche {

template <int D, class K>
void xsph_viscosity(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
                    std::span<const Vec<D>> v, std::span<Vec<D>> v_out) {
    parallel_for(f.x.size(), [&](std::size_t i) {
        const Vec<D> xi = f.x[i], vi = v[i];
        Vec<D> sum(0.0f);
        for (std::uint32_t j : f.fluid_nb.of(i))
            sum += (kernel.W(glm::length(xi - f.x[j])) / rho[j]) * (v[j] - vi);
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
