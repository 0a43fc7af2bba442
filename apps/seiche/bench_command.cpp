// `seiche bench`: runs a scene for a number of steps without any output and reports speed per
// stage, accuracy at the end and peak memory.
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <cstdio>

#include "commands.hpp"
#include "processes.hpp"
#include "progress.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"
#include "seiche/world.hpp"

namespace seiche::app {

namespace {

double peak_memory_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024.0;  // KiB on Linux
}

// CPU-bound processes beside the benchmark, as on a machine that is doing other work: each spins
// until it is killed (or seiche exits).
class Competitors {
  public:
    explicit Competitors(int n) {
        const pid_t parent = getpid();
        for (int k = 0; k < n; ++k) {
            const pid_t pid = fork();
            if (pid == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                if (getppid() != parent) _exit(0);
                for (;;) asm volatile("" ::: "memory");
            }
            if (pid > 0) pids_.push_back(pid);
        }
    }
    ~Competitors() {
        for (const pid_t pid : pids_) kill(pid, SIGKILL);
        for (const pid_t pid : pids_) waitpid(pid, nullptr, 0);
    }
    Competitors(const Competitors&) = delete;
    Competitors& operator=(const Competitors&) = delete;

  private:
    std::vector<pid_t> pids_;
};

// Split over processes: each process's particles, halo, traffic per step, peak memory so far,
// and the imbalance
// (lines for process 0 to print; every process takes part).
template <int D>
std::vector<std::string> split_report(const World<D>& world, long steps) {
    Processes* pr = world.processes();
    if (!pr) return {};
    const Processes::Traffic mine = pr->traffic();
    const std::size_t P = std::size_t(pr->size()), r = std::size_t(pr->rank());
    constexpr std::size_t F = 6;  // values per process
    std::vector<std::int64_t> all(F * P, 0);
    all[F * r] = std::int64_t(mine.owned);
    all[F * r + 1] = std::int64_t(mine.halo);
    all[F * r + 2] = std::int64_t(mine.bytes);
    all[F * r + 3] = std::int64_t(mine.messages);
    all[F * r + 4] = std::int64_t(peak_memory_mib() * 1024.0);  // KiB
    all[F * r + 5] = std::int64_t(mine.exchange_seconds * 1e6);  // µs
    pr->sum(all);
    std::vector<std::string> lines;
    double most = 0, total = 0;
    for (std::size_t k = 0; k < P; ++k) {
        most = std::max(most, double(all[F * k]));
        total += double(all[F * k]);
        lines.push_back(fmt::format(
            "  process {:<4}       {} particles + {} halo; {:.0f} kB in {:.1f} messages and "
            "{:.2f} ms of exchange per step; peak memory {:.0f} MiB",
            k, all[F * k], all[F * k + 1], double(all[F * k + 2]) / 1e3 / double(steps),
            double(all[F * k + 3]) / double(steps), double(all[F * k + 5]) / 1e3 / double(steps),
            double(all[F * k + 4]) / 1024.0));
    }
    lines.insert(lines.begin(),
                 fmt::format("  processes          {} (imbalance {:.2f}: the largest share over the "
                             "mean; stages below are process 0's)",
                             P, total > 0 ? most * double(P) / total : 1.0));
    return lines;
}

template <int D>
int bench(const Scene& scene, const BenchOptions& o) {
    using clock = std::chrono::steady_clock;
    const auto t_setup = clock::now();
    // Under mpirun: the scene split over the processes; process 0 reports (docs/scale-out.md).
    const Launch& launched = launch();
    World<D> world(scene, scene_domain<D>());
    const double setup = seconds_since(t_setup);
    const long steps = o.steps > 0
                           ? o.steps
                           : std::max(1L, std::lround(scene.time.end_time / world.suggested_dt()));
    std::vector<double> ms;
    ms.reserve(steps);
    RunTotals totals;
    Progress progress(!launched.root());  // a live line on a terminal only; the report: stdout
    const auto start = clock::now();
    AdvanceOptions advance;
    advance.max_steps = steps;
    // Steps fitted to the frame times as `seiche run` fits them, so both take the same steps.
    advance.every = 1.0 / scene.time.frame_rate;
    auto t0 = clock::now();
    advance.on_step = [&](const StepStats& s) {
        ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
        totals.add(s);
        const long k = long(ms.size());
        progress.step({0, 0, s.time, s.time * double(steps) / double(k), k, seconds_since(start)});
        t0 = clock::now();
        return true;
    };
    {
        const Competitors competitors(o.competitors);
        // Beyond any end the steps can reach (each is at least half of the smallest step the
        // time settings allow): the step count ends the run. Finite, because the driver's
        // tolerance for landing on a sample time scales with the end.
        const TimeParams& tp = scene.time;
        const double longest = tp.mode == TimeParams::Mode::fixed ? tp.dt : max_dt(scene);
        world.advance_to(4.0 * double(steps) * longest + 1.0, advance);
    }
    const StepStats& last = totals.last;
    if (last.instability) {
        std::fprintf(stderr, "seiche bench: unstable at step %lld: particle %zu %s\n",
                     static_cast<long long>(last.step), last.instability->particle,
                     last.instability->reason.c_str());
        return 3;
    }
    progress.finish();
    std::vector<double> sorted = ms;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double median = sorted[sorted.size() / 2];
    const std::size_t n = world.particle_count();
    const std::vector<std::string> split = split_report(world, steps);
    if (!launched.root()) return 0;
    const StageTimes& t = world.stage_times();
    const double other = t.total - t.neighbors - t.solver - t.velocity;
    auto stage = [&](const char* name, double seconds) {
        std::printf("    %-18s %8.2f ms/step  %5.1f%%\n", name, 1e3 * seconds / steps,
                    100.0 * seconds / t.total);
    };
    std::printf("%s (%s, %dD)\n", scene.name.c_str(),
                std::string(solver_name(scene.solver.type)).c_str(), D);
    std::printf("  particles          %zu fluid, %zu boundary\n", n, world.boundary().x.size());
    std::printf("  steps              %ld of dt %.3g s (%.2f solver iterations per step)\n", steps,
                last.dt, totals.mean_iterations());
    std::printf("  threads            %d%s\n", thread_count(),
                o.competitors > 0
                    ? fmt::format(", beside {} CPU-bound competitor{}", o.competitors,
                                  o.competitors > 1 ? "s" : "")
                          .c_str()
                    : "");
    std::printf("  vector code        %s\n", std::string(pair_loops_description()).c_str());
    // Only when the machine was busy enough for the pool to move its threads (parallel.cpp).
    if (const ThreadMoves m = thread_moves(); m.late_blocks_pulled + m.steps_aside > 0)
        std::printf("  threads moved      %ld late blocks pulled, %ld steps aside\n",
                    m.late_blocks_pulled, m.steps_aside);
    for (const std::string& line : split) std::printf("%s\n", line.c_str());
    std::printf("  setup              %.2f s\n", setup);
    // Three decimals below a millisecond, so that the figure carries three digits (a 2D step
    // takes 0.4 ms, and 0.39 against 0.395 is more than 1%).
    const int decimals = median < 1.0 ? 3 : 2;
    std::printf("  ms per step        %.*f (median), %.*f (mean); %.0f steps per second\n", decimals,
                median, decimals, 1e3 * t.total / steps, median > 0 ? 1e3 / median : 0.0);
    std::printf("  ns per particle    %.1f per step (median)\n", 1e6 * median / double(n));
    std::printf("  stages\n");
    stage("neighbour search", t.neighbors);
    stage("solver", t.solver);
    if (!solver_traits(scene.solver.type).iterations_key.empty() && totals.iterations > 0)
        std::printf("    %-18s %8.2f ms\n", "  per iteration", 1e3 * t.solver / double(totals.iterations));
    stage("viscosity etc.", t.velocity);
    stage("other", other);
    print_density_error(totals, 19);
    print_capped(totals, scene.solver.type, solve_tolerance(scene), 19);
    const double peak = peak_memory_mib();
    std::printf(
        "  peak memory        %.1f MiB (%.0f bytes per particle, fluid and boundary; %.0f per "
        "fluid particle)\n",
        peak, peak * 1048576.0 / double(n + world.boundary().x.size()),
        peak * 1048576.0 / double(n));
    return 0;
}

}  // namespace

int bench_command(const BenchOptions& o) {
    const std::optional<Scene> loaded = load_scene_or_report(o.scene, o.overrides, o.solver, 0);
    if (!loaded) return 2;
    const Scene& scene = *loaded;
    set_thread_count(o.threads);
    try {
        return scene.dimension == 2 ? bench<2>(scene, o) : bench<3>(scene, o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche: %s\n", e.what());
        abort_processes(1);
        return 1;
    }
}

}  // namespace seiche::app
