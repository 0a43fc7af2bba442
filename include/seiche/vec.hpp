// Small vector types shared by the whole simulator. Positions in m, velocities in m/s.
#pragma once

#include <array>
#include <glm/glm.hpp>

namespace seiche {

// Dimension is a template parameter everywhere: one code path for 2D and 3D.
template <int D>
using Vec = glm::vec<D, float, glm::defaultp>;

// Two floats per particle (ParticleSet::carried).
struct Float2 {
    float a = 0.0f, b = 0.0f;
};

// z of a position, 0 in 2D, so that one loop body serves both dimensions.
template <int D>
inline float z_of(const Vec<D>& v) {
    if constexpr (D == 3)
        return v.z;
    else
        return 0.0f;
}

// The first D components of a scene's 3-vector (2D scenes use x and y).
template <int D>
Vec<D> to_vec(const std::array<double, 3>& a) {
    Vec<D> v;
    for (int k = 0; k < D; ++k) v[k] = static_cast<float>(a[k]);
    return v;
}

template <int D>
struct Box {
    Vec<D> min{0.0f};
    Vec<D> max{0.0f};

    bool contains(const Vec<D>& p) const {
        for (int a = 0; a < D; ++a)
            if (!(p[a] >= min[a] && p[a] <= max[a])) return false;
        return true;
    }
    Vec<D> extent() const { return max - min; }
};

}  // namespace seiche
