// PNG (ISO/IEC 15948): 8-bit RGB, one IDAT chunk, zlib from the system library.
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "seiche/render.hpp"

namespace seiche::render {

namespace {

constexpr unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

void put_u32(std::string& out, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(char((v >> s) & 0xff));
}

std::uint32_t get_u32(const unsigned char* p) {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
}

void put_chunk(std::string& out, const char type[4], const std::string& data) {
    put_u32(out, std::uint32_t(data.size()));
    const std::size_t start = out.size();
    out.append(type, 4);
    out += data;
    const auto* bytes = reinterpret_cast<const Bytef*>(out.data() + start);
    put_u32(out, std::uint32_t(crc32(0, bytes, uInt(out.size() - start))));
}

int paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

}  // namespace

void write_png(const std::filesystem::path& path, const Image& image) {
    const std::size_t row = 3 * std::size_t(image.width);
    // Filter "Sub" on every row: smooth gradients and flat backgrounds compress far better.
    std::string raw;
    raw.reserve((row + 1) * image.height);
    for (int y = 0; y < image.height; ++y) {
        raw.push_back(1);
        const std::uint8_t* p = image.rgb.data() + y * row;
        for (std::size_t k = 0; k < row; ++k)
            raw.push_back(char(k < 3 ? p[k] : std::uint8_t(p[k] - p[k - 3])));
    }
    uLongf packed_size = compressBound(uLong(raw.size()));
    std::string packed(packed_size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
                  reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 6) != Z_OK)
        throw std::runtime_error("PNG compression failed for " + path.string());
    packed.resize(packed_size);

    std::string header;
    put_u32(header, std::uint32_t(image.width));
    put_u32(header, std::uint32_t(image.height));
    header += std::string{8, 2, 0, 0, 0};  // 8 bits, RGB, deflate, adaptive filters, no interlace
    std::string file(reinterpret_cast<const char*>(signature), 8);
    put_chunk(file, "IHDR", header);
    put_chunk(file, "IDAT", packed);
    put_chunk(file, "IEND", "");
    io::write_file_atomic(path, [&](std::ostream& out) { out.write(file.data(), file.size()); });
}

Image read_png(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto* b = reinterpret_cast<const unsigned char*>(file.data());
    auto fail = [&](const std::string& why) {
        throw std::runtime_error(path.string() + ": " + why);
    };
    if (file.size() < 8 || std::memcmp(b, signature, 8) != 0) fail("not a PNG file");
    Image img;
    std::string packed;
    bool ended = false;
    for (std::size_t at = 8; at + 12 <= file.size() && !ended;) {
        const std::uint32_t len = get_u32(b + at);
        if (at + 12 + std::size_t(len) > file.size()) fail("truncated chunk");
        const std::string type(file.data() + at + 4, 4);
        const unsigned char* data = b + at + 8;
        if (crc32(0, b + at + 4, len + 4) != get_u32(data + len)) fail("bad CRC in " + type);
        if (type == "IHDR") {
            if (len != 13 || data[8] != 8 || data[9] != 2 || data[12] != 0)
                fail("only 8-bit RGB non-interlaced PNGs are read");
            img = Image(int(get_u32(data)), int(get_u32(data + 4)));
        } else if (type == "IDAT") {
            packed.append(reinterpret_cast<const char*>(data), len);
        } else if (type == "IEND") {
            ended = true;
        }
        at += 12 + len;
    }
    if (!ended || img.width == 0) fail("missing IHDR or IEND");
    const std::size_t row = 3 * std::size_t(img.width);
    std::string raw((row + 1) * img.height, '\0');
    uLongf raw_size = uLongf(raw.size());
    if (uncompress(reinterpret_cast<Bytef*>(raw.data()), &raw_size,
                   reinterpret_cast<const Bytef*>(packed.data()), uLong(packed.size())) != Z_OK ||
        raw_size != raw.size())
        fail("corrupt image data");
    for (int y = 0; y < img.height; ++y) {
        const int filter = static_cast<unsigned char>(raw[y * (row + 1)]);
        const auto* src = reinterpret_cast<const std::uint8_t*>(raw.data() + y * (row + 1) + 1);
        std::uint8_t* out = img.rgb.data() + y * row;
        const std::uint8_t* up = y > 0 ? out - row : nullptr;
        for (std::size_t k = 0; k < row; ++k) {
            const int a = k >= 3 ? out[k - 3] : 0, u = up ? up[k] : 0,
                      c = (up && k >= 3) ? up[k - 3] : 0;
            int pred = 0;
            switch (filter) {
                case 0:
                    pred = 0;
                    break;
                case 1:
                    pred = a;
                    break;
                case 2:
                    pred = u;
                    break;
                case 3:
                    pred = (a + u) / 2;
                    break;
                case 4:
                    pred = paeth(a, u, c);
                    break;
                default:
                    fail("unknown row filter");
            }
            out[k] = std::uint8_t(src[k] + pred);
        }
    }
    return img;
}

}  // namespace seiche::render
