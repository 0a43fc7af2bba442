#include "vdb_output.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "vdb_plugin.h"

namespace seiche::run {

namespace fs = std::filesystem;

namespace {

// libseiche_vdb.so, opened once on first use: beside the program (or the Python module), or in
// the installed library directory; SEICHE_VDB_PLUGIN names it elsewhere.
struct Plugin {
    seiche_vdb_points_fn points = nullptr;
    seiche_vdb_level_set_fn level_set = nullptr;
    seiche_vdb_free_fn release = nullptr;
    std::string why;  //!< why it is not there
};

const Plugin& plugin() {
    static const Plugin p = [] {
        Plugin out;
        std::vector<fs::path> candidates;
        if (const char* env = std::getenv("SEICHE_VDB_PLUGIN")) {
            candidates.push_back(env);
        } else {
            std::vector<fs::path> dirs;
            std::error_code ec;
            const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
            if (!ec) dirs.push_back(exe.parent_path());
            Dl_info info{};
            if (dladdr(reinterpret_cast<void*>(&vdb_unavailable), &info) && info.dli_fname &&
                *info.dli_fname)
                dirs.push_back(fs::absolute(info.dli_fname, ec).parent_path());
            for (const fs::path& d : dirs) {
                candidates.push_back(d / "libseiche_vdb.so");
                candidates.push_back(d / SEICHE_VDB_PLUGIN_FROM_BIN / "libseiche_vdb.so");
            }
        }
        for (const fs::path& c : candidates) {
            std::error_code ec;
            if (!fs::exists(c, ec)) continue;
            void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!h) {
                out.why = dlerror();
                continue;
            }
            out.points = reinterpret_cast<seiche_vdb_points_fn>(dlsym(h, "seiche_vdb_points"));
            out.level_set =
                reinterpret_cast<seiche_vdb_level_set_fn>(dlsym(h, "seiche_vdb_level_set"));
            out.release = reinterpret_cast<seiche_vdb_free_fn>(dlsym(h, "seiche_vdb_free"));
            if (out.points && out.level_set && out.release) return out;
            out = Plugin{};
            out.why = c.string() + " is not seiche's VDB plugin";
        }
        if (out.why.empty())
            out.why = "this seiche has no VDB writer: libseiche_vdb.so, built when OpenVDB is "
                      "installed (scripts/install-deps.sh installs libopenvdb-dev; then rebuild), "
                      "is not beside the program";
        return out;
    }();
    return p;
}

void write_bytes(const fs::path& path, int status, char* bytes, std::size_t size,
                 const char* err) {
    // The plugin's buffer goes back to the plugin whatever happens below.
    const std::unique_ptr<char, seiche_vdb_free_fn> owned(bytes, plugin().release);
    if (status != 0) throw std::runtime_error(path.string() + ": " + err);
    // Written whole or not at all (write-then-rename).
    io::write_file_atomic(path, [&](std::ostream& out) { out.write(bytes, std::streamsize(size)); });
}

}  // namespace

std::string vdb_unavailable() { return plugin().points ? "" : "output.vdb: " + plugin().why; }

void write_vdb_points(const fs::path& path, const io::FrameData& frame, double voxel) {
    if (const std::string why = vdb_unavailable(); !why.empty()) throw std::runtime_error(why);
    char* bytes = nullptr;
    std::size_t size = 0;
    char err[512] = "";
    const int status = plugin().points(frame.size(), frame.position.data(), frame.velocity.data(),
                                       frame.density.data(),
                                       frame.id.empty() ? nullptr : frame.id.data(), frame.time,
                                       voxel, &bytes, &size, err, sizeof err);
    write_bytes(path, status, bytes, size, err);
}

void write_vdb_level_set(const fs::path& path, const SurfaceMesh& mesh, double voxel,
                         double time) {
    if (mesh.dimension != 3) throw std::invalid_argument("a VDB level set needs a 3D surface mesh");
    if (const std::string why = vdb_unavailable(); !why.empty()) throw std::runtime_error(why);
    char* bytes = nullptr;
    std::size_t size = 0;
    char err[512] = "";
    const int status = plugin().level_set(mesh.vertex_count(), mesh.position.data(),
                                          mesh.face_count(), mesh.index.data(), voxel, time,
                                          &bytes, &size, err, sizeof err);
    write_bytes(path, status, bytes, size, err);
}

}  // namespace seiche::run
