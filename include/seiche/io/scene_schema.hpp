// What the parameter tables say, for editors and readers: a JSON Schema of scene files (`seiche
// schema`, docs/scene.schema.json) and the parameter tables of docs/scene-format.md (`seiche
// schema --markdown`). A test keeps the committed copies equal to these.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace seiche::io {

nlohmann::json scene_schema();

std::string parameter_tables_markdown();

}  // namespace seiche::io
