// Pictures: PNG files read back exactly, particles land where the camera says with the colour of
// their speed, nearer particles hide farther ones, the same picture for any thread count, and the
// render commands write a picture per frame.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>

#include "cli_helpers.hpp"
#include "scene_helpers.hpp"
#include "seiche/parallel.hpp"
#include "seiche/render.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/io/readers.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;
using render::Image;
using test::fresh_dir;
using test::run_cli;
using test::slurp;

Scene small_scene(int dim) {
    Scene s;
    s.dimension = dim;
    s.particle_radius = 0.05;
    s.container_min = {0, 0, 0};
    s.container_max = {2, 1, dim == 3 ? 1.0 : 0.0};
    s.fluid = {{{0, 0, 0}, {0.5, 0.5, dim == 3 ? 0.5 : 0.0}, {0, 0, 0}}};
    s.render.width = 320;
    s.render.height = 200;
    return s;
}

io::FrameData particles(const std::vector<std::array<float, 3>>& x,
                        const std::vector<float>& speed) {
    io::FrameData f;
    for (std::size_t i = 0; i < x.size(); ++i) {
        f.position.insert(f.position.end(), x[i].begin(), x[i].end());
        f.velocity.insert(f.velocity.end(), {speed[i], 0.0f, 0.0f});
        f.density.push_back(1000.0f);
    }
    return f;
}

std::array<int, 2> pixel_of(const Scene& s, std::array<double, 3> p) {
    const auto q = render::fit_camera(s, s.render.width, s.render.height).project(p);
    return {int(q[0]), int(q[1])};
}

TEST(Png, WritesAndReadsBackEveryPixel) {
    const fs::path dir = fresh_dir("seiche_test_png");
    Image img(37, 23);  // odd sizes: no row padding assumptions
    std::mt19937 rng(3);
    for (auto& b : img.rgb) b = std::uint8_t(rng());
    render::write_png(dir / "a.png", img);
    const std::string bytes = slurp(dir / "a.png");
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    // No temporary file left (they are named a.png.XXXXXX.part since issue 14).
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_NE(e.path().extension(), ".part");
    const Image back = render::read_png(dir / "a.png");
    EXPECT_EQ(back.width, 37);
    EXPECT_EQ(back.height, 23);
    EXPECT_EQ(back.rgb, img.rgb);

    // A damaged file is refused, not read as garbage.
    std::string bad = bytes;
    bad[bad.size() / 2] ^= 0x55;
    std::ofstream(dir / "bad.png", std::ios::binary) << bad;
    EXPECT_THROW(render::read_png(dir / "bad.png"), std::runtime_error);
    std::ofstream(dir / "short.png", std::ios::binary) << bytes.substr(0, bytes.size() - 20);
    EXPECT_THROW(render::read_png(dir / "short.png"), std::runtime_error);
    fs::remove_all(dir);
}

TEST(Render, ColourRangeIsTheFreeFallSpeedOrTheDensityBand) {
    Scene s = small_scene(3);
    const auto speed = render::color_range(s);
    EXPECT_EQ(speed[0], 0.0);
    EXPECT_NEAR(speed[1], std::sqrt(2 * 9.81 * 0.5), 1e-9);
    s.render.color_by = RenderParams::Color::density;
    EXPECT_NEAR(render::color_range(s)[0], 970.0, 1e-9);
    EXPECT_NEAR(render::color_range(s)[1], 1030.0, 1e-9);
    s.render.range_min = 990, s.render.range_max = 1010;
    EXPECT_EQ(render::color_range(s)[1], 1010.0);
}

// The font files the pictures and the viewer's panels choose from: SEICHE_FONT first when it
// names a file, then installed ones, never a path that is not there.
TEST(Render, OutlineFontFilesAreSeicheFontThenInstalledOnes) {
    const char* before = std::getenv("SEICHE_FONT");
    const std::string saved = before ? before : "";
    const fs::path dir = fresh_dir("seiche_test_font_file");
    std::ofstream(dir / "mine.ttf") << "not checked here";
    setenv("SEICHE_FONT", (dir / "mine.ttf").c_str(), 1);
    const auto mine = render::outline_font_files();
    ASSERT_FALSE(mine.empty());
    EXPECT_EQ(mine.front(), (dir / "mine.ttf").string());
    setenv("SEICHE_FONT", (dir / "missing.ttf").c_str(), 1);
    const auto installed = render::outline_font_files();
    EXPECT_EQ(installed.size() + 1, mine.size());
    for (const std::string& f : installed) EXPECT_TRUE(fs::is_regular_file(f)) << f;
    if (render::outline_font_available()) EXPECT_FALSE(installed.empty());
    if (before) setenv("SEICHE_FONT", saved.c_str(), 1);
    else unsetenv("SEICHE_FONT");
}

