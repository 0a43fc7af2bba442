// Uniform grid by counting sort (Green 2010, "Particle simulation using CUDA", sec. 3, done on
// the CPU): count points per bucket, prefix-sum, scatter; then runs of equal cells. Lists are
// built cell by cell (Ihmsen et al. 2011, "A parallel SPH implementation on multi-core CPUs",
// sec. 4: the neighbour cells are found once per cell, points are Z-sorted).
#include "seiche/neighbor_grid.hpp"

#include "brute_force.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

// The candidate blocks' vector scan (CandidateBlock::collect_many): sixteen candidates a step
// with AVX-512, eight with AVX2 and FMA; the plain loop of flags without either.
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#define SEICHE_COLLECT_MANY 1
#endif

#include "seiche/parallel.hpp"

namespace seiche {

template <int D>
void NeighborGrid<D>::build(std::span<const Vec<D>> points, float h,
                            std::span<const std::uint32_t> key) {
    if (!(h > 0.0f)) throw std::invalid_argument("neighbour grid: support radius must be > 0");
    h_ = h;
    h2_ = h * h;
    near_.clear();
    inv_cell_ = 1.0 / (double(h) * (1.0 + 1.0e-5));
    sorted_ = false;
    const std::size_t n = points.size();
    if (n > 0xFFFFFFF0u) throw std::length_error("neighbour grid: too many points");

    const std::uint32_t buckets = std::bit_ceil(std::max<std::size_t>(n, 16));
    bucket_mask_ = buckets - 1;

    // Cells are recomputed where needed rather than stored: 12 bytes per point at a million
    // points, for three floors per point.
    point_bucket_.resize(n);
    parallel_for(n, [&](std::size_t i) { point_bucket_[i] = bucket_of(cell_of(points[i])); });

    // Counting sort by bucket.
    std::vector<std::uint32_t>& start = fill_;
    start.assign(buckets + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++start[point_bucket_[i] + 1];
    for (std::uint32_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
    sorted_index_.resize(n);
    sorted_x_.resize(n);
    next_.assign(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) sorted_index_[next_[point_bucket_[i]]++] = std::uint32_t(i);
    // Entry e starts a run when its bucket or its cell differs from entry e − 1's. Flags in
    // next_ (free by now, at least n long); chunks of consecutive entries, so each cell is
    // computed once.
    std::vector<std::uint32_t>& starts_run = next_;
    constexpr std::size_t chunk = 4096;
    parallel_for((n + chunk - 1) / chunk,
                 [&](std::size_t c) {
                     const std::size_t lo = c * chunk, hi = std::min(n, lo + chunk);
                     Cell previous = lo > 0 ? cell_of(points[sorted_index_[lo - 1]]) : Cell{};
                     for (std::size_t e = lo; e < hi; ++e) {
                         const std::uint32_t i = sorted_index_[e];
                         sorted_x_[e] = points[i];
                         const Cell cell = cell_of(points[i]);
                         starts_run[e] = e == 0 || cell != previous ||
                                         point_bucket_[i] != point_bucket_[sorted_index_[e - 1]];
                         previous = cell;
                     }
                 },
                 2);

    // Runs of equal cells, and the runs of each bucket. A bucket holding several cells (far
    // apart, rare) is first sorted by cell, so that every cell is one run.
    auto cell_less = [&](std::uint32_t a, std::uint32_t b) {
        return cell_of(points[a]) < cell_of(points[b]);
    };
    runs_.clear();
    bucket_runs_.assign(buckets + 1, 0);
    for (std::uint32_t b = 0; b < buckets; ++b) {
        bucket_runs_[b] = static_cast<std::uint32_t>(runs_.size());
        const std::uint32_t lo = start[b], hi = start[b + 1];
        if (lo == hi) continue;
        runs_.push_back({cell_of(sorted_x_[lo]), lo, hi});
        bool mixed = false;
        for (std::uint32_t e = lo + 1; e < hi && !mixed; ++e) mixed = starts_run[e] != 0;
        if (!mixed) continue;
        runs_.pop_back();
        std::stable_sort(sorted_index_.begin() + lo, sorted_index_.begin() + hi, cell_less);
        for (std::uint32_t e = lo; e < hi; ++e) {
            sorted_x_[e] = points[sorted_index_[e]];
            const Cell cell = cell_of(sorted_x_[e]);
            if (e == lo || cell != runs_.back().cell)
                runs_.push_back({cell, e, e + 1});
            else
                runs_.back().end = e + 1;
        }
    }
    bucket_runs_[buckets] = static_cast<std::uint32_t>(runs_.size());
    if (!key.empty()) {
        if (key.size() != n) throw std::invalid_argument("neighbour grid: one key per point");
        // Insertion sort: a cell holds a few points, mostly in key order from the last step.
        parallel_for(runs_.size(), [&](std::size_t r) {
            const std::uint32_t lo = runs_[r].begin, hi = runs_[r].end;
            std::uint32_t* idx = sorted_index_.data();
            bool moved = false;
            for (std::uint32_t e = lo + 1; e < hi; ++e) {
                const std::uint32_t v = idx[e];
                std::uint32_t f = e;
                for (; f > lo && key[idx[f - 1]] > key[v]; --f) idx[f] = idx[f - 1];
                idx[f] = v;
                moved = moved || f != e;
            }
            if (moved)
                for (std::uint32_t e = lo; e < hi; ++e) sorted_x_[e] = points[idx[e]];
        });
    }
    build_dense_table();
}

template <int D>
void NeighborGrid<D>::build_dense_table() {
    dense_.clear();
    if (runs_.empty()) return;
    Cell lo = runs_[0].cell, hi = runs_[0].cell;
    for (const CellRun& run : runs_)
        for (int a = 0; a < D; ++a) {
            lo[a] = std::min(lo[a], run.cell[a]);
            hi[a] = std::max(hi[a], run.cell[a]);
        }
    // Widened by one cell on each side, so that the 3^D cells around any run's cell are inside.
    double cells = 1.0;
    for (int a = 0; a < D; ++a) {
        dense_lo_[a] = lo[a] - 1;
        dense_ext_[a] = std::int64_t(hi[a]) - lo[a] + 3;
        cells *= double(dense_ext_[a]);
    }
    // At most one cell per point (8 bytes a point), and a floor for small sets.
    if (cells > double(std::max<std::size_t>(sorted_index_.size(), 4096))) return;
    dense_.assign(static_cast<std::size_t>(cells), Range{0, 0});
    for (const CellRun& run : runs_) dense_[dense_index(run.cell)] = {run.begin, run.end};
}

template <int D>
void NeighborGrid<D>::release_build_scratch() {
    for (auto* v : {&point_bucket_, &fill_, &next_}) {
        v->clear();
        v->shrink_to_fit();
    }
}

template <int D>
void NeighborGrid<D>::mark_neighbourhoods() {
    near_.assign((std::size_t(near_mask_) + 1) / 64, 0);
    for (const CellRun& run : runs_)
        for_each_cell_around(run.cell, [&](const Cell& c) {
            const std::uint32_t b = near_bit(c);
            near_[b >> 6] |= std::uint64_t(1) << (b & 63);
        });
}

template <int D>
void NeighborGrid<D>::points_were_sorted() {
    for (std::size_t e = 0; e < sorted_index_.size(); ++e)
        sorted_index_[e] = static_cast<std::uint32_t>(e);
    sorted_ = true;
}

namespace {

// The candidates of one cell (the points of its 3^D neighbour cells) copied once into
// structure-of-arrays form, so that the distance test of each query in the cell is a
// contiguous, vectorised loop; the hits are then picked out eight flags at a time. The lists
// come out in the same order as a plain scan.
struct CandidateBlock {
    static constexpr std::size_t capacity = 1024;
    static constexpr std::uint32_t nobody = 0xFFFFFFFFu;
    // Room for one vector past the last candidate: the AVX-512 scan reads whole vectors.
    alignas(64) float x[capacity + 16], y[capacity + 16], z[capacity + 16];
    alignas(64) std::uint32_t index[capacity + 16];
    alignas(64) std::uint8_t hit[capacity + 8];
    int n = 0;

    template <int D>
    void fill(const NeighborGrid<D>& target, const std::pair<std::uint32_t, std::uint32_t>* ranges,
              int n_ranges) {
        n = 0;
        for (int k = 0; k < n_ranges; ++k) {
            const std::uint32_t first = ranges[k].first;
            const int len = static_cast<int>(ranges[k].second - first);
            // The entries of a cell are contiguous: a strided copy GCC vectorises (the
            // element-by-element copy through entry_x was as costly as the distance tests).
            // The indices in the same loop: a memcpy call per cell range (eight or so
            // entries) cost 1% of a step.
            const float* src = &target.entry_x(first).x;
            const std::uint32_t* isrc = &target.entry_index_ref(first);
            float *xo = x + n, *yo = y + n, *zo = z + n;
            std::uint32_t* io = index + n;
#pragma omp simd
            for (int i = 0; i < len; ++i) {
                xo[i] = src[D * i];
                yo[i] = src[D * i + 1];
                zo[i] = D == 3 ? src[D * i + 2] : 0.0f;
                io[i] = isrc[i];
            }
            n += len;
        }
        std::memset(hit + n, 0, 8);  // the last word of flags reads past n
        // The AVX-512 scan reads whole vectors of sixteen: the rest of the last one is NaN,
        // whose distance test is false for any query, so no lane mask.
        for (int k = n; k < ((n + 15) & ~15); ++k) {
            x[k] = y[k] = z[k] = std::numeric_limits<float>::quiet_NaN();
            index[k] = nobody;
        }
    }

#ifdef __AVX512F__
    static __m512 d2_of(__m512 dx, __m512 dy, __m512 dz) {
        return _mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx)));
    }
#endif

    // Writes the indices of the candidates strictly within the support of xi (but not `self`)
    // to out, which has room for n + out_slack; returns how many.
    static constexpr std::size_t out_slack = 16;
    template <int D>
    std::uint32_t collect(const Vec<D>& xi, float h2, std::uint32_t self, std::uint32_t* out) {
        const float px = xi.x, py = xi.y, pz = z_of<D>(xi);
        const int count = n;
#ifdef SEICHE_COLLECT_MANY
        {
            std::uint32_t hits = 0;
            collect_many<D, 1>(&xi, h2, &self, out, 0, &hits);
            return hits;
        }
#endif
        // The same arithmetic as within_support: d = x_i − x_j, d·d < h². Contiguous loads, no
        // gathers: unlike the pair loops, wide vectors pay here (32 lanes measured 14% faster
        // than 16, which GCC compiles as 4-lane vectors because of the byte flags).
#pragma omp simd simdlen(32)
        for (int k = 0; k < count; ++k) {
            const float dx = px - x[k], dy = py - y[k], dz = pz - z[k];
            hit[k] = (dx * dx + dy * dy + dz * dz < h2) & (index[k] != self);
        }
        std::uint32_t hits = 0;
        for (int k = 0; k < count; k += 8) {
            std::uint64_t word;
            std::memcpy(&word, hit + k, 8);
            while (word != 0) {
                out[hits++] = index[k + (std::countr_zero(word) >> 3)];
                word &= word - 1;
            }
        }
        return hits;
    }

#ifdef __AVX512F__
    // Q queries at once (collect's path with AVX-512 is Q = 1). Sixteen candidates per step, the
    // hits packed into a register and the whole register stored (the next step writes over what
    // lies past the hits), no branch per hit. Each block of candidates is loaded once for all Q,
    // and their chains of stores (each store's address waits on its query's count so far) run
    // side by side. Query q's hits go to out + q·room; their counts to hits.
    template <int D, int Q>
    void collect_many(const Vec<D>* xi, float h2, const std::uint32_t* self, std::uint32_t* out,
                      std::size_t room, std::uint32_t* hits) {
        __m512 px[Q], py[Q], pz[Q];
        __m512i ps[Q];
        std::uint32_t h[Q];
        for (int q = 0; q < Q; ++q) {
            px[q] = _mm512_set1_ps(xi[q].x);
            py[q] = _mm512_set1_ps(xi[q].y);
            pz[q] = _mm512_set1_ps(z_of<D>(xi[q]));
            ps[q] = _mm512_set1_epi32(static_cast<int>(self[q]));
            h[q] = 0;
        }
        const __m512 vh2 = _mm512_set1_ps(h2);
        for (int k = 0; k < n; k += 16) {
            const __m512 cx = _mm512_load_ps(x + k), cy = _mm512_load_ps(y + k),
                         cz = _mm512_load_ps(z + k);
            const __m512i idx = _mm512_load_si512(index + k);
#pragma GCC unroll 8
            for (int q = 0; q < Q; ++q) {
                const __m512 dx = _mm512_sub_ps(px[q], cx), dy = _mm512_sub_ps(py[q], cy),
                             dz = _mm512_sub_ps(pz[q], cz);
                // d·d in within_support's order, (dx·dx + dy·dy) + dz·dz, with the two FMAs
                // GCC contracts it into written out, so that one query and several at a time
                // give the same lists to the bit. GCC may contract within_support and the scalar
                // loop of collect otherwise, so a pair within one rounding of h can be listed by
                // one path and not by another; every thread takes the same path, so results
                // still do not depend on the count.
                const __m512 d2 = d2_of(dx, dy, dz);
                const __mmask16 m = _mm512_cmp_ps_mask(d2, vh2, _CMP_LT_OQ) &
                                    _mm512_cmpneq_epi32_mask(idx, ps[q]);
                _mm512_storeu_si512(out + q * room + h[q], _mm512_maskz_compress_epi32(m, idx));
                h[q] += static_cast<std::uint32_t>(std::popcount(static_cast<unsigned>(m)));
            }
        }
        for (int q = 0; q < Q; ++q) hits[q] = h[q];
    }
#elif defined(SEICHE_COLLECT_MANY)
    static __m256 d2_of(__m256 dx, __m256 dy, __m256 dz) {
        return _mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx)));
    }
    // For each of the 256 masks of eight lanes, the lanes that are set, in order, one byte each
    // (AVX2 has no compress: a permutation from this table packs the hits to the front).
    static constexpr std::array<std::uint64_t, 256> pack_table = [] {
        std::array<std::uint64_t, 256> t{};
        for (unsigned m = 0; m < 256; ++m) {
            int k = 0;
            for (unsigned l = 0; l < 8; ++l)
                if (m & (1u << l)) t[m] |= std::uint64_t(l) << (8 * k++);
        }
        return t;
    }();
    // collect_many above with eight candidates per step.
    template <int D, int Q>
    void collect_many(const Vec<D>* xi, float h2, const std::uint32_t* self, std::uint32_t* out,
                      std::size_t room, std::uint32_t* hits) {
        __m256 px[Q], py[Q], pz[Q];
        __m256i ps[Q];
        std::uint32_t h[Q];
        for (int q = 0; q < Q; ++q) {
            px[q] = _mm256_set1_ps(xi[q].x);
            py[q] = _mm256_set1_ps(xi[q].y);
            pz[q] = _mm256_set1_ps(z_of<D>(xi[q]));
            ps[q] = _mm256_set1_epi32(static_cast<int>(self[q]));
            h[q] = 0;
        }
        const __m256 vh2 = _mm256_set1_ps(h2);
        for (int k = 0; k < n; k += 8) {
            const __m256 cx = _mm256_load_ps(x + k), cy = _mm256_load_ps(y + k),
                         cz = _mm256_load_ps(z + k);
            const __m256i idx = _mm256_load_si256(reinterpret_cast<const __m256i*>(index + k));
#pragma GCC unroll 8
            for (int q = 0; q < Q; ++q) {
                const __m256 dx = _mm256_sub_ps(px[q], cx), dy = _mm256_sub_ps(py[q], cy),
                             dz = _mm256_sub_ps(pz[q], cz);
                const __m256 d2 = d2_of(dx, dy, dz);  // as in the AVX-512 path, to the bit
                const __m256 near = _mm256_cmp_ps(d2, vh2, _CMP_LT_OQ);
                const __m256 me = _mm256_castsi256_ps(_mm256_cmpeq_epi32(idx, ps[q]));
                const unsigned m =
                    static_cast<unsigned>(_mm256_movemask_ps(_mm256_andnot_ps(me, near)));
                const __m256i order =
                    _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(pack_table[m])));
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + q * room + h[q]),
                                    _mm256_permutevar8x32_epi32(idx, order));
                h[q] += static_cast<std::uint32_t>(std::popcount(m));
            }
        }
        for (int q = 0; q < Q; ++q) hits[q] = h[q];
    }
