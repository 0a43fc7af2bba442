// Bodies' shapes: the boundary object of a BodyDef, and its surface sampled with boundary
// particles (Akinci et al. 2012, sec. 3: one or more layers of particles on the solid's surface)
// — boxes on a lattice, spheres on Fibonacci spirals, circles and cylinders on rings.
#include <cmath>
#include <algorithm>
#include <map>

#include <glm/gtc/quaternion.hpp>
#include <numbers>

#include "seiche/bodies.hpp"
#include "seiche/mesh_sdf.hpp"
#include "seiche/polygon.hpp"

namespace seiche {

namespace {

constexpr double pi = std::numbers::pi;

// n points on a circle of radius r in the plane of axes (a, b) at height y along axis c.
template <int D>
void add_ring(std::vector<Vec<D>>& out, double r, double y, int n) {
    for (int k = 0; k < n; ++k) {
        const double t = 2.0 * pi * (k + 0.5) / n;
        Vec<D> p(0.0f);
        p[0] = float(r * std::cos(t));
        if constexpr (D == 3) {
            p[1] = float(y);
            p[2] = float(r * std::sin(t));
        } else {
            p[1] = float(r * std::sin(t));
        }
        out.push_back(p);
    }
}

int ring_count(double r, double spacing) {
    return std::max(1, int(std::lround(2.0 * pi * r / spacing)));
}

// Layer radii inward from the surface: R − offset − l·spacing while positive; a layer that would
// shrink below a quarter spacing becomes one point at the centre.
std::vector<double> layer_radii(double surface, const WallSampling& s) {
    std::vector<double> r;
    for (int l = 0; l < s.layers; ++l) {
        const double rl = surface - s.offset - l * double(s.spacing);
        if (rl < 0.25 * s.spacing) {
            r.push_back(0.0);
            break;
        }
        r.push_back(rl);
    }
    return r;
}

template <int D>
void sample_sphere(double radius, const WallSampling& s, std::vector<Vec<D>>& out) {
    for (double r : layer_radii(radius, s)) {
        if (r == 0.0) {
            out.push_back(Vec<D>(0.0f));
            continue;
        }
        if constexpr (D == 2) {
            add_ring<2>(out, r, 0.0, ring_count(r, s.spacing));
        } else {
            // A Fibonacci spiral: n nearly evenly spaced points, one per spacing² of surface.
            const int n = std::max(1, int(std::lround(4.0 * pi * r * r / (s.spacing * s.spacing))));
            const double golden = pi * (3.0 - std::sqrt(5.0));
            for (int k = 0; k < n; ++k) {
                const double y = 1.0 - 2.0 * (k + 0.5) / n, ring = std::sqrt(1.0 - y * y);
                const double t = golden * k;
                out.push_back(Vec<D>(float(r * ring * std::cos(t)), float(r * y),
                                     float(r * ring * std::sin(t))));
            }
        }
    }
}

// A cylinder round y: per layer, rings along the side and concentric rings on both caps.
void sample_cylinder(double radius, double half_height, const WallSampling& s,
                     std::vector<Vec<3>>& out) {
    for (int l = 0; l < s.layers; ++l) {
        const double r = radius - s.offset - l * double(s.spacing),
                     y = half_height - s.offset - l * double(s.spacing);
        if (r < 0.25 * s.spacing || y < 0.0) {
            if (l == 0) out.push_back(Vec<3>(0.0f));  // thinner than the offsets: one particle
            break;
        }
        const int along = std::max(1, int(std::lround(2.0 * y / s.spacing)));
        for (int k = 0; k <= along; ++k) add_ring<3>(out, r, -y + 2.0 * y * k / along, ring_count(r, s.spacing));
        for (double side : {-y, y}) {
            if (y == 0.0 && side > 0) break;
            for (double rk = r - s.spacing; rk > -0.5 * s.spacing; rk -= s.spacing) {
                if (rk < 0.5 * s.spacing) {
                    out.push_back(Vec<3>(0.0f, float(side), 0.0f));
                    break;
                }
                add_ring<3>(out, rk, side, ring_count(rk, s.spacing));
            }
        }
    }
}

}  // namespace

template <int D>
Mat<D> rotation_from_euler(const Vec3d& a) {
    const double cz = std::cos(a[2]), sz = std::sin(a[2]);
    if constexpr (D == 2) {
        Mat<2> r;
        r[0] = Vec<2>(float(cz), float(sz));  // columns: the turned x and y axes
        r[1] = Vec<2>(float(-sz), float(cz));
        return r;
    } else {
        const double cx = std::cos(a[0]), sx = std::sin(a[0]), cy = std::cos(a[1]),
                     sy = std::sin(a[1]);
        // Rz·Ry·Rx, written by columns (glm is column-major).
        Mat<3> r;
        r[0] = Vec<3>(float(cz * cy), float(sz * cy), float(-sy));
        r[1] = Vec<3>(float(cz * sy * sx - sz * cx), float(sz * sy * sx + cz * cx), float(cy * sx));
        r[2] = Vec<3>(float(cz * sy * cx + sz * sx), float(sz * sy * cx - cz * sx), float(cy * cx));
        return r;
    }
}

template <int D>
Mat<D> rotation_step(const Torque<D>& w, float t) {
    if constexpr (D == 2) {
        return rotation_from_euler<2>({0, 0, double(w) * t});
    } else {
        // Rodrigues: R = I + sin θ K + (1 − cos θ) K², K the cross-product matrix of the axis.
        const double len = glm::length(Vec<3>(w)), theta = len * t;
        if (!(theta > 0)) return Mat<3>(1.0f);
        const Vec<3> k = w / float(len);
        Mat<3> K(0.0f);  // columns
        K[0] = Vec<3>(0, k.z, -k.y);
        K[1] = Vec<3>(-k.z, 0, k.x);
        K[2] = Vec<3>(k.y, -k.x, 0);
        return Mat<3>(1.0f) + float(std::sin(theta)) * K + float(1.0 - std::cos(theta)) * (K * K);
    }
}

template <int D>
void keyframe_pose(const std::vector<Keyframe>& keys, double t, Vec<D>& position, Mat<D>& rotation) {
    std::size_t j = 0;
    while (j + 1 < keys.size() && keys[j + 1].time <= t) ++j;
    const Keyframe& a = keys[j];
    const Keyframe& b = j + 1 < keys.size() ? keys[j + 1] : keys[j];
    const double f = b.time > a.time ? std::clamp((t - a.time) / (b.time - a.time), 0.0, 1.0) : 0.0;
    for (int k = 0; k < D; ++k) position[k] = float(a.position[k] + f * (b.position[k] - a.position[k]));
    if constexpr (D == 2) {
        rotation = rotation_from_euler<2>({0, 0, a.rotation[2] + f * (b.rotation[2] - a.rotation[2])});
    } else {
        const glm::quat qa = glm::quat_cast(rotation_from_euler<3>(a.rotation));
        const glm::quat qb = glm::quat_cast(rotation_from_euler<3>(b.rotation));
        rotation = glm::mat3_cast(glm::slerp(qa, qb, float(f)));
    }
}

template <int D>
BoundaryObject<D> body_object(const BodyDef& b, std::size_t index, float sdf_cell) {
    BoundaryObject<D> o;
    o.name = body_name(b, index);
    o.fluid_inside = b.inside;
    switch (b.shape) {
        case BodyShape::box: {
            const Vec<D> half = 0.5f * to_vec<D>(b.size);
            o.kind = ShapeKind::box;
            o.shape = {-half, half};
            break;
        }
        case BodyShape::sphere:
        case BodyShape::circle:
            o.kind = ShapeKind::sphere;
            o.radius = float(b.radius);
            o.shape = {Vec<D>(-o.radius), Vec<D>(o.radius)};
            break;
        case BodyShape::mesh:
            if constexpr (D == 3) {
                o.kind = ShapeKind::mesh;
                o.mesh = b.mesh;
                if (!o.mesh) break;
                const MassProperties mp = mass_properties(*o.mesh);
                // A dynamic body turns about its centre of mass: the mesh is moved so that its
                // centre is the frame's origin, put at `position`.
                if (b.motion == BodyMotion::dynamic)
                    o.mesh = std::make_shared<const MeshData>(shifted(*o.mesh, mp.centroid));
                o.shape = mesh_bounds(*o.mesh);
                o.mesh_volume = float(mp.volume);
                // The grid reaches past the outermost boundary layer (2 layers, 1.525·d = 3.05
                // cells out for a mesh that holds the fluid).
                if (sdf_cell > 0) o.sdf = build_sdf(*o.mesh, sdf_cell, (b.inside ? 6.0f : 4.0f) * sdf_cell);
            }
            break;
        case BodyShape::polygon:
            if constexpr (D == 2) {
                o.kind = ShapeKind::polygon;
                Polygon p;
                for (const Vec3d& v : b.vertices) p.push_back(Vec<2>(float(v[0]), float(v[1])));
                if (p.size() < 3) break;  // refused by validate()
                if (signed_area(p) < 0) std::reverse(p.begin(), p.end());
                const Vec<2> c = centroid(p);
                Box<2> bounds{Vec<2>(1e30f), Vec<2>(-1e30f)};
                for (Vec<2>& v : p) {
                    v -= c;
                    bounds.min = glm::min(bounds.min, v);
                    bounds.max = glm::max(bounds.max, v);
                }
                o.shape = bounds;
                o.polygon = std::make_shared<const Polygon>(std::move(p));
            }
            break;
        case BodyShape::cylinder: {
            o.kind = ShapeKind::cylinder;
            o.radius = float(b.radius);
            o.half_height = float(0.5 * b.height);
            Vec<D> half(o.radius);
            half[1] = o.half_height;
            o.shape = {-half, half};
            break;
        }
    }
    o.reach = glm::length(glm::max(glm::abs(o.shape.min), glm::abs(o.shape.max)));
    o.adhesion = float(b.adhesion);
    o.motion = b.motion == BodyMotion::dynamic     ? ObjectMotion::dynamic
               : b.motion == BodyMotion::kinematic ? ObjectMotion::kinematic
                                                   : ObjectMotion::fixed;
    if (b.keyframes && !b.keyframes->empty()) {
        Vec<D> p;
        Mat<D> r;
        keyframe_pose<D>(*b.keyframes, 0.0, p, r);
        o.set_pose(p, r);
    } else {
        o.set_pose(to_vec<D>(b.position), rotation_from_euler<D>(b.rotation));
    }
    if (b.motion != BodyMotion::fixed) {
        o.velocity = to_vec<D>(b.velocity);
        if constexpr (D == 3)
            o.angular_velocity = to_vec<3>(b.angular_velocity);
        else
            o.angular_velocity = float(b.angular_velocity[2]);
        o.moving = true;
    }
    return o;
}

template <int D>
Boundary<D> sample_solid(const BoundaryObject<D>& o, const WallSampling& s) {
    Boundary<D> b;
    switch (o.kind) {
        case ShapeKind::box:
            return sample_solid_box<D>(o.shape, s);
        case ShapeKind::sphere:
            sample_sphere<D>(o.radius, s, b.x);
            break;
        case ShapeKind::cylinder:
            if constexpr (D == 3) sample_cylinder(o.radius, o.half_height, s, b.x);
            break;
        case ShapeKind::mesh:
            if constexpr (D == 3)
                if (o.sdf) b.x = sample_mesh_surface(*o.sdf, o.shape, s, o.fluid_inside);
            break;
        case ShapeKind::polygon:
            if constexpr (D == 2)
                if (o.polygon) b.x = sample_polygon(*o.polygon, s);
            break;
    }
    b.volume.assign(b.x.size(), 0.0f);
    return b;
}

template Mat<2> rotation_from_euler<2>(const Vec3d&);
template Mat<3> rotation_from_euler<3>(const Vec3d&);
template void keyframe_pose<2>(const std::vector<Keyframe>&, double, Vec<2>&, Mat<2>&);
template void keyframe_pose<3>(const std::vector<Keyframe>&, double, Vec<3>&, Mat<3>&);
template Mat<2> rotation_step<2>(const Torque<2>&, float);
template Mat<3> rotation_step<3>(const Torque<3>&, float);
template BoundaryObject<2> body_object<2>(const BodyDef&, std::size_t, float);
template BoundaryObject<3> body_object<3>(const BodyDef&, std::size_t, float);
template Boundary<2> sample_solid<2>(const BoundaryObject<2>&, const WallSampling&);
template Boundary<3> sample_solid<3>(const BoundaryObject<3>&, const WallSampling&);

namespace {

// Points of a closed loop round `axis` (0 x, 1 y, 2 z) through the local origin, radius r, at
// offset h along the axis; n points.
std::vector<Vec<3>> loop(int axis, float r, float h, int n) {
    std::vector<Vec<3>> out;
    const int a = (axis + 1) % 3, b = (axis + 2) % 3;
    for (int k = 0; k < n; ++k) {
        const double t = 2.0 * pi * k / n;
        Vec<3> p(0.0f);
        p[axis] = h;
        p[a] = float(r * std::cos(t));
        p[b] = float(r * std::sin(t));
        out.push_back(p);
    }
    return out;
}

template <int D>
void push_point(std::vector<float>& v, const Vec<D>& p) {
    v.push_back(p[0]);
    v.push_back(p[1]);
    v.push_back(D == 3 ? p[D - 1] : 0.0f);
}

}  // namespace

template <int D>
void append_surface(const BoundaryObject<D>& o, SurfaceMesh& m) {
    m.dimension = D;
    auto vertex = [&](const Vec<D>& local, const Vec<D>& normal_local) {
        push_point<D>(m.position, o.to_world(local));
        push_point<D>(m.normal, o.rotation * normal_local);
        return std::uint32_t(m.position.size() / 3 - 1);
    };
    if constexpr (D == 2) {
        std::vector<Vec<2>> pts, normals;
        if (o.kind == ShapeKind::box) {
            const Vec<2> lo = o.shape.min, hi = o.shape.max;
            // Counter-clockwise, fluid (outside) on the left of each segment seen from outside:
            // clockwise round the solid.
            const Vec<2> c[4] = {{lo.x, lo.y}, {lo.x, hi.y}, {hi.x, hi.y}, {hi.x, lo.y}};
            for (int k = 0; k < 4; ++k) {
                const Vec<2> e = c[(k + 1) % 4] - c[k];
                const Vec<2> n = glm::normalize(Vec<2>(-e.y, e.x));
                const std::uint32_t a = vertex(c[k], n), b = vertex(c[(k + 1) % 4], n);
                m.index.insert(m.index.end(), {a, b});
            }
            return;
        }
        if (o.kind == ShapeKind::polygon) {
            if (!o.polygon) return;
            const auto& c = *o.polygon;  // counter-clockwise: walk it backwards, as the box above
            for (std::size_t k = c.size(); k-- > 0;) {
                const Vec<2> a = c[(k + 1) % c.size()], b = c[k];
                const Vec<2> e = b - a;
                const Vec<2> n = glm::normalize(Vec<2>(-e.y, e.x));
                const std::uint32_t ia = vertex(a, n), ib = vertex(b, n);
                m.index.insert(m.index.end(), {ia, ib});
            }
            return;
        }
        const int n = 64;
        const std::uint32_t first = std::uint32_t(m.position.size() / 3);
        for (int k = 0; k < n; ++k) {
            const double t = -2.0 * pi * k / n;  // clockwise
            const Vec<2> dir(float(std::cos(t)), float(std::sin(t)));
            vertex(o.radius * dir, dir);
        }
        for (int k = 0; k < n; ++k)
            m.index.insert(m.index.end(), {first + std::uint32_t(k), first + std::uint32_t((k + 1) % n)});
    } else {
        auto tri = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
            m.index.insert(m.index.end(), {a, b, c});
        };
        switch (o.kind) {
            case ShapeKind::polygon:
                return;  // 2D only
            case ShapeKind::mesh: {
                if (!o.mesh) return;
                for (const auto& t : o.mesh->triangles) {  // flat: three vertices per triangle
                    Vec<3> p[3];
                    for (int k = 0; k < 3; ++k)
                        p[k] = Vec<3>(o.mesh->vertices[t[k]][0], o.mesh->vertices[t[k]][1],
                                      o.mesh->vertices[t[k]][2]);
                    const Vec<3> c = glm::cross(p[1] - p[0], p[2] - p[0]);
                    const Vec<3> n = glm::length(c) > 0 ? glm::normalize(c) : Vec<3>(0, 1, 0);
                    const std::uint32_t a = vertex(p[0], n), b = vertex(p[1], n), cc = vertex(p[2], n);
                    tri(a, b, cc);
                }
                return;
            }
            case ShapeKind::box: {
                const Vec<3> lo = o.shape.min, hi = o.shape.max;
                for (int axis = 0; axis < 3; ++axis)
                    for (int side = 0; side < 2; ++side) {
                        Vec<3> n(0.0f);
                        n[axis] = side ? 1.0f : -1.0f;
                        const int a = (axis + 1) % 3, b = (axis + 2) % 3;
                        std::uint32_t v[4];
                        for (int k = 0; k < 4; ++k) {
                            Vec<3> p;
                            p[axis] = side ? hi[axis] : lo[axis];
                            p[a] = (k == 1 || k == 2) ? hi[a] : lo[a];
                            p[b] = (k >= 2) ? hi[b] : lo[b];
                            v[k] = vertex(p, n);
                        }
                        // (a, b) turn counter-clockwise seen from +axis: flip on the low side.
                        if (side) {
                            tri(v[0], v[1], v[2]);
                            tri(v[0], v[2], v[3]);
                        } else {
                            tri(v[0], v[2], v[1]);
                            tri(v[0], v[3], v[2]);
                        }
                    }
                return;
            }
            case ShapeKind::sphere: {
                const int rings = 16, segments = 32;
                const std::uint32_t first = std::uint32_t(m.position.size() / 3);
                for (int i = 0; i <= rings; ++i) {
                    const double phi = pi * i / rings;
                    for (int j = 0; j <= segments; ++j) {
                        const double t = 2.0 * pi * j / segments;
                        const Vec<3> dir(float(std::sin(phi) * std::cos(t)), float(std::cos(phi)),
                                         float(-std::sin(phi) * std::sin(t)));
                        vertex(o.radius * dir, dir);
                    }
                }
                for (int i = 0; i < rings; ++i)
                    for (int j = 0; j < segments; ++j) {
                        const std::uint32_t a = first + std::uint32_t(i * (segments + 1) + j),
                                            b = a + std::uint32_t(segments + 1);
                        tri(a, b, b + 1);
                        tri(a, b + 1, a + 1);
                    }
                return;
            }
            case ShapeKind::cylinder: {
                const int n = 48;
                const float h = o.half_height, r = o.radius;
                const std::uint32_t side = std::uint32_t(m.position.size() / 3);
                for (int k = 0; k <= n; ++k) {
                    const double t = 2.0 * pi * k / n;
                    const Vec<3> dir(float(std::cos(t)), 0.0f, float(-std::sin(t)));
                    vertex(Vec<3>(r * dir.x, -h, r * dir.z), dir);
                    vertex(Vec<3>(r * dir.x, h, r * dir.z), dir);
                }
                for (int k = 0; k < n; ++k) {
                    const std::uint32_t a = side + 2 * std::uint32_t(k);
                    tri(a, a + 2, a + 3);
                    tri(a, a + 3, a + 1);
                }
                for (float y : {-h, h}) {
                    const Vec<3> n_cap(0.0f, y > 0 ? 1.0f : -1.0f, 0.0f);
                    const std::uint32_t centre = vertex(Vec<3>(0.0f, y, 0.0f), n_cap);
                    for (int k = 0; k <= n; ++k) {
                        const double t = 2.0 * pi * k / n;
                        vertex(Vec<3>(float(r * std::cos(t)), y, float(-r * std::sin(t))), n_cap);
                    }
                    for (int k = 0; k < n; ++k) {
                        const std::uint32_t a = centre + 1 + std::uint32_t(k);
                        if (y > 0)
                            tri(centre, a, a + 1);
                        else
                            tri(centre, a + 1, a);
                    }
                }
                return;
            }
        }
    }
}

