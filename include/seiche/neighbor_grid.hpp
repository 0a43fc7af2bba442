// Uniform-grid neighbour search: cells of the support radius, filled by counting sort into flat
// arrays; neighbour lists stored eight side by side, as the pair loops walk them (NeighborList).
// Cells are absolute (floor(x/h)); they are bucketed by their Z-order index modulo a table of n
// buckets, so memory is O(n) for any coordinates (negative, far from the origin, sparse blocks)
// and the points come out along a Z-curve.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "seiche/vec.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace seiche {

// The neighbour criterion, shared by the grid and the brute-force oracle: strictly inside the
// support (a pair at exactly r = h contributes W = 0 and is not a neighbour).
template <int D>
inline bool within_support(const Vec<D>& xi, const Vec<D>& xj, float h2) {
    const Vec<D> d = xi - xj;
    return glm::dot(d, d) < h2;
}

// A growable array of indices that does not zero-fill, so the list builder can write every
// candidate past the end and keep only the hits. Grows by an eighth, not by doubling: the
// lists are the largest thing in memory, and they grow slowly (a fluid compresses a little).
template <class T>
class Buffer {
  public:
    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
    const T* data() const { return data_.get(); }
    T* data() { return data_.get(); }
    void clear() { size_ = 0; }
    // Room for n more entries past size(); returns where they go.
    T* reserve_more(std::size_t n) {
        if (size_ + n > capacity_) {
            const std::size_t capacity = std::max(size_ + n, capacity_ + capacity_ / 8);
            auto grown = std::make_unique_for_overwrite<T[]>(capacity);
            std::copy(data_.get(), data_.get() + size_, grown.get());
            data_ = std::move(grown);
            capacity_ = capacity;
        }
        return data_.get() + size_;
    }
    void commit(std::size_t n) { size_ += n; }
    void push_back(T v) {
        *reserve_more(1) = v;
        ++size_;
    }

  private:
    std::unique_ptr<T[]> data_;
    std::size_t size_ = 0, capacity_ = 0;
};
using IndexBuffer = Buffer<std::uint32_t>;
// Rows of 16-bit indices (NeighborList::narrow).
using NarrowBuffer = Buffer<std::uint16_t>;

// One particle's neighbours as NeighborList keeps them: entry k at data()[stride · k], in the
// order they were found, 32 or 16 bits wide (NeighborList::narrow).
class LaneList {
  public:
    static constexpr std::size_t stride = 8;
    class iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = std::uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::uint32_t;
        iterator() = default;
        iterator(const std::uint32_t* wide, const std::uint16_t* narrow)
            : wide_(wide), narrow_(narrow) {}
        std::uint32_t operator*() const { return narrow_ ? *narrow_ : *wide_; }
        iterator& operator++() {
            if (narrow_)
                narrow_ += stride;
            else
                wide_ += stride;
            return *this;
        }
        iterator operator++(int) {
            iterator t = *this;
            ++*this;
            return t;
        }
        bool operator==(const iterator& o) const { return wide_ == o.wide_ && narrow_ == o.narrow_; }

      private:
        const std::uint32_t* wide_ = nullptr;
        const std::uint16_t* narrow_ = nullptr;
    };
    LaneList(const std::uint32_t* first, std::size_t n) : wide_(first), n_(n) {}
    LaneList(const std::uint16_t* first, std::size_t n) : narrow_(first), n_(n) {}
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    std::uint32_t operator[](std::size_t k) const {
        return narrow_ ? narrow_[stride * k] : wide_[stride * k];
    }
    // Where entry 0 is (the rows' own memory, either width).
    const void* data() const {
        return narrow_ ? static_cast<const void*>(narrow_) : static_cast<const void*>(wide_);
    }
    iterator begin() const { return {wide_, narrow_}; }
    iterator end() const {
        return narrow_ ? iterator(nullptr, narrow_ + stride * n_)
                       : iterator(wide_ + stride * n_, nullptr);
    }

  private:
    const std::uint32_t* wide_ = nullptr;
    const std::uint16_t* narrow_ = nullptr;
    std::size_t n_;
};