#endif
};

// Appends the rows of one group (NeighborList::group_row) to `rows`: list[l] of count[l] entries
// for lane l, 0 past a shorter list's end. Returns the group's first row. Each list may be read
// up to seven entries past its end (what is read there is dropped). With AVX2, eight rows at a
// time: eight entries of each list, an 8 × 8 transpose in registers, one 32-byte store per row.
// Written lane by lane instead (eight 4-byte stores to every line of the rows, each line to be
// fetched from memory first), the rows cost half as much as building the lists.
// Into a NarrowBuffer, each index takes 16 bits (the builder checked that every one fits).
template <class T>
std::uint32_t append_group_rows(Buffer<T>& rows, const std::uint32_t* const* list,
                                const std::uint32_t* count) {
    constexpr std::size_t lanes = LaneList::stride;  // pair_lanes.hpp's width
    std::uint32_t longest = 0;
    for (std::size_t l = 0; l < lanes; ++l) longest = std::max(longest, count[l]);
    const auto first = static_cast<std::uint32_t>(rows.size() / lanes);
    T* r = rows.reserve_more(lanes * std::size_t(longest));
#ifdef __AVX2__
    const __m256i counts = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(count));
    for (std::uint32_t k0 = 0; k0 < longest; k0 += lanes) {
        // A list already ended is not read at all: past its end by more than seven entries
        // could be past the buffer.
        __m256i v[lanes];
        for (std::size_t l = 0; l < lanes; ++l)
            v[l] = k0 < count[l]
                       ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(list[l] + k0))
                       : _mm256_setzero_si256();
        // v[l] holds entries k0 … k0 + 7 of lane l; t[k] below holds entry k0 + k of each lane.
        const __m256i a0 = _mm256_unpacklo_epi32(v[0], v[1]);
        const __m256i a1 = _mm256_unpackhi_epi32(v[0], v[1]);
        const __m256i a2 = _mm256_unpacklo_epi32(v[2], v[3]);
        const __m256i a3 = _mm256_unpackhi_epi32(v[2], v[3]);
        const __m256i a4 = _mm256_unpacklo_epi32(v[4], v[5]);
        const __m256i a5 = _mm256_unpackhi_epi32(v[4], v[5]);
        const __m256i a6 = _mm256_unpacklo_epi32(v[6], v[7]);
        const __m256i a7 = _mm256_unpackhi_epi32(v[6], v[7]);
        const __m256i b0 = _mm256_unpacklo_epi64(a0, a2), b1 = _mm256_unpackhi_epi64(a0, a2);
        const __m256i b2 = _mm256_unpacklo_epi64(a1, a3), b3 = _mm256_unpackhi_epi64(a1, a3);
        const __m256i b4 = _mm256_unpacklo_epi64(a4, a6), b5 = _mm256_unpackhi_epi64(a4, a6);
        const __m256i b6 = _mm256_unpacklo_epi64(a5, a7), b7 = _mm256_unpackhi_epi64(a5, a7);
        const __m256i t[lanes] = {
            _mm256_permute2x128_si256(b0, b4, 0x20), _mm256_permute2x128_si256(b1, b5, 0x20),
            _mm256_permute2x128_si256(b2, b6, 0x20), _mm256_permute2x128_si256(b3, b7, 0x20),
            _mm256_permute2x128_si256(b0, b4, 0x31), _mm256_permute2x128_si256(b1, b5, 0x31),
            _mm256_permute2x128_si256(b2, b6, 0x31), _mm256_permute2x128_si256(b3, b7, 0x31)};
        const std::uint32_t end = std::min<std::uint32_t>(lanes, longest - k0);
        for (std::uint32_t k = 0; k < end; ++k) {
            // Lane l keeps its entry where k0 + k < count[l] (counts are far below 2^31).
            const __m256i live = _mm256_cmpgt_epi32(counts, _mm256_set1_epi32(int(k0 + k)));
            const __m256i row = _mm256_and_si256(t[k], live);
            if constexpr (sizeof(T) == 2)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(r + lanes * (k0 + k)),
                                 _mm_packus_epi32(_mm256_castsi256_si128(row),
                                                  _mm256_extracti128_si256(row, 1)));
            else
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + lanes * (k0 + k)), row);
        }
    }
