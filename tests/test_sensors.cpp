// Pressure sensors in a scene (Scene::sensors, `seiche run` writing sensors.csv): a tank at rest
// reads ρ0·g·(H − y) on its walls, its floor and an obstacle's top for every solver; a row is the
// Δt-weighted mean of its steps; a resumed run writes the rows of the run that never stopped,
// and refuses other sensors. (The scene's checks: test_scene.cpp; a split run: check_split_runs.sh.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "checkpoint_bytes.hpp"
#include "cli_helpers.hpp"
#include "seiche/solver_list.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;
using test::fresh_dir;
using test::run_cli;
using test::slurp;

// A 2D tank 0.4 m wide with water about 0.2 m deep around a block on the floor (x 0.2–0.26 m,
// 0.06 m tall), four sensors: the left wall 0.05 m up, the floor, the right wall 0.1 m up and
// the block's top.
constexpr double width = 0.4, r = 0.004, block = 0.06;
const std::map<std::string, double> sensor_heights = {
    {"left", 0.05}, {"floor", 0.0}, {"right", 0.1}, {"top", block}};

fs::path write_tank(const fs::path& dir) {
    const fs::path scene = dir / "tank.json";
    std::ofstream(scene) << R"({
  "name": "sensor_tank", "dimension": 2, "particle_radius": 0.004, "gravity": [0, -9.81],
  "container": { "min": [0, 0], "max": [0.4, 0.4] },
  "obstacles": [ { "min": [0.2, 0], "max": [0.26, 0.06] } ],
  "fluid": [ { "min": [0, 0], "max": [0.2, 0.2] }, { "min": [0.26, 0], "max": [0.4, 0.2] },
             { "min": [0.2, 0.06], "max": [0.26, 0.2] } ],
  "time": { "end_time": 2.0, "frame_rate": 20, "target_iterations": 20 },
  "sensors": [
    { "name": "left", "face": "-x", "centre": [0, 0.05], "size": 0.04 },
    { "name": "floor", "face": "-y", "centre": [0.1, 0], "size": 0.04 },
    { "name": "right", "face": "+x", "centre": [0.4, 0.1], "size": 0.04 },
    { "name": "top", "object": "obstacles[0]", "face": "+y", "centre": [0.23, 0.06], "size": 0.04 }
  ],
  "output": { "sensor_rate": 50, "vtk": false, "ply": false, "preview": false }
})";
    return scene;
}

struct Rows {
    std::vector<std::string> names;
    std::vector<std::vector<double>> rows;  // time, then one pressure per sensor
};

Rows read_rows(const fs::path& csv) {
    Rows out;
    std::ifstream in(csv);
    std::string line, cell;
    std::getline(in, line);
    std::stringstream head(line);
    while (std::getline(head, cell, ',')) out.names.push_back(cell);
    while (std::getline(in, line)) {
        std::stringstream s(line);
        std::vector<double> row;
        while (std::getline(s, cell, ',')) row.push_back(std::stod(cell));
        EXPECT_EQ(row.size(), out.names.size()) << line;
        out.rows.push_back(row);
    }
    return out;
}

class SensorsInATank : public ::testing::TestWithParam<SolverType> {};