template <int D>
void append_outline(const BoundaryObject<D>& o, std::vector<float>& seg) {
    auto line = [&](const Vec<D>& a, const Vec<D>& b) {
        push_point<D>(seg, o.to_world(a));
        push_point<D>(seg, o.to_world(b));
    };
    if (o.kind == ShapeKind::box) {
        for (int k = 0; k < (1 << D); ++k)
            for (int a = 0; a < D; ++a) {
                if (k >> a & 1) continue;
                Vec<D> p, q;
                for (int c = 0; c < D; ++c) {
                    p[c] = (k >> c & 1) ? o.shape.max[c] : o.shape.min[c];
                    q[c] = ((k | 1 << a) >> c & 1) ? o.shape.max[c] : o.shape.min[c];
                }
                line(p, q);
            }
        return;
    }
    if constexpr (D == 3) {
        if (o.kind == ShapeKind::mesh) {
            // Feature edges: where the two triangles' normals differ by more than 40°, and any
            // edge of one triangle only.
            if (!o.mesh) return;
            const auto& m = *o.mesh;
            auto vtx = [&](std::uint32_t i) {
                return Vec<3>(m.vertices[i][0], m.vertices[i][1], m.vertices[i][2]);
            };
            std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Vec<3>>> faces;
            for (const auto& t : m.triangles) {
                const Vec<3> c = glm::cross(vtx(t[1]) - vtx(t[0]), vtx(t[2]) - vtx(t[0]));
                const Vec<3> n = glm::length(c) > 0 ? glm::normalize(c) : Vec<3>(0.0f);
                for (int k = 0; k < 3; ++k) {
                    const std::uint32_t a = t[k], b = t[(k + 1) % 3];
                    faces[{std::min(a, b), std::max(a, b)}].push_back(n);
                }
            }
            for (const auto& [e, ns] : faces)
                if (ns.size() != 2 || glm::dot(ns[0], ns[1]) < 0.766f) line(vtx(e.first), vtx(e.second));
            return;
        }
    }
    if constexpr (D == 2) {
        if (o.kind == ShapeKind::polygon) {
            if (!o.polygon) return;
            const auto& c = *o.polygon;
            for (std::size_t k = 0; k < c.size(); ++k) line(c[k], c[(k + 1) % c.size()]);
            return;
        }
        const int n = 48;
        for (int k = 0; k < n; ++k) {
            const double t0 = 2.0 * pi * k / n, t1 = 2.0 * pi * (k + 1) / n;
            line(o.radius * Vec<2>(float(std::cos(t0)), float(std::sin(t0))),
                 o.radius * Vec<2>(float(std::cos(t1)), float(std::sin(t1))));
        }
    } else {
        std::vector<std::vector<Vec<3>>> loops;
        if (o.kind == ShapeKind::sphere) {
            for (int axis = 0; axis < 3; ++axis) loops.push_back(loop(axis, o.radius, 0.0f, 48));
        } else {
            loops.push_back(loop(1, o.radius, -o.half_height, 48));
            loops.push_back(loop(1, o.radius, o.half_height, 48));
            for (int k = 0; k < 4; ++k) line(loops[0][std::size_t(12 * k)], loops[1][std::size_t(12 * k)]);
        }
        for (const auto& l : loops)
            for (std::size_t k = 0; k < l.size(); ++k) line(l[k], l[(k + 1) % l.size()]);
    }
}

template void append_surface<2>(const BoundaryObject<2>&, SurfaceMesh&);
template void append_surface<3>(const BoundaryObject<3>&, SurfaceMesh&);
template void append_outline<2>(const BoundaryObject<2>&, std::vector<float>&);
template void append_outline<3>(const BoundaryObject<3>&, std::vector<float>&);

}  // namespace seiche
