// Laminar viscosity — Morris, Fox & Zhu 1997, eq. (8), between fluid particles and between the
// fluid and the boundary particles of Akinci et al. 2012 (eq. 11 is their artificial form of the
// same pair force): at a wall V_k stands for m_j/ρ_j and ρ_i for ρ0, and each boundary particle
// carries the fluid's velocity continued through its object's face (Morris et al. 1997, sec. 2.3).
#include "seiche/laminar_viscosity.hpp"

#include "../neighbors/pair_lanes.hpp"
#include "../solvers/density_lanes.hpp"

#include <algorithm>
#include <cmath>

#include "seiche/domain.hpp"
#include "seiche/parallel.hpp"
#include "seiche/parameters.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

namespace {

// β_ik / V_k = 2ν (−W'/r) r²/(r² + 0.01 h²) ≥ 0: a wall pair's coefficient per boundary volume,
// a_i = −Σ_k β_ik (v_i − u_k).
template <class K>
inline float pair_coefficient(const K& kernel, float nu, float eps2, float len2) {
    return 2.0f * nu * -kernel.grad_factor(std::sqrt(len2)) * len2 / (len2 + eps2);
}

}  // namespace

template <int D>
void wall_depths(std::span<const BoundaryObject<D>> objects, std::span<const Vec<D>> bx,
                 std::vector<float>& depth, std::vector<std::uint32_t>& object_of) {
    depth.resize(bx.size());
    object_of.resize(bx.size());
    for (std::size_t o = 0; o < objects.size(); ++o) {
        const BoundaryObject<D>& ob = objects[o];
        parallel_for(ob.count, [&](std::size_t e) {
            const std::size_t k = ob.first + e;
            depth[k] = std::max(-ob.signed_distance(bx[k]), 0.0f);
            object_of[k] = std::uint32_t(o);
        });
    }
}

double viscous_step_bound(double nu, double particle_radius) {
    const double d = 2.0 * particle_radius;
    return nu > 0.0 ? 0.125 * d * d / nu : 1.0e30;
}

namespace {

// viscosity_fluid_pass with an eddy viscosity (Turbulent) or without (ν then one factor of
// the sum: the same bits and loop as before the eddy viscosity existed).
template <bool Turbulent, int D, class K>
void fluid_pairs(const FluidView<D>& f, const K& kernel, float nu, float dt,
                 std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                 std::span<const Float4> records, std::span<const float> eddy) {
    using namespace lanes;
    const Float4* rec = records.data();
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const float* nut = eddy.data();
    const float eps2 = 0.01f * kernel.support() * kernel.support();
    const float scale = dt * 2.0f * (Turbulent ? 1.0f : nu) * f.mass * f.rest_density;
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(f.x.size(), [&](std::size_t i0, int n) {
            F nut_i{};
            if constexpr (Turbulent) nut_i = load(nut + i0, n);
            const Points<D> xi = load_points<D>(x, i0, n);
            const Points<D> vi = load_points<D>(vel, i0, n);
            F s0{}, s1{}, s2{};
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                const Points4 vj = fetch_points4(&rec[0].x, j);
                const Points<D> pj = fetch_points<D, Padded>(x, j);
                const Separation r = separation<D>(xi, pj);
                // x_ij·∇W_ij/(r² + 0.01 h²) = W'/r · r²/(r² + 0.01 h²), over ρ_j; inactive lanes
                // repeat a real neighbour, then drop it.
                F w = keep(nb.active(k),
                           grad_factor(kernel, r) * r.len2 / (r.len2 + eps2) * vj.w);
                if constexpr (Turbulent) w *= nu + 0.5f * (nut_i + fetch(nut, j));
                s0 += w * (vi.x - vj.x);
                s1 += w * (vi.y - vj.y);
                s2 += w * (vi.z - vj.z);
            }
            for (int l = 0; l < n; ++l) {
                const float c = scale * rec[i0 + l].w;  // Δt 2ν m ρ0 / ρ_i
                Vec<D> dv;
                dv.x = s0[l];
                dv.y = s1[l];
                if constexpr (D == 3) dv.z = s2[l];
                v_out[i0 + l] += c * dv;
            }
        });
    });
}

}  // namespace

template <int D, class K>
void viscosity_fluid_pass(const FluidView<D>& f, const K& kernel, float nu, float dt,
                          std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                          std::span<const Float4> records, std::span<const float> eddy) {
    if (eddy.empty())
        fluid_pairs<false, D, K>(f, kernel, nu, dt, v, v_out, records, eddy);
    else
        fluid_pairs<true, D, K>(f, kernel, nu, dt, v, v_out, records, eddy);
}

