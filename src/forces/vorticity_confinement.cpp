// Vorticity confinement — Fedkiw, Stam & Jensen 2001, eq. (11); Macklin & Müller 2013,
// eqs. (15)–(16). In 2D the vorticity is the scalar ω_z and N × ω = ω (N_y, −N_x).
#include <algorithm>
#include <cmath>

#include "seiche/forces.hpp"

namespace seiche {

namespace {

// The curl contribution of one neighbour: V_j (v_i − v_j) × ∇_i W_ij.
inline Vec<3> curl_term(const Vec<3>& dv, const Vec<3>& g) {
    return glm::cross(dv, g);
}
inline float curl_term(const Vec<2>& dv, const Vec<2>& g) {
    return dv.x * g.y - dv.y * g.x;
}

inline float magnitude(const Vec<3>& w) {
    return glm::length(w);
}
inline float magnitude(float w) {
    return std::abs(w);
}

inline Vec<3> confinement(const Vec<3>& n, const Vec<3>& w) {
    return glm::cross(n, w);
}
inline Vec<2> confinement(const Vec<2>& n, float w) {
    return w * Vec<2>(n.y, -n.x);
}

}  // namespace

template <int D, class K>
void vorticity_confinement(const FluidView<D>& f, const K& kernel, float epsilon, float dt,
                           std::span<const float> rho, std::span<Vec<D>> v,
                           std::vector<Vorticity<D>>& omega) {
    const std::size_t n = f.x.size();
    omega.resize(n);
    parallel_for(n, [&](std::size_t i) {
        Vorticity<D> w{};
        for (std::uint32_t j : f.fluid_nb.of(i)) {
            const Vec<D> r = f.x[i] - f.x[j];
            w += (f.mass / rho[j]) * curl_term(v[i] - v[j], kernel.grad_W(r, glm::length(r)));
        }
        omega[i] = w;
    });
    // η = ∇|ω| by the difference formula; the update of v_i reads only ω, so it is in place.
    const float inv_h = 1.0f / kernel.support();
    parallel_for(n, [&](std::size_t i) {
        const float wi = magnitude(omega[i]);
        Vec<D> eta(0.0f);
        for (std::uint32_t j : f.fluid_nb.of(i)) {
            const Vec<D> r = f.x[i] - f.x[j];
            eta +=
                (f.mass / rho[j] * (magnitude(omega[j]) - wi)) * kernel.grad_W(r, glm::length(r));
        }
        // N = η/|η| only where |ω| really varies: where |η| is below 0.1·|ω|/h its direction is
        // SPH noise (a solid-body rotation has uniform ω and would get a full-size random push),
        // so N is scaled down in proportion there.
        const float floor = 0.1f * wi * inv_h;
        const float len = std::max(glm::length(eta), floor);
        if (len <= 0.0f) return;
        v[i] += (dt * epsilon) * confinement(eta / len, omega[i]);
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

}  // namespace seiche
