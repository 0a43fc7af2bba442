// VTK XML PolyData (.vtp) with appended data, and the .pvd collection file. Format: "VTK File
// Formats", VTK User's Guide 11th ed., XML formats. Raw appended blocks are each preceded by their
// byte count (UInt64 here, header_type="UInt64"); compressed ones (compressor=
// "vtkZLibDataCompressor") by the number of blocks, the uncompressed block size, the size of a
// partial last block (0: the last block is full) and each block's compressed size, all UInt64,
// then the zlib streams of the blocks.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef SEICHE_HAVE_ZLIB
#include <zlib.h>
#endif

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

// 32 KiB blocks, as VTK writes them.
constexpr std::uint64_t block_size = 32768;

// The block of one array as it goes into the appended section.
std::string encode(const Array& a, bool compress) {
    std::string out;
    auto put = [&out](std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); };
    if (!compress) {
        put(a.bytes);
        out.append(static_cast<const char*>(a.data), a.bytes);
        return out;
    }
#ifdef SEICHE_HAVE_ZLIB
    const std::uint64_t blocks = (a.bytes + block_size - 1) / block_size;
    put(blocks);
    put(block_size);
    put(a.bytes % block_size);
    const std::size_t sizes_at = out.size();
    for (std::uint64_t b = 0; b < blocks; ++b) put(0);  // filled in below
    std::string z;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::uint64_t len = std::min(block_size, a.bytes - b * block_size);
        uLongf zlen = compressBound(static_cast<uLong>(len));
        z.resize(zlen);
        // Level 1: most of the gain (the index arrays shrink to almost nothing, floats by a
        // third) at a small fraction of level 6's time.
        if (compress2(reinterpret_cast<Bytef*>(z.data()), &zlen,
                      static_cast<const Bytef*>(a.data) + b * block_size, static_cast<uLong>(len),
                      1) != Z_OK)
            throw std::runtime_error("zlib could not compress an array");
        const std::uint64_t zsize = zlen;
        std::memcpy(&out[sizes_at + 8 * b], &zsize, 8);
        out.append(z.data(), zlen);
    }
    return out;
#else
    (void)a;
    return {};
#endif
}

}  // namespace

void write_vtp(const std::filesystem::path& path, const FrameData& f, VtpEncoding encoding) {
#ifdef SEICHE_HAVE_ZLIB
    const bool compress = encoding == VtpEncoding::compressed;
#else
    const bool compress = false;
    (void)encoding;
#endif
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
    for (const auto& a : field_data) blocks.push_back(encode(a, compress));
    for (const auto& a : point_data) blocks.push_back(encode(a, compress));
    blocks.push_back(encode(points, compress));
    for (const auto& a : verts) blocks.push_back(encode(a, compress));

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
            << (compress ? " compressor=\"vtkZLibDataCompressor\"" : "") << ">\n"
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
