#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "seiche/scene.hpp"

namespace seiche::run {}

namespace seiche::app {

// The commands are the front end of the run directory's library (src/run/).
using namespace seiche::run;

struct RunOptions {
    std::string scene;
    std::string output;  //!< empty: the scene's output.directory
    std::vector<std::string> overrides;
    std::string solver;   //!< empty: the scene's solver.type
    int threads = 0;      //!< 0: all cores
    double end_time = 0;  //!< 0: the scene's
    bool quiet = false;
    bool mesh = false;    //!< a surface mesh per frame (sets output.mesh)
    bool render = false;  //!< a picture per frame (sets output.render)
    bool overwrite = false;  //!< write into a non-empty directory that is not a seiche run
    std::string max_memory;  //!< "2G", "512M": refuse a run estimated to need more ("" = none)
    std::string resume;      //!< a run directory to continue from its checkpoint ("" = none)
};

struct BenchOptions {
    std::string scene;
    std::vector<std::string> overrides;
    std::string solver;
    long steps = 0;  //!< 0: as many as the scene's end time needs
    int threads = 0;
    int competitors = 0;  //!< CPU-bound processes run beside the steps (a busy machine)
};

int bench_command(const BenchOptions& o);

struct MeshOptions {
    std::string run_dir;
    std::vector<std::string> overrides;  //!< applied to the run's scene.json (surface.*)
    int threads = 0;
    bool quiet = false;
};
int mesh_command(const MeshOptions& o);

struct BenchMeshOptions {
    std::string frame;
    std::string scene;  //!< empty: the scene.json of the frame's run directory
    std::vector<std::string> overrides;
    int repeat = 3;
    int threads = 0;
};
int bench_mesh_command(const BenchMeshOptions& o);

struct DensityOptions {
    std::string frame;
    double mass = 0;  //!< fluid particle mass, kg (0: the scene's, as seiche sets it)
    std::string scene;  //!< empty: the scene.json of the frame's run directory
    std::vector<std::string> overrides;
    int threads = 0;
};
int density_command(const DensityOptions& o);

struct RenderOptions {
    std::string run_dir;
    std::vector<std::string> overrides;  //!< applied to the run's scene.json (render.*)
    std::string color_by;                //!< empty: the scene's render.color_by
    int threads = 0;
    bool quiet = false;
    bool no_movie = false;
};
int render_command(const RenderOptions& o);

struct CompareOptions {
    std::string scene;
    std::vector<std::string> solvers = solver_names();
    std::vector<std::string> sweeps;  //!< "key=v1,v2,..."
    std::string output;               //!< empty: out/compare_<scene name>
    double end_time = 0;              //!< 0: the scene's
    double picture_time = -1;         //!< the side-by-side frame; < 0: half the end time
    double stability_time = 1.0;      //!< simulated time of each stability trial, s
    int threads = 0;
    bool quiet = false;
    bool no_plots = false;
    bool no_scaling = false;
    bool no_stability = false;
    //! Target mean density errors of the accuracy runs (each solver at each; fractions).
    std::vector<double> accuracy = {0.01, 0.001};
    bool no_accuracy = false;
    bool overwrite = false;  //!< write into a non-empty directory that is not seiche's
};
// Exit codes: 0 report written (even when some runs went unstable: that is a result), 1 error,
// 2 bad scene, sweep or arguments.
int compare_command(const CompareOptions& o);

struct ValidateOptions {
    std::vector<std::string> cases;  //!< empty: all
    std::vector<std::string> solvers = solver_names();
    std::string output = "out/validation";
    int threads = 0;
    bool quiet = false;
    bool no_plots = false;
    //! KEY=VALUE applied to every case's scene after its solver (not to surface_tension's drops)
    std::vector<std::string> overrides;
    bool overwrite = false;  //!< write into a non-empty directory that is not seiche's
    //! continue the validation cut short in `output` (its cases, solvers and --set)
    bool resume = false;
    //! s of wall time between the long cases' checkpoints (0: only when interrupted)
    double checkpoint_every = 600;
};
// Exit codes: 0 every check passed, 4 some check failed, 1 error, 2 usage, 130 interrupted
// (its checkpoint written: resume = true continues it).
int validate_command(const ValidateOptions& o);

struct SchemaOptions {
    bool markdown = false;  //!< the parameter tables of docs/scene-format.md instead
    std::string output;     //!< empty: standard output
};
int schema_command(const SchemaOptions& o);

// Loads the scene with the command line's overrides (--set, then --solver, then --end-time when
// > 0). A bad scene is reported on stderr with its JSON path; the caller exits with 2.
std::optional<Scene> load_scene_or_report(const std::string& file,
                                          std::vector<std::string> overrides,
                                          const std::string& solver, double end_time);

// The scene a particle frame was made from: `scene` if given, else the scene.json of the frame's
// run directory (RUN/frames/FRAME). Loaded with the overrides; nullopt after printing, as
// `command`, why not (no such scene, or an invalid one).
std::optional<Scene> scene_of_frame(const std::filesystem::path& frame, const std::string& scene,
                                    const std::vector<std::string>& overrides,
                                    const char* command);

// Exit codes: 0 done, 1 I/O or other runtime error, 2 bad scene or usage, 3 unstable.
int run_command(const RunOptions& o);

}  // namespace seiche::app
