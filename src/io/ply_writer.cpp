// Binary PLY (Turk 1994; the format as read by Blender's and Houdini's importers): a vertex
// element with float properties and the uint creation id, little-endian.
#include <cstdint>
#include <vector>

#include "seiche/io/writers.hpp"

namespace seiche::io {

void write_ply(const std::filesystem::path& path, const FrameData& f) {
    // x y z vx vy vz density (float) and the creation id (uint): 32 bytes a row, so a motion
    // blur or trail keyed on id survives the rows a sink removes or an emitter adds.
    struct Row {
        float values[7];
        std::uint32_t id;
    };
    static_assert(sizeof(Row) == 32);
    const std::size_t n = f.size();
    std::vector<Row> rows(n);
    for (std::size_t i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            rows[i].values[a] = f.position[3 * i + a];
            rows[i].values[3 + a] = f.velocity[3 * i + a];
        }
        rows[i].values[6] = f.density[i];
        rows[i].id = f.id.empty() ? std::uint32_t(i) : f.id[i];
    }
    write_file_atomic(path, [&](std::ostream& out) {
        out << "ply\nformat binary_little_endian 1.0\ncomment seiche particles, SI units\n"
            << "element vertex " << n << "\n"
            << "property float x\nproperty float y\nproperty float z\n"
            << "property float vx\nproperty float vy\nproperty float vz\n"
            << "property float density\nproperty uint id\nend_header\n";
        out.write(reinterpret_cast<const char*>(rows.data()),
                  std::streamsize(rows.size() * sizeof(Row)));
    });
}

}  // namespace seiche::io
