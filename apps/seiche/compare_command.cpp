// `seiche compare SCENE --solvers pbf,wcsph,ddr [--sweep key=v1,v2]`: the same scene under each
// solver and each combination of swept values; measures density error, kinetic energy and time
// per step, time per step against particle count, and the largest stable fixed time step (a
// bounded search that stops at the first blow-up); writes CSVs, a side-by-side picture, plots
// and a self-contained index.html (tools/plot_compare.py). The accuracy runs answer the question
// users ask first: which solver reaches a given density error in the least time.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "csv_field.hpp"
#include "run/external_tools.hpp"
#include "progress.hpp"
#include "run/run_dir.hpp"
#include "run/sensors.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/parallel.hpp"
#include "seiche/render.hpp"
#include "seiche/world.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

namespace {

using clock_type = std::chrono::steady_clock;

struct Sweep {
    std::string key;
    std::vector<std::string> values;
};

// "key=v1,v2,[a,b]": commas inside brackets belong to the value.
Sweep parse_sweep(const std::string& text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw std::invalid_argument("--sweep expects key=v1,v2,..., got \"" + text + "\"");
    Sweep s{text.substr(0, eq), {}};
    int depth = 0;
    std::string cur;
    for (char c : text.substr(eq + 1)) {
        depth += (c == '[') - (c == ']');
        if (c == ',' && depth == 0) {
            s.values.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    s.values.push_back(cur);
    for (const auto& v : s.values)
        if (v.empty()) throw std::invalid_argument("--sweep " + s.key + ": empty value");
    return s;
}

// Every combination of the swept values, as --set assignments.
std::vector<std::vector<std::string>> combinations(const std::vector<Sweep>& sweeps) {
    std::vector<std::vector<std::string>> out = {{}};
    for (const Sweep& s : sweeps) {
        std::vector<std::vector<std::string>> next;
        for (const auto& partial : out)
            for (const auto& v : s.values) {
                next.push_back(partial);
                next.back().push_back(s.key + "=" + v);
            }
        out = std::move(next);
    }
    return out;
}

struct RunResult {
    std::string status = "done";  //!< done | unstable
    std::string reason;           //!< why it went unstable
    std::size_t fluid = 0, boundary = 0;
    RunTotals totals;  //!< steps, iterations, capped steps (the unstable one included)
    double time = 0;         //!< simulated, s
    double ms_median = 0;    //!< wall ms per step, median
    double wall_s = 0;       //!< wall time of all the steps, s
    double error_mean = 0;   //!< time average of the mean density error
    double error_worst = 0;  //!< largest mean density error of any step
    double error_max = 0;    //!< largest single-particle density error
    double energy_final = 0;
    std::optional<io::FrameData> picture;  //!< the frame at the picture time
    double picture_time = 0;
};

struct RunLimits {
    long max_steps = 0;  //!< 0: up to the scene's end time
    double picture_time = -1;
    std::ostream* series = nullptr;  //!< timeseries rows (run id first), every ~1/200 of the run
    std::string series_id;
    //! The scene's pressure sensors, their rows (run id first) at output.sensor_rate; nullptr:
    //! not read (the boundary forces they need are not tracked, so the timings stay the solver's)
    std::ostream* sensors = nullptr;
    double error_limit = INFINITY;  //!< stop as unstable above this mean density error
    std::function<void(double time, long steps, double wall)> progress;
};

template <int D>
RunResult simulate(const Scene& scene, const RunLimits& lim) {
    World<D> w(scene);
    std::optional<run::PressureSensors<D>> sensors;
    if (lim.sensors && !scene.sensors.empty()) sensors.emplace(scene, w);
    RunResult r;
    r.fluid = w.particles().size();
    r.boundary = w.boundary().x.size();
    const double end = scene.time.end_time;
    std::vector<double> ms;
    double error_sum = 0, next_sample = 0, sample_ms = 0;
    long sample_steps = 0;
    const auto t0 = clock_type::now();
    auto take_picture = [&] {
        if (lim.picture_time >= 0 && !r.picture && w.time() >= lim.picture_time - 1e-9) {
            r.picture = io::frame_data(w.particles());
            r.picture_time = w.time();
        }
    };
    take_picture();
    AdvanceOptions advance;
    advance.max_steps = lim.max_steps;
    auto s0 = clock_type::now();
    advance.on_step = [&](const StepStats& s) {
        ms.push_back(1e3 * seconds_since(s0));
        r.totals.add(s);
        if (s.instability) {
            r.status = "unstable";
            r.reason = fmt::format("step {}, t = {:.4f} s: particle {} {}", s.step, s.time,
                                   s.instability->particle, s.instability->reason);
            return false;
        }
        if (sensors)
            if (const std::string row = sensors->after_step(w, s.dt); !row.empty())
                *lim.sensors << lim.series_id << "," << row;
        error_sum += s.density_error_mean;
        r.error_worst = std::max(r.error_worst, s.density_error_mean);
        r.error_max = std::max(r.error_max, s.density_error_max);
        r.energy_final = s.kinetic_energy;
        sample_ms += ms.back(), ++sample_steps;
        if (lim.series && (w.time() >= next_sample || w.time() >= end - 1e-9)) {
            *lim.series << fmt::format("{},{:.6f},{:.6g},{:.6g},{:.6g},{:.6g},{:.4f}\n",
                                       lim.series_id, w.time(), s.dt, s.density_error_mean,
                                       s.density_error_max, s.kinetic_energy,
                                       sample_ms / sample_steps);
            next_sample = w.time() + end / 200;
            sample_ms = 0, sample_steps = 0;
        }
        take_picture();
        if (s.density_error_mean > lim.error_limit) {
            r.status = "unstable";
            r.reason = fmt::format("step {}, t = {:.4f} s: mean density error {:.1f}%", s.step,
                                   s.time, 100 * s.density_error_mean);
            return false;
        }
        if (lim.progress) lim.progress(w.time(), long(r.totals.steps), seconds_since(t0));
        s0 = clock_type::now();
        return true;
    };
    // Two legs, so that the steps land on the picture's time as on a frame.
    if (lim.picture_time > 0 && lim.picture_time < end) {
        const AdvanceResult first = w.advance_to(lim.picture_time, advance);
        if (first.status == AdvanceResult::Status::reached) {
            if (advance.max_steps > 0) advance.max_steps -= first.steps;
            w.advance_to(end, advance);
        }
    } else {
        w.advance_to(end, advance);
    }
    r.time = w.time();
    for (double m : ms) r.wall_s += 1e-3 * m;
    r.error_mean = r.totals.steps > 0 ? error_sum / double(r.totals.steps) : 0;
    if (!ms.empty()) {
        std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
        r.ms_median = ms[ms.size() / 2];
    }
    return r;
}

RunResult simulate(const Scene& scene, const RunLimits& lim) {
    return scene.dimension == 2 ? simulate<2>(scene, lim) : simulate<3>(scene, lim);
}

// The detail column of a run: why it went unstable, or, when its solve stopped at the iteration
// cap on some steps, that its error is above the tolerance it was given; and on how many steps
// its solve drove its error up (StepStats::diverged).
std::string run_detail(const RunResult& r, const Scene& scene) {
    const std::string grew =
        r.totals.diverged > 0
            ? fmt::format("drove its error up on {} of {} steps", r.totals.diverged, r.totals.steps)
            : "";
    const std::string note =
        r.status != "done" ? r.reason
                           : capped_note(r.totals.capped, r.totals.capped_peak, r.totals.steps,
                                         scene.solver.type);
    return grew.empty() ? note : note.empty() ? grew : note + "; " + grew;
}

// The same for the progress line: "" or ", UNSTABLE: …" or ", its solve stopped at …".
std::string say_detail(const RunResult& r, const Scene& scene) {
    if (r.status != "done") return ", UNSTABLE: " + r.reason;
    const std::string note = run_detail(r, scene);
    return note.empty() ? "" : ", its solve " + note;
}

Scene load_with(const std::string& file, std::vector<std::string> sets, const std::string& solver) {
    sets.push_back("solver.type=\"" + solver + "\"");
    return io::load_scene(file, sets);
}

// A run of the report: a solver under one combination of the sweeps.
struct Case {
    std::string solver;
    Scene scene;
    std::string label;   //!< "pbf solver.pbf.max_iterations=4"
    std::string params;  //!< the combination, "" without sweeps
};

// Progress lines on stderr (nothing when quiet).
using Say = std::function<void(const std::string&)>;

// 1. The runs, start to end: runs.csv, timeseries.csv and side_by_side.png (one row of pictures
// per sweep combination, `columns` solvers each). Returns the text of runs.csv.
std::string compare_runs(const std::vector<Case>& cases, std::size_t columns, double picture_time,
                         const fs::path& dir, bool quiet, const Say& say,
                         std::vector<RunResult>& results) {
    Progress progress(quiet);
    std::ostringstream runs, series, sensor_rows;
    runs << "run,solver,params,fluid_particles,boundary_particles,steps,simulated_time,"
            "ms_per_step,wall_s,wall_s_per_simulated_s,density_error_mean,"
            "density_error_worst_step,density_error_max,kinetic_energy_final,status,detail\n";
    series << "run,t,dt,density_error_mean,density_error_max,kinetic_energy,ms_per_step\n";
    // The scene's pressure sensors (the same in every case: a sweep does not change them).
    const std::vector<SensorDef>& sensor_defs = cases.front().scene.sensors;
    if (!sensor_defs.empty()) {
        sensor_rows << "run,time";
        for (std::size_t i = 0; i < sensor_defs.size(); ++i)
            sensor_rows << "," << sensor_name(sensor_defs[i], i);
        sensor_rows << "\n";
    }
    std::vector<render::Image> pictures;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const std::string& solver = cases[k].solver;
        const Scene& scene = cases[k].scene;
        say(fmt::format("compare run {}/{}: {}", k + 1, cases.size(), cases[k].label));
        RunLimits lim;
        lim.picture_time = picture_time;
        lim.series = &series;
        lim.series_id = csv_field(cases[k].label);
        lim.sensors = &sensor_rows;
        lim.progress = [&](double t, long steps, double wall) {
            progress.step({0, 0, t, scene.time.end_time, steps, wall});
        };
        RunResult& r = results.emplace_back(simulate(scene, lim));
        progress.finish();
        runs << fmt::format(
            "{},{},{},{},{},{},{:.6f},{:.4f},{:.4f},{:.4f},{:.6g},{:.6g},{:.6g},{:.6g},{},{}\n",
            csv_field(cases[k].label), solver, csv_field(cases[k].params), r.fluid, r.boundary,
            r.totals.steps, r.time, r.ms_median, r.wall_s, r.time > 0 ? r.wall_s / r.time : 0.0,
            r.error_mean, r.error_worst, r.error_max, r.energy_final, r.status,
            csv_field(run_detail(r, scene)));
        // Time per step alone misleads between solvers that take steps of very different
        // sizes: the wall time per simulated second is what a user waits for.
        say(fmt::format("  {} steps, {:.2f} ms per step, {:.2f} s wall ({:.1f} s per simulated "
                        "second), mean density error {:.3f}%{}",
                        r.totals.steps, r.ms_median, r.wall_s, r.time > 0 ? r.wall_s / r.time : 0.0,
                        100 * r.error_mean, say_detail(r, scene)));
        Scene shown = scene;
        shown.render.width = 640, shown.render.height = 400;
        if (r.picture) {
            pictures.push_back(render::render_frame(
                *r.picture, shown, fmt::format("{}  t = {:.3f} s", cases[k].label, r.picture_time)));
            r.picture.reset();  // drawn: no need to hold every run's frame
        } else {  // blew up before the picture time: say so where the picture would be
            render::Image blank(640, 400);
            std::fill(blank.rgb.begin(), blank.rgb.end(), std::uint8_t(240));
            render::draw_text(blank, 10, 8, cases[k].label, 2, {30, 32, 38});
            render::draw_text(blank, 10, 190,
                              fmt::format("unstable before t = {:.3f} s", picture_time), 2,
                              {180, 30, 30});
            pictures.push_back(blank);
        }
    }
    io::write_file_atomic(dir / "runs.csv", [&](std::ostream& out) { out << runs.str(); });
    io::write_file_atomic(dir / "timeseries.csv",
                          [&](std::ostream& out) { out << series.str(); });
    if (!sensor_defs.empty())
        io::write_file_atomic(dir / "sensors.csv",
                              [&](std::ostream& out) { out << sensor_rows.str(); });
    // One row of pictures per sweep combination, one column per solver.
    std::vector<render::Image> rows;
    for (std::size_t c = 0; c < cases.size() / columns; ++c)
        rows.push_back(render::side_by_side({pictures.begin() + c * columns,
                                             pictures.begin() + (c + 1) * columns}));
    render::write_png(dir / "side_by_side.png", render::stacked(rows));
    return runs.str();
}

// 2. Time per step against particle count: the base scene at other particle radii (scaling.csv).
void compare_scaling(const CompareOptions& o, const Scene& base, const fs::path& dir,
                     const Say& say) {
    std::ostringstream scaling;
    scaling << "solver,particle_radius,fluid_particles,boundary_particles,ms_per_step,"
               "ms_per_step_min,ms_per_step_max,repeats\n";
    if (!o.no_scaling) {
        for (const auto& solver : o.solvers)
            for (double f : {2.0, std::sqrt(2.0), 1.0, std::sqrt(0.5)}) {
                const double radius = base.particle_radius * f;
                Scene s;
                try {
                    s = load_with(o.scene, {fmt::format("particle_radius={}", radius)}, solver);
                } catch (const io::SceneError&) {
                    continue;  // too coarse for this container: no point
                }
                // Three repeats per point, their median and spread: one 40-step sample
                // once jumped 15x from the machine's other load and read as a result.
                constexpr int repeats = 3;
                std::vector<double> medians;
                RunResult r;
                for (int k = 0; k < repeats; ++k) {
                    RunLimits lim;
                    lim.max_steps = 40;
                    r = simulate(s, lim);
                    medians.push_back(r.ms_median);
                }
                std::sort(medians.begin(), medians.end());
                scaling << fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f},{}\n", solver, radius,
                                       r.fluid, r.boundary, medians[repeats / 2],
                                       medians.front(), medians.back(), repeats);
                say(fmt::format("compare scaling {}: {} particles, {:.2f} ms per step "
                                "({:.2f}-{:.2f} over {} repeats)",
                                solver, r.fluid, medians[repeats / 2], medians.front(),
                                medians.back(), repeats));
            }
    }
    io::write_file_atomic(dir / "scaling.csv",
                          [&](std::ostream& out) { out << scaling.str(); });
}

