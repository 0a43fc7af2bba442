// Text in pictures: captions, colour-bar titles and labels, in an outline font (DejaVu Sans or
// Liberation Sans from Debian, through FreeType) with capitals, Greek and superscripts, so units
// read "kg/m³". Without FreeType or a font file, the built-in 5×7 pixel font with the text
// spelled in ASCII ("kg/m3"). Glyphs are rasterised once per size and shared by all threads:
// the same picture for any thread count.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#ifdef SEICHE_HAVE_FREETYPE
#include <ft2build.h>
#include FT_FREETYPE_H
#endif

#include "bitmap_font.hpp"
#include "seiche/render.hpp"

namespace seiche::render {

namespace {

// Code points of UTF-8 text; a malformed byte reads as '?'.
std::vector<char32_t> decode_utf8(const std::string& s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (extra < 0 || i + extra >= s.size()) {  // a stray byte, or cut short
            out.push_back(U'?');
            ++i;
            continue;
        }
        char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
        bool ok = true;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char d = static_cast<unsigned char>(s[i + k]);
            ok = ok && (d >> 6) == 2;
            cp = (cp << 6) | (d & 0x3F);
        }
        out.push_back(ok ? cp : U'?');
        i += ok ? extra + 1 : 1;
    }
    return out;
}

}  // namespace

std::string ascii_fallback(const std::string& text) {
    static const std::map<char32_t, const char*> spelled = {
        {U'²', "2"},  {U'³', "3"},     {U'⁻', "-"},   {U'₀', "0"},      {U'ρ', "rho"},
        {U'σ', "sigma"}, {U'γ', "gamma"}, {U'β', "beta"}, {U'Δ', "d"},      {U'×', "x"},
        {U'·', "."},  {U'−', "-"},     {U'–', "-"},   {U'—', "-"},      {U'…', "..."},
        {U'°', "deg"}};
    std::string out;
    for (char32_t cp : decode_utf8(text)) {
        if (cp < 0x80) {
            out += char(cp);
        } else {
            const auto it = spelled.find(cp);
            out += it != spelled.end() ? it->second : "?";
        }
    }
    return out;
}

std::vector<std::string> outline_font_files() {
    std::vector<std::string> candidates, found;
    if (const char* env = std::getenv("SEICHE_FONT")) candidates.push_back(env);
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                          "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                          "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
                          "/usr/local/share/fonts/DejaVuSans.ttf"})
        candidates.push_back(p);
    for (const std::string& path : candidates) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) found.push_back(path);
    }
    return found;
}

#ifdef SEICHE_HAVE_FREETYPE

namespace {

struct Glyph {
    int width = 0, rows = 0, left = 0, top = 0, advance = 0;
    std::vector<std::uint8_t> coverage;  //!< rows × width, 0..255
};

// One face, its glyphs rasterised per pixel size on first use. FreeType faces are not
// thread-safe: all rasterising happens under the lock; drawing reads finished glyphs.
class OutlineFont {
  public:
    static OutlineFont* get() {
        static const std::unique_ptr<OutlineFont> font = open();
        return font.get();
    }
    ~OutlineFont() {
        FT_Done_Face(face_);
        FT_Done_FreeType(library_);
    }
    // The pixel size whose capitals are `cap` pixels tall.
    int size_for_cap(int cap) const { return std::max(4, int(cap * cap_ratio_ + 0.5)); }
    const Glyph& glyph(char32_t cp, int size) {
        const std::lock_guard<std::mutex> lock(mutex_);
        auto [it, fresh] = cache_.try_emplace({size, cp});
        if (!fresh) return it->second;
        Glyph& g = it->second;
        FT_Set_Pixel_Sizes(face_, 0, FT_UInt(size));
        FT_UInt index = FT_Get_Char_Index(face_, cp);
        if (index == 0) index = FT_Get_Char_Index(face_, U'?');
        if (FT_Load_Glyph(face_, index, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT) != 0) return g;
        const FT_GlyphSlot slot = face_->glyph;
        g.width = int(slot->bitmap.width);
        g.rows = int(slot->bitmap.rows);
        g.left = slot->bitmap_left;
        g.top = slot->bitmap_top;
        g.advance = int((slot->advance.x + 32) >> 6);
        g.coverage.resize(std::size_t(g.width) * g.rows);
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.width; ++c)
                g.coverage[std::size_t(r) * g.width + c] =
                    slot->bitmap.buffer[r * slot->bitmap.pitch + c];
        return g;
    }

