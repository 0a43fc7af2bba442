// The scene of a command: the file with the command line's overrides, or the error on stderr.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "commands.hpp"
#include "seiche/io/scene_loader.hpp"

namespace seiche::app {

std::optional<Scene> load_scene_or_report(const std::string& file,
                                          std::vector<std::string> overrides,
                                          const std::string& solver, double end_time) {
    if (!solver.empty()) overrides.push_back("solver.type=\"" + solver + "\"");
    if (end_time > 0) overrides.push_back(fmt::format("time.end_time={}", end_time));
    try {
        return io::load_scene(file, overrides);
    } catch (const io::SceneError& e) {
        std::fprintf(stderr, "seiche: %s: %s\n", file.c_str(), e.what());
        return std::nullopt;
    }
}

std::optional<Scene> scene_of_frame(const std::filesystem::path& frame, const std::string& scene,
                                    const std::vector<std::string>& overrides,
                                    const char* command) {
    const std::filesystem::path file =
        scene.empty() ? frame.parent_path().parent_path() / "scene.json" : std::filesystem::path(scene);
    if (!std::filesystem::exists(file)) {
        std::fprintf(stderr, "seiche %s: no scene for %s (looked for %s); pass --scene FILE\n",
                     command, frame.c_str(), file.c_str());
        return std::nullopt;
    }
    return load_scene_or_report(file.string(), overrides, "", 0.0);
}

}  // namespace seiche::app
