// The seiche command line.
#include <CLI/CLI.hpp>

#include <cmath>
#include <functional>
#include <memory>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "processes.hpp"
#include "interrupt.hpp"
#include "seiche/neighbor_grid.hpp"  // pair_loops_description
#include "../viewer/view_command.hpp"  // ViewOptions; view_command() only with the viewer

namespace {

// CLI11's PositiveNumber lets nan through (nan <= 0 is false); these refuse it, and empty text.
// A finite number, > 0 (or >= 0 when zero is allowed).
CLI::Validator finite_number(bool zero_allowed) {
    return CLI::Validator(
        [zero_allowed](std::string& s) {
            double v = 0;
            try {
                std::size_t used = 0;
                v = std::stod(s, &used);
                if (used != s.size()) return "expected a number, got \"" + s + "\"";
            } catch (const std::exception&) {
                return "expected a number, got \"" + s + "\"";
            }
            const bool ok = std::isfinite(v) && (zero_allowed ? v >= 0 : v > 0);
            return ok ? std::string()
                      : std::string("expected a finite number ") + (zero_allowed ? ">= 0" : "> 0") +
                            ", got " + s;
        },
        zero_allowed ? "NON-NEGATIVE" : "POSITIVE");
}
const CLI::Validator finite_positive = finite_number(false);
const CLI::Validator finite_non_negative = finite_number(true);
const CLI::Validator non_empty(
    [](std::string& s) { return s.empty() ? std::string("must not be empty") : std::string(); },
    "TEXT");

// The options several commands share.
void add_threads(CLI::App* c, int& threads, const std::string& help = "Threads (default: all cores)",
                 int most = 1024) {
    c->add_option("--threads", threads, help)->check(CLI::Range(1, most));
}
void add_overrides(CLI::App* c, std::vector<std::string>& overrides,
                   const std::string& help = "Override a scene value (repeatable)") {
    c->add_option("--set", overrides, help)->take_all()->allow_extra_args(false);
}
// --overwrite, as run, compare and validate share it: the refusal of a directory that is not
// seiche's names it.
void add_overwrite(CLI::App* c, bool& overwrite) {
    c->add_flag("--overwrite", overwrite,
                "Write into a non-empty directory that is not a seiche run (only seiche's own "
                "files in it are replaced)");
}

void add_quiet(CLI::App* c, bool& quiet, const std::string& help = "No progress output") {
    c->add_flag("-q,--quiet", quiet, help);
}
// "Solver: pbf, wcsph or ddr", from the solver list.
std::string solver_help() {
    return "Solver: " + seiche::solver_names_text();
}
// "pbf, wcsph, ddr" (or joined by `sep`): the solver list's names in order.
std::string solver_list(const std::string& sep = ", ") {
    std::string all;
    for (const std::string& n : seiche::solver_names()) all += (all.empty() ? "" : sep) + n;
    return all;
}
// "Solvers, comma-separated (default: pbf,wcsph,ddr)".
std::string solvers_help() {
    return "Solvers, comma-separated (default: " + solver_list(",") + ")";
}

// A subcommand and what runs it once it is parsed: each *_cli function declares one command's
// options and help, bound to options that live as long as the runner.
struct Command {
    CLI::App* app;
    std::function<int()> run;
};

Command run_cli(CLI::App& app) {
    auto run = std::make_shared<seiche::app::RunOptions>();
    CLI::App* cmd = app.add_subcommand("run", "Run a scene and write frames and statistics");
    cmd->add_option("scene", run->scene,
                    "Scene file (JSON, see docs/scene-format.md); with --resume, default: the "
                    "run's scene.json")
        ->check(non_empty);
    cmd->add_option("-o,--output", run->output,
                    "Output directory (default: the scene's output.directory)")
        ->check(non_empty);
    add_overrides(cmd, run->overrides, "Override a scene value, e.g. --set solver.pbf.max_iterations=6 (repeatable)");
    cmd->add_option("--solver", run->solver, solver_help() + " (overrides solver.type)")
        ->check(non_empty);
    add_threads(cmd, run->threads);
    cmd->add_option("--end-time", run->end_time, "Simulated end time in s (overrides time.end_time)")
        ->check(finite_positive);
    cmd->add_flag("-q,--quiet", run->quiet, "No progress output, only the summary");
    cmd->add_flag("--mesh", run->mesh,
                  "Also write a surface mesh per frame (frames/surface_NNNNNN.ply; .obj and .vtp with "
                  "output.mesh_obj, output.mesh_vtk)");
    cmd->add_option("--max-memory", run->max_memory,
                    "Refuse the run if it is estimated to need more memory, e.g. 2G or 512M "
                    "(default: the machine's memory)")
        ->check(non_empty);
    add_overwrite(cmd, run->overwrite);
    cmd->add_option("--resume", run->resume,
                    "Continue the run in RUN_DIR from its last checkpoint (output.checkpoint_every); "
                    "--end-time extends it")
        ->check(non_empty);
    cmd->add_flag(
        "--render", run->render,
        "Also write a picture per frame (render/frame_NNNNNN.png, movie.mp4 with ffmpeg), drawn "
        "from the frames at the end of the run over the run's own colour range, as `seiche "
        "render` draws them");
    cmd->footer(
        "Writes DIR/particles.pvd (ParaView), DIR/frames/frame_NNNNNN.vtp and .ply (Blender, "
        "Houdini), DIR/stats.csv (one row per step), DIR/scene.json (the resolved scene) and "
        "DIR/summary.json, DIR/preview_first.png and preview_last.png.\nWith output.checkpoint_every, "
        "DIR/checkpoint.bin; `seiche run --resume DIR` continues a stopped or killed run, "
        "bitwise.\nExit codes: 0 done, 1 I/O "
        "error, 2 bad scene or arguments, 3 the "
        "simulation went unstable.");
    return {cmd, [run] { return seiche::app::run_command(*run); }};
}

Command bench_cli(CLI::App& app) {
    auto bench = std::make_shared<seiche::app::BenchOptions>();
    CLI::App* bcmd = app.add_subcommand("bench", "Time a scene without output: ms per step, stages, memory");
    bcmd->add_option("scene", bench->scene,
                     "Scene file, e.g. scenes/bench/dam_break_reference_3d.json")
        ->required();
    bcmd->add_option("--steps", bench->steps, "Steps to run (default: up to the scene's end time)")
        ->check(finite_positive);
    add_overrides(bcmd, bench->overrides);
    bcmd->add_option("--solver", bench->solver, solver_help())->check(non_empty);
    add_threads(bcmd, bench->threads);
    bcmd->add_option("--competitors", bench->competitors,
                     "Run N CPU-bound processes beside the steps, as on a busy machine "
                     "(make bench-load compares 0, 1 and 3)")
        ->check(CLI::Range(0, 64));
    return {bcmd, [bench] { return seiche::app::bench_command(*bench); }};
}

Command mesh_cli(CLI::App& app) {
    auto mesh = std::make_shared<seiche::app::MeshOptions>();
    CLI::App* mcmd = app.add_subcommand("mesh", "Surface meshes for every frame of a finished run");
    mcmd->add_option("run_dir", mesh->run_dir, "Run directory (with scene.json and frames/)")
        ->required();
    add_overrides(mcmd, mesh->overrides, "Override a scene value, e.g. --set surface.cell_size=0.5 (repeatable)");
    add_threads(mcmd, mesh->threads);
    add_quiet(mcmd, mesh->quiet);
    mcmd->footer(
        "Writes RUN_DIR/frames/surface_NNNNNN.ply (binary), and .obj and .vtp with "
        "RUN_DIR/surface.pvd when output.mesh_obj and output.mesh_vtk are set (output.mesh_ply "
        "turns the PLY off). Parameters: the scene's surface section, see docs/scene-format.md.");
    return {mcmd, [mesh] { return seiche::app::mesh_command(*mesh); }};
}

Command bench_mesh_cli(CLI::App& app) {
    auto bmesh = std::make_shared<seiche::app::BenchMeshOptions>();
    CLI::App* bmcmd = app.add_subcommand("bench-mesh", "Time the surface reconstruction of one particle frame");
    bmcmd->add_option("frame", bmesh->frame, "Particle frame (.vtp, .pvtp or .ply written by seiche)")
        ->required();
    bmcmd->add_option("--scene", bmesh->scene,
                      "Scene for the particle radius and surface settings (default: the run's "
                      "scene.json)");
    add_overrides(bmcmd, bmesh->overrides);
    bmcmd->add_option("--repeat", bmesh->repeat, "Repetitions (median is reported)")
        ->check(CLI::Range(1, 1000));
    add_threads(bmcmd, bmesh->threads);
    return {bmcmd, [bmesh] { return seiche::app::bench_mesh_command(*bmesh); }};
}

Command density_cli(CLI::App& app) {
    auto dens = std::make_shared<seiche::app::DensityOptions>();
    CLI::App* dcmd = app.add_subcommand(
        "density", "Density error of a particle frame, seiche's or another code's, as seiche measures it");
    dcmd->add_option("frame", dens->frame,
                     "Particle frame: .vtp, .pvtp (a frame in pieces) or .ply written by seiche, or a legacy .vtk (as "
                     "SPlisHSPlasH exports its particles)")
        ->required();
    dcmd->add_option("--scene", dens->scene,
                     "Scene the frame was made from: particle radius, container, obstacles "
                     "(default: the run's scene.json)");
    add_overrides(dcmd, dens->overrides);
    dcmd->add_option("--mass", dens->mass,
                     "Fluid particle mass in kg, for another code's particles (SPlisHSPlasH: "
                     "0.8 (2r)^3 rho0 in 3D, 0.8 (2r)^2 rho0 in 2D; default: seiche's)")
        ->check(finite_positive);
    add_threads(dcmd, dens->threads);
    dcmd->footer(
        "Prints the mean and largest max(0, rho/rho0 - 1) over the fluid particles, the density "
        "summed over fluid and boundary particles (Akinci et al. 2012) exactly as seiche's own "
        "steps measure it; the same away from the container's walls; and there the median and "
        "lowest tenth of rho/rho0, which show a fluid held apart (the error counts compression "
        "alone). Example: seiche density ParticleData_Fluid_1.vtk --scene "
        "scenes/bench/dam_break_reference_3d.json");
    return {dcmd, [dens] { return seiche::app::density_command(*dens); }};
}

Command render_cli(CLI::App& app) {
    auto rend = std::make_shared<seiche::app::RenderOptions>();
    CLI::App* rcmd = app.add_subcommand(
        "render", "Pictures (PNG) of every frame of a finished run, and a movie with ffmpeg");
    rcmd->add_option("run_dir", rend->run_dir, "Run directory (with scene.json and frames/)")
        ->required();
    rcmd->add_option("--color-by", rend->color_by, "Colour by speed or density")
        ->check(CLI::IsMember({"speed", "density"}));
    add_overrides(rcmd, rend->overrides, "Override a scene value, e.g. --set render.width=1920 (repeatable)");
    add_threads(rcmd, rend->threads);
    rcmd->add_flag("--no-movie", rend->no_movie, "Do not make render/movie.mp4");
    add_quiet(rcmd, rend->quiet);
    rcmd->footer(
        "Writes RUN_DIR/render/frame_NNNNNN.png, RUN_DIR/preview_first.png and "
        "preview_last.png, and RUN_DIR/render/movie.mp4 when ffmpeg is installed. Size, colours "
        "and camera: the scene's render section, see docs/scene-format.md. Without render.range, "
        "speed is coloured from 0 to what all but the fastest 0.5% of every frame's particles "
        "stay below (the range used is printed).");
    return {rcmd, [rend] { return seiche::app::render_command(*rend); }};
}

Command compare_cli(CLI::App& app) {
    auto cmp = std::make_shared<seiche::app::CompareOptions>();
    CLI::App* ccmd = app.add_subcommand(
        "compare", "Run a scene under several solvers and settings; plots and an HTML report");
    ccmd->add_option("scene", cmp->scene, "Scene file")->required();
    ccmd->add_option("--solvers", cmp->solvers, solvers_help())
        ->delimiter(',')
        ->check(CLI::IsMember(seiche::solver_names()));
    ccmd->add_option("--sweep", cmp->sweeps,
                     "Values of a scene key to try, e.g. --sweep solver.pbf.max_iterations=2,4,8 "
                     "(repeatable; every combination runs)")
        ->take_all()
        ->allow_extra_args(false);
    ccmd->add_option("-o,--output", cmp->output, "Report directory (default: out/compare_<scene>)")
        ->check(non_empty);
    ccmd->add_option("--end-time", cmp->end_time,
                     "Simulated time of each run, s (default: the "
                     "scene's)")
        ->check(finite_positive);
    ccmd->add_option("--picture-time", cmp->picture_time,
                     "Time of the side-by-side picture, s (default: half the end time)")
        ->check(finite_non_negative);
    ccmd->add_option("--stability-time", cmp->stability_time,
                     "Simulated time of each stability trial, s (default: 1)")
        ->check(finite_positive);
    add_threads(ccmd, cmp->threads);
    ccmd->add_flag("--no-scaling", cmp->no_scaling, "Skip time per step against particle count");
    ccmd->add_flag("--no-stability", cmp->no_stability, "Skip the largest-stable-time-step search");
    ccmd->add_option("--accuracy", cmp->accuracy,
                     "Target mean density errors of the accuracy runs, each solver at each: PBF "
                     "and DFSPH by their tolerance, WCSPH and DDR by their speed of sound "
                     "(default: 0.01,0.001)")
        ->delimiter(',')
        ->check(finite_positive & CLI::Range(1e-6, 0.1));
    ccmd->add_flag("--no-accuracy", cmp->no_accuracy, "Skip the accuracy runs");
    ccmd->add_flag("--no-plots", cmp->no_plots, "Only CSVs and the picture, no matplotlib/HTML");
    add_overwrite(ccmd, cmp->overwrite);
    add_quiet(ccmd, cmp->quiet);
    ccmd->footer(
        "Writes DIR/index.html (open it in a browser), runs.csv, timeseries.csv, scaling.csv, "
        "stability.csv, stable_dt.csv, accuracy.csv, settings.json, side_by_side.png and the "
        "plots density_error.png, kinetic_energy.png, run_time.png, ms_per_step.png, "
        "stable_dt.png, accuracy.png; with the scene's pressure sensors (its sensors) sensors.csv and "
        "sensors.png, every run's readings (the main runs then track the boundary forces, which "
        "their times include).");
    return {ccmd, [cmp] { return seiche::app::compare_command(*cmp); }};
}

Command validate_cli(CLI::App& app) {
    auto val = std::make_shared<seiche::app::ValidateOptions>();
    CLI::App* vcmd = app.add_subcommand(
        "validate", "Compare with experiments and analytic solutions: plots and verdicts");
    vcmd->add_option("cases", val->cases, "Cases: koshizuka, ritter, stoker, hydrostatic, spheric, lobovsky, lobovsky_3d, surface_tension, lobovsky_fine "
                     "(default: all but lobovsky_fine)");
    vcmd->add_option("--solvers", val->solvers, solvers_help())
        ->delimiter(',')
        ->check(CLI::IsMember(seiche::solver_names()));
    vcmd->add_option("-o,--output", val->output, "Output directory (default: out/validation)")
        ->check(non_empty);
    add_threads(vcmd, val->threads);
    vcmd->add_flag("--no-plots", val->no_plots, "Only CSVs and verdicts, no matplotlib");
    add_overrides(vcmd, val->overrides,
                  "Override a value of the scene of every case asked for (repeatable), e.g. --set "
                  "solver.kinematic_viscosity=1e-4; not the surface_tension drops");
    add_overwrite(vcmd, val->overwrite);
    add_quiet(vcmd, val->quiet);
    vcmd->add_flag("--resume", val->resume,
                   "Continue the validation that was cut short in the output directory (Ctrl-C, "
                   "a kill): the cases and solvers it finished are read back, a Lobovsky case "
                   "continues from its last checkpoint, the others start again; its cases, "
                   "--solvers and --set are the ones it was started with");
    vcmd->add_option("--checkpoint-every", val->checkpoint_every,
                     "Seconds of wall time between the Lobovsky cases' checkpoints for --resume "
                     "(0: only at Ctrl-C)")
        ->check(CLI::Range(0.0, 1e9));
    vcmd->footer(
        "On 2 cores: koshizuka and hydrostatic 30 s, ritter 40 s, stoker 1 minute, spheric 3 minutes, lobovsky 1.5 minutes, lobovsky_3d 4 "
        "minutes, surface_tension about 2½ hours "
        "(ensembles of drops; 11 minutes with --solvers pbf, 45–60 with each other solver), lobovsky_fine (r = 0.625 mm and the wall "
        "function) 8 minutes with PBF, an hour and more for all solvers. Exit 0 when every check passes, 4 when "
        "one fails, 130 when interrupted (--resume continues it); checks marked NOT MET* are measured and reported but not part of the verdict.");
    return {vcmd, [val, vcmd] {
                if (val->resume && (vcmd->count("cases") || vcmd->count("--solvers") ||
                                    vcmd->count("--set"))) {
                    std::fprintf(stderr,
                                 "seiche validate: --resume continues the validation as it was "
                                 "started; cases, --solvers and --set cannot be given with it\n");
                    return 2;
                }
                return seiche::app::validate_command(*val);
            }};
}

Command schema_cli(CLI::App& app) {
    auto sch = std::make_shared<seiche::app::SchemaOptions>();
    CLI::App* scmd = app.add_subcommand(
        "schema", "The JSON Schema of scene files (for editors), or the docs' parameter tables");
    scmd->add_flag("--markdown", sch->markdown,
                   "The parameter tables of docs/scene-format.md instead of the schema");
    scmd->add_option("-o,--output", sch->output, "Write to this file (default: standard output)");
    scmd->footer(
        "Both come from the one declaration of every key (the parameter table). A copy of the "
        "schema is docs/scene.schema.json: point an editor's JSON schema setting at it, or add "
        "\"$schema\" to a scene file.");
    return {scmd, [sch] { return seiche::app::schema_command(*sch); }};
}

// The viewer: its options exist in every build (ViewOptions is plain data), so `seiche view
// --help` says what it does and a build without it says why it is missing.
int view(const seiche::viewer::ViewOptions& v) {
    if ((!v.screenshot.empty() || !v.script.empty()) && v.frames == 0) {
        std::fprintf(stderr, "seiche view: --screenshot and --script need --frames N\n");
        return 2;
    }
#ifdef SEICHE_HAVE_VIEWER
    return seiche::viewer::view_command(v);
#else
    std::fprintf(stderr,
                 "seiche view: this seiche was built without the viewer (it needs "
                 "libglfw3-dev, libglew-dev, libimgui-dev and OpenGL; scripts/install-deps.sh "
                 "installs them, then rebuild)\n");
    return 2;
#endif
}

Command view_cli(CLI::App& app) {
    auto v = std::make_shared<seiche::viewer::ViewOptions>();
    CLI::App* wcmd = app.add_subcommand(
        "view", "A window running a scene live (orbit, steer, drag the sphere), or playing a run back");
    wcmd->add_option("target", v->target, "Scene file, or a run directory to play back")->required();
    add_overrides(wcmd, v->overrides);
    add_threads(wcmd, v->threads, "Simulation threads (default: all cores)", 256);
    wcmd->add_option("--width", v->width, "Window width, pixels")->check(CLI::Range(160, 8192));
    wcmd->add_option("--height", v->height, "Window height, pixels")->check(CLI::Range(120, 8192));
    wcmd->add_option("--frames", v->frames,
                     "Draw this many frames, one simulation step each, then quit (headless runs, tests)")
        ->check(CLI::Range(1, 10000000));
    wcmd->add_option("--screenshot", v->screenshot, "With --frames: save the last frame as PNG")
        ->check(non_empty);
    wcmd->add_option("--script", v->script,
                     "Scripted input (JSON): {\"events\": [{\"frame\": 10, \"drag\": {\"path\": "
                     "[[x,y,z], ...], \"frames\": 30}}, {\"frame\": 50, \"solver\": \"wcsph\"}, ...]}")
        ->check(CLI::ExistingFile);
    wcmd->add_flag("--benchmark", v->benchmark,
                   "Print frames per second and where each frame's time goes");
    wcmd->add_flag("--free", v->free,
                   "With --frames: the simulation runs free on its own thread, as in the window "
                   "(default: one step per frame, the same pictures every time)");
    wcmd->footer(
        "Mouse: left drag orbits (2D: pans), right or middle drag pans, wheel zooms, Shift + left "
        "drag moves the scene's kinematic sphere, Ctrl + click drops a block of fluid. Keys: space pause, n step, r reset, 1, 2, ... "
        "the solvers in order (" + solver_list() + "), c colour by speed/density/pressure/vorticity, p screenshot (out/NAME_view.png), v "
        "record PNGs and a movie (out/NAME_view/), Esc quit. Script actions: camera {yaw, pitch, "
        "distance, target}, drag {path, frames}, release, set {key: value}, solver, color_by, "
        "pause, reset, drop [x, y, z] (a block of fluid), surface, record, screenshot (file of the last frame, under the current directory; it replaces --screenshot), panel (open or fold). The dragged sphere moves at most 2 m/s. --benchmark prints frames and steps per second over the same span, the simulation's ms per step and the split of a frame. Under no display: xvfb-run -a seiche view ...");
    return {wcmd, [v] { return view(*v); }};
}

}  // namespace

int main(int argc, char** argv) {
    seiche::app::install_interrupt_handler();
    // Under mpirun with several processes: MPI, and this process's rank (docs/scale-out.md).
    if (const std::string why = seiche::app::start_processes(argc, argv); !why.empty()) {
        std::fprintf(stderr, "seiche: %s\n", why.c_str());
        return 2;
    }
    std::string titles;  // the solver list's: "Position Based Fluids, Weakly compressible SPH, ..."
    for (const seiche::SolverTraits& t : seiche::all_solver_traits)
        titles += (titles.empty() ? "" : ", ") + std::string(t.title);
    CLI::App app{"seiche: a particle-fluid simulator (" + titles + ")"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "seiche 0.1.0 (pair loops: " +
                                          std::string(seiche::pair_loops_description()) + ")");
    const std::vector<Command> commands = {
        run_cli(app),    bench_cli(app),   mesh_cli(app),     bench_mesh_cli(app),
        density_cli(app), render_cli(app), compare_cli(app), validate_cli(app),
        schema_cli(app), view_cli(app),
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    // The commands report what they expect; anything else that escapes one is still an error
    // message and an exit code, not std::terminate.
    try {
        for (const Command& c : commands) {
            if (!c.app->parsed()) continue;
            // Split over processes (mpirun) only a run and a benchmark are; the others would each
            // do the whole work N times over, into the same files.
            const std::string name = c.app->get_name();
            if (seiche::app::launch().split() && name != "run" && name != "bench") {
                std::fprintf(stderr,
                             "seiche: %s runs in one process; start it without mpirun (only run "
                             "and bench split a scene over processes)\n",
                             name.c_str());
                return 2;
            }
            return c.run();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche: %s\n", e.what());
        seiche::app::abort_processes(1);
        return 1;
    }
    return 2;
}
