#include "run_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "seiche/io/readers.hpp"
#include "seiche/render.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

std::vector<io::PvdEntry> run_frames(const fs::path& dir, double frame_rate) {
    if (fs::exists(dir / "particles.pvd")) return io::read_pvd(dir / "particles.pvd");
    std::vector<io::PvdEntry> out;
    if (!fs::is_directory(dir / "frames")) return out;
    const std::regex name("frame_([0-9]+)\\.ply");
    for (const auto& e : fs::directory_iterator(dir / "frames")) {
        std::smatch m;
        const std::string file = e.path().filename().string();
        if (std::regex_match(file, m, name))
            out.push_back({std::stoi(m[1].str()) / frame_rate, "frames/" + file});
    }
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.time < b.time; });
    return out;
}

std::string frame_caption(const Scene& scene, double time) {
    return fmt::format("{}  {}  t = {:.3f} s", scene.name, solver_name(scene.solver.type), time);
}

fs::path picture_path(const fs::path& dir, int index) {
    return dir / "render" / fmt::format("frame_{:06}.png", index);
}

void clear_pictures(const fs::path& dir) {
    if (fs::is_directory(dir / "render"))
        for (const auto& e : fs::directory_iterator(dir / "render")) {
            const std::string name = e.path().filename().string();
            if (name.rfind("frame_", 0) == 0 || name == "movie.mp4") fs::remove(e.path());
        }
    fs::remove(dir / "preview_first.png");
    fs::remove(dir / "preview_last.png");
}

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

std::string quoted(const fs::path& p) {
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
        quoted(*ffmpeg), frame_rate, quoted(dir / "render" / "frame_%06d.png"), quoted(part));
    if (std::system(cmd.c_str()) != 0 || !fs::exists(part)) {
        fs::remove(part);
        *why = "ffmpeg failed: " + cmd;
        return std::nullopt;
    }
    fs::rename(part, movie);
    return movie;
}

PictureOutput::PictureOutput(const Scene& scene, fs::path dir)
    : scene_(scene), dir_(std::move(dir)) {
    clear_pictures(dir_);
    if (scene_.output.render) fs::create_directories(dir_ / "render");
}

void PictureOutput::frame(const io::FrameData& f, int index, double time) {
    const bool preview = scene_.output.preview;
    if (scene_.output.render || (preview && index == 0)) {
        const render::Image image = render::render_frame(f, scene_, frame_caption(scene_, time));
        if (scene_.output.render) render::write_png(picture_path(dir_, index), image);
        if (preview && index == 0) render::write_png(dir_ / "preview_first.png", image);
    }
    if (preview) last_ = f, last_time_ = time;
}

std::string PictureOutput::finish() {
    std::string line;
    if (last_) {
        render::write_png(dir_ / "preview_last.png",
                          render::render_frame(*last_, scene_, frame_caption(scene_, last_time_)));
        line = (dir_ / "preview_first.png").string() + ", preview_last.png";
    }
    if (scene_.output.render) {
        std::string why;
        const auto movie = make_movie(dir_, scene_.time.frame_rate, &why);
        line += (line.empty() ? "" : "; ") + (dir_ / "render").string() + "/frame_NNNNNN.png" +
                (movie ? ", movie.mp4" : " (" + why + ")");
    }
    return line;
}

}  // namespace seiche::app