  private:
    OutlineFont(FT_Library library, FT_Face face) : library_(library), face_(face) {
        // Capital height at 100 px, from the glyph of 'H'.
        FT_Set_Pixel_Sizes(face_, 0, 100);
        if (FT_Load_Char(face_, 'H', FT_LOAD_RENDER) == 0 && face_->glyph->bitmap_top > 0)
            cap_ratio_ = 100.0 / face_->glyph->bitmap_top;
    }
    static std::unique_ptr<OutlineFont> open() {
        FT_Library library = nullptr;
        if (FT_Init_FreeType(&library) != 0) return nullptr;
        for (const std::string& path : outline_font_files()) {
            FT_Face face = nullptr;
            if (FT_New_Face(library, path.c_str(), 0, &face) == 0 && FT_IS_SCALABLE(face))
                return std::unique_ptr<OutlineFont>(new OutlineFont(library, face));
            if (face) FT_Done_Face(face);
        }
        FT_Done_FreeType(library);
        return nullptr;
    }

    FT_Library library_;
    FT_Face face_;
    double cap_ratio_ = 1.37;  // DejaVu Sans: capitals are 0.73 em
    std::mutex mutex_;
    std::map<std::pair<int, char32_t>, Glyph> cache_;
};

}  // namespace

bool outline_font_available() { return OutlineFont::get() != nullptr; }

int text_width(const std::string& text, int scale) {
    OutlineFont* font = OutlineFont::get();
    if (!font) return bitmap::text_width(ascii_fallback(text), scale);
    const int size = font->size_for_cap(7 * scale);
    int width = 0;
    for (char32_t cp : decode_utf8(text)) width += font->glyph(cp, size).advance;
    return width;
}

void draw_text(Image& image, int x, int y, const std::string& text, int scale,
               std::array<std::uint8_t, 3> color) {
    OutlineFont* font = OutlineFont::get();
    if (!font) return bitmap::draw_text(image, x, y, ascii_fallback(text), scale, color);
    const int size = font->size_for_cap(7 * scale);
    const int baseline = y + 7 * scale;  // capitals fill [y, y + 7·scale) as in the pixel font
    int pen = x;
    for (char32_t cp : decode_utf8(text)) {
        const Glyph& g = font->glyph(cp, size);
        for (int r = 0; r < g.rows; ++r) {
            const int py = baseline - g.top + r;
            if (py < 0 || py >= image.height) continue;
            for (int c = 0; c < g.width; ++c) {
                const int px = pen + g.left + c;
                if (px < 0 || px >= image.width) continue;
                const int a = g.coverage[std::size_t(r) * g.width + c];
                if (a == 0) continue;
                std::uint8_t* p = &image.rgb[3 * (std::size_t(py) * image.width + px)];
                for (int k = 0; k < 3; ++k) p[k] = std::uint8_t((p[k] * (255 - a) + color[k] * a + 127) / 255);
            }
        }
        pen += g.advance;
    }
}

#else

bool outline_font_available() { return false; }

int text_width(const std::string& text, int scale) {
    return bitmap::text_width(ascii_fallback(text), scale);
}

void draw_text(Image& image, int x, int y, const std::string& text, int scale,
               std::array<std::uint8_t, 3> color) {
    bitmap::draw_text(image, x, y, ascii_fallback(text), scale, color);
}

#endif

}  // namespace seiche::render
