// Obstacles: solid boxes inside the container with Akinci boundary particles on their faces.
// Sampling stays inside the solid and hollow, fluid resting on an obstacle sees the density it
// sees on the floor, particles are pushed out through the nearest face, no particle ends inside
// a solid in a dam break against one, and bad obstacles are refused with their path.
#include <gtest/gtest.h>

#include "scene_helpers.hpp"
#include "seiche/boundary.hpp"
#include "seiche/scene.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

TEST(Obstacles, SolidBoxSamplingIsInsideAndHollow) {
    const float d = 0.02f;
    const WallSampling s = WallSampling::for_kernel(KernelType::cubic_spline, d);
    const Box<3> solid{{0.0f, 0.0f, 0.0f}, {0.3f, 0.2f, 0.4f}};
    const Boundary<3> b = sample_solid_box<3>(solid, s);
    ASSERT_GT(b.x.size(), 0u);
    const float deepest = s.offset + (s.layers - 1) * d * 1.1f;
    for (const auto& p : b.x) {
        float depth = 1e9f;  // distance to the nearest face
        for (int a = 0; a < 3; ++a) {
            EXPECT_GE(p[a], solid.min[a] + s.offset * 0.999f);
            EXPECT_LE(p[a], solid.max[a] - s.offset * 0.999f);
            depth = std::min({depth, p[a] - solid.min[a], solid.max[a] - p[a]});
        }
        EXPECT_LE(depth, deepest) << "a particle deep inside the solid";
    }
    // Every face is covered: the count is that of two shells of the inner lattice.
    auto count = [&](float lo, float hi) { return std::lround((hi - lo - 2 * s.offset) / d) + 1; };
    const long nx = count(0, 0.3f), ny = count(0, 0.2f), nz = count(0, 0.4f);
    EXPECT_EQ(long(b.x.size()), nx * ny * nz - (nx - 4) * (ny - 4) * (nz - 4));
}

TEST(Obstacles, PushOutThroughTheNearestFace) {
    std::vector<Vec<2>> x = {{0.45f, 0.5f}, {0.5f, 0.97f}, {2.0f, 2.0f}};
    const std::vector<Box<2>> solids = {{{0.4f, 0.0f}, {0.6f, 1.0f}}};
    collide_with_box<2>(x, Box<2>{{-10.0f, -10.0f}, {10.0f, 10.0f}}, solids);
    EXPECT_FLOAT_EQ(x[0].x, 0.4f);  // nearest: the left face
    EXPECT_FLOAT_EQ(x[0].y, 0.5f);
    EXPECT_FLOAT_EQ(x[1].y, 1.0f);  // nearest: the top
    EXPECT_FLOAT_EQ(x[1].x, 0.5f);
    EXPECT_FLOAT_EQ(x[2].x, 2.0f);  // outside: untouched
    std::vector<Vec<2>> y = {{0.5f, 0.5f}};
    EXPECT_EQ(contain<2>(y, Box<2>{{-10.0f, -10.0f}, {10.0f, 10.0f}}, 0.001f, solids), 1u);
    EXPECT_NEAR(y[0].x, 0.4f - 0.001f, 1e-6);
}

// Fluid on top of a full-width obstacle (a raised floor) against fluid on the floor itself.
TEST(Obstacles, FluidOnAnObstacleSeesTheDensityOfTheFloor) {
    auto bottom_row_density = [](double floor, bool obstacle) {
        Scene s;
        s.dimension = 2;
        s.particle_radius = 0.005;
        s.container_min = {0, 0, 0};
        s.container_max = {0.4, 0.4, 0};
        s.fluid.push_back({{0, floor, 0}, {0.4, floor + 0.1, 0}, {0, 0, 0}});
        if (obstacle) s.obstacles.push_back({{0.1, 0, 0}, {0.3, floor, 0}});
        World<2> w(s);
        w.refresh_density();
        double sum = 0;
        int n = 0;
        for (std::size_t i = 0; i < w.particles().size(); ++i) {
            const auto& p = w.particles().x[i];
            if (p.y < floor + 0.006 && p.x > 0.15 && p.x < 0.25) sum += w.particles().rho[i], ++n;
        }
        EXPECT_GT(n, 5);
        return sum / n;
    };
    const double on_floor = bottom_row_density(0.0, false);
    const double on_obstacle = bottom_row_density(0.1, true);
    EXPECT_NEAR(on_obstacle / on_floor, 1.0, 0.005);
    EXPECT_NEAR(on_obstacle / 1000.0, 1.0, 0.03);
}

TEST(Obstacles, DamBreakAgainstABoxNeverEntersIt) {
    for (SolverType solver : solver_types) {
        Scene s;
        s.dimension = 2;
        s.particle_radius = 0.005;
        s.container_min = {0, 0, 0};
        s.container_max = {0.8, 0.5, 0};
        s.fluid.push_back({{0, 0, 0}, {0.2, 0.3, 0}, {0, 0, 0}});
        s.obstacles.push_back({{0.4, 0, 0}, {0.45, 0.08, 0}});
        s.solver.type = solver;
        s.solver.xsph = default_xsph(solver);
        World<2> w(s);
        double reached = 0;
        while (w.time() < 0.4) {
            const StepStats st = w.step(w.suggested_dt());
            ASSERT_FALSE(st.instability) << solver_name(solver);
            for (const auto& p : w.particles().x) {
                ASSERT_FALSE(p.x > 0.4f && p.x < 0.45f && p.y < 0.08f)
                    << solver_name(solver) << ": particle inside the box at t = " << w.time();
                reached = std::max(reached, double(p.x));
            }
        }
        EXPECT_GT(reached, 0.45) << solver_name(solver) << ": the water went over the box";
    }
}

TEST(Obstacles, BadObstaclesAreRefusedWithTheirPath) {
    auto error = [](const std::string& o) {
        return test::scene_error("scenes/dam_break_2d.json", o);
    };
    EXPECT_EQ(error("obstacles=[{\"min\":[0.8,0],\"max\":[0.9,0.1]}]"), "accepted");
    EXPECT_NE(error("obstacles=[{\"min\":[0.8,0],\"max\":[1.9,0.1]}]").find("obstacles[0]"),
              std::string::npos);
    EXPECT_NE(error("obstacles=[{\"min\":[0.3,0],\"max\":[0.5,0.1]}]").find("overlaps fluid[0]"),
              std::string::npos);
    EXPECT_NE(error("obstacles=[{\"min\":[0.8,0],\"max\":[0.805,0.1]}]").find("thinner"),
              std::string::npos);
    EXPECT_NE(
        error("obstacles=[{\"min\":[0.8,0],\"max\":[0.9,0.1],\"mx\":1}]").find("obstacles[0].mx"),
        std::string::npos);
    EXPECT_NE(error("obstacles={}").find("obstacles"), std::string::npos);
}

}  // namespace
}  // namespace seiche
