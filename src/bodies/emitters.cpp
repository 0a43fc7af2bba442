// Emitter openings as lattice sites: the fluid leaves in layers one spacing apart, so the
// emitted fluid has the rest lattice of the blocks a scene starts from.
#include "seiche/emitters.hpp"

#include <cmath>

namespace seiche {

namespace {

// Sites along one side of length `side`: floor(side/d) of them, at least one, centred.
std::vector<float> offsets(double side, double d) {
    const int n = std::max(1, int(std::floor(side / d + 1e-4)));
    std::vector<float> o;
    for (int k = 0; k < n; ++k) o.push_back(float((k + 0.5 - 0.5 * n) * d));
    return o;
}

}  // namespace

template <int D>
EmitterSites<D> emitter_sites(const Emitter& e, float d) {
    EmitterSites<D> s;
    Vec<D> dir = to_vec<D>(e.direction);
    const float len = glm::length(dir);
    if (!(len > 0)) return s;
    s.direction = dir / len;
    const Vec<D> centre = to_vec<D>(e.position);
    if constexpr (D == 2) {
        const Vec<2> across(-s.direction.y, s.direction.x);
        for (float o : offsets(e.width, d)) s.x.push_back(centre + o * across);
    } else {
        // Across axes: u horizontal (perpendicular to the direction and to y), v = dir × u.
        const Vec<3> up = std::abs(s.direction.y) > 0.99f ? Vec<3>(1, 0, 0) : Vec<3>(0, 1, 0);
        const Vec<3> u = glm::normalize(glm::cross(s.direction, up));
        const Vec<3> v = glm::cross(s.direction, u);
        if (e.shape == EmitterShape::circle) {
            const double reach = std::max(0.0, e.radius - 0.5 * d);
            const int n = int(std::floor(reach / d + 1e-4));
            for (int a = -n; a <= n; ++a)
                for (int b = -n; b <= n; ++b)
                    if (double(a) * a + double(b) * b <= reach * reach / (double(d) * d) + 1e-6)
                        s.x.push_back(centre + float(a) * d * u + float(b) * d * v);
        } else {
            const double h = e.height > 0 ? e.height : e.width;
            for (float a : offsets(e.width, d))
                for (float b : offsets(h, d)) s.x.push_back(centre + a * u + b * v);
        }
    }
    return s;
}

double emitter_site_count(const Emitter& e, int dimension, float d) {
    auto along = [&](double side) { return std::max(1.0, std::floor(side / d + 1e-4)); };
    if (dimension == 2) return along(e.width);
    if (e.shape == EmitterShape::circle) {
        // Lattice sites within reach of the centre: about π (reach/d)², and (2n + 1)² at most.
        const double n = std::floor(std::max(0.0, e.radius - 0.5 * d) / d + 1e-4);
        return std::min((2 * n + 1) * (2 * n + 1), 3.1416 * (n + 1) * (n + 1) + 1);
    }
    return along(e.width) * along(e.height > 0 ? e.height : e.width);
}

template <int D>
double emitter_rate(const Emitter& e, float d) {
    return double(emitter_sites<D>(e, d).x.size()) * e.speed / d;
}

template EmitterSites<2> emitter_sites<2>(const Emitter&, float);
template EmitterSites<3> emitter_sites<3>(const Emitter&, float);
template double emitter_rate<2>(const Emitter&, float);
template double emitter_rate<3>(const Emitter&, float);

}  // namespace seiche
