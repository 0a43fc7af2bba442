// Surface meshes of a run directory: frames/surface_NNNNNN.{obj,ply,vtp} and surface.pvd, shared
// by `seiche run --mesh` and `seiche mesh`.
#pragma once

#include <filesystem>
#include <vector>

#include "seiche/io/writers.hpp"
#include "seiche/scene.hpp"
#include "seiche/surface.hpp"

namespace seiche::app {

class SurfaceOutput {
  public:
    SurfaceOutput(const Scene& scene, std::filesystem::path run_dir);
    // Writes the mesh of frame `index` (simulated time `time`) in the scene's formats.
    void write(int index, double time, const SurfaceMesh& mesh);

  private:
    const Scene& scene_;
    std::filesystem::path dir_;
    std::vector<io::PvdEntry> pvd_;
};

}  // namespace seiche::app
