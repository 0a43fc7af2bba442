// Binary PLY (Turk 1994; the format as read by Blender's and Houdini's importers): a vertex
// element with float properties, little-endian.
#include <cstdint>
#include <vector>

#include "seiche/io/writers.hpp"

namespace seiche::io {

void write_ply(const std::filesystem::path& path, const FrameData& f) {
    const std::size_t n = f.size();
    std::vector<float> rows(n * 7);
    for (std::size_t i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            rows[7 * i + a] = f.position[3 * i + a];
            rows[7 * i + 3 + a] = f.velocity[3 * i + a];
        }
        rows[7 * i + 6] = f.density[i];
    }
    write_file_atomic(path, [&](std::ostream& out) {
        out << "ply\nformat binary_little_endian 1.0\ncomment seiche particles, SI units\n"
            << "element vertex " << n << "\n"
            << "property float x\nproperty float y\nproperty float z\n"
            << "property float vx\nproperty float vy\nproperty float vz\n"
            << "property float density\nend_header\n";
        out.write(reinterpret_cast<const char*>(rows.data()),
                  std::streamsize(rows.size() * sizeof(float)));
    });
}

}  // namespace seiche::io
