// Live changes: each setter acts from the next step, is validated like the file, and leaves the
// world unchanged when refused.
#include <gtest/gtest.h>

#include <cmath>

#include "seiche/world.hpp"

namespace seiche {
namespace {

WorldDef tank() {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.01;
    def.container_max = {0.6, 0.6, 0};
    def.fluid.push_back({{0, 0, 0}, {0.3, 0.2, 0}, {0, 0, 0}});
    return def;
}

// A block in free fall, far from every wall, for checks of the external acceleration.
WorldDef falling_block() {
    WorldDef def = tank();
    def.container_max = {2, 2, 0};
    def.fluid[0] = {{0.9, 1.2, 0}, {1.1, 1.4, 0}, {0, 0, 0}};
    def.solver.xsph = 0;  // XSPH is not momentum-conserving at a free surface
    return def;
}

Vec<2> mean_velocity(const World<2>& w) {
    Vec<2> m(0.0f);
    for (const auto& v : w.particles().v) m += v;
    return m / float(w.particles().size());
}

TEST(LiveChanges, GravityActsFromTheNextStep) {
    World<2> w(falling_block());
    // Velocities are position differences over dt in float: about 1e-3 relative at x ~ 1 m.
    for (int k = 0; k < 10; ++k) w.step(0.001);
    const float vy = mean_velocity(w).y;
    EXPECT_NEAR(vy, -9.81 * 0.010, 5e-4);
    w.set_gravity({3.0, 0.0, 0.0});  // sideways from now on
    for (int k = 0; k < 10; ++k) w.step(0.001);
    EXPECT_NEAR(mean_velocity(w).y, vy, 5e-4);  // no more fall
    EXPECT_NEAR(mean_velocity(w).x, 3.0 * 0.010, 5e-4);
    EXPECT_DOUBLE_EQ(w.definition().gravity[0], 3.0);
}

TEST(LiveChanges, PbfIterationsAndTolerance) {
    World<2> w(tank());
    for (int k = 0; k < 20; ++k) w.step(0.002);
    w.set_pbf_iterations(1, 1);
    EXPECT_EQ(w.step(0.002).iterations, 1);
    w.set_pbf_iterations(7, 30);
    EXPECT_GE(w.step(0.002).iterations, 7);
    w.set("solver.pbf.density_tolerance", 1e-7);  // unreachable: every step uses all 9
    w.set("solver.pbf.max_iterations", 9.0);
    EXPECT_EQ(w.step(0.002).iterations, 9);
}

TEST(LiveChanges, SwitchingTheSolverRestartsItOnTheSameParticles) {
    World<2> w(tank());
    for (int k = 0; k < 20; ++k) w.step(0.002);
    const std::size_t n = w.particles().size();
    const double pbf_dt = w.suggested_dt();
    EXPECT_TRUE(w.pressure().empty());
    w.set_solver(SolverType::wcsph);
    EXPECT_TRUE(std::holds_alternative<Wcsph<2>>(w.solver()));
    EXPECT_LT(w.suggested_dt(), 0.5 * pbf_dt);  // WCSPH resolves its sound waves
    for (int k = 0; k < 50; ++k) ASSERT_FALSE(w.step(w.suggested_dt()).instability);
    EXPECT_EQ(w.particles().size(), n);
    ASSERT_EQ(w.pressure().size(), n);
    float p_max = 0;
    for (float p : w.pressure()) p_max = std::max(p_max, p);
    EXPECT_GT(p_max, 0.5f * 1000 * 9.81f * 0.2f);  // ρgH at the floor, give or take
    w.set("solver.type", std::string("ddr"));
    EXPECT_TRUE(std::holds_alternative<Ddr<2>>(w.solver()));
    EXPECT_FALSE(w.step(w.suggested_dt()).instability);
}

TEST(LiveChanges, XsphAndVorticityChangeTheVelocities) {
    // A sheared pair of blocks: XSPH pulls neighbour velocities together.
    WorldDef def = falling_block();
    def.gravity = {0, 0, 0};
    def.fluid[0].velocity = {0.5, 0, 0};
    def.fluid.push_back({{0.9, 1.4, 0}, {1.1, 1.6, 0}, {-0.5, 0, 0}});  // the other half moves back
    auto spread = [](const World<2>& w) {
        double s = 0;
        for (const auto& v : w.particles().v) s += std::abs(v.x);
        return s / double(w.particles().size());
    };
    World<2> a(def), b(def);
    b.set_xsph(0.5);
    for (int k = 0; k < 5; ++k) a.step(0.001), b.step(0.001);
    EXPECT_LT(spread(b), spread(a) - 0.005);
    World<2> c(def);
    c.set_vorticity(50.0);
    for (int k = 0; k < 5; ++k) c.step(0.001);
    EXPECT_GT(std::abs(c.kinetic_energy() - a.kinetic_energy()), 1e-6);
}

TEST(LiveChanges, TimeStepLimits) {
    World<2> w(tank());
    w.set("time.max_dt", 1e-4);
    EXPECT_LE(w.suggested_dt(), 1e-4);
    w.set("time.dt_mode", std::string("fixed"));
    w.set("time.dt", 3e-4);
    EXPECT_DOUBLE_EQ(w.suggested_dt(), 3e-4);
}

// Velocities set in creation order land on the particle of that id, whatever the storage order
// (the Z-curve reorder moves them); a wrong count or a NaN is refused and changes nothing.
TEST(LiveChanges, SetVelocitiesInCreationOrder) {
    World<2> w(falling_block());
    w.advance_to(0.05);  // reordered by now
    const std::size_t n = w.particles().size();
    std::vector<Vec<2>> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = Vec<2>(float(k), -float(k));
    w.set_velocities(v);
    for (std::size_t i = 0; i < n; ++i) {
        const float id = float(w.particles().id[i]);
        EXPECT_EQ(w.particles().v[i], Vec<2>(id, -id)) << i;
    }
    const auto before = w.particles().v;
    v.pop_back();
    EXPECT_THROW(w.set_velocities(v), std::invalid_argument);
    v.push_back(Vec<2>(NAN, 0.0f));
    EXPECT_THROW(w.set_velocities(v), std::invalid_argument);
    EXPECT_EQ(w.particles().v, before);
}

// The walls' adhesion is live (the viewer's slider): from the next step the fluid resting on the
// floor is drawn towards it, in zero gravity, where nothing else pulls.
TEST(LiveChanges, ContainerAdhesionActsFromTheNextStep) {
    WorldDef def = tank();
    def.gravity = {0, 0, 0};
    World<2> still(def), sticky(def);
    sticky.set("container.adhesion", 50.0);
    EXPECT_EQ(sticky.definition().container_adhesion, 50.0);
    EXPECT_EQ(sticky.boundary_objects()[0].adhesion, 50.0f);
    EXPECT_THROW(sticky.set("container.adhesion", -1.0), DefinitionError);
    // Its pull is explicit: the speed guard follows it at once (and the step's bound, which
    // here at r = 1 cm stays above the 2 ms of max_dt).
    EXPECT_GT(sticky.max_speed(), still.max_speed());
    still.advance_to(0.2);
    sticky.advance_to(0.2);
    // The block, released in zero gravity, relaxes; the sticky floor and wall hold it lower.
    auto mean_y = [](const World<2>& w) {
        double y = 0;
        for (const auto& x : w.particles().x) y += x.y;
        return y / double(w.particles().size());
    };
    std::printf("mean height after 0.2 s: %.5f m without adhesion, %.5f m with\n", mean_y(still),
                mean_y(sticky));
    EXPECT_LT(mean_y(sticky), mean_y(still) - 0.001);
}

// The explicit solvers' stiffness follows a live change of the speed of sound (the walls'
// adhesion and surface tension enter it): a world whose adhesion is set after it was built steps
// exactly as one built with it.
TEST(LiveChanges, AdhesionSetLiveMovesTheExplicitSolversStiffnessToo) {
    for (SolverType s : {SolverType::wcsph, SolverType::ddr}) {
        WorldDef def = tank();
        def.solver.type = s;
        WorldDef sticky_def = def;
        sticky_def.container_adhesion = 50.0;
        World<2> built(sticky_def), set(def);
        set.set("container.adhesion", 50.0);
        EXPECT_EQ(set.definition().container_adhesion, 50.0);
        built.advance_to(0.02);
        set.advance_to(0.02);
        EXPECT_EQ(built.steps(), set.steps()) << solver_name(s);
        EXPECT_TRUE(built.particles().x == set.particles().x) << solver_name(s);
    }
}

// World::vorticity (the viewer's colouring): ω of a block turning as a solid body at Ω is 2Ω
// inside it, and there is none without vorticity confinement.
TEST(LiveChanges, VorticityOfASolidBodyTurnIsTwiceItsRate) {
    WorldDef def = falling_block();
    def.gravity = {0, 0, 0};
    World<2> w(def);
    EXPECT_TRUE(w.vorticity().empty());
    w.set("solver.vorticity", 0.01);
    const float omega = 2.0f;
    std::vector<Vec<2>> v(w.particles().size());
    const Vec<2> centre(1.0f, 1.3f);
    std::vector<std::size_t> row(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) row[w.particles().id[i]] = i;
    for (std::size_t k = 0; k < v.size(); ++k) {
        const Vec<2> r = w.particles().x[row[k]] - centre;
        v[k] = omega * Vec<2>(-r.y, r.x);
    }
    w.set_velocities(v);
    w.step(0.001);
    ASSERT_EQ(w.vorticity().size(), w.particles().size());
    double sum = 0;
    int n = 0;
    for (std::size_t i = 0; i < w.particles().size(); ++i)
        if (glm::length(w.particles().x[i] - centre) < 0.05f) sum += w.vorticity()[i], ++n;
    std::printf("mean vorticity inside %.3f 1/s (2 omega = %.1f)\n", sum / n, 2.0 * omega);
    EXPECT_NEAR(sum / n, 2.0 * omega, 0.1 * 2.0 * omega);
    w.set("solver.vorticity", 0.0);
    EXPECT_TRUE(w.vorticity().empty());
}

TEST(LiveChanges, BadChangesAreRefusedAndChangeNothing) {
    World<2> w(tank());
    auto refused = [&](std::string_view key, const ParamValue& v, const std::string& fragment) {
        try {
            w.set(key, v);
        } catch (const DefinitionError& e) {
            ASSERT_FALSE(e.problems().empty());
            EXPECT_EQ(e.problems().front().path, key);
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
            return;
        }
        ADD_FAILURE() << key << " was accepted";
    };
    refused("solver.pbf.max_iterations", 0.0, "expected an integer in [1, 1000]");
    refused("solver.pbf.min_iterations", 50.0, "must not exceed max_iterations");
    refused("solver.xsph", 2.0, "expected a number in [0, 1]");
    refused("solver.type", std::string("flip"), "expected one of \"pbf\", \"wcsph\", \"ddr\"");
    refused("gravity", true, "expected a vector");
    refused("particle_radius", 0.02, "cannot change while the world runs");
    refused("solver.pbf.iterations", 3.0, "no such key");
    EXPECT_EQ(w.definition().solver.pbf.max_iterations, PbfParams{}.max_iterations);
    EXPECT_EQ(w.definition().solver.type, SolverType::pbf);
    EXPECT_EQ(w.step(0.002).iterations >= 2, true);  // still the default PBF
    EXPECT_FALSE(World<2>::live_keys().empty());
}

}  // namespace
}  // namespace seiche