// Neighbours of particle i: of(i), offset[i+1] − offset[i] of them; offset[i] + k numbers pair k
// of particle i across the whole list, for per-pair arrays.
// The lists are kept in the order the pair loops walk them (src/neighbors/pair_lanes.hpp), eight
// particles side by side: group g, the particles 8g … 8g + 7, owns rows of eight entries from
// row 8 group_row[g] of its chunk's buffer on (rows(g)), as many as its longest list, and row k
// holds neighbour k of each of the eight (0, a valid target whenever the group has a neighbour,
// past a shorter list's end). A neighbour step of a pair loop reads eight indices from one row,
// not one from each of eight lists. The builders write each chunk's rows while its lists are in
// the cache; the lists are not kept in any other form (at a million particles, a second copy
// was 130 bytes per particle).
// Narrow: when the lists index at most 65,536 points the rows hold 16-bit indices
// (chunk_rows16), half the bytes that every pair pass streams through (2–16% off a PBF
// pass at one thread, none at two: docs/performance.md); otherwise 32-bit ones (chunk_rows).
struct NeighborList {
    static constexpr std::size_t narrow_limit = std::size_t(1) << 16;  // points indexable narrow
    std::vector<std::uint32_t> offset;
    // Which chunk's rows hold query i's group (the chunk that built query 8g; 4 bytes per query,
    // not an 8-byte pointer), and the first row of each group there.
    std::vector<std::uint32_t> chunk_of, group_row;
    std::vector<IndexBuffer> chunk_rows;
    std::vector<NarrowBuffer> chunk_rows16;
    bool narrow = false;
    // Set before building to keep 32-bit rows whatever the count (the tests compare the two).
    bool wide_only = false;

    // The first row of group g (particles 8g … 8g + 7), of the width T the lists have.
    template <class T>
    const T* rows(std::size_t g) const {
        const std::size_t c = chunk_of[g * LaneList::stride];
        const std::size_t at = LaneList::stride * std::size_t(group_row[g]);
        if constexpr (sizeof(T) == 2)
            return chunk_rows16[c].data() + at;
        else
            return chunk_rows[c].data() + at;
    }
    template <class T>
    T* rows(std::size_t g) {
        return const_cast<T*>(std::as_const(*this).rows<T>(g));
    }
    LaneList of(std::size_t i) const {
        const std::size_t g = i / LaneList::stride, l = i % LaneList::stride;
        const std::size_t n = offset[i + 1] - offset[i];
        if (narrow) return {rows<std::uint16_t>(g) + l, n};
        return {rows<std::uint32_t>(g) + l, n};
    }
    std::size_t size() const { return offset.empty() ? 0 : offset.size() - 1; }
    std::size_t pairs() const { return offset.empty() ? 0 : offset.back(); }
    // n particles without neighbours.
    static NeighborList none(std::size_t n) {
        NeighborList l;
        l.offset.assign(n + 1, 0);
        l.chunk_of.assign(n, 0);
        l.group_row.assign((n + LaneList::stride - 1) / LaneList::stride, 0);
        l.chunk_rows.resize(1);
        l.chunk_rows[0].reserve_more(LaneList::stride);
        return l;
    }
};

template <int D>
class NeighborGrid {
  public:
    using Cell = std::array<std::int32_t, D>;
    // A run of entries [begin, end) that share one cell.
    struct CellRun {
        Cell cell;
        std::uint32_t begin, end;
    };

    // Sorts the points into cells of size h (widened by 1e-5 relative, so float rounding in the
    // distance test can never put a neighbour two cells away). The points of one cell keep
    // their order, or with `key` (one per point) go in the order of their keys: then the grid's
    // order, and every neighbour list, depends only on the points and their keys, not on where
    // they were stored (creation ids: a process holding part of the fluid finds the same lists).
    void build(std::span<const Vec<D>> points, float h, std::span<const std::uint32_t> key = {});

    float support() const { return h_; }
    std::size_t point_count() const { return sorted_index_.size(); }

