// Rigid bodies moved by Bullet: the fluid's force and torque go in, poses come out (docs/bodies.md).
// Bullet, not a contact solver of our own: stacking, resting contact and friction between
// boxes, spheres and cylinders are what a rigid-body library is made for and tested on.
#include "bodies/rigid_dynamics.hpp"

#include <btBulletDynamicsCommon.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>

#include "seiche/mesh_sdf.hpp"
#include "seiche/polygon.hpp"
#include "seiche/world_def.hpp"

#include <cmath>
#include <vector>

namespace seiche {

namespace {

template <int D>
btVector3 bt(const Vec<D>& v) {
    if constexpr (D == 3)
        return {v.x, v.y, v.z};
    else
        return {v.x, v.y, 0.0f};
}

template <int D>
btTransform bt_pose(const BoundaryObject<D>& o) {
    btMatrix3x3 basis;
    if constexpr (D == 3) {
        const Mat<3>& r = o.rotation;  // columns are the object's axes
        basis.setValue(r[0][0], r[1][0], r[2][0], r[0][1], r[1][1], r[2][1], r[0][2], r[1][2],
                       r[2][2]);
    } else {
        const Mat<2>& r = o.rotation;
        basis.setValue(r[0][0], r[1][0], 0, r[0][1], r[1][1], 0, 0, 0, 1);
    }
    return btTransform(basis, bt<D>(o.position));
}

// Half the slab depth of a 2D scene's solids along z: bodies are 1 m deep (forces in N/m).
constexpr float half_depth = 0.5f;

}  // namespace

template <int D>
struct RigidDynamics<D>::Impl {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;  //!< mesh shapes' triangles
    std::vector<std::unique_ptr<btDefaultMotionState>> states;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<btRigidBody*> of_object;  //!< per object: its moving body (null: fixed or container)
    std::vector<float> masses;
    std::vector<btTransform> from;  //!< step scratch: kinematic bodies' poses at its start
    //! per object: its principal axes of inertia in its own frame (Bullet's body frame is the
    //! principal one; identity but for dynamic meshes)
    std::vector<btMatrix3x3> principal;
    std::vector<std::unique_ptr<MeshData>> principal_meshes;  //!< dynamic meshes in that frame

    Impl() { btGImpactCollisionAlgorithm::registerAlgorithm(&dispatcher); }
    ~Impl() {
        for (auto& b : bodies) world.removeRigidBody(b.get());
    }

    // An object's pose as Bullet's body holds it.
    btTransform body_pose(std::size_t i, const BoundaryObject<D>& o) const {
        return bt_pose<D>(o) * btTransform(principal[i]);
    }