template <int D, class K>
void viscosity_wall_pass(const FluidView<D>& f, const K& kernel, float nu, float dt,
                         std::span<const Vec<D>> wall_velocity, std::span<const float> depth,
                         std::span<const std::uint32_t> object_of, std::span<Vec<D>> v,
                         std::span<const float> eddy) {
    const float eps2 = 0.01f * kernel.support() * kernel.support();
    const bool moving = !wall_velocity.empty();
    parallel_for(f.x.size(), [&](std::size_t i) {
        // (1 + Δt Σ_k β_ik) v_i' = v_i + Δt Σ_k β_ik u_k: the new velocity at once, stable for
        // any ν and Δt (the limit is no-slip: v_i' → the walls' weighted velocity).
        float beta_sum = 0.0f;
        Vec<D> pull(0.0f);
        FaceDistance<D> face{f.objects, object_of, f.x[i]};
        for (const std::uint32_t k : f.boundary_nb.of(i)) {
            const Vec<D> r = f.x[i] - f.bx[k];
            const float d_i = face(k);
            const float beta = f.bvolume[k] *
                               pair_coefficient(kernel, eddy.empty() ? nu : nu + eddy[i], eps2,
                                                glm::dot(r, r)) *
                               mirror_factor(d_i, depth[k]);
            beta_sum += beta;
            if (moving) pull += beta * wall_velocity[k];
        }
        if (beta_sum > 0.0f) v[i] = (v[i] + dt * pull) / (1.0f + dt * beta_sum);
    });
}

#define SEICHE_INSTANTIATE(D, K)                                                                 \
    template void viscosity_fluid_pass<D, K<D>>(const FluidView<D>&, const K<D>&, float, float,  \
                                                std::span<const Vec<D>>, std::span<Vec<D>>,      \
                                                std::span<const Float4>, std::span<const float>); \
    template void viscosity_wall_pass<D, K<D>>(const FluidView<D>&, const K<D>&, float, float,   \
                                               std::span<const Vec<D>>, std::span<const float>,  \
                                               std::span<const std::uint32_t>, std::span<Vec<D>>, \
                                               std::span<const float>);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

// ---- as a force of the list ----

template <int D>
std::span<const Param<WorldDef>> LaminarViscosity<D>::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        live(number_param<W, &W::solver, &SolverParams::kinematic_viscosity>(
            "solver.kinematic_viscosity", "m²/s", closed(0, 1),
            "the fluid's kinematic viscosity ν (Morris et al. 1997's laminar term, for every "
            "solver), between its particles and against the walls, obstacles and bodies, which "
            "then hold it back (friction; no-slip as ν grows); 0 = inviscid, free-slip walls; "
            "water 1e-6. CFL steps are at most 0.125 (2r)²/ν")),
        live(number_param<W, &W::solver, &SolverParams::smagorinsky>(
            "solver.smagorinsky", "", closed(0, 1),
            "C_s of an eddy viscosity for turbulence the particles do not resolve (Smagorinsky "
            "1963, the SPS model of Dalrymple & Rogers 2006): ν_t = (C_s h)² |S| per particle, h "
            "the kernel's support, |S| the strain rate, added to ν in the viscous pairs and at "
            "the walls; 0 = off; 0.1-0.2 is the usual range")),
        live(boolean_param<W, &W::solver, &SolverParams::wall_function>(
            "solver.wall_function",
            "the turbulent shear of the log law (Launder & Spalding 1974) on the fluid's layer "
            "next to every wall, obstacle and body, where the particles are too coarse for the "
            "boundary layer (a wall function: tau_w = rho u_tau^2 for the slip along the face); "
            "needs solver.kinematic_viscosity > 0; false = the laminar walls alone")),
    };
    return table;
}

