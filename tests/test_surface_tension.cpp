// Surface tension, cohesion and adhesion (Akinci, Akinci & Teschner 2013): the kernels against the
// paper's formulas and their integrals, the pair loops against a direct sum, momentum kept, a cube
// of fluid in zero gravity turning round, a drop hanging under a ceiling only with adhesion, and
// the keys refused with their paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <numbers>
#include <random>

#include "scene_helpers.hpp"
#include "seiche/drop_oscillation.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/measure.hpp"
#include "seiche/surface.hpp"
#include "seiche/surface_tension.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

constexpr double pi = std::numbers::pi;

// The paper's formulas as printed (r and h in m): eq. (2) and eq. (7).
double paper_c(double r, double h) {
    const double k = 32.0 / (pi * std::pow(h, 9));
    if (r > h || r <= 0) return 0;
    const double a = std::pow(h - r, 3) * std::pow(r, 3);
    return 2 * r > h ? k * a : k * (2 * a - std::pow(h, 6) / 64);
}
double paper_a(double r, double h) {
    if (!(2 * r > h && r <= h)) return 0;
    return 0.007 / std::pow(h, 3.25) * std::pow(-4 * r * r / h + 6 * r - 2 * h, 0.25);
}

// ∫_0^h f(r) w(r) dr by the midpoint rule, 200,000 steps.
template <class F, class Wt>
double integrate(F f, Wt w, double h) {
    const int n = 200000;
    double s = 0;
    for (int k = 0; k < n; ++k) {
        const double r = (k + 0.5) * h / n;
        s += f(r) * w(r);
    }
    return s * h / n;
}

TEST(SurfaceKernels, MatchThePapersFormulasAndIntegrals) {
    for (float h : {0.02f, 0.1f, 1.0f}) {
        const SurfaceKernels<3> k3(h);
        for (double s : {0.05, 0.3, 0.5, 0.51, 0.75, 0.9, 0.999}) {
            const double r = s * h;
            EXPECT_NEAR(k3.cohesion(float(r)), paper_c(r, h), 2e-5 * std::abs(paper_c(0.75 * h, h))) << h << " " << s;
            EXPECT_NEAR(k3.adhesion(float(r)), paper_a(r, h), 2e-5 * paper_a(0.75 * h, h)) << h << " " << s;
        }
        EXPECT_EQ(k3.cohesion(1.01f * h), 0.0f);
        EXPECT_EQ(k3.adhesion(0.5f * h), 0.0f);
        EXPECT_EQ(k3.adhesion(1.01f * h), 0.0f);
        // Over the ball: the closed form for C, and the same numbers from the code's kernels.
        auto ball = [](double r) { return 4 * pi * r * r; };
        auto disc = [](double r) { return 2 * pi * r; };
        const double c3 = integrate([&](double r) { return paper_c(r, h); }, ball, h);
        const double a3 = integrate([&](double r) { return paper_a(r, h); }, ball, h);
        EXPECT_NEAR(cohesion_integral_3d(), c3, 1e-6 * std::abs(c3));
        EXPECT_NEAR(adhesion_integral_3d(), a3, 1e-4 * a3);  // h drops out: both are dimensionless
        EXPECT_NEAR(integrate([&](double r) { return double(k3.cohesion(float(r))); }, ball, h), c3, 1e-4 * std::abs(c3));
        // 2D: the same shapes, scaled to the same integrals over the disc.
        const SurfaceKernels<2> k2(h);
        EXPECT_NEAR(integrate([&](double r) { return double(k2.cohesion(float(r))); }, disc, h), c3, 1e-4 * std::abs(c3));
        EXPECT_NEAR(integrate([&](double r) { return double(k2.adhesion(float(r))); }, disc, h),
                    integrate([&](double r) { return double(k3.adhesion(float(r))); }, ball, h), 1e-4 * a3);
        EXPECT_NEAR(k2.cohesion(0.3f * h) / k2.cohesion(0.8f * h), paper_c(0.3 * h, h) / paper_c(0.8 * h, h), 1e-4);
    }
    // The shape: repulsive very near (C < 0 at 0.1 h), attractive beyond.
    const SurfaceKernels<3> k(1.0f);
    EXPECT_LT(k.cohesion(0.1f), 0.0f);
    EXPECT_GT(k.cohesion(0.4f), 0.0f);
}

// A cluster of particles jittered off a lattice, with a wall of boundary particles beside it.
template <int D>
struct Cluster {
    std::vector<Vec<D>> x, bx;
    std::vector<float> rho, bvolume, adhesion;
    NeighborList nb, bnb;
    float mass = 0, h = 0;
    CubicSpline<D> kernel{1.0f};

    explicit Cluster(float d) : h(2 * d), kernel(2 * d) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> jitter(-0.2f * d, 0.2f * d);
        const int n = D == 3 ? 6 : 12;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                for (int k = 0; k < (D == 3 ? n : 1); ++k) {
                    Vec<D> p;
                    p[0] = i * d + jitter(rng);
                    p[1] = j * d + jitter(rng);
                    if constexpr (D == 3) p[2] = k * d + jitter(rng);
                    x.push_back(p);
                }
        for (int i = -2; i < n + 2; ++i)  // a floor of boundary particles under it
            for (int k = (D == 3 ? -2 : 0); k < (D == 3 ? n + 2 : 1); ++k) {
                Vec<D> p;
                p[0] = i * d;
                p[1] = -0.75f * d;
                if constexpr (D == 3) p[2] = k * d;
                bx.push_back(p);
                bvolume.push_back(float(std::pow(d, D)) * (0.8f + 0.01f * float(bx.size() % 7)));
                adhesion.push_back(3.0f * 1000.0f * bvolume.back());
            }
        NeighborGrid<D> grid, bgrid;
        grid.build(x, h);
        bgrid.build(bx, h);
        build_neighbor_list<D>(grid, x, true, nb);
        build_neighbor_list<D>(bgrid, x, false, bnb);
        mass = 1000.0f * float(std::pow(d, D));
        rho.resize(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) rho[i] = 950.0f + float(i % 11) * 10.0f;
    }
    FluidView<D> view() const { return {x, mass, 1000.0f, nb, bx, bvolume, bnb, {}, 0.0f}; }
};

