// Shared by the tests that check how scene files are refused.
#pragma once

#include <string>

#include "seiche/io/scene_loader.hpp"

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

}  // namespace seiche::test
