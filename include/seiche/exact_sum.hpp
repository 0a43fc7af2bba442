// Sums of floats that do not depend on the order of the terms: the reductions of a step (density
// errors, energies, forces on objects) give the same bits however the particles are stored,
// split between threads or between processes.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace seiche {

// The exact sum of floats. Every finite float is an integer multiple of 2^-149 below 2^128, so
// the sum is an integer in units of 2^-149; it is held in digits of 32 bits in 64-bit words (the
// spare bits take the carries of 2^31 terms before the digits are normalised). Adding is exact,
// so partial sums merge in any grouping; value() rounds the one exact result the same way
// every time. A NaN, or infinities of both signs, make the sum NaN; an infinity makes it that
// infinity.
class ExactSum {
  public:
    static constexpr int digits = 10;  // 2^-149 … 2^171: 2^43 terms of the largest float

    void add(float f) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
        std::int32_t e = static_cast<std::int32_t>((bits >> 23) & 0xFFu);
        if (e == 0xFF) {
            special_ |= (bits & 0x7FFFFFu) ? nan_bit : (bits >> 31) ? neg_inf_bit : pos_inf_bit;
            return;
        }
        std::int64_t m = bits & 0x7FFFFFu;
        if (e != 0) m |= 0x800000;  // normal: the hidden bit
        else e = 1;                 // subnormal: the same scale as the smallest normal
        if (bits >> 31) m = -m;
        // f = m · 2^(e − 150) = m · 2^(e − 1) units of 2^-149; bit e − 1 is in digit (e − 1)/32.
        const int p = e - 1;
        const std::int64_t v = m * (std::int64_t(1) << (p & 31));  // |v| < 2^55
        const int d = p >> 5;
        digit_[d] += v & 0xFFFFFFFF;  // v = (v >> 32)·2^32 + (v & (2^32 − 1)), exactly
        digit_[d + 1] += v >> 32;
        if (++terms_ == max_terms) normalise();
    }
    void add(double x) { add(static_cast<float>(x)); }

    ExactSum& operator+=(const ExactSum& o) {
        ExactSum b = o;
        b.normalise();
        normalise();
        for (int k = 0; k < digits; ++k) digit_[k] += b.digit_[k];
        special_ |= b.special_;
        terms_ = 1;
        normalise();
        return *this;
    }

    // The sum, rounded: the same double for the same exact sum, whatever the order of the terms.
    double value() const {
        if (special_ & nan_bit || (special_ & pos_inf_bit && special_ & neg_inf_bit))
            return std::numeric_limits<double>::quiet_NaN();
        if (special_ & pos_inf_bit) return std::numeric_limits<double>::infinity();
        if (special_ & neg_inf_bit) return -std::numeric_limits<double>::infinity();
        ExactSum n = *this;
        n.normalise();
        double r = 0.0;
        for (int k = digits - 1; k >= 0; --k) r += std::ldexp(double(n.digit_[k]), 32 * k - 149);
        return r;
    }

    // The normalised digits (each in [0, 2^32) but the last, which carries the sign) and the
    // flags of non-finite terms: what a sum over processes adds word by word.
    std::array<std::int64_t, digits + 1> words() const {
        ExactSum n = *this;
        n.normalise();
        std::array<std::int64_t, digits + 1> w{};
        for (int k = 0; k < digits; ++k) w[k] = n.digit_[k];
        w[digits] = n.special_;
        return w;
    }
    // From the word-by-word sum of words() of several sums (the flags OR'ed, not added).
    static ExactSum from_words(const std::array<std::int64_t, digits + 1>& w, std::uint32_t flags) {
        ExactSum s;
        for (int k = 0; k < digits; ++k) s.digit_[k] = w[k];
        s.special_ = flags;
        s.terms_ = 1;
        s.normalise();
        return s;
    }

  private:
    static constexpr std::uint32_t nan_bit = 1, pos_inf_bit = 2, neg_inf_bit = 4;
    static constexpr std::uint32_t max_terms = 1u << 30;

    void normalise() {
        for (int k = 0; k + 1 < digits; ++k) {
            const std::int64_t carry = digit_[k] >> 32;  // floor
            digit_[k] -= carry * (std::int64_t(1) << 32);
            digit_[k + 1] += carry;
        }
        terms_ = 0;
    }

    std::array<std::int64_t, digits> digit_{};
    std::uint32_t special_ = 0;
    std::uint32_t terms_ = 0;
};

}  // namespace seiche
