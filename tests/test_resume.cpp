// Long runs that resume (issue 14): checkpoints written by `seiche run`, `--resume` after a stop,
// a SIGKILL and a Ctrl-C giving bitwise the frames and stats of the run that never stopped, and
// re-runs built beside the old run instead of over it; `seiche validate` cut short and continued
// with --resume.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <map>
#include <fstream>
#include <string>
#include <thread>

#include "checkpoint_bytes.hpp"
#include "cli_helpers.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;
using test::fresh_dir;
using test::run_cli;
using test::slurp;
using test::spawn_seiche;
using test::wait_for;

const std::string scene_2d = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";

// Every frame file and stats.csv of `a` equal, byte for byte, those of `b`, and no more.
void expect_same_run(const fs::path& a, const fs::path& b) {
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(a / "frames")) {
        const fs::path other = b / "frames" / e.path().filename();
        ASSERT_TRUE(fs::exists(other)) << other;
        EXPECT_TRUE(slurp(e.path()) == slurp(other)) << e.path().filename() << " differs";
        ++files;
    }
    EXPECT_EQ(files, std::size_t(std::distance(fs::directory_iterator(b / "frames"),
                                               fs::directory_iterator())));
    EXPECT_TRUE(slurp(a / "stats.csv") == slurp(b / "stats.csv")) << "stats.csv differs";
    EXPECT_TRUE(slurp(a / "particles.pvd") == slurp(b / "particles.pvd"));
    EXPECT_GT(files, 10u);
}

std::string run_args(const fs::path& out, double end, const std::string& extra = "") {
    return "run " + scene_2d + " -q -o " + out.string() + " --end-time " + std::to_string(end) +
           " --set output.checkpoint_every=0.05 --set output.preview=false " + extra;
}

TEST(Resume, StoppedRunExtendedIsBitwiseTheWholeRun) {
    const fs::path dir = fresh_dir("seiche_test_resume_extend");
    ASSERT_EQ(run_cli(run_args(dir / "whole", 0.3), dir / "log"), 0) << slurp(dir / "log");
    ASSERT_EQ(run_cli(run_args(dir / "part", 0.15), dir / "log"), 0) << slurp(dir / "log");
    ASSERT_TRUE(fs::exists(dir / "part" / "checkpoint.bin"));
    // The run's own scene.json, a longer end: the frames follow on as if never stopped.
    ASSERT_EQ(run_cli("run --resume " + (dir / "part").string() + " -q --end-time 0.3", dir / "log"),
              0)
        << slurp(dir / "log");
    expect_same_run(dir / "whole", dir / "part");
    const auto summary = nlohmann::json::parse(slurp(dir / "part" / "summary.json"));
    EXPECT_EQ(summary["status"], "done");
    EXPECT_EQ(summary["steps"], nlohmann::json::parse(slurp(dir / "whole" / "summary.json"))["steps"]);
    // 0.15 s is between frames 4 and 5: the checkpoint is the last frame's, where the whole run
    // passed too (a checkpoint at 0.15 would hold steps fitted to land there).
    EXPECT_NEAR(summary["resumed_at"]["time"].get<double>(), 4.0 / 30, 1e-9);
    fs::remove_all(dir);
}

