// Pair loops eight (or sixteen) particles at a time, one particle per SIMD lane (internal to the
// library).
//
// The first vectorised loops ran over one particle's neighbours, eight pairs per vector. With about
// 33 neighbours in 3D that left a remainder of one pair in scalar code, a horizontal sum per
// accumulator and per particle, and the loop set-up, for every particle in every pass. Here lane l
// of a group works on particle i0 + l and walks its own list: step k takes neighbour k of each of
// the eight particles, so nothing is left over but the lanes whose list is shorter than the
// group's longest, and each lane's sums go straight to its particle. Particles are kept in
// Z-curve order, so the eight lists of a group have nearly the same length. The lists are stored
// that way too (NeighborList): step k reads the group's row k, eight indices side by side.
//
// Sixteen lanes (seiche::lanes16, with AVX-512) take two such groups of eight per 512-bit vector,
// each half walking its own group's rows; on the AMD Zen 5 that halves the arithmetic of a pair
// step while the fetches cost about what eight lanes' do, so the passes heavy in arithmetic (PBF's
// λ and Δx passes) run 8–20% faster and those that mostly fetch (density, XSPH) 10–30% slower.
// On an Intel Xeon (family 6 model 167) sixteen lanes gain nothing and eight lanes with √ are
// fastest, so the build picks (SEICHE_PAIR_LANES: WIDE_SQRT on the Zen 5, NARROW otherwise).
//
// Determinism: a lane adds its pairs in list order, whatever the thread count and the width, and
// groups start at multiples of eight (sixteen) particles. Lengths (separation): WIDE builds take
// 1/r from the hardware's reciprocal square root refined by one Newton step (about 2^-22
// relative), so a pair costs no square root and no division; the others √ and a division, whose
// chain is shorter. Without AVX2 the same operations run lane by lane.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define SEICHE_LANES_AVX2 1
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
// Sixteen lanes: two groups of eight (two NeighborList row groups) per 512-bit vector.
#define SEICHE_LANES_AVX512 1
#if defined(SEICHE_PAIR_LANES_WIDE)
// CMake's SEICHE_PAIR_LANES=WIDE: PBF's λ and Δx passes sixteen lanes wide and a pair's length
// by 1/√ and a Newton step (see separation() and CMakeLists.txt for where each is faster).
#define SEICHE_LANES_WIDE 1
#define SEICHE_LANES_PBF16 1
#elif defined(SEICHE_PAIR_LANES_WIDE_SQRT)
// SEICHE_PAIR_LANES=WIDE_SQRT: those two passes sixteen lanes wide, lengths by √ (NARROW's bits).
#define SEICHE_LANES_PBF16 1
#endif
#endif
#elif defined(__GNUC__)
// The lane types are 32-byte vectors passed between inline functions of this header only; GCC
// warns that their ABI would differ without AVX, which no caller outside sees.
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#include "seiche/kernels.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"
#include "seiche/vec.hpp"

// The lane helpers are always inlined: a call passes and returns its vectors through memory
// (GCC would leave the sixteen-lane fetches as calls, a fifth slower than eight lanes).
#define SEICHE_LANE_INLINE inline __attribute__((always_inline))

namespace seiche::lane_detail {
#ifdef SEICHE_LANES_AVX2
// Eight full records from eight lanes (store_points4).
SEICHE_LANE_INLINE void store_records8(float* p, __m256 x, __m256 y, __m256 z, __m256 w) {
    const __m256 u0 = _mm256_unpacklo_ps(x, y), u1 = _mm256_unpackhi_ps(x, y);
    const __m256 u2 = _mm256_unpacklo_ps(z, w), u3 = _mm256_unpackhi_ps(z, w);
    const __m256 r0 = _mm256_shuffle_ps(u0, u2, 0x44), r1 = _mm256_shuffle_ps(u0, u2, 0xEE);
    const __m256 r2 = _mm256_shuffle_ps(u1, u3, 0x44), r3 = _mm256_shuffle_ps(u1, u3, 0xEE);
    _mm_store_ps(p + 0, _mm256_castps256_ps128(r0));
    _mm_store_ps(p + 4, _mm256_castps256_ps128(r1));
    _mm_store_ps(p + 8, _mm256_castps256_ps128(r2));
    _mm_store_ps(p + 12, _mm256_castps256_ps128(r3));
    _mm_store_ps(p + 16, _mm256_extractf128_ps(r0, 1));
    _mm_store_ps(p + 20, _mm256_extractf128_ps(r1, 1));
    _mm_store_ps(p + 24, _mm256_extractf128_ps(r2, 1));
    _mm_store_ps(p + 28, _mm256_extractf128_ps(r3, 1));
}
#endif
}  // namespace seiche::lane_detail

// The lanes of the pair loops: seiche::lanes, eight wide (what every pass uses), and with
// AVX-512 seiche::lanes16, sixteen wide: two groups of eight (two row groups of a NeighborList)
// per 512-bit vector, for the passes heavy in arithmetic (the PBF λ and Δx passes), which gain
// from the wider vectors; the passes that mostly fetch run slower on sixteen lanes. Each lane
// adds its pairs in list order either way, so both give the same bits.
#define SEICHE_LANES_W 8
namespace seiche::lanes {
#include "pair_lanes_body.hpp"
}  // namespace seiche::lanes
#undef SEICHE_LANES_W
#ifdef SEICHE_LANES_AVX512
#define SEICHE_LANES_W 16
namespace seiche::lanes16 {
#include "pair_lanes_body.hpp"
}  // namespace seiche::lanes16
#undef SEICHE_LANES_W
#endif

