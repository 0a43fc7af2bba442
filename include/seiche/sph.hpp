// Shared SPH sums over flat neighbour lists: density with the Akinci 2012 boundary term
// (Akinci et al. 2012, eq. 6; Bender & Fernández 2019: ρ_i = Σ_j m_j W_ij + Σ_k ρ0 V_k W_ik), the density error
// used throughout seiche, and lattice sums used to set the particle mass.
#pragma once

#include <atomic>
#include <cmath>
#include <span>

#include "seiche/boundary_object.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/parallel.hpp"
#include "seiche/vec.hpp"

namespace seiche {

class Processes;  // seiche/domain.hpp

// Four floats in 16 aligned bytes, one record per particle: a pair loop fetches a neighbour's
// record with one aligned load (PBF: position and λ'; XSPH: velocity and 1/ρ).
struct alignas(16) Float4 {
    float x, y, z, w;
};

// The positions (x, y[, z]) of a pass's records, into `out` (as long as `records`): where a
// solver took a step's pushes, for the walls' reaction (StepContext::boundary_reaction).
template <int D>
void positions_of(std::span<const Float4> records, std::span<Vec<D>> out) {
    parallel_for(records.size(), [&](std::size_t i) {
        out[i][0] = records[i].x;
        out[i][1] = records[i].y;
        if constexpr (D == 3) out[i][2] = records[i].z;
    });
}

// What a fluid pass reads: fluid positions and lists, boundary positions, volumes and lists.
template <int D>
struct FluidView {
    std::span<const Vec<D>> x;
    float mass;
    float rest_density;
    const NeighborList& fluid_nb;
    std::span<const Vec<D>> bx;
    std::span<const float> bvolume;
    const NeighborList& boundary_nb;
    std::span<const BoundaryObject<D>> objects;  //!< collisions keep centres r from each
    float radius = 0.0f;                         //!< particle radius r, m
    CollisionLog<D> collisions = {};             //!< when the world tracks boundary forces
    //! When set and true, iterative solvers stop iterating: the step ends early (an interrupt).
    const std::atomic<bool>* stop = nullptr;
    //! x may be read one float past its last position (its vector has room for one more): the
    //! 3D pair loops of PBF and XSPH then load a neighbour's position with one plain load.
    bool x_padded = false;
    //! The processes a scene is split over (nullptr: one process holds it all): a pass that
    //! writes a field its neighbours read in a later pass refreshes the halo's values.
    Processes* processes = nullptr;
};

// The velocity of each boundary particle of a moving object: v + ω × (x_k − position); false
// (and out untouched) when no object moves.
template <int D>
inline bool boundary_velocities(const FluidView<D>& f, std::vector<Vec<D>>& out) {
    bool moving = false;
    for (const BoundaryObject<D>& o : f.objects)
        moving = moving || (o.moving && (o.velocity != Vec<D>(0.0f) ||
                                         o.angular_velocity != Torque<D>{}));
    if (!moving) return false;
    out.assign(f.bx.size(), Vec<D>(0.0f));
    for (const BoundaryObject<D>& o : f.objects) {
        if (!o.moving) continue;
        for (std::size_t k = o.first; k < o.first + o.count; ++k) {
            const Vec<D> r = f.bx[k] - o.position;
            Vec<D> u = o.velocity;
            if constexpr (D == 3) {
                u += glm::cross(o.angular_velocity, r);
            } else {
                u.x -= o.angular_velocity * r.y;
                u.y += o.angular_velocity * r.x;
            }
            out[k] = u;
        }
    }
    return true;
}

// The hot pair loops (PBF, density, XSPH, WCSPH, DDR, vorticity) run eight particles at a time,
// one per SIMD lane (src/neighbors/pair_lanes.hpp). The others (boundary reactions) are
// written for `omp simd` over one particle's neighbours with explicit reductions (which need
// gathers: GCC leaves them scalar for CPUs whose gathers are slow, AMD Zen 3); the reduction
// order is fixed by the compiled vector width, so results stay bitwise identical for any thread
// count. For them to vectorise (check with -fopt-info-vec or objdump), GCC 12 needs:
// - positions read through the members (glm's operator[] hides a switch);
// - no struct locals inside the loop body: a member call or a temporary makes them addressable,
//   and `omp simd` then privatises them as per-lane arrays in memory (hence z_of, not a Diff);
// - no floats read through a capture: the loop's stores (results, and the per-lane reduction
//   arrays `omp simd` makes) may alias them, so they are reloaded each pair and the loop stays
//   scalar; the kernel, the scalars and the pointers are copied into locals first.
// `simdlen(8)`: with about 30 neighbours, 16-lane AVX-512 vectors spend most of their time in
// masked tails and gathers; 8 lanes measured 25–40% faster per loop (docs/performance-history.md).

// |a − b|².
template <int D>
inline float dist2(const Vec<D>& a, const Vec<D>& b) {
    const float rx = a.x - b.x, ry = a.y - b.y, rz = z_of<D>(a) - z_of<D>(b);
    return rx * rx + ry * ry + rz * rz;
}

// ρ_i = m Σ_j W_ij + ρ0 Σ_k V_k W_ik, self included (src/solvers/density_summation.cpp).
template <int D, class K>
void compute_density(const FluidView<D>& f, const K& kernel, std::span<float> rho);

// Density error of one particle: max(0, ρ/ρ0 − 1). Only compression counts, because a free
// surface is under-dense by nature (the same definition SPlisHSPlasH reports).
inline float density_error(float rho, float rest_density) {
    return std::max(0.0f, rho / rest_density - 1.0f);
}

struct LatticeSums {
    double w = 0.0;      //!< Σ_j W(x_j) over a full lattice, self included, 1/m^D
    double grad2 = 0.0;  //!< Σ_j |∇W(x_j)|², 1/m^(2D+2)
};

// Sums over a regular lattice of the given spacing around a particle at a lattice site.
template <int D, class K>
LatticeSums lattice_sums(const K& kernel, float spacing) {
    LatticeSums s;
    const int n = static_cast<int>(std::ceil(kernel.support() / spacing)) + 1;
    Vec<D> p(0.0f);
    auto add = [&]() {
        const float r = glm::length(p);
        s.w += kernel.W(r);
        const Vec<D> g = kernel.grad_W(p, r);
        s.grad2 += double(glm::dot(g, g));
    };
    for (int a = -n; a <= n; ++a)
        for (int b = -n; b <= n; ++b) {
            if constexpr (D == 2) {
                p = Vec<D>(a * spacing, b * spacing);
                add();
            } else {
                for (int c = -n; c <= n; ++c) {
                    p = Vec<D>(a * spacing, b * spacing, c * spacing);
                    add();
                }
            }
        }
    return s;
}

}  // namespace seiche
