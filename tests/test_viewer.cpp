// `seiche view` under Xvfb with Mesa's software OpenGL (llvmpipe): screenshots of scripted,
// headless runs (--frames, --script, --screenshot) read back and checked pixel by pixel.
#include <gtest/gtest.h>

#include <unistd.h>

#include <regex>
#include <string>

#include "cli_helpers.hpp"
#include "seiche/render.hpp"

namespace {

namespace fs = std::filesystem;
using seiche::test::fresh_dir;
using seiche::test::slurp;

bool have_xvfb() { return std::system("command -v xvfb-run > /dev/null 2>&1") == 0; }

// Runs `seiche view ARGS` under a private X server; returns the exit code, output in log. env:
// "NAME=value " assignments for the program.
int view(const std::string& args, const fs::path& log, const fs::path& cwd = {},
         const std::string& env = {}) {
    // A display number of this test process's own (xvfb-run -a races when tests run at once).
    const std::string server = std::to_string(200 + ::getpid() % 700);
    const std::string cmd = (cwd.empty() ? std::string() : "cd " + cwd.string() + " && ") +
                            env + "xvfb-run -a -n " + server + " -s '-screen 0 1280x720x24' " + std::string(SEICHE_BINARY) +
                            " view " + args + " > " + log.string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The 2D stirring scene, and a scripted run of it: SCRIPT (JSON) to DIR/script.json, then
// `seiche view stir_2d.json ARGS --script DIR/script.json`, output in DIR/log.
const std::string stir_2d = std::string(SEICHE_SOURCE_DIR) + "/scenes/stir_2d.json";
int view_scripted(const fs::path& dir, const std::string& script, const std::string& args,
                  const fs::path& cwd = {}) {
    std::ofstream(dir / "script.json") << script;
    return view(stir_2d + " " + args + " --script " + (dir / "script.json").string(), dir / "log", cwd);
}

// Pixels of the colour map's fast end (teal-green to yellow: green well above blue).
bool fast_colour(const std::array<std::uint8_t, 3>& c) { return c[1] > 100 && c[1] > c[2] * 13 / 10; }
// The colour map's slow end (violet, shaded): blue and red well above green.
bool slow_colour(const std::array<std::uint8_t, 3>& c) {
    return c[2] > c[1] + 25 && c[0] > c[1] && c[2] < 200;
}
// The container's edges: dark grey.
bool edge_colour(const std::array<std::uint8_t, 3>& c) {
    return c[0] < 110 && c[1] < 110 && c[2] < 120 && std::abs(c[0] - c[1]) < 25 &&
           std::abs(c[1] - c[2]) < 25;
}

struct Count {
    int n = 0;
    double x = 0, y = 0;  // centroid, as fractions of the picture
};
template <class Pred>
Count count(const seiche::render::Image& im, double x0, double x1, double y0, double y1, Pred pred) {
    Count c;
    for (int y = int(y0 * im.height); y < int(y1 * im.height); ++y)
        for (int x = int(x0 * im.width); x < int(x1 * im.width); ++x)
            if (pred(im.at(x, y))) {
                ++c.n;
                c.x += double(x) / im.width;
                c.y += double(y) / im.height;
            }
    if (c.n > 0) c.x /= c.n, c.y /= c.n;
    return c;
}

#define REQUIRE_XVFB() \
    if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed (scripts/install-deps.sh)"

TEST(Viewer, DamBreakScreenshotShowsTheColumnAndTheContainer) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_dam");
    ASSERT_EQ(view(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_3d.json --frames 3 "
                   "--width 640 --height 360 --screenshot " + (dir / "shot.png").string(),
                   dir / "log"),
              0)
        << slurp(dir / "log");
    const auto im = seiche::render::read_png(dir / "shot.png");
    ASSERT_EQ(im.width, 640);
    ASSERT_EQ(im.height, 360);
    // The column stands at the tank's left end, resting (violet); the right end is empty.
    const Count column = count(im, 0.2, 0.55, 0.4, 0.95, slow_colour);
    const Count right = count(im, 0.6, 0.85, 0.4, 0.95, slow_colour);
    std::printf("column pixels %d, right end %d\n", column.n, right.n);
    EXPECT_GT(column.n, 8000);
    EXPECT_LT(right.n, column.n / 50);
    // The container's edges above the column.
    EXPECT_GT(count(im, 0.2, 0.8, 0.05, 0.4, edge_colour).n, 300);
    EXPECT_NE(slurp(dir / "log").find("after 3 steps, 22500 particles"), std::string::npos)
        << slurp(dir / "log");
}

// SEICHE_FONT naming a file that is not a font: the panels fall back to the next font (ImGui
// once stopped the program on it with an assertion).
TEST(Viewer, AFontFileThatIsNotAFontIsPassedOver) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_bad_font");
    std::ofstream(dir / "not_a_font.ttf") << "plain text, no font tables";
    EXPECT_EQ(view(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json --frames 2 "
                   "--width 320 --height 180 --screenshot " + (dir / "shot.png").string(),
                   dir / "log", {}, "SEICHE_FONT=" + (dir / "not_a_font.ttf").string() + " "),
              0)
        << slurp(dir / "log");
    EXPECT_TRUE(fs::exists(dir / "shot.png"));
}

