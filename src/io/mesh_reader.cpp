// OBJ and STL meshes into MeshData.
#include "seiche/io/mesh_reader.hpp"
#include "seiche/io/input_file.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <unordered_map>
#include <sstream>

namespace seiche::io {

namespace {

bool finite(const std::array<float, 3>& v) {
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
    throw std::runtime_error(file.string() + ": " + what);
}

MeshData read_obj(const std::filesystem::path& file, std::istream& in) {
    MeshData m;
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::istringstream s(line);
        std::string tag;
        s >> tag;
        if (tag == "v") {
            std::array<float, 3> v{};
            if (!(s >> v[0] >> v[1] >> v[2])) fail(file, "line " + std::to_string(number) + ": a vertex needs x y z");
            if (!finite(v)) fail(file, "line " + std::to_string(number) + ": a vertex is not finite");
            m.vertices.push_back(v);
        } else if (tag == "f") {
            std::vector<std::uint32_t> face;
            std::string item;
            while (s >> item) {
                const long k = std::strtol(item.c_str(), nullptr, 10);  // "a", "a/b", "a//c", "a/b/c"
                const long n = long(m.vertices.size());
                const long index = k > 0 ? k - 1 : n + k;
                if (k == 0 || index < 0 || index >= n)
                    fail(file, "line " + std::to_string(number) + ": vertex index " + item + " is out of range");
                face.push_back(std::uint32_t(index));
            }
            if (face.size() < 3) fail(file, "line " + std::to_string(number) + ": a face needs three vertices");
            for (std::size_t k = 1; k + 1 < face.size(); ++k) m.triangles.push_back({face[0], face[k], face[k + 1]});
        }
    }
    return m;
}

// STL lists every triangle's corners: equal corners become one vertex, numbered as first met.
// A hash of the coordinates' bits (−0 made +0, as == has them equal; corners are finite): a
// tree map took seconds for a million triangles.
struct Welder {
    struct Hash {
        std::size_t operator()(const std::array<float, 3>& v) const {
            std::uint64_t h = 0xcbf29ce484222325ull;
            for (const float c : v) {
                std::uint32_t bits;
                std::memcpy(&bits, &c, 4);
                h = (h ^ bits) * 0x100000001b3ull;
                h ^= h >> 29;
            }
            return std::size_t(h);
        }
    };
    MeshData m;
    std::unordered_map<std::array<float, 3>, std::uint32_t, Hash> index;
    std::uint32_t add(std::array<float, 3> v) {
        for (float& c : v) c += 0.0f;  // −0 → +0
        const auto [it, fresh] = index.emplace(v, std::uint32_t(m.vertices.size()));
        if (fresh) m.vertices.push_back(v);
        return it->second;
    }
};

MeshData read_stl(const std::filesystem::path& file, const std::string& bytes) {
    Welder w;
    if (bytes.size() >= 84) {
        std::uint32_t n;
        std::memcpy(&n, bytes.data() + 80, 4);
        if (bytes.size() == 84 + std::size_t(n) * 50) {
            for (std::uint32_t t = 0; t < n; ++t) {
                const char* rec = bytes.data() + 84 + std::size_t(t) * 50 + 12;
                std::array<std::uint32_t, 3> tri;
                for (int k = 0; k < 3; ++k) {
                    std::array<float, 3> v;
                    std::memcpy(v.data(), rec + 12 * k, 12);
                    // NaN would also break the welder's ordering.
                    if (!finite(v))
                        fail(file, "triangle " + std::to_string(t + 1) + ": a corner is not finite");
                    tri[k] = w.add(v);
                }
                w.m.triangles.push_back(tri);
            }
            return w.m;
        }
    }
    if (bytes.rfind("solid", 0) != 0) fail(file, "neither a binary STL (size does not match its count) nor an ASCII one");
    std::istringstream s(bytes);
    std::string word;
    std::vector<std::uint32_t> corners;
    while (s >> word) {
        if (word != "vertex") continue;
        std::array<float, 3> v{};
        if (!(s >> v[0] >> v[1] >> v[2])) fail(file, "a vertex needs x y z");
        if (!finite(v)) fail(file, "a vertex is not finite");
        corners.push_back(w.add(v));
        if (corners.size() == 3) {
            w.m.triangles.push_back({corners[0], corners[1], corners[2]});
            corners.clear();
        }
    }
    return w.m;
}

}  // namespace

MeshData read_mesh(const std::filesystem::path& file) {
    // 256 MiB: a binary STL of five million triangles.
    std::ifstream in = open_input(file, "the mesh file", 256 * MiB, std::ios::binary);
    if (!in) fail(file, "cannot read the mesh file");
    std::string ext = file.extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    MeshData m;
    if (ext == ".obj") {
        m = read_obj(file, in);
    } else if (ext == ".stl") {
        std::ostringstream all;
        all << in.rdbuf();
        m = read_stl(file, all.str());
    } else {
        fail(file, "expected an .obj or .stl file");
    }
    if (m.triangles.empty()) fail(file, "holds no triangles");
    return m;
}

}  // namespace seiche::io
