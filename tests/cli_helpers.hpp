// Shared by the tests that run the seiche program.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace seiche::test {

// Runs `seiche ARGS` with stdout and stderr into log; returns the exit code (−1 if killed).
inline int run_cli(const std::string& args, const std::filesystem::path& log) {
    const std::string cmd =
        std::string(SEICHE_BINARY) + " " + args + " > " + log.string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// An empty directory under the system's temporary directory.
inline std::filesystem::path fresh_dir(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace seiche::test
