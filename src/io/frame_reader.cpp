// Readers for seiche's own particle frames: VTK XML PolyData with appended data, raw or
// zlib-compressed (header_type UInt64, Float32 arrays) and binary little-endian PLY with float properties; and
// the points of a legacy VTK file (as SPlisHSPlasH exports its particles), to measure other
// codes' particles the way seiche measures its own.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "seiche/io/readers.hpp"
#include "seiche/io/input_file.hpp"

#ifdef SEICHE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace seiche::io {

namespace {

std::string slurp(const std::filesystem::path& path) {
    // A frame of ten million particles is about 300 MiB.
    std::ifstream in = open_input(path, "the frame", 1024 * MiB, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

[[noreturn]] void bad(const std::filesystem::path& path, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + what);
}

std::string attribute(const std::string& tag, const std::string& name) {
    const std::regex re("\\b" + name + "=\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(tag, m, re) ? m[1].str() : std::string();
}

FrameData read_vtp(const std::string& s, const std::filesystem::path& path) {
    const std::size_t app = s.find("<AppendedData encoding=\"raw\">");
    if (app == std::string::npos) bad(path, "no raw appended data (not written by seiche?)");
    const std::size_t data = s.find('_', app);
    if (data == std::string::npos) bad(path, "appended data without '_' marker");
    if (s.find("header_type=\"UInt64\"") == std::string::npos)
        bad(path, "expected header_type=\"UInt64\"");
    const std::string head = s.substr(0, app);
    const std::size_t piece = head.find("<Piece");
    if (piece == std::string::npos) bad(path, "no <Piece>");
    const std::string count =
        attribute(head.substr(piece, head.find('>', piece) - piece), "NumberOfPoints");
    if (count.empty() || count.size() > 18 ||
        count.find_first_not_of("0123456789") != std::string::npos)
        bad(path, "NumberOfPoints \"" + count.substr(0, 20) + "\" is not a non-negative integer");
    const std::uint64_t n = std::stoull(count);
    if (n > s.size()) bad(path, "NumberOfPoints larger than the file");

    const std::size_t file_tag = head.find("<VTKFile");
    const std::string compressor =
        file_tag == std::string::npos ? std::string()
                                      : attribute(head.substr(file_tag, head.find('>', file_tag) -
                                                                            file_tag),
                                                  "compressor");
    if (!compressor.empty() && compressor != "vtkZLibDataCompressor")
        bad(path, "unknown compressor \"" + compressor.substr(0, 40) + "\"");
    const bool compressed = !compressor.empty();

    FrameData f;
    // Reads the 8-byte word at `at`, bounds-checked.
    auto word = [&](std::size_t at) {
        if (at > s.size() || s.size() - at < 8) bad(path, "truncated appended data");
        std::uint64_t v = 0;
        std::memcpy(&v, &s[at], 8);
        return v;
    };
    // Float32 arrays into floats, the UInt32 creation ids into ids: four bytes a value either way.
    auto read_array = [&](const std::string& tag, auto& out, std::uint64_t count) {
        using T = typename std::decay_t<decltype(out)>::value_type;
        static_assert(sizeof(T) == sizeof(float));
        const char* type = std::is_same_v<T, float> ? "Float32" : "UInt32";
        if (attribute(tag, "type") != type) bad(path, std::string("expected ") + type + " in " + tag);
        const std::string offset = attribute(tag, "offset");
        if (offset.empty() || offset.size() > 18 ||
            offset.find_first_not_of("0123456789") != std::string::npos)
            bad(path, "bad offset in " + tag.substr(0, 80));
        const std::uint64_t off = std::stoull(offset);
        if (off > s.size()) bad(path, "truncated appended data");
        const std::size_t at = data + 1 + off;
        const std::uint64_t expected = count * sizeof(float);
        if (!compressed) {
            const std::uint64_t bytes = word(at);
            if (bytes != expected || at + 8 + bytes > s.size())
                bad(path, "array size does not match NumberOfPoints");
            out.resize(count);
            std::memcpy(out.data(), &s[at + 8], bytes);
            return;
        }
#ifdef SEICHE_HAVE_ZLIB
        // Blocks: count, uncompressed size, partial last size (0: full), compressed sizes.
        const std::uint64_t blocks = word(at), block = word(at + 8), last = word(at + 16);
        if (blocks > s.size() / 8 || block == 0 || block > (std::uint64_t(1) << 30) ||
            last >= block)
            bad(path, "bad compression header in " + tag.substr(0, 80));
        const std::uint64_t total =
            blocks == 0 ? 0 : (last == 0 ? blocks * block : (blocks - 1) * block + last);
        if (total != expected) bad(path, "array size does not match NumberOfPoints");
        out.resize(count);
        std::size_t z = at + 24 + 8 * blocks;  // the first compressed block
        for (std::uint64_t b = 0; b < blocks; ++b) {
            const std::uint64_t zsize = word(at + 24 + 8 * b);
            if (z > s.size() || zsize > s.size() - z) bad(path, "truncated appended data");
            const std::uint64_t want = b + 1 == blocks && last != 0 ? last : block;
            uLongf got = static_cast<uLongf>(want);
            if (uncompress(reinterpret_cast<Bytef*>(out.data()) + b * block, &got,
                           reinterpret_cast<const Bytef*>(&s[z]), static_cast<uLong>(zsize)) !=
                    Z_OK ||
                got != want)
                bad(path, "a compressed block does not decompress to its size");
            z += zsize;
        }
#else
        bad(path, "the frame is zlib-compressed and this build has no zlib");
#endif
    };
    const std::regex tag_re("<DataArray[^>]*>");
    for (auto it = std::sregex_iterator(head.begin(), head.end(), tag_re);
         it != std::sregex_iterator(); ++it) {
        const std::string tag = it->str();
        const std::string name = attribute(tag, "Name");
        if (name == "Points") read_array(tag, f.position, 3 * n);
        if (name == "velocity") read_array(tag, f.velocity, 3 * n);
        if (name == "density") read_array(tag, f.density, n);
        if (name == "id") read_array(tag, f.id, n);
    }
    if (f.position.size() != 3 * n) bad(path, "no Points array");
    if (f.density.empty()) f.density.assign(n, 0.0f);  // size() counts particles by density
    return f;
}

FrameData read_ply(const std::string& s, const std::filesystem::path& path) {
    const std::size_t end = s.find("end_header\n");
    if (s.rfind("ply\n", 0) != 0 || end == std::string::npos) bad(path, "not a PLY file");
    std::istringstream head(s.substr(0, end));
    std::string line;
    std::uint64_t n = 0;
    std::vector<std::string> props;
    bool in_vertex = false;
    while (std::getline(head, line)) {
        std::istringstream w(line);
        std::string key;
        w >> key;
        if (key == "format") {
            std::string fmt;
            w >> fmt;
            if (fmt != "binary_little_endian") bad(path, "expected binary_little_endian PLY");
        } else if (key == "element") {
            std::string name;
            w >> name;
            in_vertex = name == "vertex";
            if (in_vertex) {
                // Read as text: "-1" must not wrap around to 2^64 − 1.
                std::string count;
                w >> count;
                if (count.empty() || count.size() > 18 ||
                    count.find_first_not_of("0123456789") != std::string::npos)
                    bad(path, "element vertex count \"" + count.substr(0, 20) +
                                  "\" is not a non-negative integer");
                n = std::stoull(count);
            }
        } else if (key == "property" && in_vertex) {
            std::string type, name;
            w >> type >> name;
            // Four-byte properties: floats, and the creation id as an unsigned or signed int.
            const bool is_float = type == "float" || type == "float32";
            const bool is_id = name == "id" && (type == "uint" || type == "uint32" ||
                                                type == "int" || type == "int32");
            if (!is_float && !is_id) bad(path, "expected float properties (and a uint id)");
            props.push_back(name);
        }
    }
    const std::size_t k = props.size();
    const std::size_t body = end + std::strlen("end_header\n");
    if (k == 0 || n > (s.size() - std::min(s.size(), body)) / (k * sizeof(float)))
        bad(path, "truncated vertex data");
    std::map<std::string, std::size_t> col;
    for (std::size_t i = 0; i < k; ++i) col[props[i]] = i;
    for (const char* c : {"x", "y", "z"})
        if (!col.count(c)) bad(path, std::string("no property ") + c);
    FrameData f;
    f.position.resize(3 * n);
    f.density.assign(n, 0.0f);
    const bool has_v = col.count("vx") && col.count("vy") && col.count("vz");
    if (has_v) f.velocity.resize(3 * n);
    const bool has_id = col.count("id") > 0;
    if (has_id) f.id.resize(n);
    std::vector<float> row(k);
    for (std::uint64_t i = 0; i < n; ++i) {
        std::memcpy(row.data(), &s[body + i * k * sizeof(float)], k * sizeof(float));
        for (int a = 0; a < 3; ++a) {
            f.position[3 * i + a] = row[col[std::string(1, char('x' + a))]];
            if (has_v) f.velocity[3 * i + a] = row[col[std::string("v") + char('x' + a)]];
        }
        if (col.count("density")) f.density[i] = row[col["density"]];
        if (has_id) std::memcpy(&f.id[i], &row[col["id"]], sizeof(std::uint32_t));
    }
    return f;
}

// Legacy VTK (version 2 to 5): the POINTS block, binary (big-endian, as the format says) or
// ASCII, float or double. The other blocks are skipped.
FrameData read_legacy_vtk(const std::string& s, const std::filesystem::path& path) {
    if (s.rfind("# vtk DataFile", 0) != 0) bad(path, "not a legacy VTK file");
    std::size_t at = 0;
    const auto line = [&]() {
        const std::size_t e = s.find('\n', at);
        if (e == std::string::npos) bad(path, "truncated header");
        std::string l = s.substr(at, e - at);
        at = e + 1;
        if (!l.empty() && l.back() == '\r') l.pop_back();
        return l;
    };
    line();  // version
    line();  // title
    const std::string encoding = line();
    const bool binary = encoding.rfind("BINARY", 0) == 0;
    if (!binary && encoding.rfind("ASCII", 0) != 0) bad(path, "expected BINARY or ASCII");
    std::string l;
    do {
        if (at >= s.size()) bad(path, "no POINTS block");
        l = line();
    } while (l.rfind("POINTS ", 0) != 0);
    std::istringstream w(l.substr(7));
    std::string count, type;
    w >> count >> type;
    if (count.empty() || count.size() > 12 || count.find_first_not_of("0123456789") != std::string::npos)
        bad(path, "POINTS count \"" + count.substr(0, 20) + "\" is not a non-negative integer");
    const std::uint64_t n = std::stoull(count);
    if (type != "float" && type != "double") bad(path, "POINTS of type " + type.substr(0, 20));
    const std::size_t size = type == "float" ? 4 : 8;
    // Checked before anything is allocated: binary values take `size` bytes, text ones at least 2.
    if (3 * n > (s.size() - at) / (binary ? size : 2)) bad(path, "truncated POINTS data");
    FrameData f;
    f.position.resize(3 * n);
    f.density.assign(n, 0.0f);
    if (binary) {
        for (std::uint64_t k = 0; k < 3 * n; ++k) {
            unsigned char b[8];
            for (std::size_t c = 0; c < size; ++c) b[c] = s[at + k * size + size - 1 - c];
            if (size == 4) {
                float v;
                std::memcpy(&v, b, 4);
                f.position[k] = v;
            } else {
                double v;
                std::memcpy(&v, b, 8);
                f.position[k] = static_cast<float>(v);
            }
        }
    } else {
        std::istringstream in(s.substr(at));
        for (std::uint64_t k = 0; k < 3 * n; ++k)
            if (!(in >> f.position[k])) bad(path, "truncated POINTS data");
    }
    for (float v : f.position)
        if (!std::isfinite(v)) bad(path, "a point is not finite");
    return f;
}

}  // namespace

// A frame in pieces (a split run's with output.pieces): the .vtp files its .pvtp names, beside
// it, joined in creation order: the frame one process writes, row for row.
static FrameData read_pvtp(const std::string& s, const std::filesystem::path& path) {
    if (s.find("type=\"PPolyData\"") == std::string::npos) bad(path, "not a PPolyData file");
    std::vector<FrameData> pieces;
    std::size_t n = 0;
    const std::regex re("<Piece[^>]*>");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator();
         ++it) {
        const std::string source = attribute(it->str(), "Source");
        const std::filesystem::path file(source);
        // Pieces beside the .pvtp, as seiche writes them: nothing else on the disk is read.
        if (source.empty() || file.has_parent_path() || source == "." || source == ".." ||
            file.extension() != ".vtp")
            bad(path, "piece \"" + source.substr(0, 60) + "\" is not a .vtp file name beside it");
        if (pieces.size() >= 1u << 20) bad(path, "more than 2^20 pieces");
        pieces.push_back(read_vtp(slurp(path.parent_path() / file), path.parent_path() / file));
        const FrameData& f = pieces.back();
        if (f.id.size() != f.size() || f.velocity.size() != 3 * f.size())
            bad(path.parent_path() / file, "a piece without the arrays id and velocity");
        n += f.size();
    }
    if (pieces.empty()) bad(path, "no <Piece Source=...>");
    std::vector<std::uint32_t> ids;
    ids.reserve(n);
    for (const FrameData& f : pieces) ids.insert(ids.end(), f.id.begin(), f.id.end());
    const std::vector<std::uint32_t> order = creation_order(ids);
    for (std::size_t k = 1; k < n; ++k)
        if (ids[order[k]] == ids[order[k - 1]])
            bad(path, "particle id " + std::to_string(ids[order[k]]) + " is in two pieces");
    std::vector<std::pair<std::uint32_t, std::uint32_t>> where;  // (piece, row) of joined row j
    where.reserve(n);
    for (std::uint32_t p = 0; p < pieces.size(); ++p)
        for (std::uint32_t r = 0; r < pieces[p].size(); ++r) where.emplace_back(p, r);
    FrameData f;
    f.time = pieces[0].time;
    f.position.resize(3 * n);
    f.velocity.resize(3 * n);
    f.density.resize(n);
    f.id.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto [p, r] = where[order[k]];
        const FrameData& g = pieces[p];
        f.id[k] = g.id[r];
        f.density[k] = g.density[r];
        for (int a = 0; a < 3; ++a) {
            f.position[3 * k + a] = g.position[3 * r + a];
            f.velocity[3 * k + a] = g.velocity[3 * r + a];
        }
    }
    return f;
}

