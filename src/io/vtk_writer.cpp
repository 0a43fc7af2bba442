// VTK XML PolyData (.vtp) particle frames with appended data (vtk_blocks.hpp: raw or
// zlib-compressed blocks), and the .pvd collection file. Format: "VTK File Formats", VTK User's
// Guide 11th ed., XML formats.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "seiche/io/writers.hpp"
#include "vtk_blocks.hpp"

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

void write_vtp(const std::filesystem::path& path, const FrameData& f, VtpEncoding encoding) {
    const bool compress = encoding == VtpEncoding::compressed && vtk::can_compress();
    const std::uint64_t n = f.size();
    // Each particle is one vertex cell: connectivity i, offsets i+1.
    std::vector<std::int64_t> connectivity(n), offsets(n);
    for (std::uint64_t i = 0; i < n; ++i)
        connectivity[i] = std::int64_t(i), offsets[i] = std::int64_t(i + 1);
    std::vector<std::uint32_t> ids = f.id;
    if (ids.size() != n) {
        ids.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
    }
    const double time = f.time;
    const Array field_data[] = {{"TimeValue", 1, &time, sizeof(double), "Float64"}};
    const Array point_data[] = {
        {"velocity", 3, f.velocity.data(), n * 3 * sizeof(float), "Float32"},
        {"density", 1, f.density.data(), n * sizeof(float), "Float32"},
        {"id", 1, ids.data(), n * sizeof(std::uint32_t), "UInt32"},
    };
    const Array points = {"Points", 3, f.position.data(), n * 3 * sizeof(float), "Float32"};
    const Array verts[] = {
        {"connectivity", 1, connectivity.data(), n * sizeof(std::int64_t), "Int64"},
        {"offsets", 1, offsets.data(), n * sizeof(std::int64_t), "Int64"},
    };
    // Encoded first: a compressed block's size is known only once it is compressed.
    std::vector<std::string> blocks;
    auto encode = [&](const Array& a) { blocks.push_back(vtk::encode_block(a.data, a.bytes, compress)); };
    for (const auto& a : field_data) encode(a);
    for (const auto& a : point_data) encode(a);
    encode(points);
    for (const auto& a : verts) encode(a);

    write_file_atomic(path, [&](std::ostream& out) {
        std::uint64_t offset = 0;
        std::size_t next = 0;
        auto tag = [&](const Array& a, const char* extra = "") {
            out << "        <DataArray type=\"" << a.type << "\" Name=\"" << a.name
                << "\" NumberOfComponents=\"" << a.components << "\"" << extra
                << " format=\"appended\" offset=\"" << offset << "\"/>\n";
            offset += blocks[next++].size();
        };
        out << "<?xml version=\"1.0\"?>\n"
            << "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
               "header_type=\"UInt64\""
            << vtk::compressor_attribute(compress) << ">\n"
            << "  <PolyData>\n"
            << "    <FieldData>\n";
        for (const auto& a : field_data) tag(a, " NumberOfTuples=\"1\"");
        out << "    </FieldData>\n"
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
        for (const auto& b : blocks) out.write(b.data(), std::streamsize(b.size()));
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

namespace seiche::io {

void write_pvtp(const std::filesystem::path& path, const std::vector<std::string>& pieces) {
    // The arrays as every piece declares them (write_vtp); the time is in each piece's field
    // data and in the .pvd.
    write_file_atomic(path, [&](std::ostream& out) {
        out << "<?xml version=\"1.0\"?>\n"
            << "<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
               "header_type=\"UInt64\">\n"
            << "  <PPolyData GhostLevel=\"0\">\n"
            << "    <PPointData Scalars=\"density\" Vectors=\"velocity\">\n"
            << "      <PDataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n"
            << "      <PDataArray type=\"Float32\" Name=\"density\" NumberOfComponents=\"1\"/>\n"
            << "      <PDataArray type=\"UInt32\" Name=\"id\" NumberOfComponents=\"1\"/>\n"
            << "    </PPointData>\n"
            << "    <PPoints>\n"
            << "      <PDataArray type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
            << "    </PPoints>\n";
        for (const std::string& p : pieces) out << "    <Piece Source=\"" << p << "\"/>\n";
        out << "  </PPolyData>\n</VTKFile>\n";
    });
}

}  // namespace seiche::io
