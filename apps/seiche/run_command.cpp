// `seiche run`: load and validate the scene (nothing is written for a bad scene), then simulate,
// writing frames at the scene's frame rate, stats per step, and a summary.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <variant>

#include "commands.hpp"
#include "progress.hpp"
#include "interrupt.hpp"
#include "run_dir.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/io/writers.hpp"
#include "seiche/parallel.hpp"
#include "seiche/world.hpp"
#include "surface_output.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

namespace {


struct Totals {
    double density_error_mean_sum = 0;
    double density_error_max = 0;
    long long iterations = 0;
    std::size_t contained = 0;
    long long steps = 0;
    int frames = 0;
};

// Output of one run directory: frames, the .pvd series, stats.
class RunOutput {
  public:
    RunOutput(const Scene& s, fs::path dir) : scene_(s), dir_(std::move(dir)), pictures_(s, dir_) {
        fs::create_directories(dir_ / "frames");
        mark_seiche_dir(dir_);
        // Frames of an earlier run in the same directory would mix with ours.
        for (const auto& e : fs::directory_iterator(dir_ / "frames")) {
            const std::string name = e.path().filename().string();
            if (name.rfind("frame_", 0) == 0 || name.rfind("surface_", 0) == 0)
                fs::remove(e.path());
        }
        fs::remove(dir_ / "surface.pvd");
        io::write_file_atomic(dir_ / "scene.json", [&](std::ostream& out) {
            out << io::scene_to_json(s).dump(2) << "\n";
        });
        if (s.output.stats) stats_.open(dir_ / "stats.csv");
        if (s.output.mesh) surface_.emplace(s, dir_);
    }

    template <int D>
    void frame(const World<D>& w, int index) {
        const io::FrameData f = io::frame_data(w.particles());
        const std::string stem = fmt::format("frame_{:06}", index);
        if (scene_.output.vtk) {
            io::write_vtp(dir_ / "frames" / (stem + ".vtp"), f);
            pvd_.push_back({w.time(), "frames/" + stem + ".vtp"});
            io::write_pvd(dir_ / "particles.pvd", pvd_);
        }
        if (scene_.output.ply) io::write_ply(dir_ / "frames" / (stem + ".ply"), f);
        pictures_.frame(f, index, w.time());
        if (surface_) {
            const auto& x = w.particles().x;
            surface_->write(index, w.time(),
                            reconstruct_surface<D>(std::span<const Vec<D>>(x.data(), x.size()),
                                                   float(scene_.particle_radius), scene_.surface));
        }
    }

    void stats(const StepStats& s) { stats_.append(s); }
    // Returns what the pictures step wrote, for the summary.
    std::string close() {
        stats_.close();
        return pictures_.finish();
    }
    const fs::path& dir() const { return dir_; }