TEST(Render, TextSpellsUnitsAndGreekInTheOutlineFontOrInAscii) {
    EXPECT_EQ(render::ascii_fallback("kg/m³"), "kg/m3");
    EXPECT_EQ(render::ascii_fallback("ρ₀ = 1000"), "rho0 = 1000");
    EXPECT_EQ(render::ascii_fallback("a\xff"), "a?");  // malformed UTF-8 is not skipped silently
    auto drawn = [](const std::string& text) {
        Image img(200, 40);
        std::fill(img.rgb.begin(), img.rgb.end(), std::uint8_t(255));
        render::draw_text(img, 4, 8, text, 2, {0, 0, 0});
        return img.rgb;
    };
    auto ink = [](const std::vector<std::uint8_t>& rgb) {
        std::size_t n = 0;
        for (std::uint8_t v : rgb) n += v < 128;
        return n;
    };
    EXPECT_GT(ink(drawn("kg/m³")), 0u);
    if (render::outline_font_available()) {
        // Capitals differ from lower case; ³ and ρ are glyphs of their own, not '?'.
        EXPECT_NE(drawn("SPEED"), drawn("speed"));
        EXPECT_NE(drawn("kg/m³"), drawn("kg/m3"));
        EXPECT_NE(drawn("ρ"), drawn("?"));
        EXPECT_GT(ink(drawn("ρ")), 0u);
        // Capitals are 7·scale pixels tall, from y: the ink of "H" at scale 2 spans rows 8..21.
        const auto h = drawn("H");
        int top = 40, bottom = -1;
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 200; ++x)
                if (h[3 * (y * 200 + x)] < 128) top = std::min(top, y), bottom = std::max(bottom, y);
        EXPECT_EQ(top, 8);
        EXPECT_NEAR(bottom, 21, 1);
    } else {
        EXPECT_EQ(drawn("kg/m³"), drawn("kg/m3"));  // the pixel font spells it in ASCII
    }
    EXPECT_EQ(render::text_width("", 2), 0);
    EXPECT_LT(render::text_width("ab", 2), render::text_width("abc", 2));
}

TEST(Render, RunColourRangeIsTheRunsOwnSpeedWithoutItsSpray) {
    // 1000 particles at 0..0.999 m/s: all but the fastest 0.5% lie below 0.994 m/s.
    std::vector<std::array<float, 3>> x(1000, {0.5f, 0.5f, 0.5f});
    io::FrameData f = particles(x, std::vector<float>(1000, 0.0f));
    for (int i = 0; i < 1000; ++i) f.velocity[3 * i + 1] = -0.001f * float(i);
    EXPECT_FLOAT_EQ(render::frame_speed_percentile(f), 0.994f);
    // Three spray particles at 100 m/s among 1000 at 1 m/s do not move it.
    for (int i = 0; i < 1000; ++i) f.velocity[3 * i + 1] = i < 3 ? 100.0f : 1.0f;
    EXPECT_FLOAT_EQ(render::frame_speed_percentile(f), 1.0f);
    EXPECT_EQ(render::frame_speed_percentile(particles({}, {})), 0.0);

    Scene s = small_scene(3);
    // Rounded up to two significant digits.
    EXPECT_NEAR(render::run_color_range(s, 6.23)[1], 6.3, 1e-12);
    EXPECT_NEAR(render::run_color_range(s, 0.0412)[1], 0.042, 1e-12);
    EXPECT_NEAR(render::run_color_range(s, 4.0)[1], 4.0, 1e-12);
    EXPECT_EQ(render::run_color_range(s, 6.23)[0], 0.0);
    // Nothing measured: the scene's estimate; render.range and density keep their own.
    EXPECT_EQ(render::run_color_range(s, 0.0), render::color_range(s));
    EXPECT_EQ(render::run_color_range(s, std::nan("")), render::color_range(s));
    s.render.range_min = 0, s.render.range_max = 2;
    EXPECT_EQ(render::run_color_range(s, 6.23), (std::array<double, 2>{0, 2}));
    s.render.range_max = 0;
    s.render.color_by = RenderParams::Color::density;
    EXPECT_EQ(render::run_color_range(s, 6.23), render::color_range(s));
}