// The pair loops (eight particles per lane) against the paper's sums written out per particle.
template <int D>
void expect_direct_sums() {
    Cluster<D> c(0.01f);
    const SurfaceKernels<D> sk(c.h);
    const float gamma = 0.7f;
    std::vector<Float4> x_rho(c.x.size()), records(c.x.size());
    std::vector<Vec<D>> normal(c.x.size()), a(c.x.size());
    surface_accelerations<D>(c.view(), c.kernel, sk, gamma, c.adhesion, c.rho, x_rho, records, a);
    for (std::size_t i = 0; i < c.x.size(); ++i)
        for (int k = 0; k < D; ++k) normal[i][k] = (&records[i].x)[k];
    std::vector<Vec<D>> n_direct(c.x.size(), Vec<D>(0.0f));
    for (std::size_t i = 0; i < c.x.size(); ++i)
        for (std::size_t j = 0; j < c.x.size(); ++j) {
            const Vec<D> r = c.x[i] - c.x[j];
            if (glm::length(r) < c.h) n_direct[i] += c.h * c.mass / c.rho[j] * c.kernel.grad_W(r, glm::length(r));
        }
    float scale = 0;
    for (const auto& v : a) scale = std::max(scale, glm::length(v));
    ASSERT_GT(scale, 0.0f);
    // Without adhesion every term is a pair's, equal and opposite (K_ij symmetric, C(r) x̂_ij and
    // n_i − n_j antisymmetric): the accelerations of equal masses sum to zero.
    std::vector<Vec<D>> free_a(c.x.size());
    surface_accelerations<D>(c.view(), c.kernel, sk, gamma, {}, c.rho, x_rho, records, free_a);
    glm::dvec3 total(0.0);
    double magnitude = 0;
    for (const auto& v : free_a) {
        for (int k = 0; k < D; ++k) total[k] += v[k];
        magnitude += glm::length(v);
    }
    EXPECT_LT(glm::length(total), 1e-5 * magnitude);
    for (std::size_t i = 0; i < c.x.size(); ++i) {
        EXPECT_NEAR(glm::length(normal[i] - n_direct[i]), 0.0f, 1e-4f * (1.0f + glm::length(n_direct[i]))) << i;
        Vec<D> sum(0.0f);
        for (std::size_t j = 0; j < c.x.size(); ++j) {
            const Vec<D> r = c.x[i] - c.x[j];
            const float len = glm::length(r);
            if (j == i || len >= c.h) continue;
            const float K = 2000.0f / (c.rho[i] + c.rho[j]);
            sum += -gamma * K * (c.mass * sk.cohesion(len) / len * r + n_direct[i] - n_direct[j]);
        }
        for (std::size_t k = 0; k < c.bx.size(); ++k) {
            const Vec<D> r = c.x[i] - c.bx[k];
            const float len = glm::length(r);
            if (len < c.h) sum -= c.adhesion[k] * sk.adhesion(len) / len * r;
        }
        EXPECT_NEAR(glm::length(a[i] - sum), 0.0f, 2e-4f * scale) << "particle " << i;
    }
}

TEST(SurfaceTension, PairLoopsEqualTheDirectSums2D) { expect_direct_sums<2>(); }
TEST(SurfaceTension, PairLoopsEqualTheDirectSums3D) { expect_direct_sums<3>(); }

// The sphericity π^⅓ (6V)^⅔ / A of the reconstructed surface (1 for a ball, 0.81 for a cube).
double sphericity(const World<3>& w) {
    const auto& x = w.particles().x;
    const SurfaceMesh m = reconstruct_surface<3>(std::span<const Vec<3>>(x.data(), x.size()),
                                                 w.particles().radius, SurfaceParams{});
    double area = 0, volume = 0;
    for (std::size_t t = 0; t < m.index.size(); t += 3) {
        glm::dvec3 p[3];
        for (int k = 0; k < 3; ++k)
            p[k] = {m.position[3 * m.index[t + k]], m.position[3 * m.index[t + k] + 1], m.position[3 * m.index[t + k] + 2]};
        const glm::dvec3 c = glm::cross(p[1] - p[0], p[2] - p[0]);
        area += 0.5 * glm::length(c);
        volume += glm::dot(p[0], glm::cross(p[1], p[2])) / 6.0;
    }
    return std::cbrt(pi) * std::pow(6.0 * std::abs(volume), 2.0 / 3.0) / area;
}

// The largest distance of a particle from the particles' centre, m: whether a drop is one piece.
template <int D>
double furthest_from_centre(const World<D>& w) {
    using V = glm::vec<D, double>;
    V centre(0.0);
    for (const auto& x : w.particles().x) centre += V(x);
    centre /= double(w.particles().size());
    double furthest = 0;
    for (const auto& x : w.particles().x) furthest = std::max(furthest, glm::length(V(x) - centre));
    return furthest;
}

// A 0.1 m cube (3D) or square (2D) of fluid in the middle of a 0.3 m box, in zero gravity.
WorldDef zero_g_block(int dimension, double radius, SolverType solver, double gamma) {
    WorldDef def;
    def.dimension = dimension;
    def.particle_radius = radius;
    def.gravity = {0, 0, 0};
    const double z = dimension == 3 ? 1 : 0;
    def.container_max = {0.3, 0.3, 0.3 * z};
    def.fluid = {{{0.1, 0.1, 0.1 * z}, {0.2, 0.2, 0.2 * z}, {}}};
    def.solver.type = solver;
    def.solver.surface_tension = gamma;
    return def;
}

// A cube of fluid in zero gravity becomes a ball (sphericity at least 0.95 after 1 s) with
// surface tension, and stays one piece: no particle further from the centre than the ball's
// radius + 2 spacings. Without, it stays cube-like. Its momentum stays zero: every pair term is
// equal and opposite.
class CubeToSphere : public ::testing::TestWithParam<SolverType> {};