FrameData parse_frame(const std::string& bytes, const std::filesystem::path& path) {
    const std::string ext = path.extension().string();
    if (ext == ".vtp") return read_vtp(bytes, path);
    if (ext == ".pvtp") return read_pvtp(bytes, path);
    if (ext == ".ply") return read_ply(bytes, path);
    if (ext == ".vtk") return read_legacy_vtk(bytes, path);
    throw std::runtime_error(path.string() + ": expected a .vtp, .ply or legacy .vtk particle frame");
}

FrameData read_frame(const std::filesystem::path& path) {
    return parse_frame(slurp(path), path);
}

std::vector<PvdEntry> read_pvd(const std::filesystem::path& path) {
    return parse_pvd(slurp(path), path);
}

std::vector<PvdEntry> parse_pvd(const std::string& s, const std::filesystem::path& path) {
    std::vector<PvdEntry> out;
    std::unordered_set<std::string> listed;
    const std::regex re("<DataSet[^>]*>");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator();
         ++it) {
        const std::string tag = it->str();
        const std::string t = attribute(tag, "timestep"), file = attribute(tag, "file");
        if (t.empty() || file.empty()) bad(path, "DataSet without timestep or file");
        char* end = nullptr;
        const double time = std::strtod(t.c_str(), &end);
        if (end != t.c_str() + t.size() || !std::isfinite(time))
            bad(path, "timestep \"" + t.substr(0, 20) + "\" is not a finite number");
        const std::filesystem::path f(file);
        if (f.is_absolute() || std::find(f.begin(), f.end(), "..") != f.end())
            bad(path, "file \"" + file.substr(0, 60) + "\" is outside the run directory");
        // A series in time order, each file once (as seiche writes them): a list that repeats
        // one file 100,000 times set `seiche render` to work for hours on one frame.
        if (!out.empty() && time < out.back().time)
            bad(path, "entry " + std::to_string(out.size() + 1) + " (timestep " + t.substr(0, 20) +
                          ") comes before the entry above it: the entries must be in time order");
        if (!listed.insert(file).second)
            bad(path, "file \"" + file.substr(0, 60) + "\" is listed twice (entry " +
                          std::to_string(out.size() + 1) + "): each frame once");
        out.push_back({time, file});
    }
    return out;
}

