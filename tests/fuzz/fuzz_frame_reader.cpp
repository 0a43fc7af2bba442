// libFuzzer target: particle frames (.ply, .vtp) and .pvd series as seiche reads them back from
// a run directory. The first byte picks the format; every input is either read, with arrays of
// consistent sizes, or refused with std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "seiche/io/readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        static const char* const names[] = {"frame.vtp", "frame.ply", "frame.vtk"};
        switch (data[0] % 4) {
            case 0:
            case 1:
            case 2: {
                const seiche::io::FrameData f = seiche::io::parse_frame(bytes, names[data[0] % 4]);
                const std::size_t n = f.size();
                if (f.position.size() != 3 * n) std::abort();
                if (!f.velocity.empty() && f.velocity.size() != 3 * n) std::abort();
                break;
            }
            default:
                seiche::io::parse_pvd(bytes, "particles.pvd");
        }
    } catch (const std::runtime_error&) {
    }
    return 0;
}