TEST_P(SensorsInATank, ReadTheHydrostaticPressure) {
    const std::string solver(solver_name(GetParam()));
    const fs::path dir = fresh_dir("seiche_test_sensors_" + solver);
    ASSERT_EQ(run_cli("run " + write_tank(dir).string() + " -o " + (dir / "run").string() +
                          " --solver " + solver,
                      dir / "log"),
              0)
        << slurp(dir / "log");
    EXPECT_NE(slurp(dir / "log").find("sensors        4: sensors.csv (100 rows)"), std::string::npos)
        << slurp(dir / "log");
    const Rows csv = read_rows(dir / "run" / "sensors.csv");
    ASSERT_EQ(csv.names, (std::vector<std::string>{"time", "left", "floor", "right", "top"}));
    // A row at the end of the first step at or after each multiple of 1/50 s.
    ASSERT_EQ(csv.rows.size(), 100u);
    for (std::size_t k = 0; k < csv.rows.size(); ++k) {
        const double due = double(k + 1) / 50;
        EXPECT_GE(csv.rows[k][0], due * (1 - 1e-9)) << "row " << k;
        EXPECT_LT(csv.rows[k][0], due + 0.01) << "row " << k;
    }
    // The water's depth from its volume: N particles of (2r)² each, plus the block's, over the
    // tank's width.
    const auto summary = nlohmann::json::parse(slurp(dir / "run" / "summary.json"));
    const double N = summary["fluid_particles"].get<double>();
    const double H = (N * 4 * r * r + block * block) / width;
    // The last second's rows: the tank has settled.
    for (std::size_t s = 1; s < csv.names.size(); ++s) {
        double sum = 0;
        int n = 0;
        for (const auto& row : csv.rows)
            if (row[0] > 1.0) sum += row[s], ++n;
        const double expected = 1000 * 9.81 * (H - sensor_heights.at(csv.names[s]));
        EXPECT_NEAR(sum / n / expected, 1.0, 0.04)
            << solver << ", sensor " << csv.names[s] << ": " << sum / n << " Pa against "
            << expected;
    }
    if (std::system("/usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1") == 0)
        EXPECT_TRUE(fs::exists(dir / "run" / "sensors.png"));
    fs::remove_all(dir);
}
INSTANTIATE_TEST_SUITE_P(EverySolver, SensorsInATank, ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

TEST(Sensors, ARowIsTheStepWeightedMeanOfItsSteps) {
    const fs::path dir = fresh_dir("seiche_test_sensors_mean");
    const std::string scene = write_tank(dir).string();
    const std::string common = " --end-time 0.2 --set output.stats=false -q";
    // A row per step (every step passes a multiple of 1 µs), and rows at 25 Hz.
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "steps").string() + common +
                          " --set output.sensor_rate=1000000",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "rows").string() + common +
                          " --set output.sensor_rate=25",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const Rows steps = read_rows(dir / "steps" / "sensors.csv");
    const Rows rows = read_rows(dir / "rows" / "sensors.csv");
    ASSERT_EQ(rows.rows.size(), 5u);
    ASSERT_GT(steps.rows.size(), 50u);
    std::size_t k = 0;
    double before = 0;
    for (const auto& row : rows.rows) {
        std::vector<double> sum(row.size(), 0.0);
        double time = 0;
        for (; k < steps.rows.size() && steps.rows[k][0] <= row[0] * (1 + 1e-12); ++k) {
            const double dt = steps.rows[k][0] - before;
            before = steps.rows[k][0];
            for (std::size_t s = 1; s < row.size(); ++s) sum[s] += steps.rows[k][s] * dt;
            time += dt;
        }
        EXPECT_EQ(steps.rows[k - 1][0], row[0]) << "the row ends with a step";
        for (std::size_t s = 1; s < row.size(); ++s)
            EXPECT_NEAR(sum[s] / time, row[s], 2e-5 * std::abs(row[s]) + 1e-3)
                << "the row at t = " << row[0] << ", sensor " << rows.names[s];
    }
    fs::remove_all(dir);
}

