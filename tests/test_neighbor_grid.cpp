// The grid search returns exactly the brute-force neighbour sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "neighbors/brute_force.hpp"
#include "seiche/neighbor_grid.hpp"

namespace seiche {
namespace {

void expect_same_lists(const NeighborList& fast, const NeighborList& slow) {
    ASSERT_EQ(fast.size(), slow.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i < slow.size(); ++i) {
        auto a = fast.of(i);
        auto b = slow.of(i);
        std::vector<std::uint32_t> sa(a.begin(), a.end()), sb(b.begin(), b.end());
        std::sort(sa.begin(), sa.end());
        ASSERT_TRUE(std::adjacent_find(sa.begin(), sa.end()) == sa.end()) << "duplicate, i=" << i;
        ASSERT_EQ(sa, sb) << "query " << i;
        total += sa.size();
    }
    EXPECT_GT(total, 0u) << "a test set without any neighbours proves nothing";
}

template <int D>
std::vector<Vec<D>> permuted(const std::vector<Vec<D>>& p, std::span<const std::uint32_t> order) {
    std::vector<Vec<D>> out(p.size());
    for (std::size_t e = 0; e < p.size(); ++e) out[e] = p[order[e]];
    return out;
}

// Checks both builds against brute force: point by point, and cell by cell (which needs the
// queries in their grid's order, as World keeps its particles).
template <int D>
void expect_same_sets(const std::vector<Vec<D>>& pts, float h, bool self,
                      const std::vector<Vec<D>>* queries = nullptr) {
    const auto& q = queries ? *queries : pts;
    NeighborGrid<D> grid;
    grid.build(pts, h);
    NeighborList fast;
    build_neighbor_list<D>(grid, q, self, fast);
    expect_same_lists(fast, brute_force_neighbors<D>(q, pts, h, self));

    NeighborList by_cell;
    if (!queries) {
        const std::vector<Vec<D>> sorted = permuted<D>(pts, grid.order());
        grid.points_were_sorted();
        build_neighbor_list_by_cell<D>(grid, sorted, grid, self, by_cell);
        expect_same_lists(by_cell, brute_force_neighbors<D>(sorted, sorted, h, self));
    } else {
        NeighborGrid<D> query_grid;
        query_grid.build(q, h);
        const std::vector<Vec<D>> qs = permuted<D>(q, query_grid.order());
        query_grid.points_were_sorted();
        build_neighbor_list_by_cell<D>(query_grid, qs, grid, self, by_cell);
        expect_same_lists(by_cell, brute_force_neighbors<D>(qs, pts, h, self));
    }
}

template <int D>
std::vector<Vec<D>> random_points(std::size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<Vec<D>> p(n);
    for (auto& x : p)
        for (int a = 0; a < D; ++a) x[a] = u(rng);
    return p;
}

TEST(NeighborGrid, MatchesBruteForceRandom2D) {
    expect_same_sets<2>(random_points<2>(2000, -1.0f, 1.0f, 1), 0.07f, true);
}

TEST(NeighborGrid, MatchesBruteForceRandom3D) {
    expect_same_sets<3>(random_points<3>(3000, -0.5f, 0.5f, 2), 0.08f, true);
}

TEST(NeighborGrid, NegativeAndFarCoordinates) {
    auto p = random_points<3>(1500, -0.3f, 0.3f, 3);
    for (auto& x : p) x += Vec<3>(-5000.0f, 1234.5f, -77.0f);
    expect_same_sets<3>(p, 0.06f, true);
    auto q = random_points<2>(1500, -1e4f - 0.5f, -1e4f + 0.5f, 4);
    expect_same_sets<2>(q, 0.05f, true);
}

TEST(NeighborGrid, SparseBlocksFarApart) {
    // Two dense blocks a thousand kilometres apart: a dense grid over the bounding box would
    // need 1e16 cells; the hashed grid needs O(n).
    auto a = random_points<3>(800, 0.0f, 0.2f, 5);
    auto b = random_points<3>(800, 0.0f, 0.2f, 6);
    for (auto& x : b) x += Vec<3>(1.0e6f, -3.0e5f, 2.0e5f);
    a.insert(a.end(), b.begin(), b.end());
    expect_same_sets<3>(a, 0.05f, true);
}

TEST(NeighborGrid, ExactlyAtSupportDistance) {
    // Integer lattice with h = 1 (exact in float): the axis neighbours sit at exactly r = h and
    // are excluded by both searches; the diagonal ones (r = √2) are outside anyway.
    std::vector<Vec<2>> p;
    for (int i = -4; i <= 4; ++i)
        for (int j = -4; j <= 4; ++j) p.push_back(Vec<2>(float(i), float(j)));
    p.push_back(Vec<2>(0.5f, 0.5f));  // gives everyone nearby a true neighbour
    expect_same_sets<2>(p, 1.0f, true);

    NeighborGrid<2> grid;
    grid.build(p, 1.0f);
    int count = 0;
    grid.for_each_neighbor(Vec<2>(0.0f, 0.0f), [&](std::uint32_t j) {
        EXPECT_LT(glm::length(p[j]), 1.0f);
        ++count;
    });
    EXPECT_EQ(count, 2);  // itself and (0.5, 0.5); (±1, 0) and (0, ±1) are at exactly h

    std::vector<Vec<3>> q;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k) q.push_back(Vec<3>(0.25f * i, 0.25f * j, 0.25f * k));
    expect_same_sets<3>(q, 0.5f, true);  // many pairs at exactly 2 spacings = h
}

TEST(NeighborGrid, QueriesFromAnotherSet) {
    auto pts = random_points<3>(2000, 0.0f, 1.0f, 7);
    auto qs = random_points<3>(500, -0.2f, 1.2f, 8);
    expect_same_sets<3>(pts, 0.1f, false, &qs);
}

TEST(NeighborGrid, MarkedNeighbourhoodsSkipOnlyCellsWithoutNeighbours) {
    // Walls of points (as a container's boundary particles) and queries all over the box, most
    // of them far from every wall: the marked grid must give exactly the brute-force lists.
    std::vector<Vec<3>> walls;
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j) {
            walls.push_back(Vec<3>(0.05f * i, 0.05f * j, -0.05f));
            walls.push_back(Vec<3>(-0.05f, 0.05f * i, 0.05f * j));
        }
    NeighborGrid<3> grid;
    grid.build(walls, 0.1f);
    grid.mark_neighbourhoods();
    const auto q = random_points<3>(3000, -0.1f, 2.0f, 11);
    NeighborGrid<3> query_grid;
    query_grid.build(q, 0.1f);
    const std::vector<Vec<3>> qs = permuted<3>(q, query_grid.order());
    query_grid.points_were_sorted();
    NeighborList by_cell;
    build_neighbor_list_by_cell<3>(query_grid, qs, grid, false, by_cell);
    expect_same_lists(by_cell, brute_force_neighbors<3>(qs, walls, 0.1f, false));
    std::size_t far = 0;
    for (const auto& run : query_grid.runs()) far += !grid.may_have_points_around(run.cell);
    EXPECT_GT(far, query_grid.runs().size() / 2) << "most query cells should be skipped";
}

