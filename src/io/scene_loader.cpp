// Scene JSON: the parameter tables (seiche/parameters.hpp, scene_params()) mapped onto JSON.
// Unknown keys are refused with the closest valid key as a hint, so a typo never silently does
// nothing; types and ranges are checked as the values are read, the checks between keys by
// validate_scene, so a file and a hand-built definition are held to the same rules.
#include "seiche/io/scene_loader.hpp"

#include "seiche/io/mesh_reader.hpp"
#include "seiche/io/input_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace seiche::io {

using nlohmann::json;

namespace {

std::string type_name(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        default:
            return "a number";
    }
}

// A short preview of a value: at most ~40 characters, built without serialising the whole value
// (a value nested a hundred thousand levels deep must not overflow the stack here).
void preview(const json& j, std::string& out, std::size_t limit) {
    if (out.size() >= limit) return;
    if (j.is_array() || j.is_object()) {
        out += j.is_array() ? '[' : '{';
        bool first = true;
        for (auto it = j.begin(); it != j.end() && out.size() < limit; ++it) {
            if (!first) out += ", ";
            first = false;
            if (j.is_object()) out += "\"" + it.key() + "\": ";
            preview(it.value(), out, limit);
        }
        if (out.size() < limit) out += j.is_array() ? ']' : '}';
        return;
    }
    out += j.dump();
}

std::string shown(const json& j) {
    std::string s;
    preview(j, s, 41);
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return type_name(j) + " (" + s + ")";
}

// Scene documents are small; these bounds keep a hostile one from exhausting the stack or memory.
constexpr int max_depth = 64;
constexpr std::size_t max_bytes = 64u << 20;


std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string join_path(const std::string& base, std::string_view key) {
    return base.empty() ? std::string(key) : base + "." + std::string(key);
}

// The valid keys of every object of a table, by the object's path within it ("" = the table's
// own object, "solver.pbf", ...).
using KeyTree = std::map<std::string, std::set<std::string>>;

void add_key(KeyTree& tree, std::string_view key) {
    std::string prefix;
    for (const std::string& part : key_parts(key)) {
        tree[prefix].insert(part);
        prefix = join_path(prefix, part);
    }
}

template <class T>
void add_keys(KeyTree& tree, std::span<const Param<T>> table) {
    for (const auto& p : table) add_key(tree, p.key);
}

const KeyTree& scene_keys() {
    static const KeyTree tree = [] {
        KeyTree t;
        add_keys(t, world_params());
        add_keys(t, scene_params());
        add_key(t, fluid_list().key);
        add_key(t, obstacle_list().key);
        add_key(t, body_list().key);
        add_key(t, emitter_list().key);
        add_key(t, sink_list().key);
        add_key(t, sensor_list().key);
        return t;
    }();
    return tree;
}

template <class E>
const KeyTree& element_keys(std::span<const Param<E>> table) {
    static const KeyTree tree = [&] {
        KeyTree t;
        add_keys(t, table);
        return t;
    }();
    return tree;
}

// Refuses keys that no declaration names, with the nearest valid one as a hint.
void check_keys(const json& obj, const std::string& path, const std::string& prefix,
                const KeyTree& tree) {
    const auto valid = tree.find(prefix);
    if (!obj.is_object() || valid == tree.end()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string child = join_path(prefix, it.key());
        if (valid->second.count(it.key())) {
            if (tree.count(child)) check_keys(it.value(), join_path(path, it.key()), child, tree);
            continue;
        }
        std::string best;
        std::size_t best_d = 4;
        std::string list;
        for (const auto& k : valid->second) {
            const std::size_t d = edit_distance(it.key(), k);
            if (d < best_d) best_d = d, best = k;
            list += (list.empty() ? "" : ", ") + k;
        }
        throw SceneError(join_path(path, it.key()),
                         "unknown key" + (best.empty() ? "" : " (did you mean \"" + best + "\"?)") +
                             "; valid keys here: " + list);
    }
}

std::string components_text(int n, int dim, bool fixed) {
    return fixed ? fmt::format("an array of {} numbers", n)
                 : fmt::format("an array of {} numbers (the scene is {}D)", n, dim);
}

