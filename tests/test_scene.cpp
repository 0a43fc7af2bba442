// Scene files: valid scenes load with defaults; bad ones are refused with the JSON path and what
// was expected; the CLI exits with 2 and writes nothing.
#include <gtest/gtest.h>

#include "cli_helpers.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "seiche/io/scene_loader.hpp"

namespace seiche {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json minimal_2d() {
    return json::parse(R"({
        "dimension": 2,
        "particle_radius": 0.01,
        "container": {"min": [0, 0], "max": [1, 1]},
        "fluid": [{"min": [0, 0], "max": [0.3, 0.5]}]
    })");
}

TEST(Scene, MinimalSceneGetsDefaults) {
    const Scene s = io::parse_scene(minimal_2d(), "mini");
    EXPECT_EQ(s.dimension, 2);
    EXPECT_EQ(s.name, "mini");
    EXPECT_EQ(s.kernel, KernelType::cubic_spline);
    EXPECT_DOUBLE_EQ(s.gravity[1], -9.81);
    EXPECT_EQ(s.output.directory, "out/mini");
    EXPECT_EQ(s.solver.pbf.max_iterations, PbfParams{}.max_iterations);
    ASSERT_EQ(s.fluid.size(), 1u);
    EXPECT_DOUBLE_EQ(s.fluid[0].max[1], 0.5);
}

TEST(Scene, ResolvedSceneRoundTrips) {
    json j = minimal_2d();
    j["solver"] = {{"type", "wcsph"}};
    EXPECT_EQ(io::parse_scene(io::scene_to_json(io::parse_scene(j, "w")), "w").solver.type,
              SolverType::wcsph);
    j["solver"] = {{"pbf", {{"max_iterations", 7}, {"unilateral", false}}}, {"vorticity", 0.2}};
    j["time"] = {{"dt_mode", "fixed"}, {"dt", 0.0005}};
    const Scene a = io::parse_scene(j, "rt");
    const json resolved = io::scene_to_json(a);
    const Scene b = io::parse_scene(resolved, "other");
    EXPECT_EQ(io::scene_to_json(b), resolved);
    EXPECT_EQ(b.solver.pbf.max_iterations, 7);
    EXPECT_FALSE(b.solver.pbf.unilateral);
    EXPECT_EQ(b.time.mode, TimeParams::Mode::fixed);
}

TEST(Scene, OverridesUseDottedPaths) {
    json j = minimal_2d();
    io::apply_override(j, "solver.pbf.max_iterations=6");
    io::apply_override(j, "fluid[0].velocity=[1.5, 0]");
    io::apply_override(j, "kernel=poly6_spiky");
    const Scene s = io::parse_scene(j, "o");
    EXPECT_EQ(s.solver.pbf.max_iterations, 6);
    EXPECT_DOUBLE_EQ(s.fluid[0].velocity[0], 1.5);
    EXPECT_EQ(s.kernel, KernelType::poly6_spiky);
    EXPECT_THROW(io::apply_override(j, "fluid[3].min=[0,0]"), io::SceneError);
    EXPECT_THROW(io::apply_override(j, "novalue"), io::SceneError);
}

struct BadCase {
    const char* what;
    const char* set;      // override applied to the minimal scene (key=value), or "" for erase
    const char* erase;    // top-level key to erase
    const char* path;     // expected JSON path in the error
    const char* message;  // expected fragment of the message
};

void PrintTo(const BadCase& c, std::ostream* os) {
    *os << c.what;
}