TEST_P(CubeToSphere, BecomesRoundAndKeepsItsMomentum) {
    World<3> plain(zero_g_block(3, 0.005, GetParam(), 0.0));
    World<3> w(zero_g_block(3, 0.005, GetParam(), 1.0));
    const double before = sphericity(w);
    double drift = 0, speed = 0;  // |Σ v| / N and the largest Σ |v| / N over the run, m/s
    AdvanceOptions o;
    o.on_step = [&](const StepStats&) {
        glm::dvec3 p(0.0);
        double s = 0;
        for (const auto& v : w.particles().v) p += glm::dvec3(v), s += glm::length(glm::dvec3(v));
        drift = std::max(drift, glm::length(p) / double(w.particles().size()));
        speed = std::max(speed, s / double(w.particles().size()));
        return true;
    };
    EXPECT_EQ(w.advance_to(1.0, o).status, AdvanceResult::Status::reached);
    EXPECT_EQ(plain.advance_to(1.0).status, AdvanceResult::Status::reached);
    const double after = sphericity(w), without = sphericity(plain);
    const double furthest = furthest_from_centre(w);
    const double radius = std::cbrt(3.0 / (4 * pi)) * 0.1;  // the ball of the cube's volume
    std::printf("%s: sphericity %.3f -> %.3f (without surface tension %.3f); furthest particle %.4f m "
                "(ball %.4f m); momentum |Σv|/N up to %.2e m/s, mean speed up to %.3f m/s\n",
                std::string(solver_name(GetParam())).c_str(), before, after, without, furthest, radius,
                drift, speed);
    EXPECT_LT(before, 0.9);
    EXPECT_GE(after, 0.95);
    EXPECT_LT(without, 0.9);
    EXPECT_LT(furthest, radius + 0.02);
    // The pair terms alone cancel to 1e-5 (PairLoopsEqualTheDirectSums); measured over the run:
    // PBF 1.6e-4, WCSPH 3.6e-4, DDR 8.4e-4 of the mean speed.
    EXPECT_LT(drift, 2e-3 * speed);
}

