// Keeping the fluid in the container. Boundary particles alone do not: under the unilateral
// constraint a lone particle skating along the floor feels no pressure until its density
// reaches ρ0, which may only happen inside the wall. So the PBF iterations also collide the
// particles with the container planes (as Macklin & Müller 2013, Algorithm 1 does), and a last-
// resort containment after the solver counts anything that still got out.
#include <algorithm>

#include "seiche/boundary.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

template <int D>
void collide_with_box(std::span<Vec<D>> x, const Box<D>& inside) {
    parallel_for(x.size(), [&](std::size_t i) { x[i] = glm::clamp(x[i], inside.min, inside.max); });
}

template <int D>
std::size_t contain(std::span<Vec<D>> x, const Box<D>& box, float margin) {
    std::size_t moved = 0;
    for (auto& p : x) {
        bool out = false;
        for (int a = 0; a < D; ++a) {
            const float lo = box.min[a] + margin, hi = box.max[a] - margin;
            if (p[a] < lo || p[a] > hi) {
                p[a] = std::clamp(p[a], lo, hi);
                out = true;
            }
        }
        moved += out ? 1 : 0;
    }
    return moved;
}

template void collide_with_box<2>(std::span<Vec<2>>, const Box<2>&);
template void collide_with_box<3>(std::span<Vec<3>>, const Box<3>&);
template std::size_t contain<2>(std::span<Vec<2>>, const Box<2>&, float);
template std::size_t contain<3>(std::span<Vec<3>>, const Box<3>&, float);

}  // namespace seiche
