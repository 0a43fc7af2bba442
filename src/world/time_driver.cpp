// The time driver: steps a world to a time, landing on sample times (frames, measurements) in
// even steps (fit_step), and reports through callbacks. Every front end advances through it.
#include <array>
#include <cmath>
#include <limits>

#include "seiche/world.hpp"

namespace seiche {

template <int D>
AdvanceResult World<D>::advance_to(double t_end, const AdvanceOptions& o) {
    AdvanceResult r;
    // Times within this of a target count as on it: steps are sums of doubles, so it scales with
    // the times compared, not with the end (a far end made it large enough to take samples early,
    // and for an end near the largest double, to count samples for ever).
    const auto tol_at = [&](double t) { return 1e-9 * std::max({o.every, std::abs(t), 1e-3}); };
    const bool cfl = def_.time.mode == TimeParams::Mode::cfl;
    // Split over processes: a stop asked on any process is every process's, decided together
    // at the same points (a process leaving on its own flag left the others waiting for it).
    const auto stopping = [&] {
        bool stop = stop_requested();
        if (domain_) {
            std::array<double, 1> v = {stop ? 1.0 : 0.0};
            domain_->max(v);
            stop = v[0] > 0;
        }
        return stop;
    };
    std::int64_t next_k =
        o.every > 0 ? static_cast<std::int64_t>(std::floor(time_ / o.every + 1e-6)) + 1 : 0;
    while (time_ < t_end - tol_at(time_)) {
        if (stopping()) {
            r.status = AdvanceResult::Status::stopped;
            return r;
        }
        if (o.max_steps > 0 && r.steps >= o.max_steps) {
            r.status = AdvanceResult::Status::step_limit;
            return r;
        }
        const double next_sample =
            o.every > 0 ? double(next_k) * o.every : std::numeric_limits<double>::infinity();
        const double target = std::min(t_end, next_sample);
        // (suggested_dt, with the flow's own step kept for StepContext::leftover_share)
        const double flow = cfl ? flow_step() : std::numeric_limits<double>::quiet_NaN();
        double dt = cfl ? viscous_bounded(flow) : suggested_dt();
        dt = cfl ? fit_step(dt, target - time_) : std::min(dt, t_end - time_);
        r.last = step(dt, flow);
        ++r.steps;
        const bool go_on = !o.on_step || o.on_step(r.last);
        if (r.last.instability) {
            r.status = AdvanceResult::Status::unstable;
            return r;
        }
        if (!go_on || stopping()) {
            r.status = AdvanceResult::Status::stopped;
            return r;
        }
        if (o.every > 0 && time_ >= double(next_k) * o.every - tol_at(time_)) {
            while (time_ >= double(next_k + 1) * o.every - tol_at(time_)) ++next_k;
            if (o.on_sample && !o.on_sample(next_k)) {
                ++next_k;
                r.status = AdvanceResult::Status::stopped;
                return r;
            }
            ++next_k;
        }
    }
    return r;
}

template AdvanceResult World<2>::advance_to(double, const AdvanceOptions&);
template AdvanceResult World<3>::advance_to(double, const AdvanceOptions&);

}  // namespace seiche
