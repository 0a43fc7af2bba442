// Triangle-mesh solids: a signed-distance grid precomputed from the exact point–triangle
// distance and the generalised winding number (Jacobson et al. 2013) for the sign, so that a
// mesh body collides like the analytic shapes; and its surface sampled evenly with boundary
// particles (lattice points near each layer's level set, projected onto it, then thinned).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "seiche/boundary.hpp"
#include "seiche/vec.hpp"
#include "seiche/world_def.hpp"

namespace seiche {

// Edges that belong to one triangle only (0 for a closed mesh). Edges of three or more
// triangles also count: such a surface does not bound one solid.
std::size_t open_edges(const MeshData& mesh);

// Bounds of the vertices, m.
Box<3> mesh_bounds(const MeshData& mesh);

// Volume, centre and inertia of the solid a closed mesh bounds, for a density of 1 (Eberly,
// "Polyhedral mass properties (revisited)", 2002: the volume integrals of 1, x, y, z and their
// products by the divergence theorem over the triangles).
struct MassProperties {
    double volume = 0;                  //!< m³
    std::array<double, 3> centroid{};   //!< m
    std::array<double, 6> inertia{};    //!< about the centroid: xx, yy, zz, xy, yz, zx (m⁵)
};
MassProperties mass_properties(const MeshData& mesh);

// The mesh moved by −offset (the centre of mass of a dynamic body to its frame's origin).
MeshData shifted(const MeshData& mesh, const std::array<double, 3>& offset);

// Exact distance from p to the nearest triangle, m.
float mesh_distance(const MeshData& mesh, const Vec<3>& p);
// p inside the closed mesh: winding number above one half in magnitude (either turn).
bool inside_mesh(const MeshData& mesh, const Vec<3>& p);

// Signed distance on a regular grid, positive outside the solid, m.
struct SdfGrid {
    Vec<3> origin{0.0f};  //!< the first node, m
    float cell = 0;       //!< node spacing, m
    std::array<int, 3> n{};
    std::vector<float> value;  //!< x fastest

    // Trilinear inside the grid; beyond it, the nearest node's value plus the distance to it
    // (the grid reaches a few cells past the mesh, so beyond it is well outside).
    float distance(const Vec<3>& p) const;
    // Unit gradient of the field by central differences (the outward normal near the surface).
    Vec<3> normal(const Vec<3>& p) const;
};

// The grid over the mesh's bounds grown by `pad` on every side, nodes `cell` apart.
std::shared_ptr<const SdfGrid> build_sdf(const MeshData& mesh, float cell, float pad);

// Boundary particles in layers inside the surface (level sets −offset, −offset − spacing, ...),
// about `spacing` apart within each layer; with `outside`, in layers outside it (+offset, ...):
// the walls of a mesh that holds the fluid.
std::vector<Vec<3>> sample_mesh_surface(const SdfGrid& sdf, const Box<3>& bounds,
                                        const WallSampling& s, bool outside = false);

}  // namespace seiche
