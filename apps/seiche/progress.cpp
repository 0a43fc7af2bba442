#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

#include "seiche/parameters.hpp"

namespace seiche::app {

std::string format_duration(double s) {
    if (!std::isfinite(s) || s < 0) return "--:--";
    const long t = std::lround(s);
    if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, (t / 60) % 60, t % 60);
    return fmt::format("{}:{:02}", t / 60, t % 60);
}

PictureProgressLine::PictureProgressLine(bool quiet)
    : quiet_(quiet), tty_(isatty(fileno(stderr)) != 0), t0_(std::chrono::steady_clock::now()) {}

void PictureProgressLine::operator()(std::size_t n, std::size_t count) {
    if (quiet_) return;
    const double w = seconds_since(t0_);
    const std::string line =
        fmt::format("render frame {}/{}  {:.1f} frames/s  elapsed {}  ETA {}", n, count, n / w,
                    format_duration(w), format_duration(w / n * double(count - n)));
    std::fprintf(stderr, tty_ ? "\r\033[K%s" : "%s\n", line.c_str());
}

void PictureProgressLine::finish() {
    if (tty_ && !quiet_) std::fprintf(stderr, "\r\033[K");
}

void RecentRate::add(double wall, double time) {
    if (wall < latest_.first || time < latest_.second) samples_.clear();  // the next run
    latest_ = {wall, time};
    if (samples_.empty() || wall - samples_.back().first >= 0.5) samples_.push_back(latest_);
    // Keep one sample at or before the window's start, so that the rate spans all of it.
    const double window = std::clamp(0.1 * wall, 5.0, 300.0);
    while (samples_.size() > 1 && samples_[1].first <= wall - window) samples_.pop_front();
}

double RecentRate::sim_per_wall() const {
    if (samples_.empty()) return 0.0;
    const auto [w0, t0] = samples_.front();
    const auto [w1, t1] = latest_;
    if (w1 - w0 >= 2.0) return (t1 - t0) / (w1 - w0);
    return w1 > 0 ? t1 / w1 : 0.0;
}

Progress::Progress(bool quiet) : quiet_(quiet), tty_(isatty(fileno(stderr)) != 0) {}

std::string Progress::line(const ProgressState& s) const {
    const double rate = s.wall > 0 ? s.steps / s.wall : 0.0;
    const double sim_per_wall = rate_.sim_per_wall();
    const double eta = sim_per_wall > 0 ? (s.end_time - s.time) / sim_per_wall : NAN;
    // frames_total = 0: a run without frames (bench), shown by step only.
    const std::string where = s.frames_total > 0
                                  ? fmt::format("frame {}/{}", s.frame, s.frames_total)
                                  : fmt::format("step {}", s.steps);
    return fmt::format("{}  t = {:.3f}/{:.3f} s  {:.1f} steps/s  elapsed {}  ETA {}", where, s.time,
                       s.end_time, rate, format_duration(s.wall), format_duration(eta));
}