INSTANTIATE_TEST_SUITE_P(All, CubeToSphere,
                         ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

// The circularity 4πA/P² of the reconstructed 2D outline (1 for a disc, π/4 = 0.785 for a sharp
// square): its area and perimeter from the closed curves' segments.
double circularity(const World<2>& w) {
    const auto& x = w.particles().x;
    // The colour field over 6 particle radii, not the default 4: the default outline follows
    // single surface particles, and their bumps alone cost a relaxed disc about 3% of its
    // circularity (0.95–0.97 from 0.25 s on, not rising with time); the wider field measures the
    // shape (a square then reads 0.839, a relaxed disc 0.97–0.98).
    SurfaceParams params;
    params.smoothing_radius = 6.0;
    const SurfaceMesh m = reconstruct_surface<2>(std::span<const Vec<2>>(x.data(), x.size()),
                                                 w.particles().radius, params);
    double area = 0, perimeter = 0;
    for (std::size_t s = 0; s < m.face_count(); ++s) {
        const std::uint32_t a = m.index[2 * s], b = m.index[2 * s + 1];
        const double ax = m.position[3 * a], ay = m.position[3 * a + 1];
        const double bx = m.position[3 * b], by = m.position[3 * b + 1];
        area += 0.5 * (ax * by - bx * ay);
        perimeter += std::hypot(bx - ax, by - ay);
    }
    return 4 * pi * std::abs(area) / (perimeter * perimeter);
}

// The 2D case of CubeToSphere: a square of fluid in zero gravity becomes a disc (circularity at
// least 0.95 after 1 s) with surface tension and stays one piece; without, it stays square-like.
class SquareToDisc : public ::testing::TestWithParam<SolverType> {};

TEST_P(SquareToDisc, BecomesRoundAndStaysOnePiece) {
    World<2> w(zero_g_block(2, 0.0025, GetParam(), 1.0)), plain(zero_g_block(2, 0.0025, GetParam(), 0.0));
    const double before = circularity(w);
    EXPECT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
    EXPECT_EQ(plain.advance_to(1.0).status, AdvanceResult::Status::reached);
    const double after = circularity(w), without = circularity(plain);
    const double furthest = furthest_from_centre(w);
    const double radius = 0.1 / std::sqrt(pi);  // the disc of the square's area
    std::printf("%s: circularity %.3f -> %.3f (without surface tension %.3f); furthest particle %.4f m "
                "(disc %.4f m)\n",
                std::string(solver_name(GetParam())).c_str(), before, after, without, furthest, radius);
    EXPECT_LT(before, 0.9);
    EXPECT_GE(after, 0.95);
    EXPECT_LT(without, 0.9);
    EXPECT_LT(furthest, radius + 0.01);
}

INSTANTIATE_TEST_SUITE_P(All, SquareToDisc,
                         ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

// A block of water (6 × 3 × 6 particles) under the lid of the container: with adhesion to the
// walls it stays hanging for 1 s; without, it falls to the floor. β = 100 pulls the top layer up
// with about 14 g; γ = 5 holds the layers below to it (with γ = 2 half of the block tears off).
TEST(Adhesion, DropHangsUnderTheLidOnlyWithAdhesion) {
    auto fall = [](double beta) {
        WorldDef def;
        def.dimension = 3;
        def.particle_radius = 0.005;
        def.container_max = {0.2, 0.3, 0.2};
        def.fluid = {{{0.07, 0.27, 0.07}, {0.13, 0.3, 0.13}, {}}};
        def.container_adhesion = beta;
        def.solver.surface_tension = 5.0;
        World<3> w(def);
        EXPECT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
        double lowest = 1;
        for (const auto& x : w.particles().x) lowest = std::min(lowest, double(x.y));
        return lowest;
    };
    const double with = fall(100.0), without = fall(0.0);
    std::printf("lowest particle after 1 s: %.4f m with adhesion, %.4f m without\n", with, without);
    EXPECT_GT(with, 0.2);
    EXPECT_LT(without, 0.05);
}

// The shipped scene of three equal drops on plates of adhesion 0, 8 and 30: after 1.5 s each
// rests as a cap whose contact angle falls as β grows. Measured: 69°, 64°, 11° — slowly up to
// β ≈ 11 (61°), then the drop spreads into a film (13° at β = 12): adhesion then beats the
// drop's cohesion (γ = 2).
TEST(Adhesion, ContactAngleFallsAsAdhesionGrows) {
    World<3> w(io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/droplets_on_plates_3d.json"));
    EXPECT_EQ(w.advance_to(1.5).status, AdvanceResult::Status::reached);
    std::vector<double> angles;
    for (std::size_t b = 0; b < 3; ++b) {
        const auto& plate = w.boundary_objects()[w.body_object(b)];
        const float top = plate.position.y + plate.shape.max.y;
        glm::dvec3 c(0.0);
        int n = 0;
        for (const auto& x : w.particles().x)
            if (std::abs(x.x - plate.position.x) < 0.07f) c += glm::dvec3(x), ++n;
        ASSERT_GT(n, 0);
        c /= double(n);
        const std::span<const Vec<3>> xs(w.particles().x.data(), w.particles().x.size());
        angles.push_back(contact_angle<3>(xs, w.particles().radius, top, float(c.x), float(c.z), 0.07f) *
                         180.0 / pi);
        std::printf("%s: contact angle %.1f deg (%d particles)\n", plate.name.c_str(), angles.back(), n);
    }
    EXPECT_GT(angles[0], angles[1] + 2.0);
    EXPECT_GT(angles[1], angles[2] + 30.0);
}

// No clumping at the free surface: the 2D dam break after 0.6 s with surface tension (γ = 1)
// has no more particles whose nearest neighbour is closer than 0.8 of the rest spacing than
// without (the cohesion kernel is repulsive at short range, C < 0 below about h/5), and its
// surface particles (fewer than 5 neighbours within 1.5 spacings) keep the same neighbour
// count on average, within 10%.
TEST(SurfaceTension, NoClumpingAtTheFreeSurface) {
    auto measure = [](double gamma) {
        // PBF's own 2 ms steps, those the counts were measured at: under the depth bound the
        // column's first steps are 1.78 ms, and the splash at 0.6 s, chaotic, reads 3.80 / 3.44
        // surface neighbours (1.10) where these steps read 3.76 / 3.51 (1.07).
        World<2> w(io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json",
                                  {"solver.surface_tension=" + std::to_string(gamma),
                                   "time.max_dt=0.002"}));
        EXPECT_EQ(w.advance_to(0.6).status, AdvanceResult::Status::reached);
        const auto& x = w.particles().x;
        const float d = 2 * w.particles().radius;
        std::size_t close = 0, surface = 0, surface_neighbours = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            float nearest = 1e9f;
            std::size_t near = 0;
            for (std::size_t j = 0; j < x.size(); ++j) {
                if (j == i) continue;
                const float r = glm::length(x[i] - x[j]);
                nearest = std::min(nearest, r);
                near += r < 1.5f * d ? 1 : 0;
            }
            close += nearest < 0.8f * d ? 1 : 0;
            if (near < 5) ++surface, surface_neighbours += near;
        }
        return std::tuple{close, surface, double(surface_neighbours) / double(std::max<std::size_t>(surface, 1))};
    };
    const auto [close_with, surface_with, mean_with] = measure(1.0);
    const auto [close_without, surface_without, mean_without] = measure(0.0);
    std::printf("pairs closer than 0.8 d: %zu with surface tension, %zu without; surface particles %zu / %zu "
                "with %.2f / %.2f neighbours\n",
                close_with, close_without, surface_with, surface_without, mean_with, mean_without);
    EXPECT_LE(close_with, close_without + 5);
    EXPECT_NEAR(mean_with, mean_without, 0.1 * mean_without);
}

// The airborne fluid of a run, grouped into pieces: particles closer than 1.5 spacings belong
// to one piece. Returns the sizes of the pieces, largest first.
std::vector<std::size_t> airborne_pieces(const std::vector<Vec<2>>& x, float d, float above) {
    std::vector<std::size_t> air;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i].y > above) air.push_back(i);
    std::vector<std::size_t> parent(air.size());
    for (std::size_t k = 0; k < air.size(); ++k) parent[k] = k;
    auto root = [&](std::size_t k) {
        while (parent[k] != k) k = parent[k] = parent[parent[k]];
        return k;
    };
    for (std::size_t a = 0; a < air.size(); ++a)
        for (std::size_t b = a + 1; b < air.size(); ++b)
            if (glm::length(x[air[a]] - x[air[b]]) < 1.5f * d) parent[root(a)] = root(b);
    std::map<std::size_t, std::size_t> size;
    for (std::size_t k = 0; k < air.size(); ++k) ++size[root(k)];
    std::vector<std::size_t> out;
    for (const auto& [r, n] : size) out.push_back(n);
    std::sort(out.rbegin(), out.rend());
    return out;
}

// Plateau–Rayleigh: the shipped 2D jet (a 12 mm sheet falling from an emitter, PBF) breaks into
// drops with surface tension; without it, it sprays. Counted at t = 0.5 s over the fluid more
// than 5 cm above the pool. Measured: with γ = 1, 396 airborne particles, 7 pieces of 5 or
// more, 2.5% of the particles in smaller pieces (4–6% at t = 0.3, 0.4, 0.6 s); without, 67%
// (53–81%). The pieces of 5 or more are counted at t = 0.3, 0.4, 0.5 and 0.6 s and added up: at
// one instant the spray's few clumps can outnumber the drops (on an Intel Xeon's bits, 6 against
// 5 at 0.5 s alone); over the four, 33 against 12 there.
TEST(SurfaceTension, AJetBreaksIntoDropsOnlyWithSurfaceTension) {
    struct Pieces {
        std::size_t airborne = 0, drops = 0, largest = 0;
        double spray = 0;  //!< the fraction of airborne particles in pieces of fewer than 5
        std::size_t drops_over_time = 0;  //!< pieces of 5 or more at t = 0.3, 0.4, 0.5, 0.6 s
    };
    auto measure = [](double gamma) {
        World<2> w(io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/jet_breakup_2d.json",
                                  {"solver.surface_tension=" + std::to_string(gamma)}));
        Pieces out;
        for (double t : {0.3, 0.4, 0.5, 0.6}) {
            EXPECT_EQ(w.advance_to(t).status, AdvanceResult::Status::reached);
            const auto p = airborne_pieces(w.particles().x, 2 * w.particles().radius, 0.05f);
            Pieces now;
            std::size_t small = 0;
            for (std::size_t n : p) {
                now.airborne += n;
                n < 5 ? small += n : ++now.drops;
            }
            out.drops_over_time += now.drops;
            if (t != 0.5) continue;
            now.largest = p.empty() ? 0 : p.front();
            now.spray = double(small) / double(std::max<std::size_t>(now.airborne, 1));
            now.drops_over_time = out.drops_over_time;
            out = now;
        }
        return out;
    };
    const Pieces with = measure(1.0), without = measure(0.0);
    std::printf(
        "with surface tension: %zu airborne particles, %zu pieces of 5 or more, the "
        "largest %zu, spray %.3f; without: %zu, %zu, %zu, %.3f; pieces of 5 or more at "
        "0.3-0.6 s: %zu with, %zu without\n",
        with.airborne, with.drops, with.largest, with.spray, without.airborne, without.drops,
        without.largest, without.spray, with.drops_over_time, without.drops_over_time);
    ASSERT_GT(with.airborne, 200u);
    ASSERT_GT(without.airborne, 200u);
    EXPECT_GE(with.drops, 4u);                      // drops, not one sheet
    EXPECT_LT(with.largest, with.airborne / 2);
    EXPECT_LT(with.spray, 0.15);                    // and not spray
    EXPECT_GT(without.spray, 0.3);                  // without surface tension: spray
    EXPECT_LT(without.drops_over_time, with.drops_over_time);
}

