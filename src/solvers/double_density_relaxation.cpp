// Double density relaxation — Clavet, Beaudoin & Poulin 2005, Algorithms 2 (relaxation) and 5
// (viscosity). Clavet update neighbours in place (Gauss–Seidel); here each particle gathers the
// symmetric halves of every pair it belongs to (Jacobi), so the result does not depend on the
// thread count. Pressures are normalised by the rest densities: P = k(ρ/ρ0 − 1), P_near =
// k_near max(0, ρ_near/ρ_near0 − 1), in m/s², so that D = Δt² (P(1−q) + P_near(1−q)²) is a
// length. A boundary particle's P is the fluid particle's plus the hydrostatic step between them
// (as WCSPH's, after Adami et al. 2012, eq. 27), its push matched to a flat wall's fluid.
#include "seiche/double_density_relaxation.hpp"

#include "seiche/parameters.hpp"

#include "seiche/step_context.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "../neighbors/pair_lanes.hpp"
#include "density_lanes.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

namespace {

// The boundary particles carry Akinci volumes made for the SPH kernel; seen through Clavet's
// (1−q)² kernel they over-count a wall by about 4% (2D). Measured once on a flat wall sampled as
// the container is, for a particle resting d/2 from it:
// - weight: the boundary's weight so that the particle has ρ0;
// - push: the wall's push, Σ_k w_k (1−q) ŷ, scaled to that of the fluid rows it stands for
//   (continued through the wall) at the same pressure (2D 0.957, 3D 0.985 with the defaults).
struct FlatWallMatch {
    float weight, push;
};

template <int D>
FlatWallMatch flat_wall_match(float h, float d, float rho0, const AnyKernel<D>& kernel,
                              const WallSampling& walls) {
    Box<D> box{Vec<D>(0.0f), Vec<D>(8.0f * h)};
    Boundary<D> b = sample_container<D>(box, walls);
    compute_boundary_volumes<D>(b, kernel);
    const float mass_volume =
        std::visit([&](const auto& k) { return float(1.0 / lattice_sums<D>(k, d).w); }, kernel);
    Vec<D> probe(4.0f * h);
    probe[1] = 0.5f * d;  // resting on the floor
    double fluid = 0, wall = 0, fluid_push = 0, wall_push = 0;
    const int n = static_cast<int>(std::ceil(h / d)) + 1;
    for (int a = -n; a <= n; ++a)
        for (int row = -n; row <= n; ++row)
            for (int e = (D == 3 ? -n : 0); e <= (D == 3 ? n : 0); ++e) {
                if (a == 0 && row == 0 && e == 0) continue;
                Vec<D> x = probe;
                x[0] += a * d;
                x[1] += row * d;
                if constexpr (D == 3) x[2] += e * d;
                const double len = glm::length(x - probe), q = len / h;
                if (q >= 1.0) continue;
                if (row >= 0) fluid += (1 - q) * (1 - q);  // the fluid there
                else fluid_push += (1 - q) * (probe[1] - x[1]) / len;  // the fluid it replaces
            }
    for (std::size_t k = 0; k < b.x.size(); ++k) {
        const double len = glm::length(b.x[k] - probe), q = len / h;
        if (q >= 1.0 || len == 0) continue;
        wall += b.volume[k] / mass_volume * (1 - q) * (1 - q);
        wall_push += b.volume[k] / mass_volume * (1 - q) * (probe[1] - b.x[k][1]) / len;
    }
    FlatWallMatch m{1.0f, 1.0f};
    if (wall > 0) m.weight = static_cast<float>((rho0 - fluid) / wall);
    if (wall_push > 0) m.push = static_cast<float>(fluid_push / (m.weight * wall_push));
    return m;
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
    // Rest sums over a full lattice, self excluded (q = 0 pushes in no direction). And
    // M = Σ_j (1−q) (y_j − y_i)²/|x_ij|: under a pressure growing by s per metre the relaxation
    // moves a particle by Δt² s M / 2, so at rest under g, s = 2g/M (the walls' hydrostatic step).
    double rho = 0, rho_near = 0, m2 = 0;
    const int n = static_cast<int>(std::ceil(h / spacing)) + 1;
    for (int a = -n; a <= n; ++a)
        for (int b = -n; b <= n; ++b)
            for (int e = (D == 3 ? -n : 0); e <= (D == 3 ? n : 0); ++e) {
                if (a == 0 && b == 0 && e == 0) continue;
                const double len = spacing * std::sqrt(double(a * a + b * b + e * e)), q = len / h;
                if (q >= 1.0) continue;
                rho += (1 - q) * (1 - q);
                rho_near += (1 - q) * (1 - q) * (1 - q);
                m2 += (1 - q) * (spacing * b) * (spacing * b) / len;
            }
    k.rho0 = static_cast<float>(rho);
    k.rho_near0 = static_cast<float>(rho_near);
    k.sigma = static_cast<float>(p.linear_viscosity);
    // β automatic: 0.2/(2r). Clavet's β has no physical value; at 0.1/(2r) the bore coming back
    // from SPHERIC Test 2's far wall stood 4.2-5.4% of the depth off the record at H2 (gate 5%),
    // at 0.2/(2r) 3.2-4.1% (docs/solvers.md).
    k.beta = static_cast<float>(p.quadratic_viscosity > 0 ? p.quadratic_viscosity : 0.2 / spacing);
    const FlatWallMatch wall = flat_wall_match<D>(h, spacing, k.rho0, kernel, walls);
    k.boundary_weight = wall.weight;
    k.hydrostatic = static_cast<float>(2.0 / m2);
    k.wall_push = wall.push;
    return k;
}

// The pair loops run eight particles at a time, one per lane (src/neighbors/pair_lanes.hpp). Pairs
// out of reach, or at one point (no direction), get no term.
template <int D>
void ddr_viscosity(const DdrConstants& c, const FluidView<D>& f, float dt,
                   std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                   std::vector<Float4>& x_records, std::vector<Float4>& v_records) {
    using namespace lanes;
    const float inv_h = 1.0f / c.h, sigma = c.sigma, beta = c.beta, half_dt = 0.5f * dt;
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    // A neighbour's position and velocity in two aligned 16-byte records.
    point_records<D>(f.x, x_records, [](std::size_t) { return 0.0f; });
    point_records<D>(v, v_records, [](std::size_t) { return 0.0f; });
    const float* xr = reinterpret_cast<const float*>(x_records.data());
    const float* vr = reinterpret_cast<const float*>(v_records.data());
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        const Points<D> vi = load_points<D>(vel, i0, n);
        F d0{}, d1{}, d2{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            // r from i towards j, u > 0: approaching.
            const Points4 pj = fetch_points4(xr, j), vj = fetch_points4(vr, j);
            const Separation r = separation<D>(Points<D>{pj.x, pj.y, pj.z}, xi);
            const F q = r.len * inv_h;
            const F inv_len = keep(r.len2 > 0.0f, r.inv_len);
            const F u = ((vi.x - vj.x) * r.x + (vi.y - vj.y) * r.y + (vi.z - vj.z) * r.z) * inv_len;
            const I acts = nb.active(k) & (q < 1.0f) & (u > 0.0f);
            const F g = keep(acts, half_dt * (1.0f - q) * (sigma * u + beta * u * u) * inv_len);
            d0 -= g * r.x;
            d1 -= g * r.y;
            d2 -= g * r.z;
        }
        for (int l = 0; l < n; ++l) {
            Vec<D> out = vel[i0 + l];
            out.x += d0[l];
            out.y += d1[l];
            if constexpr (D == 3) out.z += d2[l];
            v_out[i0 + l] = out;
        }
    });
}

