#include "run_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <mutex>
#include <cstdio>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "body_frames.hpp"
#include "external_tools.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/parallel.hpp"
#include "seiche/render.hpp"

namespace seiche::run {

namespace fs = std::filesystem;

// Where a run, report or validation may write, or why not (empty: fine). A scene file may only name a directory under
// the current one; the command line may name any. seiche writes into a new or empty directory, or
// one of its own runs (the marker file, or scene.json with particles.pvd or stats.csv from before
// the marker existed); anything else needs --overwrite. The input scene is never overwritten.
std::string directory_refusal(const fs::path& dir, bool from_scene, const fs::path& input,
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
    // At most nine digits (seiche writes six): a longer number is not one of seiche's frames,
    // and would not fit an int.
    const std::regex name("frame_([0-9]{1,9})\\.ply");
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

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (std::size_t k = 0; k < parts.size(); ++k) out += (k ? sep : "") + parts[k];
    return out;
}

namespace {
// ".a" for one extension, ".{a,b}" for more, "" for none.
std::string extension_pattern(std::initializer_list<std::pair<bool, const char*>> wanted) {
    std::string list;
    int n = 0;
    for (const auto& [on, ext] : wanted)
        if (on) list += (n++ ? "," : "") + std::string(ext);
    return n == 0 ? "" : n == 1 ? "." + list : ".{" + list + "}";
}
}  // namespace

std::string mesh_extensions(const OutputParams& o, bool with_vdb) {
    return extension_pattern({{o.mesh_ply, "ply"}, {o.mesh_obj, "obj"}, {o.mesh_vtk, "vtp"},
                              {with_vdb, "vdb"}});
}

std::string run_files(const OutputParams& o, int dimension) {
    std::vector<std::string> files;
    if (o.vtk) files.push_back("particles.pvd");
    if (o.pieces)
        files.push_back("frames/frame_*.pvtp (each process's piece: frames/frame_*_K.vtp)");
    else if (const std::string ext = extension_pattern({{o.vtk, "vtp"}, {o.ply, "ply"}, {o.vdb, "vdb"}});
             !ext.empty())
        files.push_back("frames/frame_*" + ext);
    if (o.mesh) {
        // The level set goes with the meshes in 3D only (SurfaceOutput::write).
        if (const std::string ext = mesh_extensions(o, o.vdb && dimension == 3); !ext.empty())
            files.push_back("frames/surface_*" + ext);
        if (o.mesh_vtk) files.push_back("surface.pvd");
    }
    if (o.stats) files.push_back("stats.csv");
    if (o.checkpoint_every > 0) files.push_back("checkpoint.bin");
    files.push_back("scene.json");
    files.push_back("summary.json");
    return join(files, ", ");
}

std::string body_files(const OutputParams& o) {
    // RunOutput::bodies: the OBJ always, PLY and VTP (with bodies.pvd) as the particles get them.
    return std::string("bodies.csv") + (o.vtk ? ", bodies.pvd" : "") + ", frames/bodies_*" +
           extension_pattern({{true, "obj"}, {o.ply, "ply"}, {o.vtk, "vtp"}});
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

std::array<double, 2> render_run_pictures(const fs::path& dir, const Scene& scene,
                                          const std::vector<io::PvdEntry>& frames,
                                          const PictureProgress& progress, bool previews) {
    const long count = long(frames.size());
    std::string error;
    std::mutex lock;
    auto failed = [&](const std::exception& e) {
        const std::lock_guard<std::mutex> hold(lock);
        if (error.empty()) error = e.what();
    };
    // First pass: the run's speed range, so no frame's spray decides the colours alone.
    std::vector<double> speed(frames.size(), 0.0);
    if (scene.render.color_by == RenderParams::Color::speed &&
        !(scene.render.range_max > scene.render.range_min)) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count())
        for (long k = 0; k < count; ++k) {
            try {
                speed[k] = render::frame_speed_percentile(io::read_frame(dir / frames[k].file));
            } catch (const std::exception& e) {
                failed(e);
            }
        }
        if (!error.empty()) throw std::runtime_error(error);
    }
    const auto range = render::run_color_range(
        scene, speed.empty() ? 0.0 : *std::max_element(speed.begin(), speed.end()));

