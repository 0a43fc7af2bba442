// The O(n·m) neighbour search the grid is tested against: internal, for the tests, not
// installed.
#pragma once

#include "seiche/neighbor_grid.hpp"

namespace seiche {

// O(n·m) oracle for tests.
template <int D>
NeighborList brute_force_neighbors(std::span<const Vec<D>> queries, std::span<const Vec<D>> points,
                                   float h, bool exclude_self);

}  // namespace seiche
