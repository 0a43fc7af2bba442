// VTK XML PolyData (.vtp) with raw appended data, and the .pvd collection file. Format: "VTK
// File Formats", VTK User's Guide 11th ed., XML formats; appended raw blocks are each preceded by
// their byte count (UInt64 here, header_type="UInt64").
#include <cstdint>
#include <string>

#include "seiche/io/writers.hpp"

namespace seiche::io {

namespace {

struct Array {
    const char* name;
    int components;
    const void* data;
    std::uint64_t bytes;
    const char* type;
};

}  // namespace

void write_vtp(const std::filesystem::path& path, const FrameData& f) {
    const std::uint64_t n = f.size();
    // Each particle is one vertex cell: connectivity i, offsets i+1.
    std::vector<std::int64_t> connectivity(n), offsets(n);
    for (std::uint64_t i = 0; i < n; ++i)
        connectivity[i] = std::int64_t(i), offsets[i] = std::int64_t(i + 1);
    const Array point_data[] = {
        {"velocity", 3, f.velocity.data(), n * 3 * sizeof(float), "Float32"},
        {"density", 1, f.density.data(), n * sizeof(float), "Float32"},
    };
    const Array points = {"Points", 3, f.position.data(), n * 3 * sizeof(float), "Float32"};
    const Array verts[] = {
        {"connectivity", 1, connectivity.data(), n * sizeof(std::int64_t), "Int64"},
        {"offsets", 1, offsets.data(), n * sizeof(std::int64_t), "Int64"},
    };

    write_file_atomic(path, [&](std::ostream& out) {
        std::uint64_t offset = 0;
        auto tag = [&](const Array& a) {
            out << "        <DataArray type=\"" << a.type << "\" Name=\"" << a.name
                << "\" NumberOfComponents=\"" << a.components << "\" format=\"appended\" offset=\""
                << offset << "\"/>\n";
            offset += sizeof(std::uint64_t) + a.bytes;
        };
        out << "<?xml version=\"1.0\"?>\n"
            << "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
               "header_type=\"UInt64\">\n"
            << "  <PolyData>\n"
            << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfVerts=\"" << n
            << "\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n"
            << "      <PointData Scalars=\"density\" Vectors=\"velocity\">\n";
        for (const auto& a : point_data) tag(a);
        out << "      </PointData>\n      <Points>\n";
        tag(points);
        out << "      </Points>\n      <Verts>\n";
        for (const auto& a : verts) tag(a);
        out << "      </Verts>\n    </Piece>\n  </PolyData>\n"
            << "  <AppendedData encoding=\"raw\">\n   _";
        auto block = [&](const Array& a) {
            out.write(reinterpret_cast<const char*>(&a.bytes), sizeof(a.bytes));
            out.write(static_cast<const char*>(a.data), std::streamsize(a.bytes));
        };
        for (const auto& a : point_data) block(a);
        block(points);
        for (const auto& a : verts) block(a);
        out << "\n  </AppendedData>\n</VTKFile>\n";
    });
}

void write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries) {
    write_file_atomic(path, [&](std::ostream& out) {
        out << "<?xml version=\"1.0\"?>\n"
            << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
            << "  <Collection>\n";
        char buf[64];
        for (const auto& e : entries) {
            std::snprintf(buf, sizeof buf, "%.9g", e.time);
            out << "    <DataSet timestep=\"" << buf << "\" group=\"\" part=\"0\" file=\"" << e.file
                << "\"/>\n";
        }
        out << "  </Collection>\n</VTKFile>\n";
    });
}

}  // namespace seiche::io
