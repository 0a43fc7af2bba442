// Pictures of particle frames without a display: particles as shaded spheres (3D, perspective)
// or discs (2D, orthographic), coloured by speed or density with a colour bar, written as PNG.
// Software rasteriser with a depth buffer, supersampled, parallel over bands of rows; the same
// image for any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "seiche/io/writers.hpp"
#include "seiche/scene.hpp"

namespace seiche::render {

struct Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb;  //!< row-major, top row first, 3 bytes per pixel
    Image() = default;
    Image(int w, int h) : width(w), height(h), rgb(std::size_t(3) * w * h, 0) {}
    std::array<std::uint8_t, 3> at(int x, int y) const {
        const std::size_t k = 3 * (std::size_t(y) * width + x);
        return {rgb[k], rgb[k + 1], rgb[k + 2]};
    }
};

// 8-bit RGB PNG, written atomically (path.part, then renamed). Throws std::runtime_error.
void write_png(const std::filesystem::path& path, const Image& image);
// Reads back 8-bit RGB PNGs (as written by write_png); throws std::runtime_error otherwise.
Image read_png(const std::filesystem::path& path);

// The colour range of the scene's render.color_by: render.range when set, else speed
// [0, sqrt(2|g|H)] (H: the top of the fluid above the container floor, the free-fall speed of a
// collapsing column) or density ρ0·[0.97, 1.03]. Fixed for a whole run, so movies do not flicker.
std::array<double, 2> color_range(const Scene& scene);
// The speed (m/s) below which all but the fastest 0.5% of the frame's particles lie: a few spray
// particles do not set a run's colour range.
double frame_speed_percentile(const io::FrameData& frame);
// The colour range of a whole run's pictures: as color_range, except that speed without
// render.range goes from 0 to `run_speed` (the largest frame_speed_percentile of the run's frames)
// rounded up to two significant digits; run_speed ≤ 0 or not finite: color_range(scene).
std::array<double, 2> run_color_range(const Scene& scene, double run_speed);
// The colour map of the pictures at t in [0, 1] (clamped; NaN: the top), RGB in [0, 255].
std::array<float, 3> colormap(double t);
// The colour bar's labels for lo, the middle and hi: one format for the three, at most six
// characters each where a fixed format allows.
std::array<std::string, 3> bar_labels(double lo, double hi);

// Where the camera is: from render.camera, else fitted so the whole container is in view.
struct Camera {
    std::array<double, 3> eye{}, right{}, up{}, forward{};  //!< orthonormal, world units (m)
    double focal = 1;                                       //!< pixels per unit of tan(angle) (3D)
    double scale = 1;                                       //!< pixels per metre (2D)
    std::array<double, 2> centre{};                         //!< projection centre in pixels
    bool perspective = true;
    // Pixel position (x right, y down) and depth along `forward`; depth ≤ 0: behind the eye.
    std::array<double, 3> project(const std::array<double, 3>& p) const;
};
Camera fit_camera(const Scene& scene, int width, int height);

// One picture of a frame; `caption` goes top left (e.g. scene, solver and time).
Image render_frame(const io::FrameData& frame, const Scene& scene, const std::string& caption);
// The same with the colour range given (run_color_range) instead of color_range(scene).
Image render_frame(const io::FrameData& frame, const Scene& scene, const std::string& caption,
                   std::array<double, 2> range);

// UTF-8 text whose capitals are 7·scale pixels tall, top at y: in an outline font (DejaVu Sans
// through FreeType; the environment variable SEICHE_FONT names another .ttf) when there is one,
// else in a built-in 5×7 pixel font with the text spelled in ASCII (ascii_fallback).
void draw_text(Image& image, int x, int y, const std::string& text, int scale,
               std::array<std::uint8_t, 3> color);
int text_width(const std::string& text, int scale);
// The font files the outline font is taken from, in order, those that exist: SEICHE_FONT, then
// DejaVu Sans and Liberation Sans where Debian puts them. The first one that loads is used (the
// viewer's panels take the first one ImGui can read).
std::vector<std::string> outline_font_files();
// Whether pictures get the outline font (FreeType built in and a font file found).
bool outline_font_available();
// The text in ASCII: "kg/m³" → "kg/m3", "ρ" → "rho"; other non-ASCII characters → '?'.
std::string ascii_fallback(const std::string& text);

// Images placed left to right with a white gap, top-aligned (for side-by-side pictures).
Image side_by_side(const std::vector<Image>& images, int gap = 8);
// Images placed top to bottom with a white gap, left-aligned.
Image stacked(const std::vector<Image>& images, int gap = 8);

}  // namespace seiche::render
