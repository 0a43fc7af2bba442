// What the tools that work on finished runs share: the frames of a run directory, pictures of
// frames (render/ and the previews) and the movie made from them.
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "seiche/io/writers.hpp"
#include "seiche/scene.hpp"

namespace seiche::run {

// The file that marks a directory as a seiche run, so a later run may write into it again.
inline constexpr const char* run_marker = ".seiche-run";

// Why seiche may not write into dir ("" when it may). from_scene: the path came from a scene
// file (it must stay under the current directory); input: the scene file, never overwritten;
// overwrite: the user allows a non-empty directory that is not seiche's.
std::string directory_refusal(const std::filesystem::path& dir, bool from_scene,
                           const std::filesystem::path& input, bool overwrite);
// Creates dir if needed and marks it as seiche's.
void mark_seiche_dir(const std::filesystem::path& dir);

// The particle frames of a run: from particles.pvd (with their times), else frames/*.ply.
std::vector<io::PvdEntry> run_frames(const std::filesystem::path& dir, double frame_rate);


// "dam_break_2d  pbf  t = 0.500 s"
std::string frame_caption(const Scene& scene, double time);

// parts with sep between them ("a, b, c").
std::string join(const std::vector<std::string>& parts, const std::string& sep);

// The extensions of the surface meshes the output settings ask for, as a file pattern's tail:
// ".ply", or ".{ply,obj}" for more than one ("" for none).
std::string mesh_extensions(const OutputParams& o, bool with_vdb);
// What a run with these settings writes into its directory, for its summary: "particles.pvd,
// frames/frame_*.{vtp,ply}, stats.csv, scene.json, summary.json" and so on (bodies are listed
// apart).
std::string run_files(const OutputParams& o, int dimension);
// What it writes for its bodies: "bodies.csv, bodies.pvd, frames/bodies_*.{obj,ply,vtp}".
std::string body_files(const OutputParams& o);

// RUN_DIR/render/frame_NNNNNN.png
std::filesystem::path picture_path(const std::filesystem::path& dir, int index);

// Removes the pictures and movie of an earlier run or render pass.
void clear_pictures(const std::filesystem::path& dir);

// Called after each picture with the number done and the total (serialised).
using PictureProgress = std::function<void(std::size_t done, std::size_t total)>;

// The pictures of a run's particle frames (read from dir): render/frame_NNNNNN.png and the two
// previews, coloured over the run's own range (render::run_color_range of all the frames), with
// the bodies' outlines from bodies.csv; frames in parallel, one per thread. Returns the range.
std::array<double, 2> render_run_pictures(const std::filesystem::path& dir, const Scene& scene,
                                          const std::vector<io::PvdEntry>& frames,
                                          const PictureProgress& progress = {},
                                          bool previews = true);

// Pictures of a run: preview_first.png as soon as the first frame is there; at the end, with
// output.render, a picture per frame drawn from the frames on disk (the same pictures as `seiche
// render` makes of the finished run), else the two previews again, over the run's own colour
// range.
class PictureOutput {
  public:
    // Removes the pictures of an earlier run, unless `continuing` a resumed one.
    PictureOutput(const Scene& scene, std::filesystem::path dir, bool continuing = false);
    void frame(const io::FrameData& f, int index, double time);
    void moved_to(const std::filesystem::path& dir) { dir_ = dir; }
    // Writes the pictures and, with render on, the movie; returns a line for the summary.
    std::string finish(const PictureProgress& progress = {});

  private:
    const Scene& scene_;
    std::filesystem::path dir_;
    std::optional<io::FrameData> first_, last_;
    double first_time_ = 0, last_time_ = 0;
    double run_speed_ = 0;  //!< the largest frame_speed_percentile of the frames seen
};

}  // namespace seiche::run
