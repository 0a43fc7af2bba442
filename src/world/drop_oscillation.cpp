// The oscillating drop of the surface-tension calibration (Rayleigh 1879; Lamb 1932, sec. 275):
// a round drop in zero gravity kicked into its l = 2 mode; its period gives σ_eff.
#include "seiche/drop_oscillation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "seiche/world.hpp"

namespace seiche {

DampedSine fit_damped_sine(std::span<const std::pair<double, double>> signal, double omega0) {
    if (signal.size() < 8 || !(omega0 > 0.0) || !std::isfinite(omega0))
        throw std::invalid_argument("fit_damped_sine: needs 8 samples or more and a positive guess of omega");
    for (const auto& [t, s] : signal)
        if (!std::isfinite(t) || !std::isfinite(s))
            throw std::invalid_argument("fit_damped_sine: a sample is not a finite number");
    // For a given (ω, λ) the model c + e^{−λt}(a sin ωt + b cos ωt) is linear in (c, a, b): its
    // least squares by the normal equations (3 × 3), and the residual left.
    const auto residual = [&](double omega, double decay) {
        double m[3][3] = {}, y[3] = {}, yy = 0;
        for (const auto& [t, s] : signal) {
            const double e = std::exp(-decay * t), f[3] = {1.0, e * std::sin(omega * t), e * std::cos(omega * t)};
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) m[i][j] += f[i] * f[j];
                y[i] += f[i] * s;
            }
            yy += s * s;
        }
        // Cholesky of the (symmetric, positive) normal matrix; the residual is yy − yᵀ M⁻¹ y.
        double l[3][3] = {};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j <= i; ++j) {
                double v = m[i][j];
                for (int k = 0; k < j; ++k) v -= l[i][k] * l[j][k];
                if (i == j) {
                    if (!(v > 1e-300)) return std::numeric_limits<double>::infinity();
                    l[i][i] = std::sqrt(v);
                } else {
                    l[i][j] = v / l[j][j];
                }
            }
        double z[3], explained = 0;
        for (int i = 0; i < 3; ++i) {
            double v = y[i];
            for (int k = 0; k < i; ++k) v -= l[i][k] * z[k];
            z[i] = v / l[i][i];
            explained += z[i] * z[i];
        }
        return yy - explained;
    };
    // A grid over ω in [0.6, 1.6]·ω0 and λ in [−0.2, 0.6]·ω0 (the swings may grow while a drop
    // settles), then three finer grids about the best point.
    double best_omega = omega0, best_decay = 0, best = std::numeric_limits<double>::infinity();
    double d_omega = 0.01 * omega0, d_decay = 0.02 * omega0;
    for (int i = 0; i <= 100; ++i)
        for (int j = 0; j <= 40; ++j) {
            const double omega = (0.6 + 0.01 * i) * omega0, decay = (-0.2 + 0.02 * j) * omega0;
            const double r = residual(omega, decay);
            if (r < best) best = r, best_omega = omega, best_decay = decay;
        }
    for (int round = 0; round < 3; ++round) {
        const double o0 = best_omega, l0 = best_decay;
        d_omega *= 0.2, d_decay *= 0.2;
        for (int i = -5; i <= 5; ++i)
            for (int j = -5; j <= 5; ++j) {
                const double r = residual(o0 + i * d_omega, l0 + j * d_decay);
                if (r < best) best = r, best_omega = o0 + i * d_omega, best_decay = l0 + j * d_decay;
            }
    }
    return {best_omega, best_decay, best};
}