TEST(Render, ColourBarLabelsShareOneFormatAndFit) {
    // The density band: "1.03e+03" beside "970" before, cut to "1.03e+0" by the margin.
    using A = std::array<std::string, 3>;
    EXPECT_EQ(render::bar_labels(970, 1030), (A{"970", "1000", "1030"}));
    EXPECT_EQ(render::bar_labels(0, std::sqrt(2 * 9.81 * 0.6)), (A{"0.0", "1.7", "3.4"}));
    EXPECT_EQ(render::bar_labels(0, 0.05), (A{"0.000", "0.025", "0.050"}));
    EXPECT_EQ(render::bar_labels(990, 1010), (A{"990", "1000", "1010"}));
    // Too wide for fixed decimals: the same general format for all three.
    const A big = render::bar_labels(0, 3.0e7);
    EXPECT_EQ(big, (A{"0", "1.5e+07", "3e+07"}));
    for (const auto& l : render::bar_labels(0, 3.43)) EXPECT_LE(l.size(), 6u) << l;
}

TEST(Render, FittedCameraShowsTheWholeContainer) {
    for (int dim : {2, 3}) {
        const Scene s = small_scene(dim);
        for (int k = 0; k < (dim == 3 ? 8 : 4); ++k) {
            const std::array<double, 3> c = {k & 1 ? 2.0 : 0.0, k & 2 ? 1.0 : 0.0,
                                             k & 4 ? 1.0 : 0.0};
            const auto p = render::fit_camera(s, 320, 200).project(c);
            EXPECT_GT(p[2], 0) << dim << "D corner " << k;
            EXPECT_GE(p[0], 0) << dim << "D corner " << k;
            EXPECT_LE(p[0], 320 - 60) << dim << "D corner " << k;  // left of the colour bar
            EXPECT_GE(p[1], 14) << dim << "D corner " << k;        // below the caption
            EXPECT_LE(p[1], 200) << dim << "D corner " << k;
        }
    }
    // A camera set in the scene looks at its target.
    Scene s = small_scene(3);
    s.render.camera_auto = false;
    s.render.camera_position = {1, 3, 4};
    s.render.camera_target = {0.5, 0.2, 0.1};
    const auto p = render::fit_camera(s, 320, 200).project(s.render.camera_target);
    EXPECT_NEAR(p[0], (320 - 60) / 2.0, 1e-9);
    EXPECT_NEAR(p[1], 14 + (200 - 14) / 2.0, 1e-9);
}

TEST(Render, ParticlesShowTheColourOfTheirSpeed) {
    const Scene s = small_scene(2);
    const double vmax = render::color_range(s)[1];
    // Slow at the left, fast at the right: dark violet-blue and bright yellow-green.
    const Image img = render::render_frame(
        particles({{0.5f, 0.5f, 0}, {1.5f, 0.5f, 0}}, {0.0f, float(vmax)}), s, "test");
    const auto [sx, sy] = pixel_of(s, {0.5, 0.5, 0});
    const auto [fx, fy] = pixel_of(s, {1.5, 0.5, 0});
    const auto slow = img.at(sx, sy), fast = img.at(fx, fy);
    EXPECT_GT(slow[2], slow[1]) << "slow particle: blue above green";
    EXPECT_LT(slow[0], 130);
    EXPECT_GT(fast[0], 150) << "fast particle: yellow";
    EXPECT_GT(fast[1], 150);
    EXPECT_LT(fast[2], 110);
    // Between them, background: light grey.
    const auto [bx, by] = pixel_of(s, {1.0, 0.5, 0});
    const auto bg = img.at(bx, by);
    EXPECT_GT(bg[0], 200);
    EXPECT_GT(bg[2], 200);
}

