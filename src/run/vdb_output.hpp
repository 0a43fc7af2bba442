// OpenVDB files of a run (Museth 2013, "VDB: High-resolution sparse volumes with dynamic
// topology"), for Houdini and Blender, which read them natively: the particles of a frame as a
// points grid, and the fluid's surface as a narrow-band level set. OpenVDB itself lives in the
// plugin libseiche_vdb.so (vdb_plugin.cpp, built when libopenvdb-dev is installed), opened on
// first use; without it vdb_unavailable() says why and the writers throw that.
#pragma once

#include <filesystem>
#include <string>

#include "seiche/io/writers.hpp"
#include "seiche/surface.hpp"

namespace seiche::run {

// Why this seiche cannot write VDB files ("output.vdb: ...", naming what to install), or ""
// when it can.
std::string vdb_unavailable();

// frames/frame_NNNNNN.vdb: one points grid named `points` with Houdini's attribute names —
// P (m), v (m/s, a vector), density (kg/m³), id (creation id) — and the frame's time (s) as the
// grid's `time` metadata. voxel: the grid's voxel edge (m); positions are stored exactly (float).
void write_vdb_points(const std::filesystem::path& path, const io::FrameData& frame,
                      double voxel);

// frames/surface_NNNNNN.vdb: the closed 3D surface mesh as a signed-distance level set named
// `surface` (negative inside, m), three voxels wide on each side; voxel edge in m.
void write_vdb_level_set(const std::filesystem::path& path, const SurfaceMesh& mesh, double voxel,
                         double time);

}  // namespace seiche::run
