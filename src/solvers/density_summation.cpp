// Density summation with the boundary term of Akinci et al. 2012, eq. (6) (as in Bender &
// Fernández 2019): ρ_i = m Σ_j W_ij + ρ0 Σ_k V_k W_ik, self included.
#include "density_lanes.hpp"

#include "seiche/sph.hpp"

namespace seiche {

template <int D, class K>
void compute_density(const FluidView<D>& f, const K& kernel, std::span<float> rho) {
    using namespace lanes;
    const Vec<D>* x = f.x.data();
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(f.x.size(), [&](std::size_t i0, int n) {
            const Points<D> xi = load_points<D>(x, i0, n);
            F w_fluid = splat(kernel.W(0.0f));
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                w_fluid += keep(nb.active(k),
                                W(kernel, separation<D>(xi, fetch_points<D, Padded>(x, j))));
            }
            store(&rho[i0],
                  f.mass * w_fluid + f.rest_density * boundary_w_sum<D>(kernel, f, xi, i0, n), n);
        });
    });
}

#define SEICHE_INSTANTIATE(D, K) \
    template void compute_density<D, K<D>>(const FluidView<D>&, const K<D>&, std::span<float>);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

}  // namespace seiche
