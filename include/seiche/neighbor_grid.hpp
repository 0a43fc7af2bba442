// Uniform-grid neighbour search: cells of the support radius, filled by counting sort into flat
// arrays; neighbour lists in CSR form. Cells are hashed into a table sized to the particle count,
// so memory is O(n) for any coordinates (negative, far from the origin, sparse blocks).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "seiche/vec.hpp"

namespace seiche {

// The neighbour criterion, shared by the grid and the brute-force oracle: strictly inside the
// support (a pair at exactly r = h contributes W = 0 and is not a neighbour).
template <int D>
inline bool within_support(const Vec<D>& xi, const Vec<D>& xj, float h2) {
    const Vec<D> d = xi - xj;
    return glm::dot(d, d) < h2;
}

// Neighbours of particle i are index[offset[i] .. offset[i+1]).
struct NeighborList {
    std::vector<std::uint32_t> offset;
    std::vector<std::uint32_t> index;
    std::vector<std::vector<std::uint32_t>> chunks;  //!< build scratch, kept to avoid allocation

    std::span<const std::uint32_t> of(std::size_t i) const {
        return {index.data() + offset[i], index.data() + offset[i + 1]};
    }
    std::size_t size() const { return offset.empty() ? 0 : offset.size() - 1; }
};

template <int D>
class NeighborGrid {
  public:
    using Cell = std::array<std::int32_t, D>;

    // Sorts the points into cells of size h (widened by 1e-5 relative, so float rounding in the
    // distance test can never put a neighbour two cells away).
    void build(std::span<const Vec<D>> points, float h);

    float support() const { return h_; }
    std::size_t point_count() const { return sorted_index_.size(); }

    // The points in grid (Z-curve) order: entry e holds point order()[e].
    std::span<const std::uint32_t> order() const { return sorted_index_; }
    // After the caller has permuted its points into order(): entry e is now point e.
    void points_were_sorted();

    // Calls fn(j) for each stored point j with |p - x_j| < h, in a fixed order.
    template <class Fn>
    void for_each_neighbor(const Vec<D>& p, Fn&& fn) const;

  private:
    Cell cell_of(const Vec<D>& p) const;
    std::uint32_t bucket_of(const Cell& c) const;

    float h_ = 0.0f;
    float h2_ = 0.0f;
    double inv_cell_ = 0.0;
    Vec<D> origin_{0.0f};
    std::uint32_t bucket_mask_ = 0;
    std::vector<std::uint32_t> bucket_start_;  // bucket b holds entries [start[b], start[b+1])
    std::vector<std::uint32_t> sorted_index_;  // point index of each entry
    std::vector<Cell> sorted_cell_;            // cell of each entry (buckets may mix cells)
    std::vector<Vec<D>> sorted_x_;             // position of each entry, for cache locality
};

// Builds CSR lists: for each query point, the grid points strictly within the support radius.
// With exclude_self, a query point does not list itself (query and grid are the same set).
template <int D>
void build_neighbor_list(const NeighborGrid<D>& grid, std::span<const Vec<D>> queries,
                         bool exclude_self, NeighborList& out);

// O(n·m) oracle for tests.
template <int D>
NeighborList brute_force_neighbors(std::span<const Vec<D>> queries, std::span<const Vec<D>> points,
                                   float h, bool exclude_self);

// ---- inline implementation of the query ----

template <int D>
inline typename NeighborGrid<D>::Cell NeighborGrid<D>::cell_of(const Vec<D>& p) const {
    Cell c;
    for (int a = 0; a < D; ++a) {
        // Double precision: exact differences of floats, rounding far below the 1e-5 margin.
        const double t = (double(p[a]) - double(origin_[a])) * inv_cell_;
        // Query points far outside the grid are clamped: they find nothing either way.
        c[a] = static_cast<std::int32_t>(std::clamp(std::floor(t), -2.0e9, 2.0e9));
    }
    return c;
}

// Spreads the low bits of v so that D-1 zero bits separate them (Morton interleaving).
inline std::uint64_t spread_bits(std::uint32_t v, int dimension) {
    std::uint64_t x = v;
    if (dimension == 2) {
        x &= 0xFFFFFFFFull;
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
        x = (x | (x << 2)) & 0x3333333333333333ull;
        x = (x | (x << 1)) & 0x5555555555555555ull;
    } else {
        x &= 0x1FFFFFull;
        x = (x | (x << 32)) & 0x1F00000000FFFFull;
        x = (x | (x << 16)) & 0x1F0000FF0000FFull;
        x = (x | (x << 8)) & 0x100F00F00F00F00Full;
        x = (x | (x << 4)) & 0x10C30C30C30C30C3ull;
        x = (x | (x << 2)) & 0x1249249249249249ull;
    }
    return x;
}

// The bucket is the cell's Z-order (Morton) index modulo the table size: neighbouring cells get
// nearby buckets, so the counting sort also orders the points along a Z-curve. Cells far apart
// may share a bucket; entries carry their cell, so that costs time, never correctness.
template <int D>
inline std::uint32_t NeighborGrid<D>::bucket_of(const Cell& c) const {
    std::uint64_t code = 0;
    for (int a = 0; a < D; ++a)
        code |= spread_bits(static_cast<std::uint32_t>(c[a]), D) << a;
    return static_cast<std::uint32_t>(code) & bucket_mask_;
}

template <int D>
template <class Fn>
inline void NeighborGrid<D>::for_each_neighbor(const Vec<D>& p, Fn&& fn) const {
    if (sorted_index_.empty()) return;
    const Cell center = cell_of(p);
    Cell c;
    // Visit the 3^D surrounding cells. Different cells may share a bucket: the stored cell of
    // each entry is compared, so every point is reported exactly once.
    auto visit = [&]() {
        const std::uint32_t b = bucket_of(c);
        for (std::uint32_t e = bucket_start_[b]; e < bucket_start_[b + 1]; ++e) {
            bool same = true;  // component-wise: std::array's == calls memcmp here
            for (int a = 0; a < D; ++a) same = same && sorted_cell_[e][a] == c[a];
            if (!same) continue;
            if (within_support<D>(p, sorted_x_[e], h2_)) fn(sorted_index_[e]);
        }
    };
    if constexpr (D == 2) {
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                c = {center[0] + dx, center[1] + dy};
                visit();
            }
    } else {
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    c = {center[0] + dx, center[1] + dy, center[2] + dz};
                    visit();
                }
    }
}

}  // namespace seiche
