// Polygon solids (2D): a simple polygon's area, centroid and second moment, its exact distance
// and inside test, a triangulation for the rigid-body library, and its boundary particles on the
// polygon's inward offset curves (Akinci et al. 2012, sec. 3: layers of particles on the surface).
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "seiche/boundary.hpp"
#include "seiche/vec.hpp"

namespace seiche {

using Polygon = std::vector<Vec<2>>;  // corners in order, m

// The most corners a polygon body may have: its collisions cost a pass over the outline per
// particle near it, so the bound keeps a step's cost and the set-up's checks in proportion.
inline constexpr std::size_t max_polygon_corners = 2000;

// Shoelace area, positive when counter-clockwise, m².
double signed_area(const Polygon& p);
Vec<2> centroid(const Polygon& p);
// ∫ |x|² dA about the local origin, m⁴ (times density and depth: the moment of inertia about z).
double polar_moment(const Polygon& p);

// The first pair of edges (i, j) that cross or touch other than at their shared corner, if any:
// a polygon without such a pair is simple.
std::optional<std::pair<std::size_t, std::size_t>> crossing_edges(const Polygon& p);

// The nearest point of the outline to x and the index of the edge it lies on.
struct OutlinePoint {
    Vec<2> point;
    std::size_t edge;
    float distance;
};
OutlinePoint nearest_on_outline(const Polygon& p, const Vec<2>& x);
bool inside_polygon(const Polygon& p, const Vec<2>& x);  // crossing number

// Triangles (corner indices) covering a simple counter-clockwise polygon: ear clipping.
std::vector<std::array<std::size_t, 3>> triangulate(const Polygon& counter_clockwise);

// Boundary particles on the inward offset curves at s.offset, s.offset + spacing, ...: edges moved
// in, arcs round reflex corners, trimmed where they come nearer than the offset to another edge;
// each curve resampled evenly at about `spacing`.
std::vector<Vec<2>> sample_polygon(const Polygon& counter_clockwise, const WallSampling& s);

}  // namespace seiche
