// Kernels: partition of unity and zero mean gradient on a lattice, compact support.
#include <gtest/gtest.h>

#include "seiche/kernels.hpp"

namespace seiche {
namespace {

// Σ_j W(x_j)·V and Σ_j ∇W(x_j)·V over a lattice around an off-lattice point p, V = spacing^D.
template <int D, class Fn>
void lattice_sum(float h, float spacing, Vec<D> p, Fn&& fn) {
    const int n = static_cast<int>(h / spacing) + 2;
    for (int a = -n; a <= n; ++a)
        for (int b = -n; b <= n; ++b)
            for (int c = (D == 3 ? -n : 0); c <= (D == 3 ? n : 0); ++c) {
                Vec<D> x;
                x[0] = a * spacing;
                x[1] = b * spacing;
                if constexpr (D == 3) x[2] = c * spacing;
                fn(p - x);
            }
}

template <int D, class K, class WFn>
void check_unity(const K& k, WFn&& w_of, float spacing, Vec<D> p) {
    const float V = std::pow(spacing, D);
    double sum_w = 0, sum_abs_g = 0;
    Vec<D> sum_g(0.0f);
    lattice_sum<D>(k.support(), spacing, p, [&](const Vec<D>& r) {
        const float len = glm::length(r);
        sum_w += w_of(len) * V;
        sum_g += k.grad_W(r, len) * V;
        sum_abs_g += glm::length(k.grad_W(r, len)) * V;
    });
    EXPECT_NEAR(sum_w, 1.0, 0.01) << "D=" << D << " spacing=" << spacing << " p=" << p[0];
    // ∑∇W·V = 0 within 1% of the scale of the sum, ∑|∇W|·V.
    ASSERT_GT(sum_abs_g, 0.0);
    EXPECT_LT(glm::length(sum_g) / sum_abs_g, 0.01) << "D=" << D << " p=" << p[0];
}

template <int D>
void check_all_kernels() {
    const float h = 0.1f;
    CubicSpline<D> cs(h);
    Poly6Spiky<D> ps(h);
    WendlandC2<D> wc(h);
    auto cubic = [&](float r) { return cs.W(r); };
    auto wendland = [&](float r) { return wc.W(r); };
    auto poly6 = [&](float r) { return ps.W(r); };
    auto spiky = [&](float r) { return ps.W_spiky(r); };
    // At a lattice site, with 3 spacings per support radius (seiche uses 2).
    const float spacing = h / 3.0f;
    check_unity<D>(cs, cubic, spacing, Vec<D>(0.0f));
    check_unity<D>(ps, poly6, spacing, Vec<D>(0.0f));
    check_unity<D>(wc, wendland, spacing, Vec<D>(0.0f));
    check_unity<D>(ps, spiky, h / 8.0f, Vec<D>(0.0f));  // its cusp at r = 0 needs more
    // Between lattice sites the sums converge with resolution; 8 spacings per support.
    for (float off : {0.3f, 0.5f}) {
        const float fine = h / 8.0f;
        check_unity<D>(cs, cubic, fine, Vec<D>(off * fine));
        check_unity<D>(ps, poly6, fine, Vec<D>(off * fine));
        check_unity<D>(wc, wendland, fine, Vec<D>(off * fine));
    }
}

TEST(Kernels, PartitionOfUnityAndZeroGradient2D) {
    check_all_kernels<2>();
}
TEST(Kernels, PartitionOfUnityAndZeroGradient3D) {
    check_all_kernels<3>();
}

template <int D, class K>
void check_support(const K& k) {
    const float h = k.support();
    EXPECT_GT(k.W(0.0f), 0.0f);
    EXPECT_GT(k.W(0.99f * h), 0.0f);
    EXPECT_EQ(k.W(h), 0.0f);
    EXPECT_EQ(k.W(1.5f * h), 0.0f);
    Vec<D> r(0.0f);
    r[0] = 1.01f * h;
    EXPECT_EQ(glm::length(k.grad_W(r, glm::length(r))), 0.0f);
    r[0] = 0.5f * h;
    // The gradient with respect to x_i points from i towards j: W decreases with distance.
    EXPECT_LT(k.grad_W(r, glm::length(r))[0], 0.0f);
}

TEST(Kernels, CompactSupport) {
    check_support<2>(CubicSpline<2>(0.2f));
    check_support<3>(CubicSpline<3>(0.2f));
    check_support<2>(Poly6Spiky<2>(0.2f));
    check_support<3>(Poly6Spiky<3>(0.2f));
    check_support<2>(WendlandC2<2>(0.2f));
    check_support<3>(WendlandC2<3>(0.2f));
}

// The gradient is the derivative of W: compare with a central difference.
template <int D, class K>
void check_gradient_matches_derivative(const K& k) {
    const float h = k.support();
    for (float q : {0.2f, 0.45f, 0.55f, 0.8f}) {
        const float r = q * h, e = 1.0e-3f * h;
        Vec<D> v(0.0f);
        v[0] = r;
        const float numeric = (k.W(r + e) - k.W(r - e)) / (2 * e);
        EXPECT_NEAR(k.grad_W(v, r)[0], numeric, 2e-3f * std::abs(numeric) + 1e-3f) << "q=" << q;
    }
}

TEST(Kernels, CubicGradientIsDerivative) {
    check_gradient_matches_derivative<2>(CubicSpline<2>(0.1f));
    check_gradient_matches_derivative<3>(CubicSpline<3>(0.1f));
}

TEST(Kernels, WendlandGradientIsDerivative) {
    check_gradient_matches_derivative<2>(WendlandC2<2>(0.1f));
    check_gradient_matches_derivative<3>(WendlandC2<3>(0.1f));
}

TEST(Kernels, SpikyGradientIsDerivativeOfSpiky) {
    Poly6Spiky<3> k(0.1f);
    for (float q : {0.2f, 0.5f, 0.8f}) {
        const float r = q * 0.1f, e = 1e-4f;
        const float numeric = (k.W_spiky(r + e) - k.W_spiky(r - e)) / (2 * e);
        EXPECT_NEAR(k.grad_W(Vec<3>(r, 0, 0), r)[0], numeric, 2e-3f * std::abs(numeric));
    }
}

}  // namespace
}  // namespace seiche