// A scene's pressure sensors are marked red on their faces: in 2D across the patch on the wall,
// in 3D its outline; nowhere without sensors.
TEST(Render, SensorsAreMarkedOnTheirFaces) {
    auto red = [](const std::array<std::uint8_t, 3>& c) { return c[0] > 150 && c[1] < 90 && c[2] < 90; };
    auto reds_near = [&](const Image& img, std::array<int, 2> at, int reach) {
        int n = 0;
        for (int y = at[1] - reach; y <= at[1] + reach; ++y)
            for (int x = at[0] - reach; x <= at[0] + reach; ++x)
                if (x >= 0 && y >= 0 && x < img.width && y < img.height && red(img.at(x, y))) ++n;
        return n;
    };
    auto reds = [&](const Image& img) { return reds_near(img, {img.width / 2, img.height / 2}, 1000); };
    for (int dim : {2, 3}) {
        Scene s = small_scene(dim);
        const io::FrameData none = particles({{0.2f, 0.2f, 0.2f}}, {0.0f});
        EXPECT_EQ(reds(render::render_frame(none, s, "no sensors")), 0) << dim << "D";
        SensorDef wall;
        wall.face = SensorFace::plus_x;  // the right wall, 0.5 m up
        wall.centre = {2, 0.5, 0.5};
        wall.size = 0.3;
        s.sensors = {wall};
        const Image img = render::render_frame(none, s, "a sensor");
        EXPECT_GT(reds_near(img, pixel_of(s, {2, dim == 3 ? 0.35 : 0.5, 0.5}), 3), 0) << dim << "D";
        // Nowhere else: not at the left wall, nor on the right wall far from the patch.
        EXPECT_EQ(reds_near(img, pixel_of(s, {0, 0.5, 0.5}), 4), 0) << dim << "D";
        EXPECT_EQ(reds_near(img, pixel_of(s, {2, 0.05, 0.5}), 3), 0) << dim << "D";
    }
}

TEST(Render, LongCaptionsStayInsideThePicture) {
    Scene s = small_scene(2);
    s.render.width = 640;  // text at twice the font size
    s.render.height = 300;
    const auto f = particles({{0.5f, 0.5f, 0}}, {0.0f});
    // Ink (dark pixels) in the caption strip: its right end, and whether it reaches the edge.
    auto caption_right_end = [&](const std::string& caption) {
        const Image img = render::render_frame(f, s, caption);
        int right = -1;
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < img.width; ++x)
                if (img.at(x, y)[0] < 100) right = std::max(right, x);
        return right;
    };
    const int short_end = caption_right_end("dam break  pbf  t = 0.50 s");
    EXPECT_GT(short_end, 100);
    EXPECT_LT(short_end, 400);
    // 70 characters: 839 px at size 2, fits at size 1 (419 px), drawn whole.
    const std::string medium(70, 'x');
    const int medium_end = caption_right_end(medium);
    EXPECT_GT(medium_end, 400);
    EXPECT_LT(medium_end, 640 - 10);
    // 200 characters: cut short, still inside.
    const int long_end = caption_right_end(std::string(200, 'x'));
    EXPECT_GT(long_end, 560);
    EXPECT_LT(long_end, 640 - 10);
}

TEST(Render, NearerParticlesHideFartherOnesInAnyOrder) {
    const Scene s = small_scene(3);
    const auto cam = render::fit_camera(s, s.render.width, s.render.height);
    // Two particles on the line of sight through the middle of the box, 0.3 m apart.
    const std::array<double, 3> mid = {1.0, 0.5, 0.5};
    std::array<float, 3> near{}, far{};
    for (int a = 0; a < 3; ++a) {
        near[a] = float(mid[a] - 0.15 * cam.forward[a]);
        far[a] = float(mid[a] + 0.15 * cam.forward[a]);
    }
    const float vmax = float(render::color_range(s)[1]);
    const auto [x, y] = pixel_of(s, {near[0], near[1], near[2]});
    for (bool near_first : {true, false}) {
        const Image img = render::render_frame(
            near_first ? particles({near, far}, {vmax, 0}) : particles({far, near}, {0, vmax}), s,
            "");
        const auto c = img.at(x, y);
        EXPECT_GT(c[0], 150) << "the near, fast (yellow) particle is in front";
        EXPECT_LT(c[2], 110);
    }
}

