#include "run_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "external_tools.hpp"
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