    // The bodies' outlines at each frame, from bodies.csv (frames and rows share the time).
    const auto poses = read_body_poses(dir / "bodies.csv");
    auto outlines = [&](double time, io::FrameData& f) {
        auto it = poses.lower_bound(time - 1e-9 * std::max(1.0, time));
        if (it == poses.end() || std::abs(it->first - time) > 1e-9 * std::max(1.0, time)) return;
        if (scene.dimension == 2)
            append_body_outlines<2>(scene, it->second, f.solid_edges);
        else
            append_body_outlines<3>(scene, it->second, f.solid_edges);
    };
    fs::create_directories(dir / "render");
    std::size_t done = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count())
    for (long k = 0; k < count; ++k) {
        try {
            io::FrameData f = io::read_frame(dir / frames[k].file);
            outlines(frames[k].time, f);
            const render::Image image =
                render::render_frame(f, scene, frame_caption(scene, frames[k].time), range);
            render::write_png(picture_path(dir, int(k)), image);
            if (previews && k == 0) render::write_png(dir / "preview_first.png", image);
            if (previews && k == count - 1) render::write_png(dir / "preview_last.png", image);
        } catch (const std::exception& e) {
            failed(e);
        }
        const std::lock_guard<std::mutex> hold(lock);
        ++done;
        if (progress) progress(done, std::size_t(count));
    }
    if (!error.empty()) throw std::runtime_error(error);
    return range;
}

PictureOutput::PictureOutput(const Scene& scene, fs::path dir, bool continuing)
    : scene_(scene), dir_(std::move(dir)) {
    if (!continuing) clear_pictures(dir_);
    if (scene_.output.render) fs::create_directories(dir_ / "render");
}

void PictureOutput::frame(const io::FrameData& f, int index, double time) {
    if (!scene_.output.preview || scene_.output.render) return;  // render: drawn at the end
    // A first look while the run goes, over the scene's range; drawn again at the end.
    if (index == 0)
        render::write_png(dir_ / "preview_first.png",
                          render::render_frame(f, scene_, frame_caption(scene_, time)));
    if (!first_) first_ = f, first_time_ = time;
    last_ = f, last_time_ = time;
    run_speed_ = std::max(run_speed_, render::frame_speed_percentile(f));
}

std::string PictureOutput::finish(const PictureProgress& progress) {
    std::string line;
    if (scene_.output.render) {
        const auto frames = run_frames(dir_, scene_.time.frame_rate);
        if (!frames.empty())
            render_run_pictures(dir_, scene_, frames, progress, scene_.output.preview);
        std::string why;
        const auto movie = make_movie(dir_, scene_.time.frame_rate, &why);
        line = (scene_.output.preview
                    ? (dir_ / "preview_first.png").string() + ", preview_last.png; "
                    : std::string()) +
               (dir_ / "render").string() + "/frame_NNNNNN.png" +
               (movie ? ", movie.mp4" : " (" + why + ")");
    } else if (last_) {
        // A resumed run has not seen its first frame: that preview stays as it was drawn.
        const auto range = render::run_color_range(scene_, run_speed_);
        if (first_ && first_time_ == 0.0)
            render::write_png(dir_ / "preview_first.png",
                              render::render_frame(*first_, scene_,
                                                   frame_caption(scene_, first_time_), range));
        render::write_png(dir_ / "preview_last.png",
                          render::render_frame(*last_, scene_, frame_caption(scene_, last_time_),
                                               range));
        line = (dir_ / "preview_first.png").string() + ", preview_last.png";
    }
    return line;
}

}  // namespace seiche::run
