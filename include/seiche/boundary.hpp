// The container as static boundary particles (Akinci et al. 2012) and the last-resort
// containment that keeps every fluid particle inside it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <span>

#include "seiche/boundary_object.hpp"
#include "seiche/kernels.hpp"
#include "seiche/parallel.hpp"
#include "seiche/particle_set.hpp"

namespace seiche {

// How the container walls are sampled, relative to the fluid rest spacing d = 2r.
struct WallSampling {
    float spacing;  //!< distance between boundary particles, m
    float offset;   //!< distance of the first layer outside the wall plane, m
    int layers;     //!< number of layers

    // Two layers at the fluid spacing d, the first a little more than d/2 outside the wall.
    // With the cubic spline (h = 2d) and offset 0.525·d, a fluid particle resting d/2 from the
    // walls sees ρ/ρ0 = 1.012 at a wall, 1.017 along an edge, 1.017 in a corner (3D) and
    // 1.016 / 1.022 at a wall / corner in 2D. Slightly above 1 on purpose: the walls push a
    // little early rather than let particles sink into edges and corners. Poly6 reaches further
    // and needs 0.56·d for the same (3D about 1.007 everywhere, 2D 1.02). Measured alternatives
    // (3D cubic, wall / edge / corner): d/2 spacing and offset: 0.987 / 0.970 / 0.953, particles
    // escaped at corners; spacing d, offset d/2: 1.026 / 1.041 / 1.047; one layer: 1.064 /
    // 1.111 / 1.148. Wendland C2 at the support it is meant for (h = 2.5d) needs 0.575·d for the
    // same (0.525·d: 1.036 / 1.048 in 3D); at h = 2d that reads about 0.98.
    static WallSampling for_kernel(KernelType kernel, float d) {
        const float offset = kernel == KernelType::poly6_spiky   ? 0.56f
                             : kernel == KernelType::wendland_c2 ? 0.575f
                                                                 : 0.525f;
        return {d, offset * d, 2};
    }
};

// Samples the walls of the closed box `inside` (all 2·D faces, edges and corners).
template <int D>
Boundary<D> sample_container(const Box<D>& inside, const WallSampling& s);

// Samples the faces of a solid box (an obstacle) with the same layers, inward from its faces;
// the inside beyond the layers stays empty.
template <int D>
Boundary<D> sample_solid_box(const Box<D>& solid, const WallSampling& s);

// Akinci et al. 2012, eq. (4): V_k = 1 / Σ_l W_kl over the boundary neighbours l (k included).
template <int D>
void compute_boundary_volumes(Boundary<D>& b, const AnyKernel<D>& kernel);

// How much weaker the pressure push of a flat wall sampled as `s` (Akinci volumes) must be to
// equal the push of the fluid it stands for: Σ ∇W over a lattice of spacing d continued through
// the wall, over Σ_k V_k ∇W_ik, normal to the wall, for a particle resting d/2 from it.
template <int D>
float flat_wall_push_match(const AnyKernel<D>& kernel, float d, const WallSampling& s);

// Where a fluid seeded against a flat wall sampled as `s` starts at rest: the distance from the
// wall plane at which the first row of a lattice of spacing d (rows continued away from the wall,
// particles of volume mass_volume = m/ρ0) reads the density of the lattice's bulk. The walls'
// offset makes a row d/2 from them read 1.2–1.6% above it (WallSampling); a column seeded there
// is thrown off its walls at the first step.
template <int D>
float flat_wall_rest_gap(const AnyKernel<D>& kernel, float d, float mass_volume,
                         const WallSampling& s);

// Collision response against every object: centres kept `radius` on the fluid's side. With a
// log, each particle's displacement is added to log.push and the object that moved it noted.
template <int D>
void collide_with_objects(std::span<Vec<D>> x, std::span<const BoundaryObject<D>> objects,
                          float radius, const CollisionLog<D>& log = {});

// The same for particle i alone (x is its position): for passes that move particles one by one.
template <int D>
inline void collide_particle(std::size_t i, Vec<D>& x, std::span<const BoundaryObject<D>> objects,
                             float radius, const CollisionLog<D>& log = {}) {
    if (!log.push) {
        for (const BoundaryObject<D>& o : objects) o.collide(x, radius);
        return;
    }
    for (std::size_t o = 0; o < objects.size(); ++o) {
        const Vec<D> before = x;
        objects[o].collide(x, radius);
        if (x != before) {
            log.push[i] += x - before;
            log.object[i] = static_cast<std::uint32_t>(o);
        }
    }
}

// Last-resort containment of particle i (x is its position): out of the solids first, then into
// the containers, so a container has the last word. Returns whether it was moved.
template <int D>
inline bool contain_particle(std::size_t i, Vec<D>& x, std::span<const BoundaryObject<D>> objects,
                             float margin, const CollisionLog<D>& log = {}) {
    bool out = false;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t o = 0; o < objects.size(); ++o) {
            if (objects[o].fluid_inside != (pass == 1)) continue;
            const Vec<D> before = x;
            if (!objects[o].contain(x, margin)) continue;
            out = true;
            if (log.push) {
                log.push[i] += x - before;
                log.object[i] = static_cast<std::uint32_t>(o);
            }
        }
    return out;
}

// Last-resort containment against every object, then after(i) for each particle i in the same
// loop (the caller's own per-particle work); returns how many particles were moved. In parallel
// over fixed chunks, the count summed as an integer: the same for any thread count. Particles
// marked in `uncounted` (another process's halo copies) are moved but not counted.
template <int D, class After>
std::size_t contain_in_objects(std::span<Vec<D>> x, std::span<const BoundaryObject<D>> objects,
                               float margin, const CollisionLog<D>& log, After&& after,
                               std::span<const std::uint8_t> uncounted = {}) {
    std::atomic<std::size_t> moved{0};
    constexpr std::size_t chunk = 4096;
    parallel_for(
        (x.size() + chunk - 1) / chunk,
        [&](std::size_t c) {
            std::size_t here = 0;
            for (std::size_t i = c * chunk; i < std::min(x.size(), (c + 1) * chunk); ++i) {
                const bool moved = contain_particle<D>(i, x[i], objects, margin, log);
                here += moved && (uncounted.empty() || !uncounted[i]) ? 1 : 0;
                after(i);
            }
            moved.fetch_add(here, std::memory_order_relaxed);
        },
        2);
    return moved.load();
}

// Collision response against the container (Macklin & Müller 2013, Algorithm 1, line 15):
// particle centres are projected into `inside`, the container shrunk by the particle radius,
// and out of each of `solids` (obstacles grown by the radius) through its nearest face.
template <int D>
void collide_with_box(std::span<Vec<D>> x, const Box<D>& inside,
                      std::span<const Box<D>> solids = {});

// Projects particles that left the box, or entered a solid, back to just inside the box or
// outside the solid; returns how many were moved.
template <int D>
std::size_t contain(std::span<Vec<D>> x, const Box<D>& box, float margin,
                    std::span<const Box<D>> solids = {});

}  // namespace seiche
