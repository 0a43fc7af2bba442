// WCSPH's renormalised pressure gradient (Bonet & Lok 1999, `solver.wcsph.gradient_correction`):
// the matrix itself, and a settled tank whose pressure is the weight of the water above.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "seiche/bodies.hpp"
#include "seiche/scene.hpp"
#include "seiche/wcsph.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

template <int D>
void expect_matrix_near(const Mat<D>& a, const Mat<D>& b, float tol) {
    for (int c = 0; c < D; ++c)
        for (int r = 0; r < D; ++r) EXPECT_NEAR(a[c][r], b[c][r], tol) << "entry " << c << r;
}

// R diag(e) Rᵀ: a symmetric matrix with eigenvalues e along rotated axes.
Mat<3> rotated(float e0, float e1, float e2) {
    const Mat<3> R = rotation_from_euler<3>({0.3, -0.7, 1.1});
    Mat<3> d(0.0f);
    d[0][0] = e0, d[1][1] = e1, d[2][2] = e2;
    return R * d * glm::transpose(R);
}

TEST(GradientCorrection, InvertsACompleteNeighbourhoodAndLeavesAnIncompleteOne) {
    // 2D: the bulk's deficit is inverted whole; a neighbourhood missing half of one side (the
    // free surface) is left alone; between 0.8 and 0.9 the two are blended.
    const Mat<2> bulk(0.986f, 0.004f, 0.004f, 0.97f);
    expect_matrix_near<2>(gradient_correction<2>(bulk), glm::inverse(bulk), 1e-6f);
    expect_matrix_near<2>(gradient_correction<2>(Mat<2>(1.0f, 0.0f, 0.0f, 0.5f)), Mat<2>(1.0f),
                          0.0f);
    const Mat<2> half(0.85f, 0.0f, 0.0f, 1.0f);  // smallest eigenvalue halfway
    expect_matrix_near<2>(gradient_correction<2>(half),
                          0.5f * (Mat<2>(1.0f) + glm::inverse(half)), 1e-5f);
    // 3D, the axes rotated: the smallest eigenvalue is found whatever the axes.
    const Mat<3> full = rotated(0.95f, 0.99f, 1.04f);
    expect_matrix_near<3>(gradient_correction<3>(full), glm::inverse(full), 1e-5f);
    expect_matrix_near<3>(gradient_correction<3>(rotated(1.0f, 0.6f, 1.0f)), Mat<3>(1.0f), 0.0f);
    const Mat<3> mid = rotated(1.02f, 1.0f, 0.85f);
    expect_matrix_near<3>(gradient_correction<3>(mid), 0.5f * (Mat<3>(1.0f) + glm::inverse(mid)),
                          1e-4f);
    // Two equal eigenvalues (the cubic's double root) and a multiple of I.
    expect_matrix_near<3>(gradient_correction<3>(rotated(0.95f, 0.95f, 1.1f)),
                          glm::inverse(rotated(0.95f, 0.95f, 1.1f)), 1e-5f);
    expect_matrix_near<3>(gradient_correction<3>(Mat<3>(0.98f)), Mat<3>(1.0f / 0.98f), 1e-6f);
    // A diagonal that reads as the bulk's while the off-diagonal entries make the smallest
    // eigenvalue a surface's (0.7 and 0.85): decided by the eigenvalue, not the diagonal.
    expect_matrix_near<2>(gradient_correction<2>(Mat<2>(1.0f, 0.3f, 0.3f, 1.0f)), Mat<2>(1.0f),
                          0.0f);
    const Mat<3> sheared(0.95f, 0.1f, 0.1f, 0.1f, 0.95f, 0.1f, 0.1f, 0.1f, 0.95f);  // 0.85, 0.85, 1.15
    expect_matrix_near<3>(gradient_correction<3>(sheared),
                          0.5f * (Mat<3>(1.0f) + glm::inverse(sheared)), 1e-4f);
}

// A 2D tank 30 particles deep, settled for 1.5 s, read over the next 0.5 s: each tenth of the
// depth's mean pressure against the weight of the water above its mean height, g·m·N_above /
// width (the exact hydrostatic pressure of a fluid whatever its compression: WCSPH's is about
// 0.5% denser at the floor). The slope of one against the other is 1 within 0.6% with the
// correction (1.0004 in the 50-deep tank of `seiche validate hydrostatic`); uncorrected it reads
// 1.02-1.025 steep (printed). The walls carry the water's weight, and the corrected pair forces
// are equal and opposite: the fluid's momentum is the walls' impulse and gravity's.
struct TankReading {
    double slope = 0;       // p against the weight above
    double floor_load = 0;  // the container's vertical load over the water's weight
};

