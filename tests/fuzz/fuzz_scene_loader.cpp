// libFuzzer target: scene text in. Every input is either refused with a SceneError or gives a
// scene whose resolved form (scene.json) loads back to the same resolved form.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "seiche/io/scene_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    seiche::Scene scene;
    try {
        scene = seiche::io::load_scene_text(text, "fuzz");
    } catch (const seiche::io::SceneError&) {
        return 0;
    }
    const std::string resolved = seiche::io::scene_to_json(scene).dump();
    try {
        const seiche::Scene again = seiche::io::load_scene_text(resolved, "fuzz");
        if (seiche::io::scene_to_json(again).dump() != resolved) std::abort();
    } catch (const seiche::io::SceneError&) {
        std::abort();  // a scene that loaded must load again from its own scene.json
    }
    return 0;
}
