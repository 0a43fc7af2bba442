// Front position and probe height on synthetic particle sets with known answers, and the
// validate command's verdicts for PBF.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_helpers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/measure.hpp"

namespace seiche {
namespace {

constexpr float r = 0.01f, d = 2 * r;

std::vector<Vec<2>> block2d(int nx, int ny, float x0 = 0.0f) {
    std::vector<Vec<2>> x;
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) x.emplace_back(x0 + r + i * d, r + j * d);
    return x;
}

TEST(Measure, FrontIsTheBulkEdgeAndIgnoresSpray) {
    auto x = block2d(20, 10);  // right edge of the fluid at 20 d = 0.4 m
    EXPECT_NEAR(surge_front<2>(x, r, 0.0f, 5 * d), 20 * d, 1e-6);
    // A drop ahead of the front with an empty column before it, one on the floor further away,
    // and a splash above the band: none moves the front.
    x.emplace_back(20 * d + 2.5f * d, r);
    x.emplace_back(40 * d, r);
    x.emplace_back(60 * d, 8 * d);
    EXPECT_NEAR(surge_front<2>(x, r, 0.0f, 5 * d), 20 * d, 1e-6);
    // A thin tongue one particle high, still touching the bulk, does move it.
    for (int i = 0; i < 5; ++i) x.emplace_back(20 * d + r + i * d, r);
    EXPECT_NEAR(surge_front<2>(x, r, 0.0f, 5 * d), 25 * d, 1e-6);
    // Irregular spacing within 1.5 columns keeps the run going.
    std::vector<Vec<2>> jagged = {{r, r}, {r + 1.4f * d, 2 * r}, {r + 2.8f * d, r}};
    EXPECT_NEAR(surge_front<2>(jagged, r, 0.0f, 5 * d), 2.8f * d + 2 * r, 1e-6);
    EXPECT_TRUE(std::isnan(surge_front<2>(std::vector<Vec<2>>{{0.5f, 1.0f}}, r, 0.0f, 5 * d)));
}

TEST(Measure, ProbeHeightIsTheTopOfTheStackFromTheFloor) {
    auto x = block2d(10, 15);  // 15 rows: water 0.3 m deep
    EXPECT_NEAR(probe_height<2>(x, r, 5 * d, 0.0f, 0.0f), 15 * d, 1e-6);
    // A drop above the water, two diameters clear of it, is spray.
    x.emplace_back(5 * d, 15 * d + 2.5f * d);
    EXPECT_NEAR(probe_height<2>(x, r, 5 * d, 0.0f, 0.0f), 15 * d, 1e-6);
    // Beside the block the floor is dry, even under a falling drop.
    x.emplace_back(30 * d, 10 * d);
    EXPECT_EQ(probe_height<2>(x, r, 30 * d, 0.0f, 0.0f), 0.0);
    // 3D: a column at (0.5, 0.25) with a floor at y = 1.
    std::vector<Vec<3>> c;
    for (int j = 0; j < 7; ++j) c.emplace_back(0.5f + 0.5f * r, 1.0f + r + j * d, 0.25f);
    EXPECT_NEAR(probe_height<3>(c, r, 0.5f, 0.25f, 1.0f), 7 * d, 1e-5);
    EXPECT_EQ(probe_height<3>(c, r, 0.5f, 0.35f, 1.0f), 0.0);  // 5 r away: not on the line
}

// A wave gauge's depth: a lattice slab of depth H reads H (2D and 3D, on a lattice point and
// between), a drop thrown above it adds its volume, not its height, and a dry floor reads 0.
TEST(Measure, WaterDepthIsTheVolumeOverTheFloor) {
    auto x = block2d(40, 15);  // 15 rows: 0.3 m deep, 0.8 m long
    for (float radius : {2 * d, 4 * d})
        for (float at : {20 * d, 20.5f * d})
            EXPECT_NEAR(water_depth<2>(x, r, at, 0.0f, radius), 15 * d, 1e-3 * 15 * d) << at;
    x.emplace_back(20 * d, 30 * d);  // spray, 0.3 m above the surface: d/3 right over the gauge
    EXPECT_NEAR(water_depth<2>(x, r, 20 * d, 0.0f, 4 * d), 15 * d + d / 3, 1e-3 * 15 * d);
    EXPECT_GT(water_depth<2>(x, r, 20 * d, 0.0f, 4 * d), 15 * d);
    EXPECT_EQ(water_depth<2>(x, r, 60 * d, 0.0f, 4 * d), 0.0);
    std::vector<Vec<3>> c;  // a 3D slab 0.14 m deep
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 7; ++j)
            for (int k = 0; k < 20; ++k) c.emplace_back(r + i * d, r + j * d, r + k * d);
    for (float radius : {2 * d, 4 * d})
        for (float at : {10 * d, 10.5f * d})
            EXPECT_NEAR(water_depth<3>(c, r, at, at, radius), 7 * d, 1e-2 * 7 * d) << at;
}

