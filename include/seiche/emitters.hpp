// Inflow and outflow: the lattice sites across an emitter's opening, and what a World needs to
// emit layers of fluid from them over time.
#pragma once

#include <vector>

#include "seiche/vec.hpp"
#include "seiche/world_def.hpp"

namespace seiche {

template <int D>
struct EmitterSites {
    std::vector<Vec<D>> x;  //!< sites across the opening, at its centre plane, m
    Vec<D> direction{0.0f};  //!< unit vector the fluid leaves along
};

// The sites of the opening on a lattice of spacing d: a slot of width w holds floor(w/d) sites
// (at least one); a 3D rectangle the product of its two sides'; a circle the square-lattice
// sites within radius − d/2 of its centre (at least the centre).
template <int D>
EmitterSites<D> emitter_sites(const Emitter& e, float spacing);

// Particles an emitter adds per second at full flow: its sites times speed / d.
template <int D>
double emitter_rate(const Emitter& e, float spacing);

}  // namespace seiche
