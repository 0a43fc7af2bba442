// `seiche compare`: every solver and sweep combination runs and is reported, the stability search
// brackets the largest stable time step (and finds WCSPH's far below PBF's), and the report holds
// every plot.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "cli_helpers.hpp"
#include "seiche/render.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;
using test::fresh_dir;
using test::run_cli;
using test::slurp;

// CSV rows as maps from the header's names (no quoted commas in the columns read here).
std::vector<std::map<std::string, std::string>> csv_rows(const fs::path& path) {
    std::istringstream in(slurp(path));
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> out;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::istringstream ls(line);
        for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
        if (header.empty()) {
            header = cells;
            continue;
        }
        std::map<std::string, std::string> row;
        for (std::size_t k = 0; k < header.size() && k < cells.size(); ++k)
            row[header[k]] = cells[k];
        out.push_back(row);
    }
    return out;
}

TEST(CompareCli, RunsEverySolverAndSweepAndWritesTheReport) {
    const fs::path dir = fresh_dir("seiche_test_compare");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    ASSERT_EQ(run_cli("compare " + scene + " --solvers pbf,wcsph --sweep solver.xsph=0,0.02 " +
                          "--end-time 0.05 --stability-time 0.05 -q -o " + (dir / "r").string(),
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const fs::path r = dir / "r";

    const auto runs = csv_rows(r / "runs.csv");
    ASSERT_EQ(runs.size(), 4u);  // 2 solvers × 2 values
    for (const auto& row : runs) {
        EXPECT_EQ(row.at("status"), "done");
        EXPECT_EQ(row.at("fluid_particles"), "3200");
        EXPECT_NEAR(std::stod(row.at("simulated_time")), 0.05, 1e-9);
        EXPECT_LT(std::stod(row.at("density_error_mean")), 0.02);
        // The wall time of the run and per simulated second, consistent with each other and
        // with the steps (the median step times the step count: at least half of it, and less
        // than ten times it; the median leaves out the slow steps a busy machine gives, and
        // 2× failed once beside two other jobs on 2 cores, 0.68 s against 0.50).
        const double wall = std::stod(row.at("wall_s"));
        EXPECT_GT(wall, 0.0);
        EXPECT_NEAR(std::stod(row.at("wall_s_per_simulated_s")),
                    wall / std::stod(row.at("simulated_time")), 0.01 * wall / 0.05 + 1e-4);
        const double from_steps =
            1e-3 * std::stod(row.at("ms_per_step")) * std::stod(row.at("steps"));
        EXPECT_GT(wall, 0.5 * from_steps);
        EXPECT_LT(wall, 10.0 * from_steps + 0.05);
    }
    EXPECT_EQ(runs[0].at("params"), "solver.xsph=0");
    EXPECT_EQ(runs[3].at("solver"), "wcsph");
    EXPECT_EQ(runs[3].at("params"), "solver.xsph=0.02");
    // Time series: every run, energy rising from rest as the column falls.
    const auto series = csv_rows(r / "timeseries.csv");
    std::map<std::string, std::vector<double>> energy;
    for (const auto& row : series)
        energy[row.at("run")].push_back(std::stod(row.at("kinetic_energy")));
    ASSERT_EQ(energy.size(), 4u);
    for (const auto& [run, e] : energy) {
        ASSERT_GE(e.size(), 10u) << run;
        EXPECT_GT(e.back(), e.front()) << run;
    }
    // Scaling: four resolutions per solver, particle counts doubling.
    const auto scaling = csv_rows(r / "scaling.csv");
    ASSERT_EQ(scaling.size(), 8u);
    for (std::size_t k = 1; k < 4; ++k) {
        const double ratio = std::stod(scaling[k].at("fluid_particles")) /
                             std::stod(scaling[k - 1].at("fluid_particles"));
        EXPECT_NEAR(ratio, 2.0, 0.1);
    }
    // Each scaling point is the median of three repeats, with their spread.
    for (const auto& row : scaling) {
        EXPECT_EQ(row.at("repeats"), "3");
        EXPECT_LE(std::stod(row.at("ms_per_step_min")), std::stod(row.at("ms_per_step")));
        EXPECT_LE(std::stod(row.at("ms_per_step")), std::stod(row.at("ms_per_step_max")));
    }
    // Stability: a bracket per solver; WCSPH's stiff pressure needs steps far below PBF's.
    const auto best = csv_rows(r / "stable_dt.csv");
    ASSERT_EQ(best.size(), 2u);
    const double pbf = std::stod(best[0].at("largest_stable_dt"));
    const double wcsph = std::stod(best[1].at("largest_stable_dt"));
    EXPECT_GT(wcsph, 0.0);
    EXPECT_LT(wcsph, std::stod(best[1].at("smallest_unstable_dt")));
    EXPECT_LT(wcsph, 1e-3);
    EXPECT_GT(pbf, 4 * wcsph);
    const auto trials = csv_rows(r / "stability.csv");
    bool blew_up = false;
    for (const auto& t : trials) blew_up |= t.at("solver") == "wcsph" && t.at("stable") == "no";
    EXPECT_TRUE(blew_up);

    // Pictures: one row per sweep value, one column per solver.
    const render::Image pic = render::read_png(r / "side_by_side.png");
    EXPECT_EQ(pic.width, 2 * 640 + 8);
    EXPECT_EQ(pic.height, 2 * 400 + 8);
    // The report: every plot inlined.
    const std::string html = slurp(r / "index.html");
    std::size_t images = 0;
    for (std::size_t at = 0;
         (at = html.find("src=\"data:image/png;base64,", at)) != std::string::npos; ++at)
        ++images;
    // (Six since the run-time bar plot was added: time per simulated second, not per step only;
    // seven since the accuracy plot.)
    EXPECT_EQ(images, 7u);
    EXPECT_NE(html.find("Which solver reaches a given accuracy fastest"), std::string::npos);
    EXPECT_NE(html.find("faster per simulated second than"), std::string::npos);
    EXPECT_NE(html.find("PBF iterates until the mean error is at most its tolerance"),
              std::string::npos);
    EXPECT_NE(html.find("the mean density error passes 10%"), std::string::npos);
    // Accuracy: each solver at each default target (1%, 0.1%). PBF iterates down to its
    // tolerance; WCSPH's speed of sound is scaled from its main run, so a tighter target means a
    // stiffer fluid, smaller CFL steps and a smaller error.
    const auto accuracy = csv_rows(r / "accuracy.csv");
    ASSERT_EQ(accuracy.size(), 4u);
    std::map<std::string, std::map<std::string, std::string>> at;
    for (const auto& row : accuracy) {
        EXPECT_EQ(row.at("status"), "done");
        at[row.at("solver") + "@" + row.at("target_error")] = row;
    }
    for (const char* target : {"0.01", "0.001"})
        EXPECT_LE(std::stod(at.at(std::string("pbf@") + target).at("density_error_mean")),
                  std::stod(target));
    EXPECT_GT(std::stod(at.at("pbf@0.001").at("iterations_per_step")),
              std::stod(at.at("pbf@0.01").at("iterations_per_step")));
    EXPECT_NE(at.at("wcsph@0.001").at("setting").find("solver.wcsph.speed_of_sound="),
              std::string::npos);
    EXPECT_GT(std::stod(at.at("wcsph@0.001").at("steps")),
              2 * std::stod(at.at("wcsph@0.01").at("steps")));
    EXPECT_LT(std::stod(at.at("wcsph@0.001").at("density_error_mean")),
              0.5 * std::stod(at.at("wcsph@0.01").at("density_error_mean")));
    for (const char* plot : {"density_error.png", "kinetic_energy.png", "run_time.png",
                             "ms_per_step.png", "stable_dt.png", "accuracy.png"})
        EXPECT_TRUE(fs::exists(r / plot)) << plot;
    fs::remove_all(dir);
}

TEST(CompareCli, BadSweepsAreRefusedBeforeAnythingRuns) {
    const fs::path dir = fresh_dir("seiche_test_compare_bad");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    EXPECT_EQ(run_cli("compare " + scene + " --sweep solver.pbf.max_iterations=4,0 -o " +
                          (dir / "r").string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("solver.pbf.max_iterations"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "r" / "runs.csv"));
    EXPECT_EQ(run_cli("compare " + scene + " --sweep particle_radius -o " + (dir / "r").string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("key=v1,v2"), std::string::npos);
    EXPECT_EQ(run_cli("compare " + scene + " --solvers pbf,sph", dir / "log"), 2);
    // A target error outside (0, 10%] is refused, naming the option.
    EXPECT_EQ(run_cli("compare " + scene + " --accuracy 0.01,0.5 -o " + (dir / "r").string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("--accuracy"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "r" / "runs.csv"));
    fs::remove_all(dir);
}

// A scene with pressure sensors: sensors.csv holds every run's readings (their names as columns)
// and the report plots them; a sweep that renames them is refused before anything runs.
// A run whose solve drove its error up (DFSPH under a long plate: DfsphClosedLayer in
// test_solvers.cpp) says so in its detail column; the same scene with plain Jacobi does not.
TEST(CompareCli, SaysWhichRunsDroveTheirErrorUp) {
    const fs::path dir = fresh_dir("seiche_test_compare_diverged");
    std::ofstream(dir / "layer.json") << R"({"dimension": 2, "particle_radius": 0.00125,
        "gravity": [0, 0], "container": {"min": [0, 0], "max": [0.8, 0.1]},
        "fluid": [{"min": [0, 0], "max": [0.8, 0.02]}],
        "obstacles": [{"min": [0.1, 0.02], "max": [0.7, 0.03]}],
        "solver": {"type": "dfsph"}, "time": {"end_time": 0.1}})";
    ASSERT_EQ(run_cli("compare " + (dir / "layer.json").string() +
                          " --solvers dfsph --sweep solver.dfsph.chebyshev=0,0.99 --no-scaling "
                          "--no-stability --no-accuracy -q -o " + (dir / "r").string(),
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const auto runs = csv_rows(dir / "r" / "runs.csv");
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& row : runs) {
        const bool semi = row.at("params") == "solver.dfsph.chebyshev=0.99";
        EXPECT_EQ(row.at("detail").find("drove its error up on ") != std::string::npos, semi)
            << row.at("params") << ": " << row.at("detail");
    }
}

TEST(CompareCli, ReadsTheScenesSensorsForEveryRun) {
    const fs::path dir = fresh_dir("seiche_test_compare_sensors");
    std::ofstream(dir / "tank.json") << R"({
  "name": "compare_tank", "dimension": 2, "particle_radius": 0.005, "gravity": [0, -9.81],
  "container": { "min": [0, 0], "max": [0.3, 0.3] },
  "fluid": [ { "min": [0, 0], "max": [0.3, 0.15] } ],
  "time": { "end_time": 0.6 },
  "sensors": [ { "name": "floor", "face": "-y", "centre": [0.15, 0], "size": 0.1 },
               { "name": "wall", "face": "+x", "centre": [0.3, 0.05], "size": 0.04 } ],
  "output": { "sensor_rate": 100 }
})";
    const std::string common = " --no-scaling --no-stability --no-accuracy -q -o " + (dir / "r").string();
    ASSERT_EQ(run_cli("compare " + (dir / "tank.json").string() + " --solvers pbf,wcsph" + common,
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const auto rows = csv_rows(dir / "r" / "sensors.csv");
    std::map<std::string, std::vector<std::pair<double, double>>> floor;  // run: (t, Pa)
    for (const auto& row : rows) {
        ASSERT_EQ(row.size(), 4u);  // run, time, floor, wall
        floor[row.at("run")].emplace_back(std::stod(row.at("time")), std::stod(row.at("floor")));
    }
    ASSERT_EQ(floor.size(), 2u);
    for (const auto& [run, readings] : floor) {
        EXPECT_EQ(readings.size(), 60u) << run;  // 0.6 s at 100 Hz
        // The tank settles: over the last 0.3 s the floor carries ρ0·g·H, H = 0.15 m.
        double sum = 0;
        int n = 0;
        for (const auto& [t, p] : readings)
            if (t > 0.3) sum += p, ++n;
        EXPECT_NEAR(sum / n / (1000 * 9.81 * 0.15), 1.0, 0.05) << run;
    }
    if (fs::exists(dir / "r" / "index.html")) {  // plots: python3-matplotlib
        EXPECT_TRUE(fs::exists(dir / "r" / "sensors.png"));
        EXPECT_NE(slurp(dir / "r" / "index.html").find("pressure sensors under each run"),
                  std::string::npos);
    }
    EXPECT_EQ(run_cli("compare " + (dir / "tank.json").string() +
                          " --solvers pbf --sweep sensors[1].name=a,b -o " + (dir / "s").string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("the sweep changes the sensors' names or number"),
              std::string::npos)
        << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(dir / "s" / "runs.csv"));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche
