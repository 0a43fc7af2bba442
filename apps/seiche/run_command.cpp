// `seiche run`: load and validate the scene (nothing is written for a bad scene), then simulate,
// writing frames at the scene's frame rate, stats per step, and a summary.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <variant>

#include "commands.hpp"
#include "processes.hpp"
#include "progress.hpp"
#include "interrupt.hpp"
#include "run/run_dir.hpp"
#include "run/run_output.hpp"
#include "run/sensors.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/io/writers.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"
#include "seiche/world.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

namespace {


struct Totals : RunTotals {
    std::size_t contained = 0;
    int frames = 0;
};

// What to change after an instability, for this solver and step mode, and whether its solve
// drove its error up on some step (then neither shorter steps nor more iterations help).
std::string remedy(const Scene& scene, const RunTotals& totals) {
    const SolverTraits& t = solver_traits(scene.solver.type);
    if (totals.diverged > 0 && !t.diverged_remedy.empty())
        return std::string(t.diverged_remedy) + "; its solve's error grew over its iterations on " +
               std::to_string(totals.diverged) + " of " + std::to_string(totals.steps) + " steps";
    const bool fixed = scene.time.mode == TimeParams::Mode::fixed;
    const std::string step = fixed ? "a smaller time.dt" : "a smaller time.cfl or time.max_dt";
    if (const std::string_view key = solver_traits(scene.solver.type).iterations_key; !key.empty())
        return step + ", or more " + std::string(key);
    return step + (fixed ? " (an explicit solver's step must resolve its speed of sound)"
                         : " (the step follows the speed of sound)");
}

// Builds the world (fresh, or from the run's checkpoint), then steps it to the end, writing a
// frame at every frame time, a row of stats per step, checkpoints, and the summary.
template <int D>
int simulate(const Scene& scene, const fs::path& dir, const RunOptions& o) {
    using clock = std::chrono::steady_clock;
    // A large mesh takes seconds to set up (its signed-distance grid): said before, timed after.
    std::size_t triangles = 0;
    for (const BodyDef& b : scene.bodies)
        if (b.mesh) triangles += b.mesh->triangles.size();
    // Split over processes (mpirun): every process steps its part; process 0 writes the run.
    const Launch& launched = launch();
    const bool quiet = o.quiet || !launched.root();
    const bool say_setup = !quiet && triangles >= 100000;
    const auto setup_start = clock::now();
    if (say_setup)
        std::fprintf(stderr, "seiche: setting up the bodies' meshes (%zu triangles)...\n", triangles);
    World<D> world(scene, scene_domain<D>());
    if (say_setup)
        std::fprintf(stderr, "seiche: set up in %.1f s\n",
                     std::chrono::duration<double>(clock::now() - setup_start).count());
    if (!scene.bodies.empty()) world.track_boundary_forces(true);  // bodies.csv's fluid forces
    std::optional<PressureSensors<D>> sensor_set;  // sensors.csv (tracks the forces too)
    try {
        sensor_set.emplace(scene, world);
    } catch (const std::invalid_argument& e) {  // a patch off every boundary particle
        if (launched.root()) std::fprintf(stderr, "seiche: %s\n", e.what());
        return 2;
    }
    PressureSensors<D>& sensors = *sensor_set;
    std::optional<RunResume> resume;
    if (!o.resume.empty()) {
        try {
            resume = restore_run(world, dir);
            sensors.restore(resume->state.value("sensors", nlohmann::json::object()));
        } catch (const CheckpointError& e) {
            std::fprintf(stderr, "seiche: %s\n", e.what());
            return 2;
        }
        for (const std::string& c : resume->changed)
            std::fprintf(stderr,
                         "seiche: note: %s (the scene differs from the checkpoint's; the "
                         "continuation is not the run that was stopped)\n",
                         c.c_str());
    }
    const double resumed_time = world.time();
    std::optional<RunOutput> output;  // process 0's
    if (launched.root()) {
        try {
            output.emplace(scene, dir, resume ? &*resume : nullptr);
        } catch (const CheckpointError& e) {  // the run's stats.csv: refused like its checkpoint
            std::fprintf(stderr, "seiche: %s\n", e.what());
            return 2;
        }
    }
    RunOutput* const out = output ? &*output : nullptr;
    // Every frame: all processes' particles gathered on process 0, which writes it; or, in
    // pieces, each process's own written by it, and then joined by process 0's .pvtp.
    auto write_frame = [&](int index) {
        if (!scene.output.pieces) {
            const ParticleSet<D>& all = world.gather_particles();
            if (out) out->frame(world, all, index);
            return;
        }
        std::string frames_dir = out ? out->frames_dir().string() : std::string();
        Processes* pr = world.processes();
        if (pr) pr->share(frames_dir);
        write_frame_piece(world, frames_dir, index);
        if (pr) {  // every piece on disk before the .pvtp names it
            std::array<std::int64_t, 1> written = {1};
            pr->sum(written);
        }
        if (out) out->frame_of_pieces(world, index, launched.size);
    };
    // Ctrl-C on any process stops them all, after the same step.
    bool stopped = false;
    auto stop_now = [&] {
        bool stop = interrupted();
        if (Processes* pr = world.processes()) {
            std::array<double, 1> v = {stop ? 1.0 : 0.0};
            pr->max(v);
            stop = v[0] > 0;
        }
        stopped = stopped || stop;
        return stop;
    };

    const double end = scene.time.end_time;
    const double frame_dt = 1.0 / scene.time.frame_rate;
    const int frames_total = static_cast<int>(std::floor(end / frame_dt + 1e-9));
    Totals totals;
    double wall_before = 0;  // of the runs before a resume
    int frame = 1;
    if (resume) {
        const nlohmann::json& t = resume->state;
        totals.steps = world.steps();
        totals.iterations = t.value("iterations", 0LL);
        totals.density_error_mean_sum = t.value("density_error_mean_sum", 0.0);
        totals.density_error_max = t.value("density_error_max", 0.0);
        wall_before = t.value("wall_time", 0.0);
        frame = resume->next_frame;
    } else {
        write_frame(0);
    }

    const std::size_t fluid_particles = world.particle_count();
    if (!quiet)
        std::fprintf(stderr, "seiche: %s, %dD, %s, %zu fluid + %zu boundary particles, %s%s, %s%s\n",
                     scene.name.c_str(), D, std::string(solver_name(scene.solver.type)).c_str(),
                     fluid_particles, world.boundary().x.size(),
                     std::string(kernel_name(scene.kernel)).c_str(),
                     launched.split() ? fmt::format(", {} processes", launched.size).c_str() : "",
                     out->dir().c_str(),
                     resume ? fmt::format(", resumed at t = {:.4f} s", world.time()).c_str() : "");
    if (!quiet)
        for (const std::string& line : sensors.describe(scene))
            std::fprintf(stderr, "seiche: %s\n", line.c_str());
    if (!quiet && out && launched.split() && !scene.output.pieces && fluid_particles > 20'000'000)
        std::fprintf(stderr,
                     "seiche: note: process 0 gathers all %zu particles for each frame; "
                     "--set output.pieces=true has each process write its own (docs/scale-out.md)\n",
                     fluid_particles);

    Progress progress(quiet);
    const auto t0 = clock::now();
    auto wall = [&] { return wall_before + seconds_since(t0); };
    std::optional<std::pair<StepStats, Instability>> failure;
    world.set_stop_flag(interrupt_flag());

    // At the first frame at or after each multiple of checkpoint_every, and at the last frame.
    // Only at frames: a run stopped between frames (its end, Ctrl-C, which cuts a step short)
    // continues from its last frame exactly as the run that never stopped.
    const double cp_every = scene.output.checkpoint_every;
    double next_checkpoint =
        cp_every > 0 ? (std::floor(world.time() / cp_every + 1e-9) + 1) * cp_every : 0;
    auto checkpoint = [&] {
        world.gather_particles();  // split: process 0 writes every process's particles
        if (!out) return;
        out->checkpoint(world, {{"next_frame", frame},
                               {"iterations", totals.iterations},
                               {"density_error_mean_sum", totals.density_error_mean_sum},
                               {"density_error_max", totals.density_error_max},
                               {"wall_time", wall()},
                               {"sensors", sensors.state()}});
    };

    AdvanceOptions advance;
    advance.every = frame_dt;
    advance.on_step = [&](const StepStats& s) {
        if (out) out->stats(s);
        const std::string row = sensors.after_step(world, s.dt);
        if (out) out->sensors(row);
        totals.add(s);
        if (s.instability) failure = {{s, *s.instability}};
        // A step that reaches a frame is shown by on_sample, with the frame.
        if (world.time() < frame * frame_dt - 1e-9 * frame_dt)
            progress.step({frame - 1, frames_total, world.time(), end, totals.steps, wall()});
        return !stop_now();
    };
    advance.on_sample = [&](std::int64_t k) {
        frame = static_cast<int>(k);
        write_frame(frame);
        progress.frame({frame, frames_total, world.time(), end, totals.steps, wall()});
        ++frame;
        if (cp_every > 0 && (world.time() >= next_checkpoint * (1 - 1e-9) || k == frames_total)) {
            checkpoint();
            next_checkpoint = (std::floor(world.time() / cp_every + 1e-9) + 1) * cp_every;
        }
        return !stop_now();
    };
    world.advance_to(end, advance);
    stop_now();  // an interrupt before the first step, or after the last, counts too
    progress.finish();
    totals.frames = frame;
    totals.contained = world.total_contained();
    if (!out) return failure ? 3 : stopped ? 130 : 0;  // process 0 writes the rest
    PictureProgressLine picture_line(o.quiet);
    const std::string pictures = out->close(std::ref(picture_line));
    picture_line.finish();
    const std::string sensor_files = out->plot_sensors();

    const double seconds = wall();
    const double ms_per_step = totals.steps > 0 ? 1e3 * seconds / totals.steps : 0.0;
    const std::string status = failure ? "unstable" : stopped ? "interrupted" : "done";
    nlohmann::json summary = {
        {"status", status},
        {"solver", std::string(solver_name(scene.solver.type))},
        {"fluid_particles", fluid_particles},
        {"boundary_particles", world.boundary().x.size()},
        {"steps", totals.steps},
        {"simulated_time", world.time()},
        {"frames", totals.frames},
        {"wall_time", seconds},
        {"ms_per_step", ms_per_step},
        {"threads", thread_count()},
        {"pair_loops", std::string(pair_loops_description())},
        {"processes", launched.size},
        {"mean_iterations", totals.mean_iterations()},
        {"capped_steps", totals.capped},
        {"capped_peak_steps", totals.capped_peak},
        {"diverged_steps", totals.diverged},
        {"density_error_mean", totals.mean_density_error()},
        {"density_error_max", totals.density_error_max},
        {"containment_corrections", totals.contained},
    };
    if (!scene.emitters.empty() || !scene.sinks.empty()) {
        summary["emitted_particles"] = world.total_emitted();
        summary["removed_particles"] = world.total_removed();
    }
    if (!scene.bodies.empty()) summary["bodies"] = scene.bodies.size();
    if (resume) summary["resumed_at"] = {{"step", resume->steps}, {"time", resumed_time}};
    if (failure) {
        const Instability& b = failure->second;
        summary["instability"] = {{"step", failure->first.step},
                                  {"time", failure->first.time},
                                  {"particle", b.particle},
                                  {"reason", b.reason}};
    }
    io::write_file_atomic(out->dir() / "summary.json",
                          [&](std::ostream& o) { o << summary.dump(2) << "\n"; });

    std::printf("%s (%s): %s\n", scene.name.c_str(),
                std::string(solver_name(scene.solver.type)).c_str(), status.c_str());
    std::printf("  particles      %zu fluid, %zu boundary", fluid_particles,
                world.boundary().x.size());
    if (!scene.emitters.empty() || !scene.sinks.empty())
        std::printf(" (%zu emitted, %zu removed over the run)", world.total_emitted(),
                    world.total_removed());
    std::printf("\n");
    if (!scene.bodies.empty())
        std::printf("  bodies         %zu (%s)\n", scene.bodies.size(),
                    body_files(scene.output).c_str());
    std::printf("  steps          %lld (%.3f s simulated, %d frame%s, %.2f iterations per step)\n",
                totals.steps, world.time(), totals.frames, totals.frames == 1 ? "" : "s",
                totals.mean_iterations());
    if (scene.time.target_iterations > 0 && scene.time.mode == TimeParams::Mode::cfl)
        std::printf("  step           %.2f of the CFL bound at the end (the step follows the solve: "
                    "time.target_iterations %d)\n",
                    world.step_scale(), scene.time.target_iterations);
    std::printf("  wall time      %s, %.2f ms per step, %d thread%s%s\n",
                format_duration(seconds).c_str(), ms_per_step, thread_count(),
                thread_count() == 1 ? "" : "s",
                launched.split() ? fmt::format(" × {} processes", launched.size).c_str() : "");
    print_density_error(totals, 15);
    print_capped(totals, scene.solver.type, solve_tolerance(scene), 15);
    std::printf("  containment    %zu corrections\n", totals.contained);
    std::printf("  output         %s (%s)\n", out->dir().c_str(),
                run_files(scene.output, scene.dimension).c_str());
    if (!sensor_files.empty()) std::printf("  sensors        %zu: %s\n", scene.sensors.size(), sensor_files.c_str());
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
                     b.velocity[2], (frame - 1) * frame_dt, remedy(scene, totals).c_str());
        return 3;
    }
    return stopped ? 130 : 0;
}

}  // namespace