TEST(NeighborGrid, CrowdedCellsTakeThePlainScan) {
    // 3,000 points in a box of 1.5 h: every cell's candidates exceed the vectorised block, so the
    // lists come from the plain scan; a spread set mixes both paths in one build.
    expect_same_sets<3>(random_points<3>(3000, 0.0f, 0.15f, 10), 0.1f, true);
    auto mixed = random_points<3>(2000, 0.0f, 1.0f, 11);
    const auto pile = random_points<3>(1500, 0.5f, 0.56f, 12);
    mixed.insert(mixed.end(), pile.begin(), pile.end());
    expect_same_sets<3>(mixed, 0.08f, true);
}

TEST(NeighborGrid, EveryCellIsOneRunWhenBucketsAreShared) {
    // 300 points in 100 cells (x-cell 8k, y- and z-cell 0) and 512 buckets: the cells' Z-order
    // codes agree in their low 9 bits, so all of them share bucket 0, interleaved by the counting
    // sort (three passes over k). Each cell must still be one run — find() returns a single
    // range — and no neighbour may be lost.
    std::vector<Vec<3>> p;
    std::mt19937 rng(14);
    std::uniform_real_distribution<float> jitter(-0.03f, 0.03f);
    for (int pass = 0; pass < 3; ++pass)
        for (int k = 0; k < 100; ++k)
            p.push_back(Vec<3>((8 * k + 0.5f) * 0.1f + jitter(rng), 0.05f + jitter(rng),
                               0.05f + jitter(rng)));
    NeighborGrid<3> grid;
    grid.build(p, 0.1f);
    std::set<std::array<std::int32_t, 3>> runs;
    for (const auto& run : grid.runs()) {
        EXPECT_TRUE(runs.insert(run.cell).second) << "cell split into two runs";
        EXPECT_EQ(run.end - run.begin, 3u);
        EXPECT_EQ(run.cell[0] % 8, 0);
    }
    EXPECT_EQ(runs.size(), 100u);
    expect_same_sets<3>(p, 0.1f, true);
}

