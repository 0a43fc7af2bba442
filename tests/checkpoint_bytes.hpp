// Forging checkpoints for the tests of hostile input: a checkpoint.bin with bytes changed gets its
// checksum written anew (FNV-1a over everything before it, as World::save writes it), so that
// the values themselves are what a restore has to refuse.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

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

}  // namespace seiche::test