// σ_eff is proportional to γ: the calibration's drop (2D, R/d = 20) from one start at γ = 0.5
// and at γ = 2 rings for several half periods with the same σ_eff/γ, to the last bits, for every
// solver. Every time scale of the surface forces is ∝ 1/√γ (the kick, the protocol's times, the
// step through World::suggested_dt; WCSPH's and DDR's sound speed), and √4 = 2 exactly, so the
// two drops take the same steps. A term of the step that did not scale so shows at once: PBF's
// fixed 2 ms step before the capillary bound gave 3.50 and 3.01 per unit γ. (Starts
// that differ otherwise, even by rounding, relax to other packings: single drops scatter by ±20%,
// and `seiche validate surface_tension` compares the medians of ensembles; docs/solvers.md.)
// This replaces a check that three drops at γ = 0.5, 1, 2 from the symmetric start fell within
// 10% of each other: that held by chance for that start and PBF only.
TEST(SurfaceTension, CalibrationDropRingsInProportionToGamma) {
    for (SolverType solver : solver_types) {
        const DropOscillation a = oscillating_drop<2>(solver, 0.5, 0.00125);
        const DropOscillation b = oscillating_drop<2>(solver, 2.0, 0.00125);
        std::printf("%s: gamma 0.5: period %.4f s over %d half periods, sigma_eff %.4f N/m (%.5f per "
                    "gamma); gamma 2: %.4f s, %d, %.4f N/m (%.5f)\n",
                    std::string(solver_name(solver)).c_str(), a.period, a.half_periods, a.sigma,
                    a.sigma / 0.5, b.period, b.half_periods, b.sigma, b.sigma / 2.0);
        // It rings: at least three half periods, a period and a half. (This was four until the
        // surface passes were split, 2026-11-25; that changed the rounding, and WCSPH's symmetric
        // start then rang three. A single start's count depends on its packing: of 192 seeded WCSPH
        // drops of the validation, 12% rang fewer than four and 3% fewer than three.)
        EXPECT_GE(a.half_periods, 3);
        EXPECT_EQ(a.half_periods, b.half_periods);
        EXPECT_NEAR(b.period / a.period, 0.5, 1e-9);
        EXPECT_NEAR((b.sigma / 2.0) / (a.sigma / 0.5), 1.0, 1e-6);
        // So does the fitted sinusoid's reading (its grid is in units of the extrema's ω).
        EXPECT_NEAR(b.fitted_period / a.fitted_period, 0.5, 1e-9);
        EXPECT_NEAR((b.fitted_sigma / 2.0) / (a.fitted_sigma / 0.5), 1.0, 1e-6);
    }
}

// Adhesion's reaction reaches a dynamic body: in zero gravity a free box r from a block of water
// (γ = 1, WCSPH). Without adhesion the water's edge, bulging as the square rounds, pushes the box
// away (+0.435 N·s/m after 0.3 s); with β = 20 box and water are pulled together, meet, and the
// box keeps +0.18: the meeting rebounds the more, the stiffer the water (0.06 at a speed of sound
// of 20 m/s, 0.20 at 30; the automatic one is 23 here). WCSPH: its forces are explicit, so the
// box's pull is the reaction of eq. (6) alone (the other solvers: StickyContact below).
TEST(Adhesion, ItsReactionPullsAFreeBody) {
    auto box_momentum = [](double beta) {
        WorldDef def;
        def.dimension = 2;
        def.particle_radius = 0.005;
        def.gravity = {0, 0, 0};
        def.container_max = {1.0, 0.6, 0};
        def.fluid = {{{0.2, 0.2, 0}, {0.4, 0.4, 0}, {}}};
        def.solver.type = SolverType::wcsph;
        def.solver.surface_tension = 1.0;
        BodyDef box;
        box.size = {0.1, 0.2, 0};
        box.position = {0.455, 0.3, 0};  // its left face 1 cm from the water's last particles
        box.motion = BodyMotion::dynamic;
        box.density = 500;
        box.adhesion = beta;
        def.bodies = {box};
        World<2> w(def);
        EXPECT_EQ(w.advance_to(0.3).status, AdvanceResult::Status::reached);
        return double(w.body_mass(0)) * w.boundary_objects()[w.body_object(0)].velocity.x;
    };
    const double with = box_momentum(20.0), without = box_momentum(0.0);
    std::printf("box momentum after 0.3 s: %.5f N·s/m with adhesion, %.5f without\n", with, without);
    EXPECT_GT(without, 0.2);
    EXPECT_LT(with, without - 0.2);
}

