// `seiche mesh RUN_DIR`: surface meshes for every particle frame of a finished run.
// `seiche bench-mesh FRAME`: times the reconstruction of one frame.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "commands.hpp"
#include "progress.hpp"
#include "run/run_dir.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/parallel.hpp"
#include "run/surface_output.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

namespace {

using clock_type = std::chrono::steady_clock;

// x y z per particle as the world's vectors.
template <int D>
std::vector<Vec<D>> vectors(const std::vector<float>& xyz) {
    std::vector<Vec<D>> x(xyz.size() / 3);
    for (std::size_t i = 0; i < x.size(); ++i)
        for (int a = 0; a < D; ++a) x[i][a] = xyz[3 * i + a];
    return x;
}

// The surface of a frame, with the fluid's velocity at its vertices when the frame has velocities.
template <int D>
SurfaceMesh mesh_of(const io::FrameData& f, const Scene& s, SurfaceStats* stats) {
    const float r = float(s.particle_radius);
    const std::vector<Vec<D>> x = vectors<D>(f.position);
    SurfaceMesh m = reconstruct_surface<D>(x, r, s.surface, stats);
    if (f.velocity.size() == f.position.size())
        interpolate_velocity<D>(m, x, vectors<D>(f.velocity), r, s.surface);
    return m;
}

SurfaceMesh mesh_frame(const io::FrameData& f, const Scene& s, SurfaceStats* stats = nullptr) {
    return s.dimension == 2 ? mesh_of<2>(f, s, stats) : mesh_of<3>(f, s, stats);
}

}  // namespace

int mesh_command(const MeshOptions& o) {
    const fs::path dir = o.run_dir;
    if (!fs::exists(dir / "scene.json")) {
        std::fprintf(stderr, "seiche mesh: %s is not a run directory (no scene.json)\n",
                     dir.c_str());
        return 2;
    }
    std::optional<Scene> scene =
        load_scene_or_report((dir / "scene.json").string(), o.overrides, "", 0.0);
    if (!scene) return 2;
    set_thread_count(o.threads);
    try {
        const std::vector<io::PvdEntry> frames = run_frames(dir, scene->time.frame_rate);
        if (frames.empty()) {
            std::fprintf(stderr, "seiche mesh: no particle frames in %s\n", dir.c_str());
            return 2;
        }
        SurfaceOutput out(*scene, dir);
        const bool tty = isatty(fileno(stderr)) != 0;
        const auto t0 = clock_type::now();
        std::size_t particles = 0, faces = 0;
        for (std::size_t k = 0; k < frames.size(); ++k) {
            const io::FrameData f = io::read_frame(dir / frames[k].file);
            const SurfaceMesh mesh = mesh_frame(f, *scene);
            out.write(int(k), frames[k].time, mesh);
            particles += f.position.size() / 3;
            faces += mesh.face_count();
            if (o.quiet) continue;
            const double wall = seconds_since(t0);
            const double eta = wall / double(k + 1) * double(frames.size() - k - 1);
            const std::string line = fmt::format(
                "mesh frame {}/{}  t = {:.3f} s  {} {}  elapsed {}  ETA {}", k + 1, frames.size(),
                frames[k].time, mesh.face_count(), scene->dimension == 3 ? "triangles" : "segments",
                format_duration(wall), format_duration(eta));
            if (tty)
                std::fprintf(stderr, "\r\033[K%s", line.c_str());
            else
                std::fprintf(stderr, "%s\n", line.c_str());
        }
        if (tty && !o.quiet) std::fprintf(stderr, "\r\033[K");
        const double wall = seconds_since(t0);
        std::printf("%s: %zu frames meshed in %s (%.1f ms per frame, %d threads)\n", dir.c_str(),
                    frames.size(), format_duration(wall).c_str(), 1e3 * wall / frames.size(),
                    thread_count());
        std::printf("  %.0f %s per frame on average, %.2f µs of core time per particle\n",
                    double(faces) / frames.size(), scene->dimension == 3 ? "triangles" : "segments",
                    particles ? 1e6 * wall * thread_count() / double(particles) : 0.0);
        const std::string ext =
            mesh_extensions(scene->output, scene->output.vdb && scene->dimension == 3);
        std::printf("  output  %s\n", (dir / "frames" / ("surface_NNNNNN" + ext)).c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche mesh: %s\n", e.what());
        return 1;
    }
}

int bench_mesh_command(const BenchMeshOptions& o) {
    const fs::path frame = o.frame;
    const std::optional<Scene> scene = scene_of_frame(frame, o.scene, o.overrides, "bench-mesh");
    if (!scene) return 2;
    set_thread_count(o.threads);
    try {
        const io::FrameData f = io::read_frame(frame);
        const std::size_t n = f.position.size() / 3;
        std::vector<double> ms;
        SurfaceMesh mesh;
        SurfaceStats stats;
        for (int k = 0; k < o.repeat; ++k) {
            const auto t0 = clock_type::now();
            mesh = mesh_frame(f, *scene, &stats);
            ms.push_back(1e3 * seconds_since(t0));
        }
        std::sort(ms.begin(), ms.end());
        const double median = ms[ms.size() / 2];
        const double core_us = 1e3 * median * thread_count() / double(std::max<std::size_t>(n, 1));
        std::printf("frame          %s\n", frame.c_str());
        std::printf("particles      %zu (radius %g m, %dD)\n", n, scene->particle_radius,
                    scene->dimension);
        std::printf(
            "grid           cell %g r, %zu blocks, %zu deep inside (skipped), %zu field "
            "values\n",
            scene->surface.cell_size, stats.blocks, stats.interior_blocks, stats.field_vertices);
        std::printf("mesh           %zu vertices, %zu %s\n", mesh.vertex_count(), mesh.face_count(),
                    scene->dimension == 3 ? "triangles" : "segments");
        std::printf("time           %.1f ms median of %d (min %.1f, max %.1f), %d threads\n",
                    median, o.repeat, ms.front(), ms.back(), thread_count());
        std::printf(
            "core time      %.3f µs per particle (splashsurf's published figure: about 3 "
            "µs; ratio %.2f)\n",
            core_us, core_us / 3.0);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche bench-mesh: %s\n", e.what());
        return 1;
    }
}

}  // namespace seiche::app