// 3. The largest stable fixed time step: double or halve from the scene's max_dt until
// the outcome flips, then bisect (geometrically) three times. A trial blows up when the
// stability guard fires (NaN, a particle leaving the domain, a runaway speed) or the mean
// density error passes 10%: no longer an incompressible fluid. (stability.csv,
// stable_dt.csv).
void compare_stability(const CompareOptions& o, const Scene& base, const fs::path& dir,
                       const Say& say) {
    std::ostringstream stability, stable_dt;
    stability << "solver,dt,stable,steps,density_error_worst_step,detail\n";
    stable_dt << "solver,largest_stable_dt,smallest_unstable_dt,trial_time,note\n";
    if (!o.no_stability) {
        const double trial_time = std::min(base.time.end_time, o.stability_time);
        for (const auto& solver : o.solvers) {
            Scene s = load_with(o.scene, {}, solver);
            s.time.end_time = trial_time;
            auto stable = [&](double dt) {
                s.time.dt = dt;
                s.time.mode = TimeParams::Mode::fixed;
                RunLimits lim;
                lim.error_limit = 0.10;
                const RunResult r = simulate(s, lim);
                const bool ok = r.status == "done";
                stability << fmt::format("{},{:.6g},{},{},{:.6g},{}\n", solver, dt,
                                         ok ? "yes" : "no", r.totals.steps, r.error_worst,
                                         csv_field(r.reason));
                say(fmt::format("compare stability {}: dt = {:.3g} s {}", solver, dt,
                                ok ? "stable" : "blows up (" + r.reason + ")"));
                return ok;
            };
            constexpr double dt_min = 1e-5, dt_max = 0.064;
            double lo = 0, hi = 0, dt = max_dt(base);
            std::string note;
            if (stable(dt)) {
                lo = dt;
                while (lo < dt_max && stable(2 * lo)) lo *= 2;
                hi = lo < dt_max ? 2 * lo : 0;
                if (hi == 0) note = "stable up to the search's upper bound";
            } else {
                hi = dt;
                while (hi > dt_min && !stable(0.5 * hi)) hi *= 0.5;
                lo = hi > dt_min ? 0.5 * hi : 0;
                if (lo == 0) note = "unstable down to the search's lower bound";
            }
            for (int k = 0; k < 3 && lo > 0 && hi > 0; ++k) {
                const double mid = std::sqrt(lo * hi);
                (stable(mid) ? lo : hi) = mid;
            }
            stable_dt << fmt::format("{},{:.6g},{:.6g},{},{}\n", solver, lo, hi, trial_time,
                                     note);
        }
    }
    io::write_file_atomic(dir / "stability.csv",
                          [&](std::ostream& out) { out << stability.str(); });
    io::write_file_atomic(dir / "stable_dt.csv",
                          [&](std::ostream& out) { out << stable_dt.str(); });
}