// 4000 random points in the unit cube, put in the order of `grid` (cells of 0.1), which is built
// on them and marked sorted: the queries of build_neighbor_list_by_cell.
std::vector<Vec<3>> random_points_in_grid_order(NeighborGrid<3>& grid) {
    auto p = random_points<3>(4000, 0.0f, 1.0f, 13);
    grid.build(p, 0.1f);
    p = permuted<3>(p, grid.order());
    grid.build(p, 0.1f);
    grid.points_were_sorted();
    return p;
}

TEST(NeighborGrid, CellByCellListsAreInScanOrder) {
    // The per-pair sums depend on the order of the lists: cell by cell must give exactly the
    // sequence of the per-point query (cells in for_each_cell_around order, entries in grid order).
    NeighborGrid<3> grid;
    const auto p = random_points_in_grid_order(grid);
    NeighborList by_point, by_cell;
    build_neighbor_list<3>(grid, p, true, by_point);
    build_neighbor_list_by_cell<3>(grid, p, grid, true, by_cell);
    ASSERT_EQ(by_point.pairs(), by_cell.pairs());
    for (std::size_t i = 0; i < p.size(); ++i) {
        const auto a = by_point.of(i), b = by_cell.of(i);
        ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "query " << i;
    }
}

TEST(NeighborGrid, RowsHoldTheListsInTheLanesOrder) {
    // NeighborList: row k of group g holds neighbour k of particles 8g … 8g + 7, 0 past a shorter
    // list's end, within its chunk's buffer, and the lists read from the rows are those of the
    // brute-force oracle (one buffer, no chunks). Cell by cell, chunks of cells start anywhere,
    // so some groups lie across two chunks (collected again afterwards); per point, in a 2D set
    // whose last group is short. Rows of 16-bit indices (a few points) and of 32-bit ones
    // (wide_only) hold the same lists.
    const auto check_rows = [](const NeighborList& nb, std::size_t n, auto width) {
        using T = decltype(width);
        const auto& buffers = [&]() -> const auto& {
            if constexpr (sizeof(T) == 2)
                return nb.chunk_rows16;
            else
                return nb.chunk_rows;
        }();
        ASSERT_EQ(nb.group_row.size(), (n + 7) / 8);
        for (std::size_t g = 0; g < nb.group_row.size(); ++g) {
            const auto& rows = buffers[nb.chunk_of[8 * g]];
            const T* r = rows.data() + 8 * std::size_t(nb.group_row[g]);
            ASSERT_EQ(r, nb.rows<T>(g));
            std::size_t longest = 0;
            for (std::size_t i = 8 * g; i < std::min(n, 8 * g + 8); ++i)
                longest = std::max(longest, nb.of(i).size());
            ASSERT_LE(r + 8 * longest, rows.data() + rows.size()) << "group " << g;
            for (std::size_t l = 0; l < 8; ++l) {
                const std::size_t count = 8 * g + l < n ? nb.of(8 * g + l).size() : 0;
                if (count > 0) ASSERT_EQ(nb.of(8 * g + l).data(), static_cast<const void*>(r + l));
                for (std::size_t k = count; k < longest; ++k)
                    ASSERT_EQ(r[8 * k + l], 0u) << "group " << g << " lane " << l << " row " << k;
            }
        }
    };
    const auto check = [&](const NeighborList& nb, std::size_t n) {
        if (nb.narrow)
            check_rows(nb, n, std::uint16_t{});
        else
            check_rows(nb, n, std::uint32_t{});
    };
    NeighborGrid<3> grid;
    const auto p = random_points_in_grid_order(grid);
    NeighborList by_cell, wide;
    build_neighbor_list_by_cell<3>(grid, p, grid, true, by_cell);
    wide.wide_only = true;
    build_neighbor_list_by_cell<3>(grid, p, grid, true, wide);
    ASSERT_TRUE(by_cell.narrow);
    ASSERT_FALSE(wide.narrow);
    std::size_t across = 0;
    for (std::size_t i = 1; i < p.size(); ++i)
        across += by_cell.chunk_of[i] != by_cell.chunk_of[i - 1] && i % 8 != 0;
    ASSERT_GT(across, 0u);
    check(by_cell, p.size());
    check(wide, p.size());
    const NeighborList oracle = brute_force_neighbors<3>(p, p, 0.1f, true);
    expect_same_lists(by_cell, oracle);
    expect_same_lists(wide, oracle);

    const auto q = random_points<2>(1203, 0.0f, 1.0f, 17);
    NeighborGrid<2> grid2;
    grid2.build(q, 0.05f);
    NeighborList by_point, by_point_wide;
    build_neighbor_list<2>(grid2, q, true, by_point);
    by_point_wide.wide_only = true;
    build_neighbor_list<2>(grid2, q, true, by_point_wide);
    ASSERT_GT(by_point.pairs(), 1203u);
    check(by_point, q.size());
    check(by_point_wide, q.size());
    expect_same_lists(by_point, brute_force_neighbors<2>(q, q, 0.05f, true));
    expect_same_lists(by_point_wide, brute_force_neighbors<2>(q, q, 0.05f, true));
}

