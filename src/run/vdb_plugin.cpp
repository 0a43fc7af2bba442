// The OpenVDB side of output.vdb (Museth 2013, "VDB: High-resolution sparse volumes with dynamic
// topology"), built as libseiche_vdb.so and loaded by vdb_output.cpp on first use: a frame's
// particles as a points grid, a surface mesh as a narrow-band level set, returned as file bytes.
#include "vdb_plugin.h"

#include <openvdb/io/Stream.h>
#include <openvdb/openvdb.h>
#include <openvdb/points/PointConversion.h>
#include <openvdb/tools/MeshToVolume.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace {

int give(const openvdb::GridPtrVec& grids, double time, char** bytes, size_t* size) {
    for (const auto& g : grids) g->insertMeta("time", openvdb::DoubleMetadata(time));
    std::ostringstream out(std::ios::binary);
    openvdb::io::Stream(out).write(grids);
    const std::string data = out.str();
    *bytes = static_cast<char*>(std::malloc(data.size()));
    if (!*bytes) throw std::bad_alloc();
    std::memcpy(*bytes, data.data(), data.size());
    *size = data.size();
    return 0;
}

int failed(const std::exception& e, char* err, size_t err_size) {
    if (err_size > 0) {
        std::strncpy(err, e.what(), err_size - 1);
        err[err_size - 1] = '\0';
    }
    return 1;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int seiche_vdb_points(
    size_t n, const float* xyz, const float* velocity, const float* density, const uint32_t* id,
    double time, double voxel, char** bytes, size_t* size, char* err, size_t err_size) {
    try {
        openvdb::initialize();
        using namespace openvdb::points;
        std::vector<openvdb::Vec3f> position(n), v(n);
        std::vector<float> rho(density, density + n);
        std::vector<std::int32_t> ids(n);
        for (size_t i = 0; i < n; ++i) {
            position[i] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
            v[i] = {velocity[3 * i], velocity[3 * i + 1], velocity[3 * i + 2]};
            ids[i] = std::int32_t(id ? id[i] : i);
        }
        const PointAttributeVector<openvdb::Vec3f> positions(position);
        const auto transform = openvdb::math::Transform::createLinearTransform(voxel);
        const auto index = openvdb::tools::createPointIndexGrid<openvdb::tools::PointIndexGrid>(
            positions, *transform);
        auto grid = createPointDataGrid<NullCodec, PointDataGrid>(*index, positions, *transform);
        appendAttribute<openvdb::Vec3f>(grid->tree(), "v");
        populateAttribute(grid->tree(), index->tree(), "v", PointAttributeVector<openvdb::Vec3f>(v));
        appendAttribute<float>(grid->tree(), "density");
        populateAttribute(grid->tree(), index->tree(), "density", PointAttributeVector<float>(rho));
        appendAttribute<std::int32_t>(grid->tree(), "id");
        populateAttribute(grid->tree(), index->tree(), "id",
                          PointAttributeVector<std::int32_t>(ids));
        grid->setName("points");
        return give({grid}, time, bytes, size);
    } catch (const std::exception& e) {
        return failed(e, err, err_size);
    }
}

__attribute__((visibility("default"))) int seiche_vdb_level_set(
    size_t vertices, const float* xyz, size_t triangles, const uint32_t* index, double voxel,
    double time, char** bytes, size_t* size, char* err, size_t err_size) {
    try {
        openvdb::initialize();
        const auto transform = openvdb::math::Transform::createLinearTransform(voxel);
        std::vector<openvdb::Vec3s> points(vertices);  // world space, as meshToLevelSet takes them
        for (size_t i = 0; i < vertices; ++i)
            points[i] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
        std::vector<openvdb::Vec3I> faces(triangles);
        for (size_t t = 0; t < triangles; ++t)
            faces[t] = {index[3 * t], index[3 * t + 1], index[3 * t + 2]};
        auto grid =
            openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*transform, points, faces, 3.0f);
        grid->setName("surface");
        return give({grid}, time, bytes, size);
    } catch (const std::exception& e) {
        return failed(e, err, err_size);
    }
}

__attribute__((visibility("default"))) void seiche_vdb_free(char* bytes) { std::free(bytes); }

}  // extern "C"
