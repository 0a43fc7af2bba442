// The JSON Schema of scene files and the parameter tables of docs/scene-format.md, both made from
// the parameter tables, so neither can drift from what the loader accepts.
#include "seiche/io/scene_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "seiche/scene.hpp"

namespace seiche::io {

using nlohmann::json;

namespace {

std::string number_text(double v) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{}", v);
}

void add_range(json& s, const Range& r) {
    if (std::isfinite(r.lo)) s[r.lo_open ? "exclusiveMinimum" : "minimum"] = r.lo;
    if (std::isfinite(r.hi)) s[r.hi_open ? "exclusiveMaximum" : "maximum"] = r.hi;
}

template <class T>
std::string default_text(const Param<T>& p, int dim) {
    if (!p.default_note.empty()) return std::string(p.default_note);
    if (p.required) return "required";
    const ParamValue v = p.get(T{});
    switch (p.kind) {
        case ParamKind::number:
        case ParamKind::integer:
            return number_text(std::get<double>(v));
        case ParamKind::boolean:
            return std::get<bool>(v) ? "true" : "false";
        case ParamKind::text:
            return "\"" + std::get<std::string>(v) + "\"";
        case ParamKind::choice:
            return "\"" + std::string(p.choices[std::size_t(std::get<double>(v))]) + "\"";
        case ParamKind::vector: {
            const Vec3d a = std::get<Vec3d>(v);
            const int n = p.components > 0 ? p.components : dim;
            std::string s = "[";
            for (int k = 0; k < n; ++k) s += (k ? ", " : "") + number_text(a[k]);
            return s + "]";
        }
        case ParamKind::points:
            return std::get<std::vector<Vec3d>>(v).empty() ? "[]" : "(given)";
    }
    return "";
}

template <class T>
json property_schema(const Param<T>& p) {
    json s;
    std::string text(p.meaning);
    if (!p.unit.empty()) text += " [" + std::string(p.unit) + "]";
    text += "; default: " + default_text(p, 3);
    s["description"] = text;
    switch (p.kind) {
        case ParamKind::number:
            if (std::isfinite(p.automatic)) {  // the "automatic" value, or one in the range
                json in_range{{"type", "number"}};
                add_range(in_range, p.range);
                s["anyOf"] = json::array({json{{"const", p.automatic}}, in_range});
            } else {
                s["type"] = "number";
                add_range(s, p.range);
            }
            break;
        case ParamKind::integer:
            s["type"] = "integer";
            add_range(s, p.range);
            break;
        case ParamKind::boolean:
            s["type"] = "boolean";
            break;
        case ParamKind::text:
            if (p.rows > 0) {
                json row{{"type", "array"}, {"items", {{"type", "number"}}}};
                row["minItems"] = row["maxItems"] = p.rows;
                s["oneOf"] = json::array({json{{"type", "string"}},
                                          json{{"type", "array"}, {"minItems", 1}, {"items", row}}});
            } else {
                s["type"] = "string";
            }
            break;
        case ParamKind::choice:
            s["type"] = "string";
            s["enum"] = json::array();
            for (const auto& c : p.choices) s["enum"].push_back(std::string(c));
            break;
        case ParamKind::vector: {
            s["type"] = "array";
            json item{{"type", "number"}};
            add_range(item, p.range);
            s["items"] = item;
            s["minItems"] = p.components > 0 ? p.components : 2;
            s["maxItems"] = p.components > 0 ? p.components : 3;
            break;
        }
        case ParamKind::points: {
            json point{{"type", "array"}};
            json item{{"type", "number"}};
            add_range(item, p.range);
            point["items"] = item;
            point["minItems"] = p.components > 0 ? p.components : 2;
            point["maxItems"] = p.components > 0 ? p.components : 3;
            s["type"] = "array";
            s["items"] = point;
            break;
        }
    }
    return s;
}

json object_schema() {
    return json{{"type", "object"}, {"additionalProperties", false}, {"properties", json::object()}};
}

// Puts every key of a table into `root` (an object schema), creating the nested objects.
template <class T>
void add_table(json& root, std::span<const Param<T>> table) {
    for (const auto& p : table) {
        const std::vector<std::string> parts = key_parts(p.key);
        json* node = &root;
        for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
            json& props = (*node)["properties"];
            if (!props.contains(parts[k])) props[parts[k]] = object_schema();
            node = &props[parts[k]];
            // An object is required when a required key below it has no optional group.
            if (p.required && !p.written && k == 0) {
                json& req = root["required"];
                if (std::find(req.begin(), req.end(), parts[k]) == req.end()) req.push_back(parts[k]);
            }
        }
        (*node)["properties"][parts.back()] = property_schema(p);
        if (p.required) {
            json& req = (*node)["required"];
            if (std::find(req.begin(), req.end(), parts.back()) == req.end())
                req.push_back(parts.back());
        }
    }
}