TEST(NeighborGrid, ListsOfMoreThan65536PointsKeepTheirIndices) {
    // Past NeighborList::narrow_limit points the rows are 32 bits wide: a 16-bit row would wrap
    // the far indices. Queries against a target set of 70,000 points on a line, the last
    // ones beyond index 65,535.
    const std::size_t n = 70000;
    std::vector<Vec<3>> line(n);
    for (std::size_t i = 0; i < n; ++i) line[i] = Vec<3>(0.01f * float(i), 0.0f, 0.0f);
    NeighborGrid<3> grid;
    grid.build(line, 0.025f);
    std::vector<Vec<3>> queries = {line[3], line[n - 3]};
    NeighborList nb;
    build_neighbor_list<3>(grid, queries, false, nb);
    ASSERT_FALSE(nb.narrow);
    for (std::size_t q = 0; q < queries.size(); ++q) {
        ASSERT_EQ(nb.of(q).size(), 5u);
        for (std::uint32_t j : nb.of(q))
            EXPECT_LE(glm::length(line[j] - queries[q]), 0.025f) << "query " << q << " index " << j;
    }
    const NeighborList oracle = brute_force_neighbors<3>(queries, line, 0.025f, false);
    ASSERT_FALSE(oracle.narrow);
    expect_same_lists(nb, oracle);
}

TEST(NeighborGrid, DenseTableAndBucketsGiveTheSameListsInTheSameOrder) {
    // A compact set is looked up through the dense cell table; the same set with one point a
    // thousand kilometres away through the hashed buckets. The lists of the compact points
    // must be the same sequences (the pair sums depend on the order), point by point and cell
    // by cell, with the queries both inside the set's box and around and beyond its edges.
    const float h = 0.1f;
    const auto compact = random_points<3>(3000, 0.0f, 1.0f, 31);
    auto spread = compact;
    spread.push_back(Vec<3>(1.0e6f, 0.5f, 0.5f));
    NeighborGrid<3> dense, hashed;
    dense.build(compact, h);
    hashed.build(spread, h);
    ASSERT_TRUE(dense.dense_lookups());
    ASSERT_FALSE(hashed.dense_lookups());

    const auto queries = random_points<3>(1500, -0.25f, 1.25f, 32);
    NeighborList a, b;
    build_neighbor_list<3>(dense, queries, false, a);
    build_neighbor_list<3>(hashed, queries, false, b);
    NeighborGrid<3> query_grid;
    query_grid.build(queries, h);
    const auto qs = permuted<3>(queries, query_grid.order());
    query_grid.points_were_sorted();
    NeighborList c, d;
    build_neighbor_list_by_cell<3>(query_grid, qs, dense, false, c);
    build_neighbor_list_by_cell<3>(query_grid, qs, hashed, false, d);
    ASSERT_GT(a.pairs(), 4000u);
    ASSERT_EQ(a.pairs(), b.pairs());
    ASSERT_EQ(c.pairs(), d.pairs());
    for (std::size_t i = 0; i < queries.size(); ++i) {
        const auto la = a.of(i), lb = b.of(i), lc = c.of(i), ld = d.of(i);
        ASSERT_TRUE(std::equal(la.begin(), la.end(), lb.begin(), lb.end())) << "query " << i;
        ASSERT_TRUE(std::equal(lc.begin(), lc.end(), ld.begin(), ld.end())) << "query " << i;
    }
    expect_same_lists(c, brute_force_neighbors<3>(qs, compact, h, false));
}