SurfaceMesh read_mesh_ply(const std::filesystem::path& file) {
    std::ifstream in = open_input(file, "the surface mesh", 1024 * MiB, std::ios::binary);
    std::string line, header;
    std::size_t vertices = 0, faces = 0, properties = 0;
    bool binary = false, face_list = false;
    while (std::getline(in, line) && line != "end_header") {
        std::istringstream words(line);
        std::string w, kind;
        words >> w;
        if (w == "format") binary = line == "format binary_little_endian 1.0";
        if (w == "element") {
            words >> kind;
            std::size_t n = 0;
            words >> n;
            if (kind == "vertex") vertices = n;
            else if (kind == "face") faces = n;
            else throw std::runtime_error("not a triangle mesh");
        }
        if (w == "property") {
            words >> kind;
            if (kind == "float" && faces == 0) ++properties;
            if (kind == "list") face_list = line == "property list uchar int vertex_indices";
        }
    }
    if (!in || !binary || properties < 3 || !face_list || vertices > (1u << 28) || faces > (1u << 28))
        throw std::runtime_error(file.string() + ": not a seiche PLY mesh");
    SurfaceMesh m;
    m.dimension = 3;
    std::vector<float> rows(vertices * properties);
    in.read(reinterpret_cast<char*>(rows.data()), std::streamsize(rows.size() * sizeof(float)));
    m.position.resize(3 * vertices);
    for (std::size_t v = 0; v < vertices; ++v)
        for (int a = 0; a < 3; ++a) m.position[3 * v + a] = rows[v * properties + a];
    if (properties >= 6) {  // nx ny nz follow x y z, as write_mesh_ply writes them
        m.normal.resize(3 * vertices);
        for (std::size_t v = 0; v < vertices; ++v)
            for (int a = 0; a < 3; ++a) m.normal[3 * v + a] = rows[v * properties + 3 + a];
    }
    if (properties >= 9) {  // then the fluid's vx vy vz, when the run interpolated them
        m.velocity.resize(3 * vertices);
        for (std::size_t v = 0; v < vertices; ++v)
            for (int a = 0; a < 3; ++a) m.velocity[3 * v + a] = rows[v * properties + 6 + a];
    }
    std::vector<char> packed(13 * faces);
    in.read(packed.data(), std::streamsize(packed.size()));
    if (!in) throw std::runtime_error(file.string() + ": truncated");
    m.index.resize(3 * faces);
    for (std::size_t f = 0; f < faces; ++f) {
        if (packed[13 * f] != 3) throw std::runtime_error(file.string() + ": not triangles");
        for (int k = 0; k < 3; ++k) {
            std::int32_t i = 0;
            std::memcpy(&i, &packed[13 * f + 1 + 4 * k], 4);
            if (i < 0 || std::size_t(i) >= vertices) throw std::runtime_error(file.string() + ": bad index");
            m.index[3 * f + k] = std::uint32_t(i);
        }
    }
    return m;
}

}  // namespace seiche::io