// Adhesion's pull is explicit, so the step and the speed guard take its largest acceleration,
// adhesion_acceleration_per_beta·β (World's surface-force speed). A lone particle (its density
// under ρ0: PBF corrects nothing) at rest in zero gravity, one step of 0.1 µs beside walls of
// β = 1: its pull is v/Δt. Over distances from a flat floor and from a corner (each wall alike)
// the largest must lie under the constant and near it, at both radii: it does not depend on r.
template <int D>
double largest_adhesion_pull(double r) {
    double largest = 0;
    for (bool corner : {false, true})
        for (int k = 0; k <= 24; ++k) {
            const double h = 4 * r, at = (0.25 + 0.6 * k / 24) * h;
            WorldDef def;
            def.dimension = D;
            def.particle_radius = r;
            def.gravity = {0, 0, 0};
            def.container_max = {0.1, 0.1, D == 3 ? 0.1 : 0.0};
            def.container_adhesion = 1.0;
            def.fluid = {{{0.04, 0.04, 0.04}, {0.04 + 2 * r, 0.04 + 2 * r, 0.04 + 2 * r}, {}}};
            def.solver.xsph = 0;
            def.time.mode = TimeParams::Mode::fixed;
            World<D> w(def);
            if (w.particles().size() != 1) ADD_FAILURE() << w.particles().size() << " particles";
            Vec<D> x(0.05f);
            for (int a = 0; a < D; ++a)
                if (corner || a == 1) x[a] = float(at);
            w.set_positions(std::span<const Vec<D>>(&x, 1));
            const double dt = 1e-7;
            w.step(dt);
            largest = std::max(largest, double(glm::length(w.particles().v[0])) / dt);
        }
    return largest;
}

TEST(Adhesion, ItsStepBoundHoldsItsLargestPull) {
    for (double r : {0.005, 0.0025}) {
        const double a2 = largest_adhesion_pull<2>(r), a3 = largest_adhesion_pull<3>(r);
        std::printf("r = %.4f m: largest pull per unit beta %.3f m/s2 (2D), %.3f (3D); bound %.1f\n", r, a2,
                    a3, adhesion_acceleration_per_beta);
        EXPECT_LE(a2, adhesion_acceleration_per_beta);
        EXPECT_LE(a3, adhesion_acceleration_per_beta);
        EXPECT_GT(std::max(a2, a3), 0.9 * adhesion_acceleration_per_beta);
    }
}

// Every solver: a free box with β = 20 beside a block of water in zero gravity (no surface
// tension), at the solver's own steps, which adhesion's largest pull bounds. The water clings to
// the box, and the momentum of water and box together stays 0: the reaction of eq. (6) is taken
// at the positions the fluid's side used, and so is the walls' reaction to the solver's boundary
// term. (Taken after the step had moved them by Δt²·a, a box held beside resting water read
// +43 N/m from water whose momentum did not change: A(r) rises as a fourth root from h/2, where a
// particle on a wall sits.)
class StickyContact : public ::testing::TestWithParam<SolverType> {};

TEST_P(StickyContact, KeepsMomentum) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.gravity = {0, 0, 0};
    def.container_max = {1.0, 0.6, 0};
    def.fluid = {{{0.2, 0.2, 0}, {0.4, 0.4, 0}, {}}};
    def.solver.type = GetParam();
    def.solver.xsph = 0;  // XSPH is not momentum-conserving at a free surface
    BodyDef box;
    box.size = {0.1, 0.2, 0};
    box.position = {0.455, 0.3, 0};
    box.motion = BodyMotion::dynamic;
    box.density = 500;
    box.adhesion = 20;
    def.bodies = {box};
    World<2> w(def);
    EXPECT_EQ(w.advance_to(0.3).status, AdvanceResult::Status::reached);
    double fluid = 0;
    for (const auto& v : w.particles().v) fluid += double(w.particles().mass) * v.x;
    const auto& b = w.boundary_objects()[w.body_object(0)];
    const double body = double(w.body_mass(0)) * b.velocity.x;
    std::printf("%s: box momentum %.4f N·s/m, water %.4f N·s/m, sum %.2e\n",
                std::string(solver_name(GetParam())).c_str(), body, fluid, body + fluid);
    // Measured (PBF): box +0.105, water −0.105 N·s/m, summed −1.5·10⁻⁵ of the 57 N·s/m the
    // adhesion exchanged over the run. Before PBF's and DDR's wall reactions were taken where
    // their pushes were (PBF's first λ pass, DDR's predicted positions; not the corrected ones):
    // PBF box +0.128, water −0.183, summed −0.056; DDR summed −0.0066 where the box had 0.036.
    // Before the adhesion's own fix PBF's box was flung to +9.75 with the water at +1.88.
    // DFSPH: box +0.592, summed +8·10⁻⁷. Before adhesion bounded the step its steps of up to 5 ms
    // shook the water until a particle passed the speed guard (1.2 m/s at t = 0.037 s, the guard
    // 1 m/s: adhesion had no part in it either). Box and water meet 8 ms in at 0.17 m/s (the
    // box's speed, every solver alike); DFSPH's meeting rebounds, and its box leaves at 0.06 m/s
    // where the others' stop (0.01): a rebound, not a fling, so its gate is 1.
    EXPECT_LT(std::abs(body), GetParam() == SolverType::dfsph ? 1.0 : 0.5);
    EXPECT_LT(std::abs(body + fluid), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(All, StickyContact,
                         ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

// The calibration's drop at another size: the drop holds the lattice's innermost sites of the
// volume asked for, so its radius is within a spacing of it, in a box large enough (6R) that it
// rings away from the walls; a drop under five particle radii is refused, not run.
TEST(SurfaceTension, CalibrationDropTakesTheRadiusAskedFor) {
    const double r = 0.0025;
    for (double R : {0.025, 0.1}) {
        const DropOscillation o = oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, R);
        EXPECT_NEAR(o.radius, R, 2 * r) << R;
        EXPECT_GE(o.half_periods, 1) << R;
        EXPECT_TRUE(std::isfinite(o.sigma)) << R;
    }
    EXPECT_THROW(oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, 4 * r), std::invalid_argument);
    EXPECT_THROW(oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, -0.05), std::invalid_argument);
    EXPECT_THROW(oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, NAN), std::invalid_argument);
}