// `seiche validate ARGS --no-plots -q` into a fresh directory `name` under the temporary one:
// its exit code and verdicts.csv; the results in dir/out, the log in dir/log.
struct ValidateRun {
    std::filesystem::path dir;
    int code;
    std::string verdicts;
};
ValidateRun run_validate(const std::string& name, const std::string& args) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const int code = test::run_cli(
        "validate " + args + " --no-plots -q -o " + (dir / "out").string(), dir / "log");
    return {dir, code, test::slurp(dir / "out" / "verdicts.csv")};
}

TEST(Validate, PbfPassesTheFrontAndHydrostaticCases) {
    namespace fs = std::filesystem;
    const auto [dir, code, verdicts] =
        run_validate("seiche_test_validate", "koshizuka hydrostatic --solvers pbf");
    EXPECT_EQ(code, 0) << test::slurp(dir / "log");
    // header + 6: the front against Koshizuka & Oka (its time shift within ±0.2 in T), against
    // Martin & Moyce (its start fitted) and K&O's without a shift (issue 47's gate, reported);
    // the height, the density and the walls' pressure slope
    EXPECT_EQ(std::count(verdicts.begin(), verdicts.end(), '\n'), 7) << verdicts;
    EXPECT_EQ(verdicts.find(",fail,"), std::string::npos) << verdicts;
    EXPECT_NE(verdicts.find("koshizuka,pbf,surge front vs Martin & Moyce (start fitted),"),
              std::string::npos)
        << verdicts;
    EXPECT_NE(verdicts.find(",0.05,not met (reported),\"largest deviation at T = 2.72, no gate;"),
              std::string::npos)
        << verdicts;
    // Every row has the header's seven fields: the details' commas are inside quotes.
    std::istringstream lines(verdicts);
    for (std::string line; std::getline(lines, line);) {
        int fields = 1;
        bool quoted = false;
        for (char c : line) {
            if (c == '"') quoted = !quoted;
            else if (c == ',' && !quoted) ++fields;
        }
        EXPECT_EQ(fields, 7) << line;
    }
    // verdicts.md: the same verdicts as a table, a row per quantity and a column per solver, each
    // cell the CSV's deviation in per cent.
    const std::string md = test::slurp(dir / "out" / "verdicts.md");
    EXPECT_EQ(md.rfind("| case | quantity | gate | pbf |\n| --- | --- | --- | --- |\n", 0), 0u) << md;
    // 2 + 6 rows, and a blank line and the footnote of the reported row
    EXPECT_EQ(std::count(md.begin(), md.end(), '\n'), 10) << md;
    std::istringstream rows(verdicts);
    std::string row;
    std::getline(rows, row);  // the header
    while (std::getline(rows, row)) {
        std::vector<std::string> f;
        std::istringstream fields(row);
        for (std::string x; f.size() < 6 && std::getline(fields, x, ',');) f.push_back(x);
        ASSERT_EQ(f.size(), 6u) << row;
        const std::string head = fmt::format("| {} | {} | {:g}% | ", f[0], f[2], 100 * std::stod(f[4]));
        const std::size_t at = md.find(head);
        ASSERT_NE(at, std::string::npos) << head << "\n" << md;
        std::istringstream cell(md.substr(at + head.size()));
        double percent = -1;
        std::string verdict;
        cell >> percent;
        EXPECT_EQ(cell.get(), '%') << row;
        cell >> verdict;
        EXPECT_NEAR(percent, 100 * std::stod(f[3]), 0.006) << row << "\n" << md;
        // every gate passes; the reported row reads "not met*"
        EXPECT_EQ(verdict, f[5] == "not met (reported)" ? "not" : "pass") << row;
    }
    EXPECT_EQ(test::run_cli("validate nonsense", dir / "log"), 2);
    fs::remove_all(dir);
}