    btRigidBody* add(std::unique_ptr<btCollisionShape> shape, const btTransform& pose, float mass,
                     const btVector3& inertia, float friction, bool kinematic) {
        states.push_back(std::make_unique<btDefaultMotionState>(pose));
        btRigidBody::btRigidBodyConstructionInfo info(mass, states.back().get(), shape.get(),
                                                      inertia);
        info.m_friction = friction;
        info.m_restitution = 0.0f;
        bodies.push_back(std::make_unique<btRigidBody>(info));
        btRigidBody* b = bodies.back().get();
        if (kinematic) b->setCollisionFlags(b->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
        if (mass > 0 || kinematic) b->setActivationState(DISABLE_DEACTIVATION);
        if (D == 2 && mass > 0) {
            b->setLinearFactor(btVector3(1, 1, 0));
            b->setAngularFactor(btVector3(0, 0, 1));
        }
        shapes.push_back(std::move(shape));
        world.addRigidBody(b);
        return b;
    }
};

template <int D>
RigidDynamics<D>::RigidDynamics(std::span<const BoundaryObject<D>> objects,
                                std::span<const float> density, std::span<const float> friction,
                                const Vec<D>& gravity, float skin)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.world.setGravity(bt<D>(gravity));
    m.of_object.assign(objects.size(), nullptr);
    m.masses.assign(objects.size(), 0.0f);
    m.principal.assign(objects.size(), btMatrix3x3::getIdentity());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const BoundaryObject<D>& o = objects[i];
        const Vec<D> lo = o.shape.min, hi = o.shape.max;
        if (o.fluid_inside && o.kind == ShapeKind::box) {
            // The container: a thick slab beyond each face, overlapping at the edges.
            const Vec<D> centre = 0.5f * (lo + hi), half = 0.5f * (hi - lo);
            float thick = 0;
            for (int a = 0; a < D; ++a) thick = std::max(thick, half[a]);
            for (int a = 0; a < D; ++a)
                for (int side : {-1, 1}) {
                    btVector3 h = bt<D>(half + Vec<D>(thick));
                    if (D == 2) h.setZ(10 * half_depth + thick);
                    h[a] = thick;
                    btVector3 c = bt<D>(centre);
                    c[a] += float(side) * (half[a] + thick - skin);
                    auto shape = std::make_unique<btBoxShape>(h);
                    shape->setMargin(0.5f * skin);
                    btTransform t = bt_pose<D>(o);
                    m.add(std::move(shape), t * btTransform(btMatrix3x3::getIdentity(), c), 0.0f,
                          btVector3(0, 0, 0), friction[i], false);
                }
            continue;
        }
        // A dynamic mesh's principal axes and moments (Bullet wants a diagonal inertia).
        btVector3 principal_moments(0, 0, 0);
        if constexpr (D == 3)
            if (o.kind == ShapeKind::mesh && o.mesh && o.motion == ObjectMotion::dynamic) {
                const MassProperties mp = mass_properties(*o.mesh);
                const auto& t = mp.inertia;  // xx, yy, zz, xy, yz, zx
                btMatrix3x3 inertia(t[0], t[3], t[5], t[3], t[1], t[4], t[5], t[4], t[2]);
                btMatrix3x3 rot = btMatrix3x3::getIdentity();
                inertia.diagonalize(rot, 1e-9f, 50);  // inertia_before = rot · diag · rotᵀ
                m.principal[i] = rot;
                principal_moments = btVector3(inertia[0][0], inertia[1][1], inertia[2][2]);
            }
        // The shape grown by `grow` on every side.
        auto make_shape = [&](float grow) -> std::unique_ptr<btCollisionShape> {
            switch (o.kind) {
                case ShapeKind::box: {
                    btVector3 h = bt<D>(0.5f * (hi - lo) + Vec<D>(grow));
                    if (D == 2) h.setZ(half_depth);
                    return std::make_unique<btBoxShape>(h);
                }
                case ShapeKind::sphere:
                    if (D == 3) return std::make_unique<btSphereShape>(o.radius + grow);
                    return std::make_unique<btCylinderShapeZ>(
                        btVector3(o.radius + grow, o.radius + grow, half_depth));
                case ShapeKind::cylinder:
                    return std::make_unique<btCylinderShape>(
                        btVector3(o.radius + grow, o.half_height + grow, o.radius + grow));
                case ShapeKind::polygon: {
                    // Any simple polygon: a compound of its triangles as prisms through the slab,
                    // each grown by its margin (Bullet adds a convex hull's margin outside it).
                    if (!o.polygon) return nullptr;
                    auto compound = std::make_unique<btCompoundShape>();
                    const auto& c = *o.polygon;
                    for (const auto& t : triangulate(c)) {
                        auto prism = std::make_unique<btConvexHullShape>();
                        for (std::size_t k : t)
                            for (float z : {-half_depth, half_depth})
                                prism->addPoint(btVector3(c[k].x, c[k].y, z), false);
                        prism->recalcLocalAabb();
                        prism->setMargin(grow);
                        compound->addChildShape(btTransform::getIdentity(), prism.get());
                        m.shapes.push_back(std::move(prism));
                    }
                    return compound;
                }
                case ShapeKind::mesh: {
                    // Fixed or kinematic: Bullet's triangle-mesh shape, on the body's own vertex
                    // and index arrays (no skin; its margin does that). Dynamic: a GImpact shape
                    // (concave, moving) on the vertices turned into the principal frame.
                    if (!o.mesh) return nullptr;
                    const bool moves = o.motion == ObjectMotion::dynamic;
                    if (moves && m.principal_meshes.size() <= i) {
                        auto turned = std::make_unique<MeshData>(*o.mesh);
                        const btMatrix3x3 back = m.principal[i].transpose();
                        for (auto& v : turned->vertices) {
                            const btVector3 q = back * btVector3(v[0], v[1], v[2]);
                            v = {q.x(), q.y(), q.z()};
                        }
                        m.principal_meshes.resize(i + 1);
                        m.principal_meshes[i] = std::move(turned);
                    }
                    const MeshData& md = moves ? *m.principal_meshes[i] : *o.mesh;
                    btIndexedMesh im;
                    im.m_numTriangles = int(md.triangles.size());
                    im.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(md.triangles.data());
                    im.m_triangleIndexStride = 3 * sizeof(std::uint32_t);
                    im.m_numVertices = int(md.vertices.size());
                    im.m_vertexBase = reinterpret_cast<const unsigned char*>(md.vertices.data());
                    im.m_vertexStride = 3 * sizeof(float);
                    im.m_indexType = PHY_INTEGER;
                    im.m_vertexType = PHY_FLOAT;
                    auto array = std::make_unique<btTriangleIndexVertexArray>();
                    array->addIndexedMesh(im, PHY_INTEGER);
                    std::unique_ptr<btCollisionShape> shape;
                    if (moves) {
                        auto g = std::make_unique<btGImpactMeshShape>(array.get());
                        g->setMargin(grow);
                        g->updateBound();
                        shape = std::move(g);
                    } else {
                        shape = std::make_unique<btBvhTriangleMeshShape>(array.get(), true);
                    }
                    m.meshes.push_back(std::move(array));
                    return shape;
                }
            }
            return nullptr;
        };
        std::unique_ptr<btCollisionShape> shape = make_shape(skin);
        const btVector3 box_centre =
            o.kind == ShapeKind::box ? bt<D>(0.5f * (hi + lo)) : btVector3(0, 0, 0);  // obstacles
        if (!shape) continue;
        const bool gimpact = o.kind == ShapeKind::mesh && o.motion == ObjectMotion::dynamic;
        if (o.kind != ShapeKind::polygon && !gimpact && (o.kind != ShapeKind::sphere || D == 2))
            shape->setMargin(0.5f * skin);
        btTransform pose = m.body_pose(i, o) * btTransform(btMatrix3x3::getIdentity(), box_centre);
        const bool dynamic = o.motion == ObjectMotion::dynamic;
        const bool kinematic = o.motion == ObjectMotion::kinematic;
        const float mass =
            dynamic ? density[i] * o.volume() * (D == 2 ? 2.0f * half_depth : 1.0f) : 0.0f;
        // Inertia of the true shape (the contact shape is grown by the skin).
        btVector3 inertia(0, 0, 0);
        if (mass > 0 && gimpact) {
            inertia = float(density[i]) * principal_moments;  // the moments are per unit density
        } else if (mass > 0 && o.kind == ShapeKind::polygon) {
            if constexpr (D == 2) {  // about z (the other axes are locked): ∫ρ|x|² over the area
                const float iz = float(mass * polar_moment(*o.polygon) / std::abs(signed_area(*o.polygon)));
                inertia = btVector3(iz, iz, iz);
            }
        } else if (mass > 0) {
            make_shape(0.0f)->calculateLocalInertia(mass, inertia);
        }
        btRigidBody* b = m.add(std::move(shape), pose, mass, inertia, friction[i], kinematic);
        if (dynamic || kinematic) m.of_object[i] = b;
        m.masses[i] = mass;
    }
    reset(objects);
}

