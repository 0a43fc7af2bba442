// Rigid bodies as boundary objects: a BodyDef's shape and pose made into a BoundaryObject, and the
// shape's surface sampled with boundary particles (Akinci et al. 2012) in the body's own frame.
#pragma once

#include <string>
#include <vector>

#include "seiche/boundary.hpp"
#include "seiche/boundary_object.hpp"
#include "seiche/surface.hpp"
#include "seiche/world_def.hpp"

namespace seiche {

// Rotation matrix of the scene's `rotation` (rad): about the world's x axis, then y, then z,
// R = Rz·Ry·Rx (Blender's XYZ Euler). 2D: the z angle alone.
template <int D>
Mat<D> rotation_from_euler(const Vec3d& angles);

// The rotation by angular velocity w (rad/s; 2D: about z) over t seconds.
template <int D>
Mat<D> rotation_step(const Torque<D>& w, float t);

// The pose of keyframes at time t: positions linearly, rotations by quaternion slerp (2D: the
// angle linearly), the first pose before the first time and the last after the last.
template <int D>
void keyframe_pose(const std::vector<Keyframe>& keys, double t, Vec<D>& position, Mat<D>& rotation);

// The body's boundary object at its initial pose (name, shape, motion, velocities).
// `index` names an unnamed body body_N. A mesh body gets its signed-distance grid with nodes
// sdf_cell apart (0: none, enough to validate a definition).
template <int D>
BoundaryObject<D> body_object(const BodyDef& body, std::size_t index, float sdf_cell = 0);

// Boundary particles on the surface of the object's solid, in its own frame: layers inward from
// the surface, as sample_solid_box lays them on a box's faces.
template <int D>
Boundary<D> sample_solid(const BoundaryObject<D>& solid, const WallSampling& s);

// The solid's surface at its pose, in world coordinates, appended to `mesh` (3D: triangles with
// outward normals, flat on a box's faces; 2D: the outline as segments): for the body meshes of
// each frame.
template <int D>
void append_surface(const BoundaryObject<D>& solid, SurfaceMesh& mesh);

// A few lines that show the solid's form in a picture (a box's edges; a sphere's three great
// circles; a cylinder's rims and four lines along it), world coordinates, 6 floats per segment.
template <int D>
void append_outline(const BoundaryObject<D>& solid, std::vector<float>& segments);

// The world-axis bounds of a solid at its pose (of its corners, turned).
template <int D>
Box<D> solid_bounds(const BoundaryObject<D>& solid);

// The problems of bodies[index] of a definition (validate() calls it for every body), each
// with its key path under `path` ("bodies[2]").
template <int D>
void body_problems(const BodyDef& b, std::size_t index, const WorldDef& w, const std::string& path,
                   std::vector<Problem>& out);

}  // namespace seiche
