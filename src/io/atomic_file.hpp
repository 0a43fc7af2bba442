// The pieces of write-then-rename that the writers share (internal to seiche_io).
#pragma once

#include <filesystem>

namespace seiche::io {

// Creates PATH.XXXXXX.part exclusively, with an unpredictable name; returns its descriptor and
// sets temp to its name. Throws std::runtime_error naming path.
int create_temp_beside(const std::filesystem::path& path, std::filesystem::path& temp);

// Syncs and closes fd, renames temp over path, syncs the directory. On failure removes temp and
// throws std::runtime_error.
void commit_temp(int fd, const std::filesystem::path& temp, const std::filesystem::path& path);

}  // namespace seiche::io