  private:
    const Scene& scene_;
    fs::path dir_;
    io::StatsWriter stats_;
    std::vector<io::PvdEntry> pvd_;
    std::optional<SurfaceOutput> surface_;
    PictureOutput pictures_;
};

// What to change after an instability, for this solver and step mode.
std::string remedy(const Scene& scene) {
    const bool fixed = scene.time.mode == TimeParams::Mode::fixed;
    const std::string step = fixed ? "a smaller time.dt" : "a smaller time.cfl or time.max_dt";
    if (scene.solver.type == SolverType::pbf) return step + ", or more solver.pbf.max_iterations";
    return step + (fixed ? " (an explicit solver's step must resolve its speed of sound)"
                         : " (the step follows the speed of sound)");
}

// The step that lands on the next frame time without a sliver step (CFL mode only).
template <int D>
int simulate(const Scene& scene, RunOutput& out, bool quiet) {
    using clock = std::chrono::steady_clock;
    World<D> world(scene);
    world.refresh_density();

    const double end = scene.time.end_time;
    const double frame_dt = 1.0 / scene.time.frame_rate;
    const int frames_total = static_cast<int>(std::floor(end / frame_dt + 1e-9));
    Totals totals;
    out.frame(world, 0);

    if (!quiet)
        std::fprintf(stderr, "seiche: %s, %dD, %s, %zu fluid + %zu boundary particles, %s, %s\n",
                     scene.name.c_str(), D, std::string(solver_name(scene.solver.type)).c_str(),
                     world.particles().size(), world.boundary().x.size(),
                     std::string(kernel_name(scene.kernel)).c_str(), out.dir().c_str());

    Progress progress(quiet);
    const auto t0 = clock::now();
    auto wall = [&] { return seconds_since(t0); };
    int frame = 1;
    std::optional<std::pair<StepStats, Instability>> failure;
    world.set_stop_flag(interrupt_flag());

    AdvanceOptions advance;
    advance.every = frame_dt;
    advance.on_step = [&](const StepStats& s) {
        out.stats(s);
        totals.steps++;
        totals.iterations += s.iterations;
        totals.density_error_mean_sum += s.density_error_mean;
        totals.density_error_max = std::max(totals.density_error_max, s.density_error_max);
        totals.contained += s.contained;
        if (s.instability) failure = {{s, *s.instability}};
        // A step that reaches a frame is shown by on_sample, with the frame.
        if (world.time() < frame * frame_dt - 1e-9 * frame_dt)
            progress.step({frame - 1, frames_total, world.time(), end, totals.steps, wall()});
        return !interrupted();
    };
    advance.on_sample = [&](std::int64_t k) {
        frame = static_cast<int>(k);
        out.frame(world, frame);
        progress.frame({frame, frames_total, world.time(), end, totals.steps, wall()});
        ++frame;
        return !interrupted();
    };
    world.advance_to(end, advance);
    progress.finish();
    const std::string pictures = out.close();
    totals.frames = frame;

    const double seconds = wall();
    const double ms_per_step = totals.steps > 0 ? 1e3 * seconds / totals.steps : 0.0;
    const double mean_err = totals.steps > 0 ? totals.density_error_mean_sum / totals.steps : 0.0;
    const std::string status = failure ? "unstable" : interrupted() ? "interrupted" : "done";
    nlohmann::json summary = {
        {"status", status},
        {"solver", std::string(solver_name(scene.solver.type))},
        {"fluid_particles", world.particles().size()},
        {"boundary_particles", world.boundary().x.size()},
        {"steps", totals.steps},
        {"simulated_time", world.time()},
        {"frames", totals.frames},
        {"wall_time", seconds},
        {"ms_per_step", ms_per_step},
        {"threads", thread_count()},
        {"mean_iterations", totals.steps > 0 ? double(totals.iterations) / totals.steps : 0.0},
        {"density_error_mean", mean_err},
        {"density_error_max", totals.density_error_max},
        {"containment_corrections", totals.contained},
    };
    if (failure) {
        const Instability& b = failure->second;
        summary["instability"] = {{"step", failure->first.step},
                                  {"time", failure->first.time},
                                  {"particle", b.particle},
                                  {"reason", b.reason}};
    }
    io::write_file_atomic(out.dir() / "summary.json",
                          [&](std::ostream& o) { o << summary.dump(2) << "\n"; });

    std::printf("%s (%s): %s\n", scene.name.c_str(),
                std::string(solver_name(scene.solver.type)).c_str(), status.c_str());
    std::printf("  particles      %zu fluid, %zu boundary\n", world.particles().size(),
                world.boundary().x.size());
    std::printf("  steps          %lld (%.3f s simulated, %d frames, %.2f iterations per step)\n",
                totals.steps, world.time(), totals.frames,
                totals.steps > 0 ? double(totals.iterations) / totals.steps : 0.0);
    std::printf("  wall time      %s, %.2f ms per step, %d threads\n",
                format_duration(seconds).c_str(), ms_per_step, thread_count());
    std::printf("  density error  mean %.3f%%, max %.3f%%\n", 100 * mean_err,
                100 * totals.density_error_max);
    std::printf("  containment    %zu corrections\n", totals.contained);
    std::printf("  output         %s (particles.pvd, frames/, stats.csv)\n", out.dir().c_str());
    if (!pictures.empty()) std::printf("  pictures       %s\n", pictures.c_str());
    if (failure) {
        const StepStats& s = failure->first;
        const Instability& b = failure->second;
        std::fprintf(stderr,
                     "seiche: unstable at step %lld (t = %.6f s, dt = %.3g s): particle %zu %s; "
                     "position (%g, %g, %g) m, velocity (%g, %g, %g) m/s. Frames up to t = %.4f s "
                     "are valid. Try %s.\n",
                     static_cast<long long>(s.step), s.time, s.dt, b.particle, b.reason.c_str(),
                     b.position[0], b.position[1], b.position[2], b.velocity[0], b.velocity[1],
                     b.velocity[2], (frame - 1) * frame_dt, remedy(scene).c_str());
        return 3;
    }
    return interrupted() ? 130 : 0;
}

}  // namespace

