// Shared by the tests that run the seiche program.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <vector>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <iterator>
#include <string>

extern char** environ;

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

// Every file of a run directory and its bytes.
inline std::map<std::string, std::string> run_files(const std::filesystem::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            out[std::filesystem::relative(e.path(), dir).string()] = slurp(e.path());
    return out;
}

// An empty directory under the system's temporary directory.
inline std::filesystem::path fresh_dir(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// Starts `seiche ARGS...` with output into log; returns its pid.
inline pid_t spawn_seiche(const std::vector<std::string>& args, const std::filesystem::path& log) {
    std::vector<std::string> all = {SEICHE_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid = 0;
    EXPECT_EQ(posix_spawn(&pid, SEICHE_BINARY, &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

// Waits for pid; returns its exit code (−signal when killed) and the seconds it took.
inline std::pair<int, double> wait_for(pid_t pid) {
    const auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    waitpid(pid, &status, 0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status), s};
}

}  // namespace seiche::test