// The drop's speed of sound (DropFluid::speed_of_sound) reaches the solvers that resolve sound
// and no other: WCSPH's small 2D drop moves otherwise at a tenth of its automatic c, PBF's drop
// keeps its bits; a negative or NaN speed is refused.
TEST(SurfaceTension, CalibrationDropTakesTheSpeedOfSoundAskedFor) {
    const double r = 0.0025, R = 0.025;
    DropFluid slow;
    slow.speed_of_sound = std::sqrt(130.0 * 4 * r);  // a tenth of the automatic 10·√(130 γ h), h = 4r
    const DropOscillation wc = oscillating_drop<2>(SolverType::wcsph, 1.0, r, 0.3, 0, R);
    const DropOscillation wc_slow = oscillating_drop<2>(SolverType::wcsph, 1.0, r, 0.3, 0, R, slow);
    ASSERT_EQ(wc.signal.size(), wc_slow.signal.size());
    EXPECT_NE(wc.signal.back().second, wc_slow.signal.back().second);
    const DropOscillation pbf = oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, R);
    const DropOscillation pbf_slow = oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, R, slow);
    ASSERT_EQ(pbf.signal.size(), pbf_slow.signal.size());
    for (std::size_t k = 0; k < pbf.signal.size(); ++k) EXPECT_EQ(pbf.signal[k].second, pbf_slow.signal[k].second) << k;
    for (const double c : {-1.0, double(NAN)}) {
        DropFluid bad;
        bad.speed_of_sound = c;
        EXPECT_THROW(oscillating_drop<2>(SolverType::wcsph, 1.0, r, 0.3, 0, R, bad), std::invalid_argument) << c;
    }
}

// The fitted sinusoid's window is the caller's (DropFluid::fit_extremum): the same run, read to the
// fourth and to the sixth extremum, moves the same way and reads another period; a window of
// fewer than two extrema, or past a hundred, is refused. A drop that rings (Wendland C2 at
// h = 2.5d, as AWendlandDropRingsAsASurfaceNotAPacking): the cubic spline's small 2D drop swings
// chaotically, 3 to 7 half periods by where it lies (the rounding of its coordinates).
TEST(SurfaceTension, CalibrationDropFitsTheWindowAskedFor) {
    const double r = 0.0025, R = 0.025;
    const DropFluid ringing{KernelType::wendland_c2, 5.0, 3.0};
    DropFluid longer = ringing;
    longer.fit_extremum = 6;
    const DropOscillation a = oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, R, ringing);
    const DropOscillation b = oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, R, longer);
    ASSERT_EQ(a.signal.size(), b.signal.size());
    for (std::size_t k = 0; k < a.signal.size(); ++k) EXPECT_EQ(a.signal[k].second, b.signal[k].second) << k;
    ASSERT_GE(a.half_periods, 5);
    EXPECT_EQ(a.sigma, b.sigma);
    ASSERT_TRUE(std::isfinite(a.fitted_sigma) && std::isfinite(b.fitted_sigma));
    EXPECT_NE(a.fitted_sigma, b.fitted_sigma);
    for (const int bad : {1, 0, -3, 101}) {
        DropFluid f;
        f.fit_extremum = bad;
        EXPECT_THROW(oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, 0, R, f), std::invalid_argument) << bad;
    }
}

// The calibration's period comes from a damped sinusoid fitted to the drop's swings: on a known
// one, offset and with a ripple of 2% of its swing at 30 times its frequency laid over it (a drop's
// particle noise), the fit finds ω and λ from a guess 15% off; a guess or samples it cannot use are
// refused.
TEST(SurfaceTension, DampedSineFitFindsFrequencyAndDecay) {
    for (const double decay : {0.0, 0.45, -0.1}) {
        std::vector<std::pair<double, double>> signal;
        for (double t = 0; t <= 2.9; t += 0.002)
            signal.emplace_back(t, 0.004 + 0.13 * std::exp(-decay * t) * std::sin(3.7 * t + 0.2) +
                                       0.0026 * std::sin(111 * t + 1));
        for (const double guess : {3.7 * 0.85, 3.7 * 1.15}) {
            const DampedSine fit = fit_damped_sine(signal, guess);
            EXPECT_NEAR(fit.omega, 3.7, 0.005 * 3.7) << decay << " " << guess;
            EXPECT_NEAR(fit.decay, decay, 0.02) << decay << " " << guess;
            EXPECT_LT(fit.residual, 0.003 * 0.003 * double(signal.size()));
        }
    }
    const std::vector<std::pair<double, double>> few(5, {0.0, 0.0}), many(20, {0.0, 0.0});
    EXPECT_THROW(fit_damped_sine(few, 3.0), std::invalid_argument);
    EXPECT_THROW(fit_damped_sine(many, 0.0), std::invalid_argument);
    EXPECT_THROW(fit_damped_sine(many, NAN), std::invalid_argument);
    std::vector<std::pair<double, double>> holed(many);
    holed[7].second = NAN;
    EXPECT_THROW(fit_damped_sine(holed, 3.0), std::invalid_argument);
}

// Akinci's cohesion as a pair potential, U(r) = −γ m² ∫_r^h C: cutting a 2D fluid of n = 1/d²
// particles a square metre along a line costs σ = −n² ∫ U r² dr = γ ρ0² ∫ C(r) r³/3 dr a metre
// (m = ρ0 d²): the surface tension the cohesion stands for.
double bond_sigma_2d(double gamma, float h) {
    const SurfaceKernels<2> sk(h);
    const int n = 4000;
    double sum = 0;
    for (int k = 0; k <= n; ++k) {  // Simpson's rule over [0, h]
        const double r = h * double(k) / n, w = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
        sum += w * double(sk.cohesion(float(r))) * r * r * r / 3;
    }
    return gamma * 1000.0 * 1000.0 * sum * (h / n) / 3;
}

