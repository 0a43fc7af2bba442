// The parameter table: every scene key declared once — its path, the field it sets, unit,
// default (the field's initialiser), valid range or choices, and one line of meaning. The scene
// loader, the resolved scene.json, validate(), --set, the JSON Schema and the parameter tables of
// docs/scene-format.md are all driven by these declarations; nothing else writes a range.
#pragma once

#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "seiche/world_def.hpp"

namespace seiche {

inline constexpr double unbounded = std::numeric_limits<double>::infinity();

struct Range {
    double lo = -unbounded, hi = unbounded;
    bool lo_open = false, hi_open = false;

    bool contains(double v) const;
    std::string text() const;  // "[1, 1000]", "(0, 10]", "[0, inf)"
};

// points: a list of vectors (a polygon's corners), each checked like a vector.
enum class ParamKind { number, integer, boolean, choice, vector, text, points };

// Whether a running world may change a key (World::set), and whether the change restarts the
// solver on the current particles (its constants derive from the key). The others shape the
// particles or the boundary: they need a new World.
enum class Live { no, yes, restarts_solver };

// A value as the table reads and writes it: integers travel as double.
using ParamValue = std::variant<bool, double, std::string, Vec3d, std::vector<Vec3d>>;

// One key of an object of type T (WorldDef, FluidBlock, the front end's Scene, ...).
template <class T>
struct Param {
    std::string_view key;      //!< dotted path relative to T: "solver.pbf.max_iterations"
    ParamKind kind;
    std::string_view unit;     //!< SI unit, "" when dimensionless
    Range range;               //!< numbers, integers, every component of a vector
    std::vector<std::string_view> choices;  //!< choice: the names, in the enum's order
    std::string_view meaning;  //!< one line for the docs and the schema
    ParamValue (*get)(const T&);
    void (*set)(T&, const ParamValue&);
    int components = 0;        //!< vectors: 0 = the scene's dimension, else fixed
    bool required = false;     //!< no default: the file must give it
    double automatic = unbounded;  //!< a value outside the range meaning "automatic" (−1: xsph)
    std::string_view default_note = {};  //!< for the docs when the default depends on other keys
    bool (*written)(const T&) = nullptr;  //!< the resolved scene leaves it out when false
    // Text keys that name a file of rows of numbers may instead hold the rows themselves, a JSON
    // list of lists of `rows` numbers each; the text then is that list, written compactly
    // (inline_rows), and goes back into scene.json as the list.
    int rows = 0;
    Live live = Live::no;
};

// Whether a text value holds inline rows (a JSON list) rather than a file name.
inline bool inline_rows(std::string_view text) {
    return !text.empty() && text.front() == '[';
}

// An array of records under one key of T ("fluid", "obstacles").
template <class T, class E>
struct ParamList {
    std::string_view key;
    std::string_view noun;  //!< what one element is, plural: "fluid blocks"
    std::string_view meaning;
    std::size_t min_count;
    std::span<const Param<E>> (*params)();
    std::vector<E>& (*items)(T&);
    const std::vector<E>& (*citems)(const T&);
};

// The world's keys, in the order of the docs (and of the problems validate() reports).
std::span<const Param<WorldDef>> world_params();
std::span<const Param<FluidBlock>> fluid_block_params();
std::span<const Param<Obstacle>> obstacle_params();
const ParamList<WorldDef, FluidBlock>& fluid_list();
const ParamList<WorldDef, Obstacle>& obstacle_list();
std::span<const Param<BodyDef>> body_params();
const ParamList<WorldDef, BodyDef>& body_list();
std::span<const Param<Emitter>> emitter_params();
const ParamList<WorldDef, Emitter>& emitter_list();
std::span<const Param<Sink>> sink_params();
const ParamList<WorldDef, Sink>& sink_list();

// "solver.pbf.max_iterations" → {"solver", "pbf", "max_iterations"}.
std::vector<std::string> key_parts(std::string_view key);

// The problem of one value against its declaration ("" when it is fine); dimension is the scene's.
std::string check_param_value(ParamKind kind, const Range& range, double automatic,
                              std::size_t choices, int components, const ParamValue& value,
                              int dimension);
template <class T>
std::string check_value(const Param<T>& p, const T& object, int dimension) {
    return check_param_value(p.kind, p.range, p.automatic, p.choices.size(), p.components,
                             p.get(object), dimension);
}

// ---- helpers that make declarations: a chain of member pointers names the field ----

namespace detail {
template <auto M, auto... Rest, class T>
constexpr auto& member(T& t) {
    if constexpr (sizeof...(Rest) == 0)
        return t.*M;
    else
        return member<Rest...>(t.*M);
}
}  // namespace detail

template <class T, auto... M>
Param<T> number_param(std::string_view key, std::string_view unit, Range range,
                      std::string_view meaning) {
    Param<T> p{key, ParamKind::number, unit, range, {}, meaning, nullptr, nullptr};
    p.get = [](const T& t) -> ParamValue { return double(detail::member<M...>(t)); };
    p.set = [](T& t, const ParamValue& v) { detail::member<M...>(t) = std::get<double>(v); };
    return p;
}

template <class T, auto... M>
Param<T> integer_param(std::string_view key, std::string_view unit, Range range,
                       std::string_view meaning) {
    Param<T> p{key, ParamKind::integer, unit, range, {}, meaning, nullptr, nullptr};
    p.get = [](const T& t) -> ParamValue { return double(detail::member<M...>(t)); };
    p.set = [](T& t, const ParamValue& v) {
        // Readers refuse what is not an int; saturate anyway rather than convert out of range.
        const double d = std::get<double>(v);
        detail::member<M...>(t) = d != d               ? 0
                                  : d >= 2147483647.0  ? 2147483647
                                  : d <= -2147483648.0 ? -2147483647 - 1
                                                       : static_cast<int>(d);
    };
    return p;
}

template <class T, auto... M>
Param<T> boolean_param(std::string_view key, std::string_view meaning) {
    Param<T> p{key, ParamKind::boolean, "", {}, {}, meaning, nullptr, nullptr};
    p.get = [](const T& t) -> ParamValue { return bool(detail::member<M...>(t)); };
    p.set = [](T& t, const ParamValue& v) { detail::member<M...>(t) = std::get<bool>(v); };
    return p;
}

// An enum whose values are 0, 1, ... in the order of `choices`.
template <class T, auto... M>
Param<T> choice_param(std::string_view key, std::vector<std::string_view> choices,
                      std::string_view meaning) {
    Param<T> p{key, ParamKind::choice, "", {}, std::move(choices), meaning, nullptr, nullptr};
    // The names are looked up through the table at run time; get/set carry the index.
    p.get = [](const T& t) -> ParamValue { return double(int(detail::member<M...>(t))); };
    p.set = [](T& t, const ParamValue& v) {
        using E = std::remove_reference_t<decltype(detail::member<M...>(t))>;
        detail::member<M...>(t) = static_cast<E>(static_cast<int>(std::get<double>(v)));
    };
    return p;
}

template <class T, auto... M>
Param<T> vector_param(std::string_view key, std::string_view unit, Range range,
                      std::string_view meaning, int components = 0) {
    Param<T> p{key, ParamKind::vector, unit, range, {}, meaning, nullptr, nullptr};
    p.components = components;
    p.get = [](const T& t) -> ParamValue { return Vec3d(detail::member<M...>(t)); };
    p.set = [](T& t, const ParamValue& v) { detail::member<M...>(t) = std::get<Vec3d>(v); };
    return p;
}

// A list of points; every component of every point in `range`.
template <class T, auto... M>
Param<T> points_param(std::string_view key, std::string_view unit, Range range,
                      std::string_view meaning) {
    Param<T> p{key, ParamKind::points, unit, range, {}, meaning, nullptr, nullptr};
    p.get = [](const T& t) -> ParamValue { return std::vector<Vec3d>(detail::member<M...>(t)); };
    p.set = [](T& t, const ParamValue& v) {
        detail::member<M...>(t) = std::get<std::vector<Vec3d>>(v);
    };
    return p;
}

template <class T, auto... M>
Param<T> text_param(std::string_view key, std::string_view meaning) {
    Param<T> p{key, ParamKind::text, "", {}, {}, meaning, nullptr, nullptr};
    p.get = [](const T& t) -> ParamValue { return std::string(detail::member<M...>(t)); };
    p.set = [](T& t, const ParamValue& v) { detail::member<M...>(t) = std::get<std::string>(v); };
    return p;
}

// Declaration modifiers, read left to right at the declaration.
template <class T>
Param<T> required(Param<T> p) {
    p.required = true;
    return p;
}
template <class T>
Param<T> with_automatic(Param<T> p, double automatic, std::string_view note) {
    p.automatic = automatic;
    p.default_note = note;
    return p;
}
template <class T>
Param<T> with_rows(Param<T> p, int rows) {
    p.rows = rows;
    return p;
}
template <class T>
Param<T> with_default_note(Param<T> p, std::string_view note) {
    p.default_note = note;
    return p;
}
template <class T>
Param<T> live(Param<T> p) {
    p.live = Live::yes;
    return p;
}
template <class T>
Param<T> restarts_solver(Param<T> p) {
    p.live = Live::restarts_solver;
    return p;
}

Range closed(double lo, double hi);
Range positive(double hi);  // (0, hi], or (0, inf) for hi = inf
Range open(double lo, double hi);
Range half_open(double lo, double hi);  // [lo, hi)

}  // namespace seiche
