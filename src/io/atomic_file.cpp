// Write-then-rename: the file is written under a temporary name beside its target and renamed
// when complete (rename(2) within one directory is atomic on POSIX file systems). The temporary
// file is created exclusively under an unpredictable name (mkostemps: O_CREAT | O_EXCL, so a
// symlink planted at a guessed name is never followed), synced to disk before the rename, and the
// directory synced after it, so a crash leaves either the old file or the whole new one.
#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <mutex>
#include <stdexcept>

#include "seiche/io/writers.hpp"

namespace seiche::io {

namespace {

// The permissions a plain open(2) would give: 0666 less the umask (read once; umask(2) has no
// read-only form, and frames are written from several threads).
mode_t file_mode() {
    static const mode_t mode = [] {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return mode_t(0666 & ~mask);
    }();
    return mode;
}

std::string error_text(const std::string& what, const std::filesystem::path& p) {
    return what + " " + p.string() + ": " + std::strerror(errno);
}

}  // namespace

int create_temp_beside(const std::filesystem::path& path, std::filesystem::path& temp) {
    std::string name = path.string() + ".XXXXXX.part";
    const int fd = ::mkostemps(name.data(), 5, O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(error_text("cannot write", path));
    ::fchmod(fd, file_mode());
    temp = name;
    return fd;
}

void commit_temp(int fd, const std::filesystem::path& temp, const std::filesystem::path& path) {
    const bool synced = ::fsync(fd) == 0;
    const bool closed = ::close(fd) == 0;
    if (!synced || !closed) {
        const std::string message = error_text("write failed (disk full?):", temp);
        ::unlink(temp.c_str());
        throw std::runtime_error(message);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string message = error_text("cannot rename", temp);
        ::unlink(temp.c_str());
        throw std::runtime_error(message);
    }
    // The rename itself reaches the disk with the directory.
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

void write_file_atomic(const std::filesystem::path& path,
                       const std::function<void(std::ostream&)>& fill) {
    std::filesystem::path temp;
    const int fd = create_temp_beside(path, temp);
    // The stream writes through a duplicate, so the original stays open for the fsync.
    const int dup = ::dup(fd);
    if (dup < 0) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw std::runtime_error(error_text("cannot write", temp));
    }
    bool ok = false;
    try {
        __gnu_cxx::stdio_filebuf<char> buf(dup, std::ios::out | std::ios::binary);
        std::ostream out(&buf);
        fill(out);
        out.flush();
        ok = bool(out) && buf.pubsync() == 0;
    } catch (...) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw;
    }
    if (!ok) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw std::runtime_error("write failed (disk full?): " + temp.string());
    }
    commit_temp(fd, temp, path);
}

}  // namespace seiche::io