TEST(Resume, KilledRunResumesFromItsLastCheckpoint) {
    const fs::path dir = fresh_dir("seiche_test_resume_kill");
    ASSERT_EQ(run_cli(run_args(dir / "whole", 0.6), dir / "log"), 0) << slurp(dir / "log");
    std::istringstream args(run_args(dir / "killed", 0.6));
    std::vector<std::string> argv{std::istream_iterator<std::string>(args), {}};
    const pid_t pid = spawn_seiche(argv, dir / "log_killed");
    // Killed (no handler runs) some time after its first checkpoint, in the middle of a frame.
    for (int k = 0; k < 3000 && !fs::exists(dir / "killed" / "checkpoint.bin"); ++k)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    kill(pid, SIGKILL);
    EXPECT_EQ(wait_for(pid).first, -SIGKILL);
    ASSERT_FALSE(fs::exists(dir / "killed" / "summary.json")) << "the run ended before the kill";
    ASSERT_EQ(run_cli("run " + scene_2d + " --resume " + (dir / "killed").string() +
                          " -q --end-time 0.6 --set output.checkpoint_every=0.05 --set "
                          "output.preview=false",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    expect_same_run(dir / "whole", dir / "killed");
    for (const auto& e : fs::recursive_directory_iterator(dir / "killed"))
        EXPECT_NE(e.path().extension(), ".part") << e.path();
    fs::remove_all(dir);
}

TEST(Resume, InterruptedRunResumesBitwise) {
    const fs::path dir = fresh_dir("seiche_test_resume_interrupt");
    ASSERT_EQ(run_cli(run_args(dir / "whole", 0.6), dir / "log"), 0) << slurp(dir / "log");
    std::istringstream args(run_args(dir / "stopped", 0.6));
    std::vector<std::string> argv{std::istream_iterator<std::string>(args), {}};
    const pid_t pid = spawn_seiche(argv, dir / "log_stopped");
    for (int k = 0; k < 3000 && !fs::exists(dir / "stopped" / "checkpoint.bin"); ++k)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGINT);  // mid-frame: the checkpoint is of the step it stopped after
    EXPECT_EQ(wait_for(pid).first, 130) << slurp(dir / "log_stopped");
    EXPECT_NE(slurp(dir / "stopped" / "summary.json").find("interrupted"), std::string::npos);
    ASSERT_EQ(run_cli("run --resume " + (dir / "stopped").string() + " -q --end-time 0.6",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    expect_same_run(dir / "whole", dir / "stopped");
    fs::remove_all(dir);
}

TEST(Resume, RefusesWhatItCannotContinue) {
    const fs::path dir = fresh_dir("seiche_test_resume_refusals");
    const fs::path log = dir / "log";
    // No checkpoint: the run was made without output.checkpoint_every.
    ASSERT_EQ(run_cli("run " + scene_2d + " -q -o " + (dir / "plain").string() +
                          " --end-time 0.05 --set output.preview=false",
                      log),
              0);
    EXPECT_EQ(run_cli("run --resume " + (dir / "plain").string(), log), 2);
    EXPECT_NE(slurp(log).find("checkpoint_every"), std::string::npos) << slurp(log);
    // Not a run directory; -o beside --resume; no scene at all.
    EXPECT_EQ(run_cli("run --resume " + dir.string() + "/nowhere", log), 2);
    EXPECT_NE(slurp(log).find("no such directory"), std::string::npos) << slurp(log);
    ASSERT_EQ(run_cli(run_args(dir / "run", 0.1), log), 0) << slurp(log);
    EXPECT_EQ(run_cli("run --resume " + (dir / "run").string() + " -o " + dir.string() + "/x", log),
              2);
    EXPECT_NE(slurp(log).find("-o cannot"), std::string::npos) << slurp(log);
    EXPECT_EQ(run_cli("run", log), 2);
    // Another resolution: the key, the checkpoint's value and the scene's.
    EXPECT_EQ(run_cli("run --resume " + (dir / "run").string() + " --set particle_radius=0.004",
                      log),
              2);
    EXPECT_NE(slurp(log).find("particle_radius = 0.0050000000000000001, the scene has 0.004"),
              std::string::npos)
        << slurp(log);
    // A live key may change, with a note that the continuation is another run.
    EXPECT_EQ(run_cli("run --resume " + (dir / "run").string() +
                          " --end-time 0.12 --set solver.xsph=0.05",
                      log),
              0)
        << slurp(log);
    EXPECT_NE(slurp(log).find("note: solver.xsph"), std::string::npos) << slurp(log);
    // A damaged checkpoint: refused, nothing in the run directory touched.
    const std::string summary = slurp(dir / "run" / "summary.json");
    std::string bytes = slurp(dir / "run" / "checkpoint.bin");
    bytes[bytes.size() / 2] ^= 0x5a;
    std::ofstream(dir / "run" / "checkpoint.bin", std::ios::binary) << bytes;
    EXPECT_EQ(run_cli("run --resume " + (dir / "run").string() + " --end-time 0.2", log), 2);
    EXPECT_NE(slurp(log).find("checksum"), std::string::npos) << slurp(log);
    EXPECT_EQ(slurp(dir / "run" / "summary.json"), summary);
    // A damaged stats.csv (with a good checkpoint): refused as bad input too, before the run's
    // summary and frames are touched.
    ASSERT_EQ(run_cli(run_args(dir / "run", 0.1), log), 0) << slurp(log);
    const std::string summary2 = slurp(dir / "run" / "summary.json");
    std::ofstream(dir / "run" / "stats.csv") << "not a header\n1,2,3\n";
    EXPECT_EQ(run_cli("run --resume " + (dir / "run").string() + " --end-time 0.2", log), 2);
    EXPECT_NE(slurp(log).find("is not the stats.csv of this seiche"), std::string::npos) << slurp(log);
    EXPECT_EQ(slurp(dir / "run" / "summary.json"), summary2);
    EXPECT_TRUE(fs::exists(dir / "run" / "frames" / "frame_000003.vtp"));
    fs::remove_all(dir);
}

// A checkpoint whose frame counter disagrees with its time (checksum valid): the resume removed
// the frames after the counter's and never wrote them again. Refused, every file kept.
TEST(Resume, AFrameCounterThatDisagreesWithTheTimeIsRefused) {
    const fs::path dir = fresh_dir("seiche_test_resume_counter");
    const fs::path log = dir / "log";
    ASSERT_EQ(run_cli(run_args(dir / "run", 0.2), log), 0) << slurp(log);
    std::string bytes = slurp(dir / "run" / "checkpoint.bin");
    const std::string key = "\"next_frame\":";
    const std::size_t at = bytes.find(key);
    ASSERT_NE(at, std::string::npos);
    ASSERT_NE(bytes[at + key.size()], '1');
    bytes[at + key.size()] = '1';  // frame 7 (t = 0.2 s at 30 per second) becomes frame 1
    std::ofstream(dir / "run" / "checkpoint.bin", std::ios::binary) << test::with_checksum(bytes);
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir / "run")) files.push_back(e.path());
    EXPECT_EQ(run_cli("run --resume " + (dir / "run").string() + " --end-time 0.3", log), 2);
    EXPECT_NE(slurp(log).find("frame counter"), std::string::npos) << slurp(log);
    for (const fs::path& f : files) EXPECT_TRUE(fs::exists(f)) << f;
    fs::remove_all(dir);
}

// Checkpoints whose checksum passes but whose front-end state is forged (issue 45): the lists
// that become particles.pvd and bodies.pvd, the bodies.csv row count, the run's totals, the step
// count. Each was accepted: the resume rewrote the .pvd without the earlier frames or naming a
// path outside the run, cut bodies.csv's rows, or wrote a summary of garbage. Each is refused by
// name, and the run directory is left exactly as it was.
TEST(Resume, ForgedListsRowCountsAndTotalsAreRefusedAndTheRunKept) {
    const fs::path dir = fresh_dir("seiche_test_resume_forged");
    const fs::path log = dir / "log", run = dir / "run";
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/floating_box_2d.json";
    ASSERT_EQ(run_cli("run " + scene + " -q -o " + run.string() +
                          " --end-time 0.1 --set output.checkpoint_every=0.05 --set output.preview=false",
                      log),
              0)
        << slurp(log);
    const test::ForgeableCheckpoint checkpoint(run / "checkpoint.bin");
    const std::string& pristine = checkpoint.pristine;
    const test::StateText at = test::find_state(pristine);
    ASSERT_GT(at.size, 0u);
    ASSERT_EQ(checkpoint.state.at("body_rows").get<int>(), 4);  // 1 body, frames 0..3
    ASSERT_EQ(checkpoint.state.at("bodies").size(), 4u);
    auto forged = [&](auto edit) { return checkpoint.forged(edit); };
    std::string zero_steps = pristine;
    std::memset(zero_steps.data() + at.start + at.size + 8, 0, 8);  // the step count, after the time
    zero_steps = test::with_checksum(zero_steps);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {forged([](auto& s) { s["frames"] = nlohmann::json::object(); }), "list of frames"},
        {forged([](auto& s) { s["frames"].erase(1); }), "list of frames"},
        {forged([](auto& s) { s["frames"][1][1] = "frames/../../../x/frame_000001.vtp"; }), "list of frames"},
        {forged([](auto& s) { s["bodies"].erase(3); }), "bodies_000003.vtp is on disk but not in it"},
        {forged([](auto& s) { s["body_rows"] = -1; }), "bodies.csv row count"},
        {forged([](auto& s) { s["body_rows"] = 1; }), "bodies.csv row count"},
        {forged([](auto& s) { s["body_rows"] = std::uint64_t(1) << 63; }), "bodies.csv row count"},
        {forged([](auto& s) { s["iterations"] = "x"; }), "run total iterations"},
        {forged([](auto& s) { s["wall_time"] = -5.0; }), "run total wall_time"},
        {zero_steps, "step count (0) disagrees with its time"},
    };
    for (const auto& [bytes, message] : cases) {
        SCOPED_TRACE(message);
        test::expect_refused_resume(run, bytes, message, "-q --end-time 0.2", log);
    }
    // bodies.csv shorter than the checkpoint's frames wrote (a user's edit): resuming would have
    // dropped the missing rows for good.
    std::ofstream(run / "checkpoint.bin", std::ios::binary | std::ios::trunc) << pristine;
    const std::string csv = slurp(run / "bodies.csv");
    std::ofstream(run / "bodies.csv", std::ios::trunc) << csv.substr(0, csv.find('\n', csv.find('\n') + 1) + 1);
    test::expect_refused_resume(run, pristine, "bodies.csv has 1 of the 4 rows", "-q --end-time 0.2", log);
    // The pristine checkpoint and bodies.csv resume.
    std::ofstream(run / "bodies.csv", std::ios::trunc) << csv;
    EXPECT_EQ(run_cli("run --resume " + run.string() + " -q --end-time 0.2", log), 0) << slurp(log);
    fs::remove_all(dir);
}

