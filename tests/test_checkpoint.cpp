// Checkpoints in the core (World::save / restore): a world continued from one is bitwise the
// world that never stopped, for every solver; damaged or foreign checkpoints are refused with the
// world unchanged.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <sstream>

#include "checkpoint_bytes.hpp"
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
void expect_resume_is_bitwise(const WorldDef& def) {
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

template <int D>
void expect_resume_is_bitwise(SolverType type) {
    expect_resume_is_bitwise<D>(splash(type, D));
}

class ResumedSolver : public ::testing::TestWithParam<SolverType> {};
TEST_P(ResumedSolver, IsBitwiseTheWholeRun) { expect_resume_is_bitwise<2>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(EverySolver, ResumedSolver, ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });
TEST(Checkpoint, Resumed3dIsBitwiseTheWholeRun) { expect_resume_is_bitwise<3>(SolverType::pbf); }
// PBF's warm start carries the last two steps' corrections: the checkpoint keeps them.
TEST(Checkpoint, ResumedPbfWithWarmStartIsBitwise) {
    WorldDef def = splash(SolverType::pbf, 2);
    def.solver.pbf.warm_start = 0.5;
    expect_resume_is_bitwise<2>(def);
    // The carried values matter here: the same run without them goes elsewhere.
    World<2> warm(def), cold(splash(SolverType::pbf, 2));
    advance(warm, 0.1);
    advance(cold, 0.1);
    EXPECT_FALSE(same_bits<2>(warm.particles().x, cold.particles().x));
}

// time.target_iterations' share of the CFL step travels in the checkpoint: the resumed run takes
// the steps of the whole run.
TEST(Checkpoint, ResumedWithTargetIterationsIsBitwise) {
    WorldDef def = splash(SolverType::dfsph, 2);
    def.time.target_iterations = 4;
    World<2> w(def);
    advance(w, 0.05);
    EXPECT_LT(w.step_scale(), 1.0);  // the checkpoint's scale matters
    expect_resume_is_bitwise<2>(def);
}

// Carried values belong to the solver that wrote them: a DFSPH checkpoint resumed by PBF with its
// warm start starts PBF's from zero (DFSPH's κ̂Δt² would be taken for Σλ').
TEST(Checkpoint, CarriedValuesOfAnotherSolverAreDropped) {
    const WorldDef dfsph = splash(SolverType::dfsph, 2);
    World<2> first(dfsph);
    advance(first, 0.05);
    bool carried = false;
    for (const Float2& c : first.particles().carried) carried = carried || c.a != 0 || c.b != 0;
    ASSERT_TRUE(carried);
    std::stringstream file;
    first.save(file);
    WorldDef pbf = dfsph;
    pbf.solver.type = SolverType::pbf;
    pbf.solver.pbf.warm_start = 0.5;
    World<2> second(pbf);
    const RestoreResult r = second.restore(file);
    EXPECT_FALSE(r.changed.empty());  // solver.type, reported
    ASSERT_EQ(second.particles().carried.size(), second.particles().size());
    for (const Float2& c : second.particles().carried) {
        EXPECT_EQ(c.a, 0.0f);
        EXPECT_EQ(c.b, 0.0f);
    }
}

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

// The checkpoint of `w` advanced to t.
std::string saved_at(World<2>& w, double t) {
    advance(w, t);
    std::stringstream file;
    w.save(file);
    return file.str();
}

TEST(Checkpoint, DamagedOrForeignCheckpointsAreRefusedAndChangeNothing) {
    const WorldDef def = splash(SolverType::pbf, 2);
    World<2> first(def);
    const std::string good = saved_at(first, 0.02);

    World<2> w(def);
    const auto before = w.particles().x;
    std::string flipped = good;
    flipped[flipped.size() / 2] ^= 0x10;
    EXPECT_NE(refusal(w, flipped).find("checksum"), std::string::npos);
    EXPECT_NE(refusal(w, good.substr(0, good.size() / 3)).find("checksum"), std::string::npos);
    EXPECT_NE(refusal(w, "{\"not\": \"a checkpoint\"}").find("not a seiche checkpoint"),
              std::string::npos);
    EXPECT_NE(refusal(w, "").find("not a seiche checkpoint"), std::string::npos);
    std::string older = good;
    older[std::string_view("SEICHE checkpoint ").size()] = '2';
    EXPECT_NE(refusal(w, older).find("another version of seiche"), std::string::npos);
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

// The values a solver carries between steps stay with their particle through the Z-curve
// reorder, a sink's compaction and an emitter's new particles (which carry zero).
TEST(ParticleSet, CarriedValuesFollowTheirParticles) {
    ParticleSet<2> p;
    p.carrying = true;
    for (std::uint32_t k = 0; k < 5; ++k) {
        p.push_back(Vec<2>(float(k), 0.0f), Vec<2>(0.0f), 1000.0f, k);
        p.carried[k] = {float(k) + 0.5f, -float(k)};
    }
    const std::vector<std::uint32_t> order = {3, 0, 4, 1, 2};
    std::vector<Vec<2>> scratch;
    std::vector<float> scratch_f;
    std::vector<std::uint32_t> scratch_id;
    p.reorder(order, scratch, scratch_f, scratch_id);
    p.move_particle(2, 1);  // the particle at 1 leaves
    p.resize(4);
    p.push_back(Vec<2>(9.0f, 0.0f), Vec<2>(0.0f), 1000.0f, 5);
    ASSERT_EQ(p.carried.size(), p.size());
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
        EXPECT_EQ(p.carried[i].a, float(p.id[i]) + 0.5f) << i;
        EXPECT_EQ(p.carried[i].b, -float(p.id[i])) << i;
        EXPECT_EQ(p.x[i].x, float(p.id[i])) << i;
    }
    EXPECT_EQ(p.id[1], 4u);
    EXPECT_EQ(p.carried.back().a, 0.0f);
    EXPECT_EQ(p.carried.back().b, 0.0f);
}

// A checkpoint forged with a valid checksum: the bytes at `at` replaced by `now`'s, the
// checksum written anew (FNV-1a over everything before it).
template <class T>
std::string forged(std::string bytes, std::size_t at, const T& now) {
    std::memcpy(bytes.data() + at, &now, sizeof(T));
    return test::with_checksum(std::move(bytes));
}

// Where the fields of a 2D checkpoint of `w` are (World::save's layout): found from the time and
// step count, which follow the definition's text.
struct Layout {
    std::size_t time, travel, x, v, objects;
};
Layout layout_of(const std::string& bytes, const World<2>& w, std::size_t emitters) {
    const double t = w.time();
    const std::int64_t steps = w.steps();
    std::string key(reinterpret_cast<const char*>(&t), 8);
    key.append(reinterpret_cast<const char*>(&steps), 8);
    Layout l{};
    l.time = bytes.find(key);
    // time, steps, step scale; the last step's iterations (4 bytes); contained, emitted,
    // removed; next id (4 bytes)
    l.travel = l.time + 6 * 8 + 4 + 4;
    l.x = l.travel + 8 * emitters + 8;
    const std::size_t n = w.particles().size();
    l.v = l.x + n * sizeof(Vec<2>);
    const std::size_t carried = w.particles().carried.size() * sizeof(Float2);
    l.objects = l.v + 2 * n * sizeof(Vec<2>) + n * (sizeof(float) + 4) + 1 + carried + 8;
    return l;
}

// Values no run writes, with a checksum that passes: a NaN position (the neighbour search went
// out of its arrays), a velocity of 10^30, a NaN pose, an emitter state whose loop never ends
// and counts that disagree are each refused by name, and the world is left as it was.
TEST(Checkpoint, ImpossibleValuesWithAValidChecksumAreRefused) {
    WorldDef def = splash(SolverType::pbf, 2);
    def.emitters.push_back({});
    def.emitters[0].position = {0.45, 0.4, 0};
    def.emitters[0].width = 0.05;
    def.emitters[0].speed = 0.5;
    def.emitters[0].start = 1.0;  // not yet: its state is exactly 0
    World<2> first(def);
    const std::string good = saved_at(first, 0.02);
    World<2> w(def);
    const auto before = w.particles().x;
    ASSERT_EQ(refusal(w, good), "accepted");
    World<2> fresh(def);

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Layout l = layout_of(good, first, 1);
    ASSERT_NE(l.time, std::string::npos);
    Vec<2> x0, v0;
    std::memcpy(&x0, good.data() + l.x, sizeof x0);
    std::memcpy(&v0, good.data() + l.v, sizeof v0);
    ASSERT_EQ(x0, first.particles().x[0]);  // the layout is right
    ASSERT_EQ(v0, first.particles().v[0]);
    std::string why = refusal(fresh, forged(good, l.x, Vec<2>(nan, x0.y)));
    EXPECT_NE(why.find("position of particle"), std::string::npos) << why;
    why = refusal(fresh, forged(good, l.v, Vec<2>(1e30f, 0.0f)));
    EXPECT_NE(why.find("velocity of particle"), std::string::npos) << why;

    // The obstacle, object 1: after the container's position, rotation, velocity, spin, flag.
    const std::size_t obstacle = l.objects + 2 * sizeof(Vec<2>) + sizeof(Mat<2>) + sizeof(float) + 1;
    Vec<2> pose;
    std::memcpy(&pose, good.data() + obstacle, sizeof pose);
    ASSERT_EQ(pose, first.boundary_objects()[1].position);
    why = refusal(fresh, forged(good, obstacle, Vec<2>(nan, nan)));
    EXPECT_NE(why.find("pose of"), std::string::npos) << why;

    why = refusal(fresh, forged(good, l.travel, 1e300));
    EXPECT_NE(why.find("emitters[0]"), std::string::npos) << why;
    why = refusal(fresh, forged(good, l.time + 4 * 8 + 4, std::uint64_t(5)));  // 5 emitted, none here
    EXPECT_NE(why.find("particle counts disagree"), std::string::npos) << why;
    // A step count near 2^63 (the next steps' counter overflowed under UBSan).
    why = refusal(fresh, forged(good, l.time + 8, std::int64_t(9223372036854775000)));
    EXPECT_NE(why.find("step count 9223372036854775000 is beyond any run's"), std::string::npos)
        << why;
    // time.target_iterations' share of the CFL step is in (0, 1].
    for (const double scale : {0.0, 0.01, -0.5, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
        why = refusal(fresh, forged(good, l.time + 2 * 8, scale));
        EXPECT_NE(why.find("step scale"), std::string::npos) << scale << ": " << why;
    }
    World<2> resumed(def);
    ASSERT_EQ(refusal(resumed, forged(good, l.time + 2 * 8, 0.5)), "accepted");
    EXPECT_EQ(resumed.step_scale(), 0.5);
    why = refusal(fresh, forged(good, l.time + 3 * 8, std::int32_t(-3)));
    EXPECT_NE(why.find("iteration count -3"), std::string::npos) << why;

    EXPECT_TRUE(same_bits<2>(fresh.particles().x, before));
    EXPECT_EQ(fresh.time(), 0.0);
    EXPECT_FALSE(fresh.step(fresh.suggested_dt()).instability);
}

}  // namespace
}  // namespace seiche