class BadScene : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadScene, IsRefusedWithPathAndExpectation) {
    const BadCase& c = GetParam();
    json j = minimal_2d();
    if (*c.set) io::apply_override(j, c.set);
    if (*c.erase) j.erase(c.erase);
    try {
        io::parse_scene(j, "bad");
        FAIL() << c.what << ": accepted";
    } catch (const io::SceneError& e) {
        EXPECT_EQ(e.path(), c.path) << c.what << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
            << c.what << ": " << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(
    Scene, BadScene,
    ::testing::Values(
        BadCase{"typo in a key", "particle_radus=0.01", "", "particle_radus",
                "did you mean \"particle_radius\""},
        BadCase{"unknown nested key", "solver.pbf.iterations=3", "", "solver.pbf.iterations",
                "unknown key"},
        BadCase{"wrong type", "particle_radius=\"small\"", "", "particle_radius",
                "expected a number in (0, 10], got a string"},
        BadCase{"negative size", "particle_radius=-0.01", "", "particle_radius",
                "expected a number in (0, 10]"},
        BadCase{"missing container", "", "container", "container", "missing"},
        BadCase{"missing fluid", "", "fluid", "fluid", "missing"},
        BadCase{"fluid outside the container", "fluid[0].max=[1.5, 0.5]", "", "fluid[0]",
                "outside the container on axis x"},
        BadCase{"inverted box", "container.max=[1, -1]", "", "container",
                "max must be greater than min on axis y"},
        BadCase{"vector of the wrong length", "gravity=[0, -9.81, 0]", "", "gravity",
                "expected an array of 2 numbers"},
        BadCase{"non-integer iterations", "solver.pbf.max_iterations=2.5", "",
                "solver.pbf.max_iterations", "expected an integer in [1, 1000]"},
        BadCase{"unknown solver", "solver.type=sph", "", "solver.type", "expected one of \"pbf\""},
        BadCase{"unknown kernel", "kernel=gaussian", "", "kernel",
                "expected one of \"cubic_spline\", \"poly6_spiky\""},
        BadCase{"support too wide for the kernel", "support_factor=5", "", "support_factor",
                "must be at most 4.5 with the cubic_spline kernel"},
        BadCase{"min above max iterations", "solver.pbf.min_iterations=50", "",
                "solver.pbf.min_iterations", "must not exceed max_iterations"},
        BadCase{"impossible dimension", "dimension=4", "", "dimension",
                "expected an integer in [2, 3]"},
        BadCase{"fluid thinner than a particle", "fluid[0].max=[0.005, 0.5]", "", "fluid[0]",
                "thinner than one particle diameter"},
        BadCase{"boolean expected", "output.vtk=1", "", "output.vtk", "expected true or false"},
        BadCase{"negative mesh cell", "surface.cell_size=-1", "", "surface.cell_size",
                "expected a number in [0.1, 8]"},
        BadCase{"iso level outside (0, 1)", "surface.iso=1", "", "surface.iso",
                "expected a number in (0, 1)"},
        BadCase{"typo in a surface key", "surface.cellsize=1", "", "surface.cellsize",
                "did you mean \"cell_size\""},
        BadCase{"zero frame rate", "time.frame_rate=0", "", "time.frame_rate",
                "expected a number in (0, 10000]"},
        BadCase{"absurd particle count", "particle_radius=0.00001", "", "fluid",
                "more than this build supports"},
        // Pressure sensors (scene.sensors): on a face of the container or an obstacle.
        BadCase{"sensor on an unknown object",
                R"(sensors=[{"object": "box", "face": "-x", "centre": [0, 0.1], "size": 0.05}])",
                "", "sensors[0].object", "expected \"container\", got \"box\""},
        BadCase{"sensor on a z face in 2D",
                R"(sensors=[{"face": "+z", "centre": [0, 0.1], "size": 0.05}])", "",
                "sensors[0].face", "a 2D scene's faces are -x, +x, -y and +y"},
        BadCase{"sensor off its face",
                R"(sensors=[{"face": "-x", "centre": [0, 1.5], "size": 0.05}])", "",
                "sensors[0].centre", "its y (1.5 m) is off the face, which spans 0 to 1 m"},
        BadCase{"sensor smaller than a spacing",
                R"(sensors=[{"face": "-x", "centre": [0, 0.1], "size": 0.01}])", "",
                "sensors[0].size", "expected at least one particle spacing (2r = 0.02 m)"},
        BadCase{"sensor without a face", R"(sensors=[{"centre": [0, 0.1], "size": 0.05}])", "",
                "sensors[0].face", "missing"},
        BadCase{"sensor with an unknown face",
                R"(sensors=[{"face": "left", "centre": [0, 0.1], "size": 0.05}])", "",
                "sensors[0].face", "expected one of"},
        BadCase{"two sensors of one name",
                R"(sensors=[{"name": "p", "face": "-x", "centre": [0, 0.1], "size": 0.05},)"
                R"({"name": "p", "face": "+x", "centre": [1, 0.1], "size": 0.05}])",
                "", "sensors[1].name", "\"p\" is already the name of sensors[0]"},
        BadCase{"sensor name with a comma",
                R"(sensors=[{"name": "a,b", "face": "-x", "centre": [0, 0.1], "size": 0.05}])", "",
                "sensors[0].name", "without commas"},
        BadCase{"sensor rate of zero", "output.sensor_rate=0", "", "output.sensor_rate",
                "expected a number in [1, 1000000]"}),
    [](const ::testing::TestParamInfo<BadCase>& info) {
        std::string name;
        for (const char* c = info.param.what; *c; ++c) name += std::isalnum(*c) ? *c : '_';
        return name;
    });

TEST(Scene, TooManySensorsAreRefusedBeforeTheyAreSetUp) {
    json j = minimal_2d();
    json sensor = {{"face", "-x"}, {"centre", {0, 0.1}}, {"size", 0.05}};
    j["sensors"] = json::array();
    for (int k = 0; k < 10001; ++k) j["sensors"].push_back(sensor);
    try {
        io::parse_scene(j, "bad");
        FAIL() << "accepted";
    } catch (const io::SceneError& e) {
        EXPECT_EQ(e.path(), "sensors");
        EXPECT_NE(std::string(e.what()).find("at most 10000 sensors, got 10001"), std::string::npos)
            << e.what();
    }
}

TEST(Scene, ASensorOnABodySaysWhereItsForceIs) {
    json j = minimal_2d();
    io::apply_override(j, R"(bodies=[{"name": "float", "size": [0.1, 0.1], "position": [0.6, 0.8]}])");
    io::apply_override(j, R"(sensors=[{"object": "float", "face": "-x", "centre": [0, 0.1], "size": 0.05}])");
    try {
        io::parse_scene(j, "bad");
        FAIL() << "accepted";
    } catch (const io::SceneError& e) {
        EXPECT_EQ(e.path(), "sensors[0].object");
        EXPECT_NE(std::string(e.what()).find("bodies[0] is a body: its force and torque are in "
                                             "bodies.csv"),
                  std::string::npos)
            << e.what();
    }
}

// ---- the command line ----

using test::run_cli;
using test::slurp;

TEST(SceneCli, BadScenesExitWithTwoAndWriteNothing) {
    const fs::path dir = fs::temp_directory_path() / "seiche_test_bad_scene";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path out = dir / "out";

    std::ofstream(dir / "typo.json") << R"({"dimension": 2, "particle_radius": 0.01,
        "container": {"min": [0, 0], "max": [1, 1]},
        "fluid": [{"min": [0, 0], "max": [0.3, 0.5], "velocty": [1, 0]}]})";
    EXPECT_EQ(run_cli("run " + (dir / "typo.json").string() + " -o " + out.string(), dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("fluid[0].velocty: unknown key (did you mean \"velocity\"?)"),
              std::string::npos)
        << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(out));

