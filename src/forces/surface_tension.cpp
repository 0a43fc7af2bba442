// Surface tension and adhesion — Akinci, Akinci & Teschner 2013, eqs. (1)–(7); two passes over the
// pairs, eight particles at a time (pair_lanes.hpp): the normals with the cohesion and adhesion,
// then the curvature term, which needs the neighbours' normals.
#include "seiche/surface_tension.hpp"

#include <cmath>
#include <numbers>

#include "seiche/parallel.hpp"
#include "seiche/parameters.hpp"
#include "seiche/step_context.hpp"

#include "../neighbors/pair_lanes.hpp"

namespace seiche {

namespace {

constexpr double pi = std::numbers::pi;

// The shapes of eqs. (2) and (7) in s = r/h (the paper's C·h⁹·π/32 and A·h^3.25/0.007 over h^¼).
double c_shape(double s) {
    if (s <= 0 || s > 1) return 0;
    const double a = (1 - s) * (1 - s) * (1 - s) * s * s * s;
    return s > 0.5 ? a : 2 * a - 1.0 / 64;
}
double a_shape(double s) {
    if (s <= 0.5 || s > 1) return 0;
    return std::pow(std::max(0.0, -4 * s * s + 6 * s - 2), 0.25);
}

// ∫_0^1 shape(s) s^p ds by Simpson's rule on [lo, 1] (the shapes are smooth there).
template <class Shape>
double moment(Shape shape, int p, double lo) {
    const int n = 20000;
    const double step = (1 - lo) / n;
    double sum = 0;
    for (int k = 0; k <= n; ++k) {
        const double s = lo + k * step, w = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
        sum += w * shape(s) * std::pow(s, p);
    }
    return sum * step / 3;
}

}  // namespace

double cohesion_integral_3d() {
    // 4π·32/π·∫ c(s) s² ds, the moments of (1 − s)³ s⁵ in closed form: B(6, 4) = 1/504 over [0, 1],
    // and over [0, ½] twice that part less ∫ s²/64 = 1/1536.
    const double half = 1.0 / 384 - 3.0 / 896 + 3.0 / 2048 - 1.0 / 4608;  // ∫_0^½ (1 − s)³ s⁵
    return 128.0 * (1.0 / 504 + half - 1.0 / 1536);
}

double bond_surface_tension_2d(double gamma, float h, double rho0) {
    const SurfaceKernels<2> sk(h);
    return gamma * rho0 * rho0 * double(sk.c_norm) * std::pow(double(h), 4) * moment(c_shape, 3, 0.0) / 3;
}

double bond_surface_tension_3d(double gamma, float h, double rho0) {
    const SurfaceKernels<3> sk(h);
    return gamma * rho0 * rho0 * pi / 8 * double(sk.c_norm) * std::pow(double(h), 5) * moment(c_shape, 4, 0.0);
}

double adhesion_integral_3d() {
    return 4 * pi * 0.007 * moment(a_shape, 2, 0.5);
}

template <int D>
SurfaceKernels<D>::SurfaceKernels(float support) : h(support) {
    const double hd = std::pow(double(h), D);
    if constexpr (D == 3) {
        c_norm = float(32.0 / (pi * hd));
        a_norm = float(0.007 / hd);
    } else {
        // ∫ C dA = 2π c_norm h² ∫ c(s) s ds: chosen equal to the 3D ∫ C dV (dimensionless).
        c_norm = float(cohesion_integral_3d() / (2 * pi * moment(c_shape, 1, 0.0) * hd));
        a_norm = float(adhesion_integral_3d() / (2 * pi * moment(a_shape, 1, 0.5) * hd));
    }
}

template <int D>
float SurfaceKernels<D>::cohesion(float r) const {
    return c_norm * float(c_shape(double(r) / h));
}

template <int D>
float SurfaceKernels<D>::adhesion(float r) const {
    return a_norm * float(a_shape(double(r) / h));
}

namespace {

using namespace lanes;

// C(r) on eight separations: (1 − s)³ s³, twice that less 1/64 inside h/2.
template <int D>
inline F cohesion(const SurfaceKernels<D>& sk, const Separation& r, float inv_h) {
    const F s = r.len * inv_h;
    const F a = (1.0f - s) * (1.0f - s) * (1.0f - s) * s * s * s;
    return keep(s < 1.0f, sk.c_norm * select(s > 0.5f, a, 2.0f * a - 1.0f / 64.0f));
}

// A(r): (−4s² + 6s − 2)^¼ between h/2 and h, two square roots from the reciprocal ones.
template <int D>
inline F adhesion(const SurfaceKernels<D>& sk, const Separation& r, float inv_h) {
    const F s = r.len * inv_h;
    const F q = max(-4.0f * s * s + 6.0f * s - 2.0f, splat(1.0e-30f));
    const F q2 = q * rsqrt(q);       // √q
    const F root = q2 * rsqrt(q2);   // q^¼
    return keep((s > 0.5f) & (s < 1.0f), sk.a_norm * root);
}

}  // namespace

template <int D, class K>
void surface_accelerations(const FluidView<D>& f, const K& kernel, const SurfaceKernels<D>& sk,
                           float gamma, std::span<const float> adhesion_weight,
                           std::span<const float> rho, std::span<Float4> x_rho,
                           std::span<Float4> normal, std::span<Vec<D>> acceleration) {
    const Vec<D>* x = f.x.data();
    const Vec<D>* bx = f.bx.data();
    const float* aw = adhesion_weight.data();
    const bool adhere = !adhesion_weight.empty();
    const float mass = f.mass, h = sk.h, inv_h = 1.0f / sk.h, two_rho0 = 2.0f * f.rest_density;
    const Float4* xr = x_rho.data();
    const Float4* nrm = normal.data();
    if (gamma > 0) {
        // A particle's position and density in one 16-byte record, so that the first pass
        // fetches a neighbour's with one aligned load per lane (not a masked load and a gather).
        const float* density = rho.data();
        parallel_for(f.x.size(), [&](std::size_t i) {
            x_rho[i] = {x[i].x, x[i].y, z_of<D>(x[i]), density[i]};
        });
    }
    // First pass, over positions: the normals, eq. (4): n_i = h Σ_j (m/ρ_j) ∇W_ij (large at the
    // surface, about 0 inside); the cohesion, K_ij (−γ) m C(|x_ij|) x̂_ij (eqs. 1–3; a pair at
    // one point has no direction and gets none); and the adhesion, eq. (6): −β ψ_k A(|x_ik|)
    // x̂_ik, towards the boundary particle.
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        const Points<D> xi = load_points<D>(x, i0, n);
        F a0{}, a1{}, a2{};
        if (gamma > 0) {
            F rho_i = splat(1.0f), n0{}, n1{}, n2{};
            for (int l = 0; l < n; ++l) rho_i[l] = xr[i0 + l].w;
            const Lists nb(f.fluid_nb, i0, n);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                const I active = nb.active(k);
                const Points4 pj = fetch_points4(&xr[0].x, j);
                const Separation r = separation<D>(xi, Points<D>{pj.x, pj.y, pj.z});
                const F s = keep(active, grad_factor(kernel, r) / pj.w);
                n0 += s * r.x;
                n1 += s * r.y;
                n2 += s * r.z;
                const F kij = keep(active, -gamma * two_rho0 / (rho_i + pj.w));
                const F c = keep(r.len2 > 1.0e-12f * h * h, kij * (mass * cohesion(sk, r, inv_h) * r.inv_len));
                a0 += c * r.x;
                a1 += c * r.y;
                a2 += c * r.z;
            }
            // The normal's record carries ρ_i: the second pass fetches both at once.
            store_points4(&normal[0].x, i0, n, h * mass * n0, h * mass * n1,
                          D == 3 ? h * mass * n2 : F{}, rho_i);
        }
        if (adhere) {
            const Lists bn(f.boundary_nb, i0, n);
            for (int k = 0; k < bn.longest(); ++k) {
                Index b[width];
                bn.fetch(k, b);
                const Separation r = separation<D>(xi, fetch_points<D>(bx, b));
                const F s = keep(bn.active(k), fetch(aw, b) * adhesion(sk, r, inv_h) * r.inv_len);
                a0 -= s * r.x;
                a1 -= s * r.y;
                a2 -= s * r.z;
            }
        }
        for (int l = 0; l < n; ++l) {
            Vec<D> a;
            a.x = a0[l];
            a.y = a1[l];
            if constexpr (D == 3) a.z = a2[l];
            acceleration[i0 + l] = a;
        }
    });
    if (!(gamma > 0)) return;
    refresh_halo(f.processes, normal);  // the second pass reads the neighbours' normals
    // Second pass, over the normals: the curvature term K_ij (−γ)(n_i − n_j), eqs. (1)–(3). It
    // needs no positions (the lists hold the pairs within h), so it reads one record per pair.
    for_each_group(f.x.size(), [&](std::size_t i0, int n) {
        Points<D> ni{F{}, F{}, F{}};
        F rho_i = splat(1.0f);
        for (int l = 0; l < n; ++l) {
            ni.x[l] = nrm[i0 + l].x;
            ni.y[l] = nrm[i0 + l].y;
            ni.z[l] = nrm[i0 + l].z;
            rho_i[l] = nrm[i0 + l].w;
        }
        F a0{}, a1{}, a2{};
        const Lists nb(f.fluid_nb, i0, n);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 nj = fetch_points4(&nrm[0].x, j);
            const F kij = keep(nb.active(k), -gamma * two_rho0 / (rho_i + nj.w));
            a0 += kij * (ni.x - nj.x);
            a1 += kij * (ni.y - nj.y);
            a2 += kij * (ni.z - nj.z);
        }
        for (int l = 0; l < n; ++l) {
            Vec<D>& a = acceleration[i0 + l];
            a.x += a0[l];
            a.y += a1[l];
            if constexpr (D == 3) a.z += a2[l];
        }
    });
}

