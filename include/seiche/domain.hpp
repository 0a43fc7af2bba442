// A scene split over processes (docs/scale-out.md): the interface a World steps through when it
// holds only part of the fluid. The core knows nothing of MPI; src/mpi/ implements this with it.
// A world without a domain is the whole scene and pays nothing for this.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "seiche/exact_sum.hpp"
#include "seiche/particle_set.hpp"
#include "seiche/vec.hpp"

namespace seiche {

// What the passes of a step need from the other processes, whatever the dimension: the halo's
// values refreshed, and reductions whose results every process gets.
class Processes {
  public:
    virtual ~Processes() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Per particle in storage order: 1 for a halo copy, 0 for a particle this process owns.
    virtual std::span<const std::uint8_t> halo() const = 0;
    // Replaces each halo particle's bytes [k·stride, (k+1)·stride) of `data` by its owner's.
    virtual void refresh(void* data, std::size_t stride) = 0;
    template <class T>
    void refresh(std::span<T> field) {
        refresh(static_cast<void*>(field.data()), sizeof(T));
    }
    virtual void sum(std::span<std::int64_t> values) = 0;  // element-wise, over all processes
    virtual void max(std::span<double> values) = 0;
    // This process's particles and what it has sent (seiche bench).
    struct Traffic {
        std::uint64_t owned = 0, halo = 0;      //!< particles here after the last exchange
        std::uint64_t bytes = 0, messages = 0;  //!< sent to other processes over the run
        std::uint64_t rebalances = 0;           //!< of the split, over the run
        double exchange_seconds = 0;            //!< in exchange() over the run, wall
    };
    virtual Traffic traffic() const = 0;
    // An exact sum over all processes: the same bits as one process summing every term.
    void sum(ExactSum& s) {
        std::array<std::int64_t, ExactSum::digits + 1> w = s.words();
        const auto flags = static_cast<std::uint32_t>(w[ExactSum::digits]);
        // The flags of non-finite terms as counts, so that every process's bit survives the sum.
        std::array<std::int64_t, ExactSum::digits + 3> all{};
        for (int k = 0; k < ExactSum::digits; ++k) all[k] = w[k];
        for (int b = 0; b < 3; ++b) all[ExactSum::digits + b] = (flags >> b) & 1u;
        sum(std::span<std::int64_t>(all));
        std::uint32_t any = 0;
        for (int b = 0; b < 3; ++b) any |= all[ExactSum::digits + b] ? 1u << b : 0u;
        for (int k = 0; k < ExactSum::digits; ++k) w[k] = all[k];
        s = ExactSum::from_words(w, any);
    }
    // Process 0's text, on every process (where process 0 writes a run).
    void share(std::string& text) {
        std::array<std::int64_t, 1> n = {rank() == 0 ? std::int64_t(text.size()) : 0};
        sum(n);
        std::vector<std::int64_t> words((std::size_t(n[0]) + 7) / 8, 0);
        if (rank() == 0 && !text.empty()) std::memcpy(words.data(), text.data(), text.size());
        sum(words);  // the others add zeros
        text.assign(reinterpret_cast<const char*>(words.data()), std::size_t(n[0]));
    }
};

// Each process owns the fluid particles in its share of the grid's cells (contiguous runs of the
// cells' Z-curve order) and holds, besides, a halo: copies of the other processes' particles in
// the cells around its own, so that every neighbour list of an owned particle is the one a single
// process builds. A pass over pairs computes the halo's values too, from incomplete
// neighbourhoods; refresh() replaces them by their owners' before another pass reads them.
template <int D>
class Domain : public Processes {
  public:
    // Before the fluid is seeded: the split of the scene, balanced over the fluid positions
    // `sample` (every process the same sample, each position standing for `weight` particles);
    // then owns(x) says which particles to seed here, and appended() adds them. h: the support
    // radius, the grid's cell size. Every process thus holds only its own share, never the
    // whole scene (a 10⁸-particle scene over many processes).
    virtual void plan(std::span<const Vec<D>> sample, double weight, float h) = 0;
    // After plan(): process 0's p (a restored checkpoint's whole scene; empty elsewhere) goes
    // to the processes that own its particles, in its order; each process's p is its own.
    virtual void scatter(ParticleSet<D>& p) = 0;
    // At a neighbour search (predicted positions): the halo is dropped, particles that moved into
    // another process's cells go there, those that came in are appended (the split rebalanced
    // when it has drifted), and the new halo is appended, flagged in halo().
    virtual void exchange(ParticleSet<D>& p) = 0;
    // The world put particle order[k] at index k (the grid's order; or fewer: a sink removed
    // the others).
    virtual void reordered(std::span<const std::uint32_t> order) = 0;
    // The world appended `count` particles of this process's own (an emitter's new layer).
    virtual void appended(std::size_t count) = 0;
    // Whether this process owns the cell of x (a boundary particle's force is summed by one).
    virtual bool owns(const Vec<D>& x) const = 0;
    // Every process's owned particles, on process 0 in creation order (`all` is left empty
    // elsewhere), their carried values with them.
    virtual void gather(const ParticleSet<D>& p, ParticleSet<D>& all) = 0;

};

// A halo refresh through a view's processes, nothing without them.
template <class T>
inline void refresh_halo(Processes* processes, std::span<T> field) {
    if (processes) processes->refresh(field);
}

}  // namespace seiche