// The calibration's drop (2D, r = 1.25 mm, R = 5 cm, γ = 1, three jittered starts): with the cubic
// spline at h = 2d its period reads a σ_eff some 26 times the bond energy's, the packing ringing
// as an elastic body; with Wendland C2 at h = 2.5d (relaxed and followed three times as long) the
// drop rings about its round shape, through the other elongation, with a σ_eff of the bond
// energy's order (measured 1.5 times it).
TEST(SurfaceTension, AWendlandDropRingsAsASurfaceNotAPacking) {
    const double r = 0.00125;
    std::vector<double> cubic, wendland;
    double swing = 1;
    for (unsigned seed : {1u, 2u, 3u}) {
        cubic.push_back(oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, seed).sigma);
        const DropOscillation o = oscillating_drop<2>(SolverType::pbf, 1.0, r, 0.3, seed, 0.05,
                                                      {KernelType::wendland_c2, 5.0, 3.0});
        wendland.push_back(o.sigma);
        // From its first elongation the drop swings through round to the other one.
        double first = 0, after = 0;
        for (const auto& [t, s] : o.signal) {
            if (t < 0.8) first = std::max(first, s);
            else if (t < 2.0) after = std::min(after, s);
        }
        swing = std::min(swing, -after / first);
    }
    std::sort(cubic.begin(), cubic.end());
    std::sort(wendland.begin(), wendland.end());
    const double cubic_bond = bond_sigma_2d(1.0, float(4 * r)), wendland_bond = bond_sigma_2d(1.0, float(5 * r));
    EXPECT_GT(cubic[1] / cubic_bond, 10.0) << cubic[1] << " against " << cubic_bond;
    EXPECT_GT(wendland[1] / wendland_bond, 0.5) << wendland[1] << " against " << wendland_bond;
    EXPECT_LT(wendland[1] / wendland_bond, 2.5) << wendland[1] << " against " << wendland_bond;
    EXPECT_GT(swing, 0.3);
    // The library's bond energy (the validation's) is this one.
    EXPECT_NEAR(bond_surface_tension_2d(1.0, float(5 * r), 1000.0) / wendland_bond, 1.0, 1e-4);
}

// The 3D bond energy counted pair by pair: a lattice of spacing d = h/16 cut by the plane z = 0,
// every pair across it within h at the pair potential U(r) = −γ m² ∫_r^h C (m = ρ0 d³), one
// column of particles above the plane per d² of it; σ = −E/2 (the cut makes two surfaces). The
// library's closed form, (π/8) γ ρ0² ∫ C r⁴ dr, is that sum's continuum limit.
TEST(SurfaceTension, BondEnergyIn3DIsThePairsAPlaneCuts) {
    const float h = 0.00625f;
    const double rho0 = 1000, gamma = 1, d = double(h) / 16, m = rho0 * d * d * d;
    const SurfaceKernels<3> sk(h);
    const int table = 20000;  // ∫_r^h C by the trapezoidal rule, from h down
    std::vector<double> tail(table + 1, 0.0);
    for (int k = table - 1; k >= 0; --k)
        tail[k] = tail[k + 1] + 0.5 * double(h) / table *
                                    (double(sk.cohesion(float(h * double(k) / table))) +
                                     double(sk.cohesion(float(h * double(k + 1) / table))));
    double energy = 0;  // per square metre of the plane
    for (int above = 0; above < 16; ++above)
        for (int below = 0; below < 16; ++below)
            for (int a = -16; a <= 16; ++a)
                for (int b = -16; b <= 16; ++b) {
                    const double dz = (above + below + 1) * d, r = std::sqrt((a * a + b * b) * d * d + dz * dz);
                    if (r >= double(h)) continue;
                    const double u = r / double(h) * table;
                    const int k = int(u);
                    energy += -gamma * m * m * (tail[k] + (u - k) * (tail[k + 1] - tail[k]));
                }
    energy /= d * d;
    EXPECT_NEAR(-energy / 2 / bond_surface_tension_3d(gamma, h, rho0), 1.0, 0.01);
}

// The calibration's drop in 3D (docs/solvers.md): the Wendland kernel at h = 2.5 spacings, R/d = 10
// (R = 2.5 cm at r = 1.25 mm, about 4,200 particles), kicked to about 9% of deformation. Its
// surface holds ten times the 2D drop's particles, and single drops from different starts ring
// alike: their σ_eff, fitted to the sixth extremum as the calibration reads it, within 5% of each
// other's median, of the order of the cohesion's 3D bond energy (about 3.7 times it), through
// about ten half periods.
TEST(SurfaceTension, Wendland3DDropsRingAlikeFromEveryStart) {
    const double r = 0.00125;
    std::vector<double> sigma;
    int half_periods = 100;
    for (unsigned seed : {1u, 2u, 3u, 4u}) {
        const DropOscillation o = oscillating_drop<3>(SolverType::pbf, 1.0, r, 1.0, seed, 0.025,
                                                      {KernelType::wendland_c2, 5.0, 3.0, 0.0, 6});
        sigma.push_back(o.fitted_sigma);
        half_periods = std::min(half_periods, o.half_periods);
    }
    std::vector<double> sorted = sigma;
    std::sort(sorted.begin(), sorted.end());
    const double median = 0.5 * (sorted[1] + sorted[2]), bond = bond_surface_tension_3d(1.0, float(5 * r), 1000.0);
    for (double s : sigma) EXPECT_NEAR(s / median, 1.0, 0.05) << s << " against the median " << median;
    EXPECT_GT(median / bond, 2.0) << median << " against " << bond;
    EXPECT_LT(median / bond, 6.0) << median << " against " << bond;
    EXPECT_GE(half_periods, 8);
}

TEST(SurfaceTension, BadValuesAreRefusedWithTheirPath) {
    using test::scene_error;
    EXPECT_EQ(scene_error("scenes/dam_break_2d.json", "solver.surface_tension=-1"),
              "solver.surface_tension: expected a number in [0, 1000], got -1");
    EXPECT_EQ(scene_error("scenes/dam_break_2d.json", "container.adhesion=2000"),
              "container.adhesion: expected a number in [0, 1000], got 2000");
    EXPECT_EQ(scene_error("scenes/floating_box_2d.json", "bodies[0].adhesion=-0.5"),
              "bodies[0].adhesion: expected a number in [0, 1000], got -0.5");
    EXPECT_EQ(scene_error("scenes/dam_break_2d.json", "solver.surface_tension=\"strong\""),
              "solver.surface_tension: expected a number in [0, 1000], got a string (\"strong\")");
}

}  // namespace
}  // namespace seiche