void Progress::step(const ProgressState& s) {
    if (quiet_) return;
    rate_.add(s.wall, s.time);
    if (!tty_) {
        if (!(s.end_time > 0)) return;
        const int tenth = static_cast<int>(std::min(10.0, std::floor(10.0 * s.time / s.end_time)));
        if (tenth <= tenth_) return;
        tenth_ = tenth;
        if (!frame_printed_) std::fprintf(stderr, "%s\n", line(s).c_str());
        frame_printed_ = false;
        return;
    }
    if (last_draw_ >= 0 && s.wall - last_draw_ < 0.2) return;
    last_draw_ = s.wall;
    std::fprintf(stderr, "\r\033[K%s", line(s).c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::frame(const ProgressState& s) {
    if (quiet_) return;
    if (tty_) return step(s);
    rate_.add(s.wall, s.time);
    std::fprintf(stderr, "%s\n", line(s).c_str());
    frame_printed_ = true;
}

void Progress::finish() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
    tenth_ = 0;  // the next run (compare, validate) counts its own tenths
    frame_printed_ = false;
    rate_ = RecentRate();
}

void print_density_error(const RunTotals& totals, int label_width) {
    std::printf("  %-*s over the run: mean %.3f%%, max %.3f%%\n", label_width - 1, "density error",
                100 * totals.mean_density_error(), 100 * totals.density_error_max);
    std::printf("  %-*s last step: mean %.3f%%, max %.3f%% at t = %.3f s\n", label_width - 1, "",
                100 * totals.last.density_error_mean, 100 * totals.last.density_error_max,
                totals.last.time);
}

std::string capped_note(long long capped, long long capped_peak, long long steps,
                        SolverType solver) {
    if (capped == 0) return "";
    const SolverTraits& t = solver_traits(solver);
    const double share = 100.0 * double(capped) / double(std::max(steps, 1LL));
    if (capped_peak == 0 || t.peak_tolerance_key.empty())
        return fmt::format("stopped at {} above {} on {} of {} steps ({:.0f}%)", t.iterations_key,
                           t.tolerance_key, capped, steps, share);
    if (capped_peak == capped)
        return fmt::format("stopped at {} above {} on {} of {} steps ({:.0f}%)", t.iterations_key,
                           t.peak_tolerance_key, capped, steps, share);
    return fmt::format("stopped at {} on {} of {} steps ({:.0f}%): above {} on {}, above {} on {}",
                       t.iterations_key, capped, steps, share, t.tolerance_key,
                       capped - capped_peak, t.peak_tolerance_key, capped_peak);
}

double solve_tolerance(const WorldDef& def) {
    const std::string_view key = solver_traits(def.solver.type).tolerance_key;
    for (const Param<WorldDef>& p : world_params())
        if (!key.empty() && p.key == key) return std::get<double>(p.get(def));
    return 0.0;
}

void print_capped(const RunTotals& totals, SolverType solver, double tolerance, int label_width) {
    const SolverTraits& t = solver_traits(solver);
    const bool diverged = totals.diverged > 0 && !t.diverged_remedy.empty();
    if (diverged)  // more iterations, capped_remedy's advice, would drive the error further up
        std::printf("  %-*s its error grew over its iterations on %lld of %lld steps: try %s\n",
                    label_width - 1, "solve", totals.diverged, totals.steps,
                    std::string(t.diverged_remedy).c_str());
    // Solves that met their tolerance while the steps' measured error stayed far above it: DFSPH
    // in water 1.5 m deep at rest, at its CFL steps, read 26–39 times its 0.01% (its column's
    // pressure rebuilt every step from half the last; docs/solvers.md), where the validation's
    // flows read 0.5–2.9 times their tolerance and PBF's 0.9–1.0.
    const double far = tolerance > 0 ? totals.mean_density_error() / tolerance : 0.0;
    const bool measured_far = far > 10 && 10 * totals.capped < totals.steps && !diverged;
    if (measured_far)
        std::printf("  %-*s the density error after the steps averaged %.0f times %s, which their "
                    "solves met: %s\n",
                    label_width - 1, "solve", far, std::string(t.tolerance_key).c_str(),
                    std::string(t.capped_remedy).c_str());
    const std::string note = capped_note(totals.capped, totals.capped_peak, totals.steps, solver);
    if (note.empty()) return;
    std::printf("  %-*s %s\n", label_width - 1, diverged || measured_far ? "" : "solve",
                note.c_str());
    // A start-up step or two is common (a lattice meeting the walls); a tenth of the run is not.
    // The remedy for the steps whose mean error stayed above its tolerance, and for those whose
    // largest error did, each when it makes a tenth of the run.
    if (!diverged && 10 * (totals.capped - totals.capped_peak) >= totals.steps)
        std::printf("  %-*s the density error is above the tolerance asked: %s\n",
                    label_width - 1, "", std::string(t.capped_remedy).c_str());
    if (10 * totals.capped_peak >= totals.steps && !t.peak_tolerance_key.empty())
        std::printf("  %-*s the largest density error is above %s: raise it or %s\n",
                    label_width - 1, "", std::string(t.peak_tolerance_key).c_str(),
                    std::string(t.iterations_key).c_str());
}

}  // namespace seiche::app
