// The container as static boundary particles (Akinci et al. 2012) and the last-resort
// containment that keeps every fluid particle inside it.
#pragma once

#include <cstddef>
#include <span>

#include "seiche/kernels.hpp"
#include "seiche/particle_set.hpp"

namespace seiche {

// How the container walls are sampled, relative to the fluid rest spacing d = 2r.
struct WallSampling {
    float spacing;  //!< distance between boundary particles, m
    float offset;   //!< distance of the first layer outside the wall plane, m
    int layers;     //!< number of layers

    // Two layers at d/2 spacing, the first d/2 outside the wall: a fluid particle resting at d/2
    // from the wall then sees a density within about 1.5% of ρ0 (measured in the wall test).
    static WallSampling for_spacing(float d) { return {0.5f * d, 0.5f * d, 2}; }
};

// Samples the walls of the closed box `inside` (all 2·D faces, edges and corners).
template <int D>
Boundary<D> sample_container(const Box<D>& inside, const WallSampling& s);

// Akinci et al. 2012, eq. (4): V_k = 1 / Σ_l W_kl over the boundary neighbours l (k included).
template <int D>
void compute_boundary_volumes(Boundary<D>& b, const AnyKernel<D>& kernel);

// Projects particles that left the box back to just inside it; returns how many were moved.
template <int D>
std::size_t contain(std::span<Vec<D>> x, const Box<D>& box, float margin);

}  // namespace seiche