TEST(Sensors, AResumedRunWritesTheRowsOfTheWholeRun) {
    const fs::path dir = fresh_dir("seiche_test_sensors_resume");
    const std::string scene = write_tank(dir).string();
    // Rows at 7 Hz, checkpoints every 0.2 s: a row is under way at each checkpoint.
    const std::string common =
        " -q --set output.sensor_rate=7 --set output.checkpoint_every=0.2 --set solver.type=pbf";
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "whole").string() + " --end-time 0.6" + common,
                      dir / "log"),
              0)
        << slurp(dir / "log");
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "part").string() + " --end-time 0.3" + common,
                      dir / "log"),
              0)
        << slurp(dir / "log");
    ASSERT_EQ(run_cli("run --resume " + (dir / "part").string() + " -q --end-time 0.6", dir / "log"), 0)
        << slurp(dir / "log");
    const std::string rows = slurp(dir / "whole" / "sensors.csv");
    EXPECT_EQ(read_rows(dir / "whole" / "sensors.csv").rows.size(), 4u);
    EXPECT_TRUE(slurp(dir / "part" / "sensors.csv") == rows)
        << slurp(dir / "part" / "sensors.csv") << "\nagainst\n" << rows;
    // Other sensors than the run's: refused, the run left as it was.
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "again").string() + " --end-time 0.3" + common,
                      dir / "log"),
              0);
    const std::string before = slurp(dir / "again" / "sensors.csv");
    EXPECT_EQ(run_cli("run --resume " + (dir / "again").string() +
                          " -q --end-time 0.6 --set sensors[0].name=wall",
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("the run's sensors were \"left,floor,right,top\", the "
                                      "scene's are \"wall,floor,right,top\""),
              std::string::npos)
        << slurp(dir / "log");
    EXPECT_EQ(run_cli("run --resume " + (dir / "again").string() + " -q --end-time 0.6 --set 'sensors=[]'",
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("the scene's are none"), std::string::npos) << slurp(dir / "log");
    EXPECT_TRUE(slurp(dir / "again" / "sensors.csv") == before);
    fs::remove_all(dir);
}

// A checkpoint whose sensor state is forged (its checksum redone), or a sensors.csv cut short or
// with another header: refused by name, the run left as it was.
TEST(Sensors, ForgedSensorStateIsRefusedAndTheRunKept) {
    const fs::path dir = fresh_dir("seiche_test_sensors_forged");
    const fs::path run = dir / "run", log = dir / "log";
    ASSERT_EQ(run_cli("run " + write_tank(dir).string() + " -o " + run.string() +
                          " -q --end-time 0.2 --solver pbf --set output.sensor_rate=7 "
                          "--set output.checkpoint_every=0.1",
                      log),
              0)
        << slurp(log);
    const test::ForgeableCheckpoint checkpoint(run / "checkpoint.bin");
    ASSERT_EQ(checkpoint.state.at("sensor_rows").get<int>(), 1);  // t = 1/7 s
    ASSERT_EQ(checkpoint.state.at("sensors").at("sum").size(), 4u);
    auto forged = [&](auto edit) { return checkpoint.forged(edit); };
    const std::vector<std::pair<std::string, std::string>> cases = {
        {forged([](auto& s) { s["sensor_rows"] = -1; }), "sensors.csv row count is damaged"},
        {forged([](auto& s) { s["sensor_rows"] = 5; }), "sensors.csv has 1 of the 5 rows"},
        {forged([](auto& s) { s["sensors"]["sum"].erase(0); }), "3 sums for 4 sensors"},
        {forged([](auto& s) { s["sensors"]["sum"][0] = "x"; }), "sensor sums are damaged"},
        {forged([](auto& s) { s["sensors"]["next"] = 0; }), "row counter is out of range"},
        {forged([](auto& s) { s["sensors"] = 3; }), "sensor sums are damaged"},
        {forged([](auto& s) { s["sensors"]["header"] = "time,a,b"; }), "the run's sensors were \"a,b\""},
    };
    for (const auto& [bytes, message] : cases) {
        SCOPED_TRACE(message);
        test::expect_refused_resume(run, bytes, message, "-q --end-time 0.3", log);
    }
    const std::string csv = slurp(run / "sensors.csv");
    std::ofstream(run / "sensors.csv", std::ios::trunc) << "time,left,floor,right\n";
    test::expect_refused_resume(run, checkpoint.pristine,
                                "does not start with the scene's header \"time,left,floor,right,top\"",
                                "-q --end-time 0.3", log);
    std::ofstream(run / "sensors.csv", std::ios::trunc) << csv;
    EXPECT_EQ(run_cli("run --resume " + run.string() + " -q --end-time 0.3", log), 0) << slurp(log);
    EXPECT_EQ(read_rows(run / "sensors.csv").rows.size(), 2u);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche
