// The case tables of marching squares and marching cubes, built from one rule instead of typed in.
//
// Corner k of a cell sits at offset (k & 1, k >> 1 & 1, k >> 2 & 1). Edge e joins corner
// edge_corner(e) to edge_corner(e) + e_axis; in 3D edges 0–3 run along x, 4–7 along y, 8–11
// along z. A corner is inside when its field value is ≥ the iso level.
//
// The rule, per face (3D) or for the square itself (2D): walk the face's corners counter-clockwise
// seen from outside the cell; each run of inside corners is cut off by one segment, from the
// edge where the walk enters the run to the edge where it leaves it. On a face with two diagonal
// inside corners this keeps them apart, and the neighbouring cell sees the same face with the
// same corners, so both cut it the same way (reversed): no cracks, which the original 1987
// table did not guarantee. In 3D each crossed edge ends one face's segment and starts the
// other's, so the segments chain into closed loops, each loop one piece of surface.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace seiche::surface {

struct CellLoop {
    std::vector<std::uint8_t> edges;  //!< crossed edges in order (3D: a closed loop)
    // The loop crosses one face twice (an ambiguous face). A fan would put a diagonal on that
    // face that the neighbouring cell may use too, making an edge of four triangles; such loops
    // are fanned around an extra centre vertex instead.
    bool needs_centre = false;
};

struct CellCase {
    std::vector<CellLoop> loops;  //!< 2D: each loop is one segment (two edges)
};

template <int D>
struct MarchingCases {
    static constexpr int corners = 1 << D;
    static constexpr int edges = D * (1 << (D - 1));
    std::array<CellCase, (1 << corners)> cases;
    std::array<std::uint8_t, edges> edge_corner;  //!< the edge's lower corner
    std::array<std::uint8_t, edges> edge_axis;
};

// Built once on first use; immutable afterwards.
template <int D>
const MarchingCases<D>& marching_cases();

}  // namespace seiche::surface
