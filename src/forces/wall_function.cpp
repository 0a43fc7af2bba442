// Wall function — Launder & Spalding 1974 ("The numerical computation of turbulent flows", their
// wall functions for the near-wall region): the log law u/u_τ = ln(E y⁺)/κ, y⁺ = y u_τ/ν, κ = 0.41, E = 9.8, gives the wall shear
// stress τ_w = ρ u_τ² on the fluid's first layer where the spacing cannot resolve the turbulent
// boundary layer (its viscous sublayer, y⁺ < 11.06, is a fraction of a millimetre in a dam break).
#include "seiche/laminar_viscosity.hpp"

#include <algorithm>
#include <cmath>

#include "seiche/parallel.hpp"

namespace seiche {

float friction_velocity(float speed, float y, float nu) {
    if (!(speed > 0.0f) || !(y > 0.0f) || !(nu > 0.0f)) return 0.0f;
    // The viscous sublayer's u = u_τ² y/ν first; in the log region the fixed point
    // u_τ ← κU / ln(E y u_τ/ν), whose derivative is 1/ln(E y⁺) < 0.22 there: converged to float
    // rounding in a dozen steps.
    float ut = std::sqrt(nu * speed / y);
    if (y * ut / nu <= wall_log_law.sublayer_edge) return ut;
    for (int it = 0; it < 24; ++it) {
        const float next = wall_log_law.kappa * speed / std::log(wall_log_law.e * y * ut / nu);
        if (std::abs(next - ut) <= 1e-7f * ut) return next;
        ut = next;
    }
    return ut;
}

template <int D, class K>
void wall_function_pass(const FluidView<D>& f, const K& kernel, float nu, float dt,
                        std::span<const Vec<D>> wall_velocity,
                        std::span<const std::uint32_t> object_of, std::span<Vec<D>> v,
                        std::span<WallShear<D>> shear) {
    const bool moving = !wall_velocity.empty();
    const float layer = 2.0f * f.radius;  // the first layer's thickness, one spacing
    parallel_for(f.x.size(), [&](std::size_t i) {
        WallShear<D>& s = shear[i];
        s = WallShear<D>{};
        const Vec<D> xi = f.x[i];
        // The nearest object among the boundary neighbours' (FaceDistance: each object's
        // distance once per run of its particles in the list).
        float y = INFINITY;
        std::uint32_t near = WallShear<D>::none;
        FaceDistance<D> face{f.objects, object_of, xi};
        for (const std::uint32_t k : f.boundary_nb.of(i))
            if (const float d = face(k); d < y) y = d, near = object_of[k];
        // The first layer rests a radius from the face, the second three.
        if (near == WallShear<D>::none || !(y < layer)) return;
        const BoundaryObject<D>& ob = f.objects[near];
        // The face's normal: the distance's gradient, by central differences.
        Vec<D> n(0.0f);
        const float e = 0.1f * f.radius;
        for (int a = 0; a < D; ++a) {
            Vec<D> up = xi, down = xi;
            up[a] += e;
            down[a] -= e;
            n[a] = ob.signed_distance(up) - ob.signed_distance(down);
        }
        const float len = glm::length(n);
        if (!(len > 0.0f)) return;
        n /= len;
        // The wall's velocity where i meets it: its neighbours' on that object, weighted by
        // V_k W_ik (the same weights hand the shear back to them, LaminarViscosity::reaction).
        Vec<D> u(0.0f);
        float weight = 0.0f;
        for (const std::uint32_t k : f.boundary_nb.of(i)) {
            if (object_of[k] != near) continue;
            const float w = f.bvolume[k] * kernel.W(glm::length(xi - f.bx[k]));
            weight += w;
            if (moving) u += w * wall_velocity[k];
        }
        if (!(weight > 0.0f)) return;
        if (moving) u /= weight;
        Vec<D> slip = v[i] - u;
        slip -= glm::dot(slip, n) * n;  // along the face only
        const float speed = glm::length(slip);
        const float at = std::max(y, 0.5f * f.radius);  // a particle pushed up to the face
        const float ut = friction_velocity(speed, at, nu);
        // In the viscous sublayer the laminar term (viscosity_wall_pass) is the model.
        if (!(at * ut / nu > wall_log_law.sublayer_edge)) return;
        // τ_w/(ρ·2r) on the layer's particle, against its slip, implicit in the slip (it can
        // only slow it down, to the wall's velocity at most).
        const float beta = ut * ut / (layer * speed);
        s.dv = -(dt * beta / (1.0f + dt * beta)) * slip;
        s.weight = weight;
        s.object = near;
        v[i] += s.dv;
    });
}

#define SEICHE_INSTANTIATE(D, K)                                                                  \
    template void wall_function_pass<D, K<D>>(const FluidView<D>&, const K<D>&, float, float,     \
                                              std::span<const Vec<D>>,                            \
                                              std::span<const std::uint32_t>, std::span<Vec<D>>,  \
                                              std::span<WallShear<D>>);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

}  // namespace seiche
