// Scene files: JSON in, a validated Scene out. Every error names the JSON path and what was
// expected. The format is documented in docs/scene-format.md.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "seiche/scene.hpp"

namespace seiche::io {

// A scene that cannot be used: path is the JSON path ("solver.pbf.max_iterations", "fluid[1].min").
class SceneError : public std::runtime_error {
  public:
    SceneError(std::string path, const std::string& message)
        : std::runtime_error(path.empty() ? message : path + ": " + message),
          path_(std::move(path)) {}
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

// Reads, applies "key=value" overrides (dotted paths, values in JSON syntax or bare strings),
// and validates. The scene name defaults to the file's stem.
Scene load_scene(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

// The same from a scene's text; `name` is the default scene name, `source` names the text in
// messages; mesh files of bodies are found relative to mesh_base (empty: the current directory).
Scene load_scene_text(const std::string& text, const std::string& name,
                      const std::vector<std::string>& overrides = {},
                      const std::string& source = "the scene",
                      const std::filesystem::path& mesh_base = {});
// Reads every mesh body's file, relative to `base`, into BodyDef::mesh, and makes its path
// absolute (so the run's scene.json still finds it). Throws SceneError at "bodies[i].mesh" for a
// missing or unreadable file.
void read_body_meshes(Scene& s, const std::filesystem::path& base);

// Reads the bodies' meshes (relative to mesh_base, empty: the current directory) and validates.
Scene parse_scene(const nlohmann::json& doc, const std::string& name,
                  const std::filesystem::path& mesh_base = {});

// The value of a world key (World::set) from JSON, read as a scene file gives that key: its type
// and components by its declaration (dimension: the world's), a choice by its name. Throws
// SceneError naming the key, also for a key that does not exist. The front ends' live changes
// (the viewer's scripts, Python) go through this.
ParamValue world_value(std::string_view key, const nlohmann::json& value, int dimension);

// JSON text as the loader reads a scene: nested at most 64 levels deep (deeper documents
// exhausted the stack), numbers that fit a double. Throws SceneError at `path` naming `what`
// ("the scene", "--script FILE") and what was wrong. The viewer's scripts are read through it.
nlohmann::json parse_json(const std::string& text, const std::string& path, const std::string& what);

// Sets one "a.b[2].c=value" override in a document.
void apply_override(nlohmann::json& doc, const std::string& assignment);

// The resolved scene, every default filled in; parse_scene(scene_to_json(s)) == s.
nlohmann::json scene_to_json(const Scene& scene);

}  // namespace seiche::io