std::optional<Scene> load_scene_or_report(const std::string& file,
                                          std::vector<std::string> overrides,
                                          const std::string& solver, double end_time) {
    if (!solver.empty()) overrides.push_back("solver.type=\"" + solver + "\"");
    if (end_time > 0) overrides.push_back(fmt::format("time.end_time={}", end_time));
    try {
        return io::load_scene(file, overrides);
    } catch (const io::SceneError& e) {
        std::fprintf(stderr, "seiche: %s: %s\n", file.c_str(), e.what());
        return std::nullopt;
    }
}

int run_command(const RunOptions& o) {
    const GracefulInterrupts graceful;  // Ctrl-C from here on ends the run with a summary
    std::optional<Scene> loaded = load_scene_or_report(o.scene, o.overrides, o.solver, o.end_time);
    if (!loaded) return 2;
    Scene& scene = *loaded;
    set_thread_count(o.threads);
    const fs::path dir = o.output.empty() ? fs::path(scene.output.directory) : fs::path(o.output);
    if (const std::string why = output_refusal(dir, o.output.empty(), o.scene, o.overwrite);
        !why.empty()) {
        std::fprintf(stderr, "seiche: %s\n", why.c_str());
        return 2;
    }
    if (!o.max_memory.empty()) {
        // Estimated before anything is allocated or written: the world, plus a picture.
        std::size_t used = 0;
        double limit = 0;
        try {
            limit = std::stod(o.max_memory, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        const std::string unit = o.max_memory.substr(used);
        const double scale = unit == "" || unit == "B" ? 1.0
                             : unit == "K"            ? 1024.0
                             : unit == "M"            ? 1024.0 * 1024
                             : unit == "G"            ? 1024.0 * 1024 * 1024
                                                      : 0.0;
        if (used == 0 || scale == 0 || !(limit > 0)) {
            std::fprintf(stderr, "seiche: --max-memory: expected a size such as 512M or 2G, got %s\n",
                         o.max_memory.c_str());
            return 2;
        }
        limit *= scale;
        const double need = estimated_bytes(scene) +
                            (scene.output.preview || o.render || scene.output.render
                                 ? picture_bytes(scene.render)
                                 : 0.0);
        if (need > limit) {
            std::fprintf(stderr,
                         "seiche: the run needs about %.0f MiB (%zu fluid particles, pictures %.0f "
                         "MiB), more than --max-memory %s; use larger particles, a smaller "
                         "container or smaller pictures\n",
                         need / (1 << 20), count_fluid_particles(scene),
                         picture_bytes(scene.render) / (1 << 20), o.max_memory.c_str());
            return 2;
        }
    }
    if (!o.output.empty()) scene.output.directory = o.output;
    if (o.mesh) scene.output.mesh = true;
    if (o.render) scene.output.render = true;
    try {
        RunOutput out(scene, dir);
        return scene.dimension == 2 ? simulate<2>(scene, out, o.quiet)
                                    : simulate<3>(scene, out, o.quiet);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche: %s\n", e.what());
        return 1;
    }
}

}  // namespace seiche::app
