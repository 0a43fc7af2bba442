// XSPH velocity smoothing — Schechter & Bridson 2012, eq. (8), as used by Macklin & Müller 2013,
// eq. (17). Only fluid neighbours: the walls are free-slip.
#include "../neighbors/pair_lanes.hpp"
#include "../solvers/density_lanes.hpp"

#include "seiche/forces.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "seiche/parameters.hpp"
#include "seiche/step_context.hpp"

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
    velocity_records<D>(v, rho, records);
    const Float4* rec = records.data();
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
            store_points<D>(v_out.data(), i0, n,
                            Points<D>{vi.x + cm * s0, vi.y + cm * s1, vi.z + cm * s2});
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
SEICHE_FOR_EACH_KERNEL(SEICHE_INSTANTIATE)
#undef SEICHE_INSTANTIATE

// ---- as a force of the list ----

namespace {

// "0.01 for pbf, 0 for wcsph and ddr": each solver's default, from the list's traits.
std::string default_note() {
    std::string note;
    std::vector<bool> said(solver_count, false);
    for (std::size_t a = 0; a < solver_count; ++a) {
        if (said[a]) continue;
        const double value = all_solver_traits[a].default_xsph;
        std::vector<std::string_view> names;
        for (std::size_t b = a; b < solver_count; ++b)
            if (!said[b] && all_solver_traits[b].default_xsph == value) {
                said[b] = true;
                names.push_back(all_solver_traits[b].name);
            }
        char num[32];
        std::snprintf(num, sizeof num, "%g", value);
        note += (note.empty() ? "" : ", ") + std::string(num) + " for ";
        for (std::size_t k = 0; k < names.size(); ++k)
            note += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + std::string(names[k]);
    }
    return note;
}

}  // namespace

template <int D>
std::span<const Param<WorldDef>> XsphViscosity<D>::keys() {
    using W = WorldDef;
    static const std::string note = default_note();
    static const std::vector<Param<W>> table = {
        live(with_automatic(number_param<W, &W::solver, &SolverParams::xsph>(
                                "solver.xsph", "", closed(0, 1),
                                "XSPH viscosity c (Schechter & Bridson 2012; M&M 2013 eq. 17); "
                                "WCSPH and DDR have their own viscosity, so there it is an option"),
                            -1.0, note)),
    };
    return table;
}

template <int D>
void XsphViscosity<D>::apply(StepContext<D>& c, ForceStageArgs& args) {
    const double xsph = c.definition().solver.xsph_or_default();
    if (!(xsph > 0.0)) return;
    ParticleSet<D>& p = c.particles();
    const FluidView<D> f = c.view();
    std::span<Float4> recs = args.lent;
    if (recs.size() < p.size()) {
        records.resize(p.size());
        recs = records;
    }
    std::vector<Vec<D>>& v_out = c.velocity_scratch();
    std::visit(
        [&](const auto& kernel) {
            if (args.density_pending) {
                // ρ of the positions from the same pair pass, XSPH weighting by ρ as it was.
                std::vector<float>& rho_out = c.density_scratch();
                rho_out.resize(p.size());
                xsph_viscosity_and_density<D>(f, kernel, static_cast<float>(xsph), p.rho, p.v,
                                              v_out, rho_out, recs);
                p.rho.swap(rho_out);
                args.density_pending = false;
            } else {
                xsph_viscosity<D>(f, kernel, static_cast<float>(xsph), p.rho, p.v, v_out, recs);
            }
            p.v.swap(v_out);
        },
        c.kernel());
}

template struct XsphViscosity<2>;
template struct XsphViscosity<3>;

}  // namespace seiche
