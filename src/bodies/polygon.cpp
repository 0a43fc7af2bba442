// Polygon solids: exact geometry of a simple polygon (shoelace area and moments; point–segment
// distance; crossing-number inside test; ear-clipping triangulation) and its boundary particles.
#include "seiche/polygon.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace seiche {

namespace {

using V = Vec<2>;

double cross(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.y - a.y * b.x; }
double cross(const V& a, const V& b) { return double(a.x) * b.y - double(a.y) * b.x; }

V closest_on_segment(const V& x, const V& a, const V& b) {
    const V e = b - a;
    const float len2 = glm::dot(e, e);
    const float t = len2 > 0 ? std::clamp(glm::dot(x - a, e) / len2, 0.0f, 1.0f) : 0.0f;
    return a + t * e;
}

// Segments ab and cd meet (including touching and collinear overlap).
bool segments_meet(const V& a, const V& b, const V& c, const V& d) {
    auto orient = [](const V& p, const V& q, const V& r) {
        const double v = cross(q - p, r - p);
        return v > 0 ? 1 : v < 0 ? -1 : 0;
    };
    auto on = [](const V& p, const V& q, const V& r) {  // r on segment pq, given collinear
        return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
               r.y <= std::max(p.y, q.y);
    };
    const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (o1 != o2 && o3 != o4) return true;
    return (o1 == 0 && on(a, b, c)) || (o2 == 0 && on(a, b, d)) || (o3 == 0 && on(c, d, a)) ||
           (o4 == 0 && on(c, d, b));
}

}  // namespace

double signed_area(const Polygon& p) {
    double a = 0;
    for (std::size_t i = 0; i < p.size(); ++i) a += cross(p[i], p[(i + 1) % p.size()]);
    return 0.5 * a;
}

V centroid(const Polygon& p) {
    double cx = 0, cy = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const V& a = p[i];
        const V& b = p[(i + 1) % p.size()];
        const double c = cross(a, b);
        cx += (double(a.x) + b.x) * c;
        cy += (double(a.y) + b.y) * c;
    }
    const double six_a = 6.0 * signed_area(p);
    return V(float(cx / six_a), float(cy / six_a));
}

double polar_moment(const Polygon& p) {
    double s = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const glm::dvec2 a(p[i]), b(p[(i + 1) % p.size()]);
        s += cross(a, b) * (glm::dot(a, a) + glm::dot(a, b) + glm::dot(b, b));
    }
    return std::abs(s) / 12.0;
}

std::optional<std::pair<std::size_t, std::size_t>> crossing_edges(const Polygon& p) {
    const std::size_t n = p.size();
    // Edges i < j: true when they cross or, as neighbours, fold back onto each other.
    auto meet = [&](std::size_t i, std::size_t j) {
        const V a = p[i], b = p[(i + 1) % n], c = p[j], d = p[(j + 1) % n];
        if (j == i + 1 || (i == 0 && j == n - 1)) {
            // Neighbours share a corner; they may not fold back onto each other.
            const V shared = j == i + 1 ? b : a;
            const V u = (j == i + 1 ? a : b) - shared, w = (j == i + 1 ? d : c) - shared;
            return cross(u, w) == 0 && glm::dot(u, w) > 0;
        }
        return segments_meet(a, b, c, d);
    };
    // Only edges that share a cell of a grid over the corners' bounding box can meet: about
    // √n × √n cells, each edge listed in the cells its bounding box covers, so an outline of
    // many short edges is checked in time about linear in n instead of n².
    V lo = p[0], hi = p[0];
    for (const V& v : p) lo = glm::min(lo, v), hi = glm::max(hi, v);
    const int cells = std::clamp(int(std::sqrt(double(n))), 1, 1024);
    const V extent = glm::max(hi - lo, V(1e-30f));
    auto cell = [&](float x, float l, float e) {
        return std::clamp(int(double(x - l) / e * cells), 0, cells - 1);
    };
    std::vector<std::vector<std::uint32_t>> grid(std::size_t(cells) * cells);
    for (std::size_t i = 0; i < n; ++i) {
        const V a = p[i], b = p[(i + 1) % n];
        const int x0 = cell(std::min(a.x, b.x), lo.x, extent.x), x1 = cell(std::max(a.x, b.x), lo.x, extent.x);
        const int y0 = cell(std::min(a.y, b.y), lo.y, extent.y), y1 = cell(std::max(a.y, b.y), lo.y, extent.y);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) grid[std::size_t(y) * cells + x].push_back(std::uint32_t(i));
    }
    // The first pair in (i, j) order, whichever cell finds it.
    std::optional<std::pair<std::size_t, std::size_t>> first;
    for (const auto& list : grid)
        for (std::size_t a = 0; a < list.size(); ++a)
            for (std::size_t b = a + 1; b < list.size(); ++b) {
                const std::size_t i = std::min(list[a], list[b]), j = std::max(list[a], list[b]);
                if (first && std::pair{i, j} >= *first) continue;
                if (meet(i, j)) first = std::pair{i, j};
            }
    return first;
}