template <int D>
DropOscillation oscillating_drop(SolverType solver, double gamma, double r, double kick,
                                 unsigned seed, double drop_radius, const DropFluid& fluid) {
    if (!(drop_radius > 0.0) || !(r > 0.0) || !(drop_radius >= 5 * r))
        throw std::invalid_argument("oscillating_drop: the drop's radius must be at least 5 particle radii");
    if (!(fluid.time_factor > 0.0) || !(fluid.time_factor <= 100.0))
        throw std::invalid_argument("oscillating_drop: the time factor must be in (0, 100]");
    if (fluid.fit_extremum < 2 || fluid.fit_extremum > 100)
        throw std::invalid_argument("oscillating_drop: the fit's last extremum must be in [2, 100]");
    const double R = drop_radius, d = 2 * r, rho0 = 1000;
    const double time_scale = 1.0 / std::sqrt(gamma);  // s per "second at γ = 1"
    // The relaxation and the time followed in the drop's capillary time √(ρR³/σ): a drop of
    // another size than 5 cm gets as many periods, if what rings is its surface ((R/5 cm)^1.5 is
    // exactly 1 at 5 cm); and the fluid's own factor, for drops whose σ_eff is smaller.
    const double size_scale = std::pow(R / 0.05, 1.5) * fluid.time_factor;
    WorldDef def;
    def.dimension = D;
    def.particle_radius = r;
    def.gravity = {0, 0, 0};
    // A box of 6R, 0.3 m at least: room for the kicked drop, three radii from each wall.
    const double box = std::max(0.3, 6 * R), centre = box / 2;
    def.container_min = {0, 0, 0};
    def.container_max = {box, box, D == 3 ? box : 0};
    // A block holding as many particles as the drop: its lattice sites are then moved onto the
    // innermost sites of the stretched shape.
    const double side = D == 2 ? std::sqrt(std::numbers::pi) * R : std::cbrt(4.0 / 3.0 * std::numbers::pi) * R;
    const int n_side = std::max(2, int(std::lround(side / d)));
    const double a = n_side * d;
    def.fluid = {{{centre - a / 2, centre - a / 2, D == 3 ? centre - a / 2 : 0},
                  {centre + a / 2, centre + a / 2, D == 3 ? centre + a / 2 : 0}, {}}};
    def.solver.type = solver;
    def.solver.surface_tension = gamma;
    def.kernel = fluid.kernel;
    def.support_factor = fluid.support_factor;
    if (!(fluid.speed_of_sound >= 0.0))
        throw std::invalid_argument("oscillating_drop: the speed of sound must be 0 (automatic) or positive");
    def.solver.visit_block([&](auto& block) {
        if constexpr (requires { block.speed_of_sound; }) block.speed_of_sound = fluid.speed_of_sound;
    });
    World<D> w(def);
    const std::size_t n = w.particles().size();
    const double R_drop = D == 2 ? std::sqrt(double(n) * d * d / std::numbers::pi)
                                 : std::cbrt(3.0 * double(n) * d * d * d / (4 * std::numbers::pi));
    // First a round drop: the innermost lattice sites, relaxed for 0.5 s/√γ under strong XSPH
    // damping, so that the particles leave the lattice (a lattice drop keeps a shear stiffness of
    // its own and oscillates about a deformed shape).
    std::vector<std::pair<double, Vec<D>>> sites;
    const int m = int(std::ceil(R_drop * 1.4 / d)) + 2;
    for (int i = -m; i <= m; ++i)
        for (int j = -m; j <= m; ++j)
            for (int k = (D == 3 ? -m : 0); k <= (D == 3 ? m : 0); ++k) {
                Vec<D> p;
                p[0] = float(i * d);
                p[1] = float(j * d);
                if constexpr (D == 3) p[2] = float(k * d);
                sites.push_back({double(glm::dot(p, p)) + 1e-9 * (i + 0.37 * j + 0.11 * k), p});
            }
    std::sort(sites.begin(), sites.end(), [](const auto& u, const auto& v) { return u.first < v.first; });
    std::vector<Vec<D>> x(n);
    std::uint32_t state = seed;
    const auto jitter = [&] {  // a linear congruential generator, up to ±1 µm
        state = state * 1664525u + 1013904223u;
        return seed ? (float(state >> 8) / float(1u << 24) - 0.5f) * 2.0e-6f : 0.0f;
    };
    for (std::size_t k = 0; k < n; ++k) {
        x[k] = sites[k].second + Vec<D>(float(centre));
        for (int q = 0; q < D; ++q) x[k][q] += jitter();
    }
    w.set_positions(x);
    const double relax = 0.5 * time_scale * size_scale;
    w.set_xsph(0.2);
    if (w.advance_to(relax).status != AdvanceResult::Status::reached)
        throw std::runtime_error(std::string(solver_name(solver)) + " went unstable while relaxing the drop");
    w.set_xsph(-1.0);  // the solver's default again
    // The deformation: (I_xx − I_yy)/(I_xx + I_yy) of the particles' second moments.
    auto deformation = [&] {
        glm::dvec3 c(0.0);
        for (const auto& p : w.particles().x)
            for (int k = 0; k < D; ++k) c[k] += p[k];
        c /= double(n);
        double ixx = 0, iyy = 0;
        for (const auto& p : w.particles().x) {
            ixx += (p[0] - c[0]) * (p[0] - c[0]);
            iyy += (p[1] - c[1]) * (p[1] - c[1]);
        }
        return (ixx - iyy) / (ixx + iyy);
    };
    // Then kicked into its l = 2 mode: v = A (x, −y) in 2D, A (x, −y/2, −z/2) in 3D about the
    // centre (divergence-free: the potential flow of the mode). Small (A = 0.3·√γ 1/s: a
    // deformation of a few per cent), so the drop oscillates about its round shape without
    // rearranging its particles (with twice that, σ_eff/γ spread by 87% instead of 9% for PBF);
    // A ∝ √γ as ω is.
    {
        std::vector<std::uint32_t> by_id(n);
        for (std::size_t k = 0; k < n; ++k) by_id[w.particles().id[k]] = std::uint32_t(k);
        Vec<D> c(0.0f);
        for (const auto& p : w.particles().x) c += p / float(n);
        std::vector<Vec<D>> v(n);
        const float A = float(kick * std::sqrt(gamma));
        for (std::size_t k = 0; k < n; ++k) {
            const Vec<D> p = w.particles().x[by_id[k]] - c;
            v[k][0] = A * p[0];
            for (int q = 1; q < D; ++q) v[k][q] = -A * p[q] / float(D - 1);
        }
        w.set_velocities(v);
    }
    DropOscillation run;
    auto& signal = run.signal;  // from the release
    AdvanceOptions every;
    every.every = 0.002 * time_scale;
    every.on_sample = [&](std::int64_t) {
        signal.emplace_back(w.time() - relax, deformation());
        return true;
    };
    signal.emplace_back(0.0, deformation());
    const double end = relax + 2.0 * time_scale * size_scale;
    if (w.advance_to(end, every).status != AdvanceResult::Status::reached)
        throw std::runtime_error(std::string(solver_name(solver)) + " went unstable in the drop");
    // Two readings. The timed extrema: the drop oscillates about a shape that may drift slowly
    // (a packing that settles), so the half periods are taken between successive extrema of the
    // deformation (turns larger than 0.002, a zigzag filter), up to 8 of them; the decay from
    // their peak-to-peak swings.
    std::vector<std::pair<double, double>> turns;  // (t, s) of the extrema
    {
        int direction = 0;
        std::pair<double, double> best = signal[0];
        for (const auto& sample : signal) {
            const double ds = sample.second - best.second;
            if (direction >= 0 && sample.second > best.second) best = sample, direction = 1;
            else if (direction <= 0 && sample.second < best.second) best = sample, direction = -1;
            else if (std::abs(ds) > 0.002) {
                if (direction != 0) turns.push_back(best);
                direction = ds > 0 ? 1 : -1;
                best = sample;
            }
        }
    }
    run.radius = R_drop;
    run.half_periods = int(turns.size()) - 1;
    const auto sigma_of = [&](double omega) {
        return omega * omega * rho0 * std::pow(R_drop, 3) / (D == 2 ? 6.0 : 8.0);
    };
    if (turns.size() >= 2) {
        const std::size_t last = std::min<std::size_t>(turns.size() - 1, 8);
        run.period = 2 * (turns[last].first - turns[0].first) / double(last);
        run.sigma = sigma_of(2 * std::numbers::pi / run.period);
        if (last >= 3) {
            double st = 0, sl = 0, stt = 0, stl = 0;
            for (std::size_t k = 0; k < last; ++k) {
                const double t = 0.5 * (turns[k].first + turns[k + 1].first);
                const double l = std::log(std::max(std::abs(turns[k + 1].second - turns[k].second), 1e-12));
                st += t, sl += l, stt += t * t, stl += t * l;
            }
            const double q = double(last);
            run.decay = -(q * stl - st * sl) / (q * stt - st * st);
        }
        // The fitted sinusoid: from the kick to the fit_extremum-th extremum (the fourth by
        // default, about 1.75 periods), where the swing is large against the drop's noise. For a
        // 2D drop that rings as a surface, about round from the kick on, the later swings are
        // chaotic (the same packing kicked with velocities 10⁻⁵ m/s apart rings them up to 0.1 s
        // apart), and timing extrema reads that noise twice; a drop that yields at the kick and
        // rings about a shape of its own is not such a sinusoid, and its extrema read it better
        // (docs/solvers.md). A 3D drop rings cleanly longer, and its first swing carries the
        // kick's transient: the calibration fits it to the sixth extremum.
        const std::size_t upto = std::min<std::size_t>(turns.size() - 1, std::size_t(fluid.fit_extremum - 1));
        const double t_end = turns[upto].first;
        std::vector<std::pair<double, double>> window;
        for (const auto& sample : signal)
            if (sample.first <= t_end) window.push_back(sample);
        if (window.size() >= 8) {
            const DampedSine fit =
                fit_damped_sine(window, std::numbers::pi * double(upto) / (t_end - turns[0].first));
            run.fitted_period = 2 * std::numbers::pi / fit.omega;
            run.fitted_sigma = sigma_of(fit.omega);
            if (upto >= 3) run.fitted_decay = fit.decay;
        }
    }
    return run;
}

template DropOscillation oscillating_drop<2>(SolverType, double, double, double, unsigned, double,
                                             const DropFluid&);
template DropOscillation oscillating_drop<3>(SolverType, double, double, double, unsigned, double,
                                             const DropFluid&);


}  // namespace seiche
