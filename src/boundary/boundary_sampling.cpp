// Boundary particles for a closed box and their Akinci et al. 2012 volumes (eq. 4; the pseudo-
// mass ψ_k = ρ0 V_k of eq. 5 is formed where it is used).
#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

#include "seiche/boundary.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

namespace {

// Coordinates along one axis: the wall layers below and above, and evenly spaced points
// between them (spacing adjusted so both walls' layers are hit exactly).
std::vector<float> axis_coordinates(float lo, float hi, const WallSampling& s) {
    std::vector<float> c;
    const double first = double(lo) - s.offset, last = double(hi) + s.offset;
    for (int l = s.layers - 1; l >= 0; --l) c.push_back(float(first - l * double(s.spacing)));
    const int n = std::max(1, int(std::lround((last - first) / s.spacing)));
    for (int k = 1; k < n; ++k) c.push_back(float(first + (last - first) * k / n));
    for (int l = 0; l < s.layers; ++l) c.push_back(float(last + l * double(s.spacing)));
    return c;
}

// A point of a flat wall's lattice: (x, y, z) in 3D, (x, y) in 2D, y along the wall's normal.
template <int D>
Vec<D> lattice_point(double x, double y, double z) {
    Vec<D> p(0.0f);
    p[0] = float(x);
    p[1] = float(y);
    if constexpr (D == 3) p[2] = float(z);
    return p;
}

}  // namespace

template <int D>
Boundary<D> sample_container(const Box<D>& inside, const WallSampling& s) {
    std::array<std::vector<float>, D> axes;
    for (int a = 0; a < D; ++a) axes[a] = axis_coordinates(inside.min[a], inside.max[a], s);

    // A lattice point is a wall particle when it lies in a wall layer along at least one axis.
    auto in_wall = [&](int a, std::size_t k) {
        return k < std::size_t(s.layers) || k >= axes[a].size() - std::size_t(s.layers);
    };
    Boundary<D> b;
    std::array<std::size_t, D> k{};
    for (;;) {
        bool wall = false;
        Vec<D> p;
        for (int a = 0; a < D; ++a) {
            p[a] = axes[a][k[a]];
            wall = wall || in_wall(a, k[a]);
        }
        if (wall) b.x.push_back(p);
        int a = 0;
        while (a < D && ++k[a] == axes[a].size()) k[a++] = 0;
        if (a == D) break;
    }
    b.volume.assign(b.x.size(), 0.0f);
    return b;
}

template <int D>
Boundary<D> sample_solid_box(const Box<D>& solid, const WallSampling& s) {
    // Lattice from the first layer under one face to the first layer under the opposite face.
    std::array<std::vector<float>, D> axes;
    for (int a = 0; a < D; ++a) {
        const double first = double(solid.min[a]) + s.offset,
                     last = double(solid.max[a]) - s.offset;
        if (last <= first) {
            axes[a] = {0.5f * (solid.min[a] + solid.max[a])};  // thinner than two offsets
            continue;
        }
        const int n = std::max(1, int(std::lround((last - first) / s.spacing)));
        for (int k = 0; k <= n; ++k) axes[a].push_back(float(first + (last - first) * k / n));
    }
    auto in_layer = [&](int a, std::size_t k) {
        return k < std::size_t(s.layers) || k + std::size_t(s.layers) >= axes[a].size();
    };
    Boundary<D> b;
    std::array<std::size_t, D> k{};
    for (;;) {
        bool layer = false;
        Vec<D> p;
        for (int a = 0; a < D; ++a) {
            p[a] = axes[a][k[a]];
            layer = layer || in_layer(a, k[a]);
        }
        if (layer) b.x.push_back(p);
        int a = 0;
        while (a < D && ++k[a] == axes[a].size()) k[a++] = 0;
        if (a == D) break;
    }
    b.volume.assign(b.x.size(), 0.0f);
    return b;
}

template <int D>
void compute_boundary_volumes(Boundary<D>& b, const AnyKernel<D>& kernel) {
    std::visit(
        [&](const auto& k) {
            NeighborGrid<D> grid;
            grid.build(b.x, k.support());
            parallel_for(b.x.size(), [&](std::size_t i) {
                float sum = 0.0f;
                grid.for_each_neighbor(
                    b.x[i], [&](std::uint32_t j) { sum += k.W(glm::length(b.x[i] - b.x[j])); });
                b.volume[i] = 1.0f / sum;  // sum ≥ W(0) > 0: the particle itself
            });
        },
        kernel);
}

