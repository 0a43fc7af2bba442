// Particle pictures: spheres seen through a pinhole camera (3D) or discs seen from the front (2D),
// depth-buffered, with Lambert and Blinn–Phong shading, a colour bar and a caption.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "seiche/parallel.hpp"
#include "seiche/render.hpp"

namespace seiche::render {

namespace {

using V3 = std::array<double, 3>;
V3 sub(const V3& a, const V3& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const V3& a, const V3& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V3 cross(const V3& a, const V3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
V3 normalized(const V3& a) {
    const double n = std::sqrt(dot(a, a));
    return {a[0] / n, a[1] / n, a[2] / n};
}

// Layout at output resolution: text size, the caption strip on top, the colour bar on the right.
struct Layout {
    int text, top, bar;
    explicit Layout(int width) : text(width >= 640 ? 2 : 1), top(14 * text), bar(60 * text) {}
};

std::array<float, 3> background(int y, int height) {
    const float t = float(y) / float(std::max(height - 1, 1));
    return {250 - 22 * t, 250 - 20 * t, 252 - 14 * t};
}

struct Splat {
    float x, y, radius;  // pixels
    float depth;         // m along the view direction (2D: 1)
    std::array<float, 3> color;
};

// The caption in the strip on top, within the picture: at the layout's text size if it fits,
// else at the smallest, else cut short with "..." (compare's captions carry sweep values).
void draw_caption(Image& out, const std::string& caption, int t, std::array<std::uint8_t, 3> ink) {
    const int room = out.width - 10 * t;
    int scale = t;
    if (text_width(caption, scale) > room) scale = 1;
    std::string text = caption;
    if (text_width(text, scale) > room) {
        while (!text.empty() && text_width(text + "...", scale) > room) text.pop_back();
        text += "...";
    }
    draw_text(out, 5 * t, 4 * t + 3 * (t - scale), text, scale, ink);  // centred in the strip
}


void require_velocity(const io::FrameData& f) {
    if (f.velocity.size() != 3 * f.size())
        throw std::invalid_argument(
            "the frame has no velocity, so it cannot be coloured by speed; colour it by density "
            "(--color-by density)");
}

}  // namespace

// Dark violet → blue → teal → green → yellow: ordered in lightness, readable in grey.
constexpr float stops[5][3] = {
    {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};

std::array<float, 3> colormap(double t) {
    t = std::clamp(std::isfinite(t) ? t : 1.0, 0.0, 1.0) * 4.0;
    const int i = std::min(int(t), 3);
    const float f = float(t - i);
    return {stops[i][0] + f * (stops[i + 1][0] - stops[i][0]),
            stops[i][1] + f * (stops[i + 1][1] - stops[i][1]),
            stops[i][2] + f * (stops[i + 1][2] - stops[i][2])};
}


// The colour bar's three labels (lo, middle, hi) in one format, short enough for the bar's
// margin: fixed decimals chosen from the range (970 / 1000 / 1030 kg/m³, 0.0 / 1.7 / 3.4 m/s),
// and the same two-digit general format for all three when a fixed one would be too wide.
// ("{:.3g}" gave "1.03e+03" beside "970", and the margin cut it to "1.03e+0".)
std::array<std::string, 3> bar_labels(double lo, double hi) {
    const double half = 0.5 * std::abs(hi - lo);
    const int decimals =
        half > 0 ? std::clamp(1 - int(std::floor(std::log10(half))), 0, 4) : 2;
    const double values[3] = {lo, 0.5 * (lo + hi), hi};
    std::array<std::string, 3> out;
    bool fits = true;
    for (int k = 0; k < 3; ++k) {
        out[k] = fmt::format("{:.{}f}", values[k], decimals);
        fits = fits && out[k].size() <= 6;
    }
    if (!fits)
        for (int k = 0; k < 3; ++k) out[k] = fmt::format("{:.2g}", values[k]);
    return out;
}

std::array<double, 2> color_range(const Scene& s) {
    const RenderParams& r = s.render;
    if (r.range_max > r.range_min) return {r.range_min, r.range_max};
    if (r.color_by == RenderParams::Color::density)
        return {0.97 * s.rest_density, 1.03 * s.rest_density};
    const double g = std::sqrt(dot(s.gravity, s.gravity));
    double top = 0, v0 = 0;
    for (const FluidBlock& b : s.fluid) {
        top = std::max(top, b.max[1] - s.container_min[1]);
        v0 = std::max(v0, std::sqrt(dot(b.velocity, b.velocity)));
    }
    const double v = std::max(std::sqrt(2.0 * g * top), 1.5 * v0);
    return {0.0, v > 0 ? v : 1.0};
}

double frame_speed_percentile(const io::FrameData& f) {
    require_velocity(f);
    const std::size_t n = f.size();
    if (n == 0) return 0;
    std::vector<float> speed(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float* v = &f.velocity[3 * i];
        speed[i] = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    const std::size_t k = std::min(n - 1, std::size_t(std::floor(0.995 * double(n - 1))));
    std::nth_element(speed.begin(), speed.begin() + std::ptrdiff_t(k), speed.end());
    return speed[k];
}

std::array<double, 2> run_color_range(const Scene& s, double run_speed) {
    const RenderParams& r = s.render;
    if (r.range_max > r.range_min || r.color_by != RenderParams::Color::speed ||
        !(run_speed > 0) || !std::isfinite(run_speed))
        return color_range(s);
    // Two significant digits, rounded up: 6.23 → 6.3, 0.0412 → 0.042.
    const double unit = std::pow(10.0, std::floor(std::log10(run_speed)) - 1);
    return {0.0, std::ceil(run_speed / unit - 1e-9) * unit};
}

std::array<double, 3> Camera::project(const std::array<double, 3>& p) const {
    const V3 q = sub(p, eye);
    const double x = dot(q, right), y = dot(q, up);
    if (!perspective) return {centre[0] + scale * x, centre[1] - scale * y, 1.0};
    const double z = dot(q, forward);
    if (z <= 1e-9) return {0, 0, z};
    return {centre[0] + focal * x / z, centre[1] - focal * y / z, z};
}

Camera fit_camera(const Scene& s, int width, int height) {
    const Layout lay(width);
    Camera cam;
    const double draw_w = width - lay.bar, draw_h = height - lay.top;
    cam.centre = {0.5 * draw_w, lay.top + 0.5 * draw_h};
    const double half_w = 0.47 * draw_w, half_h = 0.47 * draw_h;
    const V3 lo = s.container_min, hi = s.container_max;
    const V3 mid = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
    if (s.dimension == 2) {
        cam.perspective = false;
        cam.eye = {mid[0], mid[1], 0};
        cam.right = {1, 0, 0};
        cam.up = {0, 1, 0};
        cam.forward = {0, 0, -1};
        cam.scale = std::min(2 * half_w / (hi[0] - lo[0]), 2 * half_h / (hi[1] - lo[1]));
        return cam;
    }
    const RenderParams& r = s.render;
    cam.focal = 0.5 * draw_h / std::tan(0.5 * r.fov * M_PI / 180.0);
    const V3 world_up = {0, 1, 0};
    if (!r.camera_auto) {
        cam.eye = r.camera_position;
        cam.forward = normalized(sub(r.camera_target, r.camera_position));
    } else {
        // From the front, a little to the right and above: the tank's length across the picture.
        const V3 back = normalized({0.45, 0.5, 1.0});
        cam.forward = {-back[0], -back[1], -back[2]};
        double dist = 0;
        for (int k = 0; k < 8; ++k) {
            const V3 c = {k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]};
            const V3 q = sub(c, mid);
            const V3 right = normalized(cross(cam.forward, world_up));
            const V3 up = cross(right, cam.forward);
            const double need = std::max(cam.focal * std::abs(dot(q, right)) / half_w,
                                         cam.focal * std::abs(dot(q, up)) / half_h);
            dist = std::max(dist, need - dot(q, cam.forward));
        }
        cam.eye = {mid[0] + back[0] * dist, mid[1] + back[1] * dist, mid[2] + back[2] * dist};
    }
    cam.right = normalized(cross(cam.forward, world_up));
    cam.up = cross(cam.right, cam.forward);
    return cam;
}

Image render_frame(const io::FrameData& f, const Scene& s, const std::string& caption) {
    return render_frame(f, s, caption, color_range(s));
}

Image render_frame(const io::FrameData& f, const Scene& s, const std::string& caption,
                   std::array<double, 2> range) {
    const RenderParams& rp = s.render;
    const int ss = rp.supersample, W = rp.width * ss, H = rp.height * ss;
    const Layout lay(rp.width);
    Camera cam = fit_camera(s, rp.width, rp.height);
    cam.focal *= ss;
    cam.scale *= ss;
    cam.centre = {cam.centre[0] * ss, cam.centre[1] * ss};
    const auto [lo, hi] = range;
    const bool by_density = rp.color_by == RenderParams::Color::density;
    const double r = s.particle_radius;

    const std::size_t n = f.size();
    if (f.position.size() != 3 * n)
        throw std::invalid_argument("a frame of " + std::to_string(n) + " densities has " +
                                    std::to_string(f.position.size() / 3) + " positions");
    if (!by_density) require_velocity(f);
    std::vector<Splat> splats(n);
    parallel_for(n, [&](std::size_t i) {
        const V3 p = {f.position[3 * i], f.position[3 * i + 1], f.position[3 * i + 2]};
        const auto [x, y, depth] = cam.project(p);
        const double rad = depth <= 0        ? 0.0
                           : cam.perspective ? cam.focal * r / depth
                                             : cam.scale * r;
        double value = f.density[i];
        if (!by_density) {
            const float* v = &f.velocity[3 * i];
            value = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        }
        const bool visible = rad > 0 && std::isfinite(x) && std::isfinite(y) && x + rad >= 0 &&
                             x - rad < W && y + rad >= 0 && y - rad < H;
        splats[i] = {float(x), float(y), visible ? float(rad) : 0.0f, float(depth),
                     colormap((value - lo) / (hi - lo))};
    });
    // Drawn in order of their top row, so each band of rows finds its particles by bisection.
    std::vector<std::uint32_t> order;
    order.reserve(n);
    float max_radius = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (splats[i].radius > 0) {
            order.push_back(std::uint32_t(i));
            max_radius = std::max(max_radius, splats[i].radius);
        }
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const float ta = splats[a].y - splats[a].radius, tb = splats[b].y - splats[b].radius;
        return ta < tb || (ta == tb && a < b);
    });
    std::vector<float> tops(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        tops[k] = splats[order[k]].y - splats[order[k]].radius;

    std::vector<float> color(std::size_t(3) * W * H);
    std::vector<float> depth(std::size_t(W) * H, INFINITY);
    const V3 light = normalized({-0.45, 0.65, 0.6}), half = normalized({-0.45, 0.65, 1.6});
    constexpr int band = 16;
    const int bands = (H + band - 1) / band;
    parallel_for(
        std::size_t(bands),
        [&](std::size_t b) {
            const int y0 = int(b) * band, y1 = std::min(y0 + band, H);
            for (int y = y0; y < y1; ++y) {
                const auto bg = background(y, H);
                for (int x = 0; x < W; ++x)
                    std::copy(bg.begin(), bg.end(), &color[3 * (std::size_t(y) * W + x)]);
            }
            const auto first =
                std::lower_bound(tops.begin(), tops.end(), float(y0) - 2 * max_radius - 1);
            const auto last = std::lower_bound(first, tops.end(), float(y1));
            for (auto it = first; it != last; ++it) {
                const Splat& p = splats[order[it - tops.begin()]];
                const int ya = std::max(y0, int(std::floor(p.y - p.radius)));
                const int yb = std::min(y1 - 1, int(std::ceil(p.y + p.radius)));
                const int xa = std::max(0, int(std::floor(p.x - p.radius)));
                const int xb = std::min(W - 1, int(std::ceil(p.x + p.radius)));
                for (int py = ya; py <= yb; ++py)
                    for (int px = xa; px <= xb; ++px) {
                        const double u = (px + 0.5 - p.x) / p.radius,
                                     v = (py + 0.5 - p.y) / p.radius, q = u * u + v * v;
                        if (q >= 1.0) continue;
                        const double nz = std::sqrt(1.0 - q);
                        const float d = float(p.depth - r * nz);
                        const std::size_t k = std::size_t(py) * W + px;
                        if (!(d < depth[k])) continue;
                        depth[k] = d;
                        const V3 normal = {u, -v, nz};
                        const double diffuse = std::max(0.0, dot(normal, light));
                        const double spec = std::pow(std::max(0.0, dot(normal, half)), 32.0);
                        for (int c = 0; c < 3; ++c)
                            color[3 * k + c] = float(
                                std::min(255.0, p.color[c] * (0.3 + 0.7 * diffuse) + 90.0 * spec));
                    }
            }
        },
        2);

    // The edges of the container and the obstacles, hidden where fluid is in front of them.
    std::vector<std::pair<V3, V3>> edges;
    auto add_box = [&](const V3& lo_, const V3& hi_) {
        auto corner = [&](int c) {
            return V3{c & 1 ? hi_[0] : lo_[0], c & 2 ? hi_[1] : lo_[1],
                      s.dimension == 2 ? 0.0
                      : c & 4          ? hi_[2]
                                       : lo_[2]};
        };
        for (int k = 0; k < (s.dimension == 2 ? 4 : 8); ++k)
            for (int a = 0; a < s.dimension; ++a)
                if (!(k >> a & 1)) edges.push_back({corner(k), corner(k | 1 << a)});
    };
    add_box(s.container_min, s.container_max);
    for (const Obstacle& o : s.obstacles) add_box(o.min, o.max);
    for (std::size_t k = 0; k + 6 <= f.solid_edges.size(); k += 6) {
        const float* e = &f.solid_edges[k];
        edges.push_back({V3{e[0], e[1], e[2]}, V3{e[3], e[4], e[5]}});
    }
    // A line from a to b, `thick` pixels of the supersampled picture either side, hidden where
    // the fluid is in front of it.
    auto draw_line = [&](const V3& a, const V3& b, double thick, std::array<float, 3> rgb) {
        const auto pa = cam.project(a), pb = cam.project(b);
        if (pa[2] <= 0 || pb[2] <= 0) return;
        const double len = std::hypot(pb[0] - pa[0], pb[1] - pa[1]);
        const int steps = std::max(1, int(2 * len));
        for (int k = 0; k <= steps; ++k) {
            const double t = double(k) / steps;
            const double x = pa[0] + t * (pb[0] - pa[0]), y = pa[1] + t * (pb[1] - pa[1]);
            const float d = float(pa[2] + t * (pb[2] - pa[2]) - (cam.perspective ? 0.0 : 2 * r));
            for (int py = int(std::floor(y - thick)); py <= int(std::ceil(y + thick)); ++py)
                for (int px = int(std::floor(x - thick)); px <= int(std::ceil(x + thick)); ++px) {
                    if (px < 0 || py < 0 || px >= W || py >= H) continue;
                    if (std::hypot(px + 0.5 - x, py + 0.5 - y) > thick) continue;
                    const std::size_t q = std::size_t(py) * W + px;
                    if (d > depth[q]) continue;
                    for (int c = 0; c < 3; ++c) color[3 * q + c] = rgb[c];
                }
        }
    };
    for (const auto& [a, b] : edges) draw_line(a, b, 0.75 * ss, {70, 76, 88});
    // The scene's pressure sensors, red on their faces: a segment across the patch in 2D, its
    // outline in 3D (the patch as declared; `seiche run` says which particles it holds).
    for (const SensorDef& d : s.sensors) {
        V3 lo = s.container_min, hi = s.container_max;
        for (std::size_t k = 0; k < s.obstacles.size(); ++k)
            if (d.object == "obstacles[" + std::to_string(k) + "]") lo = s.obstacles[k].min, hi = s.obstacles[k].max;
        const int axis = int(d.face) / 2;
        if (axis >= s.dimension) continue;
        V3 a = d.centre, b = d.centre;
        a[axis] = b[axis] = int(d.face) % 2 ? hi[axis] : lo[axis];
        std::array<int, 2> across{};
        int n = 0;
        for (int c = 0; c < s.dimension; ++c)
            if (c != axis) across[std::size_t(n++)] = c;
        auto span = [&](int c, double sign) {
            return std::clamp(d.centre[c] + sign * 0.5 * d.size, lo[c], hi[c]);
        };
        const std::array<float, 3> red{205, 40, 40};
        if (s.dimension == 2) {
            a[across[0]] = span(across[0], -1), b[across[0]] = span(across[0], 1);
            draw_line(a, b, 2.2 * ss, red);
            continue;
        }
        const int u = across[0], v = across[1];
        V3 c00 = a, c10 = a, c11 = a, c01 = a;
        c00[u] = c01[u] = span(u, -1), c10[u] = c11[u] = span(u, 1);
        c00[v] = c10[v] = span(v, -1), c01[v] = c11[v] = span(v, 1);
        draw_line(c00, c10, 1.2 * ss, red);
        draw_line(c10, c11, 1.2 * ss, red);
        draw_line(c11, c01, 1.2 * ss, red);
        draw_line(c01, c00, 1.2 * ss, red);
    }

    Image out(rp.width, rp.height);
    parallel_for(
        std::size_t(rp.height),
        [&](std::size_t y) {
            for (int x = 0; x < rp.width; ++x)
                for (int c = 0; c < 3; ++c) {
                    float sum = 0;
                    for (int dy = 0; dy < ss; ++dy)
                        for (int dx = 0; dx < ss; ++dx)
                            sum += color[3 * ((y * ss + dy) * W + x * ss + dx) + c];
                    out.rgb[3 * (y * rp.width + x) + c] =
                        std::uint8_t(std::lround(sum / float(ss * ss)));
                }
        },
        64);

    // Caption and colour bar at output resolution, so the text stays crisp.
    const std::array<std::uint8_t, 3> ink = {30, 32, 38};
    const int t = lay.text;
    draw_caption(out, caption, t, ink);
    const int bx0 = rp.width - lay.bar + 6 * t, bx1 = bx0 + 9 * t;
    const int by0 = lay.top + 30 * t, by1 = rp.height - 12 * t;
    draw_text(out, rp.width - lay.bar + 2 * t, lay.top, by_density ? "Density" : "Speed", t, ink);
    draw_text(out, rp.width - lay.bar + 2 * t, lay.top + 10 * t, by_density ? "kg/m³" : "m/s", t,
              ink);
    for (int y = by0; y <= by1 && by1 > by0; ++y) {
        const auto c = colormap(double(by1 - y) / double(by1 - by0));
        for (int x = bx0; x <= bx1; ++x) {
            const bool frame = x == bx0 || x == bx1 || y == by0 || y == by1;
            for (int k = 0; k < 3; ++k)
                out.rgb[3 * (std::size_t(y) * rp.width + x) + k] =
                    frame ? ink[k] : std::uint8_t(std::lround(c[k]));
        }
    }
    const int lx = bx1 + 3 * t;
    const auto labels = bar_labels(lo, hi);
    draw_text(out, lx, by0 - 3 * t, labels[2], t, ink);
    draw_text(out, lx, (by0 + by1) / 2 - 3 * t, labels[1], t, ink);
    draw_text(out, lx, by1 - 3 * t, labels[0], t, ink);
    return out;
}

Image side_by_side(const std::vector<Image>& images, int gap) {
    int width = 0, height = 0;
    for (const Image& im : images) {
        width += im.width + (width > 0 ? gap : 0);
        height = std::max(height, im.height);
    }
    Image out(width, height);
    std::fill(out.rgb.begin(), out.rgb.end(), std::uint8_t(255));
    int x0 = 0;
    for (const Image& im : images) {
        for (int y = 0; y < im.height; ++y)
            std::copy_n(&im.rgb[3 * std::size_t(y) * im.width], 3 * im.width,
                        &out.rgb[3 * (std::size_t(y) * width + x0)]);
        x0 += im.width + gap;
    }
    return out;
}

Image stacked(const std::vector<Image>& images, int gap) {
    int width = 0, height = 0;
    for (const Image& im : images) {
        height += im.height + (height > 0 ? gap : 0);
        width = std::max(width, im.width);
    }
    Image out(width, height);
    std::fill(out.rgb.begin(), out.rgb.end(), std::uint8_t(255));
    int y0 = 0;
    for (const Image& im : images) {
        for (int y = 0; y < im.height; ++y)
            std::copy_n(&im.rgb[3 * std::size_t(y) * im.width], 3 * im.width,
                        &out.rgb[3 * std::size_t(y0 + y) * width]);
        y0 += im.height + gap;
    }
    return out;
}

}  // namespace seiche::render
