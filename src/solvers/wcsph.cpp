// Weakly compressible SPH — Becker & Teschner 2007, eqs. (5)–(7) and (10); boundary pressure of
// Akinci et al. 2012, eq. (10), the boundary particle's pressure taken from the fluid particle's
// with the hydrostatic step between them (Adami et al. 2012, eq. 27, pair by pair) and the push
// matched to the fluid a flat wall stands for; artificial viscosity of Monaghan 1992, eq. (4.1)
// (Becker & Teschner eq. 11).
#include "seiche/wcsph.hpp"

#include "seiche/parameters.hpp"

#include <algorithm>
#include <cmath>

#include "../neighbors/pair_lanes.hpp"
#include "density_lanes.hpp"
#include "seiche/boundary.hpp"
#include "seiche/parallel.hpp"
#include "seiche/step_context.hpp"

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
                         std::span<Vec<D>> acceleration, std::vector<Float4>& position_pressure,
                         std::vector<Float4>& velocity_density) {
    using namespace lanes;
    // What a neighbour's pair reads, packed per particle once: (x, p/ρ²) and (v, ρ), two
    // aligned 16-byte loads instead of two 12-byte ones and two lone floats.
    point_records<D>(f.x, position_pressure,
                     [&](std::size_t i) { return pressure[i] / (rho[i] * rho[i]); });
    point_records<D>(v, velocity_density, [&](std::size_t i) { return rho[i]; });
    const float* xp = reinterpret_cast<const float*>(position_pressure.data());
    const float* vrho = reinterpret_cast<const float*>(velocity_density.data());
    const float h = kernel.support();
    const float eta2 = 0.01f * h * h;  // keeps Π finite for close pairs (Monaghan 1992)
    const float visc = 2.0f * c.alpha * h * c.c, mass = f.mass;
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    const float* p = pressure.data();
    const float* density = rho.data();
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        const Points<D> vi = load_points<D>(vel, i0, n);
        // Lanes past the end: density 1, so that p/ρ² stays finite; their sums are not stored.
        const F rho_i = select(iota() < n, load(density + i0, n), splat(1.0f));
        const F pi = load(p + i0, n) / (rho_i * rho_i);
        F a0{}, a1{}, a2{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 xj = fetch_points4(xp, j);  // x_j, p_j/ρ_j²
            const Separation r = separation<D>(xi, Points<D>{xj.x, xj.y, xj.z});
            const Points4 vj = fetch_points4(vrho, j);  // v_j, ρ_j
            const F rho_j = vj.w;
            // Artificial viscosity acts only on approaching pairs.
            const F vr = (vi.x - vj.x) * r.x + (vi.y - vj.y) * r.y + (vi.z - vj.z) * r.z;
            const F pi_ij = keep(vr < 0.0f, -visc / (rho_i + rho_j) * vr / (r.len2 + eta2));
            const F s = keep(nb.active(k),
                             mass * (pi + xj.w + pi_ij) * grad_factor(kernel, r));
            a0 -= s * r.x;
            a1 -= s * r.y;
            a2 -= s * r.z;
        }
        // The boundary particle's pressure p_k = p_i + ρ_i g·(x_k − x_i): the wall stands for
        // fluid continued through it, whose pressure grows with the depth. (With p_k = p_i, the
        // mirrored pressure, a wall held the fluid 0.15 r off and buoyancy came out 15% high.)
        const F p_raw = load(p + i0, n);
        const F push = f.rest_density * c.wall_push / (rho_i * rho_i);
        const float gx = gravity[0], gy = gravity[1], gz = D == 3 ? gravity[D - 1] : 0.0f;
        const Lists bn(f.boundary_nb, i0, n);
        for (int k = 0; k < bn.longest(); ++k) {
            Index b[width];
            bn.fetch(k, b);
            const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
            // r = x_i − x_k, so g·(x_k − x_i) = −g·r.
            F pk = p_raw - rho_i * (gx * r.x + gy * r.y + gz * r.z);
            if (c.clamp) pk = select(pk > 0.0f, pk, splat(0.0f));
            const F s = keep(bn.active(k), push * (p_raw + pk) * fetch(bv, b) * grad_factor(kernel, r));
            a0 -= s * r.x;
            a1 -= s * r.y;
            a2 -= s * r.z;
        }
        for (int l = 0; l < n; ++l) {
            Vec<D> a = gravity;
            a.x += a0[l];
            a.y += a1[l];
            if constexpr (D == 3) a.z += a2[l];
            acceleration[i0 + l] = a;
        }
    });
}