// A dam-break case's depth profile at t = 1 s from its CSV (solver,t,xi,h_over_h0,<solution>):
// (ξ, h/h0) in the file's order, the header and each row's fields checked.
std::vector<std::pair<double, double>> profile_at_one_second(const std::filesystem::path& file,
                                                             const std::string& header) {
    std::istringstream csv(test::slurp(file));
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, header);
    std::vector<std::pair<double, double>> out;
    while (std::getline(csv, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        EXPECT_EQ(f.size(), 5u) << line;
        if (f.size() != 5u) return {};
        if (std::abs(std::stod(f[1]) - 1.0) <= 1e-9) out.emplace_back(std::stod(f[2]), std::stod(f[3]));
    }
    return out;
}

// Ritter's dry-bed dam break: PBF's depth profile comes to the shallow-water solution
// h/h0 = (2 − ξ)²/9 (Ritter 1892), computed here, within 5% of h0 at every sampled ξ from −0.9
// to 1 at t = 1 s (c0 t = 10 h0), and its depth at the dam site to 4/9 h0; the case's two verdicts
// pass.
TEST(Validate, PbfComesToRittersDryBedProfile) {
    namespace fs = std::filesystem;
    const auto [dir, code, verdicts] = run_validate("seiche_test_validate_ritter", "ritter --solvers pbf");
    EXPECT_EQ(code, 0) << test::slurp(dir / "log");
    EXPECT_EQ(std::count(verdicts.begin(), verdicts.end(), '\n'), 3) << verdicts;  // header + 2
    EXPECT_EQ(verdicts.find(",fail,"), std::string::npos) << verdicts;
    int checked = 0;
    for (const auto& [xi, h] :
         profile_at_one_second(dir / "out" / "ritter.csv", "solver,t,xi,h_over_h0,ritter")) {
        if (xi < -0.9 - 1e-9 || xi > 1.0 + 1e-9) continue;
        EXPECT_NEAR(h, (2 - xi) * (2 - xi) / 9, 0.05) << xi;
        if (std::abs(xi) < 1e-9) EXPECT_NEAR(h, 4.0 / 9.0, 0.05 * 4.0 / 9.0) << xi;
        ++checked;
    }
    EXPECT_EQ(checked, 39);
    fs::remove_all(dir);
}

// Stoker's wet-bed dam break: PBF's bore runs at Stoker's speed S and leaves his depth h2 behind
// it, both read from validation/data/analytic_stoker_wet_bed_dambreak.csv (whose row is first
// checked against the bore's mass and momentum balance here), at t = 1 s (c0 t = 10 h0): the
// uniform state's samples within 5% of h2 on average and 8% each, the still layer's ahead within
// 5% of h1, the rarefaction's within 5% of h0 of Ritter's (2 − ξ)²/9, and the last sample at or above
// (h1 + h2)/2 within a sample's step of S; the case's two verdicts pass.
TEST(Validate, PbfMeetsStokersBore) {
    namespace fs = std::filesystem;
    double h1 = 0.2, h2 = NAN, S = NAN;
    {
        std::istringstream data(test::slurp(fs::path(SEICHE_SOURCE_DIR) / "validation" / "data" /
                                            "analytic_stoker_wet_bed_dambreak.csv"));
        for (std::string line; std::getline(data, line);) {
            if (line.empty() || line[0] == '#' || line[0] == 'h') continue;
            std::istringstream f(line);
            double row[5];
            char comma;
            f >> row[0] >> comma >> row[1] >> comma >> row[2] >> comma >> row[3];
            if (std::abs(row[0] - h1) < 1e-9) h2 = row[1], S = row[3];
        }
    }
    ASSERT_TRUE(h2 > h1 && h2 < 1) << h2;
    EXPECT_NEAR(2 * (1 - std::sqrt(h2)), (h2 - h1) * std::sqrt((h2 + h1) / (2 * h2 * h1)), 1e-4);
    EXPECT_NEAR(S, h2 * 2 * (1 - std::sqrt(h2)) / (h2 - h1), 1e-4);
    const double tail = 2 * (1 - std::sqrt(h2)) - std::sqrt(h2);

    const auto [dir, code, verdicts] = run_validate("seiche_test_validate_stoker", "stoker --solvers pbf");
    EXPECT_EQ(code, 0) << test::slurp(dir / "log");
    EXPECT_EQ(std::count(verdicts.begin(), verdicts.end(), '\n'), 3) << verdicts;  // header + 2
    EXPECT_EQ(verdicts.find(",fail,"), std::string::npos) << verdicts;
    int state = 0, layer = 0, fan = 0;
    double last_above = -INFINITY, state_sum = 0;
    for (const auto& [xi, h] :
         profile_at_one_second(dir / "out" / "stoker.csv", "solver,t,xi,h_over_h0,stoker")) {
        if (h >= 0.5 * (h1 + h2)) last_above = xi;
        if (xi >= 0.1 - 1e-9 && xi <= 0.8 + 1e-9) {
            EXPECT_NEAR(h, h2, 0.08 * h2) << xi;
            state_sum += h;
            ++state;
        }
        if (xi >= 1.1 - 1e-9 && xi <= 1.5 + 1e-9) {
            EXPECT_NEAR(h, h1, 0.05 * h1) << xi;
            ++layer;
        }
        if (xi >= -0.9 - 1e-9 && xi <= tail - 0.05) {
            EXPECT_NEAR(h, (2 - xi) * (2 - xi) / 9, 0.05) << xi;
            ++fan;
        }
    }
    EXPECT_EQ(state, 15);
    EXPECT_NEAR(state_sum / state, h2, 0.05 * h2);
    EXPECT_EQ(layer, 9);
    EXPECT_EQ(fan, 15);
    EXPECT_NEAR(last_above, S, 0.05 + 1e-9);
    fs::remove_all(dir);
}

