// The lane types and helpers of pair_lanes.hpp, SEICHE_LANES_W wide, included by it into
// seiche::lanes (8) and, with AVX-512, seiche::lanes16 (16). No include guard: included twice.


constexpr int width = SEICHE_LANES_W;
using F = float __attribute__((vector_size(4 * width)));
using I = std::int32_t __attribute__((vector_size(4 * width)));

// A neighbour's index, as wide as an address: the 32-bit load from its list has zero-extended it
// already. Held as a 32-bit int, each index took a sign or zero extension before it could address
// a record: one more instruction per lane in every neighbour step of every pair loop.
using Index = std::size_t;

inline F splat(float a) { return F{} + a; }
inline I splat_i(std::int32_t a) { return I{} + a; }
inline I iota() {
    I r;
    for (int l = 0; l < width; ++l) r[l] = l;
    return r;
}
// Lane-wise a where m is set (all bits), b elsewhere.
inline F select(I m, F a, F b) { return m ? a : b; }
#if SEICHE_LANES_W == 16
inline F keep(I m, F a) { return m ? a : F{}; }  // a where m is set, 0 elsewhere (a masked move)
#else
inline F keep(I m, F a) { return (F)((I)a & m); }  // a where m is set, 0 elsewhere
#endif
// a > b ? a : b and a < b ? a : b exactly, NaNs and signed zeros included: both give b unless the
// comparison holds, as vmaxps and vminps do (GCC emits a compare and a blend for the selects).
inline F max(F a, F b) {
#if SEICHE_LANES_W == 16
    return a > b ? a : b;  // vmaxps (GCC 12's _mm512_max_ps warns of its undefined pass-through)
#elif defined(SEICHE_LANES_AVX2)
    return (F)_mm256_max_ps((__m256)a, (__m256)b);
#else
    return a > b ? a : b;
#endif
}
inline F min(F a, F b) {
#if SEICHE_LANES_W == 16
    return a < b ? a : b;  // vminps
#elif defined(SEICHE_LANES_AVX2)
    return (F)_mm256_min_ps((__m256)a, (__m256)b);
#else
    return a < b ? a : b;
#endif
}

#if SEICHE_LANES_W == 16
// vunpcklps and vunpckhps in each 128-bit lane (GCC 12's intrinsics warn of their undefined
// pass-through operand).
inline __m512 unpack_low(__m512 a, __m512 b) {
    return __builtin_shufflevector(a, b, 0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29);
}
inline __m512 unpack_high(__m512 a, __m512 b) {
    return __builtin_shufflevector(a, b, 2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15,
                                   31);
}
// The halves of a sixteen-lane vector, and back.
inline __m256 low_half(F a) { return __builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7); }
inline __m256 high_half(F a) {
    return __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15);
}
inline F join(__m256 lo, __m256 hi) {
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
#endif

// 1/√a for a > 0: the hardware estimate and one Newton step.
SEICHE_LANE_INLINE F rsqrt(F a) {
#if SEICHE_LANES_W == 16
    // The 8-lane estimate on each half (AVX-512's own, vrsqrt14ps, has other bits): sixteen
    // lanes give what eight give, to the bit.
    const F y = join(_mm256_rsqrt_ps(low_half(a)), _mm256_rsqrt_ps(high_half(a)));
    return y * (1.5f - 0.5f * a * y * y);
#elif defined(SEICHE_LANES_AVX2)
    const F y = (F)_mm256_rsqrt_ps((__m256)a);
    return y * (1.5f - 0.5f * a * y * y);
#else
    F r;
    for (int l = 0; l < width; ++l) r[l] = 1.0f / std::sqrt(a[l]);
    return r;
#endif
}

inline F load(const float* p, int lanes) {
    F r{};
    std::memcpy(&r, p, sizeof(float) * lanes);
    return r;
}
inline void store(float* p, F v, int lanes) { std::memcpy(p, &v, sizeof(float) * lanes); }

// Positions of the lanes' particles (the group's own, or neighbours); z = 0 in 2D.
template <int D>
struct Points {
    F x, y, z;
};
#ifdef SEICHE_LANES_AVX2
// x, y, z of the 3D record j, the fourth lane 0, never reading past the record unless Padded
// (then the fourth lane is whatever follows, unused).
template <bool Padded>
SEICHE_LANE_INLINE __m128 record_xyz(const float* base, Index j) {
    const float* at_j = base + 3 * j;
    if constexpr (Padded) return _mm_loadu_ps(at_j);
#ifdef __AVX512VL__
    return _mm_maskz_loadu_ps(0x7, at_j);
#else
    return _mm_maskload_ps(at_j, _mm_setr_epi32(-1, -1, -1, 0));
#endif
}
// x_a y_a x_b y_b of the 2D records a and b.
SEICHE_LANE_INLINE __m128 records_xy2(const float* base, Index a, Index b) {
    const __m128d lo = _mm_load_sd(reinterpret_cast<const double*>(base + 2 * a));
    return _mm_castpd_ps(_mm_loadh_pd(lo, reinterpret_cast<const double*>(base + 2 * b)));
}
#endif

// Records of four floats, 16-byte aligned (base[4 j] … base[4 j + 3]): p[at[l]] in lane l of
// x, y, z and w. Four aligned loads per register pair and a 4 × 4 transpose.
struct Points4 {
    F x, y, z, w;
};

#if SEICHE_LANES_W == 16
// Records l, l + 4, l + 8, l + 12 in the four 128-bit lanes of t_l (x, y, z, w each) to x, y,
// z and w of the lanes, record l in lane l: the 4 × 4 transpose in each 128-bit lane.
SEICHE_LANE_INLINE Points4 transpose_records(__m512 t0, __m512 t1, __m512 t2, __m512 t3) {
    const __m512 u0 = unpack_low(t0, t1), u1 = unpack_high(t0, t1);
    const __m512 u2 = unpack_low(t2, t3), u3 = unpack_high(t2, t3);
    return {(F)_mm512_shuffle_ps(u0, u2, 0x44), (F)_mm512_shuffle_ps(u0, u2, 0xEE),
            (F)_mm512_shuffle_ps(u1, u3, 0x44), (F)_mm512_shuffle_ps(u1, u3, 0xEE)};
}
#elif defined(SEICHE_LANES_AVX2)
// Records l and l + 4 in the two 128-bit lanes of t_l, to x, y, z and w of the lanes.
SEICHE_LANE_INLINE Points4 transpose_records(__m256 t0, __m256 t1, __m256 t2, __m256 t3) {
    const __m256 u0 = _mm256_unpacklo_ps(t0, t1), u1 = _mm256_unpackhi_ps(t0, t1);
    const __m256 u2 = _mm256_unpacklo_ps(t2, t3), u3 = _mm256_unpackhi_ps(t2, t3);
    return {(F)_mm256_shuffle_ps(u0, u2, 0x44), (F)_mm256_shuffle_ps(u0, u2, 0xEE),
            (F)_mm256_shuffle_ps(u1, u3, 0x44), (F)_mm256_shuffle_ps(u1, u3, 0xEE)};
}
#endif

// The points p[at[0]], ..., p[at[width − 1]], one per lane. Loads and a transpose, not gathers: on the
// AMD Zen 4 this was measured on, three 8-lane gathers cost more than eight loads and eight
// shuffles (the PBF λ pass took 1.7 times as long); on a Zen 5, three times as long.
// Padded: the array may be read one float past its last record (FluidView::x_padded), so each
// record is one plain 16-byte load, which the compiler folds into the transpose's inserts; the
// masked load that stops at the record's end is not folded.
template <int D, bool Padded = false>
SEICHE_LANE_INLINE Points<D> fetch_points(const Vec<D>* p, const Index* at) {
    const float* base = &p[0].x;
#if SEICHE_LANES_W == 16
    if constexpr (D == 3) {
        const auto xyz = [base](Index j) { return record_xyz<Padded>(base, j); };
        const auto quad = [&](int l) {
            __m512 v = _mm512_castps128_ps512(xyz(at[l]));
            v = _mm512_insertf32x4(v, xyz(at[l + 4]), 1);
            v = _mm512_insertf32x4(v, xyz(at[l + 8]), 2);
            return _mm512_insertf32x4(v, xyz(at[l + 12]), 3);
        };
        const Points4 r = transpose_records(quad(0), quad(1), quad(2), quad(3));
        return {r.x, r.y, r.z};
    } else {
        const auto xy2 = [base](Index a, Index b) { return records_xy2(base, a, b); };
        const auto quad = [&](int l) {  // pairs (l, l + 1), (l + 4, l + 5), … in the 128-bit lanes
            __m512 v = _mm512_castps128_ps512(xy2(at[l], at[l + 1]));
            v = _mm512_insertf32x4(v, xy2(at[l + 4], at[l + 5]), 1);
            v = _mm512_insertf32x4(v, xy2(at[l + 8], at[l + 9]), 2);
            return _mm512_insertf32x4(v, xy2(at[l + 12], at[l + 13]), 3);
        };
        const __m512 t0 = quad(0), t1 = quad(2);
        return {(F)_mm512_shuffle_ps(t0, t1, 0x88), (F)_mm512_shuffle_ps(t0, t1, 0xDD), F{}};
    }
#elif defined(SEICHE_LANES_AVX2)
    if constexpr (D == 3) {
        const auto xyz = [base](Index j) { return record_xyz<Padded>(base, j); };
        const auto pair = [&](int a, int b) {
            return _mm256_insertf128_ps(_mm256_castps128_ps256(xyz(at[a])), xyz(at[b]), 1);
        };
        const Points4 r = transpose_records(pair(0, 4), pair(1, 5), pair(2, 6), pair(3, 7));
        return {r.x, r.y, r.z};
    } else {
        const auto xy2 = [base](Index a, Index b) { return records_xy2(base, a, b); };
        const __m256 t0 = _mm256_insertf128_ps(_mm256_castps128_ps256(xy2(at[0], at[1])),
                                               xy2(at[4], at[5]), 1);
        const __m256 t1 = _mm256_insertf128_ps(_mm256_castps128_ps256(xy2(at[2], at[3])),
                                               xy2(at[6], at[7]), 1);
        return {(F)_mm256_shuffle_ps(t0, t1, 0x88), (F)_mm256_shuffle_ps(t0, t1, 0xDD), F{}};
    }
#else
    Points<D> r;
    for (int l = 0; l < width; ++l) {
        r.x[l] = base[D * at[l]];
        r.y[l] = base[D * at[l] + 1];
        r.z[l] = D == 3 ? base[D * at[l] + 2] : 0.0f;
    }
    return r;
#endif
}

SEICHE_LANE_INLINE Points4 fetch_points4(const float* base, const Index* at) {
#if SEICHE_LANES_W == 16
    const auto quad = [&](int l) {
        __m512 v = _mm512_castps128_ps512(_mm_load_ps(base + 4 * at[l]));
        v = _mm512_insertf32x4(v, _mm_load_ps(base + 4 * at[l + 4]), 1);
        v = _mm512_insertf32x4(v, _mm_load_ps(base + 4 * at[l + 8]), 2);
        return _mm512_insertf32x4(v, _mm_load_ps(base + 4 * at[l + 12]), 3);
    };
    return transpose_records(quad(0), quad(1), quad(2), quad(3));
#elif defined(SEICHE_LANES_AVX2)
    const auto pair = [&](int a, int b) {
        return _mm256_insertf128_ps(
            _mm256_castps128_ps256(_mm_load_ps(base + 4 * at[a])),
            _mm_load_ps(base + 4 * at[b]), 1);
    };
    return transpose_records(pair(0, 4), pair(1, 5), pair(2, 6), pair(3, 7));
#else
    Points4 r;
    for (int l = 0; l < width; ++l) {
        r.x[l] = base[4 * at[l]];
        r.y[l] = base[4 * at[l] + 1];
        r.z[l] = base[4 * at[l] + 2];
        r.w[l] = base[4 * at[l] + 3];
    }
    return r;
#endif
}

// The inverse of fetch_points4 for a whole group: lane l of x, y, z, w to the record
// base[4 (i0 + l)] (16-byte aligned; i0 a multiple of the width) for the first `lanes` lanes.

SEICHE_LANE_INLINE void store_points4(float* base, std::size_t i0, int lanes, F x, F y, F z, F w) {
#if SEICHE_LANES_W == 16
    if (lanes == width) {
        ::seiche::lane_detail::store_records8(base + 4 * i0, low_half(x), low_half(y), low_half(z), low_half(w));
        ::seiche::lane_detail::store_records8(base + 4 * (i0 + 8), high_half(x), high_half(y), high_half(z),
                       high_half(w));
        return;
    }
#elif defined(SEICHE_LANES_AVX2)
    if (lanes == width) {
        ::seiche::lane_detail::store_records8(base + 4 * i0, (__m256)x, (__m256)y, (__m256)z, (__m256)w);
        return;
    }
#endif
    for (int l = 0; l < lanes; ++l) {
        float* p = base + 4 * (i0 + l);
        p[0] = x[l];
        p[1] = y[l];
        p[2] = z[l];
        p[3] = w[l];
    }
}

// The records base[4 (i0 + l)] of a group (its first `lanes` lanes; the others read the last
// one's): the inverse of store_points4.
SEICHE_LANE_INLINE void load_records(const float* base, std::size_t i0, int lanes, F& x, F& y, F& z, F& w) {
    Index at[width];
    for (int l = 0; l < width; ++l)
        at[l] = static_cast<Index>(i0) + static_cast<Index>(std::min(l, lanes - 1));
    const Points4 r = fetch_points4(base, at);
    x = r.x;
    y = r.y;
    z = r.z;
    w = r.w;
}

// a[at[l]] in lane l.
SEICHE_LANE_INLINE F fetch(const float* a, const Index* at) {
    F r;
    for (int l = 0; l < width; ++l) r[l] = a[at[l]];
    return r;
}

template <int D>
SEICHE_LANE_INLINE Points<D> load_points(const Vec<D>* p, std::size_t i0, int lanes) {
    Points<D> r{F{}, F{}, F{}};
    for (int l = 0; l < lanes; ++l) {
        r.x[l] = p[i0 + l].x;
        r.y[l] = p[i0 + l].y;
        r.z[l] = z_of<D>(p[i0 + l]);
    }
    return r;
}

// The inverse of load_points: lane l to p[i0 + l], for the first `lanes` lanes.
template <int D>
SEICHE_LANE_INLINE void store_points(Vec<D>* p, std::size_t i0, int lanes, const Points<D>& r) {
    for (int l = 0; l < lanes; ++l) {
        p[i0 + l].x = r.x[l];
        p[i0 + l].y = r.y[l];
        if constexpr (D == 3) p[i0 + l].z = r.z[l];
    }
}

// A pair's separation r_ij = x_i − x_j, |r_ij|² and 1/|r_ij| (r_ij = 0 gives a huge 1/r and a
// length of about 0, which every kernel below handles).
struct Separation {
    F x, y, z, len2, len, inv_len;
};
template <int D>
SEICHE_LANE_INLINE Separation separation(const Points<D>& a, const Points<D>& b) {
    Separation s;
    s.x = a.x - b.x;
    s.y = a.y - b.y;
    s.z = a.z - b.z;
    s.len2 = s.x * s.x + s.y * s.y + s.z * s.z;
#ifdef SEICHE_LANES_WIDE
    // WIDE (the AMD Zen 5's full-width 512-bit units): the hardware's 1/√ and one Newton step, no
    // square root, no division.
    s.inv_len = rsqrt(max(s.len2, splat(1.0e-30f)));
    s.len = s.len2 * s.inv_len;
#else
    // Otherwise the square root and a division: on the AMD Zen 3 and the Intel Xeon a pair loop is
    // bound by the latency of each pair's chain (only a few pair steps fit in flight), and √ is
    // shorter than 1/√, its Newton step and the product (the PBF passes 10–15% faster on both,
    // measured). Both are exact, so sixteen lanes give the bits of eight.
#if SEICHE_LANES_W == 16
    s.len = (F)_mm512_maskz_sqrt_ps(0xFFFF, (__m512)s.len2);  // (GCC 12's unmasked one warns)
#elif defined(SEICHE_LANES_AVX2)
    s.len = (F)_mm256_sqrt_ps((__m256)s.len2);
#else
    for (int l = 0; l < width; ++l) s.len[l] = std::sqrt(s.len2[l]);
#endif
    s.inv_len = 1.0f / max(s.len, splat(1.0e-15f));
#endif
    return s;
}

// The kernels of kernels.hpp on eight separations at once (same formulas).
template <int D>
SEICHE_LANE_INLINE F W(const CubicSpline<D>& k, const Separation& s) {
    // The norm folded into the coefficients: the chain after q is three operations deep.
    const F q = s.len * k.inv_h();
    const F a = 1.0f - q;
    const float n = k.w_norm();
    const F inner = (q * q) * (q - 1.0f) * (6.0f * n) + n;
    const F outer = (a * a) * (a * (2.0f * n));
    return keep(q < 1.0f, select(q <= 0.5f, inner, outer));
}
template <int D>
SEICHE_LANE_INLINE F grad_factor(const CubicSpline<D>& k, const Separation& s) {
    const F q = s.len * k.inv_h();
    const F a = 1.0f - q;
    const float c = k.inv_h() * k.grad_norm();
    const F inner = q * (3.0f * c) - 2.0f * c;
    const F outer = (a * a) * (s.inv_len * -k.grad_norm());
    return keep(q < 1.0f, select(q <= 0.5f, inner, outer));
}
template <int D>
SEICHE_LANE_INLINE F W(const WendlandC2<D>& k, const Separation& s) {
    const F q = s.len * k.inv_h();
    const F a = 1.0f - q;
    const float n = k.w_norm();
    return keep(q < 1.0f, (a * a) * (a * a) * ((4.0f * n) * q + n));
}
template <int D>
SEICHE_LANE_INLINE F grad_factor(const WendlandC2<D>& k, const Separation& s) {
    const F a = 1.0f - s.len * k.inv_h();
    return keep(a > 0.0f, (a * a) * (a * -k.grad_norm()));
}
template <int D>
SEICHE_LANE_INLINE F W(const Poly6Spiky<D>& k, const Separation& s) {
    const F h = splat(k.support());
    const F a = h * h - s.len2;
    return keep(s.len < h, k.poly6_norm() * a * a * a);
}
template <int D>
SEICHE_LANE_INLINE F grad_factor(const Poly6Spiky<D>& k, const Separation& s) {
    const F h = splat(k.support());
    const F a = h - s.len;
    const I inside = (s.len < h) & (s.len > 1.0e-9f * h);
    return keep(inside, -3.0f * k.spiky_norm() * a * a * s.inv_len);
}

// The neighbour lists of the lanes' particles, read from their rows (NeighborList): neighbour k
// of every lane is row k of its group of eight (with sixteen lanes, of two such groups).
class Lists {
  public:
    static constexpr int halves = width / LaneList::stride;
    static_assert(LaneList::stride == 8 && width % LaneList::stride == 0);

    SEICHE_LANE_INLINE Lists(const NeighborList& nb, std::size_t i0, int lanes) {
        for (int h = 0; h < halves; ++h) {
            const std::size_t g0 = i0 + std::size_t(8 * h);
            if (8 * h >= lanes) {
                row_[h] = nullptr;
                half_longest_[h] = 0;
                continue;
            }
            if (nb.narrow)
                row16_[h] = nb.rows<std::uint16_t>(g0 / 8);
            else
                row_[h] = nb.rows<std::uint32_t>(g0 / 8);
            int longest = 0;
            for (int l = 8 * h; l < std::min(lanes, 8 * h + 8); ++l) {
                count_[l] = static_cast<std::int32_t>(nb.offset[i0 + l + 1] - nb.offset[i0 + l]);
                longest = std::max(longest, count_[l]);
            }
            half_longest_[h] = longest;
            longest_ = std::max(longest_, longest);
        }
    }
    int longest() const { return longest_; }
    // Lanes that have a neighbour k.
    I active(int k) const { return splat_i(k) < count_; }
    // Neighbour k of each lane, for k < longest(): a valid index in every lane (0 past the end of
    // a shorter list, or of a group of eight whose lists are all shorter); mask the lane's terms
    // with active(k).
    SEICHE_LANE_INLINE void fetch(int k, Index* out) const {
        for (int h = 0; h < halves; ++h) {
            if (halves > 1 && k >= half_longest_[h]) {
                for (int l = 0; l < 8; ++l) out[8 * h + l] = 0;
                continue;
            }
            if (row16_[h]) {  // NeighborList::narrow: the same for every group of the list
                const std::uint16_t* row = row16_[h] + 8 * std::size_t(k);
                for (int l = 0; l < 8; ++l) {
                    Index j = row[l];
#if defined(__GNUC__) && defined(__x86_64__)
                    asm("" : "+r"(j));  // as below
#endif
                    out[8 * h + l] = j;
                }
                continue;
            }
            const std::uint32_t* row = row_[h] + 8 * std::size_t(k);
            for (int l = 0; l < 8; ++l) {
                Index j = row[l];
#if defined(__GNUC__) && defined(__x86_64__)
                // Each index through a register: GCC otherwise loads the row as a vector and
                // takes the eight indices out of it one by one, or turns the first fetch of a
                // group into two 4-lane gathers, which the AMD Zen 5 runs slower than eight loads.
                asm("" : "+r"(j));
#endif
                out[8 * h + l] = j;
            }
        }
    }

  private:
    const std::uint32_t* row_[halves] = {};
    const std::uint16_t* row16_[halves] = {};
    int half_longest_[halves];
    I count_{};
    int longest_ = 0;
};

// pass(std::true_type{}) when the positions may be read a float past their end
// (FluidView::x_padded; 3D only), else pass(std::false_type{}): a pass instantiated for each way
// of loading a neighbour's position (fetch_points<D, Padded>).
template <int D, class Pass>
inline void with_padding(bool padded, Pass&& pass) {
    if constexpr (D == 3) {
        if (padded) return pass(std::true_type{});
    }
    pass(std::false_type{});
}

// fn(i0, lanes) for every group of `width` consecutive particles (the last one may be short), in
// parallel.
template <class Fn>
void for_each_group(std::size_t n, Fn&& fn) {
    const std::size_t groups = (n + width - 1) / width;
    parallel_for(
        groups,
        [&](std::size_t g) {
            const std::size_t i0 = g * width;
            fn(i0, static_cast<int>(std::min<std::size_t>(width, n - i0)));
        },
        parallel_threshold / width);
}

// fn(i0, lanes) for the groups listed (group g: particles width·g … width·g + width − 1, the
// last one maybe short), in parallel; every group when `groups` is null.
template <class Fn>
void for_each_group(std::size_t n, const std::vector<std::uint32_t>* groups, Fn&& fn) {
    if (!groups) return for_each_group(n, fn);
    parallel_for(
        groups->size(),
        [&](std::size_t k) {
            const std::size_t i0 = std::size_t((*groups)[k]) * width;
            fn(i0, static_cast<int>(std::min<std::size_t>(width, n - i0)));
        },
        parallel_threshold / width);
}