template <int D>
void ddr_relax(const DdrConstants& c, const FluidView<D>& f, float dt, const Vec<D>& gravity,
               std::span<Vec<D>> x, DdrState<D>& s) {
    using namespace lanes;
    const float fluid_volume = f.mass / f.rest_density / c.boundary_weight;
    const float inv_h = 1.0f / c.h, inv_volume = 1.0f / fluid_volume;
    const Vec<D>* xs = f.x.data();
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    s.x_pressure.resize(f.x.size());
    Float4* xp = s.x_pressure.data();
    // Densities and pressures at the predicted positions.
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(f.x.size(), [&](std::size_t i0, int n) {
            const Points<D> xi = load_points<D>(xs, i0, n);
            F rho{}, rho_near{};
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                const Separation r = separation<D>(xi, fetch_points<D, Padded>(xs, j));
                const F q = r.len * inv_h;
                const F a = keep(nb.active(k) & (q < 1.0f), 1.0f - q);
                rho += a * a;
                rho_near += a * a * a;
            }
            const Lists bn(f.boundary_nb, i0, n);
            for (int k = 0; k < bn.longest(); ++k) {
                Index b[width];
                bn.fetch(k, b);
                const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
                const F q = r.len * inv_h;
                const F a = keep(bn.active(k) & (q < 1.0f), 1.0f - q);
                const F w = fetch(bv, b) * inv_volume;
                rho += w * a * a;
                rho_near += w * a * a * a;
            }
            for (int l = 0; l < n; ++l) {
                const float P = c.k * (rho[l] / c.rho0 - 1.0f);
                s.pressure[i0 + l] = P < 0.0f ? c.cohesion * P : P;
                xp[i0 + l] = {xs[i0 + l].x, xs[i0 + l].y, z_of<D>(xs[i0 + l]), s.pressure[i0 + l]};
                // Clavet's P_near = k_near ρ_near is always repulsive, also at rest; measured from
                // the rest near density and clamped at zero it stays the anti-clustering term it is
                // meant to be, and a resting fluid is force-free (with the plain form the walls'
                // constant push lifted a resting column off the floor).
                s.pressure_near[i0 + l] = c.k_near * std::max(0.0f, rho_near[l] / c.rho_near0 - 1.0f);
            }
        });
    });
    refresh_halo(f.processes, std::span<float>(s.pressure));  // the pairs read both ends'
    refresh_halo(f.processes, std::span<float>(s.pressure_near));
    refresh_halo(f.processes, std::span<Float4>(s.x_pressure));
    // Symmetric displacements: each pair's D split in halves between its two particles.
    const float half_dt2 = 0.5f * dt * dt, dt2 = dt * dt;
    const float* P = s.pressure.data();
    const float* P_near = s.pressure_near.data();
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(xs, i0, n);
        const F pi = load(P + i0, n), pni = load(P_near + i0, n);
        F d0{}, d1{}, d2{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 pj = fetch_points4(reinterpret_cast<const float*>(xp), j);  // x_j, P_j
            const Separation r = separation<D>(Points<D>{pj.x, pj.y, pj.z}, xi);
            const F q = r.len * inv_h;
            const F a = keep(nb.active(k) & (q < 1.0f), 1.0f - q);
            const F inv_len = keep(r.len2 > 0.0f, r.inv_len);
            const F g =
                half_dt2 * ((pi + pj.w) * a + (pni + fetch(P_near, j)) * a * a) * inv_len;
            d0 -= g * r.x;
            d1 -= g * r.y;
            d2 -= g * r.z;
        }
        const Lists bn(f.boundary_nb, i0, n);
        const float gx = gravity[0] * c.hydrostatic, gy = gravity[1] * c.hydrostatic,
                    gz = D == 3 ? gravity[D - 1] * c.hydrostatic : 0.0f;
        for (int k = 0; k < bn.longest(); ++k) {
            Index b[width];
            bn.fetch(k, b);
            const Separation r = separation<D>(fetch_points<D>(bx, b), xi);
            const F q = r.len * inv_h;
            const F a = keep(bn.active(k) & (q < 1.0f), 1.0f - q);
            const F inv_len = keep(r.len2 > 0.0f, r.inv_len);
            const F w = fetch(bv, b) * (inv_volume * c.wall_push);
            // r = x_k − x_i here: the wall's pressure P_k = P_i + (2/M) g·(x_k − x_i).
            // Not below zero where P_i is not (no suction from a wall above).
            const F p_wall =
                0.5f * (pi + max(pi + gx * r.x + gy * r.y + gz * r.z, min(pi, splat(0.0f))));
            const F g = w * dt2 * (p_wall * a + pni * a * a) * inv_len;  // the wall stays
            d0 -= g * r.x;
            d1 -= g * r.y;
            d2 -= g * r.z;
        }
        for (int l = 0; l < n; ++l) {
            Vec<D> dx;
            dx.x = d0[l];
            dx.y = d1[l];
            if constexpr (D == 3) dx.z = d2[l];
            s.dx[i0 + l] = dx;
        }
    });
    refresh_halo(f.processes, std::span<Vec<D>>(s.dx));
    // x += D, and D keeps what the rounding of x lost. A step's displacement is Δt²·a: at the
    // 50–200 µs steps the speed of sound sets, 10⁻⁹–10⁻⁷ m, at or below half the ulp of a
    // coordinate of 1–2 m (6·10⁻⁸ m), so the horizontal push that drains a reservoir was rounded
    // away, and with it the velocity taken from the positions: the fluid stood as a block that
    // stood stiffer the shorter its step (Ritter's profile 12% off at CFL 0.1, 1.8% at 0.6).
    // Ddr::step adds the lost part to the velocity (the next steps' Δt·v carries it into x).
    parallel_for(x.size(), [&](std::size_t i) {
        const Vec<D> moved = x[i] + s.dx[i];
        s.dx[i] -= moved - x[i];  // exact where |D| ≤ |x| (Fast2Sum)
        x[i] = moved;
    });
}