template <int D>
void LaminarViscosity<D>::apply(StepContext<D>& c, ForceStageArgs& args) {
    const float nu = static_cast<float>(c.definition().solver.kinematic_viscosity);
    const float smagorinsky = static_cast<float>(c.definition().solver.smagorinsky);
    boundary_force.clear();
    const bool wall_function = c.definition().solver.wall_function && nu > 0;
    if (!(nu > 0) && !(smagorinsky > 0)) return;
    const FluidView<D> f = c.view();
    ParticleSet<D>& p = c.particles();
    const std::size_t n = p.size();
    const bool moving = boundary_velocities<D>(f, wall_velocity);
    const std::span<const Vec<D>> u = moving ? std::span<const Vec<D>>(wall_velocity)
                                             : std::span<const Vec<D>>();
    // The new velocities into the world's scratch: the fluid's pairs at the old velocities, then
    // the walls at the new; the change is what the halo takes.
    wall_depths<D>(f.objects, f.bx, depth, object_of);
    std::vector<Vec<D>>& v_new = c.velocity_scratch();
    v_new.assign(p.v.begin(), p.v.end());
    records.resize(n);
    const float dt = c.dt();
    lanes::velocity_records<D>(p.v, p.rho, records);
    eddy.clear();
    if (smagorinsky > 0) {
        eddy.resize(n);
        // The explicit pairs stay stable at this step (viscous_step_bound solved for ν).
        const double d = 2.0 * f.radius;
        const float cap = static_cast<float>(std::max(0.125 * d * d / dt - nu, 0.0));
        std::visit([&](const auto& kernel) {
            eddy_viscosity_pass<D>(f, kernel, smagorinsky, cap, records, p.v, u, depth, object_of,
                                   eddy);
        }, c.kernel());
        refresh_halo(c.processes(), std::span<float>(eddy));
    }
    std::visit(
        [&](const auto& kernel) {
            viscosity_fluid_pass<D>(f, kernel, nu, dt, p.v, v_new, records, eddy);
            viscosity_wall_pass<D>(f, kernel, nu, dt, u, depth, object_of, v_new, eddy);
            if (wall_function) {
                wall_shear.resize(n);
                wall_function_pass<D>(f, kernel, nu, dt, u, object_of, v_new,
                                      std::span<WallShear<D>>(wall_shear));
            }
        },
        c.kernel());
    if (!wall_function) wall_shear.clear();
    parallel_for(n, [&](std::size_t i) { v_new[i] -= p.v[i]; });
    refresh_halo(c.processes(), std::span<Vec<D>>(v_new));
    if (wall_function) refresh_halo(c.processes(), std::span<WallShear<D>>(wall_shear));
    if (c.tracking_boundary_forces()) reaction(c, nu, moving, v_new, eddy, wall_shear);
    parallel_for(n, [&](std::size_t i) { p.v[i] += v_new[i]; });
    args.velocities_changed = true;
}

template <int D>
void LaminarViscosity<D>::reaction(StepContext<D>& c, float nu, bool moving,
                                std::span<const Vec<D>> dv, std::span<const float> eddy,
                                std::span<const WallShear<D>> shear) {
    // Newton's third law: boundary particle k feels +m β_ik (v_i' − u_k) from each
    // fluid neighbour i, at the new velocities v_i' = v_i + Δv_i (the implicit step's force) and
    // the positions the fluid's side used. The wall function's share, −m Δv_i/Δt, goes to the
    // boundary neighbours of the object i slid along, in proportion to V_k W_ik; v_i' is the
    // laminar step's, before it.
    const FluidView<D> f = c.view();
    const ParticleSet<D>& p = c.particles();
    const ReactionLists<D> l = c.reaction_lists();
    boundary_force.assign(l.bx.size(), Vec<D>(0.0f));
    const float mass = f.mass;
    const float dt = c.dt();
    const Vec<D>* x_fluid = l.x.data();
    std::visit(
        [&](const auto& kernel) {
            const float eps2 = 0.01f * kernel.support() * kernel.support();
            parallel_for(l.bx.size(), [&](std::size_t k) {
                Vec<D> sum(0.0f);
                const Vec<D> uk = moving ? wall_velocity[k] : Vec<D>(0.0f);
                for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e) {
                    const std::uint32_t i = l.fluid[e];
                    const Vec<D> r = x_fluid[i] - l.bx[k];
                    const float nu_i = eddy.empty() ? nu : nu + eddy[i];
                    const float beta =
                        f.bvolume[k] * pair_coefficient(kernel, nu_i, eps2, glm::dot(r, r)) *
                        mirror_factor(f.objects[object_of[k]].signed_distance(x_fluid[i]),
                                      depth[k]);
                    Vec<D> v_new = p.v[i] + dv[i];
                    if (!shear.empty() && shear[i].object != WallShear<D>::none) {
                        v_new -= shear[i].dv;
                        if (shear[i].object == object_of[k])
                            sum -= (mass / dt * f.bvolume[k] *
                                    kernel.W(std::sqrt(glm::dot(r, r))) / shear[i].weight) *
                                   shear[i].dv;
                    }
                    sum += (mass * beta) * (v_new - uk);
                }
                boundary_force[k] = sum;
            });
        },
        c.kernel());
}

template void wall_depths<2>(std::span<const BoundaryObject<2>>, std::span<const Vec<2>>,
                             std::vector<float>&, std::vector<std::uint32_t>&);
template void wall_depths<3>(std::span<const BoundaryObject<3>>, std::span<const Vec<3>>,
                             std::vector<float>&, std::vector<std::uint32_t>&);
template struct LaminarViscosity<2>;
template struct LaminarViscosity<3>;

}  // namespace seiche
