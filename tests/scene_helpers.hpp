// Shared by the tests: how scene files are refused, and scenes several test files run.
#pragma once

#include <string>

#include "seiche/io/scene_loader.hpp"
#include "seiche/scene.hpp"

namespace seiche::test {

// The error message of loading the source tree's scene FILE with one --set override, or
// "accepted" when it loads.
inline std::string scene_error(const std::string& file, const std::string& assignment) {
    try {
        io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/" + file, {assignment});
    } catch (const io::SceneError& e) {
        return e.what();
    }
    return "accepted";
}

// The 2D dam break of the tests: a column 0.4 m wide and 0.6 m high in a tank 1.6 m × 0.8 m.
inline Scene dam_break_2d(double r, SolverType type = SolverType::pbf) {
    Scene s;
    s.dimension = 2;
    s.particle_radius = r;
    s.container_min = {0, 0, 0};
    s.container_max = {1.6, 0.8, 0};
    s.fluid.push_back({{0, 0, 0}, {0.4, 0.6, 0}, {0, 0, 0}});
    s.solver.type = type;
    return s;
}

}  // namespace seiche::test