template <int D>
RigidDynamics<D>::~RigidDynamics() = default;

template <int D>
void RigidDynamics<D>::set_gravity(const Vec<D>& g) {
    impl_->world.setGravity(bt<D>(g));
    for (auto& b : impl_->bodies)
        if (b->getInvMass() > 0) b->setGravity(bt<D>(g));
}

template <int D>
float RigidDynamics<D>::mass(std::size_t i) const {
    return impl_->masses[i];
}

template <int D>
void RigidDynamics<D>::reset(std::span<const BoundaryObject<D>> objects) {
    for (std::size_t i = 0; i < objects.size(); ++i) {
        btRigidBody* b = impl_->of_object[i];
        if (!b) continue;
        const BoundaryObject<D>& o = objects[i];
        const btTransform pose = impl_->body_pose(i, o);
        b->setWorldTransform(pose);
        b->setInterpolationWorldTransform(pose);
        b->getMotionState()->setWorldTransform(pose);
        b->setLinearVelocity(bt<D>(o.velocity));
        if constexpr (D == 3)
            b->setAngularVelocity(bt<3>(o.angular_velocity));
        else
            b->setAngularVelocity(btVector3(0, 0, o.angular_velocity));
        b->clearForces();
    }
}

template <int D>
void RigidDynamics<D>::step(float dt, std::span<BoundaryObject<D>> objects) {
    Impl& m = *impl_;
    // Steps of at most 1 ms, each of exactly its length (no fixed-step interpolation), so that
    // contacts stay stiff. Bullet clears applied forces after every step: the fluid's force and
    // torque are applied again before each, and kinematic bodies are moved along in equal parts
    // so Bullet sees their true velocity.
    const int n = std::max(1, int(std::ceil(dt / 1.0e-3f - 1e-4f)));
    std::vector<btTransform>& from = m.from;
    from.resize(objects.size());
    for (std::size_t i = 0; i < objects.size(); ++i)
        if (m.of_object[i] && objects[i].motion == ObjectMotion::kinematic)
            m.of_object[i]->getMotionState()->getWorldTransform(from[i]);
    for (int k = 1; k <= n; ++k) {
        const float f = float(k) / float(n);
        for (std::size_t i = 0; i < objects.size(); ++i) {
            btRigidBody* b = m.of_object[i];
            if (!b) continue;
            BoundaryObject<D>& o = objects[i];
            if (o.motion == ObjectMotion::kinematic) {
                const btTransform to = m.body_pose(i, o);
                btTransform t;
                t.setOrigin(from[i].getOrigin().lerp(to.getOrigin(), f));
                t.setRotation(from[i].getRotation().slerp(to.getRotation(), f));
                b->getMotionState()->setWorldTransform(k == n ? to : t);  // Bullet reads it there
                continue;
            }
            b->applyCentralForce(bt<D>(o.force));
            if constexpr (D == 3)
                b->applyTorque(bt<3>(o.torque));
            else
                b->applyTorque(btVector3(0, 0, o.torque));
        }
        m.world.stepSimulation(dt / float(n), 0);
    }
    m.world.clearForces();
    for (std::size_t i = 0; i < objects.size(); ++i) {
        btRigidBody* b = m.of_object[i];
        if (!b || objects[i].motion != ObjectMotion::dynamic) continue;
        BoundaryObject<D>& o = objects[i];
        const btTransform& t = b->getWorldTransform();
        const btMatrix3x3 r = t.getBasis() * m.principal[i].transpose();
        const btVector3 p = t.getOrigin(), v = b->getLinearVelocity(), w = b->getAngularVelocity();
        Mat<D> rot;
        Vec<D> pos;
        for (int a = 0; a < D; ++a) {
            pos[a] = p[a];
            for (int c = 0; c < D; ++c) rot[c][a] = r[a][c];
            o.velocity[a] = v[a];
        }
        o.set_pose(pos, rot);
        if constexpr (D == 3)
            o.angular_velocity = Vec<3>(w.x(), w.y(), w.z());
        else
            o.angular_velocity = w.z();
    }
}

template class RigidDynamics<2>;
template class RigidDynamics<3>;

}  // namespace seiche
