// Reading back what seiche wrote: particle frames (.vtp or .ply), .pvd series and surface meshes,
// for the tools that work on finished runs (seiche mesh, the viewer's playback). Throws std::runtime_error naming the file and what is
// wrong; files from other programs are read if they use the same layout.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "seiche/io/writers.hpp"

namespace seiche::io {

// A particle frame written by write_vtp (compressed or raw), by write_pvtp over pieces (joined in
// creation order), or by write_ply (positions always;
// velocity and density when present, else left empty), or the points of a legacy .vtk file
// (positions only). A damaged file, a compressed block included, is refused with a message.
FrameData read_frame(const std::filesystem::path& path);

// The (time, file) entries of a .pvd collection, in file order.
std::vector<PvdEntry> read_pvd(const std::filesystem::path& path);

// A 3D surface mesh as write_mesh_ply writes it: binary little-endian, float vertex properties
// (x y z first, then nx ny nz when present), faces as a uchar count 3 and three int indices.
// Throws on anything else, or on an index out of range.
SurfaceMesh read_mesh_ply(const std::filesystem::path& path);

// The same from a file's bytes; `path` names it in messages (and its extension picks the format).
FrameData parse_frame(const std::string& bytes, const std::filesystem::path& path);
std::vector<PvdEntry> parse_pvd(const std::string& bytes, const std::filesystem::path& path);

}  // namespace seiche::io
