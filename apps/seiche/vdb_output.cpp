#include "vdb_output.hpp"

#include <sstream>
#include <stdexcept>
#include <vector>

#ifdef SEICHE_HAVE_OPENVDB
#include <openvdb/io/Stream.h>
#include <openvdb/openvdb.h>
#include <openvdb/points/PointConversion.h>
#include <openvdb/tools/MeshToVolume.h>
#endif

namespace seiche::app {

namespace {
constexpr const char* unavailable_message =
    "output.vdb: this seiche was built without OpenVDB (scripts/install-deps.sh installs "
    "libopenvdb-dev; then rebuild)";
}  // namespace

void require_vdb_if_asked(const OutputParams& output) {
    if (output.vdb && !vdb_available()) throw std::runtime_error(unavailable_message);
}

#ifdef SEICHE_HAVE_OPENVDB

namespace {

void write_grids(const std::filesystem::path& path, const openvdb::GridPtrVec& grids,
                 double time) {
    for (const auto& g : grids) g->insertMeta("time", openvdb::DoubleMetadata(time));
    // Through a memory stream, so the file appears whole (write-then-rename) or not at all.
    std::ostringstream bytes(std::ios::binary);
    openvdb::io::Stream(bytes).write(grids);
    const std::string data = bytes.str();
    io::write_file_atomic(path, [&](std::ostream& out) { out.write(data.data(), data.size()); });
}

}  // namespace

bool vdb_available() { return true; }

void write_vdb_points(const std::filesystem::path& path, const io::FrameData& frame,
                      double voxel) {
    openvdb::initialize();
    using namespace openvdb::points;
    const std::size_t n = frame.size();
    std::vector<openvdb::Vec3f> position(n), velocity(n);
    std::vector<float> density(frame.density);
    std::vector<std::int32_t> id(n);
    for (std::size_t i = 0; i < n; ++i) {
        position[i] = {frame.position[3 * i], frame.position[3 * i + 1], frame.position[3 * i + 2]};
        velocity[i] = {frame.velocity[3 * i], frame.velocity[3 * i + 1], frame.velocity[3 * i + 2]};
        id[i] = std::int32_t(frame.id.empty() ? i : frame.id[i]);
    }
    const PointAttributeVector<openvdb::Vec3f> positions(position);
    const auto transform = openvdb::math::Transform::createLinearTransform(voxel);
    const auto index =
        openvdb::tools::createPointIndexGrid<openvdb::tools::PointIndexGrid>(positions, *transform);
    auto grid = createPointDataGrid<NullCodec, PointDataGrid>(*index, positions, *transform);
    appendAttribute<openvdb::Vec3f>(grid->tree(), "v");
    populateAttribute(grid->tree(), index->tree(), "v", PointAttributeVector<openvdb::Vec3f>(velocity));
    appendAttribute<float>(grid->tree(), "density");
    populateAttribute(grid->tree(), index->tree(), "density", PointAttributeVector<float>(density));
    appendAttribute<std::int32_t>(grid->tree(), "id");
    populateAttribute(grid->tree(), index->tree(), "id", PointAttributeVector<std::int32_t>(id));
    grid->setName("points");
    write_grids(path, {grid}, frame.time);
}

void write_vdb_level_set(const std::filesystem::path& path, const SurfaceMesh& mesh, double voxel,
                         double time) {
    if (mesh.dimension != 3)
        throw std::invalid_argument("a VDB level set needs a 3D surface mesh");
    openvdb::initialize();
    const auto transform = openvdb::math::Transform::createLinearTransform(voxel);
    std::vector<openvdb::Vec3s> points(mesh.vertex_count());
    for (std::size_t i = 0; i < points.size(); ++i)
        points[i] = {mesh.position[3 * i], mesh.position[3 * i + 1], mesh.position[3 * i + 2]};
    std::vector<openvdb::Vec3I> triangles(mesh.face_count());
    for (std::size_t t = 0; t < triangles.size(); ++t)
        triangles[t] = {mesh.index[3 * t], mesh.index[3 * t + 1], mesh.index[3 * t + 2]};
    auto grid = openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*transform, points, triangles,
                                                                    3.0f);
    grid->setName("surface");
    write_grids(path, {grid}, time);
}

#else

bool vdb_available() { return false; }

namespace {
[[noreturn]] void unavailable() { throw std::runtime_error(unavailable_message); }
}  // namespace

void write_vdb_points(const std::filesystem::path&, const io::FrameData&, double) { unavailable(); }
void write_vdb_level_set(const std::filesystem::path&, const SurfaceMesh&, double, double) {
    unavailable();
}

#endif

}  // namespace seiche::app