// A number of the file: the type is the loader's to check; the range is validate()'s.
double number_value(const json& v, const std::string& path, const Range& range) {
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw SceneError(path, "expected a number in " + range.text() + ", got " + shown(v));
    return v.get<double>();
}

// One value of the file, mapped to the declaration's type. Ranges are not checked here: the
// scene as a whole goes through validate_scene, the same checks a hand-built definition meets.
template <class T>
ParamValue read_value(const json& v, const std::string& path, const Param<T>& p, int dim) {
    switch (p.kind) {
        case ParamKind::number:
            return number_value(v, path, p.range);
        case ParamKind::integer: {
            // Beyond an int the value has no field to go to (the range check comes later).
            if ((!v.is_number_integer() &&
                 !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>())) ||
                !(std::abs(v.get<double>()) <= double(std::numeric_limits<int>::max())))
                throw SceneError(path,
                                 "expected an integer in " + p.range.text() + ", got " + shown(v));
            return v.get<double>();
        }
        case ParamKind::boolean:
            if (!v.is_boolean()) throw SceneError(path, "expected true or false, got " + shown(v));
            return v.get<bool>();
        case ParamKind::text:
            if (p.rows > 0 && v.is_array()) {
                // Inline rows: checked here, kept as their compact JSON text.
                if (v.empty())
                    throw SceneError(path, fmt::format("expected a file name or a list of rows of "
                                                       "{} numbers, got an empty list", p.rows));
                for (std::size_t j = 0; j < v.size(); ++j) {
                    const std::string at = fmt::format("{}[{}]", path, j);
                    if (!v[j].is_array() || v[j].size() != std::size_t(p.rows))
                        throw SceneError(at, fmt::format("expected a row of {} numbers, got {}",
                                                         p.rows, shown(v[j])));
                    for (std::size_t a = 0; a < v[j].size(); ++a)
                        number_value(v[j][a], fmt::format("{}[{}]", at, a), Range{});
                }
                return v.dump();
            }
            if (!v.is_string())
                throw SceneError(path, p.rows > 0
                                           ? fmt::format("expected a file name or a list of rows "
                                                         "of {} numbers, got {}",
                                                         p.rows, shown(v))
                                           : "expected a string, got " + shown(v));
            if (p.rows > 0 && inline_rows(v.get<std::string>()))
                throw SceneError(path, "a file name cannot start with '[' (give the rows as a "
                                       "JSON list, not a string)");
            return v.get<std::string>();
        case ParamKind::choice: {
            std::string list;
            for (const auto& c : p.choices) list += (list.empty() ? "\"" : ", \"") + std::string(c) + "\"";
            if (!v.is_string())
                throw SceneError(path, "expected one of " + list + ", got " + shown(v));
            const std::string name = v.get<std::string>();
            for (std::size_t k = 0; k < p.choices.size(); ++k)
                if (p.choices[k] == name) return double(k);
            throw SceneError(path, "expected one of " + list + ", got \"" + name + "\"");
        }
        case ParamKind::vector: {
            const int n = p.components > 0 ? p.components : dim;
            if (!v.is_array() || v.size() != std::size_t(n))
                throw SceneError(path, "expected " + components_text(n, dim, p.components > 0) +
                                           ", a vector" +
                                           (p.unit.empty() ? "" : " in " + std::string(p.unit)) +
                                           ", got " + shown(v));
            Vec3d out{0, 0, 0};
            for (int a = 0; a < n; ++a)
                out[a] = number_value(v[a], fmt::format("{}[{}]", path, a), p.range);
            return out;
        }
        case ParamKind::points: {
            const int n = p.components > 0 ? p.components : dim;
            if (!v.is_array())
                throw SceneError(path, "expected a list of points, each " +
                                           components_text(n, dim, p.components > 0) + ", got " + shown(v));
            std::vector<Vec3d> out;
            for (std::size_t j = 0; j < v.size(); ++j) {
                const std::string at = fmt::format("{}[{}]", path, j);
                if (!v[j].is_array() || v[j].size() != std::size_t(n))
                    throw SceneError(at, "expected " + components_text(n, dim, p.components > 0) +
                                             ", got " + shown(v[j]));
                Vec3d q{0, 0, 0};
                for (int a = 0; a < n; ++a) q[a] = number_value(v[j][a], fmt::format("{}[{}]", at, a), p.range);
                out.push_back(q);
            }
            return out;
        }
    }
    return 0.0;
}

