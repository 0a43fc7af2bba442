// Mesh files and the mesh commands: OBJ / PLY / VTP hold the mesh that was made, particle frames
// read back exactly, and `seiche run --mesh` / `seiche mesh` write a mesh per frame.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_helpers.hpp"
#include "seiche/io/readers.hpp"
#include "seiche/io/writers.hpp"
#include "seiche/surface.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;
using test::fresh_dir;
using test::run_cli;
using test::slurp;

SurfaceMesh small_ball() {
    std::vector<Vec<3>> x;
    for (int i = -4; i <= 4; ++i)
        for (int j = -4; j <= 4; ++j)
            for (int k = -4; k <= 4; ++k)
                if (i * i + j * j + k * k <= 16) x.emplace_back(i * 0.02f, j * 0.02f, k * 0.02f);
    return reconstruct_surface<3>(x, 0.01f, {});
}

TEST(MeshFiles, ObjPlyAndVtpHoldTheMesh) {
    const fs::path dir = fresh_dir("seiche_test_mesh_files");
    const SurfaceMesh m = small_ball();
    ASSERT_GT(m.face_count(), 100u);
    io::write_obj(dir / "m.obj", m);
    io::write_mesh_ply(dir / "m.ply", m);
    io::write_mesh_vtp(dir / "m.vtp", m);

    // OBJ: v and vn per vertex, 1-based faces that match the mesh.
    std::istringstream obj(slurp(dir / "m.obj"));
    std::vector<float> v;
    std::vector<std::uint32_t> f;
    std::size_t normals = 0;
    for (std::string line; std::getline(obj, line);) {
        std::istringstream w(line);
        std::string key;
        w >> key;
        if (key == "v") {
            float a, b, c;
            w >> a >> b >> c;
            v.insert(v.end(), {a, b, c});
        } else if (key == "vn") {
            ++normals;
        } else if (key == "f") {
            for (int k = 0; k < 3; ++k) {
                std::string t;
                w >> t;
                f.push_back(std::uint32_t(std::stoul(t.substr(0, t.find('/')))) - 1);
            }
        }
    }
    EXPECT_EQ(f, m.index);
    EXPECT_EQ(normals, m.vertex_count());
    ASSERT_EQ(v.size(), m.position.size());
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_NEAR(v[i], m.position[i], 1e-6f);

    // PLY: header counts, and the byte size they imply.
    const std::string ply = slurp(dir / "m.ply");
    EXPECT_NE(ply.find("element vertex " + std::to_string(m.vertex_count()) + "\n"),
              std::string::npos);
    EXPECT_NE(ply.find("element face " + std::to_string(m.face_count()) + "\n"), std::string::npos);
    const std::size_t body = ply.find("end_header\n") + std::strlen("end_header\n");
    EXPECT_EQ(ply.size() - body, m.vertex_count() * 24 + m.face_count() * 13);
    std::int32_t last[3];
    std::memcpy(last, ply.data() + ply.size() - 12, 12);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(std::uint32_t(last[k]), m.index[m.index.size() - 3 + k]);

    // VTP: polys with the face count.
    const std::string vtp = slurp(dir / "m.vtp");
    EXPECT_NE(vtp.find("NumberOfPolys=\"" + std::to_string(m.face_count()) + "\""),
              std::string::npos);
    EXPECT_NE(vtp.find("Name=\"Normals\""), std::string::npos);
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_NE(e.path().extension(), ".part");
    fs::remove_all(dir);
}

