// The files of one run directory over a run's life. A fresh run into a directory that holds an
// earlier run is built beside it, in NAME.partial, and swapped in once it has its first frame:
// the directory shows the old run until the new one has something to show, and never a mix. A
// resumed run continues its own directory from checkpoint.bin: what was written after the
// checkpoint (frames, meshes, pictures, stats rows) is removed first.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "run_dir.hpp"
#include "seiche/io/writers.hpp"
#include "seiche/scene.hpp"
#include "seiche/world.hpp"
#include "surface_output.hpp"

namespace seiche::run {

inline constexpr const char* checkpoint_file = "checkpoint.bin";

// What a resumed run takes over from its checkpoint.
struct RunResume {
    int next_frame = 0;      //!< frames 0 .. next_frame − 1 are on disk
    std::int64_t steps = 0;  //!< stats.csv rows to keep
    std::vector<io::PvdEntry> frames, surfaces, bodies;
    int body_rows = 0;       //!< bodies.csv rows to keep
    std::int64_t sensor_rows = 0;  //!< sensors.csv rows to keep
    nlohmann::json state;    //!< the run's own totals, as given to RunOutput::checkpoint
    std::vector<std::string> changed;  //!< live keys the scene now sets differently
};

// Restores w from RUN_DIR/checkpoint.bin. Throws CheckpointError (damaged, another scene) naming
// what is wrong.
template <int D>
RunResume restore_run(World<D>& w, const std::filesystem::path& dir);

// Why this build cannot write what `output` asks for ("" when it can): VDB files without
// OpenVDB, pictures without particle frames on disk.
std::string unsupported_output(const OutputParams& output);

// This process's piece of frame `index` (output.pieces): its own particles, halo copies left out,
// in creation order, as frames_dir/frame_NNNNNN_K.vtp, K its rank (0 unsplit).
template <int D>
void write_frame_piece(const World<D>& w, const std::filesystem::path& frames_dir, int index);

class RunOutput {
  public:
    // A fresh run (resume == nullptr) or the continuation of the run in dir.
    RunOutput(const Scene& s, std::filesystem::path dir, const RunResume* resume);
    ~RunOutput();
    RunOutput(const RunOutput&) = delete;
    RunOutput& operator=(const RunOutput&) = delete;

    // Frame `index` of w: particles, mesh, picture. A fresh run's frame 0 makes it the run shown
    // in the directory.
    template <int D>
    void frame(const World<D>& w, int index) { frame(w, w.particles(), index); }
    // The same with the particles given: a split run's, gathered (World::gather_particles).
    template <int D>
    void frame(const World<D>& w, const ParticleSet<D>& particles, int index);
    // Frame `index` in pieces (output.pieces), once every process has written its own with
    // write_frame_piece into frames_dir(): the .pvtp joining `pieces` of them, the .pvd, the
    // bodies.
    template <int D>
    void frame_of_pieces(const World<D>& w, int index, int pieces);
    // Where frame files go now (a fresh run's staging directory until its first frame).
    std::filesystem::path frames_dir() const { return (published_ ? dir_ : staging_) / "frames"; }
    void stats(const StepStats& s) { stats_.append(s); }
    // A row of sensors.csv (PressureSensors::after_step), written with the next frame.
    void sensors(const std::string& row) {
        if (row.empty()) return;
        sensor_rows_ += row;
        ++sensor_row_count_;
    }
    // sensors.png from sensors.csv (tools/plot_sensors.py, python3 with matplotlib) after the
    // run; returns what the summary says of the sensors ("" without any).
    std::string plot_sensors();
    // checkpoint.bin: w, the frame lists and `state` (the caller's totals and next frame), with
    // stats.csv published up to this step.
    template <int D>
    void checkpoint(const World<D>& w, nlohmann::json state);
    // Returns what the pictures step wrote, for the summary; progress: while the pictures of a
    // run with output.render are drawn.
    std::string close(const PictureProgress& progress = {});
    const std::filesystem::path& dir() const { return dir_; }

  private:
    void publish();
    // The bodies of frame `index`: bodies.csv rows, a mesh of them all, their outlines in f.
    template <int D>
    void bodies(const World<D>& w, int index, const std::filesystem::path& dir, io::FrameData& f);

    const Scene& scene_;
    std::filesystem::path dir_, staging_;  //!< staging_: where the files go until published
    bool published_ = false;
    io::StatsWriter stats_;
    std::string stats_rows_;  //!< a resumed run's rows up to its checkpoint
    std::vector<io::PvdEntry> pvd_, body_frames_;
    std::string body_rows_;  //!< bodies.csv without its header
    std::string sensor_header_, sensor_rows_;  //!< sensors.csv's header ("" without sensors), rows
    std::int64_t sensor_row_count_ = 0;
    void write_sensors(const std::filesystem::path& dir);
    int body_row_count_ = 0;
    std::optional<SurfaceOutput> surface_;
    PictureOutput pictures_;
};

}  // namespace seiche::run
