// Keeping the fluid in the container. Boundary particles alone do not: under the unilateral
// constraint a lone particle skating along the floor feels no pressure until its density
// reaches ρ0, which may only happen inside the wall. So the PBF iterations also collide the
// particles with the container planes (as Macklin & Müller 2013, Algorithm 1 does), and a last-
// resort containment after the solver counts anything that still got out.
#include <algorithm>

#include "seiche/boundary.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

namespace {

// Moves p out of the solid box through the face it is nearest to; true when it was inside.
template <int D>
bool push_out(Vec<D>& p, const Box<D>& solid, float margin) {
    int axis = -1;
    float best = 0, target = 0;
    for (int a = 0; a < D; ++a) {
        const float below = p[a] - solid.min[a], above = solid.max[a] - p[a];
        if (!(below > 0 && above > 0)) return false;
        const float depth = std::min(below, above);
        if (axis < 0 || depth < best)
            axis = a, best = depth,
            target = below <= above ? solid.min[a] - margin : solid.max[a] + margin;
    }
    p[axis] = target;
    return true;
}

}  // namespace

template <int D>
void collide_with_box(std::span<Vec<D>> x, const Box<D>& inside, std::span<const Box<D>> solids) {
    parallel_for(x.size(), [&](std::size_t i) {
        x[i] = glm::clamp(x[i], inside.min, inside.max);
        for (const Box<D>& s : solids) push_out(x[i], s, 0.0f);
    });
}

template <int D>
std::size_t contain(std::span<Vec<D>> x, const Box<D>& box, float margin,
                    std::span<const Box<D>> solids) {
    std::size_t moved = 0;
    for (auto& p : x) {
        bool out = false;
        for (const Box<D>& s : solids) out = push_out(p, s, margin) || out;
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

template void collide_with_box<2>(std::span<Vec<2>>, const Box<2>&, std::span<const Box<2>>);
template void collide_with_box<3>(std::span<Vec<3>>, const Box<3>&, std::span<const Box<3>>);
template std::size_t contain<2>(std::span<Vec<2>>, const Box<2>&, float, std::span<const Box<2>>);
template std::size_t contain<3>(std::span<Vec<3>>, const Box<3>&, float, std::span<const Box<3>>);

}  // namespace seiche
