#include "run_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <regex>

#include "commands.hpp"
#include "external_tools.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/render.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

// Where a run, report or validation may write, or why not (empty: fine). A scene file may only name a directory under
// the current one; the command line may name any. seiche writes into a new or empty directory, or
// one of its own runs (the marker file, or scene.json with particles.pvd or stats.csv from before
// the marker existed); anything else needs --overwrite. The input scene is never overwritten.
std::optional<Scene> load_scene_or_report(const std::string& file,
                                          std::vector<std::string> overrides,
                                          const std::string& solver, double end_time) {
    if (!solver.empty()) overrides.push_back("solver.type=\"" + solver + "\"");
    if (end_time > 0) overrides.push_back(fmt::format("time.end_time={}", end_time));
    try {
        return io::load_scene(file, overrides);
    } catch (const io::SceneError& e) {
        std::fprintf(stderr, "seiche: %s: %s\n", file.c_str(), e.what());
        return std::nullopt;
    }
}

std::string output_refusal(const fs::path& dir, bool from_scene, const fs::path& input,
                           bool overwrite) {
    if (dir.empty()) return "the output directory is empty";
    if (from_scene) {
        if (dir.empty() || dir.is_absolute())
            return "output.directory \"" + dir.string() +
                   "\": a scene file may only name a directory under the current one; give -o "
                   "to write elsewhere";
        for (const auto& part : dir)
            if (part == "..")
                return "output directory \"" + dir.string() +
                       "\" leaves the current directory (\"..\", from output.directory or "
                       "name); give -o to write elsewhere";
    }
    std::error_code ec;
    if (fs::exists(dir / "scene.json", ec) && fs::equivalent(dir / "scene.json", input, ec))
        return "the output directory " + dir.string() +
               " holds the input scene; seiche would overwrite it with the resolved one (give "
               "another -o)";
    if (!fs::exists(dir, ec)) return "";
    if (!fs::is_directory(dir, ec)) return dir.string() + " exists and is not a directory";
    if (fs::is_empty(dir, ec) || fs::exists(dir / run_marker, ec) || overwrite) return "";
    // Runs, reports and validations from before the marker existed.
    if ((fs::exists(dir / "scene.json", ec) &&
         (fs::exists(dir / "particles.pvd", ec) || fs::exists(dir / "stats.csv", ec))) ||
        (fs::exists(dir / "settings.json", ec) && fs::exists(dir / "runs.csv", ec)) ||
        fs::exists(dir / "verdicts.csv", ec))
        return "";
    return dir.string() +
           " is not empty and is not a seiche run directory; choose a new directory, or pass "
           "--overwrite to write seiche's files into it (nothing else in it is touched)";
}

void mark_seiche_dir(const fs::path& dir) {
    fs::create_directories(dir);
    io::write_file_atomic(dir / run_marker, [](std::ostream& out) {
        out << "This directory was written by seiche; seiche may write into it again.\n";
    });
}

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

PictureOutput::PictureOutput(const Scene& scene, fs::path dir, bool continuing)
    : scene_(scene), dir_(std::move(dir)) {
    if (!continuing) clear_pictures(dir_);
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

std::optional<Scene> scene_of_frame(const std::filesystem::path& frame, const std::string& scene,
                                    const std::vector<std::string>& overrides,
                                    const char* command) {
    const std::filesystem::path file =
        scene.empty() ? frame.parent_path().parent_path() / "scene.json" : std::filesystem::path(scene);
    if (!std::filesystem::exists(file)) {
        std::fprintf(stderr, "seiche %s: no scene for %s (looked for %s); pass --scene FILE\n",
                     command, frame.c_str(), file.c_str());
        return std::nullopt;
    }
    return load_scene_or_report(file.string(), overrides, "", 0.0);
}

}  // namespace seiche::app
