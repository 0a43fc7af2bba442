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

// fluid[i].rest_gap: a column seeded where the walls read its bulk's density starts at rest
// in zero gravity, with every solver; at d/2 the walls' 1.5% excess throws it off them.
TEST(RestGap, AColumnAgainstTheWallsStartsAtRest) {
    for (SolverType solver : solver_types) {
        auto kinetic_after = [&](bool rest_gap, double* first_row) {
            Scene s;
            s.dimension = 2;
            s.particle_radius = 0.00146;
            s.container_min = {0, 0, 0};
            s.container_max = {0.584, 0.35, 0};
            s.gravity = {0, 0, 0};
            s.fluid.push_back({{0, 0, 0}, {0.146, 0.146, 0}, {0, 0, 0}, rest_gap});
            s.solver.type = solver;
            World<2> w(s);
            w.refresh_density();
            // The floor's row, away from the corner and the free surface's rows.
            double sum = 0, bulk = 0;
            int n = 0, m = 0;
            const auto& p = w.particles();
            for (std::size_t i = 0; i < p.size(); ++i) {
                if (p.x[i].x < 0.02f || p.x[i].x > 0.12f) continue;
                if (p.x[i].y < 0.002f) sum += p.rho[i], ++n;
                if (p.x[i].y > 0.05f && p.x[i].y < 0.09f) bulk += p.rho[i], ++m;
            }
            EXPECT_GT(n, 20);
            *first_row = (sum / n) / (bulk / m);
            for (int k = 0; k < 20; ++k) w.step(0.0002);
            return w.kinetic_energy();
        };
        double at_half = 0, at_gap = 0;
        const double thrown = kinetic_after(false, &at_half), still = kinetic_after(true, &at_gap);
        std::printf("%s: floor row / bulk %.4f at d/2, %.5f at the gap; kinetic energy after 4 ms "
                    "%.2e and %.2e J/m\n",
                    std::string(solver_name(solver)).c_str(), at_half, at_gap, thrown, still);
        if (solver == SolverType::ddr) {  // its own walls read ρ0 at d/2: the same column
            EXPECT_EQ(thrown, still);
            continue;
        }
        EXPECT_NEAR(at_gap, 1.0, 3e-4) << solver_name(solver);
        EXPECT_GT(at_half, 1.01) << solver_name(solver);
        EXPECT_LT(still, 1e-7) << solver_name(solver);  // 21 kg/m at 0.1 mm/s
        EXPECT_GT(thrown, 1e3 * still) << solver_name(solver);
    }
}

// The gap moves a block off the walls it rests on, not towards another block it touches (the
// lattice goes on across), nor along an axis where it fills the container (no room for both
// gaps), nor by more than the gap's own excess over d/2.
TEST(RestGap, OnlyOffTheWallsABlockRestsOn) {
    Scene s;
    s.dimension = 2;
    s.particle_radius = 0.005;
    s.container_min = {0, 0, 0};
    s.container_max = {1.0, 0.5, 0};
    s.fluid.push_back({{0, 0, 0}, {0.4, 0.2, 0}, {0, 0, 0}, true});      // a column
    s.fluid.push_back({{0.4, 0, 0}, {1.0, 0.05, 0}, {0, 0, 0}, true});   // beside a wet bed
    s.fluid.push_back({{0.5, 0.3, 0}, {0.6, 0.4, 0}, {0, 0, 0}, true});  // in the air
    s.obstacles.push_back({{0.8, 0.1, 0}, {1.0, 0.15, 0}});
    s.fluid.push_back({{0.8, 0.15, 0}, {1.0, 0.25, 0}, {0, 0, 0}, true});  // on the obstacle
    const World<2> w(s);
    const auto& p = w.particles();
    ASSERT_EQ(p.size(), 1400u);
    const float d = 0.01f;
    std::array<Vec<2>, 4> lo, hi;
    lo.fill(Vec<2>(1e9f));
    hi.fill(Vec<2>(-1e9f));
    for (std::size_t k = 0; k < p.size(); ++k) {
        const std::uint32_t id = p.id[k];
        const int b = id < 800 ? 0 : id < 1100 ? 1 : id < 1200 ? 2 : 3;
        lo[b] = glm::min(lo[b], p.x[k]);
        hi[b] = glm::max(hi[b], p.x[k]);
    }
    const float shift = lo[0].y - 0.5f * d;  // the column off the floor
    EXPECT_GT(shift, 0.01f * d);
    EXPECT_LT(shift, 0.05f * d);
    EXPECT_NEAR(lo[0].x, 0.5f * d, 1e-6f);  // not off the left wall: the wet bed holds it
    EXPECT_NEAR(lo[1].y - 0.5f * d, shift, 1e-6f);  // the wet bed off the floor,
    EXPECT_NEAR(lo[1].x, 0.4f + 0.5f * d, 1e-6f);   // not towards the column,
    EXPECT_NEAR(hi[1].x, 1.0f - 0.5f * d, 1e-6f);   // so not off the right wall either
    EXPECT_NEAR(lo[2].x, 0.5f + 0.5f * d, 1e-6f);   // in the air: where the lattice fills it
    EXPECT_NEAR(lo[2].y, 0.3f + 0.5f * d, 1e-6f);
    EXPECT_NEAR(lo[3].y - 0.15f - 0.5f * d, shift, 1e-6f);  // off the obstacle's top
    EXPECT_NEAR(1.0f - 0.5f * d - hi[3].x, shift, 1e-6f);   // and off the right wall
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
