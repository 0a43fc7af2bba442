#include "body_frames.hpp"
#include "seiche/io/input_file.hpp"

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "seiche/bodies.hpp"

namespace seiche::run {

template <int D>
BodyPose body_pose(const BoundaryObject<D>& o) {
    BodyPose p;
    p.name = o.name;
    for (int a = 0; a < D; ++a) p.position[a] = o.position[a];
    if constexpr (D == 3) {
        const glm::quat r = glm::quat_cast(o.rotation);
        p.quaternion = {r.w, r.x, r.y, r.z};
    } else {
        const float angle = std::atan2(o.rotation[0][1], o.rotation[0][0]);
        p.quaternion = {std::cos(0.5f * angle), 0, 0, std::sin(0.5f * angle)};
    }
    return p;
}
template BodyPose body_pose(const BoundaryObject<2>&);
template BodyPose body_pose(const BoundaryObject<3>&);

std::map<double, std::vector<BodyPose>> read_body_poses(const std::filesystem::path& csv) {
    std::map<double, std::vector<BodyPose>> out;
    std::ifstream in = io::open_input(csv, "the run's bodies.csv", 1024 * io::MiB);
    std::string line;
    if (!std::getline(in, line)) return out;  // the header
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream s(line);
        std::string cell;
        while (std::getline(s, cell, ',')) cells.push_back(cell);
        if (cells.size() < 9) continue;
        BodyPose p;
        p.name = cells[1];
        for (int a = 0; a < 3; ++a) p.position[a] = std::strtof(cells[2 + a].c_str(), nullptr);
        for (int a = 0; a < 4; ++a) p.quaternion[a] = std::strtof(cells[5 + a].c_str(), nullptr);
        out[std::strtod(cells[0].c_str(), nullptr)].push_back(p);
    }
    return out;
}

template <int D>
void append_body_outlines(const Scene& scene, const std::vector<BodyPose>& poses,
                          std::vector<float>& edges) {
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        BoundaryObject<D> o = body_object<D>(scene.bodies[i], i);
        for (const BodyPose& p : poses) {
            if (p.name != o.name) continue;
            Vec<D> x;
            for (int a = 0; a < D; ++a) x[a] = p.position[a];
            Mat<D> r;
            const auto& q = p.quaternion;
            if constexpr (D == 3)
                r = glm::mat3_cast(glm::quat(q[0], q[1], q[2], q[3]));
            else
                r = rotation_from_euler<2>({0, 0, 2.0 * std::atan2(double(q[3]), double(q[0]))});
            o.set_pose(x, r);
            append_outline<D>(o, edges);
        }
    }
}

template void append_body_outlines<2>(const Scene&, const std::vector<BodyPose>&, std::vector<float>&);
template void append_body_outlines<3>(const Scene&, const std::vector<BodyPose>&, std::vector<float>&);

}  // namespace seiche::run
