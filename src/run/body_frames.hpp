// The bodies of a run's frames: their poses as bodies.csv stores them, and the outlines pictures
// draw from those poses — the same for `run --render` and a later `seiche render`.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "seiche/boundary_object.hpp"
#include "seiche/scene.hpp"

namespace seiche::run {

struct BodyPose {
    std::string name;
    std::array<float, 3> position{};
    std::array<float, 4> quaternion{1, 0, 0, 0};  //!< w x y z
};

// An object's pose as bodies.csv stores it: the rotation as a unit quaternion (2D: about z).
template <int D>
BodyPose body_pose(const BoundaryObject<D>& o);

// bodies.csv's poses by frame time (empty when the file is missing).
std::map<double, std::vector<BodyPose>> read_body_poses(const std::filesystem::path& csv);

// The outlines of the scene's bodies at these poses, appended as x y z x y z per line.
template <int D>
void append_body_outlines(const Scene& scene, const std::vector<BodyPose>& poses,
                          std::vector<float>& edges);

}  // namespace seiche::run
