// Write-then-rename: rename(2) within one directory is atomic on POSIX file systems.
#include <fstream>
#include <stdexcept>

#include "seiche/io/writers.hpp"

namespace seiche::io {

void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(std::ostream&)>& fill) {
    std::filesystem::path part = path;
    part += ".part";
    {
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error("cannot write " + part.string());
        try {
            fill(out);
        } catch (...) {
            out.close();
            std::filesystem::remove(part);
            throw;
        }
        out.flush();
        if (!out) {
            out.close();
            std::filesystem::remove(part);
            throw std::runtime_error("write failed (disk full?): " + part.string());
        }
    }
    std::error_code ec;
    std::filesystem::rename(part, path, ec);
    if (ec) {
        std::filesystem::remove(part);
        throw std::runtime_error("cannot rename " + part.string() + ": " + ec.message());
    }
}

}  // namespace seiche::io
