// `seiche render RUN_DIR`: a PNG per particle frame of a finished run (render/frame_NNNNNN.png),
// the two previews, and render/movie.mp4 when ffmpeg is installed. Frames are rendered in
// parallel, one per thread.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "commands.hpp"
#include "run/external_tools.hpp"
#include "progress.hpp"
#include "run/run_dir.hpp"
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
        clear_pictures(dir);
        const auto t0 = std::chrono::steady_clock::now();
        auto wall = [&] { return seconds_since(t0); };
        const long count = long(frames.size());
        PictureProgressLine line(o.quiet);
        const auto range = render_run_pictures(dir, *scene, frames, std::ref(line));
        line.finish();
        const double w = wall();
        std::printf("%s: %ld frames rendered in %s (%.1f ms per frame, %d threads, %dx%d)\n",
                    dir.c_str(), count, format_duration(w).c_str(), 1e3 * w / count, thread_count(),
                    scene->render.width, scene->render.height);
        std::printf("  pictures  %s/frame_NNNNNN.png, preview_first.png, preview_last.png\n",
                    (dir / "render").c_str());
        std::printf("  colours   %s from %.4g to %.4g %s%s\n",
                    scene->render.color_by == RenderParams::Color::density ? "density" : "speed",
                    range[0], range[1],
                    scene->render.color_by == RenderParams::Color::density ? "kg/m³" : "m/s",
                    scene->render.range_max > scene->render.range_min
                        ? " (render.range)"
                        : scene->render.color_by == RenderParams::Color::speed
                              ? " (all but the fastest 0.5% of every frame)"
                              : "");
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