template <int D>
Wcsph<D>::Wcsph(const WcsphParams& p, const FluidConstants<D>& fluid, std::size_t particles)
    : params(p), constants(wcsph_constants(p, fluid.rest_density, fluid.speed_of_sound)) {
    constants.wall_push = flat_wall_push_match<D>(
        fluid.kernel, fluid.spacing, WallSampling::for_kernel(fluid.kernel_type, fluid.spacing));
    state.resize(particles);
}

// Becker & Teschner 2007: density, pressure, forces, then symplectic Euler.
template <int D>
void Wcsph<D>::step(StepContext<D>& c) {
    c.find_neighbors();
    ParticleSet<D>& p = c.particles();
    const FluidView<D> f = c.view();
    c.timed(&StageTimes::solver, [&] {
        std::visit(
            [&](const auto& k) {
                compute_density<D>(f, k, p.rho);                                   // eq. (1)
                refresh_halo(f.processes, std::span<float>(p.rho));
                wcsph_pressure(constants, f.rest_density, p.rho, state.pressure);  // eq. (6)
                wcsph_accelerations<D>(constants, k, f, p.v, p.rho, state.pressure,
                                       c.external_acceleration(), state.acceleration,
                                       state.position_pressure, state.velocity_density);
                refresh_halo(f.processes, std::span<Vec<D>>(state.acceleration));
            },
            c.kernel());
    });
    c.apply_non_pressure_forces(false);  // surface tension, adhesion: v += Δt·a now, as the forces below
    if (c.tracking_boundary_forces()) {
        // Akinci et al. 2012, eq. (10): the boundary particle feels the opposite of the pressure
        // force it exerts, f_k = −f_ik = m ψ_k ω (p_i + p_k)/ρ_i² ∇W_ik with ψ_k = ρ0 V_k (the
        // term of wcsph_accelerations; the boundary has no viscosity term).
        const float* pressure = state.pressure.data();
        const float* rho = p.rho.data();
        const float* volume = f.bvolume.data();
        const float scale = p.mass * f.rest_density * constants.wall_push;
        const Vec<D> g = c.external_acceleration();
        const bool clamp = constants.clamp;
        std::visit(
            [&](const auto& k) {
                c.boundary_reaction([&, k](std::uint32_t i, std::size_t b, float len) {
                    float pk = pressure[i] + rho[i] * glm::dot(g, f.bx[b] - f.x[i]);
                    if (clamp) pk = std::max(pk, 0.0f);
                    return scale * volume[b] * (pressure[i] + pk) / (rho[i] * rho[i]) *
                           k.grad_factor(len);
                });
            },
            c.kernel());
    }
    c.measure_density();
    const float dt = c.dt();
    parallel_for(p.size(), [&](std::size_t i) { p.v[i] += dt * state.acceleration[i]; });
    c.predict();
    c.collide();
    c.stats().iterations = 1;
    c.contain_and_update_velocities();
    c.post_velocity();
}

template struct Wcsph<2>;
template struct Wcsph<3>;

#define SEICHE_INSTANTIATE(D, K)                                                          \
    template void wcsph_accelerations<D, K<D>>(                                           \
        const WcsphConstants&, const K<D>&, const FluidView<D>&, std::span<const Vec<D>>, \
        std::span<const float>, std::span<const float>, const Vec<D>&, std::span<Vec<D>>, \
        std::vector<Float4>&, std::vector<Float4>&);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

// ---- its keys: solver.wcsph.* ----

std::span<const Param<WorldDef>> WcsphParams::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        with_default_note(
            number_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::speed_of_sound>(
                "solver.wcsph.speed_of_sound", "m/s", closed(0, 1e5),
                "c; 0 = 10·sqrt(2|g|H), H the tallest fluid block along gravity (density varies "
                "by about (v/c)² ≈ 1%)"),
            "0 (automatic)"),
        choice_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::eos>(
            "solver.wcsph.equation_of_state", {"tait", "linear"},
            "tait: p = B((ρ/ρ0)^γ − 1), B = ρ0c²/γ; linear: p = c²(ρ − ρ0)"),
        number_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::gamma>(
            "solver.wcsph.gamma", "", closed(1, 10), "Tait exponent γ"),
        boolean_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::clamp_pressure>(
            "solver.wcsph.clamp_pressure", "p ≥ 0: no attraction from under-pressure"),
        number_param<W, &W::solver, &SolverParams::wcsph, &WcsphParams::viscosity>(
            "solver.wcsph.viscosity", "", closed(0, 10),
            "α of Monaghan's artificial viscosity, dimensionless"),
    };
    return table;
}

}  // namespace seiche