#else
    for (std::size_t l = 0; l < lanes; ++l) {
        std::uint32_t k = 0;
        for (; k < count[l]; ++k) r[lanes * k + l] = static_cast<T>(list[l][k]);
        for (; k < longest; ++k) r[lanes * k + l] = 0;
    }
#endif
    rows.commit(lanes * std::size_t(longest));
    return first;
}

// The rows (NeighborList) of the groups that start at queries q, q + 8, … below q_end (or the
// short last group, if q_end is the last query), from their lists in `lists` (each list after the
// one before, from query q on; counts[i + 1] is query i's length), into `rows`.
template <class T>
void append_rows(Buffer<T>& rows, const std::uint32_t* lists, std::size_t q, std::size_t q_end,
                 std::size_t queries, const std::uint32_t* counts, std::uint32_t* group_row) {
    constexpr std::size_t lanes = LaneList::stride;
    for (; q + lanes <= q_end || (q < q_end && q_end == queries); q += lanes) {
        const std::uint32_t* list[lanes];
        std::uint32_t count[lanes];
        for (std::size_t l = 0; l < lanes; ++l) {
            count[l] = q + l < q_end ? counts[q + l + 1] : 0;
            list[l] = lists;
            lists += count[l];
        }
        group_row[q / lanes] = append_group_rows(rows, list, count);
    }
}

