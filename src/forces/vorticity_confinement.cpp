// Vorticity confinement — Fedkiw, Stam & Jensen 2001, eq. (11); Macklin & Müller 2013,
// eqs. (15)–(16). In 2D the vorticity is the scalar ω_z and N × ω = ω (N_y, −N_x).
#include <algorithm>
#include <cmath>

#include "../neighbors/pair_lanes.hpp"
#include "../solvers/density_lanes.hpp"

#include "seiche/domain.hpp"
#include "seiche/forces.hpp"
#include "seiche/parameters.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

namespace {

// |ω|: the length of the vector in 3D, |ω_z| in 2D.
inline float magnitude(const Vec<3>& w) {
    return std::sqrt(w.x * w.x + w.y * w.y + w.z * w.z);
}
inline float magnitude(float w) {
    return std::abs(w);
}

// N × ω; in 2D ω = ω_z ẑ, so N × ω = ω (N_y, −N_x).
inline Vec<3> confinement(const Vec<3>& n, const Vec<3>& w) {
    return glm::cross(n, w);
}
inline Vec<2> confinement(const Vec<2>& n, float w) {
    return w * Vec<2>(n.y, -n.x);
}

}  // namespace

// Both pair loops run on the lanes of pair_lanes.hpp (eight particles at a time, the neighbours'
// side read in whole 16-byte records): written as plain loops for GCC to vectorise, they needed
// gathers, which GCC does not use for every CPU (AMD Zen 3: scalar code).
template <int D, class K>
void vorticity_confinement(const FluidView<D>& f, const K& kernel, float epsilon, float dt,
                           std::span<const float> rho, std::span<Vec<D>> v,
                           std::vector<Vorticity<D>>& omega) {
    using namespace lanes;
    const std::size_t n = f.x.size();
    omega.resize(n);
    // Per calling thread, grown once: a warm step allocates nothing (test_allocation.cpp). The
    // loops see it through pointers (they run on the pool's threads).
    thread_local std::vector<Float4> records_storage;
    const Vec<D>* x = f.x.data();
    const Vec<D>* vel = v.data();
    const float* density = rho.data();
    Vorticity<D>* w = omega.data();
    const float mass = f.mass;
    // ω_i = Σ_j (m/ρ_j) (v_i − v_j) × ∇_i W_ij, with ∇_i W_ij = g(r) r_ij; in 2D only the z
    // component is non-zero. The neighbours' records: (v_j, ρ_j).
    point_records<D>(v, records_storage, [&](std::size_t i) { return density[i]; });
    const Float4* rec = records_storage.data();
    with_padding<D>(f.x_padded, [&](auto padded) {
        constexpr bool Padded = decltype(padded)::value;
        for_each_group(n, [&](std::size_t i0, int lanes) {
            const Points<D> xi = load_points<D>(x, i0, lanes);
            const Points<D> vi = load_points<D>(vel, i0, lanes);
            F w0{}, w1{}, w2{};
            const Lists nb(f.fluid_nb, i0, lanes);
            for (int k = 0; k < nb.longest(); ++k) {
                Index j[width];
                nb.fetch(k, j);
                const Points4 vj = fetch_points4(&rec[0].x, j);
                const Separation r = separation<D>(xi, fetch_points<D, Padded>(x, j));
                const F s = keep(nb.active(k), mass / vj.w * grad_factor(kernel, r));
                const F ux = vi.x - vj.x, uy = vi.y - vj.y, uz = vi.z - vj.z;
                w0 += s * (uy * r.z - uz * r.y);
                w1 += s * (uz * r.x - ux * r.z);
                w2 += s * (ux * r.y - uy * r.x);
            }
            for (int l = 0; l < lanes; ++l) {
                if constexpr (D == 3)
                    w[i0 + l] = Vec<3>(w0[l], w1[l], w2[l]);
                else
                    w[i0 + l] = w2[l];
            }
        });
    });
    refresh_halo(f.processes, std::span<Vorticity<D>>(omega));  // η_i reads the neighbours' ω
    // η = ∇|ω| by the difference formula, the neighbours' records (x_j, |ω_j|); the update of
    // v_i reads only ω, so it is in place.
    point_records<D>(f.x, records_storage, [&](std::size_t i) { return magnitude(w[i]); });
    rec = records_storage.data();
    Vec<D>* v_out = v.data();
    for_each_group(n, [&](std::size_t i0, int lanes) {
        const Points<D> xi = load_points<D>(x, i0, lanes);
        F wi{};
        for (int l = 0; l < lanes; ++l) wi[l] = rec[i0 + l].w;
        F e0{}, e1{}, e2{};
        const Lists nb(f.fluid_nb, i0, lanes);
        for (int k = 0; k < nb.longest(); ++k) {
            Index j[width];
            nb.fetch(k, j);
            const Points4 pj = fetch_points4(&rec[0].x, j);
            const Separation r = separation<D>(xi, Points<D>{pj.x, pj.y, pj.z});
            const F s = keep(nb.active(k),
                             mass / fetch(density, j) * (pj.w - wi) * grad_factor(kernel, r));
            e0 += s * r.x;
            e1 += s * r.y;
            e2 += s * r.z;
        }
        for (int l = 0; l < lanes; ++l) {
            const std::size_t i = i0 + l;
            Vec<D> eta;
            eta.x = e0[l];
            eta.y = e1[l];
            if constexpr (D == 3) eta.z = e2[l];
            // N = η/|η| only where |ω| really varies: where |η| is below 0.1·|ω|/h its direction
            // is SPH noise (a solid-body rotation has uniform ω and would get a full-size random
            // push), so N is scaled down in proportion there.
            const float floor = 0.1f * wi[l] / kernel.support();
            const float len = std::max(glm::length(eta), floor);
            if (len <= 0.0f) continue;
            v_out[i] += (dt * epsilon) * confinement(eta / len, w[i]);
        }
    });
}

#define SEICHE_INSTANTIATE(D, K)                                                                   \
    template void vorticity_confinement<D, K<D>>(const FluidView<D>&, const K<D>&, float, float,      \
                                                 std::span<const float>, std::span<Vec<D>>,           \
                                                 std::vector<Vorticity<D>>&);
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

// ---- as a force of the list ----

template <int D>
std::span<const Param<WorldDef>> VorticityConfinement<D>::keys() {
    using W = WorldDef;
    static const std::vector<Param<W>> table = {
        live(number_param<W, &W::solver, &SolverParams::vorticity>(
            "solver.vorticity", "m/s", closed(0, 1000),
            "vorticity confinement ε (M&M 2013 eqs. 15–16); ε·ω is an acceleration")),
    };
    return table;
}

template <int D>
void VorticityConfinement<D>::apply(StepContext<D>& c, ForceStageArgs& args) {
    const double epsilon = c.definition().solver.vorticity;
    if (!(epsilon > 0.0)) return;
    c.settle_density(args);  // it weighs the neighbours by ρ of the current positions
    ParticleSet<D>& p = c.particles();
    // The forces before it (XSPH) left the halo's velocities and densities of their own.
    refresh_halo(c.processes(), std::span<Vec<D>>(p.v));
    refresh_halo(c.processes(), std::span<float>(p.rho));
    const FluidView<D> f = c.view();
    std::visit(
        [&](const auto& kernel) {
            vorticity_confinement<D>(f, kernel, static_cast<float>(epsilon), c.dt(), p.rho, p.v,
                                     omega);
        },
        c.kernel());
}

template struct VorticityConfinement<2>;
template struct VorticityConfinement<3>;

}  // namespace seiche
