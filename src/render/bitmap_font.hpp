// The built-in 5×7 pixel font: the fallback for pictures when FreeType or a font file is missing
// (internal to seiche_render).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "seiche/render.hpp"

namespace seiche::render::bitmap {

// ASCII only (upper case drawn as lower case); `text` has gone through ascii_fallback.
void draw_text(Image& image, int x, int y, const std::string& text, int scale,
               std::array<std::uint8_t, 3> color);
int text_width(const std::string& text, int scale);

}  // namespace seiche::render::bitmap
