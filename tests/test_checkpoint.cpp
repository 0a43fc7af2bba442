// Checkpoints in the core (World::save / restore): a world continued from one is bitwise the
// world that never stopped, for every solver; damaged or foreign checkpoints are refused with the
// world unchanged.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "seiche/parallel.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

// A breaking column with an obstacle, XSPH and vorticity on: every stage of every solver runs.
WorldDef splash(SolverType type, int dimension) {
    WorldDef def;
    def.dimension = dimension;
    def.particle_radius = dimension == 2 ? 0.01 : 0.02;
    def.container_max = {0.5, 0.5, dimension == 2 ? 0.0 : 0.2};
    def.fluid.push_back({{0, 0, 0}, {0.2, 0.3, dimension == 2 ? 0.0 : 0.2}, {0.3, 0, 0}});
    def.obstacles.push_back({{0.35, 0, 0}, {0.4, 0.1, dimension == 2 ? 0.0 : 0.1}});
    def.solver.type = type;
    def.solver.xsph = 0.02;
    def.solver.vorticity = 0.001;
    return def;
}

// Runs to t with samples every 1/60 s; a run stopped at t and resumed steps as the whole run
// only when t is a sample time (the steps are fitted to land on it).
template <int D>
void advance(World<D>& w, double t) {
    AdvanceOptions o;
    o.every = 1.0 / 60;
    const AdvanceResult r = w.advance_to(t, o);
    ASSERT_EQ(r.status, AdvanceResult::Status::reached);
}

template <int D>
bool same_bits(const std::vector<Vec<D>>& a, const std::vector<Vec<D>>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec<D>)) == 0;
}

template <int D>
void expect_resume_is_bitwise(SolverType type) {
    const WorldDef def = splash(type, D);
    World<D> whole(def);
    advance(whole, 0.1);

    World<D> first(def);
    advance(first, 0.05);
    std::stringstream file;
    first.save(file, "front end state");

    World<D> second(def);
    const RestoreResult r = second.restore(file);
    EXPECT_EQ(r.extra, "front end state");
    EXPECT_TRUE(r.changed.empty());
    EXPECT_EQ(second.time(), first.time());
    EXPECT_EQ(second.steps(), first.steps());
    advance(second, 0.1);

    EXPECT_EQ(second.steps(), whole.steps());
    EXPECT_EQ(second.time(), whole.time());
    EXPECT_TRUE(same_bits<D>(second.particles().x, whole.particles().x));
    EXPECT_TRUE(same_bits<D>(second.particles().v, whole.particles().v));
    EXPECT_EQ(second.particles().id, whole.particles().id);
    EXPECT_EQ(second.total_contained(), whole.total_contained());
}

class ResumedSolver : public ::testing::TestWithParam<SolverType> {};
TEST_P(ResumedSolver, IsBitwiseTheWholeRun) { expect_resume_is_bitwise<2>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(EverySolver, ResumedSolver, ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });
TEST(Checkpoint, Resumed3dIsBitwiseTheWholeRun) { expect_resume_is_bitwise<3>(SolverType::pbf); }

TEST(Checkpoint, ResumedWithOtherThreadCountIsBitwise) {
    WorldDef def = splash(SolverType::pbf, 2);
    def.particle_radius = 0.005;  // 2,400 particles: above the threshold where loops go parallel
    set_thread_count(1);
    World<2> whole(def);
    advance(whole, 5.0 / 60);
    World<2> first(def);
    advance(first, 2.0 / 60);
    std::stringstream file;
    first.save(file);
    set_thread_count(2);
    World<2> second(def);
    second.restore(file);
    advance(second, 5.0 / 60);
    set_thread_count(0);
    EXPECT_TRUE(same_bits<2>(second.particles().x, whole.particles().x));
}

TEST(Checkpoint, MovedObjectsKeepTheirPose) {
    const WorldDef def = splash(SolverType::pbf, 2);
    World<2> whole(def);
    whole.set_object_velocity(1, {0.0f, 0.2f});
    advance(whole, 4.0 / 60);
    World<2> first(def);
    first.set_object_velocity(1, {0.0f, 0.2f});
    advance(first, 2.0 / 60);
    std::stringstream file;
    first.save(file);
    World<2> second(def);
    second.restore(file);
    EXPECT_EQ(second.boundary_objects()[1].position, first.boundary_objects()[1].position);
    EXPECT_EQ(second.boundary_objects()[1].velocity, first.boundary_objects()[1].velocity);
    advance(second, 4.0 / 60);
    EXPECT_TRUE(same_bits<2>(second.boundary().x, whole.boundary().x));
    EXPECT_TRUE(same_bits<2>(second.particles().x, whole.particles().x));
}

std::string refusal(World<2>& w, const std::string& bytes) {
    std::stringstream in(bytes);
    try {
        w.restore(in);
    } catch (const CheckpointError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(Checkpoint, DamagedOrForeignCheckpointsAreRefusedAndChangeNothing) {
    const WorldDef def = splash(SolverType::pbf, 2);
    World<2> first(def);
    advance(first, 0.02);
    std::stringstream file;
    first.save(file);
    const std::string good = file.str();

    World<2> w(def);
    const auto before = w.particles().x;
    std::string flipped = good;
    flipped[flipped.size() / 2] ^= 0x10;
    EXPECT_NE(refusal(w, flipped).find("checksum"), std::string::npos);
    EXPECT_NE(refusal(w, good.substr(0, good.size() / 3)).find("checksum"), std::string::npos);
    EXPECT_NE(refusal(w, "{\"not\": \"a checkpoint\"}").find("not a seiche checkpoint"),
              std::string::npos);
    EXPECT_NE(refusal(w, "").find("not a seiche checkpoint"), std::string::npos);
    EXPECT_TRUE(same_bits<2>(w.particles().x, before));
    EXPECT_EQ(w.time(), 0.0);

    // Another resolution: the key and both values.
    WorldDef finer = def;
    finer.particle_radius = 0.008;
    World<2> other(finer);
    const std::string why = refusal(other, good);
    EXPECT_NE(why.find("particle_radius = 0.01"), std::string::npos) << why;
    EXPECT_NE(why.find("0.008"), std::string::npos) << why;

    // Another dimension.
    World<3> three(splash(SolverType::pbf, 3));
    std::stringstream in(good);
    EXPECT_THROW(three.restore(in), CheckpointError);

    // A live key may differ: the world's own value applies, and the change is listed.
    WorldDef more_xsph = def;
    more_xsph.solver.xsph = 0.05;
    more_xsph.time.end_time = 9;  // the end is not a change of the physics
    World<2> changed(more_xsph);
    std::stringstream in2(good);
    const RestoreResult r = changed.restore(in2);
    ASSERT_EQ(r.changed.size(), 1u);
    EXPECT_NE(r.changed[0].find("solver.xsph"), std::string::npos) << r.changed[0];
    EXPECT_EQ(changed.time(), first.time());
}

}  // namespace
}  // namespace seiche