namespace {
// The relaxation counts neighbours, not mass: with a particle_mass other than the one that makes
// the lattice ρ0, the fluid at ρ0 is the lattice of spacing d·(mass/lattice mass)^(1/D), and the
// rest sums are that lattice's.
template <int D>
float rest_spacing(const FluidConstants<D>& fluid) {
    const double lattice_mass = std::visit(
        [&](const auto& k) { return fluid.rest_density / lattice_sums<D>(k, fluid.spacing).w; },
        fluid.kernel);
    if (static_cast<float>(lattice_mass) == fluid.mass) return fluid.spacing;  // the default
    return static_cast<float>(fluid.spacing * std::pow(fluid.mass / lattice_mass, 1.0 / D));
}
}  // namespace

template <int D>
Ddr<D>::Ddr(const DdrParams& p, const FluidConstants<D>& fluid, std::size_t particles)
    : params(p),
      constants(ddr_constants<D>(p, fluid.speed_of_sound, fluid.h, rest_spacing(fluid),
                                 fluid.kernel,
                                 WallSampling::for_kernel(fluid.kernel_type, fluid.spacing))) {
    state.resize(particles);
}

// Clavet et al. 2005, Algorithm 1: gravity, viscosity impulses, prediction, double density
// relaxation, collisions last, velocities from positions.
template <int D>
void Ddr<D>::step(StepContext<D>& c) {
    c.apply_external_accelerations();  // apply gravity: v ← v + Δt g
    c.find_neighbors();
    c.apply_non_pressure_forces(false);  // surface tension, adhesion (densities of the last step)
    ParticleSet<D>& p = c.particles();
    const FluidView<D> f = c.view();
    const float dt = c.dt();
    c.timed(&StageTimes::velocity, [&] {  // applyViscosity (Algorithm 5)
        ddr_viscosity<D>(constants, f, dt, p.v, state.v_new, state.x_records, state.v_records);
        refresh_halo(f.processes, std::span<Vec<D>>(state.v_new));  // the predicted x* read it
        p.v.swap(state.v_new);
    });
    c.predict();  // save previous position, advance to predicted position
    // doubleDensityRelaxation (Algorithm 2)
    const Vec<D> gravity = c.external_acceleration();
    c.timed(&StageTimes::solver, [&] { ddr_relax<D>(constants, f, dt, gravity, p.x, state); });
    if (c.tracking_boundary_forces()) {
        // The relaxation moves fluid particle i away from boundary particle k by
        // D_ik = −w_k Δt² (P_i a + P_near,i a²) r̂_ik (the wall itself stays). As an impulse over
        // the step that is a force m D_ik / Δt² on i, so f_k = m w_k (P_i a + P_near,i a²) r̂_ki,
        // with a = 1 − |x_ik|/h and w_k = V_k / V_fluid, taken where the relaxation took D_ik
        // (the predicted positions), so the walls get back exactly what the fluid got.
        state.wall_push_at.resize(p.size());
        positions_of<D>(state.x_pressure, state.wall_push_at);
        const Vec<D>* at = state.wall_push_at.data();
        const float* P = state.pressure.data();
        const float* P_near = state.pressure_near.data();
        const float* volume = f.bvolume.data();
        const float inv_fluid_volume = constants.boundary_weight * f.rest_density / p.mass;
        const float inv_h = 1.0f / constants.h, m = p.mass;
        const Vec<D> g_step = constants.hydrostatic * gravity;
        c.boundary_reaction(
            [&](std::uint32_t i, std::size_t b, float len) {
                const float a = std::max(0.0f, 1.0f - len * inv_h);
                const float w = volume[b] * inv_fluid_volume * constants.wall_push;
                const float p_wall =
                    0.5f * (P[i] + std::max(P[i] + glm::dot(g_step, f.bx[b] - at[i]),
                                            std::min(P[i], 0.0f)));
                return len > 0.0f ? -m * w * (p_wall * a + P_near[i] * a * a) / len : 0.0f;
            },
            state.wall_push_at);
    }
    c.collide();  // resolveCollisions
    c.stats().iterations = 1;
    c.contain_and_update_velocities();  // use previous position to compute next velocity
    // The displacement the positions' rounding lost (ddr_relax), as a velocity.
    const float inv_dt = 1.0f / dt;
    parallel_for(p.size(), [&](std::size_t i) { p.v[i] += state.dx[i] * inv_dt; });
    c.post_velocity();
    c.compute_density();  // for the statistics and the frames
    c.measure_density();
}

