// Input files checked before they are opened (seiche/io/input_file.hpp): by their type through
// stat(2), which does not open them, then by their size.
#include "seiche/io/input_file.hpp"

#include <stdexcept>
#include <system_error>

namespace seiche::io {

std::string special_file_kind(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status s = fs::status(path, ec);
    if (ec) return "";
    switch (s.type()) {
        case fs::file_type::regular:
        case fs::file_type::not_found:
        case fs::file_type::none:
            return "";
        case fs::file_type::directory:
            return "a directory";
        case fs::file_type::fifo:
            return "a FIFO";
        case fs::file_type::socket:
            return "a socket";
        case fs::file_type::character:
            return "a character device";
        case fs::file_type::block:
            return "a block device";
        default:
            return "not a regular file";
    }
}

std::ifstream open_input(const std::filesystem::path& path, std::string_view what,
                         std::uintmax_t max_bytes, std::ios::openmode mode) {
    if (const std::string kind = special_file_kind(path); !kind.empty())
        throw std::runtime_error(path.string() + ": " + std::string(what) + " is " + kind +
                                 ", not a file");
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes)
        throw std::runtime_error(path.string() + ": " + std::string(what) + " is " +
                                 std::to_string((size + MiB - 1) / MiB) + " MiB, more than the " +
                                 std::to_string(max_bytes / MiB) + " MiB it may be");
    return std::ifstream(path, mode);
}

}  // namespace seiche::io
