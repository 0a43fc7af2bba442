// Measurements on particle sets that experiments report: the surge front of a dam break, the
// water height at a wave probe (both ignore spray: only particles connected to the bulk count),
// the contact angle of a drop resting on a plate, and the pressure a sensor on a wall reads.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <span>
#include <vector>

#include "seiche/boundary_object.hpp"
#include "seiche/exact_sum.hpp"
#include "seiche/vec.hpp"

namespace seiche {

// Surge front along +x on a floor at height floor_y (up is +y): the right edge (x + r) of the
// run of occupied columns, each 2r wide, that starts at the leftmost particle near the floor
// (below floor_y + band). A gap of more than 1.5 columns (a whole column left empty, with slack
// for particles that are not on a lattice) ends the run, so drops ahead of the front do not
// count. Returns NaN when no particle is near the floor.
template <int D>
double surge_front(std::span<const Vec<D>> x, float r, float floor_y, float band) {
    std::vector<float> xs;
    for (const Vec<D>& p : x)
        if (p[1] < floor_y + band) xs.push_back(p[0]);
    if (xs.empty()) return NAN;
    std::sort(xs.begin(), xs.end());
    const float column = 2.0f * r;
    double front = xs[0];
    for (std::size_t i = 1; i < xs.size(); ++i) {
        if (xs[i] - xs[i - 1] > 1.5f * column) break;
        front = xs[i];
    }
    return front + r;
}

// Water height at a vertical probe line through (px, pz) (pz ignored in 2D) on a floor at
// floor_y: the top (y + r) of the stack of particles within 2r of the line that rises from the
// floor without a gap larger than one particle diameter. 0 when the floor there is dry.
template <int D>
double probe_height(std::span<const Vec<D>> x, float r, float px, float pz, float floor_y) {
    std::vector<float> ys;
    const float reach2 = 4.0f * r * r;
    for (const Vec<D>& p : x) {
        float d2 = (p[0] - px) * (p[0] - px);
        if constexpr (D == 3) d2 += (p[2] - pz) * (p[2] - pz);
        if (d2 <= reach2) ys.push_back(p[1]);
    }
    std::sort(ys.begin(), ys.end());
    const float gap = 2.0f * r;
    double top = floor_y;
    for (float y : ys) {
        // The first particle must sit on the floor (its centre within a diameter of it).
        if (y - top > gap + (top == floor_y ? r : 0.0f)) break;
        top = std::max(double(y) + r, top);
    }
    return top - floor_y;
}

// The depth of water over the point (px, pz) (pz ignored in 2D) as a wave gauge reads it: each
// particle's volume (2r)^D spread over the floor by a normalised (D−1)-dimensional cubic spline
// of radius `radius`, summed at the point, m. A slab of water of depth H reads H wherever its
// edges are more than `radius` away; spray and a splash count by their volume (at radius 4·2r
// a particle adds a third of a spacing at most in 2D, a ninth in 3D), not by how high they fly
// (probe_height's top of the stack jumps to a connected sheet's top). 0 with no particle
// within `radius` horizontally.
template <int D>
double water_depth(std::span<const Vec<D>> x, float r, float px, float pz, float radius) {
    // The cubic spline of support `radius` in D − 1 dimensions, W(q) = k (6q³ − 6q² + 1) for
    // q ≤ ½, 2k (1 − q)³ for q ≤ 1: k = 4/(3 radius) (1D), 40/(7π radius²) (2D).
    const double k = D == 2 ? 4.0 / (3.0 * radius) : 40.0 / (7.0 * M_PI * radius * radius);
    const double volume = std::pow(2.0 * r, D);
    double depth = 0;
    for (const Vec<D>& p : x) {
        double d2 = double(p[0] - px) * double(p[0] - px);
        if constexpr (D == 3) d2 += double(p[2] - pz) * double(p[2] - pz);
        if (d2 >= double(radius) * radius) continue;
        const double q = std::sqrt(d2) / radius;
        const double w = q <= 0.5 ? 6 * q * q * (q - 1) + 1 : 2 * (1 - q) * (1 - q) * (1 - q);
        depth += volume * k * w;
    }
    return depth;
}

// Contact angle (rad) of a drop resting on a horizontal plate whose top is at plate_y (up is +y),
// from the drop's particles (those within `reach` of the vertical axis through (cx, cz); cz
// ignored in 2D) taken as a spherical cap: its height H (top y + r above the plate) and its base
// radius a (the furthest centre of the layer touching the plate, + r) give θ = 2·atan(H/a).
// NaN when no particle touches the plate.
template <int D>
double contact_angle(std::span<const Vec<D>> x, float r, float plate_y, float cx, float cz,
                     float reach) {
    double top = -INFINITY, base = -1;
    for (const Vec<D>& p : x) {
        float d2 = (p[0] - cx) * (p[0] - cx);
        if constexpr (D == 3) d2 += (p[2] - cz) * (p[2] - cz);
        if (d2 > reach * reach || p[1] < plate_y) continue;
        top = std::max(top, double(p[1]) + r);
        if (p[1] < plate_y + 2.0f * r) base = std::max(base, double(std::sqrt(d2)) + r);
    }
    if (base <= 0) return NAN;
    return 2.0 * std::atan((top - plate_y) / base);
}

// A pressure sensor on a flat face of a box-shaped boundary object (the container, an obstacle):
// the object's boundary particles behind the face (on the side `outward` along `axis`: +1 where
// the solid lies beyond the fluid in +axis, −1 in −axis), no deeper than two spacings (the
// layers a fluid particle's support of 4r reaches), within the face's extent and within
// `half_size` of the sensor's centre in the other coordinates (a site exactly that far counts).
// It reads the fluid's force on them along `outward` over the patch's area: its sites per layer
// × the lattice's pitch along each other axis (2D: per metre of depth), Pa. Pass the world's
// Boundary::face_force: within two spacings of an edge the particles also carry the other face's
// load (Boundary::force), which a sensor on this face must not read.
// The object's collision (the push keeping centres off it) is a contact force too:
// pressure(force, x, contact, contact_object) adds the contact forces of the fluid particles
// within `reach` of the face over the patch's area (lo–hi) that this object pushed
// (World::contact_forces(), World::contact_objects()).
template <int D>
struct WallSensor {
    std::vector<std::size_t> particles;
    double area = 0;  //!< m² (2D: m)
    std::uint32_t object = 0;  //!< the object's index (0: the container)
    int axis = 0;
    float outward = 1.0f;
    float face = 0.0f, half_size = 0.0f, reach = 0.0f;
    Vec<D> centre{0.0f};
    //! The patch's extent along the other axes (its rows ± half a pitch): the area its sites
    //! stand for, over which the contacts count.
    Vec<D> lo{0.0f}, hi{0.0f};
    double pressure(std::span<const Vec<D>> force, std::span<const Vec<D>> fluid_x = {},
                    std::span<const Vec<D>> contact = {},
                    std::span<const std::uint32_t> contact_object = {}) const {
        return area > 0 ? outward * force_along_axis(force, fluid_x, contact, contact_object).value() / area
                        : NAN;
    }
    // The sum behind pressure(), exact (ExactSum: the same bits in any order, and partial sums
    // merge, so a run split over processes adds its parts): the boundary particles' forces
    // along `axis` (those `counts(k)` keeps: in a split run, the ones this process owns) and the
    // contacts of the fluid particles `touching` lists (null: every fluid particle), N (2D: N/m).
    template <class Counts = bool (*)(std::size_t)>
    ExactSum force_along_axis(std::span<const Vec<D>> force, std::span<const Vec<D>> fluid_x,
                              std::span<const Vec<D>> contact,
                              std::span<const std::uint32_t> contact_object,
                              Counts counts = [](std::size_t) { return true; },
                              const std::vector<std::size_t>* touching = nullptr) const {
        ExactSum f;
        for (std::size_t k : particles)
            if (counts(k)) f.add(force[k][axis]);
        const auto contact_of = [&](std::size_t i) {
            // On the fluid's side of this face (a solid has fluid beyond its other faces too).
            const float gap = outward * (face - fluid_x[i][axis]);
            if (contact[i][axis] == 0.0f || contact_object[i] != object || gap < 0 || gap > reach)
                return;
            bool in = true;
            for (int a = 0; a < D; ++a)
                if (a != axis) in = in && fluid_x[i][a] >= lo[a] && fluid_x[i][a] < hi[a];
            if (in) f.add(contact[i][axis]);
        };
        if (!touching)
            for (std::size_t i = 0; i < contact.size(); ++i) contact_of(i);
        else
            for (std::size_t i : *touching) contact_of(i);
        return f;
    }
    // The same sensor read from a pressure field instead (the particles' pressures, Pa: WCSPH,
    // DFSPH): the Shepard mean Σ_j p_j W(y − x_j) / Σ_j W(y − x_j) at y, half a spacing
    // (reach/2, where the first layer's centres lie) in front of the face's centre, W any kernel
    // of the fluid's support; 0 when no fluid particle is within its support (a dry sensor).
    template <class K>
    double field_pressure(std::span<const Vec<D>> fluid_x, std::span<const float> p,
                          const K& kernel) const {
        Vec<D> at = centre;
        at[axis] = face - outward * 0.5f * reach;
        const float h2 = kernel.support() * kernel.support();
        double sum = 0, weight = 0;
        for (std::size_t i = 0; i < fluid_x.size() && i < p.size(); ++i) {
            const Vec<D> d = fluid_x[i] - at;
            const float r2 = glm::dot(d, d);
            if (r2 >= h2) continue;
            const double w = kernel.W(std::sqrt(r2));
            sum += w * p[i];
            weight += w;
        }
        return weight > 0 ? sum / weight : 0.0;
    }
};

// The sensor on face `outward` along `axis` of objects[index] (an unposed box: the container or
// an obstacle), centred at `centre` (on the face), its patch 2·half_size across; `spacing` is the
// particles' 2r. Throws std::invalid_argument for any other object or axis.
template <int D>
WallSensor<D> wall_sensor(std::span<const Vec<D>> bx, std::span<const BoundaryObject<D>> objects,
                          std::size_t index, int axis, float outward, const Vec<D>& centre,
                          float half_size, float spacing) {
    if (index >= objects.size())
        throw std::invalid_argument("wall_sensor: no object " + std::to_string(index) + " (" +
                                    std::to_string(objects.size()) + " objects)");
    if (axis < 0 || axis >= D)
        throw std::invalid_argument("wall_sensor: axis " + std::to_string(axis) + " (0 to " +
                                    std::to_string(D - 1) + ")");
    if (outward != 1.0f && outward != -1.0f)
        throw std::invalid_argument("wall_sensor: side " + std::to_string(outward) +
                                    " (+1 or -1)");
    const BoundaryObject<D>& o = objects[index];
    if (o.kind != ShapeKind::box || o.posed)
        throw std::invalid_argument("wall_sensor: " + o.name +
                                    " is not a box in its place (sensors read flat faces)");
    WallSensor<D> s;
    s.object = static_cast<std::uint32_t>(index);
    s.axis = axis;
    s.outward = outward;
    // The container's face at its far side along `outward`; a solid's facing the fluid.
    const bool high = o.fluid_inside ? outward > 0 : outward < 0;
    const float face = high ? o.shape.max[axis] : o.shape.min[axis];
    s.face = face;
    s.half_size = half_size;
    s.reach = spacing;
    s.centre = centre;
    // The face's sites: the object's particles no deeper than two spacings behind the face,
    // within its extent, and nearer this face than the opposite one along the axis (the face
    // whose load Boundary::face_force gives them there: in a plate thinner than four spacings
    // the deeper sites belong to the other face).
    std::vector<std::size_t> face_sites;
    for (std::size_t k = o.first; k < o.first + o.count && k < bx.size(); ++k) {
        const float depth = outward * (bx[k][axis] - face);
        if (depth <= 0 || depth > 2.0f * spacing) continue;
        const bool nearer_high = bx[k][axis] - o.shape.min[axis] > o.shape.max[axis] - bx[k][axis];
        if (nearer_high != high) continue;
        bool in = true;
        for (int a = 0; a < D; ++a)
            if (a != axis) in = in && bx[k][a] >= o.shape.min[a] && bx[k][a] <= o.shape.max[a];
        if (in) face_sites.push_back(k);
    }
    const auto distinct = [&](const std::vector<std::size_t>& sites, int a) {
        std::vector<float> c;
        for (std::size_t k : sites) c.push_back(bx[k][a]);
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end(), [](float u, float v) { return v - u < 1e-6f; }),
                c.end());
        return c;
    };
    // Per other axis: the lattice's pitch (the median gap of the face's rows: walls are stretched
    // to fit their faces, so not quite `spacing`) and the rows of the patch, those within
    // half_size of the centre (a row exactly that far counts: on a lattice through the centre the
    // patch stays symmetric), then dropping the farthest while their mean is more than a quarter
    // pitch off the centre: the sensor reads the pressure at its centre, not half a row away.
    double per_site = 1;
    std::array<std::vector<float>, D> rows;
    for (int a = 0; a < D; ++a) {
        if (a == axis) continue;
        const std::vector<float> all = distinct(face_sites, a);
        std::vector<float> gaps;
        for (std::size_t i = 1; i < all.size(); ++i) gaps.push_back(all[i] - all[i - 1]);
        float pitch = spacing;
        if (!gaps.empty()) {
            std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
            pitch = gaps[gaps.size() / 2];
        }
        per_site *= pitch;
        const float within = half_size + 1e-4f * spacing;
        for (float c : all)
            if (std::abs(c - centre[a]) <= within) rows[a].push_back(c);
        for (;;) {
            if (rows[a].size() < 2) {
                if (rows[a].empty()) s.lo[a] = s.hi[a] = centre[a];
                break;
            }
            double mean = 0;
            for (float c : rows[a]) mean += c;
            mean /= double(rows[a].size());
            if (std::abs(mean - centre[a]) <= 0.25 * pitch) break;
            // The farthest row is at one end (the rows are sorted).
            if (std::abs(rows[a].front() - centre[a]) > std::abs(rows[a].back() - centre[a]))
                rows[a].erase(rows[a].begin());
            else
                rows[a].pop_back();
        }
        if (!rows[a].empty()) {
            s.lo[a] = rows[a].front() - 0.5f * pitch;
            s.hi[a] = rows[a].back() + 0.5f * pitch;
        }
    }
    for (std::size_t k : face_sites) {
        bool in = true;
        for (int a = 0; a < D && in; ++a) {
            if (a == axis) continue;
            in = std::any_of(rows[a].begin(), rows[a].end(),
                             [&](float c) { return std::abs(bx[k][a] - c) < 1e-6f; });
        }
        if (in) s.particles.push_back(k);
    }
    const std::size_t layers = distinct(s.particles, axis).size();
    if (layers > 0) s.area = double(s.particles.size()) / double(layers) * per_site;
    return s;
}

}  // namespace seiche