template struct SurfaceKernels<2>;
template struct SurfaceKernels<3>;

#define SEICHE_INSTANTIATE(D, K)                                                                   \
    template void surface_accelerations<D, K<D>>(const FluidView<D>&, const K<D>&,                 \
                                                 const SurfaceKernels<D>&, float,                  \
                                                 std::span<const float>, std::span<const float>,   \
                                                 std::span<Float4>, std::span<Float4>,             \
                                                 std::span<Vec<D>>);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

// ---- as a force of the list ----

template <int D>
std::span<const Param<WorldDef>> SurfaceTension<D>::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        live(number_param<W, &W::solver, &SolverParams::surface_tension>(
            "solver.surface_tension", "", closed(0, 1000),
            "surface tension γ (Akinci et al. 2013: cohesion and curvature, eqs. 1–5), for every "
            "solver; 0 = off. The σ it gives in N/m: docs/solvers.md")),
    };
    return table;
}

// The 2D kernels' scales come from numerical integrals: computed once, not every step.
template <int D>
SurfaceTension<D>::SurfaceTension(const FluidConstants<D>& fluid) : kernels(fluid.h) {}

template <int D>
void SurfaceTension<D>::apply(StepContext<D>& c, ForceStageArgs& args) {
    const float gamma = static_cast<float>(c.definition().solver.surface_tension);
    const FluidView<D> f = c.view();
    bool adhesion = false;
    for (const auto& o : f.objects) adhesion = adhesion || o.adhesion > 0;
    boundary_force.clear();
    if (!(gamma > 0) && !adhesion) return;
    ParticleSet<D>& p = c.particles();
    const std::size_t n = p.size();
    normal.resize(gamma > 0 ? n : 0);
    x_rho.resize(gamma > 0 ? n : 0);
    acceleration.resize(n);
    adhesion_weight.clear();
    if (adhesion) {
        // ψ_k = ρ0 V_k (Akinci et al. 2012, eq. 5), with the object's β.
        adhesion_weight.assign(f.bx.size(), 0.0f);
        for (const auto& o : f.objects)
            for (std::size_t k = o.first; k < o.first + o.count; ++k)
                adhesion_weight[k] = o.adhesion * f.rest_density * f.bvolume[k];
    }
    std::visit(
        [&](const auto& kernel) {
            surface_accelerations<D>(f, kernel, kernels, gamma, adhesion_weight, p.rho, x_rho,
                                     normal, acceleration);
        },
        c.kernel());
    if (c.tracking_boundary_forces() && adhesion) {
        // Newton's third law on eq. (6): boundary particle k is pulled towards each fluid
        // particle i by m β_k ψ_k A(|x_ik|) x̂_ik — at the positions the fluid's side used,
        // before they move: A(r) rises as a fourth root from r = h/2, where a particle resting
        // on a wall sits, and a 0.2 mm shift there changed the sum by a quarter.
        const ReactionLists<D> l = c.reaction_lists();
        boundary_force.assign(l.bx.size(), Vec<D>(0.0f));
        const float m = f.mass;
        parallel_for(l.bx.size(), [&](std::size_t k) {
            Vec<D> sum(0.0f);
            for (std::uint32_t e = l.offset[k]; e < l.offset[k + 1]; ++e) {
                const Vec<D> r = l.x[l.fluid[e]] - l.bx[k];
                const float len = glm::length(r);
                if (len > 0) sum += (m * adhesion_weight[k] * kernels.adhesion(len) / len) * r;
            }
            boundary_force[k] = sum;
        });
    }
    // The cohesion and curvature of the halo came from part of its neighbours.
    refresh_halo(c.processes(), std::span<Vec<D>>(acceleration));
    const Vec<D>* a = acceleration.data();
    const float dt = c.dt();
    parallel_for(n, [&](std::size_t i) { p.v[i] += dt * a[i]; });
    args.velocities_changed = true;
}

template struct SurfaceTension<2>;
template struct SurfaceTension<3>;

}  // namespace seiche
