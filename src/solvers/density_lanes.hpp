// The boundary terms of the density summation, Akinci et al. 2012, eq. (6), and of its gradient,
// over the boundary neighbours of eight particles at once, and the records of the pair loops that
// read a neighbour's v or x with one more value (internal to the library; pair_lanes.hpp).
#pragma once

#include <span>
#include <vector>

#include "../neighbors/pair_lanes.hpp"

#include "seiche/sph.hpp"

namespace seiche::lanes {

// Velocity and 1/ρ side by side, one record per particle: a pair loop fetches a neighbour's with
// one aligned load, and the division is done once per particle instead of once per pair (XSPH,
// the viscosity).
template <int D>
inline void velocity_records(std::span<const Vec<D>> v, std::span<const float> rho,
                             std::span<Float4> records) {
    Float4* rec = records.data();
    parallel_for(v.size(), [&](std::size_t i) {
        rec[i] = {v[i].x, v[i].y, z_of<D>(v[i]), 1.0f / rho[i]};
    });
}

// (x, y, z, fourth(i)) of each point p_i, one 16-byte record per particle (z = 0 in 2D): a pair
// loop reads a neighbour's point and a value that goes with it in one aligned load and a
// transpose (fetch_points4), where a 12-byte point and a lone float take a masked load and eight
// more (DFSPH, WCSPH, DDR).
template <int D, class Fourth>
inline void point_records(std::span<const Vec<D>> p, std::vector<Float4>& out, Fourth&& fourth) {
    out.resize(p.size());
    Float4* rec = out.data();
    parallel_for(
        p.size(), [&](std::size_t i) { rec[i] = {p[i].x, p[i].y, z_of<D>(p[i]), fourth(i)}; },
        4096);
}

}  // namespace seiche::lanes

// boundary_w_sum and boundary_sums on the lanes of pair_lanes.hpp, eight and (with AVX-512)
// sixteen wide.
#define SEICHE_LANES_W 8
namespace seiche::lanes {
#include "density_lanes_body.hpp"
}  // namespace seiche::lanes
#undef SEICHE_LANES_W
#ifdef SEICHE_LANES_AVX512
#define SEICHE_LANES_W 16
namespace seiche::lanes16 {
#include "density_lanes_body.hpp"
}  // namespace seiche::lanes16
#undef SEICHE_LANES_W
#endif
