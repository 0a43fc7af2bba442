// Density at rest: inside a block, and next to a wall with Akinci boundary particles.
#include <gtest/gtest.h>

#include "seiche/scene.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

Scene block_scene(int dim, double r, Vec3d cmin, Vec3d cmax, Vec3d fmin, Vec3d fmax) {
    Scene s;
    s.dimension = dim;
    s.particle_radius = r;
    s.container_min = cmin;
    s.container_max = cmax;
    s.fluid.push_back({fmin, fmax, {0, 0, 0}});
    return s;
}

template <int D>
std::size_t nearest(const World<D>& w, Vec<D> p) {
    std::size_t best = 0;
    float bd = 1e30f;
    for (std::size_t i = 0; i < w.particles().size(); ++i) {
        const float d = glm::length(w.particles().x[i] - p);
        if (d < bd) bd = d, best = i;
    }
    return best;
}

TEST(Density, InteriorParticleAtRest3D) {
    // Block far from every wall: only fluid neighbours.
    Scene s = block_scene(3, 0.01, {-1, -1, -1}, {1, 1, 1}, {0, 0, 0}, {0.2, 0.2, 0.2});
    for (KernelType k : {KernelType::cubic_spline, KernelType::poly6_spiky, KernelType::wendland_c2}) {
        s.kernel = k;
        s.support_factor = k == KernelType::wendland_c2 ? 5 : 4;
        World<3> w(s);
        w.refresh_density();
        const std::size_t i = nearest<3>(w, Vec<3>(0.1f));
        EXPECT_NEAR(w.particles().rho[i] / 1000.0, 1.0, 0.01) << kernel_name(k);
        // The mass is the physical ρ0·d³ up to the kernel's lattice error.
        EXPECT_NEAR(w.particles().mass / (1000.0 * std::pow(0.02, 3)), 1.0, 0.02);
        // A corner particle has far fewer neighbours: clearly under-dense.
        const std::size_t c = nearest<3>(w, Vec<3>(0.0f));
        EXPECT_LT(w.particles().rho[c], 0.75 * 1000.0);
    }
}

TEST(Density, InteriorParticleAtRest2D) {
    Scene s = block_scene(2, 0.01, {-1, -1, 0}, {1, 1, 0}, {0, 0, 0}, {0.3, 0.3, 0});
    s.gravity = {0, -9.81, 0};
    for (KernelType k : {KernelType::cubic_spline, KernelType::poly6_spiky, KernelType::wendland_c2}) {
        s.kernel = k;
        s.support_factor = k == KernelType::wendland_c2 ? 5 : 4;
        World<2> w(s);
        w.refresh_density();
        EXPECT_NEAR(w.particles().rho[nearest<2>(w, Vec<2>(0.15f))] / 1000.0, 1.0, 0.01);
    }
}

template <int D>
void check_wall(const Scene& s, Vec<D> probe, double tolerance) {
    World<D> w(s);
    w.refresh_density();
    const std::size_t i = nearest<D>(w, probe);
    EXPECT_NEAR(w.particles().rho[i] / 1000.0, 1.0, tolerance)
        << kernel_name(s.kernel) << " D=" << D << " particle at " << w.particles().x[i][0] << ", "
        << w.particles().x[i][1];
}

TEST(Density, NextToWallWithBoundaryParticles) {
    // Fluid fills the bottom of the container: the first row rests half a spacing above the floor.
    for (KernelType k : {KernelType::cubic_spline, KernelType::poly6_spiky, KernelType::wendland_c2}) {
        const double support = k == KernelType::wendland_c2 ? 5 : 4;
        Scene s3 = block_scene(3, 0.01, {0, 0, 0}, {0.3, 0.3, 0.3}, {0, 0, 0}, {0.3, 0.2, 0.3});
        s3.gravity = {0, -9.81, 0};
        s3.kernel = k;
        s3.support_factor = support;
        // 3% next to a wall, and along an edge where two walls meet.
        const double wall = 0.03;
        check_wall<3>(s3, Vec<3>(0.15f, 0.0f, 0.15f), wall);
        check_wall<3>(s3, Vec<3>(0.0f, 0.0f, 0.15f), wall);
        Scene s2 = block_scene(2, 0.01, {0, 0, 0}, {0.4, 0.4, 0}, {0, 0, 0}, {0.4, 0.2, 0});
        s2.kernel = k;
        s2.support_factor = support;
        check_wall<2>(s2, Vec<2>(0.2f, 0.0f), wall);
        check_wall<2>(s2, Vec<2>(0.0f, 0.0f), wall);
    }
}

TEST(Density, BoundaryVolumesArePositiveAndFinite) {
    Scene s = block_scene(3, 0.02, {0, 0, 0}, {0.4, 0.3, 0.2}, {0, 0, 0}, {0.1, 0.1, 0.1});
    World<3> w(s);
    ASSERT_GT(w.boundary().x.size(), 0u);
    for (float v : w.boundary().volume) {
        EXPECT_GT(v, 0.0f);
        EXPECT_TRUE(std::isfinite(v));
    }
    // No boundary particle inside the container.
    for (const auto& x : w.boundary().x) {
        bool outside = false;
        for (int a = 0; a < 3; ++a)
            outside = outside || x[a] < w.container().min[a] || x[a] > w.container().max[a];
        EXPECT_TRUE(outside);
    }
}

}  // namespace
}  // namespace seiche
