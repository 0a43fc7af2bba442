// Surface meshes of a run directory: frames/surface_NNNNNN.{obj,ply,vtp,vdb} and surface.pvd, shared
// by `seiche run --mesh` and `seiche mesh`.
#pragma once

#include <filesystem>
#include <vector>

#include "seiche/io/writers.hpp"
#include "seiche/scene.hpp"
#include "seiche/surface.hpp"

namespace seiche::run {

class SurfaceOutput {
  public:
    // Removes the meshes of an earlier pass, or, `continuing` a resumed run, keeps them and
    // lists these in surface.pvd.
    SurfaceOutput(const Scene& scene, std::filesystem::path run_dir,
                  const std::vector<io::PvdEntry>* continuing = nullptr);
    // Writes the mesh of frame `index` (simulated time `time`) in the scene's formats.
    void write(int index, double time, const SurfaceMesh& mesh);
    const std::vector<io::PvdEntry>& entries() const { return pvd_; }
    // The run directory was renamed to dir (what is written from now on goes there).
    void moved_to(const std::filesystem::path& dir) { dir_ = dir; }

  private:
    const Scene& scene_;
    std::filesystem::path dir_;
    std::vector<io::PvdEntry> pvd_;
};

}  // namespace seiche::run