// A re-run into a run directory is built beside it (NAME.partial) and swapped in with its first
// frame: killed before that, the old run is still whole; the directory never lists a frame that
// is not there.
TEST(Resume, RerunIsBuiltBesideTheOldRun) {
    const fs::path dir = fresh_dir("seiche_test_rerun_beside");
    const fs::path run = dir / "run";
    ASSERT_EQ(run_cli(run_args(run, 0.1), dir / "log"), 0) << slurp(dir / "log");
    const std::string old_summary = slurp(run / "summary.json");
    // A first frame that takes a while: a large picture.
    std::istringstream args(run_args(run, 0.1,
                                     "--set output.preview=true --set render.width=2000 --set "
                                     "render.height=2000 --set render.supersample=2"));
    std::vector<std::string> argv{std::istream_iterator<std::string>(args), {}};
    const pid_t pid = spawn_seiche(argv, dir / "log_rerun");
    const fs::path partial = dir / "run.partial";
    for (int k = 0; k < 4000 && !fs::exists(partial); ++k)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(fs::exists(partial)) << "the re-run did not build beside the old run";
    EXPECT_EQ(slurp(run / "summary.json"), old_summary) << "the old run changed during set-up";
    kill(pid, SIGKILL);
    wait_for(pid);
    // Whichever side of the swap the kill fell on, every frame listed is there.
    const std::string pvd = slurp(run / "particles.pvd");
    for (std::size_t at = pvd.find("file=\""); at != std::string::npos;
         at = pvd.find("file=\"", at + 1)) {
        const std::size_t end = pvd.find('"', at + 6);
        EXPECT_TRUE(fs::exists(run / pvd.substr(at + 6, end - at - 6))) << pvd;
    }
    // The next run clears what the killed one left beside it.
    ASSERT_EQ(run_cli(run_args(run, 0.05), dir / "log"), 0) << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(partial));
    EXPECT_FALSE(fs::exists(run / "frames" / "frame_000003.vtp")) << "a frame of the older run";
    EXPECT_TRUE(fs::exists(run / "frames" / "frame_000001.vtp"));
    fs::remove_all(dir);
}

