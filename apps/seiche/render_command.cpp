// `seiche render RUN_DIR`: a PNG per particle frame of a finished run (render/frame_NNNNNN.png),
// the two previews, and render/movie.mp4 when ffmpeg is installed. Frames are rendered in
// parallel, one per thread.
#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "body_frames.hpp"
#include "commands.hpp"
#include "external_tools.hpp"
#include "progress.hpp"
#include "run_dir.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/parallel.hpp"
#include "seiche/render.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

int render_command(const RenderOptions& o) {
    const fs::path dir = o.run_dir;
    if (!fs::exists(dir / "scene.json")) {
        std::fprintf(stderr, "seiche render: %s is not a run directory (no scene.json)\n",
                     dir.c_str());
        return 2;
    }
    std::vector<std::string> overrides = o.overrides;
    if (!o.color_by.empty()) overrides.push_back("render.color_by=\"" + o.color_by + "\"");
    std::optional<Scene> scene =
        load_scene_or_report((dir / "scene.json").string(), overrides, "", 0.0);
    if (!scene) return 2;
    set_thread_count(o.threads);
    try {
        const std::vector<io::PvdEntry> frames = run_frames(dir, scene->time.frame_rate);
        if (frames.empty()) {
            std::fprintf(stderr, "seiche render: no particle frames in %s\n", dir.c_str());
            return 2;
        }
        // The bodies' outlines at each frame, from bodies.csv (frames and rows share the time).
        const auto poses = read_body_poses(dir / "bodies.csv");
        auto outlines = [&](double time, io::FrameData& f) {
            auto it = poses.lower_bound(time - 1e-9 * std::max(1.0, time));
            if (it == poses.end() || std::abs(it->first - time) > 1e-9 * std::max(1.0, time)) return;
            if (scene->dimension == 2)
                append_body_outlines<2>(*scene, it->second, f.solid_edges);
            else
                append_body_outlines<3>(*scene, it->second, f.solid_edges);
        };
        clear_pictures(dir);
        fs::create_directories(dir / "render");
        const bool tty = isatty(fileno(stderr)) != 0;
        const auto t0 = std::chrono::steady_clock::now();
        auto wall = [&] { return seconds_since(t0); };
        std::atomic<std::size_t> done{0};
        std::mutex report;
        std::string error;
        const long count = long(frames.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count())
        for (long k = 0; k < count; ++k) {
            try {
                io::FrameData f = io::read_frame(dir / frames[k].file);
                outlines(frames[k].time, f);
                const render::Image image =
                    render::render_frame(f, *scene, frame_caption(*scene, frames[k].time));
                render::write_png(picture_path(dir, int(k)), image);
                if (k == 0) render::write_png(dir / "preview_first.png", image);
                if (k == count - 1) render::write_png(dir / "preview_last.png", image);
            } catch (const std::exception& e) {
                const std::lock_guard<std::mutex> lock(report);
                if (error.empty()) error = e.what();
            }
            const std::size_t n = ++done;
            if (o.quiet) continue;
            const std::lock_guard<std::mutex> lock(report);
            const double w = wall();
            const std::string line =
                fmt::format("render frame {}/{}  {:.1f} frames/s  elapsed {}  ETA {}", n, count,
                            n / w, format_duration(w), format_duration(w / n * (count - n)));
            std::fprintf(stderr, tty ? "\r\033[K%s" : "%s\n", line.c_str());
        }
        if (tty && !o.quiet) std::fprintf(stderr, "\r\033[K");
        if (!error.empty()) throw std::runtime_error(error);
        const double w = wall();
        std::printf("%s: %ld frames rendered in %s (%.1f ms per frame, %d threads, %dx%d)\n",
                    dir.c_str(), count, format_duration(w).c_str(), 1e3 * w / count, thread_count(),
                    scene->render.width, scene->render.height);
        std::printf("  pictures  %s/frame_NNNNNN.png, preview_first.png, preview_last.png\n",
                    (dir / "render").c_str());
        if (!o.no_movie) {
            std::string why;
            const auto movie = make_movie(dir, scene->time.frame_rate, &why);
            std::printf("  movie     %s\n", movie ? movie->c_str() : why.c_str());
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche render: %s\n", e.what());
        return 1;
    }
}

}  // namespace seiche::app