// Fills the lists from fixed chunks of work items: the result does not depend on the thread
// count. Chunk c handles the consecutive queries starting at first_query(c · chunk);
// collect(item, buf, counts) appends the lists of the item's queries to buf (one after another)
// and writes their lengths into counts (indexed by query + 1). Each chunk collects into a buffer
// of its thread's, which stays in the cache, and writes its groups' rows from there. A group
// across a chunk boundary (at most one per boundary) is collected again afterwards, by the calling
// thread. The lists index `targets` points: narrow rows (NeighborList) when they fit.
template <class FirstQuery, class Collect>
void build_chunked(std::size_t items, std::size_t queries, std::size_t chunk, std::size_t targets,
                   NeighborList& out, FirstQuery&& first_query, Collect&& collect) {
    constexpr std::size_t lanes = LaneList::stride;
    const std::size_t chunks = (items + chunk - 1) / chunk;
    const bool narrow = !out.wide_only && targets <= NeighborList::narrow_limit;
    if (narrow != out.narrow) {  // the other width's rows are not kept
        std::vector<IndexBuffer>().swap(out.chunk_rows);
        std::vector<NarrowBuffer>().swap(out.chunk_rows16);
        out.narrow = narrow;
    }
    const auto rows_of = [&](std::size_t c, auto&& fn) {
        return narrow ? fn(out.chunk_rows16[c]) : fn(out.chunk_rows[c]);
    };
    const auto size_rows = [&](auto& all) {
        if (all.size() < std::max<std::size_t>(chunks, 1)) all.resize(std::max<std::size_t>(chunks, 1));
        all[0].reserve_more(lanes);  // data() is never null, even without a chunk
    };
    if (narrow)
        size_rows(out.chunk_rows16);
    else
        size_rows(out.chunk_rows);
    out.offset.assign(queries + 1, 0);
    out.chunk_of.resize(queries);
    out.group_row.resize((queries + lanes - 1) / lanes);
    static std::atomic<std::size_t> most{0};  // the largest chunk's lists
    parallel_for(
        chunks,
        [&](std::size_t c) {
            // Per thread, grown once: a warm step allocates nothing (test_allocation.cpp). Which
            // chunks a thread runs varies from step to step (more so on a busy machine), so each
            // thread's buffer follows the largest any chunk has needed on any thread, with at
            // least an eighth more (grown, by half: a settling column's largest chunk grew by
            // a few per cent now and then until step 400). Grown by its own chunks alone, a
            // thread handed a larger chunk than it had seen allocated in a warm step (1 run in 4
            // beside two busy processes).
            thread_local IndexBuffer lists;
            lists.clear();
            if (const std::size_t m = most.load(std::memory_order_relaxed);
                lists.capacity() < m + m / 8)
                lists.reserve_more(m + m / 2);
            for (std::size_t it = c * chunk; it < std::min(items, (c + 1) * chunk); ++it)
                collect(it, lists, out.offset);
            for (std::size_t m = most.load(std::memory_order_relaxed);
                 lists.size() > m && !most.compare_exchange_weak(m, lists.size());) {
            }
            lists.reserve_more(lanes);  // append_group_rows reads up to 7 entries past a list
            const std::size_t q_begin = first_query(c * chunk);
            const std::size_t q_end = c + 1 < chunks ? first_query((c + 1) * chunk) : queries;
            std::uint32_t longest = 0;
            for (std::size_t q = q_begin; q < q_end; ++q) {
                out.chunk_of[q] = static_cast<std::uint32_t>(c);
                longest = std::max(longest, out.offset[q + 1]);
            }
            // The rows of the groups that lie wholly in this chunk. Room for all of them and a
            // quarter more at once: a chunk's rows (its groups' longest lists) vary more from
            // step to step than its lists, and a warm step must not allocate. The group across
            // the chunk's end (done below) comes on top.
            const std::uint32_t* at = lists.data();
            std::size_t q = q_begin;
            for (; q % lanes != 0 && q < q_end; ++q) at += out.offset[q + 1];
            std::size_t need = lanes * (longest + 1);
            for (std::size_t g = q; g + lanes <= q_end || (g < q_end && q_end == queries); g += lanes) {
                std::uint32_t group_longest = 0;
                for (std::size_t i = g; i < std::min(g + lanes, q_end); ++i)
                    group_longest = std::max(group_longest, out.offset[i + 1]);
                need += lanes * group_longest;
            }
            // As the lists' buffers, each chunk's rows follow the largest any chunk has
            // needed, with a quarter more: grown by its own need alone, a chunk of a column
            // still settling 400 steps after its start outgrew its quarter now and then.
            static std::atomic<std::size_t> most_rows{0};
            std::size_t want = most_rows.load(std::memory_order_relaxed);
            while (need > want && !most_rows.compare_exchange_weak(want, need)) {
            }
            want = std::max(want, need);
            rows_of(c, [&](auto& rows) {
                rows.clear();
                if (rows.capacity() < need) rows.reserve_more(want + want / 4);
                append_rows(rows, at, q, q_end, queries, out.offset.data(), out.group_row.data());
            });
        },
        2);
    // The groups across chunk boundaries, into the rows of the chunk that holds their first
    // query: the items that hold their queries collected again (the counts they write are the
    // ones already there).
    thread_local IndexBuffer again;
    std::size_t done = std::size_t(-1);  // a group across three chunks is done once
    for (std::size_t c = 1; c < chunks; ++c) {
        const std::size_t q = first_query(c * chunk);
        if (q % lanes == 0 || q >= queries || q / lanes == done) continue;
        const std::size_t g = done = q / lanes;
        const std::size_t first = g * lanes, last = std::min(queries, first + lanes);
        std::size_t it = c * chunk;
        while (it > 0 && first_query(it) > first) --it;
        again.clear();
        // A few items' lists, fewer than a chunk's: room for the largest chunk's at once, so
        // that a warm step does not grow it item by item.
        if (const std::size_t m = most.load(std::memory_order_relaxed); again.capacity() < m)
            again.reserve_more(m);
        const std::size_t from = first_query(it);
        for (; it < items && first_query(it) < last; ++it) collect(it, again, out.offset);
        again.reserve_more(lanes);
        const std::uint32_t* at = again.data();
        for (std::size_t i = from; i < first; ++i) at += out.offset[i + 1];
        rows_of(out.chunk_of[first], [&](auto& rows) {
            append_rows(rows, at, first, last, queries, out.offset.data(), out.group_row.data());
        });
    }
    std::uint32_t* offset = out.offset.data();
    for (std::size_t i = 0; i < queries; ++i) offset[i + 1] += offset[i];
}

}  // namespace