// lobovsky_fine is lobovsky at a quarter of its particle radius with the wall function: the two
// scenes agree in everything else, and the case runs by name into verdict rows of its own (here
// at lobovsky's radius and 0.45 s, a few seconds; its own radius takes PBF about 8 minutes).
TEST(Validate, LobovskyFineIsLobovskyFinerWithTheWallFunction) {
    namespace fs = std::filesystem;
    const fs::path scenes = fs::path(SEICHE_SOURCE_DIR) / "scenes" / "validation";
    const Scene coarse = io::load_scene(scenes / "lobovsky_2014_2d.json");
    Scene fine = io::load_scene(scenes / "lobovsky_2014_2d_fine.json");
    EXPECT_DOUBLE_EQ(fine.particle_radius, coarse.particle_radius / 4);
    EXPECT_FALSE(coarse.solver.wall_function);
    EXPECT_TRUE(fine.solver.wall_function);
    EXPECT_EQ(fine.solver.kinematic_viscosity, coarse.solver.kinematic_viscosity);
    EXPECT_EQ(fine.container_min, coarse.container_min);
    EXPECT_EQ(fine.container_max, coarse.container_max);
    ASSERT_EQ(fine.fluid.size(), coarse.fluid.size());
    EXPECT_EQ(fine.fluid[0].min, coarse.fluid[0].min);
    EXPECT_EQ(fine.fluid[0].max, coarse.fluid[0].max);
    EXPECT_EQ(fine.fluid[0].rest_gap, coarse.fluid[0].rest_gap);
    EXPECT_EQ(fine.gravity, coarse.gravity);
    EXPECT_EQ(fine.time.end_time, coarse.time.end_time);

    const auto [dir, code, verdicts] = run_validate(
        "seiche_test_validate_fine",
        "lobovsky_fine --solvers pbf --set particle_radius=0.0025 --set time.end_time=0.45");
    EXPECT_TRUE(code == 0 || code == 4) << code << test::slurp(dir / "log");
    // header + 3 pressure figures + 4 water levels
    EXPECT_EQ(std::count(verdicts.begin(), verdicts.end(), '\n'), 8) << verdicts;
    EXPECT_NE(verdicts.find("lobovsky_fine,pbf,sensor 2 impact time,"), std::string::npos) << verdicts;
    EXPECT_TRUE(fs::exists(dir / "out" / "lobovsky_fine_sensor2_5ms.csv"));
    fs::remove_all(dir);
}

