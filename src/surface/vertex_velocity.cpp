// The fluid's velocity at a surface mesh's vertices: a normalised kernel average of the particles'
// velocities (Shepard 1968; Monaghan 1992, sec. 2 for the SPH form), so a renderer or ParaView can
// colour the surface by speed and motion-blur it.
#include <algorithm>
#include <cmath>

#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"
#include "seiche/surface.hpp"

namespace seiche {

template <int D>
void interpolate_velocity(SurfaceMesh& mesh, std::span<const Vec<D>> x, std::span<const Vec<D>> v,
                          float particle_radius, const SurfaceParams& params) {
    const std::size_t n = mesh.vertex_count();
    mesh.velocity.assign(3 * n, 0.0f);
    if (x.empty() || n == 0) return;
    // The colour field's support: the particles that made a vertex are the ones averaged. A
    // vertex that smoothing moved beyond it takes the particles of twice the reach.
    const float h = float(params.smoothing_radius) * particle_radius;
    NeighborGrid<D> grid;
    grid.build(x, 2.0f * h);
    parallel_for(n, [&](std::size_t i) {
        Vec<D> p;
        for (int a = 0; a < D; ++a) p[a] = mesh.position[3 * i + a];
        for (const float reach : {h, 2.0f * h}) {
            double w_sum = 0, sum[3] = {0, 0, 0};
            grid.for_each_neighbor(p, [&](std::uint32_t j) {
                const Vec<D> d = x[j] - p;
                const float q2 = glm::dot(d, d) / (reach * reach);
                if (q2 >= 1.0f) return;
                const double w = std::pow(1.0 - q2, 3);  // smooth, and no root to take
                w_sum += w;
                for (int a = 0; a < D; ++a) sum[a] += w * v[j][a];
            });
            if (w_sum > 0) {
                for (int a = 0; a < D; ++a) mesh.velocity[3 * i + a] = float(sum[a] / w_sum);
                return;
            }
        }
    });
}

template void interpolate_velocity<2>(SurfaceMesh&, std::span<const Vec<2>>, std::span<const Vec<2>>,
                                      float, const SurfaceParams&);
template void interpolate_velocity<3>(SurfaceMesh&, std::span<const Vec<3>>, std::span<const Vec<3>>,
                                      float, const SurfaceParams&);

}  // namespace seiche
