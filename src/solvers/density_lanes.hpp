// The boundary term of the density summation, Akinci et al. 2012, eq. (6): Σ_k V_k W_ik over
// the boundary neighbours of eight particles at once (internal to the library; pair_lanes.hpp).
#pragma once

#include "../neighbors/pair_lanes.hpp"

#include "seiche/sph.hpp"

namespace seiche::lanes {

template <int D, class K>
inline F boundary_w_sum(const K& kernel, const FluidView<D>& f, const Points<D>& xi,
                        std::size_t i0, int n) {
    const Vec<D>* bx = f.bx.data();
    const float* bv = f.bvolume.data();
    F w_boundary{};
    const Lists bn(f.boundary_nb, i0, n);
    for (int k = 0; k < bn.longest(); ++k) {
        Index b[width];
        bn.fetch(k, b);
        w_boundary += keep(bn.active(k),
                           fetch(bv, b) * W(kernel, separation<D>(xi, fetch_points<D>(bx, b))));
    }
    return w_boundary;
}

}  // namespace seiche::lanes