TEST(NeighborGrid, SpreadBitsInterleaveLikeTheBitByBitDefinition) {
    // Bit k of v goes to bit D·k of the code (the low 21 bits in 3D, all 32 in 2D), whichever
    // way spread_bits is compiled (shifts and masks, or one bit deposit).
    std::mt19937 rng(41);
    for (int t = 0; t < 2000; ++t) {
        const std::uint32_t v = t < 4 ? std::uint32_t(-t) : static_cast<std::uint32_t>(rng());
        for (int d : {2, 3}) {
            std::uint64_t expected = 0;
            for (int k = 0; k < (d == 2 ? 32 : 21); ++k)
                expected |= std::uint64_t((v >> k) & 1u) << (d * k);
            ASSERT_EQ(spread_bits(v, d), expected) << "v = " << v << ", D = " << d;
        }
    }
}

TEST(NeighborGrid, CellByCellNeedsSortedQueries) {
    const auto p = random_points<2>(100, 0.0f, 1.0f, 9);
    NeighborGrid<2> g;
    g.build(p, 0.1f);
    NeighborList out;
    EXPECT_THROW(build_neighbor_list_by_cell<2>(g, p, g, true, out), std::logic_error);
}

TEST(NeighborGrid, RejectsNonPositiveSupport) {
    NeighborGrid<2> g;
    std::vector<Vec<2>> p{Vec<2>(0.0f)};
    EXPECT_THROW(g.build(p, 0.0f), std::invalid_argument);
    EXPECT_THROW(g.build(p, -1.0f), std::invalid_argument);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// The boundary's two grids (fixed particles, then moving bodies'): one list per query holding
// both, the second grid's indices shifted past the first's points, the same sets as a brute
// force over all targets together; also with a crowded second grid (the plain scan).
TEST(NeighborGrid, SecondTargetGridAppendsItsShiftedNeighbours) {
    const float h = 0.08f;
    const auto q = random_points<3>(2500, 0.0f, 1.0f, 21);
    const auto fixed = random_points<3>(1500, 0.0f, 1.0f, 22);
    auto moving = random_points<3>(800, 0.3f, 0.6f, 23);
    const auto pile = random_points<3>(1200, 0.7f, 0.76f, 24);
    moving.insert(moving.end(), pile.begin(), pile.end());
    NeighborGrid<3> fixed_grid, moving_grid, query_grid;
    fixed_grid.build(fixed, h);
    fixed_grid.mark_neighbourhoods();
    moving_grid.build(moving, h);
    moving_grid.mark_neighbourhoods();
    query_grid.build(q, h);
    const std::vector<Vec<3>> qs = permuted<3>(q, query_grid.order());
    query_grid.points_were_sorted();
    NeighborList lists;
    build_neighbor_list_by_cell<3>(query_grid, qs, fixed_grid, false, lists, &moving_grid,
                                   std::uint32_t(fixed.size()));
    std::vector<Vec<3>> all = fixed;
    all.insert(all.end(), moving.begin(), moving.end());
    expect_same_lists(lists, brute_force_neighbors<3>(qs, all, h, false));
}

// The fluid's lists are symmetric, j in i's list exactly when i is in j's: PBF's peak correction
// marks a flagged particle's neighbours instead of asking every particle's own (pbf.cpp). A
// lattice off the origin, so that many pairs sit within rounding of h, jittered by less.
TEST(NeighborGrid, FluidListsAreSymmetric) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> jitter(-1e-6f, 1e-6f);
    const float d = 0.05f, h = 2.0f * d;
    std::vector<Vec<3>> p;
    for (int i = 0; i < 14; ++i)
        for (int j = 0; j < 14; ++j)
            for (int k = 0; k < 14; ++k)
                p.push_back(Vec<3>(1.2345f + d * i + jitter(rng), -0.777f + d * j + jitter(rng),
                                   3.1f + d * k + jitter(rng)));
    NeighborGrid<3> grid;
    grid.build(p, h);
    const std::vector<Vec<3>> sorted = permuted<3>(p, grid.order());
    grid.points_were_sorted();
    NeighborList nb;
    build_neighbor_list_by_cell<3>(grid, sorted, grid, true, nb);
    std::vector<std::set<std::uint32_t>> sets(nb.size());
    std::size_t pairs = 0;
    for (std::size_t i = 0; i < nb.size(); ++i)
        for (std::uint32_t j : nb.of(i)) sets[i].insert(j), ++pairs;
    ASSERT_GT(pairs, 20 * p.size());
    for (std::size_t i = 0; i < nb.size(); ++i)
        for (std::uint32_t j : sets[i])
            ASSERT_TRUE(sets[j].count(static_cast<std::uint32_t>(i)))
                << i << " lists " << j << " but not the other way";
}

}  // namespace
}  // namespace seiche
