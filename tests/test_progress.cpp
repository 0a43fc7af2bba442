// The progress line's ETA (apps/seiche/progress.hpp): the rate of the run's recent past.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <utility>

#include "progress.hpp"

using seiche::app::RecentRate;

namespace {

// `seconds` of wall time at `rate` simulated s per wall s from (wall, time), fed as a run's steps
// would be, every 0.05 s; returns the (wall, time) reached.
std::pair<double, double> feed(RecentRate& r, double wall, double time, double seconds, double rate) {
    for (int k = 1; k <= int(std::lround(seconds / 0.05)); ++k) r.add(wall + 0.05 * k, time + rate * 0.05 * k);
    return {wall + seconds, time + rate * seconds};
}

}  // namespace

// A dam break's steps shorten after its impact: 100 s of wall at 0.01 simulated s a second, then
// 100 s at 0.002. The ETA has to follow the later rate (the whole run's average is 0.006, which
// would promise the end three times too early).
TEST(Progress, EtaFollowsTheRecentRate) {
    RecentRate r;
    auto [wall, time] = feed(r, 0.0, 0.0, 100.0, 0.01);
    EXPECT_NEAR(r.sim_per_wall(), 0.01, 1e-9);
    std::tie(wall, time) = feed(r, wall, time, 100.0, 0.002);
    EXPECT_NEAR(r.sim_per_wall(), 0.002, 1e-9);
    EXPECT_GT(time / wall, 0.0059);  // the average it no longer uses
    // Faster again (the flow calms): within a tenth of the elapsed time the rate is the new one.
    std::tie(wall, time) = feed(r, wall, time, 25.0, 0.004);
    EXPECT_NEAR(r.sim_per_wall(), 0.004, 1e-9);
}

// Before 2 s of samples the rate is the run's average so far (which, for a resumed run, counts
// the wall time and simulated time before it); a run that starts again (compare's and validate's
// next run, their time and wall from zero) forgets the last one.
TEST(Progress, EtaStartsFromTheAverageAndForgetsTheLastRun) {
    RecentRate r;
    EXPECT_EQ(r.sim_per_wall(), 0.0);
    r.add(600.0, 0.3);  // resumed at t = 0.3 s after 600 s of wall
    EXPECT_NEAR(r.sim_per_wall(), 0.0005, 1e-12);
    feed(r, 600.0, 0.3, 1.0, 0.01);
    EXPECT_NEAR(r.sim_per_wall(), 0.31 / 601.0, 1e-12);
    feed(r, 601.0, 0.31, 9.0, 0.01);
    EXPECT_NEAR(r.sim_per_wall(), 0.01, 1e-9);
    feed(r, 0.0, 0.0, 1.0, 0.5);  // the next run
    EXPECT_NEAR(r.sim_per_wall(), 0.5, 1e-9);
}