template struct Ddr<2>;
template struct Ddr<3>;

template DdrConstants ddr_constants<2>(const DdrParams&, float, float, float, const AnyKernel<2>&,
                                       const WallSampling&);
template DdrConstants ddr_constants<3>(const DdrParams&, float, float, float, const AnyKernel<3>&,
                                       const WallSampling&);
template void ddr_viscosity<2>(const DdrConstants&, const FluidView<2>&, float,
                               std::span<const Vec<2>>, std::span<Vec<2>>, std::vector<Float4>&,
                               std::vector<Float4>&);
template void ddr_viscosity<3>(const DdrConstants&, const FluidView<3>&, float,
                               std::span<const Vec<3>>, std::span<Vec<3>>, std::vector<Float4>&,
                               std::vector<Float4>&);
template void ddr_relax<2>(const DdrConstants&, const FluidView<2>&, float, const Vec<2>&, std::span<Vec<2>>,
                           DdrState<2>&);
template void ddr_relax<3>(const DdrConstants&, const FluidView<3>&, float, const Vec<3>&, std::span<Vec<3>>,
                           DdrState<3>&);

// ---- its keys: solver.ddr.* ----

std::span<const Param<WorldDef>> DdrParams::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        with_default_note(
            number_param<W, &W::solver, &SolverParams::ddr, &DdrParams::speed_of_sound>(
                "solver.ddr.speed_of_sound", "m/s", closed(0, 1e5),
                "sets the stiffness k = c²/h; 0 = automatic as for WCSPH"),
            "0 (automatic)"),
        number_param<W, &W::solver, &SolverParams::ddr, &DdrParams::near_stiffness>(
            "solver.ddr.near_stiffness", "", closed(0, 10), "k_near / k"),
        number_param<W, &W::solver, &SolverParams::ddr, &DdrParams::cohesion>(
            "solver.ddr.cohesion", "", closed(0, 1),
            "factor on negative pressure; 1 = Clavet (cohesive, gel-like)"),
        number_param<W, &W::solver, &SolverParams::ddr, &DdrParams::linear_viscosity>(
            "solver.ddr.linear_viscosity", "1/s", closed(0, 1e6), "σ of Clavet's viscosity impulses"),
        with_default_note(
            number_param<W, &W::solver, &SolverParams::ddr, &DdrParams::quadratic_viscosity>(
                "solver.ddr.quadratic_viscosity", "1/m", closed(0, 1e6),
                "β of Clavet's viscosity impulses; 0 = 0.2/(2r)"),
            "0 (automatic)"),
    };
    return table;
}

}  // namespace seiche