template <int D>
float flat_wall_push_match(const AnyKernel<D>& kernel, float d, const WallSampling& s) {
    return std::visit(
        [&](const auto& k) {
            // Lateral lattice offsets reaching past the support, in units of the spacing.
            const int m = int(std::ceil(k.support() / std::min(d, s.spacing))) + 1;
            auto lateral = [&](auto&& fn) {  // every (i, j) of the plane (j = 0 in 2D)
                for (int i = -m; i <= m; ++i)
                    for (int j = (D == 3 ? -m : 0); j <= (D == 3 ? m : 0); ++j) fn(i, j);
            };
            const auto at = lattice_point<D>;
            // The wall: layers at −offset − l·spacing under the plane y = 0; by symmetry every
            // particle of it has the same Akinci volume, summed at the first layer's origin.
            const Vec<D> origin = at(0.0f, -s.offset, 0.0f);
            double w_sum = 0.0;
            for (int l = 0; l < s.layers; ++l)
                lateral([&](int i, int j) {
                    w_sum += k.W(glm::length(
                        at(i * s.spacing, -s.offset - l * s.spacing, j * s.spacing) - origin));
                });
            const double volume = 1.0 / w_sum;
            // The normal push on a particle d/2 above the plane, from the wall's particles and
            // from the fluid lattice it stands for (spacing d, volume d^D, continued below).
            const Vec<D> x = at(0.0f, 0.5f * d, 0.0f);
            double wall = 0.0, fluid = 0.0;
            lateral([&](int i, int j) {
                for (int l = 0; l < s.layers; ++l) {
                    const Vec<D> r = x - at(i * s.spacing, -s.offset - l * s.spacing, j * s.spacing);
                    wall += volume * k.grad_factor(glm::length(r)) * r[1];
                }
                for (int l = 0; l <= m; ++l) {
                    const Vec<D> r = x - at(i * d, -0.5f * d - l * d, j * d);
                    fluid += std::pow(double(d), D) * k.grad_factor(glm::length(r)) * r[1];
                }
            });
            return float(fluid / wall);
        },
        kernel);
}

template <int D>
float flat_wall_rest_gap(const AnyKernel<D>& kernel, float d, float mass_volume,
                         const WallSampling& s) {
    return std::visit(
        [&](const auto& k) {
            const int m = int(std::ceil(k.support() / std::min(d, s.spacing))) + 1;
            const auto at = lattice_point<D>;
            // Σ W over the plane's lattice (spacing a) at height y, seen from the origin.
            auto plane = [&](double a, double y) {
                double sum = 0.0;
                for (int i = -m; i <= m; ++i)
                    for (int j = (D == 3 ? -m : 0); j <= (D == 3 ? m : 0); ++j)
                        sum += k.W(glm::length(at(i * a, y, j * a)));
                return sum;
            };
            double bulk = 0.0, half = 0.0;  // the whole lattice, its rows from the first on
            for (int l = -m; l <= m; ++l) {
                const double w = plane(d, l * double(d));
                bulk += w;
                if (l >= 0) half += w;
            }
            double w_wall = 0.0;  // a wall particle's Akinci sum (the same for all, by symmetry)
            for (int l = 0; l < s.layers; ++l) w_wall += plane(s.spacing, -l * double(s.spacing));
            // The walls' share of the first row's density at gap y, in units of ρ0, against the
            // share the missing half lattice would give: m/ρ0 (bulk − half).
            auto wall_share = [&](double y) {
                double sum = 0.0;
                for (int l = 0; l < s.layers; ++l)
                    sum += plane(s.spacing, y + s.offset + l * s.spacing);
                return sum / w_wall;
            };
            const double target = double(mass_volume) * (bulk - half);
            double lo = 0.25 * d, hi = 1.0 * d;  // the share falls as the gap grows
            if (wall_share(lo) <= target) return float(lo);
            if (wall_share(hi) >= target) return float(hi);
            for (int it = 0; it < 60; ++it) {
                const double mid = 0.5 * (lo + hi);
                (wall_share(mid) > target ? lo : hi) = mid;
            }
            return float(0.5 * (lo + hi));
        },
        kernel);
}

template Boundary<2> sample_container<2>(const Box<2>&, const WallSampling&);
template Boundary<3> sample_container<3>(const Box<3>&, const WallSampling&);
template Boundary<2> sample_solid_box<2>(const Box<2>&, const WallSampling&);
template Boundary<3> sample_solid_box<3>(const Box<3>&, const WallSampling&);
template void compute_boundary_volumes<2>(Boundary<2>&, const AnyKernel<2>&);
template void compute_boundary_volumes<3>(Boundary<3>&, const AnyKernel<3>&);
template float flat_wall_push_match<2>(const AnyKernel<2>&, float, const WallSampling&);
template float flat_wall_push_match<3>(const AnyKernel<3>&, float, const WallSampling&);
template float flat_wall_rest_gap<2>(const AnyKernel<2>&, float, float, const WallSampling&);
template float flat_wall_rest_gap<3>(const AnyKernel<3>&, float, float, const WallSampling&);

}  // namespace seiche