template <int D>
void build_neighbor_list(const NeighborGrid<D>& grid, std::span<const Vec<D>> queries,
                         bool exclude_self, NeighborList& out) {
    build_chunked(
        queries.size(), queries.size(), 512, grid.point_count(), out,
        [](std::size_t i) { return i; },
        [&](std::size_t i, IndexBuffer& buf, std::vector<std::uint32_t>& counts) {
            const std::size_t before = buf.size();
            grid.for_each_neighbor(queries[i], [&](std::uint32_t j) {
                if (!(exclude_self && j == i)) buf.push_back(j);
            });
            counts[i + 1] = static_cast<std::uint32_t>(buf.size() - before);
        });
}

template <int D>
void build_neighbor_list_by_cell(const NeighborGrid<D>& query_grid, std::span<const Vec<D>> queries,
                                 const NeighborGrid<D>& target, bool exclude_self,
                                 NeighborList& out, const NeighborGrid<D>* second,
                                 std::uint32_t second_offset, std::span<const std::uint8_t> skip) {
    if (!query_grid.points_sorted() || query_grid.point_count() != queries.size())
        throw std::logic_error("build_neighbor_list_by_cell: queries are not in grid order");
    const float h2 = target.support() * target.support();
    const auto runs = query_grid.runs();
    // One source of candidates around a run's cell: its grid's 3^D cell ranges.
    struct Source {
        const NeighborGrid<D>* grid = nullptr;
        std::uint32_t offset = 0;
        std::pair<std::uint32_t, std::uint32_t> ranges[27];
        int n_ranges = 0;
        std::size_t candidates = 0;
        bool in_block = false;
    };
    std::size_t targets = target.point_count();
    if (second) targets = std::max(targets, std::size_t(second_offset) + second->point_count());
    build_chunked(
        runs.size(), queries.size(), 64, targets, out,
        [&](std::size_t r) { return std::size_t(runs[r].begin); },
        [&](std::size_t r, IndexBuffer& buf, std::vector<std::uint32_t>& counts) {
            thread_local CandidateBlock blocks[2];
            Source sources[2];
            int n_sources = 0;
            bool all_skipped = !skip.empty();
            for (std::uint32_t i = runs[r].begin; i < runs[r].end && all_skipped; ++i)
                all_skipped = skip[i] != 0;
            for (int t = 0; t < (second && !all_skipped ? 2 : all_skipped ? 0 : 1); ++t) {
                const NeighborGrid<D>& g = t == 0 ? target : *second;
                if (!g.may_have_points_around(runs[r].cell)) continue;
                Source& src = sources[n_sources];
                src.grid = &g;
                src.offset = t == 0 ? 0 : second_offset;
                g.find_around(runs[r].cell, [&](std::uint32_t begin, std::uint32_t end) {
                    // Branch-free: an empty range is written and then written over.
                    src.ranges[src.n_ranges] = {begin, end};
                    src.n_ranges += begin < end;
                });
                for (int k = 0; k < src.n_ranges; ++k)
                    src.candidates += src.ranges[k].second - src.ranges[k].first;
                if (src.n_ranges == 0) continue;
                src.in_block = src.candidates <= CandidateBlock::capacity;
                if (src.in_block) blocks[n_sources].fill<D>(g, src.ranges, src.n_ranges);
                ++n_sources;
            }
#ifdef SEICHE_COLLECT_MANY
            // Q queries from i on, if the run has them and none is skipped; i moves to the last.
            const auto collect_many = [&]<int Q>(std::uint32_t& i) {
                if (i + Q > runs[r].end ||
                    (!skip.empty() && std::any_of(skip.begin() + i, skip.begin() + i + Q,
                                                  [](std::uint8_t v) { return v != 0; })))
                    return false;
                const Source& src = sources[0];
                const bool skip_self = exclude_self && src.offset == 0 && src.grid == &target;
                const std::size_t room = src.candidates + CandidateBlock::out_slack;
                std::uint32_t* dst = buf.reserve_more(Q * room);
                std::uint32_t self[Q], hits[Q];
                for (int q = 0; q < Q; ++q)
                    self[q] = skip_self ? i + q : CandidateBlock::nobody;
                blocks[0].collect_many<D, Q>(&queries[i], h2, self, dst, room, hits);
                std::uint32_t total = hits[0];
                for (int q = 1; q < Q; ++q) {
                    std::memmove(dst + total, dst + q * room, hits[q] * sizeof(std::uint32_t));
                    total += hits[q];
                }
                if (src.offset != 0)
                    for (std::uint32_t k = 0; k < total; ++k) dst[k] += src.offset;
                buf.commit(total);
                for (int q = 0; q < Q; ++q) counts[i + 1 + q] = hits[q];
                i += Q - 1;
                return true;
            };
#endif
            for (std::uint32_t i = runs[r].begin; i < runs[r].end; ++i) {
#ifdef SEICHE_COLLECT_MANY
                // The common case, one source in a block: four queries at once, then two.
                if (n_sources == 1 && sources[0].in_block &&
                    (collect_many.template operator()<4>(i) ||
                     collect_many.template operator()<2>(i)))
                    continue;
#endif
                std::uint32_t total = 0;
                for (int t = 0; t < n_sources && (skip.empty() || !skip[i]); ++t) {
                    const Source& src = sources[t];
                    // Self-exclusion applies to the first target only (the query grid itself).
                    const bool skip_self = exclude_self && src.offset == 0 && src.grid == &target;
                    std::uint32_t* dst;
                    std::uint32_t hits = 0;
                    if (src.in_block) {
                        dst = buf.reserve_more(src.candidates + CandidateBlock::out_slack);
                        hits = blocks[t].collect<D>(queries[i], h2,
                                                    skip_self ? i : CandidateBlock::nobody, dst);
                    } else {
                        // A crowded neighbourhood (a collapsed or piled-up fluid): the plain
                        // scan, branch-free: write every candidate, advance past the hits.
                        const Vec<D> xi = queries[i];
                        dst = buf.reserve_more(src.candidates);
                        for (int k = 0; k < src.n_ranges; ++k)
                            for (std::uint32_t e = src.ranges[k].first; e < src.ranges[k].second; ++e) {
                                const std::uint32_t j = src.grid->entry_index(e);
                                dst[hits] = j;
                                hits += within_support<D>(xi, src.grid->entry_x(e), h2) &&
                                        !(skip_self && j == i);
                            }
                    }
                    if (src.offset != 0)
                        for (std::uint32_t k = 0; k < hits; ++k) dst[k] += src.offset;
                    buf.commit(hits);
                    total += hits;
                }
                counts[i + 1] = total;
            }
        });
}