// Lobovsky et al. 2014, sensor 2, with PBF (about 10 s): the impact reaches the sensor within 3%
// of the runs' median time with no time shift; every gate has its verdict row; the sensor-2 trace
// and its 5 ms mean are written. (The peak and the plateau read high in every solver: docs/solvers.md.)
TEST(Validate, PbfMeetsLobovskysImpactTime) {
    namespace fs = std::filesystem;
    const auto [dir, code, verdicts] =
        run_validate("seiche_test_validate_lobovsky", "lobovsky --solvers pbf");
    EXPECT_TRUE(code == 0 || code == 4) << code << test::slurp(dir / "log");  // 4: a gate failed
    // header + 3 pressure figures + 4 water levels
    EXPECT_EQ(std::count(verdicts.begin(), verdicts.end(), '\n'), 8) << verdicts;
    EXPECT_NE(verdicts.find("lobovsky,pbf,sensor 2 impact time,"), std::string::npos) << verdicts;
    // The water levels at the four gauges follow the record within 5% of H (RMS, to T = 5.5;
    // PBF reads 1.5-1.9%): reported, so their rows say pass or "not met (reported)", never fail.
    for (const char* gauge : {"H1 (x = 0.3 m)", "H2 (x = 0.865 m)", "H3 (x = 1.114 m)", "H4 (x = 1.3625 m)"}) {
        const std::size_t row = verdicts.find(std::string("lobovsky,pbf,water level ") + gauge + " RMS / H,");
        ASSERT_NE(row, std::string::npos) << gauge << verdicts;
        const std::string line = verdicts.substr(row, verdicts.find('\n', row) - row);
        EXPECT_NE(line.find(",0.05,pass,"), std::string::npos) << line;
    }
    EXPECT_NE(verdicts.find(",0.03,pass,"), std::string::npos) << "impact time: " << verdicts;
    // A failed gate is marked in the table as in the CSV (the plateau, 10%: PBF reads it ~30% high).
    const std::string md = test::slurp(dir / "out" / "verdicts.md");
    EXPECT_EQ(md.find("| lobovsky | sensor 2 plateau") != std::string::npos &&
                  md.find("**FAIL** |") != std::string::npos,
              verdicts.find(",fail,") != std::string::npos)
        << md << verdicts;
    EXPECT_NE(test::slurp(dir / "out" / "lobovsky.csv").find("solver,t,T,p1,p2,p3,p4\npbf,"),
              std::string::npos);
    EXPECT_NE(test::slurp(dir / "out" / "lobovsky_sensor2_5ms.csv").find("solver,T,p2\npbf,"),
              std::string::npos);
    EXPECT_NE(test::slurp(dir / "out" / "lobovsky_levels.csv").find("solver,t,T,h1,h2,h3,h4\npbf,0.000000,"),
              std::string::npos);
    fs::remove_all(dir);
}

// A case cut short by --set time.end_time fails and says why, rather than pass on the part of the
// record it reached (K&O's front is compared up to T = 3.1, Lobovsky's plateau up to T = 5.5).
TEST(Validate, AShortenedRunFailsAndSaysWhy) {
    namespace fs = std::filesystem;
    const auto [dir, code, verdicts] = run_validate(
        "seiche_test_validate_short", "koshizuka lobovsky ritter stoker --solvers pbf --set time.end_time=0.1");
    EXPECT_EQ(code, 4) << test::slurp(dir / "log");
    EXPECT_NE(
        verdicts.find("koshizuka,pbf,surge front Z(T),nan,0.12,fail,\"the run ends at T = 1.16, "
                      "before the record's last point (T = 3.10)"),
        std::string::npos)
        << verdicts;
    for (const char* quantity : {"impact time", "peak in the band", "plateau"}) {
        const std::size_t row =
            verdicts.find(std::string("lobovsky,pbf,sensor 2 ") + quantity + ",nan,");
        ASSERT_NE(row, std::string::npos) << quantity << "\n" << verdicts;
        const std::string line = verdicts.substr(row, verdicts.find('\n', row) - row);
        EXPECT_NE(line.find(",fail,"), std::string::npos) << line;
        EXPECT_NE(line.find("the run ends at T = 0.57, before T = 5.5"), std::string::npos) << line;
    }
    for (const std::string row : {"depth profile RMS / h0,nan,0.03", "depth at the dam site / (4/9) h0,nan,0.05"})
        EXPECT_NE(verdicts.find("ritter,pbf," + row +
                                ",fail,\"the run ends at t = 0.1 s, before the gated times 0.8 and 1 s"),
                  std::string::npos)
            << row << "\n" << verdicts;
    for (const std::string row : {"bore position / S c0 t,nan,0.05", "depth behind the bore / h2,nan,0.05"})
        EXPECT_NE(verdicts.find("stoker,pbf," + row +
                                ",fail,\"the run ends at t = 0.1 s, before the gated times 0.8 and 1 s"),
                  std::string::npos)
            << row << "\n" << verdicts;
    fs::remove_all(dir);
}

