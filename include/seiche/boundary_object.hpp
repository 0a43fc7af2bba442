// A boundary object: a solid the fluid meets (the container, an obstacle, a body). It owns
// a range of the boundary particles (Akinci et al. 2012), has a pose and a velocity, and keeps
// the fluid out through its signed distance. The solvers see boundary particles and objects,
// never a Box; the world sums the fluid's force and torque on each object.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <glm/glm.hpp>

#include "seiche/vec.hpp"

namespace seiche {

struct SdfGrid;
struct MeshData;

template <int D>
using Mat = glm::mat<D, D, float, glm::defaultp>;

// Torque: a vector in 3D, the z component in 2D.
template <int D>
using Torque = std::conditional_t<D == 3, Vec<3>, float>;

// The solid's form in its own frame: a box, a sphere (a circle in 2D) or a cylinder (3D) round
// its own y axis, the last two centred on the frame's origin, a closed triangle mesh (3D) or a
// simple polygon (2D).
enum class ShapeKind { box, sphere, cylinder, mesh, polygon };

// How an object moves: fixed, along a prescribed path, or under forces (a dynamic body).
enum class ObjectMotion { fixed, kinematic, dynamic };

template <int D>
struct BoundaryObject {
    std::string name;           //!< "container", "obstacles[0]", a body's name
    bool fluid_inside = false;  //!< the fluid lives inside (a container) or outside (a solid)
    ShapeKind kind = ShapeKind::box;
    Box<D> shape;               //!< the box, else the shape's bounds; in the object's frame, m
    float radius = 0;           //!< sphere, circle, cylinder, m
    float half_height = 0;      //!< cylinder: half its length along its own y axis, m
    float reach = 0;            //!< radius of a sphere round `position` holding it (0: not known), m
    std::shared_ptr<const MeshData> mesh;  //!< mesh: the triangles (exact tests)
    std::shared_ptr<const SdfGrid> sdf;    //!< mesh: its signed distance (collisions); null while
                                           //!< only validating
    float mesh_volume = 0;                 //!< mesh: enclosed volume, m³
    //! polygon (2D): the corners counter-clockwise, centroid at the origin, m
    std::shared_ptr<const std::vector<Vec<2>>> polygon;
    ObjectMotion motion = ObjectMotion::fixed;
    float adhesion = 0;         //!< β of Akinci et al. 2013: the fluid's attraction to it
    Vec<D> position{0.0f};      //!< the frame's origin in the world, m
    Mat<D> rotation{1.0f};      //!< the frame's axes in the world (columns)
    Vec<D> velocity{0.0f};      //!< m/s
    Torque<D> angular_velocity{};  //!< rad/s, about `position`
    bool moving = false;        //!< its particles are re-binned every step
    bool posed = false;         //!< position or rotation differ from the identity (set_pose)
    std::size_t first = 0;      //!< its boundary particles: [first, first + count)
    std::size_t count = 0;
    Vec<D> force{0.0f};  //!< of the fluid on the object in the last step, N (N/m in 2D)
    Torque<D> torque{};  //!< of the same about `position`, N·m (N in 2D)

    void set_pose(const Vec<D>& p, const Mat<D>& r) {
        position = p;
        rotation = r;
        posed = p != Vec<D>(0.0f) || r != Mat<D>(1.0f);
    }
    Vec<D> to_local(const Vec<D>& x) const {
        return posed ? glm::transpose(rotation) * (x - position) : x;
    }
    Vec<D> to_world(const Vec<D>& l) const { return posed ? rotation * l + position : l; }

    // Distance of x from the surface, positive where the fluid may be, m (exact outside the box,
    // the depth of the nearest face inside it).
    float signed_distance(const Vec<D>& x) const;
    // The same in the object's frame, positive outside the solid (for a container: outside the box).
    float solid_distance(const Vec<D>& local) const;
    // The solid's volume, m³ (2D: area, m²).
    float volume() const;

    // Collision response during the solve (Macklin & Müller 2013, Algorithm 1): the particle
    // centre is moved to at least `radius` from the surface on the fluid's side (out of a solid
    // through its nearest face). Called for every particle in every PBF iteration: the common
    // case, an unposed container, is a clamp here; the rest is collide_other.
    void collide(Vec<D>& x, float radius) const {
        if (collides_by_clamp()) {
            const Box<D> room = centre_room(radius);
            x = glm::clamp(x, room.min, room.max);
        } else if (!beyond_reach(x, radius)) {
            collide_other(x, radius);
        }
    }
    // x is beyond what collide_other would move (a quick test before the exact one): further
    // than `gap` from the solid, and for a box further than its grown box's corners, which
    // stand √D·gap out (a sphere of reach + gap missed them: a particle there was let in until
    // it came within the sphere, then thrown out by millimetres in one step).
    bool beyond_reach(const Vec<D>& x, float gap) const {
        if (reach <= 0 || fluid_inside) return false;  // far outside a container is not clear
        const Vec<D> d = x - position;
        const float out = reach + (kind == ShapeKind::box ? std::sqrt(float(D)) : 1.0f) * gap;
        return glm::dot(d, d) > out * out;
    }
    // When collide() is a clamp of the centre into centre_room(radius) (a pass over many
    // particles may do that clamp several lanes at a time, as PBF's Δx pass does).
    bool collides_by_clamp() const { return fluid_inside && !posed && kind == ShapeKind::box; }
    Box<D> centre_room(float radius) const {
        return {shape.min + Vec<D>(radius), shape.max - Vec<D>(radius)};
    }
    void collide_other(Vec<D>& x, float radius) const;

    // Last-resort containment: a centre on the wrong side goes to `margin` on the fluid's side;
    // true when it was moved. Run for every particle every step: an unposed container's test is
    // here, the rest is contain_other.
    bool contain(Vec<D>& x, float margin) const {
        if (!collides_by_clamp()) return !beyond_reach(x, margin) && contain_other(x, margin);
        bool inside = true;
        for (int a = 0; a < D; ++a)
            inside = inside && x[a] >= shape.min[a] + margin && x[a] <= shape.max[a] - margin;
        return inside ? false : contain_other(x, margin);
    }
    bool contain_other(Vec<D>& x, float margin) const;

  private:
    // Moves a local point of a solid to `gap` outside its surface when it is nearer than that
    // (through the nearest part of the surface); true when it moved.
    bool push_out_of_solid(Vec<D>& local, float gap) const;
    // The same for a container of any shape: a local point to `gap` inside its surface.
    bool push_into_solid(Vec<D>& local, float gap) const;
};

// Where collisions record what they did, for the forces on the objects: per fluid particle the
// sum of its displacements in a step and the object that moved it last (null: not recorded).
template <int D>
struct CollisionLog {
    Vec<D>* push = nullptr;           //!< m
    std::uint32_t* object = nullptr;  //!< index into the objects
};

}  // namespace seiche