TankReading settled_tank(bool correct) {
    Scene s;
    s.dimension = 2;
    s.particle_radius = 0.004;
    s.container_min = {0, 0, 0};
    s.container_max = {0.4, 0.6, 0};
    s.fluid.push_back({{0, 0, 0}, {0.4, 0.4, 0}, {0, 0, 0}});
    s.solver.type = SolverType::wcsph;
    s.solver.kinematic_viscosity = 1e-6;
    s.solver.wcsph.gradient_correction = correct;
    World<2> w(s);
    w.track_boundary_forces(true);
    const double width = 0.4, g = 9.81, m = w.particles().mass;
    const std::size_t n = w.particles().size();
    const double H = double(n) * 4 * s.particle_radius * s.particle_radius / width;
    constexpr int bins = 10;
    std::vector<double> p(bins), weight(bins), t(bins);
    double load = 0, time = 0;
    std::vector<float> z;
    while (w.time() < 3.0 - 1e-9) {
        const StepStats st = w.step(std::min(w.suggested_dt(), 3.0 - w.time()));
        EXPECT_FALSE(st.instability);
        if (st.instability || w.time() < 2.5) continue;
        load += st.dt * w.boundary_objects()[0].force.y;
        time += st.dt;
        z.clear();
        for (const auto& x : w.particles().x) z.push_back(x.y);
        std::vector<float> sorted = z;
        std::sort(sorted.begin(), sorted.end());
        std::vector<double> sp(bins), sz(bins), c(bins);
        for (std::size_t i = 0; i < n; ++i) {
            const int b = std::clamp(int(z[i] / H * bins), 0, bins - 1);
            sp[b] += w.pressure()[i], sz[b] += z[i], c[b] += 1;
        }
        for (int b = 0; b < bins; ++b) {
            if (c[b] == 0) continue;
            const float zb = float(sz[b] / c[b]);
            const auto above = sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), zb);
            p[b] += st.dt * sp[b] / c[b];
            weight[b] += st.dt * g * m * double(above) / width;
            t[b] += st.dt;
        }
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
    for (int b = 0; b < bins; ++b) {
        if (t[b] == 0) continue;
        const double x = weight[b] / t[b], y = p[b] / t[b];
        sx += x, sy += y, sxx += x * x, sxy += x * y, k += 1;
    }
    TankReading r;
    r.slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
    r.floor_load = -load / time / (g * m * double(n));
    return r;
}

TEST(GradientCorrection, TheTanksPressureIsTheWeightOfTheWaterAbove) {
    const TankReading corrected = settled_tank(true);
    const TankReading plain = settled_tank(false);
    std::printf("p against the weight above: corrected %.4f, uncorrected %.4f; "
                "the container's load over the weight %.4f, %.4f\n",
                corrected.slope, plain.slope, corrected.floor_load, plain.floor_load);
    EXPECT_NEAR(corrected.slope, 1.0, 0.006);
    EXPECT_NEAR(corrected.floor_load, 1.0, 0.01);
    // The correction is what brings it there: the plain gradient is short on this packing.
    EXPECT_GT(plain.slope, corrected.slope + 0.01);
}

// Equal and opposite pair forces: a free square of water with no gravity and no walls within
// reach keeps its momentum at zero while its pressure pushes it about (surface tension pulls
// the square round), to the rounding of the sums.
TEST(GradientCorrection, KeepsAFreeDropsMomentum) {
    Scene s;
    s.dimension = 2;
    s.particle_radius = 0.0025;
    s.gravity = {0, 0, 0};
    s.container_min = {0, 0, 0};
    s.container_max = {0.3, 0.3, 0};
    s.fluid.push_back({{0.1, 0.1, 0}, {0.2, 0.2, 0}, {0, 0, 0}});
    s.solver.type = SolverType::wcsph;
    s.solver.surface_tension = 1.0;
    s.solver.wcsph.gradient_correction = true;
    World<2> w(s);
    double worst = 0, speed = 0;
    while (w.time() < 0.2) {
        ASSERT_FALSE(w.step(w.suggested_dt()).instability);
        Vec<2> sum(0.0f);
        double total = 0;
        for (const auto& v : w.particles().v) sum += v, total += glm::length(v);
        worst = std::max(worst, double(glm::length(sum)) / std::max(total, 1e-30));
        speed = std::max(speed, total / double(w.particles().size()));
    }
    EXPECT_GT(speed, 0.01) << "the square is moving";
    EXPECT_LT(worst, 1e-5) << "|Σv| / Σ|v|";
}

}  // namespace
}  // namespace seiche
