// The rigid-body dynamics of the bodies, by Bullet (libbullet-dev): seiche computes the fluid's
// force and torque on each dynamic body, Bullet integrates them with gravity and resolves the
// contacts between bodies, walls and obstacles, and seiche reads the poses back (docs/bodies.md).
// Bullet's types stay in rigid_dynamics.cpp.
#pragma once

#include <memory>
#include <span>

#include "seiche/boundary_object.hpp"

namespace seiche {

template <int D>
class RigidDynamics {
  public:
    // One Bullet body per object: the container as walls around its box, obstacles and static
    // and kinematic bodies as fixed or driven solids, dynamic ones of mass density × volume
    // (2D: a slab 1 m deep that only moves in the plane). Every contact shape is grown by
    // `skin` (m; the particle radius): solids come to rest one particle diameter apart, the one
    // layer of fluid particles a particle method cannot squeeze out.
    RigidDynamics(std::span<const BoundaryObject<D>> objects, std::span<const float> density,
                  std::span<const float> friction, const Vec<D>& gravity, float skin);
    ~RigidDynamics();
    RigidDynamics(const RigidDynamics&) = delete;
    RigidDynamics& operator=(const RigidDynamics&) = delete;

    void set_gravity(const Vec<D>& g);
    // Advances the dynamic objects by dt under gravity, their `force` and `torque` (held over the
    // step) and contacts, with the kinematic ones at their poses; writes their new pose,
    // velocity and angular velocity into the objects.
    void step(float dt, std::span<BoundaryObject<D>> objects);
    // Takes every moving object's pose and velocities from the objects (after a restore).
    void reset(std::span<const BoundaryObject<D>> objects);
    // Mass of object i, kg (2D: per metre of depth); 0 unless dynamic.
    float mass(std::size_t i) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

extern template class RigidDynamics<2>;
extern template class RigidDynamics<3>;

}  // namespace seiche
