// XSPH and vorticity confinement on velocity fields with known answers.
#include <gtest/gtest.h>

#include "seiche/forces.hpp"
#include "seiche/kernels.hpp"
#include "seiche/pbf.hpp"
#include "../src/solvers/pbf_passes.hpp"
#include "../src/neighbors/pair_lanes.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace seiche {
namespace {

// A block of particles on a lattice with its neighbour lists and densities; no boundary.
template <int D>
struct Block {
    std::vector<Vec<D>> x;
    std::vector<float> rho;
    NeighborList nb, none;
    float mass;
    CubicSpline<D> kernel;

    Block(int n, float d) : kernel(2.0f * d) {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                for (int k = 0; k < (D == 3 ? n : 1); ++k) {
                    Vec<D> p;
                    p[0] = i * d;
                    p[1] = j * d;
                    if constexpr (D == 3) p[2] = k * d;
                    x.push_back(p);
                }
        NeighborGrid<D> grid;
        grid.build(x, kernel.support());
        build_neighbor_list<D>(grid, x, true, nb);
        none = NeighborList::none(x.size());
        mass = 1000.0f / float(lattice_sums<D>(kernel, d).w);
        rho.resize(x.size());
        compute_density<D>(view(), kernel, rho);
    }
    FluidView<D> view() const {
        return {x, mass, 1000.0f, nb, {}, {}, none, {}, 0.0f};  // no boundary, no objects
    }
    bool interior(std::size_t i, float margin) const {
        const Vec<D> c = x.back() * 0.5f;
        for (int a = 0; a < D; ++a)
            if (std::abs(x[i][a] - c[a]) > margin) return false;
        return true;
    }
};

TEST(Forces, XsphLeavesUniformFlowAlone) {
    Block<2> b(20, 0.01f);
    std::vector<Vec<2>> v(b.x.size(), Vec<2>(1.5f, -0.5f)), out(b.x.size());
    xsph_viscosity<2>(b.view(), b.kernel, 0.5f, b.rho, v, out);
    for (const auto& u : out) {
        EXPECT_FLOAT_EQ(u.x, 1.5f);
        EXPECT_FLOAT_EQ(u.y, -0.5f);
    }
}

TEST(Forces, XsphPullsTowardsNeighbourAverage) {
    Block<2> b(20, 0.01f);
    std::vector<Vec<2>> v(b.x.size(), Vec<2>(0.0f)), out(b.x.size());
    const std::size_t mid = 10 * 20 + 10;
    v[mid] = Vec<2>(1.0f, 0.0f);
    xsph_viscosity<2>(b.view(), b.kernel, 0.1f, b.rho, v, out);
    EXPECT_LT(out[mid].x, 1.0f);
    EXPECT_GT(out[mid].x, 0.8f);
    for (std::uint32_t j : b.nb.of(mid)) EXPECT_GT(out[j].x, 0.0f);
}

// Solid-body rotation with angular velocity Ω: the vorticity is 2Ω everywhere.
TEST(Forces, VorticityOfSolidBodyRotation2D) {
    Block<2> b(30, 0.01f);
    const float omega = 3.0f;
    const Vec<2> c = b.x.back() * 0.5f;
    std::vector<Vec<2>> v(b.x.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Vec<2> r = b.x[i] - c;
        v[i] = omega * Vec<2>(-r.y, r.x);
    }
    std::vector<float> w;
    auto v0 = v;
    vorticity_confinement<2>(b.view(), b.kernel, 1.0f, 0.01f, b.rho, v, w);
    int checked = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!b.interior(i, 0.1f)) continue;
        EXPECT_NEAR(w[i], 2 * omega, 0.02 * 2 * omega);
        // |ω| is uniform inside, so the confinement force (at most dt·ε·|ω| = 0.06 m/s here)
        // nearly vanishes: what is left comes from SPH noise in |ω|.
        EXPECT_LT(glm::length(v[i] - v0[i]), 0.05f * 0.01f * 1.0f * 2 * omega);
        ++checked;
    }
    EXPECT_GT(checked, 100);
}

TEST(Forces, VorticityOfSolidBodyRotation3D) {
    Block<3> b(14, 0.01f);
    const Vec<3> omega(0.0f, 0.0f, 2.0f);
    const Vec<3> c = b.x.back() * 0.5f;
    std::vector<Vec<3>> v(b.x.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = glm::cross(omega, b.x[i] - c);
    std::vector<Vec<3>> w;
    vorticity_confinement<3>(b.view(), b.kernel, 0.0f, 0.01f, b.rho, v, w);
    int checked = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!b.interior(i, 0.035f)) continue;
        // The SPH difference curl over-reads by 2.0% in 3D at two spacings per support radius
        // (its moment Σ V (x_j − x_i) ⊗ ∇W is 1.02·I on the lattice), so 3% here.
        EXPECT_NEAR(w[i].z, 2 * omega.z, 0.03 * 2 * omega.z);
        EXPECT_NEAR(w[i].x, 0.0f, 1e-3f);
        ++checked;
    }
    EXPECT_GT(checked, 50);
}

// A vortex core: |ω| peaks at the centre, so N points inwards and N × ω pushes tangentially in
// the direction of the rotation, spinning the core up (Fedkiw et al. 2001).
TEST(Forces, ConfinementSpinsUpAVortexCore2D) {
    Block<2> b(40, 0.01f);
    const Vec<2> c = b.x.back() * 0.5f;
    std::vector<Vec<2>> v(b.x.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Vec<2> r = b.x[i] - c;
        v[i] = 5.0f * std::exp(-glm::dot(r, r) / 0.01f) * Vec<2>(-r.y, r.x);  // counter-clockwise
    }
    auto v0 = v;
    std::vector<float> w;
    vorticity_confinement<2>(b.view(), b.kernel, 0.5f, 0.01f, b.rho, v, w);
    double spin_up = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Vec<2> r = b.x[i] - c;
        if (glm::length(r) > 0.1f || glm::length(r) < 0.02f) continue;
        const Vec<2> tangent = Vec<2>(-r.y, r.x) / glm::length(r);
        spin_up += glm::dot(v[i] - v0[i], tangent);
    }
    EXPECT_GT(spin_up, 0.0);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// The pair loops walk eight lists side by side (src/neighbors/pair_lanes.hpp), one row of eight
// indices per step (NeighborList). Past the end of a shorter list a lane reads what its row holds
// there (0); the lanes' masks must drop it: the same loops on rows that hold other indices there
// give the same bits. And the lane kernels (1/r from rsqrt and a Newton step) agree with a plain
// double-precision sum.
// Offsets of up to ±0.3 d from a fixed seed (a linear congruential generator).
struct Jitter {
    std::uint32_t seed;
    float d;
    float operator()() {
        seed = seed * 1664525u + 1013904223u;
        return (float(seed >> 8) / float(1u << 24) - 0.5f) * 0.6f * d;
    }
};

// A cube of n³ lattice sites of spacing d, each moved by the jitter.
std::vector<Vec<3>> jittered_cube(int n, Jitter& jitter) {
    std::vector<Vec<3>> x;
    const float d = jitter.d;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) x.emplace_back(i * d + jitter(), j * d + jitter(), k * d + jitter());
    return x;
}

// The lane versions of the kernels (pair_lanes_body.hpp) are the scalar ones of kernels.hpp, for
// every kernel, from near the centre to past the support.
template <class K>
void check_lane_kernel(const K& k) {
    using namespace lanes;
    const float h = k.support();
    for (float start : {0.02f, 0.07f}) {
        Points<3> xi{F{}, F{}, F{}}, pj{F{}, F{}, F{}};
        for (int l = 0; l < width; ++l) pj.y[l] = h * (start + 0.13f * float(l));
        const Separation r = separation<3>(xi, pj);
        const F w = W(k, r), g = grad_factor(k, r);
        const float w_scale = k.W(0.0f), g_scale = std::abs(k.grad_factor(0.3f * h));
        for (int l = 0; l < width; ++l) {
            const float len = pj.y[l];
            EXPECT_NEAR(w[l], k.W(len), 2e-6f * w_scale) << "q = " << len / h;
            EXPECT_NEAR(g[l], k.grad_factor(len), 2e-5f * g_scale) << "q = " << len / h;
        }
    }
}

TEST(PairLanes, LaneKernelsAreTheScalarOnes) {
    check_lane_kernel(CubicSpline<3>(0.02f));
    check_lane_kernel(Poly6Spiky<3>(0.02f));
    check_lane_kernel(WendlandC2<3>(0.025f));
}

TEST(PairLanes, WhatARowHoldsPastAListsEndDoesNotCountAndTheSumsAreThoseOfAPlainLoop) {
    const float d = 0.01f;
    Jitter jitter{12345, d};
    const std::vector<Vec<3>> x = jittered_cube(13, jitter);  // 2197: the last group of eight is short
    const CubicSpline<3> kernel(2.0f * d);
    NeighborGrid<3> grid;
    grid.build(x, kernel.support());
    // Rows of 16-bit indices (this few particles) and of 32-bit ones (wide_only): the same sums,
    // to the bit.
    std::vector<float> rho_width[2];
    for (const bool wide : {false, true}) {
        SCOPED_TRACE(wide ? "32-bit rows" : "16-bit rows");
        NeighborList rows;
        rows.wide_only = wide;
        build_neighbor_list<3>(grid, x, true, rows);
        ASSERT_EQ(rows.group_row.size(), (x.size() + 7) / 8);
        // The same lists, with another particle's index (one within reach of the lane's particle)
        // where a row holds 0 past a shorter list's end.
        NeighborList other;
        other.wide_only = wide;
        build_neighbor_list<3>(grid, x, true, other);
        std::size_t past_end = 0;
        for (std::size_t g = 0; g < other.group_row.size(); ++g) {
            std::size_t longest = 0;
            for (std::size_t i = 8 * g; i < std::min(x.size(), 8 * g + 8); ++i)
                longest = std::max(longest, other.of(i).size());
            const auto poke = [&](auto* r) {
                using T = std::remove_pointer_t<decltype(r)>;
                for (std::size_t l = 0; l < 8; ++l) {
                    const std::size_t i = std::min(x.size() - 1, 8 * g + l);
                    const std::size_t n = 8 * g + l < x.size() ? other.of(i).size() : 0;
                    for (std::size_t k = n; k < longest; ++k, ++past_end) {
                        ASSERT_EQ(r[8 * k + l], 0u);
                        r[8 * k + l] = static_cast<T>(i == 0 ? 1 : i - 1);
                    }
                }
            };
            if (other.narrow)
                poke(other.rows<std::uint16_t>(g));
            else
                poke(other.rows<std::uint32_t>(g));
        }
        ASSERT_GT(past_end, 1000u);
        const NeighborList none = NeighborList::none(x.size());
        const float mass = 1000.0f / float(lattice_sums<3>(kernel, d).w);
        const FluidView<3> vr{x, mass, 1000.0f, rows, {}, {}, none, {}, 0.0f};
        const FluidView<3> vo{x, mass, 1000.0f, other, {}, {}, none, {}, 0.0f};
        std::vector<float> rho_r(x.size()), rho_o(x.size());
        compute_density<3>(vr, kernel, rho_r);
        compute_density<3>(vo, kernel, rho_o);
        std::vector<Vec<3>> v(x.size()), out_r(x.size()), out_o(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) v[i] = Vec<3>(jitter(), jitter(), jitter()) * 100.0f;
        xsph_viscosity<3>(vr, kernel, 0.3f, rho_r, v, out_r);
        xsph_viscosity<3>(vo, kernel, 0.3f, rho_o, v, out_o);
        for (std::size_t i = 0; i < x.size(); ++i) {
            ASSERT_EQ(rho_r[i], rho_o[i]) << i;
            for (int a = 0; a < 3; ++a) ASSERT_EQ(out_r[i][a], out_o[i][a]) << i;
            double plain = mass * kernel.W(0.0f);
            for (std::uint32_t j : rows.of(i)) plain += mass * kernel.W(glm::length(x[i] - x[j]));
            EXPECT_NEAR(rho_r[i], plain, 2e-5 * plain) << i;
        }
        ASSERT_EQ(rows.narrow, !wide);
        rho_width[wide] = rho_r;
    }
    ASSERT_EQ(rho_width[0], rho_width[1]);
}

// With room for one more position (FluidView::x_padded, as the world keeps it) PBF's λ pass
// and XSPH load each neighbour's position with one 16-byte load that takes a float past the
// record: what lies there must not count. A NaN is left in the spare slot, and the padded
// passes must give the bits of the masked ones.
TEST(PairLanes, PaddedPositionsGiveTheBitsOfMaskedLoads) {
    const float d = 0.01f;
    Jitter jitter{777, d};
    std::vector<Vec<3>> x = jittered_cube(11, jitter);  // 1331: the last group of eight is short
    x.reserve(x.size() + 1);
    x.push_back(Vec<3>(std::numeric_limits<float>::quiet_NaN()));
    x.pop_back();  // the NaN stays in the spare slot, one float past the last record
    ASSERT_GT(x.capacity(), x.size());
    const CubicSpline<3> kernel(2.0f * d);
    NeighborGrid<3> grid;
    grid.build(x, kernel.support());
    NeighborList nb;
    build_neighbor_list<3>(grid, x, true, nb);
    const NeighborList none = NeighborList::none(x.size());
    const float mass = 1000.0f / float(lattice_sums<3>(kernel, d).w);
    FluidView<3> masked{x, mass, 1000.0f, nb, {}, {}, none, {}, 0.0f};
    FluidView<3> padded = masked;
    padded.x_padded = true;
    // PBF: density and λ'.
    PbfParams params;
    const PbfConstants c = pbf_constants<3>(params, kernel, mass, 1000.0f, d);
    std::vector<float> rho_m(x.size()), rho_p(x.size());
    std::vector<PositionLambda> xl_m(x.size()), xl_p(x.size());
    PbfState<3> kept;
    kept.resize(x.size());
    pbf_lambda_pass<3>(params, c, kernel, masked, rho_m, xl_m, kept.boundary);
    pbf_lambda_pass<3>(params, c, kernel, padded, rho_p, xl_p, kept.boundary);
    // XSPH with the density of the current positions.
    std::vector<Vec<3>> v(x.size()), v_m(x.size()), v_p(x.size());
    for (auto& vi : v) vi = Vec<3>(jitter(), jitter(), jitter()) * 100.0f;
    std::vector<float> r_m(x.size()), r_p(x.size());
    xsph_viscosity_and_density<3>(masked, kernel, 0.3f, rho_m, v, v_m, r_m);
    xsph_viscosity_and_density<3>(padded, kernel, 0.3f, rho_m, v, v_p, r_p);
    bool compressed = false;
    for (std::size_t i = 0; i < x.size(); ++i) {
        ASSERT_TRUE(std::isfinite(rho_p[i]) && std::isfinite(xl_p[i].w)) << i;
        ASSERT_EQ(rho_p[i], rho_m[i]) << i;
        ASSERT_EQ(xl_p[i].w, xl_m[i].w) << i;
        ASSERT_EQ(r_p[i], r_m[i]) << i;
        for (int a = 0; a < 3; ++a) ASSERT_EQ(v_p[i][a], v_m[i][a]) << i;
        compressed = compressed || xl_m[i].w != 0.0f;
    }
    EXPECT_TRUE(compressed);  // some λ' is not 0: the λ pass compared more than zeros
}

// With AVX-512 the PBF λ and Δx passes run sixteen lanes wide (seiche::lanes16: two row groups
// of the lists per vector), the others eight (seiche::lanes). Each lane adds its pairs in list
// order either way, so the two must give the same bits: here a pass-like loop (density, the
// gradient sums, a 16-byte record's fourth value, the records stored back) on both widths, over
// lists whose groups end short (a group of eight past its lists' end reads zeros) and a last
// group of sixteen with one row group only.
#define SEICHE_LANE_SUMS(NS)                                                                      \
    void lane_sums_##NS(const CubicSpline<3>& kernel, const std::vector<Vec<3>>& x,               \
                        const NeighborList& nb, const std::vector<Float4>& rec,                   \
                        std::vector<float>& out, std::vector<Float4>& stored) {                   \
        using namespace NS;                                                                       \
        out.assign(4 * x.size(), 0.0f);                                                           \
        stored.assign(x.size(), Float4{});                                                        \
        for_each_group(x.size(), [&](std::size_t i0, int n) {                                     \
            const Points<3> xi = load_points<3>(x.data(), i0, n);                                 \
            F w{}, g0{}, s2{}, four{};                                                            \
            const Lists l(nb, i0, n);                                                             \
            for (int k = 0; k < l.longest(); ++k) {                                               \
                Index j[width];                                                                   \
                l.fetch(k, j);                                                                    \
                const I m = l.active(k);                                                          \
                const Separation r = separation<3>(xi, fetch_points<3>(x.data(), j));             \
                const Points4 q = fetch_points4(&rec[0].x, j);                                    \
                w += keep(m, W(kernel, r));                                                       \
                const F gf = keep(m, grad_factor(kernel, r));                                     \
                g0 += gf * r.x;                                                                   \
                s2 += gf * gf * r.len2;                                                           \
                four += keep(m, q.w * q.y);                                                       \
            }                                                                                     \
            for (int a = 0; a < n; ++a) {                                                         \
                out[4 * (i0 + a)] = w[a];                                                         \
                out[4 * (i0 + a) + 1] = g0[a];                                                    \
                out[4 * (i0 + a) + 2] = s2[a];                                                    \
                out[4 * (i0 + a) + 3] = four[a];                                                  \
            }                                                                                     \
            store_points4(&stored[0].x, i0, n, w, g0, s2, max(four, F{}));                        \
        });                                                                                       \
    }
#ifdef SEICHE_LANES_AVX512
SEICHE_LANE_SUMS(lanes)
SEICHE_LANE_SUMS(lanes16)
#endif
#undef SEICHE_LANE_SUMS

// The library says which loops it compiled, and they are the loops this file compiled (the same
// SEICHE_PAIR_LANES for every target: otherwise the lane helpers, inline in both, would differ).
TEST(PairLanes, TheLibraryNamesTheLoopsItRuns) {
    const std::string d(pair_loops_description());
#if defined(SEICHE_LANES_WIDE)
    EXPECT_NE(d.find("(WIDE)"), std::string::npos) << d;
#elif defined(SEICHE_LANES_PBF16)
    EXPECT_NE(d.find("(WIDE_SQRT)"), std::string::npos) << d;
#elif defined(SEICHE_LANES_AVX512)
    EXPECT_NE(d.find("(NARROW)"), std::string::npos) << d;
#elif defined(SEICHE_LANES_AVX2)
    EXPECT_EQ(d.rfind("AVX2", 0), 0u) << d;
#else
    EXPECT_EQ(d.rfind("no AVX2", 0), 0u) << d;
#endif
}

TEST(PairLanes, SixteenLanesGiveTheBitsOfEight) {
#ifndef SEICHE_LANES_AVX512
    GTEST_SKIP() << "no AVX-512 in this build: every pass runs eight lanes wide";
#else
    const float d = 0.01f;
    Jitter jitter{4242, d};
    const std::vector<Vec<3>> x = jittered_cube(13, jitter);  // 2197 = 137 · 16 + 5
    const CubicSpline<3> kernel(2.0f * d);
    NeighborGrid<3> grid;
    grid.build(x, kernel.support());
    NeighborList nb;
    build_neighbor_list<3>(grid, x, true, nb);
    std::vector<Float4> rec(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) rec[i] = {x[i].x, jitter(), x[i].z, float(i)};
    std::vector<float> s8, s16;
    std::vector<Float4> st8, st16;
    lane_sums_lanes(kernel, x, nb, rec, s8, st8);
    lane_sums_lanes16(kernel, x, nb, rec, s16, st16);
    ASSERT_EQ(s8.size(), s16.size());
    std::size_t differ = 0, pairs = 0;
    for (std::size_t i = 0; i < s8.size(); ++i)
        differ += std::memcmp(&s8[i], &s16[i], sizeof(float)) != 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        differ += std::memcmp(&st8[i], &st16[i], sizeof(Float4)) != 0;
        pairs += nb.of(i).size();
        // The sums are the lists' sums: the density against a plain loop.
        double plain = 0.0;
        for (std::uint32_t j : nb.of(i)) plain += kernel.W(glm::length(x[i] - x[j]));
        EXPECT_NEAR(s16[4 * i], plain, 2e-5 * (plain + kernel.W(0.0f))) << i;
    }
    EXPECT_GT(pairs, 20 * x.size());  // 26 a particle, the cube's faces included
    EXPECT_EQ(differ, 0u);
#endif
}

}  // namespace
}  // namespace seiche