    // The points in grid (Z-curve) order: entry e holds point order()[e].
    std::span<const std::uint32_t> order() const { return sorted_index_; }
    // After the caller has permuted its points into order(): entry e is now point e.
    void points_were_sorted();
    bool points_sorted() const { return sorted_; }
    // Frees what only build() needs, for a grid that is built once (the static boundary).
    void release_build_scratch();
    // Marks, one bit per bucket, the cells that have a point in one of their 3^D neighbour cells,
    // so that a query cell far from every point skips its 3^D lookups (a fluid cell far from
    // the walls made 27 lookups that all failed, a fifth of the list building). Call after
    // build() on a grid queried much more often than built (the static boundary); build() drops
    // the marks. Conservative: cells sharing a bit only give a false "maybe".
    void mark_neighbourhoods();
    bool may_have_points_around(const Cell& c) const {
        if (near_.empty()) return true;
        const std::uint32_t b = near_bit(c);
        return (near_[b >> 6] >> (b & 63)) & 1u;
    }

    std::span<const CellRun> runs() const { return runs_; }
    // Whether lookups go through the dense cell table (see dense_) rather than the buckets.
    bool dense_lookups() const { return !dense_.empty(); }
    Cell cell_of(const Vec<D>& p) const;
    // Entries of cell c, or an empty range.
    std::pair<std::uint32_t, std::uint32_t> find(const Cell& c) const;
    // fn(begin, end) for the entries of each of the 3^D cells around c, in the order of
    // for_each_cell_around; empty cells may or may not be reported (begin == end), so that the
    // dense table's lookups need no branch. The cells' Z-curve codes come from 3·D spread
    // coordinates instead of 3^D·D (the lookups were a tenth of the list building).
    template <class Fn>
    void find_around(const Cell& c, Fn&& fn) const;
    const Vec<D>& entry_x(std::uint32_t e) const { return sorted_x_[e]; }
    std::uint32_t entry_index(std::uint32_t e) const { return sorted_index_[e]; }
    // Entries are stored in cell order: those of one cell are contiguous from here.
    const std::uint32_t& entry_index_ref(std::uint32_t e) const { return sorted_index_[e]; }

    // Calls fn(j) for each stored point j with |p - x_j| < h, in a fixed order.
    template <class Fn>
    void for_each_neighbor(const Vec<D>& p, Fn&& fn) const;

    // Calls fn(c) for the 3^D cells around `center`, in a fixed order.
    template <class Fn>
    static void for_each_cell_around(const Cell& center, Fn&& fn);

  private:
    std::uint32_t bucket_of(const Cell& c) const;
    // The entries of cell c, which lies in bucket b, or an empty range.
    std::pair<std::uint32_t, std::uint32_t> find_in_bucket(const Cell& c, std::uint32_t b) const;
    // The cell's bit in near_: its Z-curve code like bucket_of, but over 2^20 bits (128 KiB),
    // so that few far cells share a bit with a near one.
    static constexpr std::uint32_t near_mask_ = (1u << 20) - 1;
    std::uint32_t near_bit(const Cell& c) const;
    // The dense table (below): the entries of cell c, or an empty range.
    std::pair<std::uint32_t, std::uint32_t> find_dense(const Cell& c) const;
    // Where cell c, inside the table's box, is in dense_.
    std::int64_t dense_index(const Cell& c) const {
        std::int64_t index = 0;
        for (int a = D - 1; a >= 0; --a)
            index = index * dense_ext_[a] + (std::int64_t(c[a]) - dense_lo_[a]);
        return index;
    }
    void build_dense_table();

    float h_ = 0.0f;
    float h2_ = 0.0f;
    double inv_cell_ = 0.0;
    std::uint32_t bucket_mask_ = 0;
    bool sorted_ = false;
    std::vector<std::uint32_t> bucket_runs_;   // bucket b holds runs [runs[b], runs[b+1])
    std::vector<CellRun> runs_;                // in entry order
    std::vector<std::uint32_t> sorted_index_;  // point index of each entry
    std::vector<Vec<D>> sorted_x_;             // position of each entry, for cache locality
    std::vector<std::uint32_t> point_bucket_;  // build scratch
    std::vector<std::uint32_t> fill_, next_;   // build scratch
    std::vector<std::uint64_t> near_;          // mark_neighbourhoods: one bit per bucket
    // When the runs' cells fill a box of at most one cell per point (a pool, a dam break in its
    // tank), every cell of that box widened by one has its [begin, end) here, x fastest: a
    // lookup is one load, and the three cells along x of a 3^D neighbourhood share a cache line,
    // where the hashed lookup loads the bucket's run range, then the run, for each of them.
    // Empty when the box is larger (scattered points); the hashed buckets then serve.
    struct Range {
        std::uint32_t begin, end;
    };
    std::vector<Range> dense_;
    Cell dense_lo_{};                          //!< the cell of dense_[0]
    std::array<std::int64_t, D> dense_ext_{};  //!< the box's cells per axis
};

