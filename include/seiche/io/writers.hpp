// Output files. Every file is written to "<name>.part" and renamed when complete, so a reader
// never sees a half-written file, even if the run is killed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "seiche/particle_set.hpp"
#include "seiche/surface.hpp"
#include "seiche/step_stats.hpp"

namespace seiche::io {

// Writes through `fill` into path.part, then renames to path. Throws std::runtime_error.
void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(std::ostream&)>& fill);

// One frame of particles in 3D form (2D scenes get z = 0), SI units.
struct FrameData {
    std::vector<float> position;  //!< x y z per particle, m
    std::vector<float> velocity;  //!< m/s
    std::vector<float> density;   //!< kg/m³
    std::vector<std::uint32_t> id;  //!< creation id per row (empty: the row number)
    double time = 0.0;              //!< s, simulated time of the frame
    std::vector<float> solid_edges;  //!< the bodies' outlines for pictures: x y z x y z per line, m
    std::size_t size() const { return density.size(); }
};

// The particles of p in creation order, those with skip[i] != 0 left out (a split run's halo
// copies: one process's own part of the fluid); skip empty: all of them.
template <int D>
FrameData frame_data(const ParticleSet<D>& p, double time = 0.0,
                     std::span<const std::uint8_t> skip = {}) {
    FrameData f;
    f.time = time;
    std::vector<std::uint32_t> kept;  // storage indices of the rows
    if (skip.empty()) {
        kept.resize(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) kept[i] = std::uint32_t(i);
    } else {
        for (std::size_t i = 0; i < p.size(); ++i)
            if (!skip[i]) kept.push_back(std::uint32_t(i));
    }
    const std::size_t n = kept.size();
    f.position.assign(3 * n, 0.0f);
    f.velocity.assign(3 * n, 0.0f);
    f.density.assign(n, 0.0f);
    f.id.assign(n, 0);
    // Written in creation order, so a row is the same particle in every frame (while no sink has
    // removed particles and no emitter added any, row k is creation id k).
    std::vector<std::uint32_t> row(n);
    bool dense = true;
    for (std::size_t k = 0; k < n; ++k) dense = dense && p.id[kept[k]] < n;
    if (dense) {
        for (std::size_t k = 0; k < n; ++k) row[k] = p.id[kept[k]];
    } else {
        std::vector<std::uint32_t> ids(n);
        for (std::size_t k = 0; k < n; ++k) ids[k] = p.id[kept[k]];
        const std::vector<std::uint32_t> order = creation_order(ids);
        for (std::size_t k = 0; k < n; ++k) row[order[k]] = std::uint32_t(k);
    }
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t i = kept[j], k = row[j];
        f.density[k] = p.rho[i];
        f.id[k] = p.id[i];
        for (int a = 0; a < D; ++a) {
            f.position[3 * k + a] = p.x[i][a];
            f.velocity[3 * k + a] = p.v[i][a];
        }
    }
    return f;
}

// VTK XML PolyData with appended binary data (ParaView, VisIt): point arrays velocity, density
// and id, the frame's time as field data TimeValue; zlib-compressed (vtkZLibDataCompressor)
// unless raw is asked for or the build has no zlib. meshio has no .vtp reader (Debian's
// python3-meshio reads .vtk and .vtu): it reads the .ply frames.
enum class VtpEncoding { compressed, raw };
void write_vtp(const std::filesystem::path& path, const FrameData& frame,
               VtpEncoding encoding = VtpEncoding::compressed);

// A .pvd collection listing (time, file) pairs, so ParaView opens the whole series.
struct PvdEntry {
    double time;
    std::string file;  //!< relative to the .pvd
};
void write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries);

// A frame written in pieces (one per process of a split run, each a .vtp as write_vtp writes
// it): the VTK parallel PolyData file (.pvtp) that joins them, so ParaView reads them as one
// data set. `pieces`: the pieces' file names, in the .pvtp's directory.
void write_pvtp(const std::filesystem::path& path, const std::vector<std::string>& pieces);

// Binary little-endian PLY with vertex properties x y z vx vy vz density (Blender, Houdini).
void write_ply(const std::filesystem::path& path, const FrameData& frame);

// Surface meshes (3D triangles or 2D line segments, with vertex normals): Wavefront OBJ, binary
// PLY (face or edge elements) and VTK XML PolyData (Polys or Lines).
void write_obj(const std::filesystem::path& path, const SurfaceMesh& mesh);
void write_mesh_ply(const std::filesystem::path& path, const SurfaceMesh& mesh);
void write_mesh_vtp(const std::filesystem::path& path, const SurfaceMesh& mesh);

// stats.csv, one row per step; written to a temporary beside it and renamed by close().
class StatsWriter {
  public:
    static const char* header();
    // `rows`: lines to start with after the header (a resumed run's rows up to its checkpoint).
    void open(const std::filesystem::path& path, std::string_view rows = {});
    void append(const StepStats& s);
    // Publishes the rows so far as stats.csv (atomically) and goes on writing: a checkpoint's
    // stats.csv ends at the checkpoint's step.
    void snapshot();
    void close();
    ~StatsWriter();

  private:
    std::filesystem::path path_, temp_;
    std::FILE* file_ = nullptr;
    int fd_ = -1;  // the temporary file, kept open for the fsync before the rename
};

}  // namespace seiche::io
