// Files that seiche reads besides the scene: meshes, keyframe CSVs, viewer scripts, checkpoints,
// a run's own stats.csv and bodies.csv, particle frames. Each is checked before it is opened: a
// FIFO would block the open until a writer comes, a device or a sparse file of a gigabyte would be
// read whole.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace seiche::io {

inline constexpr std::uintmax_t MiB = std::uintmax_t(1) << 20;

// "a FIFO", "a directory", "a character device", ... for what is not a regular file (symlinks
// followed); "" for a regular file or a path that does not exist (its open then fails as usual).
std::string special_file_kind(const std::filesystem::path& path);

// Opens `path` for reading, refused before the open when it is not a regular file or is larger
// than max_bytes. Throws std::runtime_error: "PATH: the mesh file is a FIFO, not a file",
// "PATH: the mesh file is 1024 MiB, more than the 256 MiB it may be". A missing file gives a
// stream that failed, for the caller's own message.
std::ifstream open_input(const std::filesystem::path& path, std::string_view what,
                         std::uintmax_t max_bytes, std::ios::openmode mode = std::ios::in);

}  // namespace seiche::io
