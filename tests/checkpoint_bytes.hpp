// Forging checkpoints for the tests of hostile input: a checkpoint.bin with bytes changed gets its
// checksum written anew (FNV-1a over everything before it, as World::save writes it), so that
// the values themselves are what a restore has to refuse.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "cli_helpers.hpp"

namespace seiche::test {

inline std::string with_checksum(std::string bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t k = 0; k + 8 < bytes.size(); ++k) {
        h ^= static_cast<unsigned char>(bytes[k]);
        h *= 0x100000001b3ull;
    }
    std::memcpy(bytes.data() + bytes.size() - 8, &h, 8);
    return bytes;
}

// Where the front end's state (JSON text, after its 8-byte length) starts in a checkpoint, and
// where it ends: the time (double) and the step count (int64) follow it.
struct StateText {
    std::size_t start = 0, size = 0;
};
inline StateText find_state(const std::string& bytes) {
    const std::size_t key = bytes.find("\"next_frame\":");
    for (std::size_t p = bytes.rfind('{', key); p != std::string::npos && p >= 8;
         p = bytes.rfind('{', p - 1)) {
        std::uint64_t n;
        std::memcpy(&n, bytes.data() + p - 8, 8);
        if (p + n > key && p + n <= bytes.size() && bytes[p + n - 1] == '}') return {p, n};
        if (p == 0) break;
    }
    return {};
}

// The checkpoint with its state text replaced by TEXT, its checksum written anew.
inline std::string with_state(const std::string& bytes, const std::string& text) {
    const StateText s = find_state(bytes);
    std::string out = bytes.substr(0, s.start - 8);
    const std::uint64_t n = text.size();
    out.append(reinterpret_cast<const char*>(&n), 8);
    out += text;
    out += bytes.substr(s.start + s.size);
    return with_checksum(out);
}

// A run's checkpoint and the front end's state in it, to forge copies of.
struct ForgeableCheckpoint {
    std::string pristine;
    nlohmann::json state;
    explicit ForgeableCheckpoint(const std::filesystem::path& file) : pristine(slurp(file)) {
        const StateText at = find_state(pristine);
        EXPECT_GT(at.size, 0u) << file << " has no front-end state";
        if (at.size > 0) state = nlohmann::json::parse(pristine.substr(at.start, at.size));
    }
    // The checkpoint with its state changed by edit(json&).
    template <class F>
    std::string forged(F edit) const {
        nlohmann::json s = state;
        edit(s);
        return with_state(pristine, s.dump());
    }
};

// `seiche run --resume RUN ARGS` from CHECKPOINT (written into RUN): refused with exit code 2, a
// message holding MESSAGE, and the run directory left exactly as it was.
inline void expect_refused_resume(const std::filesystem::path& run, const std::string& checkpoint,
                                  const std::string& message, const std::string& args,
                                  const std::filesystem::path& log) {
    std::ofstream(run / "checkpoint.bin", std::ios::binary | std::ios::trunc) << checkpoint;
    const auto before = run_files(run);
    EXPECT_EQ(run_cli("run --resume " + run.string() + " " + args, log), 2) << slurp(log);
    EXPECT_NE(slurp(log).find(message), std::string::npos) << slurp(log);
    EXPECT_TRUE(run_files(run) == before) << "the refused resume changed the run directory";
}

}  // namespace seiche::test
