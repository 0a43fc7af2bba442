#include "external_tools.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace seiche::run {

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

fs::path data_dir() {
    // Nothing of the source tree is compiled in: an installed or moved binary finds its files
    // beside itself. Installed: PREFIX/bin/seiche and PREFIX/share/seiche; in the build tree:
    // BUILD/seiche and BUILD/share/seiche (copied there by every build).
    const auto usable = [](const fs::path& d) {
        std::error_code ec;
        return fs::is_directory(d / "tools", ec) && fs::is_directory(d / "validation", ec);
    };
    if (const char* env = std::getenv("SEICHE_DATA_DIR")) {
        if (usable(env)) return env;
        throw std::runtime_error(fmt::format(
            "SEICHE_DATA_DIR={} holds no tools/ and validation/ (seiche's data directory)", env));
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (const fs::path& d : {exe.parent_path() / "share" / "seiche",
                                  exe.parent_path().parent_path() / "share" / "seiche"})
            if (usable(d)) return d;
    throw std::runtime_error(
        "cannot find seiche's data directory (tools/, validation/) beside " +
        (ec ? std::string("the program") : exe.string()) +
        ": run the binary from its build directory or its installed prefix (cmake --install), "
        "or set SEICHE_DATA_DIR");
}

bool run_python_tool(const std::string& script, const std::vector<std::string>& args) {
    fs::path tools;
    try {
        tools = data_dir() / "tools";
    } catch (const std::runtime_error& e) {
        std::fprintf(stderr, "seiche: %s\n", e.what());
        return false;
    }
    const char* py = std::getenv("SEICHE_PYTHON");
    std::string cmd = shell_quoted(py ? py : "/usr/bin/python3") + " " +
                      shell_quoted(tools / script);
    for (const auto& a : args) cmd += " " + shell_quoted(a);
    return std::system(cmd.c_str()) == 0;
}

}  // namespace seiche::run