// The vector code this build's pair loops run on (CMake's SEICHE_PAIR_LANES and the instruction
// set), e.g. "AVX-512, eight lanes, lengths by sqrt (NARROW)": runs of two builds give the same
// bits only when this reads the same. `seiche --version` and `seiche bench` print it.
std::string_view pair_loops_description();

// The lists (NeighborList): for each query point, the grid points strictly within the support
// radius. With exclude_self, query i does not list point i (query and grid are the same set).
template <int D>
void build_neighbor_list(const NeighborGrid<D>& grid, std::span<const Vec<D>> queries,
                         bool exclude_self, NeighborList& out);

// The same, cell by cell: `queries` must be the points of `query_grid`, already put in its
// order (points_were_sorted). The 3^D neighbour cells are looked up once per cell, not once per
// point. target may be query_grid itself (with exclude_self) or another grid of the same h.
// With `second`, each list goes on with that grid's points, their indices + second_offset (the
// boundary: a static grid built once and a small one of the moving bodies rebuilt every step).
// Queries marked in `skip` get empty lists (a split run's halo copies: their values come from
// their owners, so their own neighbours are never needed).
template <int D>
void build_neighbor_list_by_cell(const NeighborGrid<D>& query_grid, std::span<const Vec<D>> queries,
                                 const NeighborGrid<D>& target, bool exclude_self,
                                 NeighborList& out, const NeighborGrid<D>* second = nullptr,
                                 std::uint32_t second_offset = 0,
                                 std::span<const std::uint8_t> skip = {});


// ---- inline implementation of the queries ----

template <int D>
inline typename NeighborGrid<D>::Cell NeighborGrid<D>::cell_of(const Vec<D>& p) const {
    Cell c;
    for (int a = 0; a < D; ++a) {
        // Double precision: the product is exact to far below the 1e-5 margin. Coordinates
        // beyond ±2e9 cells are clamped (they would find nothing either way).
        const double t = double(p[a]) * inv_cell_;
        c[a] = static_cast<std::int32_t>(std::clamp(std::floor(t), -2.0e9, 2.0e9));
    }
    return c;
}

// Spreads the low bits of v so that D-1 zero bits separate them (Morton interleaving).
inline std::uint64_t spread_bits(std::uint32_t v, int dimension) {
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__) && !defined(__bdver4__)
    // One parallel bit deposit does the shifts and masks below (the same bits); not on the AMD
    // processors before Zen 3, where it is microcoded and slower than the shifts.
    return dimension == 2 ? _pdep_u64(v, 0x5555555555555555ull)
                          : _pdep_u64(v & 0x1FFFFFu, 0x1249249249249249ull);
#endif
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

// The bucket is the cell's Z-order index modulo the table size: neighbouring cells get nearby
// buckets, so the counting sort also orders the points along a Z-curve. Cells far apart may
// share a bucket; runs carry their cell, so that costs time, never correctness.
template <int D>
inline std::uint32_t NeighborGrid<D>::bucket_of(const Cell& c) const {
    std::uint64_t code = 0;
    for (int a = 0; a < D; ++a) code |= spread_bits(static_cast<std::uint32_t>(c[a]), D) << a;
    return static_cast<std::uint32_t>(code) & bucket_mask_;
}

template <int D>
inline std::uint32_t NeighborGrid<D>::near_bit(const Cell& c) const {
    std::uint64_t code = 0;
    for (int a = 0; a < D; ++a) code |= spread_bits(static_cast<std::uint32_t>(c[a]), D) << a;
    return static_cast<std::uint32_t>(code) & near_mask_;
}

template <int D>
inline std::pair<std::uint32_t, std::uint32_t> NeighborGrid<D>::find(const Cell& c) const {
    if (runs_.empty()) return {0, 0};
    if (!dense_.empty()) return find_dense(c);
    return find_in_bucket(c, bucket_of(c));
}