int run_command(const RunOptions& o) {
    const GracefulInterrupts graceful;  // Ctrl-C from here on ends the run with a summary
    if (!o.resume.empty()) {
        // A run directory of seiche's with a checkpoint; its own scene unless one is given.
        const fs::path dir = o.resume;
        std::string why;
        if (!o.output.empty())
            why = "--resume continues the run in its own directory; -o cannot be given with it";
        else if (!fs::is_directory(dir))
            why = "--resume " + dir.string() + ": no such directory";
        else if (!fs::exists(dir / run_marker) && !fs::exists(dir / checkpoint_file))
            why = "--resume " + dir.string() + ": not a seiche run directory";
        if (!why.empty()) {
            std::fprintf(stderr, "seiche: %s\n", why.c_str());
            return 2;
        }
    } else if (o.scene.empty()) {
        std::fprintf(stderr, "seiche: run: give a scene file (or --resume RUN_DIR)\n");
        return 2;
    }
    const std::string scene_file =
        o.scene.empty() ? (fs::path(o.resume) / "scene.json").string() : o.scene;
    std::optional<Scene> loaded =
        load_scene_or_report(scene_file, o.overrides, o.solver, o.end_time);
    if (!loaded) return 2;
    Scene& scene = *loaded;
    set_thread_count(o.threads);
    const fs::path dir = !o.resume.empty() ? fs::path(o.resume)
                         : o.output.empty() ? fs::path(scene.output.directory)
                                            : fs::path(o.output);
    if (o.resume.empty()) {
        if (const std::string why = directory_refusal(dir, o.output.empty(), o.scene, o.overwrite);
            !why.empty()) {
            std::fprintf(stderr, "seiche: %s\n", why.c_str());
            return 2;
        }
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
    if (!o.output.empty() || !o.resume.empty()) scene.output.directory = dir.string();
    if (o.mesh) scene.output.mesh = true;
    if (o.render) scene.output.render = true;
    if (const std::string why = unsupported_output(scene.output); !why.empty()) {
        std::fprintf(stderr, "seiche: %s\n", why.c_str());
        return 2;
    }
    try {
        return scene.dimension == 2 ? simulate<2>(scene, dir, o) : simulate<3>(scene, dir, o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche: %s\n", e.what());
        abort_processes(1);
        return 1;
    }
}

}  // namespace seiche::app