TEST(Render, SamePictureForOneAndTwoThreads) {
    Scene s = small_scene(3);
    s.render.width = 400, s.render.height = 300;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.05f, 0.95f);
    std::vector<std::array<float, 3>> x(20000);
    std::vector<float> v(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = {2 * u(rng), u(rng), u(rng)}, v[i] = u(rng);
    const io::FrameData f = particles(x, v);
    set_thread_count(1);
    const Image one = render::render_frame(f, s, "threads");
    set_thread_count(2);
    const Image two = render::render_frame(f, s, "threads");
    set_thread_count(0);
    EXPECT_EQ(one.rgb, two.rgb);
}

TEST(RenderScene, BadRenderSettingsAreRefusedWithTheirPath) {
    auto error = [](const std::string& o) {
        return test::scene_error("scenes/dam_break_3d.json", o);
    };
    EXPECT_NE(error("render.width=10").find("render.width"), std::string::npos);
    EXPECT_NE(error("render.color_by=\"pressure\"").find("render.color_by"), std::string::npos);
    EXPECT_NE(error("render.range=[2,1]").find("render.range"), std::string::npos);
    EXPECT_NE(error("render.camera={\"position\":[1,1,1],\"target\":[1,1,1]}")
                  .find("render.camera.target"),
              std::string::npos);
    EXPECT_NE(error("render.camera={\"position\":[1,1,1]}").find("render.camera.target"),
              std::string::npos);
    EXPECT_NE(error("render.camra=1").find("did you mean \"camera\""), std::string::npos);
    const std::string scene2d = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    EXPECT_THROW(io::load_scene(scene2d, {"render.camera={\"position\":[1,1],\"target\":[0,0]}"}),
                 io::SceneError);
}

