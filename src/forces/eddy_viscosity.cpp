// Eddy viscosity — Smagorinsky 1963's closure as the sub-particle-scale (SPS) model of
// Dalrymple & Rogers 2006: ν_t = (C_s Δ)² |S|, |S| = √(2 S:S), S the strain rate from the SPH
// velocity gradient ∇v_i = Σ_j (m/ρ_j) (v_j − v_i) ⊗ ∇W_ij (Monaghan 1992) and the walls' particles
// (Akinci et al. 2012 volumes, carrying the fluid's velocity continued through the face as in
// Morris et al. 1997), Δ the kernel's support h (the SPH filter width). The laminar pair term
// then carries ν + (ν_t,i + ν_t,j)/2 (seiche/laminar_viscosity.hpp).
#include "seiche/laminar_viscosity.hpp"

#include <algorithm>
#include <cmath>

#include "../neighbors/pair_lanes.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

template <int D, class K>
void eddy_viscosity_pass(const FluidView<D>& f, const K& kernel, float smagorinsky, float cap,
                         std::span<const Float4> records, std::span<const Vec<D>> v,
                         std::span<const Vec<D>> wall_velocity, std::span<const float> depth,
                         std::span<const std::uint32_t> object_of, std::span<float> eddy) {
    using namespace lanes;
    const Float4* rec = records.data();
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const float c = smagorinsky * kernel.support();
    const float c2 = c * c;
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(f.x.size(), [&](std::size_t i0, int n) {
            const Points<D> xi = load_points<D>(x, i0, n);
            const Points<D> vi = load_points<D>(vel, i0, n);
            // The symmetric part of ∇v: xx, yy, zz, xy, xz, yz.
            F sxx{}, syy{}, szz{}, sxy{}, sxz{}, syz{};
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                const Points4 vj = fetch_points4(&rec[0].x, j);
                const Separation r = separation<D>(xi, fetch_points<D, Padded>(x, j));
                // (m/ρ_j) ∇W_ij = (m/ρ_j) (W'/r) x_ij; the mass is applied once, below.
                const F g = keep(nb.active(k), grad_factor(kernel, r) * vj.w);
                const F dx = vj.x - vi.x, dy = vj.y - vi.y, dz = vj.z - vi.z;
                sxx += g * dx * r.x;
                syy += g * dy * r.y;
                szz += g * dz * r.z;
                sxy += g * 0.5f * (dx * r.y + dy * r.x);
                sxz += g * 0.5f * (dx * r.z + dz * r.x);
                syz += g * 0.5f * (dy * r.z + dz * r.y);
            }
            for (int l = 0; l < n; ++l) {
                const std::size_t i = i0 + l;
                // Σ_j (m/ρ_j)(v_j − v_i) ⊗ ∇W_ij, symmetric part, then the walls':
                // Σ_k V_k (u_k − v_i) ⊗ ∇W_ik, u_k − v_i = −(1 + d_k/d_i)(v_i − u_wall).
                float s[6] = {f.mass * sxx[l], f.mass * syy[l], f.mass * szz[l],
                              f.mass * sxy[l], f.mass * sxz[l], f.mass * syz[l]};
                FaceDistance<D> face{f.objects, object_of, f.x[i]};
                for (const std::uint32_t k : f.boundary_nb.of(i)) {
                    const Vec<D> r = f.x[i] - f.bx[k];
                    const Vec<D> u = wall_velocity.empty() ? Vec<D>(0.0f) : wall_velocity[k];
                    const Vec<D> dv = -mirror_factor(face(k), depth[k]) * (v[i] - u);
                    const float g = f.bvolume[k] * kernel.grad_factor(glm::length(r));
                    const float rz = D == 3 ? r[D - 1] : 0.0f, dz = D == 3 ? dv[D - 1] : 0.0f;
                    s[0] += g * dv.x * r.x;
                    s[1] += g * dv.y * r.y;
                    s[2] += g * dz * rz;
                    s[3] += g * 0.5f * (dv.x * r.y + dv.y * r.x);
                    s[4] += g * 0.5f * (dv.x * rz + dz * r.x);
                    s[5] += g * 0.5f * (dv.y * rz + dz * r.y);
                }
                const float ss = s[0] * s[0] + s[1] * s[1] + s[2] * s[2] +
                                 2.0f * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]);
                eddy[i] = std::min(c2 * std::sqrt(2.0f * ss), cap);
            }
        });
    });
}

#define SEICHE_INSTANTIATE(D, K)                                                               \
    template void eddy_viscosity_pass<D, K<D>>(                                                \
        const FluidView<D>&, const K<D>&, float, float, std::span<const Float4>,                 \
        std::span<const Vec<D>>, std::span<const Vec<D>>, std::span<const float>,                \
        std::span<const std::uint32_t>, std::span<float>);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

}  // namespace seiche