// --set is checked against the scenes of the cases asked for, each error naming its scene: a
// 3D container for spheric is taken (the 2D K&O scene, not asked for, would refuse it); a radius
// too coarse for the SPHERIC box is refused with that scene's path; the surface_tension case
// alone has no scene to change, which is said rather than ignored.
TEST(Validate, SetIsCheckedAgainstTheScenesOfTheCasesAskedFor) {
    namespace fs = std::filesystem;
    const auto [dir, code, verdicts] = run_validate(
        "seiche_test_validate_set_3d",
        "spheric --solvers pbf --set 'container.max=[3.22,1.2,1.0]' --set time.end_time=0.02");
    EXPECT_TRUE(code == 0 || code == 4) << code << test::slurp(dir / "log");
    EXPECT_NE(verdicts.find("spheric,pbf,water height H4"), std::string::npos) << verdicts;
    fs::remove_all(dir);
    const auto [coarse_dir, coarse_code, coarse_verdicts] = run_validate(
        "seiche_test_validate_set_coarse", "spheric --solvers pbf --set particle_radius=0.2");
    EXPECT_EQ(coarse_code, 2);
    const std::string log = test::slurp(coarse_dir / "log");
    EXPECT_NE(log.find("obstacles[0]"), std::string::npos) << log;
    EXPECT_NE(log.find("(in scenes/validation/spheric_test2_3d.json, case spheric)"),
              std::string::npos)
        << log;
    EXPECT_TRUE(coarse_verdicts.empty());
    fs::remove_all(coarse_dir);
    const auto [st_dir, st_code, st_verdicts] = run_validate(
        "seiche_test_validate_set_drops", "surface_tension --solvers pbf --set particle_radius=0.01");
    EXPECT_EQ(st_code, 2);
    EXPECT_NE(test::slurp(st_dir / "log").find("no scene to change"), std::string::npos)
        << test::slurp(st_dir / "log");
    fs::remove_all(st_dir);
}

// SPHERIC Test 2 with PBF for its first 0.5 s (about 4 s): the four wave probes in the
// benchmark's order, H1 behind the box to H4 in the reservoir, each with its verdict row; at the
// start only H4 is wet, 0.55 m deep; H4's drop follows the record within the 5% gate and starts
// as the potential flow does, and the flow reaches H3, 0.5 m from the door, within 0.05 s of the
// record's 0.218 s.
TEST(Validate, SphericReadsTheFourWaveProbes) {
    namespace fs = std::filesystem;
    const auto [dir, code, verdicts] = run_validate(
        "seiche_test_validate_spheric", "spheric --solvers pbf --set time.end_time=0.5");
    EXPECT_TRUE(code == 0 || code == 4) << code << test::slurp(dir / "log");  // 4: a gate failed
    for (int k = 1; k <= 4; ++k)
        EXPECT_NE(verdicts.find("spheric,pbf,water height H" + std::to_string(k) + " RMS / depth,"),
                  std::string::npos)
            << k << verdicts;
    const std::size_t h4 = verdicts.find("water height H4 RMS / depth,");
    EXPECT_NE(verdicts.substr(h4, verdicts.find('\n', h4) - h4).find(",0.05,pass,"),
              std::string::npos)
        << verdicts;
    const std::string csv = test::slurp(dir / "out" / "spheric.csv");
    ASSERT_EQ(csv.rfind("solver,t,H1,H2,H3,H4\npbf,0.0000,", 0), 0u) << csv.substr(0, 80);
    const std::size_t line = csv.find('\n') + 1;
    std::istringstream first(csv.substr(line, csv.find('\n', line) - line));
    std::string cell;
    std::vector<double> row;
    for (std::getline(first, cell, ','); std::getline(first, cell, ',');) row.push_back(std::stod(cell));
    ASSERT_EQ(row.size(), 5u);
    EXPECT_EQ(row[1], 0.0);
    EXPECT_EQ(row[2], 0.0);
    EXPECT_EQ(row[3], 0.0);
    EXPECT_NEAR(row[4], 0.55, 0.01);
    // The reservoir's first fall follows the potential flow's from the release; the record's own
    // H4 falls as if released 20-40 ms before its t = 0 (dam_break_start.hpp, docs/solvers.md).
    const std::size_t fall = verdicts.find("spheric,pbf,H4 first fall: release / 0.1 s,");
    ASSERT_NE(fall, std::string::npos) << verdicts;
    const std::string fall_row = verdicts.substr(fall, verdicts.find('\n', fall) - fall);
    EXPECT_NE(fall_row.find(",0.15,pass,"), std::string::npos) << fall_row;
    const std::size_t record_tau = fall_row.find("the record's tau = ");
    ASSERT_NE(record_tau, std::string::npos) << fall_row;
    const double clock_ms = std::stod(fall_row.substr(record_tau + 19));
    EXPECT_GT(clock_ms, 20.0) << fall_row;
    EXPECT_LT(clock_ms, 40.0) << fall_row;
    const std::size_t at = verdicts.find("arrives at H3 at ");
    ASSERT_NE(at, std::string::npos) << verdicts;
    const double h3 = std::stod(verdicts.substr(at + 17));
    EXPECT_NEAR(h3, 0.218, 0.05) << verdicts;
    fs::remove_all(dir);
}

