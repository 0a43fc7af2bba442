// XSPH velocity smoothing — Schechter & Bridson 2012, eq. (8), as used by Macklin & Müller 2013,
// eq. (17). Only fluid neighbours: the walls are free-slip.
#include "../neighbors/pair_lanes.hpp"
#include "../solvers/density_lanes.hpp"

#include "seiche/forces.hpp"

#include <vector>

namespace seiche {

namespace {

// One pass over the fluid pairs for XSPH; with Density, also ρ_i of the current positions
// (compute_density's sums, in its order), which costs one more add per pair where a separate
// pass would fetch every neighbour again.
template <bool Density, int D, class K>
void xsph_pass(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
               std::span<const Vec<D>> v, std::span<Vec<D>> v_out, std::span<float> rho_out,
               std::span<Float4> records) {
    using namespace lanes;
    std::vector<Float4> own;
    if (records.size() < f.x.size()) {
        own.resize(f.x.size());
        records = own;
    }
    // Velocity and 1/ρ side by side: a neighbour's come with one aligned load, and the division
    // is done once per particle instead of once per pair.
    Float4* rec = records.data();
    parallel_for(f.x.size(), [&](std::size_t i) {
        rec[i] = {v[i].x, v[i].y, z_of<D>(v[i]), 1.0f / rho[i]};
    });
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(f.x.size(), [&](std::size_t i0, int n) {
            const Points<D> xi = load_points<D>(x, i0, n);
            const Points<D> vi = load_points<D>(vel, i0, n);
            F s0{}, s1{}, s2{};
            F w_fluid = splat(kernel.W(0.0f));
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                const Points4 vj = fetch_points4(&rec[0].x, j);
                // Inactive lanes repeat a real neighbour, then drop it.
                const Points<D> pj = fetch_points<D, Padded>(x, j);
                const F wij = keep(nb.active(k), W(kernel, separation<D>(xi, pj)));
                if constexpr (Density) w_fluid += wij;
                const F w = wij * vj.w;
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
            if constexpr (Density)
                store(&rho_out[i0],
                      f.mass * w_fluid + f.rest_density * boundary_w_sum<D>(kernel, f, xi, i0, n),
                      n);
        });
    });
}

}  // namespace

template <int D, class K>
void xsph_viscosity(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
                    std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                    std::span<Float4> records) {
    xsph_pass<false, D>(f, kernel, c, rho, v, v_out, {}, records);
}

template <int D, class K>
void xsph_viscosity_and_density(const FluidView<D>& f, const K& kernel, float c,
                                std::span<const float> rho, std::span<const Vec<D>> v,
                                std::span<Vec<D>> v_out, std::span<float> rho_out,
                                std::span<Float4> records) {
    xsph_pass<true, D>(f, kernel, c, rho, v, v_out, rho_out, records);
}

#define SEICHE_INSTANTIATE(D, K)                                                                  \
    template void xsph_viscosity<D, K<D>>(const FluidView<D>&, const K<D>&, float,                \
                                          std::span<const float>, std::span<const Vec<D>>,        \
                                          std::span<Vec<D>>, std::span<Float4>);                  \
    template void xsph_viscosity_and_density<D, K<D>>(const FluidView<D>&, const K<D>&, float,    \
                                                      std::span<const float>,                     \
                                                      std::span<const Vec<D>>, std::span<Vec<D>>, \
                                                      std::span<float>, std::span<Float4>);
SEICHE_INSTANTIATE(2, CubicSpline)
SEICHE_INSTANTIATE(3, CubicSpline)
SEICHE_INSTANTIATE(2, Poly6Spiky)
SEICHE_INSTANTIATE(3, Poly6Spiky)
#undef SEICHE_INSTANTIATE

}  // namespace seiche
