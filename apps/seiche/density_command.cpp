// `seiche density FRAME`: the density error of a particle frame, measured as seiche measures its
// own steps (mean and largest max(0, ρ/ρ0 − 1) over the fluid particles, with the Akinci 2012
// boundary term of the scene's container and obstacles), so that frames of other codes (the
// legacy .vtk SPlisHSPlasH exports) and seiche's own are compared on equal terms (issue 15).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <optional>

#include "commands.hpp"
#include "run/run_dir.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/parallel.hpp"
#include "seiche/pbf.hpp"
#include "seiche/world.hpp"

namespace seiche::app {

namespace fs = std::filesystem;

namespace {

template <int D>
int measure(const Scene& scene, const io::FrameData& f, const fs::path& frame, double mass) {
    World<D> world(scene);
    const std::size_t n = f.position.size() / 3;
    if (n != world.particles().size()) {
        std::fprintf(stderr,
                     "seiche density: %s has %zu particles, the scene %zu (the measure needs the "
                     "scene the frame was made from: same particle radius and count)\n",
                     frame.c_str(), n, world.particles().size());
        return 2;
    }
    std::vector<Vec<D>> x(n);
    for (std::size_t i = 0; i < n; ++i)
        for (int a = 0; a < D; ++a) x[i][a] = f.position[3 * i + a];
    try {
        world.set_positions(x);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr,
                     "seiche density: %s: %s (the measure needs the scene the frame was made "
                     "from: its container)\n",
                     frame.c_str(), e.what());
        return 2;
    }
    world.refresh_density(float(mass));
    double mean = 0, max = 0;
    density_error_stats(world.particles().rho, float(scene.rest_density), mean, max);
    std::printf("%s: %zu fluid particles, %zu boundary particles (scene %s)\n", frame.c_str(), n,
                world.boundary().x.size(), scene.name.c_str());
    if (mass > 0)
        std::printf("  particle mass  %.6g kg (given; seiche's for this scene: %.6g kg)\n", mass,
                    double(world.particles().mass));
    else
        std::printf("  particle mass  %.6g kg (seiche's for this scene)\n",
                    double(world.particles().mass));
    std::printf("  density error  mean %.4f%%, max %.4f%%  (max(0, rho/rho0 - 1) over the fluid "
                "particles, rho0 = %g kg/m3)\n",
                100 * mean, 100 * max, scene.rest_density);
    // The same away from the container's walls (farther than h from every face), where the
    // boundary model plays no part: another code's particles may rest closer to a wall than
    // seiche's boundary particles allow, which the figure above counts as compression.
    const ParticleSet<D>& p = world.particles();
    const Box<D>& box = world.container();
    const float h = world.support_radius();
    std::vector<float> inner;
    for (std::size_t i = 0; i < p.size(); ++i) {
        bool far = true;
        for (int a = 0; a < D; ++a)
            far = far && p.x[i][a] - box.min[a] >= h && box.max[a] - p.x[i][a] >= h;
        if (far) inner.push_back(p.rho[i]);
    }
    density_error_stats(inner, float(scene.rest_density), mean, max);
    std::printf("  away from the walls (%zu particles farther than h = %g m from the container): "
                "mean %.4f%%, max %.4f%%\n",
                inner.size(), double(h), 100 * mean, 100 * max);
    // The error above counts compression alone, so a fluid held apart (expanded) reads as exact;
    // its density shows it: the median and the lowest tenth away from the walls (splashes and
    // the free surface read low whatever the solver).
    if (!inner.empty()) {
        const auto quantile = [&](double q) {
            const auto at = inner.begin() + std::ptrdiff_t(q * double(inner.size() - 1));
            std::nth_element(inner.begin(), at, inner.end());
            return double(*at) / scene.rest_density;
        };
        const double tenth = quantile(0.1), median = quantile(0.5);
        std::printf("  rho/rho0 away from the walls: median %.5f, 10th percentile %.5f (an expanded "
                    "fluid reads below 1 here and no error above)\n",
                    median, tenth);
    }
    return 0;
}

}  // namespace

int density_command(const DensityOptions& o) {
    const fs::path frame = o.frame;
    const std::optional<Scene> scene = scene_of_frame(frame, o.scene, o.overrides, "density");
    if (!scene) return 2;
    set_thread_count(o.threads);
    try {
        const io::FrameData f = io::read_frame(frame);
        return scene->dimension == 2 ? measure<2>(*scene, f, frame, o.mass)
                                     : measure<3>(*scene, f, frame, o.mass);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche density: %s\n", e.what());
        return 1;
    }
}

}  // namespace seiche::app