    std::ofstream(dir / "broken.json") << R"({"dimension": 2, )";
    EXPECT_EQ(run_cli("run " + (dir / "broken.json").string() + " -o " + out.string(), dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("not valid JSON"), std::string::npos) << slurp(dir / "log");

    EXPECT_EQ(
        run_cli("run " + (dir / "missing.json").string() + " -o " + out.string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("cannot read scene file"), std::string::npos);

    // A directory (say a run directory) is not read as a file that is not JSON.
    fs::create_directories(dir / "a_run");
    EXPECT_EQ(run_cli("run " + (dir / "a_run").string() + " -o " + out.string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("a_run is a directory; expected a scene file"),
              std::string::npos)
        << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(out));

    // A bad --set is a bad scene too.
    EXPECT_EQ(run_cli("run " + std::string(SEICHE_SOURCE_DIR) +
                          "/scenes/dam_break_2d.json --set solver.pbf.max_iterations=0 -o " +
                          out.string(),
                      dir / "log"),
              2);
    EXPECT_NE(
        slurp(dir / "log").find("solver.pbf.max_iterations: expected an integer in [1, 1000], got"),
        std::string::npos)
        << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(out));

    EXPECT_EQ(run_cli("run " + std::string(SEICHE_SOURCE_DIR) +
                          "/scenes/dam_break_2d.json --solver flip -o " + out.string(),
                      dir / "log"),
              2);
    std::string choices;  // "pbf", "wcsph", ... as the list has them
    for (const std::string& name : solver_names()) choices += (choices.empty() ? "\"" : ", \"") + name + "\"";
    EXPECT_NE(slurp(dir / "log").find("solver.type: expected one of " + choices + ", got \"flip\""),
              std::string::npos)
        << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(out));

    EXPECT_EQ(run_cli("run --threads 0 x.json", dir / "log"), 2);
    EXPECT_EQ(run_cli("run --help", dir / "log"), 0);
    EXPECT_NE(slurp(dir / "log").find("--set"), std::string::npos);
    fs::remove_all(dir);
}

TEST(SceneCli, ShippedScenesAreValid) {
    for (const char* name : {"dam_break_2d", "dam_break_3d", "double_dam_break_3d"}) {
        const Scene s =
            io::load_scene(fs::path(SEICHE_SOURCE_DIR) / "scenes" / (std::string(name) + ".json"));
        EXPECT_EQ(s.name, name);
    }
}

}  // namespace
}  // namespace seiche
