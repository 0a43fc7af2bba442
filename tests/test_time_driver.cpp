// The time driver (World::advance_to): lands on sample times in even steps, follows the
// fixed step, stops when told, and is the only time loop of the command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "seiche/scene.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

WorldDef column() {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.01;
    def.container_max = {0.4, 0.6, 0};
    def.fluid.push_back({{0, 0, 0}, {0.2, 0.3, 0}, {0, 0, 0}});
    return def;
}

TEST(TimeDriver, CflStepsLandOnEverySampleWithoutSlivers) {
    World<2> w(column());
    std::vector<double> sample_times, dts;
    AdvanceOptions o;
    o.every = 1.0 / 30;
    o.on_step = [&](const StepStats& s) {
        dts.push_back(s.dt);
        return true;
    };
    o.on_sample = [&](std::int64_t k) {
        EXPECT_EQ(k, std::int64_t(sample_times.size()) + 1);
        sample_times.push_back(w.time());
        return true;
    };
    const AdvanceResult r = w.advance_to(0.25, o);
    EXPECT_EQ(r.status, AdvanceResult::Status::reached);
    EXPECT_EQ(r.steps, std::int64_t(dts.size()));
    EXPECT_NEAR(w.time(), 0.25, 1e-12);
    ASSERT_EQ(sample_times.size(), 7u);  // 1/30 ... 7/30 ≤ 0.25
    for (std::size_t k = 0; k < sample_times.size(); ++k)
        EXPECT_NEAR(sample_times[k], double(k + 1) / 30, 1e-12);
    // No step is a sliver: the last two before a target share what is left, so none is less than
    // half the usual step (the CFL bound changes little over 0.25 s at rest).
    std::vector<double> sorted = dts;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_GE(sorted.front(), 0.5 * sorted[sorted.size() / 2] * (1 - 1e-9));
    // Nor does a step drop before a sample: the time to it is divided evenly, so a step is at
    // most a tenth shorter than the one before (0.944 here; the last two sharing what was left,
    // as until 2026-12-07, made about half, and PBF turned each drop into a kick).
    for (std::size_t i = 1; i < dts.size(); ++i) EXPECT_GE(dts[i], 0.9 * dts[i - 1]) << "step " << i;
}

TEST(TimeDriver, FixedStepsAndStops) {
    WorldDef def = column();
    def.time.mode = TimeParams::Mode::fixed;
    def.time.dt = 0.003;
    World<2> w(def);
    std::vector<double> dts;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        dts.push_back(s.dt);
        return true;
    };
    w.advance_to(0.01, o);
    ASSERT_EQ(dts.size(), 4u);  // 3 ms, 3 ms, 3 ms, then the 1 ms left
    EXPECT_DOUBLE_EQ(dts[0], 0.003);
    EXPECT_NEAR(dts[3], 0.001, 1e-12);
    EXPECT_NEAR(w.time(), 0.01, 1e-12);

    // A callback stops it; so does the step limit; a later call carries on from there.
    int n = 0;
    o.on_step = [&](const StepStats&) { return ++n < 3; };
    EXPECT_EQ(w.advance_to(1.0, o).status, AdvanceResult::Status::stopped);
    EXPECT_EQ(n, 3);
    AdvanceOptions limited;
    limited.max_steps = 5;
    const AdvanceResult r = w.advance_to(1.0, limited);
    EXPECT_EQ(r.status, AdvanceResult::Status::step_limit);
    EXPECT_EQ(r.steps, 5);
    EXPECT_EQ(w.steps(), 4 + 3 + 5);
}

TEST(TimeDriver, ReportsAnInstability) {
    WorldDef def = column();
    def.fluid[0].min[1] = 0.2;  // a block that falls freely until it passes the speed limit
    def.fluid[0].max[1] = 0.5;
    def.solver.max_speed = 1.0;  // m/s: reached after about 0.1 s of free fall
    World<2> w(def);
    const AdvanceResult r = w.advance_to(5.0);
    EXPECT_EQ(r.status, AdvanceResult::Status::unstable);
    ASSERT_TRUE(r.last.instability.has_value());
    EXPECT_NE(r.last.instability->reason.find("exceeds the limit"), std::string::npos);
    EXPECT_NEAR(w.time(), 0.1, 0.03);
}

// The command line has no time loop of its own: every command advances through the driver.
TEST(TimeDriver, AppsHaveNoTimeLoop) {
    namespace fs = std::filesystem;
    const std::regex loop(R"((\.step\(\s*[^)])|fit_step\(|while\s*\([^)]*time\(\))");
    int files = 0;
    // The run directory's library (src/run/) came out of apps/seiche: the same holds for it.
    std::vector<fs::path> paths;
    for (const char* dir : {"apps/seiche", "src/run"})
        for (const auto& e : fs::directory_iterator(fs::path(SEICHE_SOURCE_DIR) / dir))
            paths.push_back(e.path());
    for (const fs::path& path : paths) {
        std::ifstream in(path);
        std::string line;
        int n = 0;
        while (std::getline(in, line)) {
            ++n;
            if (line.find("progress.step(") != std::string::npos) continue;
            EXPECT_FALSE(std::regex_search(line, loop)) << path.filename() << ":" << n << ": " << line;
        }
        ++files;
    }
    EXPECT_GE(files, 10);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// The landing tolerance scaled with the end time: an end of 1e300 (a step limit ends the run,
// as `seiche bench` asks) made it 1e291 s, and counting the samples passed never ended.
TEST(TimeDriver, AFarEndNeitherHangsNorTakesSamplesEarly) {
    World<2> w(column());
    AdvanceOptions o;
    o.every = 1.0 / 30;
    o.max_steps = 60;
    std::vector<std::pair<std::int64_t, double>> samples;
    o.on_sample = [&](std::int64_t k) {
        samples.push_back({k, w.time()});
        return true;
    };
    const AdvanceResult r = w.advance_to(1e300, o);
    EXPECT_EQ(r.status, AdvanceResult::Status::step_limit);
    ASSERT_FALSE(samples.empty());
    for (const auto& [k, t] : samples) EXPECT_NEAR(t, double(k) / 30, 1e-9) << k;
}

}  // namespace
}  // namespace seiche
