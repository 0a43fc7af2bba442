// XSPH velocity smoothing — Schechter & Bridson 2012, eq. (8), as used by Macklin & Müller 2013,
// eq. (17). Only fluid neighbours: the walls are free-slip.
#include "../neighbors/pair_lanes.hpp"

#include "seiche/forces.hpp"

namespace seiche {

template <int D, class K>
void xsph_viscosity(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
                    std::span<const Vec<D>> v, std::span<Vec<D>> v_out) {
    using namespace lanes;
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const float* density = rho.data();
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        const Points<D> vi = load_points<D>(vel, i0, n);
        F s0{}, s1{}, s2{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            std::int32_t j[width];
            nb.fetch(k, j);
            const Points<D> vj = fetch_points<D>(vel, j);
            // Inactive lanes repeat a real neighbour, then drop it.
            const F w = keep(nb.active(k),
                             W(kernel, separation<D>(xi, fetch_points<D>(x, j))) / fetch(density, j));
            s0 += w * (vj.x - vi.x);
            s1 += w * (vj.y - vi.y);
            s2 += w * (vj.z - vi.z);
        }
        const float cm = c * f.mass;
        for (int l = 0; l < n; ++l) {
            Vec<D> sum;
            sum.x = s0[l];
            sum.y = s1[l];
            if constexpr (D == 3) sum.z = s2[l];
            v_out[i0 + l] = vel[i0 + l] + cm * sum;
        }
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
