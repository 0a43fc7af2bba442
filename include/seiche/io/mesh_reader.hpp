// Triangle meshes for bodies: Wavefront OBJ (v and f lines; polygons fanned into triangles) and
// STL (binary or ASCII; equal vertices welded so that a closed STL is closed), in metres.
#pragma once

#include <filesystem>
#include <stdexcept>

#include "seiche/world_def.hpp"

namespace seiche::io {

// Throws std::runtime_error naming the file and what is wrong (missing, unreadable, not a mesh,
// an index out of range, no triangles).
MeshData read_mesh(const std::filesystem::path& file);

}  // namespace seiche::io