template <int D>
NeighborList brute_force_neighbors(std::span<const Vec<D>> queries, std::span<const Vec<D>> points,
                                   float h, bool exclude_self) {
    NeighborList out;
    std::vector<std::uint32_t> all, counts(queries.size() + 1, 0);
    for (std::size_t i = 0; i < queries.size(); ++i) {
        const std::size_t before = all.size();
        for (std::size_t j = 0; j < points.size(); ++j) {
            if (exclude_self && i == j) continue;
            if (within_support<D>(queries[i], points[j], h * h))
                all.push_back(static_cast<std::uint32_t>(j));
        }
        counts[i + 1] = static_cast<std::uint32_t>(all.size() - before);
    }
    all.resize(all.size() + LaneList::stride, 0);  // append_group_rows reads past a list's end
    out.chunk_of.assign(queries.size(), 0);
    out.group_row.resize((queries.size() + LaneList::stride - 1) / LaneList::stride);
    const auto rows = [&](auto& all_rows) {
        all_rows.resize(1);
        all_rows[0].reserve_more(LaneList::stride);
        append_rows(all_rows[0], all.data(), 0, queries.size(), queries.size(), counts.data(),
                    out.group_row.data());
    };
    out.narrow = points.size() <= NeighborList::narrow_limit;
    if (out.narrow)
        rows(out.chunk_rows16);
    else
        rows(out.chunk_rows);
    out.offset = std::move(counts);
    for (std::size_t i = 0; i < queries.size(); ++i) out.offset[i + 1] += out.offset[i];
    return out;
}

template class NeighborGrid<2>;
template class NeighborGrid<3>;
template void build_neighbor_list<2>(const NeighborGrid<2>&, std::span<const Vec<2>>, bool,
                                     NeighborList&);
template void build_neighbor_list<3>(const NeighborGrid<3>&, std::span<const Vec<3>>, bool,
                                     NeighborList&);
template void build_neighbor_list_by_cell<2>(const NeighborGrid<2>&, std::span<const Vec<2>>,
                                             const NeighborGrid<2>&, bool, NeighborList&,
                                             const NeighborGrid<2>*, std::uint32_t,
                                             std::span<const std::uint8_t>);
template void build_neighbor_list_by_cell<3>(const NeighborGrid<3>&, std::span<const Vec<3>>,
                                             const NeighborGrid<3>&, bool, NeighborList&,
                                             const NeighborGrid<3>*, std::uint32_t,
                                             std::span<const std::uint8_t>);
template NeighborList brute_force_neighbors<2>(std::span<const Vec<2>>, std::span<const Vec<2>>,
                                               float, bool);
template NeighborList brute_force_neighbors<3>(std::span<const Vec<3>>, std::span<const Vec<3>>,
                                               float, bool);

}  // namespace seiche