// 4. Accuracy against time: each solver again at each target mean density error e. PBF and DFSPH
// iterate down to it (their tolerance key, with up to 100 iterations); WCSPH and DDR reach it by
// their stiffness: their error falls about as 1/c², so c is the speed of sound of the solver's
// first main run times √(e_run/e), e_run the error that run measured (the automatic c aims at 1%
// and lands nearer 0.1%). The measured error, not the target, places each point.
struct AccuracyCase {
    std::string solver;
    double target = 0;
    std::string setting;  //!< "solver.pbf.density_tolerance=0.001"
    Scene scene;
};

// The settings that aim `scene`'s solver at a mean density error `target`; `measured` is the
// error of a run of the scene as it is (0: unknown, then the 1% rule of the automatic c).
std::vector<std::string> accuracy_settings(const Scene& scene, double target, double measured) {
    const SolverTraits& t = solver_traits(scene.solver.type);
    if (!t.tolerance_key.empty()) {
        std::vector<std::string> sets = {fmt::format("{}={}", t.tolerance_key, target)};
        if (!t.iterations_key.empty()) sets.push_back(fmt::format("{}=100", t.iterations_key));
        return sets;
    }
    if (t.resolves_sound)
        return {fmt::format("solver.{}.speed_of_sound={:.6g}", t.name,
                            speed_of_sound(scene) *
                                std::sqrt((measured > 0 ? measured : 0.01) / target))};
    return {};
}