// --set changes every case's scene: a bad value is refused before any case runs, with its path;
// a good one takes effect (K&O's front with ν = 10⁻³ m²/s, the walls holding it back: 7% from
// the experiment without a time shift, 21% inviscid) and is written beside the verdicts.
TEST(Validate, SetChangesEveryCasesSceneAndIsCheckedFirst) {
    namespace fs = std::filesystem;
    const auto [bad_dir, bad_code, bad_verdicts] = run_validate(
        "seiche_test_validate_set_bad", "koshizuka --solvers pbf --set solver.kinematic_viscosity=-1");
    EXPECT_EQ(bad_code, 2);
    EXPECT_NE(test::slurp(bad_dir / "log")
                  .find("--set: solver.kinematic_viscosity: expected a number in [0, 1], got -1"),
              std::string::npos)
        << test::slurp(bad_dir / "log");
    EXPECT_TRUE(bad_verdicts.empty());
    fs::remove_all(bad_dir);
    const auto [dir, code, verdicts] = run_validate(
        "seiche_test_validate_set", "koshizuka --solvers pbf --set solver.kinematic_viscosity=1e-3");
    EXPECT_EQ(code, 0) << test::slurp(dir / "log");
    EXPECT_EQ(test::slurp(dir / "out" / "overrides.txt"), "solver.kinematic_viscosity=1e-3\n");
    const std::size_t at = verdicts.find("% without shift");
    ASSERT_NE(at, std::string::npos) << verdicts;
    const std::size_t from = verdicts.rfind(' ', at) + 1;
    const double without_shift = std::stod(verdicts.substr(from, at - from));
    EXPECT_LT(without_shift, 12.0) << verdicts;
    fs::remove_all(dir);
}

// A verdict reached with a solve that stopped at its iteration cap above its tolerance says so
// in its detail (K&O with PBF at four iterations and a tolerance no four reach, about 1 s); the
// same case at a tolerance every step's third correction meets says nothing of it. (Two
// corrections a step, or one, leave this column unstable.)
TEST(Validate, AVerdictFromASolveStoppedShortSaysSo) {
    namespace fs = std::filesystem;
    const std::string capped = " --set solver.pbf.max_iterations=4";
    const auto [dir, code, verdicts] = run_validate(
        "seiche_test_validate_capped", "koshizuka --solvers pbf" + capped +
                                           " --set solver.pbf.min_iterations=1"
                                           " --set solver.pbf.density_tolerance=1e-7");
    EXPECT_TRUE(code == 0 || code == 4) << code << test::slurp(dir / "log");
    EXPECT_NE(verdicts.find("; its solve stopped at solver.pbf.max_iterations above "
                            "solver.pbf.density_tolerance on "),
              std::string::npos)
        << verdicts;
    fs::remove_all(dir);
    const auto [met_dir, met_code, met_verdicts] =
        run_validate("seiche_test_validate_capped_not",
                     "koshizuka --solvers pbf" + capped +
                         " --set solver.pbf.min_iterations=3 --set solver.pbf.density_tolerance=0.5");
    EXPECT_TRUE(met_code == 0 || met_code == 4) << met_code << test::slurp(met_dir / "log");
    EXPECT_NE(met_verdicts.find("koshizuka,pbf,"), std::string::npos) << met_verdicts;
    EXPECT_EQ(met_verdicts.find("its solve stopped"), std::string::npos) << met_verdicts;
    fs::remove_all(met_dir);
}

}  // namespace
}  // namespace seiche