std::string expectation(ParamKind kind, int n, int dim, bool fixed, std::string_view unit) {
    const std::string u = unit.empty() ? "" : ", " + std::string(unit);
    switch (kind) {
        case ParamKind::vector:
            return components_text(n, dim, fixed) + u;
        case ParamKind::points:
            return "a list of points, each " + components_text(n, dim, fixed) + u;
        case ParamKind::boolean:
            return "true or false";
        case ParamKind::text:
            return "a string";
        default:
            return "a number" + u;
    }
}

// Reads every key of a table from the object `obj` (at `path` in the file) into `out`.
template <class T>
void read_table(const json& obj, const std::string& path, std::span<const Param<T>> table, T& out,
                int dim) {
    for (const auto& p : table) {
        const std::vector<std::string> parts = key_parts(p.key);
        const json* node = &obj;
        std::string where = path, rel;
        bool absent = false;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            const std::string child = join_path(where, parts[k]);
            rel = join_path(rel, parts[k]);
            if (!node->is_object()) throw SceneError(where, "expected an object, got " + shown(*node));
            if (!node->contains(parts[k])) {
                // A required key is missing where its object is given, or where the object itself
                // must be given (keys of optional groups, which have `written`, only inside it).
                const bool parent_given = k + 1 == parts.size();
                if (p.required && (parent_given || !p.written)) {
                    if (parent_given) {
                        const int n = p.components > 0 ? p.components : dim;
                        throw SceneError(child,
                                         "missing; expected " + expectation(p.kind, n, dim, p.components > 0, p.unit));
                    }
                    std::string keys;
                    for (const auto& q : table) {
                        const std::string qk(q.key);
                        if (q.required && qk.rfind(rel + ".", 0) == 0)
                            keys += (keys.empty() ? "\"" : " and \"") + qk.substr(rel.size() + 1) + "\"";
                    }
                    throw SceneError(child, "missing; expected an object with " + keys);
                }
                absent = true;
                break;
            }
            node = &(*node)[parts[k]];
            where = child;
        }
        if (!absent) p.set(out, read_value(*node, where, p, dim));
    }
}

template <class T, class E>
void read_list(const json& doc, const ParamList<T, E>& list, T& out, int dim) {
    const std::string key(list.key);
    const std::string expected = list.min_count > 0 ? "a non-empty array of " : "an array of ";
    if (!doc.contains(key)) {
        if (list.min_count > 0)
            throw SceneError(key, "missing; expected an array of " + std::string(list.noun));
        return;
    }
    const json& arr = doc.at(key);
    if (!arr.is_array() || arr.size() < list.min_count)
        throw SceneError(key, "expected " + expected + std::string(list.noun) + ", got " + shown(arr));
    std::vector<E>& items = list.items(out);
    items.clear();
    for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string path = fmt::format("{}[{}]", key, i);
        if (!arr[i].is_object()) throw SceneError(path, "expected an object, got " + shown(arr[i]));
        check_keys(arr[i], path, "", element_keys(list.params()));
        E e{};
        read_table(arr[i], path, list.params(), e, dim);
        items.push_back(e);
    }
}