TEST(Viewer, ScriptedDragDisplacesTheFluidAlongItsPath) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_drag");
    const std::string common = "--frames 70 --width 800 --height 450 --set render.range=[0,1] --screenshot ";
    ASSERT_EQ(view_scripted(dir,
                            R"({"events": [{"frame": 0, "drag": {"path": [[0.15, 0.38], [0.15, 0.12], [0.75, 0.12]], "frames": 60}}]})",
                            common + (dir / "drag.png").string()),
              0)
        << slurp(dir / "log");
    ASSERT_EQ(view(stir_2d + " " + common + (dir / "still.png").string(), dir / "log2"), 0)
        << slurp(dir / "log2");
    const auto dragged = seiche::render::read_png(dir / "drag.png");
    const auto still = seiche::render::read_png(dir / "still.png");
    // Fast fluid (green to yellow) only where the circle went: down at x = 0.15 m, then right.
    const Count moved = count(dragged, 0.0, 0.9, 0.0, 1.0, fast_colour);
    const Count calm = count(still, 0.0, 0.9, 0.0, 1.0, fast_colour);
    std::printf("fast pixels: dragged %d (centroid x %.2f), still %d\n", moved.n, moved.x, calm.n);
    EXPECT_GT(moved.n, 2000);
    EXPECT_LT(calm.n, moved.n / 20);
    EXPECT_GT(moved.x, 0.2);  // right of where the circle went down
}

TEST(Viewer, ScriptedSolverSwitchRestartsTheScene) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_switch");
    ASSERT_EQ(view_scripted(dir, R"({"events": [{"frame": 10, "solver": "wcsph"}]})", "--frames 16 --width 400 --height 240"),
              0)
        << slurp(dir / "log");
    const std::string log = slurp(dir / "log");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(log, m, std::regex(R"(view: stir_2d, (\w+), t = ([0-9.]+) s after (\d+) steps)")))
        << log;
    EXPECT_EQ(m[1].str(), "wcsph");
    // Restarted at frame 10: the steps since are the frames after it (the switch's own frame
    // steps the new world too), not all 16.
    EXPECT_LE(std::stoi(m[3].str()), 6);
    EXPECT_GE(std::stoi(m[3].str()), 5);
}

TEST(Viewer, PlaybackEndsOnTheLastFrameOfTheRun) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_playback");
    ASSERT_EQ(seiche::test::run_cli(std::string("run ") + SEICHE_SOURCE_DIR +
                                        "/scenes/dam_break_2d.json -q --end-time 0.2 -o " +
                                        (dir / "run").string(),
                                    dir / "run.log"),
              0);
    ASSERT_EQ(view((dir / "run").string() + " --frames 20 --width 400 --height 240 --screenshot " +
                       (dir / "end.png").string(),
                   dir / "log"),
              0)
        << slurp(dir / "log");
    EXPECT_NE(slurp(dir / "log").find("playback: frame 7 of 7, t = 0.2000 s"), std::string::npos)
        << slurp(dir / "log");
    // Collapsed by t = 0.2 s: fluid has run along the floor to the right of the column's foot.
    const auto im = seiche::render::read_png(dir / "end.png");
    EXPECT_GT(count(im, 0.05, 0.95, 0.0, 1.0, [](auto c) { return slow_colour(c) || fast_colour(c); }).n, 1000);
}

TEST(Viewer, BadScriptsAreRefusedWithTheEvent) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_bad");
    EXPECT_EQ(view_scripted(dir, R"({"events": [{"frame": 2, "teleport": true}]})", "--frames 5"),
              2);
    EXPECT_NE(slurp(dir / "log").find("events[0]: unknown action \"teleport\""), std::string::npos)
        << slurp(dir / "log");
}

