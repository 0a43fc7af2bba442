#include "surface_output.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "vdb_output.hpp"

namespace seiche::run {

namespace fs = std::filesystem;

SurfaceOutput::SurfaceOutput(const Scene& scene, fs::path run_dir,
                             const std::vector<io::PvdEntry>* continuing)
    : scene_(scene), dir_(std::move(run_dir)) {
    if (scene.output.vdb)  // before the meshes of an earlier pass are removed
        if (const std::string why = vdb_unavailable(); !why.empty()) throw std::runtime_error(why);
    fs::create_directories(dir_ / "frames");
    if (continuing) {
        pvd_ = *continuing;
        return;
    }
    // Meshes of an earlier pass would mix with this one's.
    for (const auto& e : fs::directory_iterator(dir_ / "frames"))
        if (e.path().filename().string().rfind("surface_", 0) == 0) fs::remove(e.path());
}

void SurfaceOutput::write(int index, double time, const SurfaceMesh& mesh) {
    const std::string stem = fmt::format("surface_{:06}", index);
    const OutputParams& o = scene_.output;
    if (o.mesh_obj) io::write_obj(dir_ / "frames" / (stem + ".obj"), mesh);
    if (o.mesh_ply) io::write_mesh_ply(dir_ / "frames" / (stem + ".ply"), mesh);
    if (o.mesh_vtk) {
        io::write_mesh_vtp(dir_ / "frames" / (stem + ".vtp"), mesh);
        pvd_.push_back({time, "frames/" + stem + ".vtp"});
        io::write_pvd(dir_ / "surface.pvd", pvd_);
    }
    // The level set on the marching-cubes grid, so it resolves what the mesh resolves.
    if (o.vdb && mesh.dimension == 3)
        write_vdb_level_set(dir_ / "frames" / (stem + ".vdb"), mesh,
                            scene_.surface.cell_size * scene_.particle_radius, time);
}

}  // namespace seiche::run