// Writes one value at its dotted key.
template <class T>
void write_table(json& obj, std::span<const Param<T>> table, const T& in, int dim) {
    for (const auto& p : table) {
        if (p.written && !p.written(in)) continue;
        json* node = &obj;
        for (const std::string& part : key_parts(p.key)) node = &(*node)[part];
        const ParamValue v = p.get(in);
        switch (p.kind) {
            case ParamKind::number:
                *node = std::get<double>(v);
                break;
            case ParamKind::integer:
                *node = static_cast<long long>(std::get<double>(v));
                break;
            case ParamKind::boolean:
                *node = std::get<bool>(v);
                break;
            case ParamKind::text:
                if (p.rows > 0 && inline_rows(std::get<std::string>(v)))
                    *node = json::parse(std::get<std::string>(v));
                else
                    *node = std::get<std::string>(v);
                break;
            case ParamKind::choice:
                *node = std::string(p.choices.at(std::size_t(std::get<double>(v))));
                break;
            case ParamKind::vector: {
                const int n = p.components > 0 ? p.components : dim;
                *node = json::array();
                for (int a = 0; a < n; ++a) node->push_back(std::get<Vec3d>(v)[a]);
                break;
            }
            case ParamKind::points: {
                const int n = p.components > 0 ? p.components : dim;
                *node = json::array();
                for (const Vec3d& q : std::get<std::vector<Vec3d>>(v)) {
                    json point = json::array();
                    for (int a = 0; a < n; ++a) point.push_back(q[a]);
                    node->push_back(point);
                }
                break;
            }
        }
    }
}

}  // namespace

json parse_json(const std::string& text, const std::string& path, const std::string& what) {
    const json::parser_callback_t depth_guard = [&](int depth, json::parse_event_t, json&) {
        if (depth > max_depth)
            throw SceneError(path, what + " is nested more than " + std::to_string(max_depth) +
                                       " levels deep");
        return true;
    };
    try {
        return json::parse(text, depth_guard);
    } catch (const json::exception& e) {
        std::string m = e.what();
        if (m.size() > 200) m = m.substr(0, 197) + "...";
        throw SceneError(path, what + " is not valid JSON: " + m);
    }
}

Scene parse_scene(const json& doc, const std::string& name, const std::filesystem::path& mesh_base) {
    if (!doc.is_object()) throw SceneError("(top level)", "expected an object, got " + shown(doc));
    check_keys(doc, "", "", scene_keys());
    Scene s;
    s.name = name;
    // The dimension first: it sets the length of every vector, so it is checked at once.
    read_table(doc, "", world_params().subspan(0, 1), static_cast<WorldDef&>(s), 3);
    if (const std::string m = check_value(world_params()[0], static_cast<const WorldDef&>(s), 3);
        !m.empty())
        throw SceneError(std::string(world_params()[0].key), m);
    read_table(doc, "", world_params().subspan(1), static_cast<WorldDef&>(s), s.dimension);
    read_list(doc, fluid_list(), static_cast<WorldDef&>(s), s.dimension);
    read_list(doc, obstacle_list(), static_cast<WorldDef&>(s), s.dimension);
    read_list(doc, body_list(), static_cast<WorldDef&>(s), s.dimension);
    read_list(doc, emitter_list(), static_cast<WorldDef&>(s), s.dimension);
    read_list(doc, sink_list(), static_cast<WorldDef&>(s), s.dimension);
    read_list(doc, sensor_list(), s, s.dimension);
    read_table(doc, "", scene_params(), s, s.dimension);
    // An optional group is on when its object is in the file.
    if (doc.contains("render") && doc["render"].is_object() && doc["render"].contains("camera"))
        s.render.camera_auto = false;
    // "Automatic" defaults that depend on other keys are resolved here, so scene.json shows them.
    if (s.solver.xsph < 0) s.solver.xsph = default_xsph(s.solver.type);
    if (s.output.directory.empty()) s.output.directory = "out/" + s.name;

    read_body_meshes(s, mesh_base.empty() ? std::filesystem::current_path() : mesh_base);
    if (const std::vector<Problem> problems = validate_scene(s); !problems.empty())
        throw SceneError(problems.front().path, problems.front().message);
    return s;
}

namespace {

// Splits "a.b[2].c" into steps: keys and indices.
struct PathStep {
    std::string key;
    long index = -1;
};

std::vector<PathStep> split_path(const std::string& path) {
    std::vector<PathStep> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        std::size_t j = i;
        while (j < path.size() && path[j] != '.' && path[j] != '[') ++j;
        if (j == i) throw SceneError(path, "malformed key in --set (expected a.b.c or a[0].b)");
        steps.push_back({path.substr(i, j - i)});
        while (j < path.size() && path[j] == '[') {
            const std::size_t close = path.find(']', j);
            if (close == std::string::npos) throw SceneError(path, "missing ']' in --set key");
            try {
                steps.push_back({"", std::stol(path.substr(j + 1, close - j - 1))});
            } catch (const std::exception&) {
                throw SceneError(path, "array index in --set key must be a number");
            }
            j = close + 1;
        }
        if (j < path.size() && path[j] == '.') ++j;
        i = j;
    }
    if (steps.empty()) throw SceneError(path, "empty key in --set");
    return steps;
}

