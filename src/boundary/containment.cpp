// Last-resort containment: the boundary particles should keep the fluid in, but a particle that
// got through anyway (a very large step, a corner) is put back just inside and counted, so the
// statistics show how often the boundary failed.
#include <algorithm>

#include "seiche/boundary.hpp"

namespace seiche {

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

template std::size_t contain<2>(std::span<Vec<2>>, const Box<2>&, float);
template std::size_t contain<3>(std::span<Vec<3>>, const Box<3>&, float);

}  // namespace seiche