// The reader beside the writer (the viewer plays surfaces back through it): every vertex, normal
// and index comes back bit for bit; a file cut short or a particle frame is refused.
TEST(MeshFiles, SurfacePlyReadsBackExactly) {
    const fs::path dir = fresh_dir("seiche_test_mesh_ply_read");
    const SurfaceMesh m = small_ball();
    io::write_mesh_ply(dir / "m.ply", m);
    const SurfaceMesh r = io::read_mesh_ply(dir / "m.ply");
    EXPECT_EQ(r.dimension, 3);
    EXPECT_EQ(r.position, m.position);
    EXPECT_EQ(r.normal, m.normal);
    EXPECT_EQ(r.index, m.index);
    EXPECT_TRUE(r.velocity.empty());
    // With the fluid's velocity at the vertices: three more properties, read back, and a
    // velocity array in the VTP.
    SurfaceMesh mv = m;
    for (std::size_t i = 0; i < mv.position.size(); ++i) mv.velocity.push_back(0.5f * float(i));
    io::write_mesh_ply(dir / "mv.ply", mv);
    EXPECT_NE(slurp(dir / "mv.ply").find("property float nz\nproperty float vx\nproperty float vy\n"
                                         "property float vz\n"),
              std::string::npos);
    EXPECT_EQ(io::read_mesh_ply(dir / "mv.ply").velocity, mv.velocity);
    io::write_mesh_vtp(dir / "mv.vtp", mv);
    EXPECT_NE(slurp(dir / "mv.vtp").find("Name=\"velocity\" NumberOfComponents=\"3\""),
              std::string::npos);

    const std::string bytes = slurp(dir / "m.ply");
    {
        std::ofstream cut(dir / "cut.ply", std::ios::binary);
        cut.write(bytes.data(), std::streamsize(bytes.size() - 5));
    }
    EXPECT_THROW(io::read_mesh_ply(dir / "cut.ply"), std::runtime_error);
    io::FrameData f;
    f.position = {0, 0, 0};
    f.velocity = {0, 0, 0};
    f.density = {1000};
    io::write_ply(dir / "frame.ply", f);
    EXPECT_THROW(io::read_mesh_ply(dir / "frame.ply"), std::runtime_error);
}

TEST(MeshFiles, ParticleFramesReadBackExactly) {
    const fs::path dir = fresh_dir("seiche_test_read_frames");
    io::FrameData f;
    f.position = {0.1f, 0.2f, 0.3f, -1.0f, 2.0f, 0.0f, 5.5f, 6.5f, -7.5f};
    f.velocity = {1.0f, 0.0f, 0.0f, 0.0f, -2.0f, 0.5f, 3.0f, 3.0f, 3.0f};
    f.density = {1000.0f, 987.5f, 1001.0f};
    io::write_vtp(dir / "a.vtp", f);
    io::write_ply(dir / "a.ply", f);
    for (const char* name : {"a.vtp", "a.ply"}) {
        const io::FrameData g = io::read_frame(dir / name);
        EXPECT_EQ(g.position, f.position) << name;
        EXPECT_EQ(g.velocity, f.velocity) << name;
        EXPECT_EQ(g.density, f.density) << name;
    }
    io::write_pvd(dir / "s.pvd", {{0.0, "a.vtp"}, {0.25, "b.vtp"}});
    const auto entries = io::read_pvd(dir / "s.pvd");
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[1].time, 0.25);
    EXPECT_EQ(entries[1].file, "b.vtp");
    // A truncated frame is refused, not read as garbage.
    const std::string ply = slurp(dir / "a.ply");
    std::ofstream(dir / "cut.ply", std::ios::binary) << ply.substr(0, ply.size() - 5);
    EXPECT_THROW(io::read_frame(dir / "cut.ply"), std::runtime_error);
    EXPECT_THROW(io::read_frame(dir / "a.txt"), std::runtime_error);
    fs::remove_all(dir);
}