// A script nested 100,000 deep overflowed the stack (the script parser had no depth cap; the
// scene loader stops at 64, and scripts now go through it).
TEST(Viewer, ADeeplyNestedScriptIsRefused) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_deep");
    EXPECT_EQ(view_scripted(dir, std::string(100000, '[') + std::string(100000, ']'), "--frames 5"), 2);
    EXPECT_NE(slurp(dir / "log").find("nested more than 64 levels deep"), std::string::npos)
        << slurp(dir / "log");
}

// A script wrote its screenshot wherever it said, ../ included, while a scene may only name a
// directory under the current one.
TEST(Viewer, AScriptMayNotWriteOutsideTheCurrentDirectory) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_outside");
    for (const char* shot : {"../escaped.png", "/tmp/seiche_view_escaped.png"}) {
        EXPECT_EQ(view_scripted(dir, std::string(R"({"events": [{"frame": 1, "screenshot": ")") + shot + R"("}]})",
                                "--frames 3"),
                  2);
        EXPECT_NE(slurp(dir / "log").find("leaves the current directory"), std::string::npos)
            << slurp(dir / "log");
    }
    EXPECT_FALSE(fs::exists("/tmp/seiche_view_escaped.png"));
}

TEST(Viewer, ScriptedDropAddsABlockOfFluid) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_drop");
    ASSERT_EQ(view_scripted(dir, R"({"events": [{"frame": 1, "drop": [0.6, 0.4]}]})", "--frames 4 --width 400 --height 240"),
              0)
        << slurp(dir / "log");
    // 14 × 14 sites above the water, all free: 2500 + 196.
    EXPECT_NE(slurp(dir / "log").find("2696 particles"), std::string::npos) << slurp(dir / "log");
}

TEST(Viewer, ScriptedRecordingWritesAPictureSequence) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_record");
    ASSERT_EQ(view_scripted(dir, R"({"events": [{"frame": 2, "record": true}, {"frame": 7, "record": false}]})", "--frames 10 --width 320 --height 180", dir),
              0)
        << slurp(dir / "log");
    // Frames 2 to 6, as PNGs of the window's size, in out/NAME_view/render/.
    const fs::path render = dir / "out" / "stir_2d_view" / "render";
    for (int k = 0; k < 5; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06d.png", k);
        const fs::path png = render / name;
        ASSERT_TRUE(fs::exists(png)) << png;
        EXPECT_EQ(seiche::render::read_png(png).width, 320);
    }
    EXPECT_FALSE(fs::exists(render / "frame_000005.png"));
    EXPECT_NE(slurp(dir / "log").find("recorded 5 frames"), std::string::npos) << slurp(dir / "log");
}

}  // namespace

// The scene's pressure sensors in the live view: read every step (the overlay draws their
// traces), their last readings and the mean of the last 100 printed at the end. A tank released
// from its lattice: about ρ0·g·(H − y) on average (a single step's reading swings by ±20% while
// it sloshes, so the mean is compared).
TEST(Viewer, SensorsAreReadLive) {
    REQUIRE_XVFB();
    const fs::path dir = fresh_dir("seiche_view_sensors");
    std::ofstream(dir / "tank.json") << R"({
  "name": "view_tank", "dimension": 2, "particle_radius": 0.005, "gravity": [0, -9.81],
  "container": { "min": [0, 0], "max": [0.3, 0.3] },
  "fluid": [ { "min": [0, 0], "max": [0.3, 0.15] } ],
  "sensors": [ { "name": "floor", "face": "-y", "centre": [0.15, 0], "size": 0.1 },
               { "name": "wall", "face": "+x", "centre": [0.3, 0.05], "size": 0.04 } ]
})";
    ASSERT_EQ(view((dir / "tank.json").string() + " --frames 300 --width 320 --height 240",
                   dir / "log"),
              0)
        << slurp(dir / "log");
    std::smatch m;
    const std::string log = slurp(dir / "log");
    ASSERT_TRUE(std::regex_search(log, m, std::regex(R"(sensors +floor (\S+) Pa, wall (\S+) Pa)")))
        << log;
    ASSERT_TRUE(std::regex_search(
        log, m, std::regex(R"(sensors, mean of the last 100 readings: floor (\S+) Pa, wall (\S+) Pa)")))
        << log;
    // 450 particles of (2r)² over the tank's width: H = 0.15 m.
    EXPECT_NEAR(std::stod(m[1]) / (1000 * 9.81 * 0.15), 1.0, 0.15) << log;
    EXPECT_NEAR(std::stod(m[2]) / (1000 * 9.81 * 0.10), 1.0, 0.15) << log;
    fs::remove_all(dir);
}