template <int D>
inline std::pair<std::uint32_t, std::uint32_t> NeighborGrid<D>::find_dense(const Cell& c) const {
    for (int a = 0; a < D; ++a) {
        const std::int64_t k = std::int64_t(c[a]) - dense_lo_[a];
        if (k < 0 || k >= dense_ext_[a]) return {0, 0};
    }
    const Range& r = dense_[dense_index(c)];
    return {r.begin, r.end};
}

template <int D>
inline std::pair<std::uint32_t, std::uint32_t> NeighborGrid<D>::find_in_bucket(
    const Cell& c, std::uint32_t b) const {
    for (std::uint32_t r = bucket_runs_[b]; r < bucket_runs_[b + 1]; ++r) {
        bool same = true;  // component-wise: std::array's == calls memcmp here
        for (int a = 0; a < D; ++a) same = same && runs_[r].cell[a] == c[a];
        if (same) return {runs_[r].begin, runs_[r].end};
    }
    return {0, 0};
}

template <int D>
template <class Fn>
inline void NeighborGrid<D>::for_each_cell_around(const Cell& center, Fn&& fn) {
    if constexpr (D == 2) {
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) fn(Cell{center[0] + dx, center[1] + dy});
    } else {
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    fn(Cell{center[0] + dx, center[1] + dy, center[2] + dz});
    }
}

template <int D>
template <class Fn>
inline void NeighborGrid<D>::find_around(const Cell& c, Fn&& fn) const {
    if (runs_.empty()) return;
    if (!dense_.empty()) {
        // The same cells in the same order as the hashed lookups below, so the lists are too.
        bool inside = true;
        for (int a = 0; a < D; ++a)
            inside = inside && std::int64_t(c[a]) - 1 >= dense_lo_[a] &&
                     std::int64_t(c[a]) + 1 < dense_lo_[a] + dense_ext_[a];
        if (!inside) {
            for_each_cell_around(c, [&](const Cell& cell) {
                const auto [begin, end] = find_dense(cell);
                if (begin < end) fn(begin, end);
            });
            return;
        }
        Cell first = c;  // the cell c − (1, …, 1)
        for (int a = 0; a < D; ++a) --first[a];
        const std::int64_t corner = dense_index(first);
        const std::int64_t sy = dense_ext_[0];
        const std::int64_t sz = D == 3 ? dense_ext_[0] * dense_ext_[1] : 0;
        const auto row = [&](const Range* r) {
            for (int dx = 0; dx < 3; ++dx) fn(r[dx].begin, r[dx].end);
        };
        if constexpr (D == 2) {
            for (int dy = 0; dy < 3; ++dy) row(&dense_[corner + dy * sy]);
        } else {
            for (int dz = 0; dz < 3; ++dz)
                for (int dy = 0; dy < 3; ++dy) row(&dense_[corner + dz * sz + dy * sy]);
        }
        return;
    }
    // spread[a][k]: coordinate c[a] + k − 1 spread and shifted into its place in the code.
    std::uint64_t spread[D][3];
    for (int a = 0; a < D; ++a)
        for (int k = 0; k < 3; ++k)
            spread[a][k] = spread_bits(static_cast<std::uint32_t>(c[a] + k - 1), D) << a;
    const auto probe = [&](const Cell& cell, std::uint64_t code) {
        const auto [begin, end] =
            find_in_bucket(cell, static_cast<std::uint32_t>(code) & bucket_mask_);
        if (begin < end) fn(begin, end);
    };
    if constexpr (D == 2) {
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx)
                probe(Cell{c[0] + dx - 1, c[1] + dy - 1}, spread[0][dx] | spread[1][dy]);
    } else {
        for (int dz = 0; dz < 3; ++dz)
            for (int dy = 0; dy < 3; ++dy)
                for (int dx = 0; dx < 3; ++dx)
                    probe(Cell{c[0] + dx - 1, c[1] + dy - 1, c[2] + dz - 1},
                          spread[0][dx] | spread[1][dy] | spread[2][dz]);
    }
}

template <int D>
template <class Fn>
inline void NeighborGrid<D>::for_each_neighbor(const Vec<D>& p, Fn&& fn) const {
    for_each_cell_around(cell_of(p), [&](const Cell& c) {
        const auto [begin, end] = find(c);
        for (std::uint32_t e = begin; e < end; ++e)
            if (within_support<D>(p, sorted_x_[e], h2_)) fn(sorted_index_[e]);
    });
}

}  // namespace seiche
