// `seiche density` (issue 15, scope 4): a frame measured afterwards gives the density error the
// run reported for its last step; a legacy VTK file of the same points (as SPlisHSPlasH writes
// them: big-endian binary, or ASCII) gives the same figures; bad input is refused.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>

#include "cli_helpers.hpp"
#include "seiche/io/readers.hpp"

namespace seiche {
namespace {

const std::string scene_2d = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";

struct Errors {
    double mean = -1, max = -1;
};

Errors errors_in(const std::string& text, const std::string& label) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(label + R"(\s*mean ([0-9.]+)%, max ([0-9.]+)%)"))) {
        ADD_FAILURE() << "no '" << label << "' in:\n" << text;
        return {};
    }
    return {std::stod(m[1]), std::stod(m[2])};
}

void write_legacy_vtk(const std::filesystem::path& path, const io::FrameData& f, bool binary) {
    std::ofstream out(path, std::ios::binary);
    const std::size_t n = f.position.size() / 3;
    out << "# vtk DataFile Version 4.1\nparticles\n" << (binary ? "BINARY" : "ASCII")
        << "\nDATASET UNSTRUCTURED_GRID\nPOINTS " << n << " float\n";
    for (float v : f.position) {
        if (!binary) {
            out.precision(9);
            out << v << ' ';
            continue;
        }
        std::uint32_t u = std::bit_cast<std::uint32_t>(v);
        const unsigned char b[4] = {static_cast<unsigned char>(u >> 24),
                                    static_cast<unsigned char>(u >> 16),
                                    static_cast<unsigned char>(u >> 8),
                                    static_cast<unsigned char>(u)};
        out.write(reinterpret_cast<const char*>(b), 4);
    }
    out << "\nCELLS 0 0\n";
}

TEST(DensityCommand, MeasuresAFrameAsTheRunDidAndReadsLegacyVtk) {
    const auto dir = test::fresh_dir("seiche_density_command");
    const auto run_dir = dir / "run";
    ASSERT_EQ(test::run_cli("run " + scene_2d + " -q --end-time 0.4 -o " + run_dir.string(),
                            dir / "run.log"),
              0);
    const Errors run = errors_in(test::slurp(dir / "run.log"), "last step:");
    ASSERT_GT(run.max, 0.0) << "a dam break at 0.4 s is compressed somewhere";
    std::filesystem::path last;
    for (const auto& e : std::filesystem::directory_iterator(run_dir / "frames"))
        if (e.path().extension() == ".vtp" && e.path().filename() > last.filename()) last = e.path();
    ASSERT_FALSE(last.empty());

    // The run's scene.json is found from the frame; the particles are re-sorted, so the sums may
    // round differently in the last bits, not more.
    ASSERT_EQ(test::run_cli("density " + last.string(), dir / "frame.log"), 0);
    const Errors frame = errors_in(test::slurp(dir / "frame.log"), "density error");
    EXPECT_NEAR(frame.mean, run.mean, 0.0006 + 1e-3 * run.mean);
    EXPECT_NEAR(frame.max, run.max, 0.0006 + 1e-3 * run.max);

    // Another code's particle mass: twice seiche's doubles the fluid's share of every density.
    std::smatch m;
    const std::string frame_text = test::slurp(dir / "frame.log");
    ASSERT_TRUE(std::regex_search(frame_text, m, std::regex(R"(particle mass\s+([0-9.eE+-]+) kg)")));
    const double mass = std::stod(m[1]);
    ASSERT_EQ(test::run_cli("density " + last.string() + " --mass " + std::to_string(2 * mass),
                            dir / "mass.log"),
              0);
    EXPECT_GT(errors_in(test::slurp(dir / "mass.log"), "density error").mean, 50.0);
    // Half of it: a fluid held apart. No compression to count, and the median density away from
    // the walls says so, where the run's own frame reads ρ0 there.
    const auto median_in = [](const std::string& text) {
        std::smatch d;
        if (!std::regex_search(text, d, std::regex(R"(away from the walls: median ([0-9.]+))"))) {
            ADD_FAILURE() << "no median in:\n" << text;
            return -1.0;
        }
        return std::stod(d[1]);
    };
    EXPECT_NEAR(median_in(frame_text), 1.0, 0.01);
    ASSERT_EQ(test::run_cli("density " + last.string() + " --mass " + std::to_string(0.5 * mass),
                            dir / "half.log"),
              0);
    const std::string half = test::slurp(dir / "half.log");
    EXPECT_EQ(errors_in(half, "density error").mean, 0.0);
    EXPECT_LT(median_in(half), 0.6);
    // A mass that is not a positive number is refused, not ignored (nan passed CLI11's range).
    for (const char* bad : {"nan", "-1", "0"}) {
        EXPECT_EQ(test::run_cli("density " + last.string() + " --mass " + bad, dir / "bad.log"), 2)
            << bad;
        EXPECT_NE(test::slurp(dir / "bad.log").find("--mass: expected a finite number > 0"),
                  std::string::npos)
            << test::slurp(dir / "bad.log");
    }
    // Away from the walls: a subset of the particles, so its largest error is at most the whole's.
    const Errors inner = errors_in(frame_text, "container\\):");
    EXPECT_GE(inner.mean, 0.0);
    EXPECT_LE(inner.max, frame.max);

    const io::FrameData f = io::read_frame(last);
    for (bool binary : {true, false}) {
        const auto vtk = dir / (binary ? "binary.vtk" : "ascii.vtk");
        write_legacy_vtk(vtk, f, binary);
        ASSERT_EQ(test::run_cli("density " + vtk.string() + " --scene " + scene_2d,
                                dir / "vtk.log"),
                  0)
            << test::slurp(dir / "vtk.log");
        const Errors v = errors_in(test::slurp(dir / "vtk.log"), "density error");
        EXPECT_EQ(v.mean, frame.mean) << (binary ? "binary" : "ascii");
        EXPECT_EQ(v.max, frame.max) << (binary ? "binary" : "ascii");
    }

    // Another particle count than the scene's: refused, saying why.
    EXPECT_EQ(test::run_cli("density " + last.string() + " --set particle_radius=0.02",
                            dir / "count.log"),
              2);
    EXPECT_NE(test::slurp(dir / "count.log").find("particles, the scene"), std::string::npos)
        << test::slurp(dir / "count.log");
    // A truncated file: an error naming the file, no crash.
    const std::string whole = test::slurp(dir / "binary.vtk");
    {
        std::ofstream cut(dir / "cut.vtk", std::ios::binary);
        cut << whole.substr(0, whole.size() / 2);
    }
    EXPECT_EQ(test::run_cli("density " + (dir / "cut.vtk").string() + " --scene " + scene_2d,
                            dir / "cut.log"),
              1);
    EXPECT_NE(test::slurp(dir / "cut.log").find("cut.vtk: truncated POINTS data"), std::string::npos)
        << test::slurp(dir / "cut.log");
    // A frame outside a run directory and no --scene.
    EXPECT_EQ(test::run_cli("density " + (dir / "ascii.vtk").string(), dir / "noscene.log"), 2);
    EXPECT_NE(test::slurp(dir / "noscene.log").find("pass --scene"), std::string::npos);
}

}  // namespace
}  // namespace seiche