OutlinePoint nearest_on_outline(const Polygon& p, const V& x) {
    OutlinePoint best{p[0], 0, 1e30f};
    for (std::size_t i = 0; i < p.size(); ++i) {
        const V q = closest_on_segment(x, p[i], p[(i + 1) % p.size()]);
        const float d = glm::length(x - q);
        if (d < best.distance) best = {q, i, d};
    }
    return best;
}

bool inside_polygon(const Polygon& p, const V& x) {
    bool in = false;
    for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++) {
        const V& a = p[i];
        const V& b = p[j];
        if ((a.y > x.y) != (b.y > x.y) && x.x < (b.x - a.x) * (x.y - a.y) / (b.y - a.y) + a.x) in = !in;
    }
    return in;
}

std::vector<std::array<std::size_t, 3>> triangulate(const Polygon& p) {
    std::vector<std::size_t> left(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) left[i] = i;
    std::vector<std::array<std::size_t, 3>> out;
    while (left.size() > 3) {
        const std::size_t n = left.size();
        bool clipped = false;
        for (std::size_t k = 0; k < n && !clipped; ++k) {
            const std::size_t ia = left[(k + n - 1) % n], ib = left[k], ic = left[(k + 1) % n];
            const V a = p[ia], b = p[ib], c = p[ic];
            if (cross(b - a, c - b) <= 0) continue;  // reflex or straight: not an ear
            bool empty = true;
            for (std::size_t m : left) {
                if (m == ia || m == ib || m == ic) continue;
                const V q = p[m];
                if (cross(b - a, q - a) >= 0 && cross(c - b, q - b) >= 0 && cross(a - c, q - c) >= 0) {
                    empty = false;
                    break;
                }
            }
            if (!empty) continue;
            out.push_back({ia, ib, ic});
            left.erase(left.begin() + std::ptrdiff_t(k));
            clipped = true;
        }
        if (!clipped) break;  // only straight corners left: nothing with area remains
    }
    if (left.size() == 3) out.push_back({left[0], left[1], left[2]});
    return out;
}

std::vector<V> sample_polygon(const Polygon& p, const WallSampling& s) {
    const std::size_t n = p.size();
    const float d = s.spacing;
    std::vector<V> out;
    for (int l = 0; l < s.layers; ++l) {
        const float t = s.offset + float(l) * d;
        // The raw offset curve, densely: each edge moved in by t, then, round a reflex corner,
        // the arc of radius t about it. Points nearer than t to another edge are not on the
        // offset curve (trimmed at convex corners, or where the polygon is thinner than 2t).
        const float step = d / 16.0f;
        std::vector<V> dense;
        std::vector<bool> valid;
        auto add = [&](const V& q) {
            dense.push_back(q);
            valid.push_back(inside_polygon(p, q) &&
                            std::abs(nearest_on_outline(p, q).distance - t) < 1e-3f * d);
        };
        for (std::size_t i = 0; i < n; ++i) {
            const V a = p[i], b = p[(i + 1) % n], c = p[(i + 2) % n];
            const V e = glm::normalize(b - a);
            const V inward(-e.y, e.x);  // left of a counter-clockwise edge
            const int m = std::max(1, int(std::ceil(glm::length(b - a) / step)));
            for (int k = 0; k < m; ++k) add(a + (b - a) * (float(k) / float(m)) + t * inward);
            const V e2 = glm::normalize(c - b);
            const V inward2(-e2.y, e2.x);
            if (cross(e, e2) < 0) {  // reflex corner at b: the arc from inward to inward2
                const double from = std::atan2(inward.y, inward.x);
                double to = std::atan2(inward2.y, inward2.x);
                while (to > from) to -= 2.0 * std::numbers::pi;  // clockwise
                const int arc = std::max(1, int(std::ceil((from - to) * t / step)));
                for (int k = 0; k < arc; ++k) {
                    const double ang = from + (to - from) * k / arc;
                    add(b + t * V(float(std::cos(ang)), float(std::sin(ang))));
                }
            }
        }
        // Valid length along the curve, then points evenly along it.
        double total = 0;
        for (std::size_t k = 0; k < dense.size(); ++k)
            if (valid[k] && valid[(k + 1) % dense.size()])
                total += glm::length(dense[(k + 1) % dense.size()] - dense[k]);
        if (total <= 0) continue;
        const int count = std::max(1, int(std::lround(total / d)));
        const double spacing = total / count;
        double walked = 0, next = 0;
        for (std::size_t k = 0; k < dense.size(); ++k) {
            if (!valid[k]) continue;
            if (walked >= next - 1e-9) {
                out.push_back(dense[k]);
                next += spacing;
            }
            if (valid[(k + 1) % dense.size()]) walked += glm::length(dense[(k + 1) % dense.size()] - dense[k]);
        }
    }
    return out;
}

}  // namespace seiche
