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

// The number of sites emitter_sites lists, counted without listing them (at most one more for a
// circle), so that an opening a million metres wide is refused before its sites are made.
double emitter_site_count(const Emitter& e, int dimension, float spacing);
// The most sites one opening may have: a 1,000 × 1,000 lattice.
inline constexpr double max_emitter_sites = 1.0e6;

// Particles an emitter adds per second at full flow: its sites times speed / d.
template <int D>
double emitter_rate(const Emitter& e, float spacing);

}  // namespace seiche
