// Inputs that used to crash or hang (issue 14): each is refused with exit 2 (or 1 for a bad file
// of a run) and a message naming what was wrong, and writes nothing.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include "cli_helpers.hpp"

#include <fcntl.h>
#include <cmath>

#include <filesystem>
#include <fstream>
#include <string>

#include "seiche/io/readers.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;
using test::fresh_dir;
using test::run_cli;
using test::slurp;
using test::spawn_seiche;
using test::wait_for;

const std::string scene2d = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";

std::string with_radius(const std::string& radius_text) {
    std::string s = slurp(scene2d);
    const std::string key = "\"particle_radius\": 0.005";
    const std::size_t at = s.find(key);
    EXPECT_NE(at, std::string::npos);
    return s.replace(at, key.size(), "\"particle_radius\": " + radius_text);
}

TEST(HostileInput, SceneFilesThatCrashedAreRefused) {
    const fs::path dir = fresh_dir("seiche_test_hostile_scene");
    struct Case {
        const char* file;
        std::string text;
        const char* message;
    };
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    for (const Case& c : {Case{"overflow.json", with_radius("1e400"), "number overflow"},
                          Case{"deep.json", with_radius(deep), "nested more than 64 levels"},
                          Case{"deep_object.json",
                               with_radius(std::string(70, '[') + "1" + std::string(70, ']')),
                               "nested more than 64 levels"}}) {
        std::ofstream(dir / c.file) << c.text;
        EXPECT_EQ(run_cli("run " + (dir / c.file).string() + " -o " + (dir / "out").string(),
                          dir / "log"),
                  2)
            << c.file;
        EXPECT_NE(slurp(dir / "log").find(c.message), std::string::npos) << slurp(dir / "log");
        EXPECT_LT(slurp(dir / "log").size(), 1000u);  // bounded, not the whole value
        EXPECT_FALSE(fs::exists(dir / "out"));
    }
    // A --set value nested 60,000 deep overflowed the stack in the override copy.
    EXPECT_EQ(run_cli("run " + scene2d + " -o " + (dir / "out").string() +
                          " --set particle_radius=" + std::string(60000, '[') +
                          std::string(60000, ']'),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("nested more than 64 levels"), std::string::npos);
    // A file that never ends is not read for ever.
    EXPECT_EQ(run_cli("run /dev/zero -o " + (dir / "out").string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("larger than 64 MiB"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "out"));
    fs::remove_all(dir);
}

// Runs `seiche ARGS` as run_cli does, but killed after 30 s: a hang fails the test, not the suite.
int run_cli_bounded(const std::string& args, const fs::path& log) {
    const int status = std::system(("timeout -s KILL 30 " + std::string(SEICHE_BINARY) + " " + args + " > " +
                                    log.string() + " 2>&1")
                                       .c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A FIFO where seiche expects a file: the open waited for ever for a writer (a mesh, a keyframe
// CSV, a viewer script, the scene, a resumed run's checkpoint). Each is refused by name at once,
// and a refused resume leaves the run as it was.
TEST(HostileInput, FifosWhereAFileBelongsAreRefusedWithoutWaiting) {
    const fs::path dir = fresh_dir("seiche_test_hostile_fifo");
    auto fifo = [&](const std::string& name) {
        ASSERT_EQ(mkfifo((dir / name).c_str(), 0600), 0);
    };
    auto scene_with = [&](const std::string& body) {
        std::ofstream(dir / "scene.json") << R"({"dimension": 3, "particle_radius": 0.02,
          "container": {"min": [0, 0, 0], "max": [0.5, 0.5, 0.5]},
          "fluid": [{"min": [0, 0, 0], "max": [0.5, 0.2, 0.5]}],
          "bodies": [)" + body + R"(], "time": {"end_time": 0.05}})";
    };
    fifo("tank.obj");
    scene_with(R"({"shape": "mesh", "mesh": "tank.obj", "position": [0.25, 0.35, 0.25]})");
    EXPECT_EQ(run_cli_bounded("run " + (dir / "scene.json").string() + " -o " + (dir / "out").string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("the mesh file is a FIFO"), std::string::npos) << slurp(dir / "log");
    // A sparse gigabyte where the mesh belongs: refused by its size, not read whole.
    fs::remove(dir / "tank.obj");
    { std::ofstream(dir / "tank.obj"); }
    fs::resize_file(dir / "tank.obj", std::uintmax_t(1) << 30);
    EXPECT_EQ(run_cli_bounded("run " + (dir / "scene.json").string() + " -o " + (dir / "out").string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("is 1024 MiB, more than the 256 MiB"), std::string::npos) << slurp(dir / "log");
    fifo("paddle.csv");
    scene_with(R"({"shape": "box", "size": [0.1, 0.1, 0.1], "position": [0.25, 0.35, 0.25],
                   "motion": "kinematic", "keyframes": "paddle.csv"})");
    EXPECT_EQ(run_cli_bounded("run " + (dir / "scene.json").string() + " -o " + (dir / "out").string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("the keyframe file is a FIFO"), std::string::npos) << slurp(dir / "log");
    fifo("fifo_scene.json");
    EXPECT_EQ(run_cli_bounded("run " + (dir / "fifo_scene.json").string() + " -o " + (dir / "out").string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("is a FIFO"), std::string::npos) << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(dir / "out"));
    fifo("script.json");
    EXPECT_EQ(run_cli_bounded("view " + scene2d + " --frames 1 --script " + (dir / "script.json").string(), dir / "log"), 2);

    // A run with a checkpoint whose checkpoint.bin became a FIFO: refused, nothing removed.
    const fs::path run = dir / "run";
    ASSERT_EQ(run_cli_bounded("run " + scene2d + " -o " + run.string() + " -q --end-time 0.1 --set output.checkpoint_every=0.05", dir / "log"), 0)
        << slurp(dir / "log");
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(run)) files.push_back(e.path());
    fs::remove(run / "checkpoint.bin");
    fifo("run/checkpoint.bin");
    EXPECT_NE(run_cli_bounded("run --resume " + run.string() + " --end-time 0.2", dir / "log"), 0);
    EXPECT_NE(slurp(dir / "log").find("checkpoint is a FIFO"), std::string::npos) << slurp(dir / "log");
    for (const fs::path& f : files) EXPECT_TRUE(fs::exists(f)) << f;
    fs::remove_all(dir);
}

// A frame number past an int in a run's file name ended `seiche mesh` with the message "stoi":
// such a name is not one of seiche's frames (it writes six digits), and is passed over.
TEST(HostileInput, AFrameNumberPastAnIntIsNotOneOfTheRunsFrames) {
    const fs::path dir = fresh_dir("seiche_test_hostile_frame_number");
    ASSERT_EQ(run_cli_bounded("run " + scene2d + " -o " + (dir / "run").string() +
                                  " -q --end-time 0.05 --set output.vtk=false",
                              dir / "log"),
              0)
        << slurp(dir / "log");
    fs::copy_file(dir / "run/frames/frame_000001.ply", dir / "run/frames/frame_99999999999.ply");
    EXPECT_EQ(run_cli_bounded("mesh " + (dir / "run").string() + " -q", dir / "log"), 0) << slurp(dir / "log");
    EXPECT_TRUE(fs::exists(dir / "run/frames/surface_000001.ply"));
    EXPECT_FALSE(fs::exists(dir / "run/frames/surface_99999999999.ply"));
    fs::remove_all(dir);
}

TEST(HostileInput, CommandLineValuesThatWereIgnored) {
    const fs::path dir = fresh_dir("seiche_test_hostile_cli");
    for (const std::string args : {"--end-time nan", "--end-time inf", "--solver ''", "-o ''"}) {
        EXPECT_EQ(run_cli("run " + scene2d + " " + args, dir / "log"), 2) << args;
        EXPECT_NE(slurp(dir / "log").find("Run with --help"), std::string::npos) << args;
    }
    fs::remove_all(dir);
}

// Invalid UTF-8 in a --set value passed the loader and failed writing scene.json: exit 1 after
// the output directory was made. Now refused as input (exit 2), nothing written; real UTF-8 runs.
TEST(HostileInput, InvalidUtf8InSetIsRefused) {
    const fs::path dir = fresh_dir("seiche_test_hostile_utf8");
    for (const std::string bad : {"name=\xff\xfe", "name=\"ab\xc0\xaf\"", "name=\"\xed\xa0\x80\"",
                                  "name=\"\xf4\x90\x80\x80\"", "name=\"x\xe2\x82\""}) {
        EXPECT_EQ(run_cli("run " + scene2d + " -o " + (dir / "out").string() + " --set '" + bad + "'",
                          dir / "log"),
                  2)
            << bad;
        EXPECT_NE(slurp(dir / "log").find("not valid UTF-8"), std::string::npos) << slurp(dir / "log");
        EXPECT_FALSE(fs::exists(dir / "out"));
    }
    EXPECT_EQ(run_cli("run " + scene2d + " -q --end-time 0.01 -o " + (dir / "ok").string() +
                          " --set 'name=\"\xc3\xb1" "and\xc3\xba \xe2\x9c\x93 \xf0\x9d\x84\x9e\"'",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    EXPECT_NE(slurp(dir / "ok" / "scene.json").find("\xc3\xb1" "and\xc3\xba"), std::string::npos);
    fs::remove_all(dir);
}

TEST(HostileInput, ValuesThatValidatedAndThenBlewUp) {
    // Overlapping blocks duplicated particles; steps that become 0 in float.
    for (const auto& [set, path] : std::vector<std::pair<std::string, std::string>>{
             {"fluid=[{\"min\":[0,0],\"max\":[0.4,0.8]},{\"min\":[0.2,0],\"max\":[0.6,0.4]}]",
              "fluid[1]"},
             {"time.dt=1e-300", "time.dt"},
             {"time.max_dt=1e-300", "time.max_dt"},
             {"time.min_dt=1e-300", "time.min_dt"},
             {"rest_density=1e-300", "rest_density"},
             {"support_factor=8", "support_factor"},
             // twice the lattice's mass: the first step resolves a 100% compression
             {"particle_mass=1e3", "particle_mass"}}) {
        try {
            io::load_scene(scene2d, {set});
            ADD_FAILURE() << set << " was accepted";
        } catch (const io::SceneError& e) {
            EXPECT_EQ(e.path(), path) << e.what();
        }
    }
}

// support_factor 8 was inside the documented range and blew up the stock 3D dam break at its
// first step (5 at its second); the largest value now allowed runs it.
TEST(HostileInput, LargestSupportFactorRunsTheStock3dDamBreak) {
    const Scene scene = io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_3d.json",
                                       {"support_factor=4.5"});
    World<3> w(scene);
    AdvanceOptions o;
    o.max_steps = 15;
    const AdvanceResult r = w.advance_to(1.0, o);
    EXPECT_EQ(r.status, AdvanceResult::Status::step_limit)
        << (r.last.instability ? r.last.instability->reason : "");
}

// Found by libFuzzer (fuzz_scene_loader): an integer key given 3.8e46 was converted to int
// (undefined behaviour, UBSan) before its range was checked. Refused as a type error now, from a
// file, --set and World::set alike.
TEST(HostileInput, IntegersBeyondAnIntAreRefused) {
    try {
        io::load_scene(scene2d, {"solver.pbf.max_iterations=1e300"});
        ADD_FAILURE() << "accepted";
    } catch (const io::SceneError& e) {
        EXPECT_EQ(e.path(), "solver.pbf.max_iterations");
        EXPECT_NE(std::string(e.what()).find("expected an integer in [1, 1000]"), std::string::npos);
    }
    World<2> w(io::load_scene(scene2d, {}));
    for (const double bad : {1e300, -1e300, 2.5, std::nan("")})
        EXPECT_THROW(w.set("solver.pbf.max_iterations", bad), DefinitionError) << bad;
    EXPECT_EQ(w.definition().solver.pbf.max_iterations,
              io::load_scene(scene2d, {}).solver.pbf.max_iterations);
}

// Found by libFuzzer (fuzz_frame_reader): a .pvd timestep that is not a number escaped as
// std::invalid_argument ("seiche render: stod"). Now a message naming the file; a .pvd cannot
// send the readers outside the run directory either.
TEST(HostileInput, PvdWithABadTimestepOrAPathOutside) {
    auto refusal = [](const std::string& dataset) {
        try {
            io::parse_pvd("<VTKFile><Collection>" + dataset + "</Collection></VTKFile>", "p.pvd");
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal(R"(<DataSet timestep="g" file="frames/a.vtp"/>)").find("timestep \"g\""),
              std::string::npos);
    EXPECT_NE(refusal(R"(<DataSet timestep="1e999" file="frames/a.vtp"/>)").find("finite"),
              std::string::npos);
    EXPECT_NE(refusal(R"(<DataSet timestep="0" file="../../etc/passwd"/>)").find("outside"),
              std::string::npos);
    EXPECT_NE(refusal(R"(<DataSet timestep="0" file="/etc/passwd"/>)").find("outside"),
              std::string::npos);
    EXPECT_EQ(refusal(R"(<DataSet timestep="0.5" file="frames/a.vtp"/>)"), "accepted");
    // One frame listed 100,000 times (seiche render set to work for hours on it), or entries out
    // of time order: refused, naming the entry.
    std::string many;
    for (int k = 0; k < 100000; ++k)
        many += "<DataSet timestep=\"" + std::to_string(0.001 * k) + "\" file=\"frames/a.vtp\"/>";
    EXPECT_NE(refusal(many).find("\"frames/a.vtp\" is listed twice (entry 2)"), std::string::npos)
        << refusal(many);
    EXPECT_NE(refusal(R"(<DataSet timestep="0.5" file="frames/a.vtp"/><DataSet timestep="0.25" )"
                      R"(file="frames/b.vtp"/>)")
                  .find("entry 2 (timestep 0.25) comes before"),
              std::string::npos);
    EXPECT_EQ(refusal(R"(<DataSet timestep="0" file="frames/a.vtp"/><DataSet timestep="0.5" )"
                      R"(file="frames/b.vtp"/>)"),
              "accepted");
}

TEST(HostileInput, FramesWithoutVelocityOrWithABadCount) {
    const fs::path dir = fresh_dir("seiche_test_hostile_frames");
    const fs::path run = dir / "run";
    ASSERT_EQ(run_cli("run " + scene2d + " -q --end-time 0.05 --set output.vtk=false -o " +
                          run.string(),
                      dir / "log"),
              0);
    // Positions only: the speed colouring has nothing to read.
    for (const auto& e : fs::directory_iterator(run / "frames")) {
        if (e.path().extension() != ".ply") continue;
        const io::FrameData f = io::read_frame(e.path());
        std::ofstream out(e.path(), std::ios::binary);
        out << "ply\nformat binary_little_endian 1.0\nelement vertex " << f.size()
            << "\nproperty float x\nproperty float y\nproperty float z\nend_header\n";
        out.write(reinterpret_cast<const char*>(f.position.data()),
                  std::streamsize(f.position.size() * sizeof(float)));
    }
    EXPECT_EQ(run_cli("render " + run.string() + " -q", dir / "log"), 1);
    EXPECT_NE(slurp(dir / "log").find("no velocity"), std::string::npos) << slurp(dir / "log");
    EXPECT_EQ(run_cli("render " + run.string() + " -q --color-by density", dir / "log"), 0)
        << slurp(dir / "log");

    // A negative count wrapped around to 2^64 − 1 and passed the size check.
    const fs::path bad = dir / "bad.ply";
    std::ofstream(bad, std::ios::binary)
        << "ply\nformat binary_little_endian 1.0\nelement vertex -1\nproperty float x\n"
           "property float y\nproperty float z\nend_header\n0000";
    try {
        io::read_frame(bad);
        ADD_FAILURE() << "a negative vertex count was read";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("not a non-negative integer"), std::string::npos)
            << e.what();
    }
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// A symlink planted where the old writer put its temporary file (NAME.part) used to be followed:
// the run overwrote its target. Temporary files are now created exclusively, under unpredictable
// names; the planted link and its target are left alone.
TEST(HostileInput, PlantedSymlinkAtTheTemporaryNameIsNotFollowed) {
    const fs::path dir = fresh_dir("seiche_test_symlink");
    const fs::path run = dir / "run", victim = dir / "victim.txt";
    std::ofstream(victim) << "precious";
    // A run directory of seiche's (so the run may write into it again), then the planted links.
    ASSERT_EQ(run_cli("run " + scene2d + " -q --end-time 0.02 -o " + run.string(), dir / "log"), 0);
    for (const char* name : {"summary.json.part", "stats.csv.part", "scene.json.part"})
        fs::create_symlink(victim, run / name);
    // A file of the user's too: the re-run writes in place beside the links (a directory of
    // seiche's files only would be replaced whole by the re-run, links and all).
    std::ofstream(run / "notes.txt") << "mine";
    ASSERT_EQ(run_cli("run " + scene2d + " -q --end-time 0.02 -o " + run.string(), dir / "log"), 0)
        << slurp(dir / "log");
    EXPECT_EQ(slurp(victim), "precious");
    EXPECT_TRUE(fs::is_symlink(run / "summary.json.part"));
    EXPECT_EQ(slurp(run / "notes.txt"), "mine");
    EXPECT_NE(slurp(run / "summary.json").find("\"status\""), std::string::npos);
    // Nothing temporary of seiche's own is left behind.
    for (const auto& e : fs::recursive_directory_iterator(run))
        if (e.path().extension() == ".part")
            EXPECT_TRUE(fs::is_symlink(e.path())) << e.path();
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// Output directories (issue 14): seiche writes only into a new or empty directory or one of its
// own runs; a scene file cannot send it outside the current directory; the input scene is never
// a write target.
TEST(OutputSafety, ForeignDirectoriesAndScenePathsAreRefused) {
    const fs::path dir = fresh_dir("seiche_test_output_safety");
    const fs::path foreign = dir / "photos";
    fs::create_directories(foreign / "frames");
    std::ofstream(foreign / "frames" / "frame_000000.ply") << "my own file";
    std::ofstream(foreign / "stats.csv") << "my numbers";
    const std::string run = "run " + scene2d + " -q --end-time 0.02 ";
    EXPECT_EQ(run_cli(run + "-o " + foreign.string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("not a seiche run directory"), std::string::npos)
        << slurp(dir / "log");
    EXPECT_EQ(slurp(foreign / "stats.csv"), "my numbers");
    EXPECT_EQ(slurp(foreign / "frames" / "frame_000000.ply"), "my own file");
    EXPECT_FALSE(fs::exists(foreign / "scene.json"));
    // With --overwrite seiche writes its files; what is not seiche's stays.
    std::ofstream(foreign / "notes.txt") << "keep me";
    EXPECT_EQ(run_cli(run + "--overwrite -o " + foreign.string(), dir / "log"), 0);
    EXPECT_EQ(slurp(foreign / "notes.txt"), "keep me");
    EXPECT_TRUE(fs::exists(foreign / ".seiche-run"));
    // A seiche run directory takes a re-run without a flag.
    EXPECT_EQ(run_cli(run + "-o " + foreign.string(), dir / "log"), 0);
    // The same rules for the report of seiche compare and the results of seiche validate.
    const fs::path other = dir / "documents";
    fs::create_directories(other);
    std::ofstream(other / "index.html") << "my page";
    EXPECT_EQ(run_cli("compare " + scene2d + " --solvers pbf --end-time 0.01 --no-scaling "
                      "--no-stability --no-plots -q -o " + other.string(),
                      dir / "log"),
              2);
    EXPECT_EQ(run_cli("validate hydrostatic --solvers pbf --no-plots -q -o " + other.string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("not a seiche run directory"), std::string::npos);
    EXPECT_EQ(slurp(other / "index.html"), "my page");
    // Both take the --overwrite the refusal names; what is not theirs stays.
    const std::pair<std::string, const char*> overwriting[] = {
        {"validate koshizuka --solvers pbf --no-plots -q", "verdicts.csv"},
        {"compare " + scene2d + " --solvers pbf --end-time 0.01 --no-scaling --no-stability "
                                "--no-accuracy --no-plots -q",
         "runs.csv"}};
    for (const auto& [command, result] : overwriting) {
        const fs::path mine = dir / ("mine_" + std::string(result));
        fs::create_directories(mine);
        std::ofstream(mine / "notes.txt") << "keep me";
        EXPECT_EQ(run_cli(command + " --overwrite -o " + mine.string(), dir / "log"), 0)
            << command << ": " << slurp(dir / "log");
        EXPECT_TRUE(fs::exists(mine / result)) << command;
        EXPECT_EQ(slurp(mine / "notes.txt"), "keep me") << command;
    }

    // A scene that names a directory outside the current one, through name or output.directory.
    const fs::path work = dir / "work";
    fs::create_directories(work);
    nlohmann::json up = nlohmann::json::parse(slurp(scene2d));
    up.erase("output");
    up["name"] = "..";  // the default directory out/<name> becomes out/..
    nlohmann::json abs = up;
    abs["name"] = "x";
    abs["output"] = {{"directory", (dir / "elsewhere").string()}};
    std::ofstream(work / "up.json") << up.dump();
    std::ofstream(work / "abs.json") << abs.dump();
    const std::string cd = "cd " + work.string() + " && " + std::string(SEICHE_BINARY);
    for (const char* scene : {"up.json", "abs.json"}) {
        const int status = std::system((cd + " run " + scene + " -q --end-time 0.02 > " +
                                        (dir / "log").string() + " 2>&1")
                                           .c_str());
        EXPECT_EQ(WEXITSTATUS(status), 2) << scene << ": " << slurp(dir / "log");
        EXPECT_NE(slurp(dir / "log").find("give -o"), std::string::npos) << slurp(dir / "log");
    }
    EXPECT_FALSE(fs::exists(dir / "elsewhere"));
    EXPECT_FALSE(fs::exists(work / "scene.json"));
    EXPECT_FALSE(fs::exists(dir / "scene.json"));

    // Running a run's own scene.json into that run would overwrite the input.
    const fs::path again = dir / "again";
    ASSERT_EQ(run_cli(run + "-o " + again.string(), dir / "log"), 0);
    const std::string before = slurp(again / "scene.json");
    EXPECT_EQ(run_cli("run " + (again / "scene.json").string() + " -q --end-time 0.02 -o " +
                          again.string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("holds the input scene"), std::string::npos);
    EXPECT_EQ(slurp(again / "scene.json"), before);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

extern char** environ;

namespace seiche {
namespace {

// A step of a thousand PBF iterations takes seconds; Ctrl-C used to wait for it (and for the
// rest of the frame), a second one was swallowed.
// On the 3D dam break (22,500 particles) such a step takes 1–2 s here: the old binary answered
// Ctrl-C after 1.2 s, this one after 0.014 s.
std::vector<std::string> slow_run(const fs::path& out) {
    return {"run", std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_3d.json", "-q", "-o",
            out.string(), "--set", "solver.pbf.min_iterations=1000", "--set",
            "solver.pbf.max_iterations=1000", "--set", "time.dt_mode=fixed", "--set",
            "time.dt=0.001", "--set", "output.preview=false"};
}

TEST(Interrupts, CtrlCEndsASlowStepAtOnceWithASummary) {
    const fs::path dir = fresh_dir("seiche_test_interrupt");
    const pid_t pid = spawn_seiche(slow_run(dir / "run"), dir / "log");
    std::this_thread::sleep_for(std::chrono::milliseconds(2000));  // set-up done, stepping
    kill(pid, SIGINT);
    const auto [code, seconds] = wait_for(pid);
    EXPECT_EQ(code, 130) << slurp(dir / "log");
    EXPECT_LT(seconds, 0.8) << "the step in progress should end within one iteration";
    EXPECT_NE(slurp(dir / "run" / "summary.json").find("\"interrupted\""), std::string::npos);
    for (const auto& e : fs::recursive_directory_iterator(dir / "run"))
        EXPECT_NE(e.path().extension(), ".part") << e.path();
    fs::remove_all(dir);
}

TEST(Interrupts, EarlyAndDoubleCtrlC) {
    const fs::path dir = fresh_dir("seiche_test_interrupt_twice");
    // During set-up: the run still ends with its summary, interrupted.
    pid_t pid = spawn_seiche(slow_run(dir / "early"), dir / "log");
    // As soon as the run directory appears: frame 0 is being written.
    for (int k = 0; k < 500 && !fs::exists(dir / "early" / "frames"); ++k)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    kill(pid, SIGINT);
    auto [code, seconds] = wait_for(pid);
    EXPECT_EQ(code, 130) << slurp(dir / "log");
    EXPECT_LT(seconds, 3.0);
    EXPECT_NE(slurp(dir / "early" / "summary.json").find("\"interrupted\""), std::string::npos);
    // Twice: out at once, whatever was running; the files that exist are whole.
    pid = spawn_seiche(slow_run(dir / "twice"), dir / "log");
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, SIGINT);
    kill(pid, SIGINT);
    std::tie(code, seconds) = wait_for(pid);
    EXPECT_EQ(code, 130);
    EXPECT_LT(seconds, 1.0);
    EXPECT_NO_THROW(nlohmann::json::parse(slurp(dir / "twice" / "scene.json")));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche

#include <unistd.h>

namespace seiche {
namespace {

// Memory is estimated from the scene before anything is allocated or written.
TEST(Memory, RunsThatWouldNotFitAreRefusedWithTheFigure) {
    const fs::path dir = fresh_dir("seiche_test_memory");
    EXPECT_EQ(run_cli("run " + scene2d + " -q --max-memory 1M -o " + (dir / "run").string(),
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("needs about 33 MiB"), std::string::npos)
        << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(dir / "run"));
    EXPECT_EQ(run_cli("run " + scene2d + " -q --max-memory 2X", dir / "log"), 2);
    EXPECT_EQ(run_cli("run " + scene2d + " -q --end-time 0.01 --max-memory 1G -o " +
                          (dir / "run").string(),
                      dir / "log"),
              0);
    // A picture inside the documented ranges that needs 16 GiB: refused where that is more than
    // half the machine (this one has 24 GiB).
    const double ram = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (ram < 32.0 * (1 << 30)) {
        try {
            io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_3d.json",
                           {"render.width=8192", "render.height=8192", "render.supersample=4"});
            ADD_FAILURE() << "a 16 GiB picture was accepted";
        } catch (const io::SceneError& e) {
            EXPECT_EQ(e.path(), "render.supersample");
            EXPECT_NE(std::string(e.what()).find("16 GiB"), std::string::npos) << e.what();
        }
    }
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche

// A program that cannot find its data (moved without share/seiche, or SEICHE_DATA_DIR set wrong)
// says so and exits 2; it once ended in std::terminate (exit 134) from `seiche validate`.
namespace seiche {
namespace {

TEST(HostileInput, ValidateWithoutItsDataSaysSo) {
    const auto dir = test::fresh_dir("seiche_test_no_data");
    const std::string cmd = "SEICHE_DATA_DIR=" + (dir / "nowhere").string() + " " +
                            std::string(SEICHE_BINARY) + " validate hydrostatic -q -o " +
                            (dir / "out").string() + " > " + (dir / "log").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2);
    const std::string log = test::slurp(dir / "log");
    EXPECT_NE(log.find("seiche validate: SEICHE_DATA_DIR="), std::string::npos) << log;
    EXPECT_NE(log.find("holds no tools/ and validation/"), std::string::npos) << log;
    EXPECT_EQ(log.find("terminate"), std::string::npos) << log;
    EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// A damaged record in the data directory (a cell that is not a number, a short row) names its
// file, its line and what was expected; std::stod's bare "stod" once said none of it.
TEST(HostileInput, ValidateNamesTheLineOfADamagedRecord) {
    namespace fs = std::filesystem;
    const auto dir = test::fresh_dir("seiche_test_damaged_data");
    const fs::path data = dir / "share";
    fs::copy(fs::path(SEICHE_BINARY).parent_path() / "share" / "seiche", data,
             fs::copy_options::recursive);
    const struct {
        const char* file;
        std::string from, to, message;
    } damages[] = {
        {"martin_moyce_1952_front.csv", "0.05715,1.997,2.292", "0.05715,1.997,2.2x",
         ":16: expected a number, got '2.2x'"},
        {"koshizuka_oka_1996_front.csv", "1.153,1.505", "1.153",
         ":18: expected 2 comma-separated values as the header has, got 1"}};
    for (const auto& d : damages) {
        const fs::path file = data / "validation" / "data" / d.file;
        const std::string good = test::slurp(file);
        std::string bad = good;
        ASSERT_NE(bad.find(d.from), std::string::npos) << d.file;
        bad.replace(bad.find(d.from), d.from.size(), d.to);
        std::ofstream(file) << bad;
        const std::string cmd = "SEICHE_DATA_DIR=" + data.string() + " " + std::string(SEICHE_BINARY) +
                                " validate koshizuka --solvers pbf --no-plots -q -o " +
                                (dir / d.file).string() + " > " + (dir / "log").string() + " 2>&1";
        const int status = std::system(cmd.c_str());
        ASSERT_TRUE(WIFEXITED(status)) << d.file;
        EXPECT_EQ(WEXITSTATUS(status), 1) << d.file;
        const std::string log = test::slurp(dir / "log");
        EXPECT_NE(log.find(std::string(d.file) + d.message), std::string::npos) << log;
        std::ofstream(file) << good;
    }
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche
