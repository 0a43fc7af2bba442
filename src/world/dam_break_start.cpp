// The first instants of a dam break (Korobkin & Yilmaz 2009, the leading-order, small-time
// problem): the free surface's initial acceleration by the pressure's cosine series, and a gauge's
// first fall fitted to it.
#include "seiche/dam_break_start.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace seiche {

double dam_break_surface_acceleration(double depth, double length, double distance, double g) {
    if (!(depth > 0) || !(length > 0) || !(g > 0) || !std::isfinite(depth) ||
        !std::isfinite(length) || !std::isfinite(g))
        throw std::invalid_argument(
            "dam_break_surface_acceleration: depth, length and g must be positive");
    if (!(distance > 0) || !(distance <= length))
        throw std::invalid_argument(
            "dam_break_surface_acceleration: the distance from the released face must lie in (0, "
            "length]");
    // cosh(k(L − x)) / cosh(kL) as exponentials: e^(−kx) (1 + e^(−2k(L−x))) / (1 + e^(−2kL)), no
    // overflow. The terms alternate and fall as e^(−kx)/k: stop once one is below 1e-13 g, which
    // near the face (x ≪ H) takes about 30 H/x terms.
    double sum = 0;
    for (long n = 1; n < 100'000'000; ++n) {
        const double k = (2 * n - 1) * std::numbers::pi / (2 * depth);
        const double ratio = std::exp(-k * distance) *
                             (1 + std::exp(-2 * k * (length - distance))) /
                             (1 + std::exp(-2 * k * length));
        const double term = 2 * g / (depth * k) * ratio;
        sum += n % 2 ? term : -term;
        if (term < 1e-13 * g) break;
    }
    return sum;
}

DamBreakStart fit_dam_break_start(std::span<const std::pair<double, double>> samples, double a0,
                                  double t_end) {
    if (!(a0 > 0) || !std::isfinite(a0) || !(t_end > 0) || !std::isfinite(t_end))
        throw std::invalid_argument("fit_dam_break_start: a0 and t_end must be positive");
    std::vector<std::pair<double, double>> in;
    for (const auto& [t, h] : samples) {
        if (!std::isfinite(t) || !std::isfinite(h))
            throw std::invalid_argument("fit_dam_break_start: a sample is not finite");
        if (t >= 0 && t <= t_end) in.emplace_back(t, h);
    }
    if (in.size() < 5)
        throw std::invalid_argument("fit_dam_break_start: fewer than 5 samples within the window");
    DamBreakStart best;
    double best_sum = INFINITY;
    const int steps = int(std::lround(t_end / 1e-4));
    for (int i = -steps; i <= steps; ++i) {
        const double tau = i * 1e-4;
        const auto fall = [&](double t) { return 0.5 * a0 * std::pow(std::max(t + tau, 0.0), 2); };
        double level = 0;
        for (const auto& [t, h] : in) level += h + fall(t);
        level /= double(in.size());
        double sum = 0;
        for (const auto& [t, h] : in) sum += std::pow(h - (level - fall(t)), 2);
        if (sum < best_sum) best_sum = sum, best = {tau, level, 0, int(in.size())};
    }
    best.rms = std::sqrt(best_sum / double(in.size()));
    return best;
}

}  // namespace seiche
