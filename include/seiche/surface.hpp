// Surface meshes from particles: an SPH colour field on a sparse block grid, contoured by marching
// cubes (3D, Lorensen & Cline 1987) or marching squares (2D). See src/surface/ and
// docs/surface.md for the choice of field and how the cases are built.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "seiche/vec.hpp"

namespace seiche {

struct SurfaceParams {
    double cell_size = 1.0;         //!< grid cell edge / particle radius r, [0.1, 8]
    double iso = 0.5;               //!< level of the colour field (1 inside at rest), (0, 1)
    double smoothing_radius = 4.0;  //!< field kernel support / r, [2, 16]
    int smoothing_iterations = 0;   //!< Taubin λ|μ passes on the mesh (0 = none), [0, 100]
    bool narrow_band = true;        //!< skip evaluating blocks deep inside the fluid (treated as 1)
};

// A triangle mesh (3D) or a set of line segments in the z = 0 plane (2D). Faces are oriented so
// that normals point out of the fluid: counter-clockwise seen from outside (3D), fluid on the
// left of each segment (2D).
struct SurfaceMesh {
    int dimension = 3;
    std::vector<float> position;       //!< x y z per vertex, m
    std::vector<float> normal;         //!< unit outward normal per vertex (from the field)
    std::vector<std::uint32_t> index;  //!< 3 per triangle (3D), 2 per segment (2D)
    std::vector<float> velocity;       //!< x y z per vertex, m/s: the fluid's (empty: not known)

    std::size_t vertex_count() const { return position.size() / 3; }
    std::size_t face_count() const { return index.size() / std::size_t(dimension == 3 ? 3 : 2); }
};

struct SurfaceStats {
    std::size_t blocks = 0;           //!< blocks of the sparse grid near particles
    std::size_t interior_blocks = 0;  //!< of which skipped as deep inside (narrow band)
    std::size_t field_vertices = 0;   //!< grid vertices where the field was evaluated
};

// x: particle positions (m); particle_radius: r (m), the rest spacing is 2r. Throws
// std::invalid_argument for bad parameters or non-finite positions.
template <int D>
SurfaceMesh reconstruct_surface(std::span<const Vec<D>> x, float particle_radius,
                                const SurfaceParams& params, SurfaceStats* stats = nullptr);

// The fluid's velocity at the mesh's vertices (mesh.velocity): the particles' velocities v,
// averaged with a smooth kernel over the colour field's support round each vertex.
template <int D>
void interpolate_velocity(SurfaceMesh& mesh, std::span<const Vec<D>> x, std::span<const Vec<D>> v,
                          float particle_radius, const SurfaceParams& params);

// Taubin 1995 λ|μ smoothing (λ = 0.5, μ = −0.53): Laplacian smoothing without the shrinkage.
void smooth_mesh(SurfaceMesh& mesh, int iterations);

}  // namespace seiche
