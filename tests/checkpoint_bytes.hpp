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

}  // namespace seiche::test
