// SPH smoothing kernels with support radius h (W = 0 for r >= h), 2D and 3D normalisation.
// Cubic spline: Monaghan 1992 in the form of Koschier et al. 2019 (Eurographics SPH tutorial,
// eq. 4); poly6 and spiky: Müller, Charypar & Gross 2003, eqs. (20) and (21), as PBF uses them
// (Macklin & Müller 2013, sec. 3: poly6 for density, spiky for gradients); Wendland C2: Wendland
// 1995, as Dehnen & Aly 2012 give it (eq. 5 and table 1).
#pragma once

#include <cmath>
#include <numbers>
#include <string_view>
#include <variant>

#include "seiche/vec.hpp"

namespace seiche {

enum class KernelType { cubic_spline, poly6_spiky, wendland_c2 };

// Units: h in m; W in 1/m^D; grad W in 1/m^(D+1).

// A kernel W = w_norm · f(q), ∇W = grad_norm · g(q) · r_ij, q = r/h: its support and norms, which
// the lane versions of the pair loops read (src/neighbors/pair_lanes.hpp).
class ScaledKernel {
  public:
    float support() const { return h_; }
    float inv_h() const { return inv_h_; }
    float w_norm() const { return k_; }
    float grad_norm() const { return l_; }

    ScaledKernel(float h, double w_norm, double grad_norm)
        : h_(h), inv_h_(1.0f / h), k_(static_cast<float>(w_norm)), l_(static_cast<float>(grad_norm)) {}

  protected:
    float h_, inv_h_, k_, l_;
};

template <int D>
class CubicSpline : public ScaledKernel {
  public:
    // W = norm/h^D · f(q) and ∇W = 6·norm/h^(D+1) · g(q) · r_ij, f and g by branch below.
    explicit CubicSpline(float h)
        : ScaledKernel(h, norm / std::pow(double(h), D), 6.0 * norm / std::pow(double(h), D + 1)) {}

    float W(float r) const {
        const float q = r * inv_h_;
        if (q >= 1.0f) return 0.0f;
        if (q <= 0.5f) return k_ * (6.0f * q * q * (q - 1.0f) + 1.0f);
        const float a = 1.0f - q;
        return k_ * 2.0f * a * a * a;
    }

    // Gradient with respect to x_i of W(|x_i - x_j|), given r_ij = x_i - x_j and r = |r_ij|.
    Vec<D> grad_W(const Vec<D>& r_ij, float r) const { return grad_factor(r) * r_ij; }

    // (dW/dr) / r, so that ∇W = grad_factor(r) · r_ij. Branch-light for SIMD loops; finite at
    // r = 0 because dW/dq ∝ q there.
    float grad_factor(float r) const {
        const float q = r * inv_h_;
        const float a = 1.0f - q;
        const float inner = (3.0f * q - 2.0f) * inv_h_;      // q(3q − 2)/r, q ≤ 1/2
        const float outer = -a * a / (r > 0.0f ? r : 1.0f);  // −(1 − q)²/r, 1/2 < q < 1
        return q >= 1.0f ? 0.0f : l_ * (q <= 0.5f ? inner : outer);
    }

  private:
    static constexpr double norm = D == 3 ? 8.0 / std::numbers::pi : 40.0 / (7.0 * std::numbers::pi);
};

template <int D>
class Poly6Spiky {
  public:
    explicit Poly6Spiky(float h) : h_(h), h2_(h * h) {
        constexpr double pi = std::numbers::pi;
        const double hd = h;
        poly6_ = static_cast<float>(D == 3 ? 315.0 / (64.0 * pi * std::pow(hd, 9))
                                           : 4.0 / (pi * std::pow(hd, 8)));
        spiky_ = static_cast<float>(D == 3 ? 15.0 / (pi * std::pow(hd, 6))
                                           : 10.0 / (pi * std::pow(hd, 5)));
    }
    float support() const { return h_; }
    // The normalisations, for the lane versions of the pair loops (src/neighbors/pair_lanes.hpp).
    float poly6_norm() const { return poly6_; }
    float spiky_norm() const { return spiky_; }

    float W(float r) const {
        if (r >= h_) return 0.0f;
        const float a = h2_ - r * r;
        return poly6_ * a * a * a;
    }

    // Spiky kernel itself; PBF uses only its gradient, but it is a kernel and is tested as one.
    float W_spiky(float r) const {
        if (r >= h_) return 0.0f;
        const float a = h_ - r;
        return spiky_ * a * a * a;
    }

    Vec<D> grad_W(const Vec<D>& r_ij, float r) const { return grad_factor(r) * r_ij; }

    // (dW_spiky/dr) / r; 0 at r = 0, where the spiky gradient has no direction.
    float grad_factor(float r) const {
        const float a = h_ - r;
        const bool inside = r < h_ && r > 1.0e-9f * h_;
        return inside ? -3.0f * spiky_ * a * a / (r > 0.0f ? r : 1.0f) : 0.0f;
    }

  private:
    float h_, h2_, poly6_, spiky_;
};

// Wendland C2, W = k (1 − q)⁴ (1 + 4q): its Fourier transform is positive, so particles do not
// pair however wide its support (Dehnen & Aly 2012, sec. 3). Meant for a wider support than the
// cubic spline's (`support_factor` 5, h = 2.5 spacings), where a drop held by Akinci's surface
// tension rings about its round shape instead of holding a shape of its own (docs/solvers.md).
template <int D>
class WendlandC2 : public ScaledKernel {
  public:
    // W = w_norm · (1 − q)⁴ (1 + 4q) and ∇W = −grad_norm · (1 − q)³ · r_ij.
    explicit WendlandC2(float h)
        : ScaledKernel(h, norm / std::pow(double(h), D), 20.0 * norm / std::pow(double(h), D + 2)) {}

    float W(float r) const {
        const float q = r * inv_h_;
        if (q >= 1.0f) return 0.0f;
        const float a = 1.0f - q;
        return k_ * (a * a) * (a * a) * (1.0f + 4.0f * q);
    }

    Vec<D> grad_W(const Vec<D>& r_ij, float r) const { return grad_factor(r) * r_ij; }

    // (dW/dr) / r = −20 k (1 − q)³ / h²: no division, finite at r = 0.
    float grad_factor(float r) const {
        const float q = r * inv_h_;
        const float a = 1.0f - q;
        return q >= 1.0f ? 0.0f : -l_ * a * a * a;
    }

  private:
    static constexpr double norm = D == 3 ? 21.0 / (2.0 * std::numbers::pi) : 7.0 / std::numbers::pi;
};

template <int D>
using AnyKernel = std::variant<CubicSpline<D>, Poly6Spiky<D>, WendlandC2<D>>;

// M(D, K) for every dimension and kernel template: the explicit instantiations of the passes
// that take a kernel.
#define SEICHE_FOR_EACH_KERNEL(M) \
    M(2, CubicSpline) M(3, CubicSpline) M(2, Poly6Spiky) M(3, Poly6Spiky) M(2, WendlandC2) M(3, WendlandC2)

template <int D>
AnyKernel<D> make_kernel(KernelType type, float h) {
    if (type == KernelType::poly6_spiky) return Poly6Spiky<D>(h);
    if (type == KernelType::wendland_c2) return WendlandC2<D>(h);
    return CubicSpline<D>(h);
}

inline std::string_view kernel_name(KernelType t) {
    return t == KernelType::poly6_spiky   ? "poly6_spiky"
           : t == KernelType::wendland_c2 ? "wendland_c2"
                                          : "cubic_spline";
}

}  // namespace seiche
