// Surface meshes on disk: Wavefront OBJ (text; `v`, `vn`, then `f a//a b//b c//c` or `l a b`),
// binary little-endian PLY (vertex x y z nx ny nz; face or edge elements) and VTK XML PolyData
// (Polys or Lines, with Normals), each written atomically.
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <iterator>

#include "seiche/io/writers.hpp"
#include "vtk_blocks.hpp"

namespace seiche::io {

void write_obj(const std::filesystem::path& path, const SurfaceMesh& m) {
    write_file_atomic(path, [&](std::ostream& out) {
        fmt::memory_buffer buf;
        auto flush = [&](bool force) {
            if (!force && buf.size() < (1u << 20)) return;
            out.write(buf.data(), std::streamsize(buf.size()));
            buf.clear();
        };
        fmt::format_to(std::back_inserter(buf),
                       "# seiche surface mesh, SI units (m); {} vertices, {} {}\n",
                       m.vertex_count(), m.face_count(), m.dimension == 3 ? "triangles" : "lines");
        for (std::size_t i = 0; i < m.vertex_count(); ++i) {
            fmt::format_to(std::back_inserter(buf), "v {} {} {}\n", m.position[3 * i],
                           m.position[3 * i + 1], m.position[3 * i + 2]);
            flush(false);
        }
        for (std::size_t i = 0; i < m.vertex_count(); ++i) {
            fmt::format_to(std::back_inserter(buf), "vn {} {} {}\n", m.normal[3 * i],
                           m.normal[3 * i + 1], m.normal[3 * i + 2]);
            flush(false);
        }
        for (std::size_t f = 0; f < m.face_count(); ++f) {
            if (m.dimension == 3) {
                const std::uint32_t a = m.index[3 * f] + 1, b = m.index[3 * f + 1] + 1,
                                    c = m.index[3 * f + 2] + 1;
                fmt::format_to(std::back_inserter(buf), "f {}//{} {}//{} {}//{}\n", a, a, b, b, c,
                               c);
            } else {
                fmt::format_to(std::back_inserter(buf), "l {} {}\n", m.index[2 * f] + 1,
                               m.index[2 * f + 1] + 1);
            }
            flush(false);
        }
        flush(true);
    });
}

void write_mesh_ply(const std::filesystem::path& path, const SurfaceMesh& m) {
    const std::size_t n = m.vertex_count();
    // x y z, nx ny nz, and the fluid's vx vy vz when the mesh has them.
    const bool velocity = m.velocity.size() == 3 * n && n > 0;
    const std::size_t k = velocity ? 9 : 6;
    std::vector<float> rows(k * n);
    for (std::size_t i = 0; i < n; ++i)
        for (int a = 0; a < 3; ++a) {
            rows[k * i + a] = m.position[3 * i + a];
            rows[k * i + 3 + a] = m.normal[3 * i + a];
            if (velocity) rows[k * i + 6 + a] = m.velocity[3 * i + a];
        }
    write_file_atomic(path, [&](std::ostream& out) {
        out << "ply\nformat binary_little_endian 1.0\ncomment seiche surface mesh, SI units\n"
            << "element vertex " << n << "\n"
            << "property float x\nproperty float y\nproperty float z\n"
            << "property float nx\nproperty float ny\nproperty float nz\n";
        if (velocity) out << "property float vx\nproperty float vy\nproperty float vz\n";
        if (m.dimension == 3)
            out << "element face " << m.face_count()
                << "\nproperty list uchar int vertex_indices\n";
        else
            out << "element edge " << m.face_count()
                << "\nproperty int vertex1\nproperty int vertex2\n";
        out << "end_header\n";
        out.write(reinterpret_cast<const char*>(rows.data()),
                  std::streamsize(rows.size() * sizeof(float)));
        if (m.dimension == 3) {
            std::vector<char> faces(m.face_count() * 13);
            for (std::size_t f = 0; f < m.face_count(); ++f) {
                faces[13 * f] = 3;
                for (int k = 0; k < 3; ++k) {
                    const std::int32_t v = std::int32_t(m.index[3 * f + k]);
                    std::memcpy(&faces[13 * f + 1 + 4 * k], &v, 4);
                }
            }
            out.write(faces.data(), std::streamsize(faces.size()));
        } else {
            out.write(reinterpret_cast<const char*>(m.index.data()),
                      std::streamsize(m.index.size() * sizeof(std::uint32_t)));
        }
    });
}

void write_mesh_vtp(const std::filesystem::path& path, const SurfaceMesh& m) {
    const std::uint64_t n = m.vertex_count(), faces = m.face_count();
    const std::uint64_t per = m.dimension == 3 ? 3 : 2;
    std::vector<std::int64_t> connectivity(m.index.begin(), m.index.end()), offsets(faces);
    for (std::uint64_t f = 0; f < faces; ++f) offsets[f] = std::int64_t(per * (f + 1));
    const char* cells = m.dimension == 3 ? "Polys" : "Lines";
    // Compressed like the particle frames (vtk_blocks.hpp).
    const bool compress = vtk::can_compress();
    const bool velocity = m.velocity.size() == 3 * n && n > 0;
    const std::string blocks[] = {
        vtk::encode_block(m.normal.data(), m.normal.size() * sizeof(float), compress),
        vtk::encode_block(m.position.data(), m.position.size() * sizeof(float), compress),
        vtk::encode_block(connectivity.data(), connectivity.size() * sizeof(std::int64_t), compress),
        vtk::encode_block(offsets.data(), offsets.size() * sizeof(std::int64_t), compress),
        velocity ? vtk::encode_block(m.velocity.data(), m.velocity.size() * sizeof(float), compress)
                 : std::string()};
    std::uint64_t at[5], o = 0;
    for (int k = 0; k < 5; ++k) at[k] = o, o += blocks[k].size();
    write_file_atomic(path, [&](std::ostream& out) {
        out << "<?xml version=\"1.0\"?>\n"
            << "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
               "header_type=\"UInt64\""
            << vtk::compressor_attribute(compress) << ">\n  <PolyData>\n"
            << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfVerts=\"0\" NumberOfLines=\""
            << (per == 2 ? faces : 0) << "\" NumberOfStrips=\"0\" NumberOfPolys=\""
            << (per == 3 ? faces : 0) << "\">\n"
            << "      <PointData Normals=\"Normals\">\n"
            << "        <DataArray type=\"Float32\" Name=\"Normals\" NumberOfComponents=\"3\" "
               "format=\"appended\" offset=\""
            << at[0] << "\"/>\n";
        if (velocity)
            out << "        <DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" "
                   "format=\"appended\" offset=\""
                << at[4] << "\"/>\n";
        out << "      </PointData>\n      <Points>\n"
            << "        <DataArray type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\" "
               "format=\"appended\" offset=\""
            << at[1] << "\"/>\n      </Points>\n      <" << cells << ">\n"
            << "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" "
               "offset=\""
            << at[2] << "\"/>\n"
            << "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" offset=\""
            << at[3] << "\"/>\n      </" << cells << ">\n    </Piece>\n  </PolyData>\n"
            << "  <AppendedData encoding=\"raw\">\n   _";
        for (const std::string& b : blocks) out.write(b.data(), std::streamsize(b.size()));
        out << "\n  </AppendedData>\n</VTKFile>\n";
    });
}

}  // namespace seiche::io
