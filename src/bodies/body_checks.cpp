// The checks of a body's definition (validate): a shape of the dimension and at least one
// diameter across, inside the container, not over fluid, with what its motion needs; a mesh that
// is closed and a polygon that does not cross itself. Problems name the key path.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "seiche/bodies.hpp"
#include "seiche/mesh_sdf.hpp"
#include "seiche/parameters.hpp"
#include "seiche/polygon.hpp"

#include "../definition/problem_text.hpp"

namespace seiche {

using problem_text::axis_name;
using problem_text::format;
using problem_text::num;

template <int D>
Box<D> solid_bounds(const BoundaryObject<D>& o) {
    // From its corners (meshes, polygons) or those of its own bounds, turned.
    Box<D> box{Vec<D>(1e30f), Vec<D>(-1e30f)};
    auto extend = [&](const Vec<D>& local) {
        box.min = glm::min(box.min, o.to_world(local));
        box.max = glm::max(box.max, o.to_world(local));
    };
    if constexpr (D == 3)
        if (o.kind == ShapeKind::mesh)
            for (const auto& v : o.mesh->vertices) extend(Vec<3>(v[0], v[1], v[2]));
    if constexpr (D == 2)
        if (o.kind == ShapeKind::polygon)
            for (const Vec<2>& v : *o.polygon) extend(v);
    if (o.kind != ShapeKind::mesh && o.kind != ShapeKind::polygon)
        for (int c = 0; c < (1 << D); ++c) {
            Vec<D> corner;
            for (int a = 0; a < D; ++a) corner[a] = (c >> a) & 1 ? o.shape.max[a] : o.shape.min[a];
            extend(corner);
        }
    return box;
}

template <int D>
void body_problems(const BodyDef& b, std::size_t index, const WorldDef& w, const std::string& path,
                   std::vector<Problem>& out) {
    const double d = 2.0 * w.particle_radius;
    // The name is a column of bodies.csv, which `seiche render` reads back to draw the bodies'
    // outlines: a comma, a quote or a line break would split it.
    if (std::string why = problem_text::csv_name_problem(b.name, "bodies.csv"); !why.empty()) {
        out.push_back({path + ".name", why});
        return;
    }
    for (std::size_t j = 0; j < index; ++j)
        if (body_name(w.bodies[j], j) == body_name(b, index)) {
            out.push_back({path + ".name", format("\"%s\" is already the name of bodies[%zu] "
                                                  "(bodies.csv tells bodies apart by name)",
                                                  body_name(b, index).c_str(), j)});
            return;
        }
    const bool shape_3d = b.shape == BodyShape::sphere || b.shape == BodyShape::cylinder ||
                          b.shape == BodyShape::mesh;
    if (D == 2 && shape_3d) {
        out.push_back({path + ".shape", "2D scenes take box, circle or polygon"});
        return;
    }
    if (D == 3 && (b.shape == BodyShape::circle || b.shape == BodyShape::polygon)) {
        out.push_back({path + ".shape", std::string(b.shape == BodyShape::circle ? "circle" : "polygon") +
                                            " is a 2D shape; 3D scenes take box, sphere, cylinder or mesh"});
        return;
    }
    if (b.inside && b.shape != BodyShape::mesh) {
        out.push_back({path + ".inside", "only a mesh body can hold the fluid inside it (for a box, "
                                         "use the container)"});
        return;
    }
    if (b.shape != BodyShape::polygon && !b.vertices.empty()) {
        out.push_back({path + ".vertices", "only a polygon has vertices"});
        return;
    }
    if (b.shape == BodyShape::mesh) {
        if (!b.mesh || b.mesh->triangles.empty()) {
            out.push_back({path + ".mesh", b.mesh_file.empty()
                                               ? std::string("a mesh body needs a mesh file")
                                               : "no triangles were read from " + b.mesh_file});
            return;
        }
        if (b.motion == BodyMotion::dynamic && b.inside) {
            out.push_back({path + ".motion", "a mesh that holds the fluid (inside) is static or "
                                             "kinematic"});
            return;
        }
        if (const std::size_t open = open_edges(*b.mesh); open > 0) {
            out.push_back({path + ".mesh", format("%s is not closed: %zu edges belong to one "
                                                  "triangle only (a solid needs a closed surface)",
                                                  b.mesh_file.c_str(), open)});
            return;
        }
    } else if (b.shape == BodyShape::polygon) {
        if (b.vertices.size() < 3) {
            out.push_back({path + ".vertices", format("a polygon needs at least 3 corners, got %zu",
                                                      b.vertices.size())});
            return;
        }
        if (b.vertices.size() > max_polygon_corners) {
            out.push_back({path + ".vertices",
                           format("a polygon may have at most %zu corners, got %zu (simplify the "
                                  "outline: corners much closer than a particle spacing add "
                                  "nothing to its boundary particles)",
                                  max_polygon_corners, b.vertices.size())});
            return;
        }
        Polygon poly;
        for (const Vec3d& v : b.vertices) poly.push_back(Vec<2>(float(v[0]), float(v[1])));
        if (const auto crossing = crossing_edges(poly)) {
            out.push_back({path + ".vertices",
                           format("edges %zu and %zu cross or overlap (edge k joins corners k and "
                                  "k + 1); a polygon body must be simple",
                                  crossing->first, crossing->second)});
            return;
        }
        // Wider than the container on an axis (turned or not, its diagonal bounds it): it cannot
        // fit, and sampling it first would cost the work and memory of its whole outline (a
        // million metres wide listed 10⁸ samples).
        Vec<2> plo = poly[0], phi = poly[0];
        for (const Vec<2>& v : poly) plo = glm::min(plo, v), phi = glm::max(phi, v);
        const double diagonal = glm::length(glm::dvec2(phi - plo)),
                     room = std::sqrt(std::pow(w.container_max[0] - w.container_min[0], 2) +
                                      std::pow(w.container_max[1] - w.container_min[1], 2));
        if (diagonal > room * (1 + 1e-6)) {
            out.push_back({path + ".vertices",
                           format("the polygon (%s m across its corners) is larger than the "
                                  "container (%s m across)",
                                  num(diagonal).c_str(), num(room).c_str())});
            return;
        }
        if (signed_area(poly) < 0) std::reverse(poly.begin(), poly.end());
        if (sample_polygon(poly, WallSampling::for_kernel(w.kernel, float(d))).empty()) {
            out.push_back({path + ".vertices", format("the polygon is too thin: no part of it is more "
                                                      "than half a particle diameter (%s m) from its "
                                                      "edges", num(d).c_str())});
            return;
        }
    } else if (b.shape == BodyShape::box) {
        for (int a = 0; a < D; ++a)
            if (b.size[a] < d * (1 - 1e-6)) {
                out.push_back({path + ".size", format("a box needs every extent at least one particle "
                                                      "diameter (%s m); axis %c is %s",
                                                      num(d).c_str(), axis_name[a], num(b.size[a]).c_str())});
                return;
            }
    } else {
        if (b.radius < d * (1 - 1e-6)) {
            out.push_back({path + ".radius", format("expected at least one particle diameter (%s m), "
                                                    "got %s", num(d).c_str(), num(b.radius).c_str())});
            return;
        }
        if (b.shape == BodyShape::cylinder && b.height < d * (1 - 1e-6)) {
            out.push_back({path + ".height", format("expected at least one particle diameter (%s m), "
                                                    "got %s", num(d).c_str(), num(b.height).c_str())});
            return;
        }
    }
    if (D == 2)
        for (const auto& [key, v] : {std::pair{"rotation", b.rotation}, {"angular_velocity", b.angular_velocity}})
            if (v[0] != 0 || v[1] != 0) {
                out.push_back({path + "." + key, "a 2D body turns about z only: give [0, 0, z]"});
                return;
            }
    if (b.motion == BodyMotion::dynamic && !(b.density > 0)) {
        out.push_back({path + ".density", "a dynamic body needs a positive density (kg/m³), got " + num(b.density)});
        return;
    }
    if (b.keyframes) {
        const auto& k = *b.keyframes;
        if (b.motion != BodyMotion::kinematic) {
            out.push_back({path + ".keyframes", "only a kinematic body follows keyframes"});
            return;
        }
        if (k.empty()) {
            out.push_back({path + ".keyframes", "no keyframes were read from " + b.keyframe_file});
            return;
        }
        for (std::size_t j = 0; j < k.size(); ++j) {
            bool finite = std::isfinite(k[j].time);
            for (int a = 0; a < 3; ++a)
                finite = finite && std::isfinite(k[j].position[a]) && std::isfinite(k[j].rotation[a]);
            if (!finite || k[j].time < 0) {
                out.push_back({path + ".keyframes", format("keyframe %zu: expected finite numbers and "
                                                           "a time of at least 0", j + 1)});
                return;
            }
            if (j > 0 && !(k[j].time > k[j - 1].time)) {
                out.push_back({path + ".keyframes",
                               format("keyframes out of order: keyframe %zu at %s s is not after "
                                      "keyframe %zu at %s s",
                                      j + 1, num(k[j].time).c_str(), j, num(k[j - 1].time).c_str())});
                return;
            }
        }
    }
    if (b.motion_stop >= 0 && b.motion_stop < b.motion_start) {
        out.push_back({path + ".motion_stop", format("must not be before motion_start (%s s), got %s",
                                                     num(b.motion_start).c_str(), num(b.motion_stop).c_str())});
        return;
    }
    const BoundaryObject<D> o = body_object<D>(b, index);
    const Box<D> bounds = solid_bounds(o);
    const Vec<D> lo = bounds.min, hi = bounds.max;
    for (int a = 0; a < D; ++a) {
        const double slack = 1e-6 * std::max(1.0, std::abs(w.container_max[a] - w.container_min[a]));
        if (lo[a] < w.container_min[a] - slack || hi[a] > w.container_max[a] + slack) {
            out.push_back({path, format("the body is outside the container on axis %c (body [%s, %s], "
                                        "container [%s, %s])",
                                        axis_name[a], num(lo[a]).c_str(), num(hi[a]).c_str(),
                                        num(w.container_min[a]).c_str(), num(w.container_max[a]).c_str())});
            return;
        }
    }
    // A dynamic body may not start with its centre inside an earlier body's solid, nor hold an
    // earlier dynamic body's centre in its own (a hundred stacked on one point were accepted
    // and flew apart in the first steps).
    for (std::size_t j = 0; j < index; ++j) {
        const BodyDef& other = w.bodies[j];
        if (b.motion != BodyMotion::dynamic && other.motion != BodyMotion::dynamic) continue;
        if (b.inside || other.inside) continue;  // a tank holds what is inside it
        const BoundaryObject<D> p = body_object<D>(other, j);
        const Vec<D> mine = o.to_world(Vec<D>(0.0f)), theirs = p.to_world(Vec<D>(0.0f));
        if (p.signed_distance(mine) < 0 || o.signed_distance(theirs) < 0) {
            out.push_back({path, format("the body overlaps bodies[%zu] (the centre of one is inside "
                                        "the other); bodies cannot start inside each other",
                                        j)});
            return;
        }
        // Solids that cut into each other with both centres clear (two crates half on top of
        // each other): a point more than half a particle spacing inside both, sought on a
        // lattice over the overlap of their bounds, at most 48 points along an axis. Bodies
        // that only touch are fine.
        const Box<D> other_bounds = solid_bounds(p);
        Vec<D> l, h;
        std::array<int, D> n{};
        bool apart = false;
        for (int a = 0; a < D; ++a) {
            l[a] = std::max(lo[a], other_bounds.min[a]);
            h[a] = std::min(hi[a], other_bounds.max[a]);
            apart = apart || !(h[a] - l[a] > d);
            n[a] = std::min(48, int(std::ceil((h[a] - l[a]) / (0.5 * d)))) + 1;
        }
        if (apart) continue;
        std::array<int, D> k{};
        for (;;) {
            Vec<D> x;
            for (int a = 0; a < D; ++a) x[a] = l[a] + (h[a] - l[a]) * float(k[a]) / float(n[a] - 1);
            if (o.signed_distance(x) < -0.5f * float(d) && p.signed_distance(x) < -0.5f * float(d)) {
                std::string at = "(";
                for (int a = 0; a < D; ++a) at += (a ? ", " : "") + num(std::round(x[a] * 1e4) / 1e4);
                out.push_back({path, format("the body overlaps bodies[%zu] (the point %s is inside "
                                            "both); bodies cannot start inside each other",
                                            j, (at + ")").c_str())});
                return;
            }
            int a = 0;
            while (a < D && ++k[a] >= n[a]) k[a] = 0, ++a;
            if (a == D) break;
        }
    }
    // No fluid particle may start inside the solid: the lattice sites of each block within the
    // body's bounds, tested against its signed distance. A body that holds the fluid inside it
    // tests every site, and a site beyond its bounds is outside it (a block wholly outside the
    // tank was accepted, and its fluid fell through the tank's walls).
    for (std::size_t j = 0; j < w.fluid.size(); ++j) {
        const FluidBlock& f = w.fluid[j];
        std::array<int, D> k0{}, k1{};
        bool any = true;
        for (int a = 0; a < D; ++a) {
            const int n = particles_along(f.min[a], f.max[a], d);
            k0[a] = b.inside ? 0 : std::max(0, int(std::floor((lo[a] - f.min[a]) / d - 0.5)));
            k1[a] = b.inside ? n - 1 : std::min(n - 1, int(std::ceil((hi[a] - f.min[a]) / d - 0.5)));
            any = any && k0[a] <= k1[a];
        }
        if (!any) continue;
        std::array<int, D> k = k0;
        for (;;) {
            Vec<D> x;
            bool beyond = false;
            for (int a = 0; a < D; ++a) {
                x[a] = float(f.min[a] + (k[a] + 0.5) * d);
                beyond = beyond || x[a] < lo[a] || x[a] > hi[a];
            }
            if ((b.inside && beyond) || o.signed_distance(x) < 0) {
                out.push_back({path, format(b.inside ? "fluid[%zu] is not inside the body that "
                                                       "holds the fluid (a particle at %s starts "
                                                       "outside it)"
                                                     : "the body overlaps fluid[%zu] (a particle at "
                                                       "%s starts inside it); fluid cannot start "
                                                       "inside a solid",
                                            j, [&] {
                                                std::string t = "(";
                                                for (int a = 0; a < D; ++a)
                                                    t += (a ? ", " : "") + num(std::round(x[a] * 1e4) / 1e4);
                                                return t + ")";
                                            }().c_str())});
                return;
            }
            int a = 0;
            while (a < D && ++k[a] > k1[a]) k[a] = k0[a], ++a;
            if (a == D) break;
        }
    }
}

template Box<2> solid_bounds<2>(const BoundaryObject<2>&);
template Box<3> solid_bounds<3>(const BoundaryObject<3>&);
template void body_problems<2>(const BodyDef&, std::size_t, const WorldDef&, const std::string&,
                               std::vector<Problem>&);
template void body_problems<3>(const BodyDef&, std::size_t, const WorldDef&, const std::string&,
                               std::vector<Problem>&);

}  // namespace seiche
