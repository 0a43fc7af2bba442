#include "external_tools.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace seiche::app {

namespace fs = std::filesystem;

namespace {

std::optional<fs::path> find_on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return std::nullopt;
    const std::string list = path;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t end = std::min(list.find(':', start), list.size());
        const fs::path candidate = fs::path(list.substr(start, end - start)) / program;
        std::error_code ec;
        if (end > start && fs::is_regular_file(candidate, ec) &&
            (fs::status(candidate, ec).permissions() & fs::perms::owner_exec) != fs::perms::none)
            return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

std::string shell_quoted(const fs::path& p) {
    std::string out = "'";
    for (char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

std::optional<fs::path> make_movie(const fs::path& dir, double frame_rate, std::string* why) {
    const auto ffmpeg = find_on_path("ffmpeg");
    if (!ffmpeg) {
        *why = "ffmpeg is not installed (apt-get install ffmpeg), so no movie";
        return std::nullopt;
    }
    const fs::path movie = dir / "render" / "movie.mp4", part = dir / "render" / "movie.part.mp4";
    // yuv420p needs even sizes; the scale filter rounds down by at most one pixel.
    const std::string cmd = fmt::format(
        "{} -y -loglevel error -framerate {} -i {} -vf 'scale=trunc(iw/2)*2:trunc(ih/2)*2' "
        "-c:v libx264 -pix_fmt yuv420p -movflags +faststart {} < /dev/null",
        shell_quoted(*ffmpeg), frame_rate, shell_quoted(dir / "render" / "frame_%06d.png"),
        shell_quoted(part));
    if (std::system(cmd.c_str()) != 0 || !fs::exists(part)) {
        fs::remove(part);
        *why = "ffmpeg failed: " + cmd;
        return std::nullopt;
    }
    fs::rename(part, movie);
    return movie;
}

fs::path source_dir() {
    return SEICHE_SOURCE_DIR_DEFAULT;
}

bool run_python_tool(const std::string& script, const std::vector<std::string>& args) {
    const char* py = std::getenv("SEICHE_PYTHON");
    std::string cmd = shell_quoted(py ? py : "/usr/bin/python3") + " " +
                      shell_quoted(source_dir() / "tools" / script);
    for (const auto& a : args) cmd += " " + shell_quoted(a);
    return std::system(cmd.c_str()) == 0;
}

}  // namespace seiche::app
