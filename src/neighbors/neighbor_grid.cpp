// Uniform grid by counting sort (Green 2010, "Particle simulation using CUDA", sec. 3, done on
// the CPU): count points per bucket, prefix-sum, scatter. Buckets are a hash of the cell, with
// at least twice as many buckets as points.
#include "seiche/neighbor_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "seiche/parallel.hpp"

namespace seiche {

template <int D>
void NeighborGrid<D>::build(std::span<const Vec<D>> points, float h) {
    if (!(h > 0.0f)) throw std::invalid_argument("neighbour grid: support radius must be > 0");
    h_ = h;
    h2_ = h * h;
    inv_cell_ = 1.0 / (double(h) * (1.0 + 1.0e-5));
    const std::size_t n = points.size();
    if (n > 0xFFFFFFF0u) throw std::length_error("neighbour grid: too many points");

    origin_ = n > 0 ? points[0] : Vec<D>(0.0f);
    for (const auto& p : points) origin_ = glm::min(origin_, p);
    for (const auto& p : points)
        for (int a = 0; a < D; ++a)
            if ((double(p[a]) - double(origin_[a])) * inv_cell_ > 2.0e9)
                throw std::domain_error(
                    "neighbour grid: particles spread over more than 2e9 cells");

    const std::uint32_t buckets = std::bit_ceil(std::max<std::size_t>(2 * n, 16));
    bucket_mask_ = buckets - 1;

    std::vector<std::uint32_t> point_bucket(n);
    std::vector<Cell> point_cell(n);
    parallel_for(n, [&](std::size_t i) {
        point_cell[i] = cell_of(points[i]);
        point_bucket[i] = bucket_of(point_cell[i]);
    });

    bucket_start_.assign(buckets + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++bucket_start_[point_bucket[i] + 1];
    for (std::uint32_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];

    sorted_index_.resize(n);
    sorted_cell_.resize(n);
    sorted_x_.resize(n);
    std::vector<std::uint32_t> fill(bucket_start_.begin(), bucket_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t e = fill[point_bucket[i]]++;
        sorted_index_[e] = static_cast<std::uint32_t>(i);
        sorted_cell_[e] = point_cell[i];
        sorted_x_[e] = points[i];
    }
}

template <int D>
void NeighborGrid<D>::points_were_sorted() {
    for (std::size_t e = 0; e < sorted_index_.size(); ++e)
        sorted_index_[e] = static_cast<std::uint32_t>(e);
}

template <int D>
void build_neighbor_list(const NeighborGrid<D>& grid, std::span<const Vec<D>> queries,
                         bool exclude_self, NeighborList& out) {
    const std::size_t n = queries.size();
    // One search pass: fixed chunks of queries (independent of the thread count) collect their
    // lists locally; a prefix sum over the chunks then places them in the flat arrays.
    constexpr std::size_t chunk = 512;
    const std::size_t chunks = (n + chunk - 1) / chunk;
    auto& local = out.chunks;
    if (local.size() < chunks) local.resize(chunks);
    out.offset.resize(n + 1);
    out.offset[0] = 0;
    parallel_for(
        chunks,
        [&](std::size_t c) {
        std::vector<std::uint32_t>& buf = local[c];
        buf.clear();
        for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
            const std::size_t before = buf.size();
            grid.for_each_neighbor(queries[i], [&](std::uint32_t j) {
                if (!(exclude_self && j == i)) buf.push_back(j);
            });
            out.offset[i + 1] = static_cast<std::uint32_t>(buf.size() - before);
        }
        },
        2);
    for (std::size_t i = 0; i < n; ++i) out.offset[i + 1] += out.offset[i];
    out.index.resize(out.offset[n]);
    parallel_for(
        chunks,
        [&](std::size_t c) {
            std::copy(local[c].begin(), local[c].end(), out.index.begin() + out.offset[c * chunk]);
        },
        2);
}

template <int D>
NeighborList brute_force_neighbors(std::span<const Vec<D>> queries, std::span<const Vec<D>> points,
                                   float h, bool exclude_self) {
    NeighborList out;
    out.offset.push_back(0);
    for (std::size_t i = 0; i < queries.size(); ++i) {
        for (std::size_t j = 0; j < points.size(); ++j) {
            if (exclude_self && i == j) continue;
            if (within_support<D>(queries[i], points[j], h * h))
                out.index.push_back(static_cast<std::uint32_t>(j));
        }
        out.offset.push_back(static_cast<std::uint32_t>(out.index.size()));
    }
    return out;
}

template class NeighborGrid<2>;
template class NeighborGrid<3>;
template void build_neighbor_list<2>(const NeighborGrid<2>&, std::span<const Vec<2>>, bool,
                                     NeighborList&);
template void build_neighbor_list<3>(const NeighborGrid<3>&, std::span<const Vec<3>>, bool,
                                     NeighborList&);
template NeighborList brute_force_neighbors<2>(std::span<const Vec<2>>, std::span<const Vec<2>>,
                                               float, bool);
template NeighborList brute_force_neighbors<3>(std::span<const Vec<3>>, std::span<const Vec<3>>,
                                               float, bool);

}  // namespace seiche