// One mesh format by default: the binary PLY (a third of the OBJ's size), no OBJ, no VTP series.
TEST(MeshCli, MeshesAreBinaryPlyByDefault) {
    const fs::path dir = fresh_dir("seiche_test_mesh_default");
    ASSERT_EQ(run_cli("run " + std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_3d.json -o " +
                          (dir / "run").string() + " --end-time 0.04 --mesh -q --set particle_radius=0.02",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    int ply = 0, other = 0;
    for (const auto& e : fs::directory_iterator(dir / "run" / "frames")) {
        const std::string name = e.path().filename().string();
        if (name.rfind("surface_", 0) != 0) continue;
        (e.path().extension() == ".ply" ? ply : other)++;
    }
    EXPECT_EQ(ply, 2);  // t = 0, 1/30
    EXPECT_EQ(other, 0);
    EXPECT_FALSE(fs::exists(dir / "run" / "surface.pvd"));
    EXPECT_EQ(slurp(dir / "run" / "frames" / "surface_000001.ply").rfind("ply\nformat binary_little_endian", 0), 0u);
    // The run's surfaces carry the fluid's velocity: still at t = 0, falling at t = 1/30 s (the
    // column's top, where the surface is, drops at up to g t = 0.33 m/s).
    const SurfaceMesh still = io::read_mesh_ply(dir / "run" / "frames" / "surface_000000.ply");
    const SurfaceMesh falling = io::read_mesh_ply(dir / "run" / "frames" / "surface_000001.ply");
    ASSERT_EQ(still.velocity.size(), still.position.size());
    ASSERT_EQ(falling.velocity.size(), falling.position.size());
    float fastest_still = 0, lowest = 0;
    for (float c : still.velocity) fastest_still = std::max(fastest_still, std::abs(c));
    for (std::size_t i = 1; i < falling.velocity.size(); i += 3)
        lowest = std::min(lowest, falling.velocity[i]);
    EXPECT_EQ(fastest_still, 0.0f);
    EXPECT_LT(lowest, -0.1f);
    EXPECT_GT(lowest, -0.5f);
}

TEST(MeshCli, RunWithMeshAndMeshCommandWriteAMeshPerFrame) {
    const fs::path dir = fresh_dir("seiche_test_mesh_cli");
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json";
    ASSERT_EQ(
        run_cli("run " + scene + " -o " + (dir / "run").string() +
                    " --end-time 0.1 --mesh -q --set output.mesh_obj=true --set output.mesh_vtk=true",
                dir / "log"),
        0)
        << slurp(dir / "log");
    auto count = [&](const std::string& prefix, const std::string& ext) {
        int n = 0;
        for (const auto& e : fs::directory_iterator(dir / "run" / "frames")) {
            const std::string name = e.path().filename().string();
            n += name.rfind(prefix, 0) == 0 && e.path().extension() == ext;
        }
        return n;
    };
    const int frames = count("frame_", ".vtp");
    EXPECT_EQ(frames, 4);  // t = 0, 1/30, 2/30, 3/30
    for (const char* ext : {".obj", ".ply", ".vtp"}) EXPECT_EQ(count("surface_", ext), frames);
    EXPECT_EQ(io::read_pvd(dir / "run" / "surface.pvd").size(), std::size_t(frames));
    // 2D outlines are line segments.
    EXPECT_NE(slurp(dir / "run" / "frames" / "surface_000001.obj").find("\nl "), std::string::npos);

    // Remesh finer, OBJ only: the old meshes go, the new ones are finer.
    const std::string before = slurp(dir / "run" / "frames" / "surface_000003.obj");
    ASSERT_EQ(run_cli("mesh " + (dir / "run").string() +
                          " --set surface.cell_size=0.5 --set output.mesh_ply=false "
                          "--set output.mesh_obj=true -q",
                      dir / "log"),
              0)
        << slurp(dir / "log");
    EXPECT_EQ(count("surface_", ".obj"), frames);
    EXPECT_EQ(count("surface_", ".ply"), 0);
    EXPECT_GT(slurp(dir / "run" / "frames" / "surface_000003.obj").size(), 1.5 * before.size());

    // Bad input: not a run directory; an impossible iso level, named by its path.
    EXPECT_EQ(run_cli("mesh " + (dir / "nothing").string(), dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("not a run directory"), std::string::npos);
    EXPECT_EQ(run_cli("mesh " + (dir / "run").string() + " --set surface.iso=1.5", dir / "log"), 2);
    EXPECT_NE(slurp(dir / "log").find("surface.iso"), std::string::npos) << slurp(dir / "log");
    EXPECT_EQ(run_cli("bench-mesh " + (dir / "run" / "frames" / "frame_000002.vtp").string() +
                          " --repeat 1",
                      dir / "log"),
              0);
    EXPECT_TRUE(std::regex_search(slurp(dir / "log"), std::regex("µs per particle")));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace seiche