// The offset of the first byte that is not well-formed UTF-8, or npos (JSON text is UTF-8; the
// resolved scene could not be written back otherwise).
std::size_t bad_utf8_at(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return i;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return i;
        // Overlong forms, surrogates and code points above U+10FFFF.
        const auto c1 = static_cast<unsigned char>(n > 1 ? s[i + 1] : 0);
        if ((n == 2 && c < 0xc2) || (n == 3 && c == 0xe0 && c1 < 0xa0) ||
            (n == 3 && c == 0xed && c1 >= 0xa0) || (n == 4 && c == 0xf0 && c1 < 0x90) ||
            (n == 4 && (c > 0xf4 || (c == 0xf4 && c1 >= 0x90))))
            return i;
        i += n;
    }
    return std::string_view::npos;
}

}  // namespace

ParamValue world_value(std::string_view key, const json& value, int dimension) {
    for (const auto& p : world_params())
        if (p.key == key) return read_value(value, std::string(key), p, dimension);
    throw SceneError(std::string(key), "no such key (see docs/scene-format.md)");
}

void apply_override(json& doc, const std::string& assignment) {
    if (const std::size_t at = bad_utf8_at(assignment); at != std::string_view::npos)
        throw SceneError("", "--set: the text is not valid UTF-8 (byte " + std::to_string(at + 1) +
                                 ", after \"" + assignment.substr(at > 40 ? at - 40 : 0, std::min<std::size_t>(at, 40)) + "\")");
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw SceneError("", "--set expects key=value, got \"" + assignment + "\"");
    const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
    json value;
    try {
        value = parse_json(text, key, "the --set value");
    } catch (const SceneError& e) {
        // A bare word is a string; a value that looks like JSON but is too deep is refused.
        if (std::string(e.what()).find("nested more than") != std::string::npos) throw;
        value = text;
    }

    json* node = &doc;
    std::string where;
    for (const PathStep& st : split_path(key)) {
        if (st.index >= 0) {
            where += "[" + std::to_string(st.index) + "]";
            if (!node->is_array() || std::size_t(st.index) >= node->size())
                throw SceneError(where, "--set: no such array element");
            node = &(*node)[std::size_t(st.index)];
        } else {
            where += (where.empty() ? "" : ".") + st.key;
            if (node->is_null()) *node = json::object();
            if (!node->is_object()) throw SceneError(where, "--set: the parent is not an object");
            node = &(*node)[st.key];
        }
    }
    *node = value;
}

