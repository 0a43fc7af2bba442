// VTK XML appended blocks, raw or zlib-compressed (vtk_blocks.hpp).
#include "vtk_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#ifdef SEICHE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace seiche::io::vtk {

namespace {
// 32 KiB blocks, as VTK writes them.
constexpr std::uint64_t block_size = 32768;
}  // namespace

bool can_compress() {
#ifdef SEICHE_HAVE_ZLIB
    return true;
#else
    return false;
#endif
}

std::string encode_block(const void* data, std::uint64_t bytes, bool compress) {
    std::string out;
    auto put = [&out](std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); };
    if (!compress || !can_compress()) {
        put(bytes);
        out.append(static_cast<const char*>(data), bytes);
        return out;
    }
#ifdef SEICHE_HAVE_ZLIB
    const std::uint64_t blocks = (bytes + block_size - 1) / block_size;
    put(blocks);
    put(block_size);
    put(bytes % block_size);
    const std::size_t sizes_at = out.size();
    for (std::uint64_t b = 0; b < blocks; ++b) put(0);  // filled in below
    std::string z;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::uint64_t len = std::min(block_size, bytes - b * block_size);
        uLongf zlen = compressBound(static_cast<uLong>(len));
        z.resize(zlen);
        // Level 1: most of the gain (index arrays shrink to almost nothing, floats by a third)
        // at a small fraction of level 6's time.
        if (compress2(reinterpret_cast<Bytef*>(z.data()), &zlen,
                      static_cast<const Bytef*>(data) + b * block_size, static_cast<uLong>(len),
                      1) != Z_OK)
            throw std::runtime_error("zlib could not compress an array");
        const std::uint64_t zsize = zlen;
        std::memcpy(&out[sizes_at + 8 * b], &zsize, 8);
        out.append(z.data(), zlen);
    }
#endif
    return out;
}

}  // namespace seiche::io::vtk