void compare_accuracy(const CompareOptions& o, const std::vector<Case>& main_cases,
                      const std::vector<RunResult>& main_results, const fs::path& dir,
                      const Say& say) {
    std::vector<AccuracyCase> cases;
    for (const double target : o.no_accuracy ? std::vector<double>{} : o.accuracy)
        for (const auto& solver : o.solvers) {
            std::size_t first = 0;  // the solver's first main run
            while (main_cases[first].solver != solver) ++first;
            const RunResult& run = main_results[first];
            const std::vector<std::string> extra = accuracy_settings(
                main_cases[first].scene, target, run.status == "done" ? run.error_mean : 0.0);
            std::vector<std::string> sets = extra;
            if (o.end_time > 0) sets.push_back(fmt::format("time.end_time={}", o.end_time));
            cases.push_back({solver, target, join(extra, " "), load_with(o.scene, sets, solver)});
        }
    Progress progress(o.quiet);
    std::ostringstream out;
    out << "solver,target_error,setting,steps,iterations_per_step,simulated_time,wall_s,"
           "wall_s_per_simulated_s,density_error_mean,density_error_max,status,detail\n";
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const AccuracyCase& c = cases[k];
        say(fmt::format("compare accuracy {}/{}: {} at {:.3g}% ({})", k + 1, cases.size(),
                        c.solver, 100 * c.target, c.setting));
        RunLimits lim;
        lim.progress = [&](double t, long steps, double wall) {
            progress.step({0, 0, t, c.scene.time.end_time, steps, wall});
        };
        const RunResult r = simulate(c.scene, lim);
        progress.finish();
        const double per_sim = r.time > 0 ? r.wall_s / r.time : 0.0;
        out << fmt::format("{},{},{},{},{:.3f},{:.6f},{:.4f},{:.4f},{:.6g},{:.6g},{},{}\n",
                           c.solver, c.target, csv_field(c.setting), r.totals.steps,
                           r.totals.mean_iterations(), r.time,
                           r.wall_s, per_sim, r.error_mean, r.error_max, r.status,
                           csv_field(run_detail(r, c.scene)));
        say(fmt::format("  {} steps, {:.2f} s wall ({:.1f} s per simulated second), mean density "
                        "error {:.3f}%{}",
                        r.totals.steps, r.wall_s, per_sim, 100 * r.error_mean, say_detail(r, c.scene)));
    }
    io::write_file_atomic(dir / "accuracy.csv", [&](std::ostream& f) { f << out.str(); });
}

}  // namespace

