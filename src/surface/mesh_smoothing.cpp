// Taubin 1995, "A signal processing approach to fair surface design", eq. (8) and sec. 4: a
// Laplacian step of +λ followed by one of μ < −λ removes the high-frequency bumps of marching
// cubes without the shrinkage of plain Laplacian smoothing.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "seiche/parallel.hpp"
#include "seiche/surface.hpp"

namespace seiche {

void smooth_mesh(SurfaceMesh& mesh, int iterations) {
    const std::size_t n = mesh.vertex_count();
    if (iterations <= 0 || n == 0) return;
    const std::size_t per_face = mesh.dimension == 3 ? 3 : 2;

    // Vertex adjacency (each mesh edge once per direction) in CSR form.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    pairs.reserve(mesh.index.size() * 2);
    for (std::size_t f = 0; f < mesh.face_count(); ++f)
        for (std::size_t k = 0; k < per_face; ++k) {
            const std::uint32_t a = mesh.index[f * per_face + k];
            const std::uint32_t b = mesh.index[f * per_face + (k + 1) % per_face];
            if (per_face == 2 && k == 1) break;  // a segment has one edge
            pairs.emplace_back(a, b);
            pairs.emplace_back(b, a);
        }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    std::vector<std::uint32_t> start(n + 1, 0), adj(pairs.size());
    for (const auto& [a, b] : pairs) ++start[a + 1];
    for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
    for (std::size_t k = 0; k < pairs.size(); ++k) adj[k] = pairs[k].second;

    std::vector<float> next(mesh.position.size());
    auto pass = [&](float factor) {
        parallel_for(n, [&](std::size_t i) {
            const std::uint32_t b = start[i], e = start[i + 1];
            for (int a = 0; a < 3; ++a) {
                const float xi = mesh.position[3 * i + a];
                if (b == e) {
                    next[3 * i + a] = xi;
                    continue;
                }
                float mean = 0.0f;
                for (std::uint32_t k = b; k < e; ++k) mean += mesh.position[3 * adj[k] + a];
                mean /= float(e - b);
                next[3 * i + a] = xi + factor * (mean - xi);
            }
        });
        mesh.position.swap(next);
    };
    for (int it = 0; it < iterations; ++it) {
        pass(0.5f);
        pass(-0.53f);
    }
}

}  // namespace seiche