// `seiche validate` cut short continues with --resume: the cases and solvers it finished read
// back, the Lobovsky case from its checkpoint, to the bytes of the validation that never stopped.
const std::string validate_args =
    " lobovsky --solvers pbf,wcsph --no-plots -q --set particle_radius=0.005 --set "
    "time.end_time=0.4";

void expect_same_validation(const fs::path& a, const fs::path& b) {
    for (const char* f : {"lobovsky.csv", "lobovsky_sensor2_5ms.csv", "lobovsky_field.csv", "lobovsky_levels.csv",
                          "verdicts.csv", "verdicts.md", "overrides.txt"}) {
        ASSERT_TRUE(fs::exists(b / f)) << f;
        EXPECT_TRUE(slurp(a / f) == slurp(b / f)) << f << " differs";
    }
    EXPECT_GT(slurp(a / "lobovsky.csv").size(), 10000u);
    EXPECT_FALSE(fs::exists(b / "resume")) << "the record outlived the validation";
}

TEST(Resume, KilledValidationContinuesBitwise) {
    const fs::path dir = fresh_dir("seiche_test_resume_validate_kill");
    ASSERT_EQ(run_cli("validate -o " + (dir / "whole").string() + validate_args, dir / "log"), 4)
        << slurp(dir / "log");  // cut at 0.4 s, before the impact: its checks fail (exit 4)
    std::istringstream args("validate -o " + (dir / "killed").string() + validate_args +
                            " --checkpoint-every 0.05");
    std::vector<std::string> argv{std::istream_iterator<std::string>(args), {}};
    const pid_t pid = spawn_seiche(argv, dir / "log_killed");
    // Killed inside the second solver, after a checkpoint of it.
    const fs::path checkpoint = dir / "killed" / "resume" / "lobovsky.wcsph.checkpoint";
    for (int k = 0; k < 6000 && !fs::exists(checkpoint); ++k)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    kill(pid, SIGKILL);
    EXPECT_EQ(wait_for(pid).first, -SIGKILL);
    ASSERT_TRUE(fs::exists(dir / "killed" / "resume" / "lobovsky.pbf.json"));
    ASSERT_FALSE(fs::exists(dir / "killed" / "verdicts.csv")) << "it ended before the kill";
    // Started again without --resume: refused, naming both ways on.
    EXPECT_EQ(run_cli("validate -o " + (dir / "killed").string() + validate_args, dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("--resume continues it"), std::string::npos)
        << slurp(dir / "log");
    EXPECT_NE(slurp(dir / "log").find("finished lobovsky with pbf"), std::string::npos)
        << slurp(dir / "log");
    ASSERT_EQ(run_cli("validate --resume --no-plots -o " + (dir / "killed").string(), dir / "log"),
              4)
        << slurp(dir / "log");
    EXPECT_NE(slurp(dir / "log").find("lobovsky with wcsph: resumed at t = "), std::string::npos)
        << slurp(dir / "log");
    expect_same_validation(dir / "whole", dir / "killed");
    fs::remove_all(dir);
}

// Starts the two-solver validation into dir/stopped, sends Ctrl-C `after` the first solver's run
// is recorded, and checks that it stops with 130 and says how to go on.
void interrupt_after_first_run(const fs::path& dir, std::chrono::milliseconds after) {
    std::istringstream args("validate -o " + (dir / "stopped").string() + validate_args +
                            " --checkpoint-every 0");
    std::vector<std::string> argv{std::istream_iterator<std::string>(args), {}};
    const pid_t pid = spawn_seiche(argv, dir / "log_stopped");
    for (int k = 0; k < 60000 && !fs::exists(dir / "stopped" / "resume" / "lobovsky.pbf.json"); ++k)
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    std::this_thread::sleep_for(after);
    kill(pid, SIGINT);
    EXPECT_EQ(wait_for(pid).first, 130) << slurp(dir / "log_stopped");
    const std::string log = slurp(dir / "log_stopped");
    EXPECT_NE(log.find("interrupted"), std::string::npos) << log;
    EXPECT_NE(log.find("validate --resume -o " + (dir / "stopped").string()), std::string::npos)
        << log;
}

// Ctrl-C the moment the first solver's run is recorded, while the next one is being set up
// (before its run watches the flag): still the way on, not a silent exit.
TEST(Resume, ValidationInterruptedBetweenSolversSaysHowToContinue) {
    const fs::path dir = fresh_dir("seiche_test_resume_validate_between");
    interrupt_after_first_run(dir, std::chrono::milliseconds(0));
    fs::remove_all(dir);
}

TEST(Resume, InterruptedValidationSaysHowToContinue) {
    const fs::path dir = fresh_dir("seiche_test_resume_validate_interrupt");
    ASSERT_EQ(run_cli("validate -o " + (dir / "whole").string() + validate_args, dir / "log"), 4)
        << slurp(dir / "log");
    // Ctrl-C inside WCSPH's run, PBF's finished.
    interrupt_after_first_run(dir, std::chrono::milliseconds(100));
    // The cases, solvers and --set are the record's: giving them too is refused.
    EXPECT_EQ(run_cli("validate --resume -o " + (dir / "stopped").string() + " --solvers pbf",
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("cannot be given with it"), std::string::npos);
    ASSERT_EQ(run_cli("validate --resume -q --no-plots -o " + (dir / "stopped").string(),
                      dir / "log"),
              4)
        << slurp(dir / "log");
    expect_same_validation(dir / "whole", dir / "stopped");
    fs::remove_all(dir);
}

TEST(Resume, ValidationRefusesARecordItCannotUse) {
    const fs::path dir = fresh_dir("seiche_test_resume_validate_refusals");
    const fs::path log = dir / "log";
    // Nothing to resume.
    EXPECT_EQ(run_cli("validate --resume -o " + (dir / "none").string(), log), 2);
    EXPECT_NE(slurp(log).find("holds no interrupted validation"), std::string::npos) << slurp(log);
    // A record whose options name a solver there is not, or are not JSON, or whose checkpoint is
    // damaged: each named, exit 2, nothing run. (In the directory of a validation that finished.)
    const std::string short_run = "validate lobovsky --solvers pbf -q --no-plots --set "
                                  "particle_radius=0.005 --set time.end_time=0.05 -o " +
                                  (dir / "v").string();
    ASSERT_EQ(run_cli(short_run, log), 4) << slurp(log);
    const fs::path rec = dir / "v" / "resume";
    fs::create_directories(rec);
    const auto write = [](const fs::path& p, const std::string& text) {
        std::ofstream(p, std::ios::binary) << text;
    };
    write(rec / "options.json", R"({"cases":["lobovsky"],"solvers":["nope"],"overrides":[]})");
    EXPECT_EQ(run_cli("validate --resume -o " + (dir / "v").string(), log), 2);
    EXPECT_NE(slurp(log).find("options.json: no solver \"nope\""), std::string::npos) << slurp(log);
    write(rec / "options.json", R"({"cases":)");
    EXPECT_EQ(run_cli("validate --resume -o " + (dir / "v").string(), log), 2);
    EXPECT_NE(slurp(log).find("options.json: damaged"), std::string::npos) << slurp(log);
    write(rec / "options.json",
          R"({"cases":["lobovsky"],"solvers":["pbf"],"overrides":["particle_radius=0.005"]})");
    write(rec / "lobovsky.pbf.checkpoint", std::string(300, 'x'));
    EXPECT_EQ(run_cli("validate --resume -q -o " + (dir / "v").string(), log), 2);
    EXPECT_NE(slurp(log).find("lobovsky.pbf.checkpoint: it is not a seiche checkpoint"),
              std::string::npos)
        << slurp(log);
    write(rec / "lobovsky.pbf.json", R"({"rows":{"csv":"x"},"checks":[{"case":"koshizuka"}]})");
    EXPECT_EQ(run_cli("validate --resume -q -o " + (dir / "v").string(), log), 2);
    EXPECT_NE(slurp(log).find("lobovsky.pbf.json: damaged"), std::string::npos) << slurp(log);
    // --overwrite starts again.
    EXPECT_EQ(run_cli(short_run + " --overwrite", log), 4) << slurp(log);
    EXPECT_FALSE(fs::exists(rec));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche
