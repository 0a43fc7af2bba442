// Fluid particle state as structure-of-arrays. All particles share one mass.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "seiche/parallel.hpp"
#include "seiche/vec.hpp"

namespace seiche {

template <int D>
struct ParticleSet {
    std::vector<Vec<D>> x;          //!< position, m (during a step: the predicted position)
    std::vector<Vec<D>> v;          //!< velocity, m/s
    std::vector<Vec<D>> x_prev;     //!< position at the start of the step, m
    std::vector<float> rho;         //!< density from the last solver pass, kg/m³
    std::vector<std::uint32_t> id;  //!< creation index: particles are kept in Z-curve order
    //! Two values per particle that the running solver carries from one step to the next
    //! (DFSPH: its warm starts; SolverTraits::carries_values): reordered, compacted and saved
    //! with the particles, zero for a new particle; empty when the solver carries nothing.
    std::vector<Float2> carried;
    bool carrying = false;  //!< carried is kept, one entry per particle
    float mass = 0.0f;      //!< kg, per particle
    float radius = 0.0f;    //!< m; rest spacing 2r

    std::size_t size() const { return x.size(); }
    void resize(std::size_t n) {
        x.resize(n);
        v.resize(n);
        x_prev.resize(n);
        rho.resize(n);
        id.resize(n);
        carried.resize(carrying ? n : 0);
    }
    // Appends a new particle (its carried values zero).
    void push_back(const Vec<D>& position, const Vec<D>& velocity, float density,
                   std::uint32_t creation_id) {
        x.push_back(position);
        x_prev.push_back(position);
        v.push_back(velocity);
        rho.push_back(density);
        id.push_back(creation_id);
        if (carrying) carried.emplace_back();
    }
    // Particle `from` moves to index `to` (< from), for a compaction.
    void move_particle(std::size_t from, std::size_t to) {
        x[to] = x[from];
        x_prev[to] = x_prev[from];
        v[to] = v[from];
        rho[to] = rho[from];
        id[to] = id[from];
        if (carrying) carried[to] = carried[from];
    }

    // Puts particle order[k] at index k, for every field. The scratch buffers take turns with the
    // fields (one spare vector buffer, not one per vector field: at a million particles each is
    // 12 MB), so the three vector fields go one loop after the other; x, ρ and the ids share the
    // first loop (fewer loops, fewer waits for the threads).
    void reorder(std::span<const std::uint32_t> order, std::vector<Vec<D>>& scratch,
                 std::vector<float>& scratch_f, std::vector<std::uint32_t>& scratch_id) {
        const std::size_t n = size();
        scratch.resize(n);
        scratch_f.resize(n);
        scratch_id.resize(n);
        {
            const Vec<D>* xi = x.data();
            const float* ri = rho.data();
            const std::uint32_t* ii = id.data();
            Vec<D>* xo = scratch.data();
            float* ro = scratch_f.data();
            std::uint32_t* io = scratch_id.data();
            parallel_for(n, [&](std::size_t k) {
                const std::uint32_t j = order[k];
                xo[k] = xi[j];
                ro[k] = ri[j];
                io[k] = ii[j];
            });
        }
        x.swap(scratch);
        rho.swap(scratch_f);
        id.swap(scratch_id);
        permute(v, order, scratch);
        permute(x_prev, order, scratch);
        if (carrying) {
            std::vector<Float2> tmp;
            tmp.swap(carried_scratch_);
            permute(carried, order, tmp);
            carried_scratch_.swap(tmp);
        }
    }

  private:
    std::vector<Float2> carried_scratch_;
    template <class T>
    static void permute(std::vector<T>& a, std::span<const std::uint32_t> order,
                        std::vector<T>& tmp) {
        tmp.resize(a.size());
        T* out = tmp.data();
        const T* in = a.data();
        parallel_for(a.size(), [&](std::size_t k) { out[k] = in[order[k]]; });
        a.swap(tmp);
    }
};

// Boundary particles (Akinci et al. 2012) of every boundary object, object after object.
template <int D>
struct Boundary {
    std::vector<Vec<D>> x;       //!< m
    std::vector<float> volume;   //!< V_k = 1 / Σ_l W_kl, m^D; ψ_k = ρ0 V_k
    std::vector<Vec<D>> local;   //!< position in its object's frame, m (for moving objects)
    std::vector<Vec<D>> force;   //!< of the fluid on the particle in the last step, N (when tracked)
    //! The same force seen from the particle's own faces (when tracked; what a wall sensor reads):
    //! along each axis, only the push of the fluid particles on the open side of the face of its
    //! object nearest it along that axis (face_plane, face_side). A particle along an edge of a
    //! box carries two faces' loads in `force`; here each face's axis gets its own face's. N.
    std::vector<Vec<D>> face_force;
    //! Per axis, that face's plane (m) and the side of it the fluid is on (+1, −1; 0 where every
    //! pair counts: a container, a body, a moved box, any shape but a box).
    std::vector<Vec<D>> face_plane, face_side;
};

// Storage indices in creation order: order[k] is where the k-th oldest particle is stored (the
// frames' row k). Every public place that lists particles by creation id goes through this.
inline std::vector<std::uint32_t> creation_order(std::span<const std::uint32_t> id) {
    std::vector<std::uint32_t> order(id.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = std::uint32_t(k);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return id[a] < id[b]; });
    return order;
}

}  // namespace seiche
