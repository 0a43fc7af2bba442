// Programs seiche calls when they are there: ffmpeg for movies, python3 with matplotlib for plots.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace seiche::run {

// Encodes DIR/render/frame_*.png into DIR/render/movie.mp4 with ffmpeg (H.264) when ffmpeg is on
// the PATH. Returns the movie's path, or nothing (with the reason in *why) when it was not made.
std::optional<std::filesystem::path> make_movie(const std::filesystem::path& dir, double frame_rate,
                                                std::string* why);

// Runs tools/SCRIPT of the data directory with ARGS under $SEICHE_PYTHON or /usr/bin/python3
// (Debian's, which has python3-matplotlib). Returns true on success.
bool run_python_tool(const std::string& script, const std::vector<std::string>& args);

// seiche's data directory (tools/, validation/, scenes/validation/): $SEICHE_DATA_DIR, else
// share/seiche beside the binary (the build tree) or in its prefix (installed). Throws
// std::runtime_error saying where it looked.
std::filesystem::path data_dir();

}  // namespace seiche::run
