// Keeping the fluid in the container. Boundary particles alone do not: under the unilateral
// constraint a lone particle skating along the floor feels no pressure until its density
// reaches ρ0, which may only happen inside the wall. So the PBF iterations also collide the
// particles with the container planes (as Macklin & Müller 2013, Algorithm 1 does), and a last-
// resort containment after the solver counts anything that still got out.
#include <algorithm>
#include <atomic>
#include <cmath>

#include "seiche/boundary.hpp"
#include "seiche/boundary_object.hpp"
#include "seiche/mesh_sdf.hpp"
#include "seiche/polygon.hpp"
#include "seiche/parallel.hpp"

namespace seiche {

namespace {

// Moves p out of the solid box through the face it is nearest to; true when it was inside.
template <int D>
bool push_out(Vec<D>& p, const Box<D>& solid, float margin) {
    int axis = -1;
    float best = 0, target = 0;
    for (int a = 0; a < D; ++a) {
        const float below = p[a] - solid.min[a], above = solid.max[a] - p[a];
        if (!(below > 0 && above > 0)) return false;
        const float depth = std::min(below, above);
        if (axis < 0 || depth < best)
            axis = a, best = depth,
            target = below <= above ? solid.min[a] - margin : solid.max[a] + margin;
    }
    p[axis] = target;
    return true;
}

}  // namespace

template <int D>
void collide_with_box(std::span<Vec<D>> x, const Box<D>& inside, std::span<const Box<D>> solids) {
    parallel_for(x.size(), [&](std::size_t i) {
        x[i] = glm::clamp(x[i], inside.min, inside.max);
        for (const Box<D>& s : solids) push_out(x[i], s, 0.0f);
    });
}

template <int D>
std::size_t contain(std::span<Vec<D>> x, const Box<D>& box, float margin,
                    std::span<const Box<D>> solids) {
    std::size_t moved = 0;
    for (auto& p : x) {
        bool out = false;
        for (const Box<D>& s : solids) out = push_out(p, s, margin) || out;
        for (int a = 0; a < D; ++a) {
            const float lo = box.min[a] + margin, hi = box.max[a] - margin;
            if (p[a] < lo || p[a] > hi) {
                p[a] = std::clamp(p[a], lo, hi);
                out = true;
            }
        }
        moved += out ? 1 : 0;
    }
    return moved;
}

template <int D>
float BoundaryObject<D>::solid_distance(const Vec<D>& l) const {
    switch (kind) {
        case ShapeKind::mesh:
            if constexpr (D == 3) {
                if (sdf) return sdf->distance(l);
                const float d = mesh_distance(*mesh, l);
                return inside_mesh(*mesh, l) ? -d : d;
            }
            break;
        case ShapeKind::polygon:
            if constexpr (D == 2) {
                const float d = nearest_on_outline(*polygon, l).distance;
                return inside_polygon(*polygon, l) ? -d : d;
            }
            break;
        case ShapeKind::sphere:
            return glm::length(l) - radius;
        case ShapeKind::cylinder:
            if constexpr (D == 3) {
                // Radial and axial distances combined as for any capped cylinder.
                const float dr = std::sqrt(l.x * l.x + l.z * l.z) - radius,
                            dy = std::abs(l.y) - half_height;
                const float out = std::sqrt(std::max(dr, 0.0f) * std::max(dr, 0.0f) +
                                            std::max(dy, 0.0f) * std::max(dy, 0.0f));
                return out + std::min(std::max(dr, dy), 0.0f);
            }
            [[fallthrough]];
        case ShapeKind::box:
            break;
    }
    // Per axis: how far inside the slab [min, max] (negative outside it).
    float inside = 1e30f, outside2 = 0.0f;
    for (int a = 0; a < D; ++a) {
        const float d = std::min(l[a] - shape.min[a], shape.max[a] - l[a]);
        inside = std::min(inside, d);
        if (d < 0) outside2 += d * d;
    }
    return inside >= 0 ? -inside : std::sqrt(outside2);
}

template <int D>
float BoundaryObject<D>::signed_distance(const Vec<D>& x) const {
    const float d = solid_distance(to_local(x));
    return fluid_inside ? -d : d;
}

template <int D>
float BoundaryObject<D>::volume() const {
    constexpr float pi = 3.14159265358979f;
    switch (kind) {
        case ShapeKind::mesh:
            return mesh_volume;
        case ShapeKind::polygon:
            if constexpr (D == 2) return float(std::abs(signed_area(*polygon)));
            break;
        case ShapeKind::sphere:
            return D == 3 ? 4.0f / 3.0f * pi * radius * radius * radius : pi * radius * radius;
        case ShapeKind::cylinder:
            return pi * radius * radius * 2.0f * half_height;
        case ShapeKind::box:
            break;
    }
    float v = 1.0f;
    for (int a = 0; a < D; ++a) v *= shape.max[a] - shape.min[a];
    return v;
}

template <int D>
bool BoundaryObject<D>::push_out_of_solid(Vec<D>& l, float gap) const {
    switch (kind) {
        case ShapeKind::mesh:
            if constexpr (D == 3) {
                if (!sdf) return false;
                const float d = sdf->distance(l);
                if (d >= gap) return false;
                l += (gap - d) * sdf->normal(l);
                return true;
            }
            break;
        case ShapeKind::polygon:
            if constexpr (D == 2) {
                const OutlinePoint q = nearest_on_outline(*polygon, l);
                const bool inside = inside_polygon(*polygon, l);
                if (!inside && q.distance >= gap) return false;
                Vec<2> n;
                if (q.distance > 1e-6f * (reach + 1e-6f)) {
                    n = (l - q.point) / q.distance;
                    if (inside) n = -n;
                } else {  // on the outline: out along the edge's outward normal
                    const Vec<2> e = (*polygon)[(q.edge + 1) % polygon->size()] - (*polygon)[q.edge];
                    n = glm::normalize(Vec<2>(e.y, -e.x));
                }
                l = q.point + gap * n;
                return true;
            }
            break;
        case ShapeKind::sphere: {
            const float r = glm::length(l), target = radius + gap;
            if (r >= target) return false;
            Vec<D> n(0.0f);
            n[1] = 1.0f;  // the centre itself goes up
            if (r > 0) n = l / r;
            l = target * n;
            return true;
        }
        case ShapeKind::cylinder:
            if constexpr (D == 3) {
                const float rho = std::sqrt(l.x * l.x + l.z * l.z), a = std::abs(l.y);
                const float side = radius + gap, cap = half_height + gap;
                const float sign = l.y < 0 ? -1.0f : 1.0f;
                auto radial = [&](float to) {
                    if (rho > 0) {
                        l.x *= to / rho;
                        l.z *= to / rho;
                    } else {
                        l.x = to;
                    }
                };
                if (a <= half_height && rho <= radius) {  // inside: out through the nearer face
                    if (side - rho <= cap - a)
                        radial(side);
                    else
                        l.y = sign * cap;
                    return true;
                }
                if (a <= half_height) {  // beside the side
                    if (rho >= side) return false;
                    radial(side);
                    return true;
                }
                if (rho <= radius) {  // over a cap
                    if (a >= cap) return false;
                    l.y = sign * cap;
                    return true;
                }
                // Beyond the rim: the nearest surface point is on the rim circle.
                const float dr = rho - radius, dy = a - half_height,
                            dist = std::sqrt(dr * dr + dy * dy);
                if (dist >= gap) return false;
                const float k = gap / dist;
                radial(radius + k * dr);
                l.y = sign * (half_height + k * dy);
                return true;
            }
            [[fallthrough]];
        case ShapeKind::box:
            break;
    }
    const Box<D> grown{shape.min - Vec<D>(gap), shape.max + Vec<D>(gap)};
    return push_out(l, grown, 0.0f);
}

template <int D>
bool BoundaryObject<D>::push_into_solid(Vec<D>& l, float gap) const {
    if constexpr (D == 3) {
        if (kind == ShapeKind::mesh && sdf) {
            float d = sdf->distance(l);
            if (d <= -gap) return false;
            // Beyond the grid the field is the nearest node's value plus the way to it: a few
            // steps along its gradient bring a far point in.
            for (int it = 0; it < 4 && d > -gap; ++it) {
                l -= (d + gap) * sdf->normal(l);
                d = sdf->distance(l);
            }
            return true;
        }
    }
    return false;
}

template <int D>
void BoundaryObject<D>::collide_other(Vec<D>& x, float radius) const {
    Vec<D> l = to_local(x);
    if (fluid_inside && kind == ShapeKind::box) {
        const Box<D> room = centre_room(radius);
        l = glm::clamp(l, room.min, room.max);
    } else if (fluid_inside) {
        if (!push_into_solid(l, radius)) return;
    } else if (!push_out_of_solid(l, radius)) {
        return;
    }
    x = to_world(l);
}

template <int D>
bool BoundaryObject<D>::contain_other(Vec<D>& x, float margin) const {
    Vec<D> l = to_local(x);
    bool moved = false;
    if (fluid_inside && kind != ShapeKind::box) {
        moved = solid_distance(l) > 0 && push_into_solid(l, margin);
    } else if (fluid_inside) {
        for (int a = 0; a < D; ++a) {
            const float lo = shape.min[a] + margin, hi = shape.max[a] - margin;
            if (l[a] < lo || l[a] > hi) {
                l[a] = std::clamp(l[a], lo, hi);
                moved = true;
            }
        }
    } else {
        moved = solid_distance(l) < 0 && push_out_of_solid(l, margin);
    }
    if (moved) x = to_world(l);
    return moved;
}

template <int D>
void collide_with_objects(std::span<Vec<D>> x, std::span<const BoundaryObject<D>> objects,
                          float radius, const CollisionLog<D>& log) {
    parallel_for(x.size(), [&](std::size_t i) { collide_particle<D>(i, x[i], objects, radius, log); });
}

template struct BoundaryObject<2>;
template struct BoundaryObject<3>;
template void collide_with_objects<2>(std::span<Vec<2>>, std::span<const BoundaryObject<2>>, float,
                                      const CollisionLog<2>&);
template void collide_with_objects<3>(std::span<Vec<3>>, std::span<const BoundaryObject<3>>, float,
                                      const CollisionLog<3>&);

template void collide_with_box<2>(std::span<Vec<2>>, const Box<2>&, std::span<const Box<2>>);
template void collide_with_box<3>(std::span<Vec<3>>, const Box<3>&, std::span<const Box<3>>);
template std::size_t contain<2>(std::span<Vec<2>>, const Box<2>&, float, std::span<const Box<2>>);
template std::size_t contain<3>(std::span<Vec<3>>, const Box<3>&, float, std::span<const Box<3>>);

}  // namespace seiche