int compare_command(const CompareOptions& o) {
    std::vector<Sweep> sweeps;
    try {
        for (const auto& s : o.sweeps) sweeps.push_back(parse_sweep(s));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "seiche compare: %s\n", e.what());
        return 2;
    }
    const auto combos = combinations(sweeps);
    // Every scene is checked before anything runs: a bad sweep value fails in seconds.
    std::vector<Case> cases;
    for (const auto& combo : combos)
        for (const auto& solver : o.solvers) {
            std::vector<std::string> sets = combo;
            if (o.end_time > 0) sets.push_back(fmt::format("time.end_time={}", o.end_time));
            try {
                cases.push_back({solver, load_with(o.scene, sets, solver),
                                 combo.empty() ? solver : solver + " " + join(combo, " "),
                                 join(combo, " ")});
            } catch (const io::SceneError& e) {
                const std::string where = combo.empty() ? "" : " (" + join(combo, ", ") + ")";
                std::fprintf(stderr, "seiche compare: %s%s: %s\n", o.scene.c_str(), where.c_str(),
                             e.what());
                return 2;
            }
        }
    // The accuracy runs' settings are checked too (with the automatic speed of sound's rule;
    // the runs themselves scale it from the main runs' measured errors).
    for (const double target : o.no_accuracy ? std::vector<double>{} : o.accuracy)
        for (const Case& c : cases) {
            try {
                load_with(o.scene, accuracy_settings(c.scene, target, 0.0), c.solver);
            } catch (const io::SceneError& e) {
                std::fprintf(stderr, "seiche compare: %s (%s at accuracy %g): %s\n",
                             o.scene.c_str(), c.solver.c_str(), target, e.what());
                return 2;
            }
        }
    // sensors.csv has a column per sensor for every run: a sweep may move them, not rename them.
    auto sensor_names = [](const Scene& s) {
        std::string names;
        for (std::size_t i = 0; i < s.sensors.size(); ++i) names += sensor_name(s.sensors[i], i) + ",";
        return names;
    };
    for (const Case& c : cases)
        if (sensor_names(c.scene) != sensor_names(cases.front().scene)) {
            std::fprintf(stderr,
                         "seiche compare: %s (%s): the sweep changes the sensors' names or "
                         "number; sensors.csv holds one set of columns for every run\n",
                         o.scene.c_str(), c.label.c_str());
            return 2;
        }
    set_thread_count(o.threads);
    const Scene& base = cases.front().scene;
    const fs::path dir =
        o.output.empty() ? fs::path("out") / ("compare_" + base.name) : fs::path(o.output);
    const double picture_time = o.picture_time >= 0 ? std::min(o.picture_time, base.time.end_time)
                                                    : 0.5 * base.time.end_time;
    if (const std::string why = directory_refusal(dir, o.output.empty(), o.scene, o.overwrite);
        !why.empty()) {
        std::fprintf(stderr, "seiche compare: %s\n", why.c_str());
        return 2;
    }
    try {
        mark_seiche_dir(dir);
        const auto t_all = clock_type::now();
        const Say say = [&](const std::string& line) {
            if (!o.quiet) std::fprintf(stderr, "%s\n", line.c_str());
        };

        std::vector<RunResult> results;
        const std::string runs =
            compare_runs(cases, o.solvers.size(), picture_time, dir, o.quiet, say, results);
        compare_scaling(o, base, dir, say);
        compare_stability(o, base, dir, say);
        compare_accuracy(o, cases, results, dir, say);

        nlohmann::json settings = {
            {"scene", o.scene},
            {"scene_name", base.name},
            {"dimension", base.dimension},
            {"solvers", o.solvers},
            {"sweeps", o.sweeps},
            {"accuracy_targets", o.no_accuracy ? std::vector<double>{} : o.accuracy},
            {"end_time", base.time.end_time},
            {"picture_time", picture_time},
            {"threads", thread_count()},
            {"stability_trial_time",
             o.no_stability ? 0.0 : std::min(base.time.end_time, o.stability_time)},
            {"wall_time", seconds_since(t_all)},
            {"seiche", "0.1.0"},
            {"scene_settings", io::scene_to_json(base)},
        };
        io::write_file_atomic(dir / "settings.json",
                              [&](std::ostream& out) { out << settings.dump(2) << "\n"; });
        bool plotted = false;
        if (!o.no_plots) {
            plotted = run_python_tool("plot_compare.py", {dir.string()});
            if (!plotted)
                std::fprintf(stderr,
                             "seiche compare: plotting failed (python3-matplotlib?); the CSVs "
                             "are in %s\n",
                             dir.c_str());
        }
        std::printf("%s: %zu runs, %zu solvers, in %s\n", base.name.c_str(), cases.size(),
                    o.solvers.size(), format_duration(seconds_since(t_all)).c_str());
        std::printf("%s", runs.c_str());
        std::printf("report: %s\n", plotted
                                        ? (dir / "index.html").c_str()
                                        : (dir.string() + " (CSVs and side_by_side.png)").c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche compare: %s\n", e.what());
        return 1;
    }
}

}  // namespace seiche::app
