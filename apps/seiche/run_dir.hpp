// What the tools that work on finished runs share: the frames of a run directory, pictures of
// frames (render/ and the previews) and the movie made from them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "seiche/io/writers.hpp"
#include "seiche/scene.hpp"

namespace seiche::app {

// The file that marks a directory as a seiche run, so a later run may write into it again.
inline constexpr const char* run_marker = ".seiche-run";

// Why seiche may not write into dir ("" when it may). from_scene: the path came from a scene
// file (it must stay under the current directory); input: the scene file, never overwritten;
// overwrite: the user allows a non-empty directory that is not seiche's.
std::string output_refusal(const std::filesystem::path& dir, bool from_scene,
                           const std::filesystem::path& input, bool overwrite);
// Creates dir if needed and marks it as seiche's.
void mark_seiche_dir(const std::filesystem::path& dir);

// The particle frames of a run: from particles.pvd (with their times), else frames/*.ply.
std::vector<io::PvdEntry> run_frames(const std::filesystem::path& dir, double frame_rate);

// The scene a particle frame was made from: `scene` if given, else the scene.json of the frame's
// run directory (RUN/frames/FRAME). Loaded with the overrides; nullopt after printing, as
// `command`, why not (no such scene, or an invalid one).
std::optional<Scene> scene_of_frame(const std::filesystem::path& frame, const std::string& scene,
                                    const std::vector<std::string>& overrides,
                                    const char* command);

// "dam_break_2d  pbf  t = 0.500 s"
std::string frame_caption(const Scene& scene, double time);

// RUN_DIR/render/frame_NNNNNN.png
std::filesystem::path picture_path(const std::filesystem::path& dir, int index);

// Removes the pictures and movie of an earlier run or render pass.
void clear_pictures(const std::filesystem::path& dir);

// Pictures written while a run goes: render/frame_NNNNNN.png per frame when output.render is set,
// and the first and last frame as preview_first.png and preview_last.png when output.preview is.
class PictureOutput {
  public:
    // Removes the pictures of an earlier run, unless `continuing` a resumed one.
    PictureOutput(const Scene& scene, std::filesystem::path dir, bool continuing = false);
    void frame(const io::FrameData& f, int index, double time);
    void moved_to(const std::filesystem::path& dir) { dir_ = dir; }
    // Writes preview_last.png and, with render on, the movie; returns a line for the summary.
    std::string finish();

  private:
    const Scene& scene_;
    std::filesystem::path dir_;
    std::optional<io::FrameData> last_;
    double last_time_ = 0;
};

}  // namespace seiche::app