template <class T, class E>
void add_list(json& root, const ParamList<T, E>& list) {
    json item = object_schema();
    add_table(item, list.params());
    json s{{"type", "array"},
           {"description", std::string(list.meaning)},
           {"items", item},
           {"minItems", list.min_count}};
    root["properties"][std::string(list.key)] = s;
    if (list.min_count > 0) root["required"].push_back(std::string(list.key));
}

// ---- markdown ----

std::string kind_text(ParamKind k) {
    switch (k) {
        case ParamKind::number:
            return "number";
        case ParamKind::integer:
            return "integer";
        case ParamKind::boolean:
            return "boolean";
        case ParamKind::choice:
            return "string";
        case ParamKind::vector:
            return "vector";
        case ParamKind::points:
            return "list of vectors";
        case ParamKind::text:
            return "string";
    }
    return "";
}

std::string escape(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

template <class T>
std::string range_text(const Param<T>& p) {
    switch (p.kind) {
        case ParamKind::number:
        case ParamKind::integer:
            return p.range.text();
        case ParamKind::vector:
            return (p.components > 0 ? std::to_string(p.components) + " numbers, each in "
                                     : std::string("each in ")) +
                   p.range.text();
        case ParamKind::points:
            return "each component in " + p.range.text();
        case ParamKind::choice: {
            std::string s;
            for (const auto& c : p.choices) s += (s.empty() ? "`\"" : ", `\"") + std::string(c) + "\"`";
            return s;
        }
        default:
            return "";
    }
}

// Rows grouped by the object the key is in ("" = top level).
template <class T>
void add_rows(std::map<std::string, std::string>& sections, std::vector<std::string>& order,
              std::span<const Param<T>> table, const std::string& base) {
    for (const auto& p : table) {
        const std::string key(p.key);
        const std::size_t dot = key.rfind('.');
        const std::string object = base.empty() ? (dot == std::string::npos ? "" : key.substr(0, dot))
                                                : base;
        const std::string leaf = dot == std::string::npos || !base.empty() ? key : key.substr(dot + 1);
        if (!sections.count(object)) order.push_back(object);
        std::string unit = p.unit.empty() ? "" : ", " + std::string(p.unit);
        const bool literal = p.default_note.empty() && !p.required;
        const std::string def = escape(default_text(p, 3));
        sections[object] += fmt::format("| `{}` | {}{} | {} | {} | {} |\n", leaf,
                                        p.rows > 0 ? fmt::format("string or list of rows of {}", p.rows)
                                                   : kind_text(p.kind),
                                        unit, literal ? "`" + def + "`" : def,
                                        escape(range_text(p)), escape(std::string(p.meaning)));
    }
}

}  // namespace

json scene_schema() {
    json root = object_schema();
    root["$schema"] = "http://json-schema.org/draft-07/schema#";
    root["title"] = "seiche scene";
    root["description"] =
        "A seiche scene file (docs/scene-format.md). Vectors have 2 components in 2D scenes and 3 "
        "in 3D; SI units throughout.";
    root["required"] = json::array();
    add_table(root, world_params());
    add_list(root, fluid_list());
    add_list(root, obstacle_list());
    add_list(root, body_list());
    add_list(root, emitter_list());
    add_list(root, sink_list());
    add_list(root, sensor_list());
    add_table(root, scene_params());
    return root;
}

std::string parameter_tables_markdown() {
    std::map<std::string, std::string> sections;
    std::vector<std::string> order;
    add_rows(sections, order, world_params(), "");
    add_rows(sections, order, fluid_block_params(), "fluid[i]");
    add_rows(sections, order, obstacle_params(), "obstacles[i]");
    add_rows(sections, order, body_params(), "bodies[i]");
    add_rows(sections, order, emitter_params(), "emitters[i]");
    add_rows(sections, order, sink_params(), "sinks[i]");
    add_rows(sections, order, sensor_params(), "sensors[i]");
    add_rows(sections, order, scene_params(), "");
    std::string out;
    for (const std::string& object : order) {
        out += object.empty() ? "### Top level\n\n" : "### `" + object + "`\n\n";
        out += "| key | type | default | range | meaning |\n| --- | --- | --- | --- | --- |\n";
        if (object.empty()) {
            out += fmt::format("| `fluid` | array of objects | required | at least {} | {} |\n",
                               fluid_list().min_count, escape(std::string(fluid_list().meaning)));
            out += fmt::format("| `obstacles` | array of objects | `[]` | | {} |\n",
                               escape(std::string(obstacle_list().meaning)));
            out += fmt::format("| `bodies` | array of objects | `[]` | | {} |\n",
                               escape(std::string(body_list().meaning)));
            out += fmt::format("| `emitters` | array of objects | `[]` | | {} |\n",
                               escape(std::string(emitter_list().meaning)));
            out += fmt::format("| `sinks` | array of objects | `[]` | | {} |\n",
                               escape(std::string(sink_list().meaning)));
            out += fmt::format("| `sensors` | array of objects | `[]` | | {} |\n",
                               escape(std::string(sensor_list().meaning)));
        }
        out += sections[object] + "\n";
    }
    return out;
}

}  // namespace seiche::io
