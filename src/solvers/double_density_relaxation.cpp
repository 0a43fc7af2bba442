// Double density relaxation — Clavet, Beaudoin & Poulin 2005, Algorithms 2 (relaxation) and 5
// (viscosity). Clavet update neighbours in place (Gauss–Seidel); here each particle gathers the
// symmetric halves of every pair it belongs to (Jacobi), so the result does not depend on the
// thread count. Pressures are normalised by the rest densities: P = k(ρ/ρ0 − 1), P_near =
// k_near max(0, ρ_near/ρ_near0 − 1), in m/s², so that D = Δt² (P(1−q) + P_near(1−q)²) is a
// length.
#include "seiche/double_density_relaxation.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "seiche/parallel.hpp"

namespace seiche {

namespace {

// The boundary particles carry Akinci volumes made for the SPH kernel; seen through Clavet's
// (1−q)² kernel they over-count a wall by about 4% (2D). Measure it once on a flat wall sampled
// as the container is, and scale the boundary's weight so a resting particle there has ρ0.
template <int D>
float boundary_weight(float h, float d, float rho0, const AnyKernel<D>& kernel,
                      const WallSampling& walls) {
    Box<D> box{Vec<D>(0.0f), Vec<D>(8.0f * h)};
    Boundary<D> b = sample_container<D>(box, walls);
    compute_boundary_volumes<D>(b, kernel);
    const float mass_volume =
        std::visit([&](const auto& k) { return float(1.0 / lattice_sums<D>(k, d).w); }, kernel);
    Vec<D> probe(4.0f * h);
    probe[1] = 0.5f * d;  // resting on the floor
    double fluid = 0, wall = 0;
    const int n = static_cast<int>(std::ceil(h / d)) + 1;
    for (int a = -n; a <= n; ++a)
        for (int row = 0; row <= n; ++row)
            for (int e = (D == 3 ? -n : 0); e <= (D == 3 ? n : 0); ++e) {
                if (a == 0 && row == 0 && e == 0) continue;
                Vec<D> x = probe;
                x[0] += a * d;
                x[1] += row * d;
                if constexpr (D == 3) x[2] += e * d;
                const double q = glm::length(x - probe) / h;
                if (q < 1.0) fluid += (1 - q) * (1 - q);
            }
    for (std::size_t k = 0; k < b.x.size(); ++k) {
        const double q = glm::length(b.x[k] - probe) / h;
        if (q < 1.0) wall += b.volume[k] / mass_volume * (1 - q) * (1 - q);
    }
    return wall > 0 ? static_cast<float>((rho0 - fluid) / wall) : 1.0f;
}

}  // namespace

template <int D>
DdrConstants ddr_constants(const DdrParams& p, float c, float h, float spacing,
                           const AnyKernel<D>& kernel, const WallSampling& walls) {
    DdrConstants k;
    k.h = h;
    k.k = c * c / h;
    k.k_near = static_cast<float>(p.near_stiffness) * k.k;
    k.cohesion = static_cast<float>(p.cohesion);
    // Rest sums over a full lattice, self excluded (q = 0 pushes in no direction).
    double rho = 0, rho_near = 0;
    const int n = static_cast<int>(std::ceil(h / spacing)) + 1;
    for (int a = -n; a <= n; ++a)
        for (int b = -n; b <= n; ++b)
            for (int e = (D == 3 ? -n : 0); e <= (D == 3 ? n : 0); ++e) {
                if (a == 0 && b == 0 && e == 0) continue;
                const double q = spacing * std::sqrt(double(a * a + b * b + e * e)) / h;
                if (q >= 1.0) continue;
                rho += (1 - q) * (1 - q);
                rho_near += (1 - q) * (1 - q) * (1 - q);
            }
    k.rho0 = static_cast<float>(rho);
    k.rho_near0 = static_cast<float>(rho_near);
    k.sigma = static_cast<float>(p.linear_viscosity);
    k.beta = static_cast<float>(p.quadratic_viscosity > 0 ? p.quadratic_viscosity : 0.1 / spacing);
    k.boundary_weight = boundary_weight<D>(h, spacing, k.rho0, kernel, walls);
    return k;
}

template <int D>
void ddr_viscosity(const DdrConstants& c, const FluidView<D>& f, float dt,
                   std::span<const Vec<D>> v, std::span<Vec<D>> v_out) {
    const float inv_h = 1.0f / c.h;
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    parallel_for(f.x.size(), [&](std::size_t i) {
        const Vec<D> xi = x[i], vi = vel[i];
        float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f;
        const auto nb = f.fluid_nb.of(i);
        const std::uint32_t* idx = nb.data();
        const int m = static_cast<int>(nb.size());
        // Branch-free over the pairs (see sph.hpp): pairs out of reach or separating get a = 0.
#pragma omp simd reduction(+ : d0, d1, d2)
        for (int k = 0; k < m; ++k) {
            const std::uint32_t j = idx[k];
            const Diff r = diff<D>(x[j], xi);  // from i towards j
            const float len = std::sqrt(r.norm2());
            const float q = len * inv_h;
            const float inv_len = len > 0.0f ? 1.0f / len : 0.0f;
            const Diff dv = diff<D>(vi, vel[j]);
            const float u = (dv.x * r.x + dv.y * r.y + dv.z * r.z) * inv_len;  // > 0: approaching
            const bool acts = q < 1.0f && u > 0.0f;
            const float a =
                acts ? 0.5f * dt * (1.0f - q) * (c.sigma * u + c.beta * u * u) * inv_len : 0.0f;
            d0 -= a * r.x;
            d1 -= a * r.y;
            d2 -= a * r.z;
        }
        Vec<D> out = vi;
        out.x += d0;
        out.y += d1;
        if constexpr (D == 3) out.z += d2;
        v_out[i] = out;
    });
}

template <int D>
void ddr_relax(const DdrConstants& c, const FluidView<D>& f, float dt, std::span<Vec<D>> x,
               DdrState<D>& s) {
    const float inv_h = 1.0f / c.h;
    const float fluid_volume = f.mass / f.rest_density / c.boundary_weight;
    // Densities and pressures at the predicted positions.
    parallel_for(f.x.size(), [&](std::size_t i) {
        float rho = 0.0f, rho_near = 0.0f;
        auto add = [&](const Vec<D>& xj, float weight) {
            const float q = glm::length(f.x[i] - xj) * inv_h;
            if (q >= 1.0f) return;
            const float a = 1.0f - q;
            rho += weight * a * a;
            rho_near += weight * a * a * a;
        };
        for (std::uint32_t j : f.fluid_nb.of(i)) add(f.x[j], 1.0f);
        for (std::uint32_t k : f.boundary_nb.of(i)) add(f.bx[k], f.bvolume[k] / fluid_volume);
        const float P = c.k * (rho / c.rho0 - 1.0f);
        s.pressure[i] = P < 0.0f ? c.cohesion * P : P;
        // Clavet's P_near = k_near ρ_near is always repulsive, also at rest; measured from the
        // rest near density and clamped at zero it stays the anti-clustering term it is meant
        // to be, and a resting fluid is force-free (with the plain form the walls' constant push
        // lifted a resting column off the floor).
        s.pressure_near[i] = c.k_near * std::max(0.0f, rho_near / c.rho_near0 - 1.0f);
    });
    // Symmetric displacements: each pair's D split in halves between its two particles.
    const float dt2 = dt * dt;
    parallel_for(f.x.size(), [&](std::size_t i) {
        Vec<D> dx(0.0f);
        const float pi = s.pressure[i], pni = s.pressure_near[i];
        for (std::uint32_t j : f.fluid_nb.of(i)) {
            const Vec<D> r = f.x[j] - f.x[i];
            const float len = glm::length(r);
            const float q = len * inv_h;
            if (q >= 1.0f || len <= 0.0f) continue;
            const float a = 1.0f - q;
            const float d =
                0.5f * dt2 * ((pi + s.pressure[j]) * a + (pni + s.pressure_near[j]) * a * a);
            dx -= (d / len) * r;
        }
        for (std::uint32_t k : f.boundary_nb.of(i)) {
            const Vec<D> r = f.bx[k] - f.x[i];
            const float len = glm::length(r);
            const float q = len * inv_h;
            if (q >= 1.0f || len <= 0.0f) continue;
            const float a = 1.0f - q;
            const float w = f.bvolume[k] / fluid_volume;
            dx -= (w * dt2 * (pi * a + pni * a * a) / len) * r;  // the wall does not move
        }
        s.dx[i] = dx;
    });
    parallel_for(x.size(), [&](std::size_t i) { x[i] += s.dx[i]; });
}

template DdrConstants ddr_constants<2>(const DdrParams&, float, float, float, const AnyKernel<2>&,
                                       const WallSampling&);
template DdrConstants ddr_constants<3>(const DdrParams&, float, float, float, const AnyKernel<3>&,
                                       const WallSampling&);
template void ddr_viscosity<2>(const DdrConstants&, const FluidView<2>&, float,
                               std::span<const Vec<2>>, std::span<Vec<2>>);
template void ddr_viscosity<3>(const DdrConstants&, const FluidView<3>&, float,
                               std::span<const Vec<3>>, std::span<Vec<3>>);
template void ddr_relax<2>(const DdrConstants&, const FluidView<2>&, float, std::span<Vec<2>>,
                           DdrState<2>&);
template void ddr_relax<3>(const DdrConstants&, const FluidView<3>&, float, std::span<Vec<3>>,
                           DdrState<3>&);

}  // namespace seiche