Scene load_scene(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw SceneError("", file.string() +
                                 " is a directory; expected a scene file (a run directory holds "
                                 "its scene as scene.json)");
    // A FIFO's open waits for a writer; a device is read with the bound below.
    if (const std::string kind = special_file_kind(file); kind == "a FIFO" || kind == "a socket")
        throw SceneError("", file.string() + " is " + kind + "; expected a scene file");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw SceneError("", "cannot read scene file " + file.string());
    // Read at most max_bytes + 1: /dev/zero or a huge file is refused, not read for ever.
    std::string text(max_bytes + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    if (text.size() > max_bytes)
        throw SceneError("", file.string() + " is larger than " +
                                 std::to_string(max_bytes >> 20) + " MiB; not a scene file");
    return load_scene_text(text, file.stem().string(), overrides, file.string(),
                           file.parent_path());
}

namespace {

// time,x,y,z,rx,ry,rz per line; a first line that is not numbers is a header; # comments.
std::vector<Keyframe> read_keyframes(const std::filesystem::path& file) {
    std::ifstream in = open_input(file, "the keyframe file", 64 * MiB);
    if (!in) throw std::runtime_error(file.string() + ": cannot read the keyframe file");
    std::vector<Keyframe> out;
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::vector<double> v;
        std::size_t start = 0;
        bool numbers = true;
        while (start <= line.size()) {
            const std::size_t comma = line.find(',', start);
            const std::string cell = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            char* end = nullptr;
            const double d = std::strtod(cell.c_str(), &end);
            // The whole cell, spaces aside: "1.5 2" or "1.5abc" is not the number 1.5.
            while (*end == ' ' || *end == '\t' || *end == '\r') ++end;
            numbers = numbers && end != cell.c_str() && *end == '\0';
            v.push_back(d);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        if (!numbers && out.empty() && number == 1) continue;  // the header
        if (!numbers || v.size() != 7)
            throw std::runtime_error(file.string() + ": line " + std::to_string(number) +
                                     ": expected 7 numbers, time,x,y,z,rx,ry,rz");
        out.push_back({v[0], {v[1], v[2], v[3]}, {v[4], v[5], v[6]}});
    }
    return out;
}

// Relative to the scene file; kept absolute, so the run's scene.json still finds it.
std::filesystem::path beside(const std::filesystem::path& base, std::string& file) {
    std::filesystem::path f(file);
    if (f.is_relative()) f = std::filesystem::absolute(base / f).lexically_normal();
    file = f.string();
    return f;
}

}  // namespace

void read_body_meshes(Scene& s, const std::filesystem::path& base) {
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        BodyDef& b = s.bodies[i];
        const std::string path = "bodies[" + std::to_string(i) + "]";
        if (b.shape == BodyShape::mesh && !b.mesh_file.empty()) {
            const std::filesystem::path f = beside(base, b.mesh_file);
            try {
                b.mesh = std::make_shared<const MeshData>(read_mesh(f));
            } catch (const std::exception& e) {
                throw SceneError(path + ".mesh", e.what());
            }
        }
        if (inline_rows(b.keyframe_file)) {
            // Written in the scene: rows of 7 finite numbers, checked when read.
            std::vector<Keyframe> keys;
            for (const json& r : json::parse(b.keyframe_file)) {
                const auto v = r.get<std::vector<double>>();
                keys.push_back({v[0], {v[1], v[2], v[3]}, {v[4], v[5], v[6]}});
            }
            b.keyframes = std::make_shared<const std::vector<Keyframe>>(std::move(keys));
        } else if (!b.keyframe_file.empty()) {
            const std::filesystem::path f = beside(base, b.keyframe_file);
            try {
                b.keyframes = std::make_shared<const std::vector<Keyframe>>(read_keyframes(f));
            } catch (const std::exception& e) {
                throw SceneError(path + ".keyframes", e.what());
            }
        }
    }
}

Scene load_scene_text(const std::string& text, const std::string& name,
                      const std::vector<std::string>& overrides, const std::string& source,
                      const std::filesystem::path& mesh_base) {
    if (text.size() > max_bytes)
        throw SceneError("", source + " is larger than " + std::to_string(max_bytes >> 20) +
                                 " MiB; not a scene file");
    json doc = parse_json(text, "", source);
    if (!doc.is_object())
        throw SceneError("", "a scene is a JSON object ({ ... }), got " + shown(doc));
    for (const auto& o : overrides) apply_override(doc, o);
    if (bad_utf8_at(name) != std::string_view::npos && !doc.contains("name"))
        throw SceneError("name", "the file name is not valid UTF-8, so it cannot be the scene's "
                                 "name; give \"name\" in the scene");
    return parse_scene(doc, name, mesh_base);
}

json scene_to_json(const Scene& s) {
    json j = json::object();
    write_table(j, world_params(), static_cast<const WorldDef&>(s), s.dimension);
    auto write_list = [&](const auto& list) {
        const auto& items = list.citems(s);
        if (items.empty() && list.min_count == 0) return;
        json& arr = j[std::string(list.key)] = json::array();
        for (const auto& e : items) {
            json o = json::object();
            write_table(o, list.params(), e, s.dimension);
            arr.push_back(o);
        }
    };
    write_list(fluid_list());
    write_list(obstacle_list());
    write_list(body_list());
    write_list(emitter_list());
    write_list(sink_list());
    write_list(sensor_list());
    write_table(j, scene_params(), s, s.dimension);
    return j;
}

}  // namespace seiche::io