TEST(RenderCli, RunRenderAndRenderCommandMakeTheSamePictures) {
    const fs::path dir = fresh_dir("seiche_test_render_cli");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    const fs::path run = dir / "run";
    ASSERT_EQ(run_cli("run " + scene + " -o " + run.string() +
                          " --end-time 0.1 --render -q --set render.width=320 "
                          "--set render.height=180",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    for (int k = 0; k <= 3; ++k) {
        const Image img =
            render::read_png(run / "render" / ("frame_00000" + std::to_string(k) + ".png"));
        EXPECT_EQ(img.width, 320);
        EXPECT_EQ(img.height, 180);
    }
    EXPECT_EQ(slurp(run / "preview_first.png"), slurp(run / "render" / "frame_000000.png"));
    EXPECT_EQ(slurp(run / "preview_last.png"), slurp(run / "render" / "frame_000003.png"));
    const std::string during = slurp(run / "render" / "frame_000002.png");

    // Rendering the finished run from its files gives the same pictures.
    fs::remove_all(run / "render");
    ASSERT_EQ(run_cli("render " + run.string() + " -q --no-movie", dir / "log"), 0)
        << slurp(dir / "log");
    EXPECT_EQ(slurp(run / "render" / "frame_000002.png"), during);
    EXPECT_FALSE(fs::exists(run / "render" / "frame_000004.png"));

    // Other colours on request; bad settings and non-run directories are refused.
    ASSERT_EQ(run_cli("render " + run.string() + " -q --no-movie --color-by density", dir / "log"),
              0);
    EXPECT_NE(slurp(run / "render" / "frame_000002.png"), during);
    EXPECT_EQ(run_cli("render " + run.string() + " --set render.width=5", dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("render.width"), std::string::npos);
    EXPECT_EQ(run_cli("render " + (dir / "nothing").string(), dir / "log"), 2);
    fs::remove_all(dir);
}

// The pictures of a run are coloured over the run's own speeds: `seiche render` says the range,
// which is the largest frame_speed_percentile of the frames on disk; the previews of a run
// without --render come out the same as `seiche render` makes them.
TEST(RenderCli, PicturesUseTheRunsOwnSpeedRange) {
    const fs::path dir = fresh_dir("seiche_test_render_range");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    const fs::path run = dir / "run";
    ASSERT_EQ(run_cli("run " + scene + " -o " + run.string() +
                          " --end-time 0.4 -q --set render.width=320 --set render.height=180",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const std::string first = slurp(run / "preview_first.png"), last = slurp(run / "preview_last.png");
    double fastest = 0;
    for (const auto& e : io::read_pvd(run / "particles.pvd"))
        fastest = std::max(fastest, render::frame_speed_percentile(io::read_frame(run / e.file)));
    ASSERT_GT(fastest, 1.0);  // the column has fallen
    ASSERT_EQ(run_cli("render " + run.string() + " --no-movie", dir / "log"), 0) << slurp(dir / "log");
    const double top = render::run_color_range(io::load_scene(scene), fastest)[1];
    EXPECT_NE(slurp(dir / "log").find(fmt::format("speed from 0 to {:.4g} m/s", top)),
              std::string::npos)
        << slurp(dir / "log");
    EXPECT_EQ(slurp(run / "preview_first.png"), first);
    EXPECT_EQ(slurp(run / "preview_last.png"), last);
    // Another range on request changes the pictures.
    ASSERT_EQ(run_cli("render " + run.string() + " --no-movie -q --set render.range=[0,10]",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    EXPECT_NE(slurp(run / "preview_last.png"), last);
    // output.preview=false is kept by a run with --render: pictures, no previews.
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "nopreview").string() +
                          " --end-time 0.1 -q --render --set output.preview=false "
                          "--set render.width=320 --set render.height=180",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    EXPECT_TRUE(fs::exists(dir / "nopreview" / "render" / "frame_000003.png"));
    EXPECT_FALSE(fs::exists(dir / "nopreview" / "preview_last.png"));
    // A picture per frame needs the frames on disk: refused before anything is written.
    EXPECT_EQ(run_cli("run " + scene + " -o " + (dir / "bare").string() +
                          " --end-time 0.1 -q --render --set output.ply=false --set output.vtk=false",
                      dir / "log"),
              2);
    EXPECT_NE(slurp(dir / "log").find("output.render"), std::string::npos) << slurp(dir / "log");
    EXPECT_FALSE(fs::exists(dir / "bare" / "frames"));
    fs::remove_all(dir);
}

// A run with a body: `seiche render` draws the body's outline from bodies.csv exactly as the
// run did, and without bodies.csv the picture lacks it.
TEST(RenderCli, RenderCommandDrawsTheBodiesAsTheRunDid) {
    const fs::path dir = fresh_dir("seiche_test_render_bodies");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/floating_box_2d.json";
    const fs::path run = dir / "run";
    ASSERT_EQ(run_cli("run " + scene + " -o " + run.string() +
                          " --end-time 0.2 --render -q --set render.width=320 "
                          "--set render.height=180",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const std::string during = slurp(run / "render" / "frame_000005.png");
    fs::remove_all(run / "render");
    ASSERT_EQ(run_cli("render " + run.string() + " -q --no-movie", dir / "log"), 0)
        << slurp(dir / "log");
    EXPECT_EQ(slurp(run / "render" / "frame_000005.png"), during);
    fs::rename(run / "bodies.csv", dir / "bodies.csv");
    ASSERT_EQ(run_cli("render " + run.string() + " -q --no-movie", dir / "log"), 0);
    EXPECT_NE(slurp(run / "render" / "frame_000005.png"), during);
    fs::remove_all(dir);
}

TEST(RenderCli, MovieWhenFfmpegIsInstalled) {
    if (std::system("command -v ffmpeg > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "ffmpeg is not installed";
    const fs::path dir = fresh_dir("seiche_test_render_movie");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    ASSERT_EQ(run_cli("run " + scene + " -o " + (dir / "run").string() +
                          " --end-time 0.2 --render -q --set render.width=255 "
                          "--set render.height=145 --set output.vtk=false",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    const std::string movie = slurp(dir / "run" / "render" / "movie.mp4");
    ASSERT_GT(movie.size(), 1000u) << slurp(dir / "log");
    EXPECT_EQ(movie.substr(4, 4), "ftyp");  // an MP4 (ISO base media) file
    EXPECT_FALSE(fs::exists(dir / "run" / "render" / "movie.part.mp4"));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche
