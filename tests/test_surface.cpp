// Surface meshes: the generated case tables, closed manifold meshes with the right volume and
// orientation, flat pools, separate components, narrow band = full field, 2D outlines.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "../src/surface/marching_cases.hpp"
#include "seiche/parallel.hpp"
#include "seiche/surface.hpp"

namespace seiche {
namespace {

constexpr float r = 0.01f;  // particle radius, m
constexpr float d = 2 * r;  // rest spacing

std::vector<Vec<3>> ball(Vec<3> centre, float radius) {
    std::vector<Vec<3>> x;
    const int n = int(radius / d) + 1;
    for (int i = -n; i <= n; ++i)
        for (int j = -n; j <= n; ++j)
            for (int k = -n; k <= n; ++k) {
                const Vec<3> p = Vec<3>(float(i), float(j), float(k)) * d;
                if (glm::length(p) <= radius) x.push_back(centre + p);
            }
    return x;
}

Vec<3> vertex(const SurfaceMesh& m, std::uint32_t i) {
    return {m.position[3 * i], m.position[3 * i + 1], m.position[3 * i + 2]};
}
Vec<3> normal(const SurfaceMesh& m, std::uint32_t i) {
    return {m.normal[3 * i], m.normal[3 * i + 1], m.normal[3 * i + 2]};
}

// Every directed edge once and its reverse once: closed, manifold, consistently oriented.
void expect_closed_manifold(const SurfaceMesh& m) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        const std::uint32_t* t = &m.index[3 * f];
        ASSERT_TRUE(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) << "repeated vertex, face " << f;
        const Vec<3> a = vertex(m, t[0]), b = vertex(m, t[1]), c = vertex(m, t[2]);
        ASSERT_GT(glm::length(glm::cross(b - a, c - a)), 1e-12f) << "degenerate face " << f;
        for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
    }
    for (const auto& [e, count] : directed) {
        ASSERT_EQ(count, 1) << "edge " << e.first << "-" << e.second << " used twice one way";
        ASSERT_TRUE(directed.count({e.second, e.first})) << "open edge " << e.first;
    }
}

double enclosed_volume(const SurfaceMesh& m) {
    double v = 0;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        const Vec<3> a = vertex(m, m.index[3 * f]), b = vertex(m, m.index[3 * f + 1]),
                     c = vertex(m, m.index[3 * f + 2]);
        v += double(glm::dot(a, glm::cross(b, c))) / 6.0;
    }
    return v;
}

int components(const SurfaceMesh& m) {
    std::vector<std::uint32_t> parent(m.vertex_count());
    std::iota(parent.begin(), parent.end(), 0u);
    auto root = [&](std::uint32_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    for (std::size_t k = 0; k + 1 < m.index.size(); ++k)
        if ((k + 1) % 3 != 0) parent[root(m.index[k])] = root(m.index[k + 1]);
    std::set<std::uint32_t> roots;
    for (std::uint32_t i = 0; i < m.vertex_count(); ++i) roots.insert(root(i));
    return int(roots.size());
}

TEST(MarchingCases, EveryCrossedEdgeOnceIn3DAndIn2D) {
    const auto& t3 = surface::marching_cases<3>();
    for (int mask = 0; mask < 256; ++mask) {
        std::array<int, 12> seen{};
        for (const auto& loop : t3.cases[mask].loops) {
            EXPECT_GE(loop.edges.size(), 3u);
            for (auto e : loop.edges) ++seen[e];
        }
        for (int e = 0; e < 12; ++e) {
            const int a = t3.edge_corner[e], b = a | 1 << t3.edge_axis[e];
            const bool crossed = ((mask >> a) & 1) != ((mask >> b) & 1);
            EXPECT_EQ(seen[e], crossed ? 1 : 0) << "case " << mask << " edge " << e;
        }
    }
    EXPECT_TRUE(t3.cases[0].loops.empty());
    EXPECT_EQ(t3.cases[1].loops.size(), 1u);           // one corner: one triangle
    EXPECT_EQ(t3.cases[0b10000001].loops.size(), 2u);  // opposite corners stay apart
    const auto& t2 = surface::marching_cases<2>();
    EXPECT_EQ(t2.cases[0b1001].loops.size(), 2u);  // saddle: inside corners kept apart
    EXPECT_EQ(t2.cases[0b0011].loops.size(), 1u);
}

TEST(Surface, BallIsClosedManifoldWithItsVolumeAndOutwardNormals) {
    const Vec<3> centre(0.31f, -0.2f, 0.05f);
    const auto x = ball(centre, 10 * d);
    for (double cell : {1.0, 0.6}) {
        SurfaceParams p;
        p.cell_size = cell;
        const SurfaceMesh m = reconstruct_surface<3>(x, r, p);
        ASSERT_GT(m.face_count(), 500u);
        expect_closed_manifold(m);
        const double expected = double(x.size()) * d * d * d;
        EXPECT_NEAR(enclosed_volume(m) / expected, 1.0, 0.05) << "cell " << cell;
        EXPECT_EQ(components(m), 1);
        for (std::uint32_t i = 0; i < m.vertex_count(); ++i) {
            const Vec<3> out = glm::normalize(vertex(m, i) - centre);
            ASSERT_GT(glm::dot(normal(m, i), out), 0.8f) << "vertex " << i;
        }
    }
}

TEST(Surface, SmoothingKeepsTheBallClosedAndItsVolume) {
    const auto x = ball(Vec<3>(0.0f), 8 * d);
    SurfaceParams p;
    p.smoothing_iterations = 10;
    const SurfaceMesh m = reconstruct_surface<3>(x, r, p);
    expect_closed_manifold(m);
    EXPECT_NEAR(enclosed_volume(m) / (double(x.size()) * d * d * d), 1.0, 0.05);
}

TEST(Surface, FlatLayerHasAFlatTopOneRadiusAboveTheParticles) {
    std::vector<Vec<3>> x;
    for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 24; ++k) x.emplace_back(i * d + 0.003f, j * d, k * d - 0.1f);
    const float top = 5 * d;
    for (double cell : {1.0, 0.5}) {
        SurfaceParams p;
        p.cell_size = cell;
        const SurfaceMesh m = reconstruct_surface<3>(x, r, p);
        int checked = 0;
        for (std::uint32_t i = 0; i < m.vertex_count(); ++i) {
            const Vec<3> v = vertex(m, i);
            // The top face, away from the rounded edges (within 2h of a side).
            if (v.y < top || v.x < 8 * r || v.x > 23 * d - 8 * r || v.z < -0.1f + 8 * r ||
                v.z > 23 * d - 0.1f - 8 * r)
                continue;
            ++checked;
            EXPECT_NEAR(v.y, top + r, 0.1f * r) << "cell " << cell;
            EXPECT_GT(normal(m, i).y, 0.99f);
        }
        EXPECT_GT(checked, 100);
    }
}

TEST(Surface, TwoSeparateBlobsGiveTwoComponents) {
    auto x = ball(Vec<3>(0.0f), 5 * d);
    const auto y = ball(Vec<3>(20 * d, 0.0f, 0.0f), 4 * d);
    x.insert(x.end(), y.begin(), y.end());
    const SurfaceMesh m = reconstruct_surface<3>(x, r, {});
    expect_closed_manifold(m);
    EXPECT_EQ(components(m), 2);
}

// The fluid's velocity at the vertices: two separate balls, one still and one moving with
// (1, −2, 0.5) m/s, each vertex takes its own ball's velocity exactly (a normalised average of
// equal values); a shear v = (y, 0, 0) across one ball gives each vertex about its own height.
TEST(Surface, VertexVelocityIsTheFluidsNearby) {
    auto x = ball(Vec<3>(0.0f), 5 * d);
    const std::size_t first = x.size();
    const auto y = ball(Vec<3>(20 * d, 0.0f, 0.0f), 4 * d);
    x.insert(x.end(), y.begin(), y.end());
    std::vector<Vec<3>> v(x.size(), Vec<3>(0.0f));
    for (std::size_t i = first; i < x.size(); ++i) v[i] = Vec<3>(1.0f, -2.0f, 0.5f);
    SurfaceMesh m = reconstruct_surface<3>(x, r, {});
    interpolate_velocity<3>(m, x, v, r, {});
    ASSERT_EQ(m.velocity.size(), m.position.size());
    int moving = 0;
    for (std::uint32_t i = 0; i < m.vertex_count(); ++i) {
        const Vec<3> u(m.velocity[3 * i], m.velocity[3 * i + 1], m.velocity[3 * i + 2]);
        const Vec<3> expected = vertex(m, i).x > 10 * d ? Vec<3>(1.0f, -2.0f, 0.5f) : Vec<3>(0.0f);
        ASSERT_LT(glm::length(u - expected), 1e-5f) << i;
        moving += vertex(m, i).x > 10 * d;
    }
    EXPECT_GT(moving, 100);
    // Shear: within a third of a spacing of the vertex's own height (the average leans inward
    // at the surface, where the particles are all on one side).
    for (std::size_t i = 0; i < x.size(); ++i) v[i] = Vec<3>(x[i].y, 0.0f, 0.0f);
    interpolate_velocity<3>(m, x, v, r, {});
    float worst = 0;
    for (std::uint32_t i = 0; i < m.vertex_count(); ++i)
        worst = std::max(worst, std::abs(m.velocity[3 * i] - vertex(m, i).y));
    EXPECT_LT(worst, 2 * d) << "m/s against heights of ±" << 5 * d << " m";
}

TEST(Surface, NarrowBandGivesTheFullFieldMeshAndIsThreadIndependent) {
    // A jittered block large enough to have deep-interior blocks.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> jitter(-0.1f * r, 0.1f * r);
    std::vector<Vec<3>> x;
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 30; ++j)
            for (int k = 0; k < 30; ++k)
                x.emplace_back(i * d + jitter(rng), j * d + jitter(rng), k * d + jitter(rng));
    SurfaceParams full;
    full.narrow_band = false;
    SurfaceStats band_stats, full_stats;
    const SurfaceMesh a = reconstruct_surface<3>(x, r, {}, &band_stats);
    const SurfaceMesh b = reconstruct_surface<3>(x, r, full, &full_stats);
    EXPECT_GT(band_stats.interior_blocks, 0u);
    EXPECT_EQ(full_stats.interior_blocks, 0u);
    EXPECT_LT(band_stats.field_vertices, full_stats.field_vertices);
    ASSERT_EQ(a.vertex_count(), b.vertex_count());
    ASSERT_EQ(a.index, b.index);
    for (std::size_t i = 0; i < a.position.size(); ++i)
        ASSERT_NEAR(a.position[i], b.position[i], 1e-3f * r);
    expect_closed_manifold(a);

    // One thread against two (the suite runs each test on one thread: tests/CMakeLists.txt).
    set_thread_count(2);
    const SurfaceMesh two = reconstruct_surface<3>(x, r, {});
    set_thread_count(1);
    const SurfaceMesh one = reconstruct_surface<3>(x, r, {});
    set_thread_count(0);
    EXPECT_EQ(two.index, a.index);
    EXPECT_EQ(two.position, a.position);
    EXPECT_EQ(one.index, two.index);
    EXPECT_EQ(one.position, two.position);
}

TEST(Surface, DiscOutlineIsAClosedCounterClockwiseCurveWithTheDiscArea) {
    std::vector<Vec<2>> x;
    const float radius = 12 * d;
    for (int i = -13; i <= 13; ++i)
        for (int j = -13; j <= 13; ++j)
            if (std::hypot(float(i), float(j)) * d <= radius) x.emplace_back(i * d, j * d + 1.0f);
    const SurfaceMesh m = reconstruct_surface<2>(x, r, {});
    ASSERT_EQ(m.dimension, 2);
    ASSERT_GT(m.face_count(), 50u);
    std::vector<int> starts(m.vertex_count()), ends(m.vertex_count());
    double area = 0;
    for (std::size_t s = 0; s < m.face_count(); ++s) {
        const std::uint32_t a = m.index[2 * s], b = m.index[2 * s + 1];
        ++starts[a], ++ends[b];
        area += 0.5 * (double(m.position[3 * a]) * m.position[3 * b + 1] -
                       double(m.position[3 * b]) * m.position[3 * a + 1]);
        EXPECT_EQ(m.position[3 * a + 2], 0.0f);
    }
    for (std::size_t i = 0; i < m.vertex_count(); ++i) {
        ASSERT_EQ(starts[i], 1) << i;
        ASSERT_EQ(ends[i], 1) << i;
    }
    EXPECT_NEAR(area / (double(x.size()) * d * d), 1.0, 0.05);
}

TEST(Surface, BadInputIsRefused) {
    std::vector<Vec<3>> x = ball(Vec<3>(0.0f), 3 * d);
    SurfaceParams p;
    p.iso = 1.5;
    EXPECT_THROW(reconstruct_surface<3>(x, r, p), std::invalid_argument);
    EXPECT_THROW(reconstruct_surface<3>(x, -r, {}), std::invalid_argument);
    x[5].y = std::nanf("");
    try {
        reconstruct_surface<3>(x, r, {});
        FAIL() << "NaN accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("particle 5"), std::string::npos) << e.what();
    }
    EXPECT_EQ(reconstruct_surface<3>(std::vector<Vec<3>>{}, r, {}).face_count(), 0u);
}

}  // namespace
}  // namespace seiche
