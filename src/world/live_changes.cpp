// Live changes to a running world: the keys a user turns between steps (solver and its
// parameters, XSPH, vorticity, gravity, time-step limits), validated through the parameter table
// like a scene file, then applied by re-deriving what depends on them.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "seiche/world.hpp"

namespace seiche {

namespace {

const Param<WorldDef>* find_param(std::string_view key) {
    for (const auto& p : world_params())
        if (p.key == key) return &p;
    return nullptr;
}

}  // namespace

// As the key's declaration says (Param::live).
bool is_live_key(std::string_view key) {
    const Param<WorldDef>* p = find_param(key);
    return p && p->live != Live::no;
}

namespace {

// A value of the right alternative for the declaration; a choice may be given by its name.
ParamValue coerce(const Param<WorldDef>& p, const ParamValue& v) {
    const auto fail = [&](const std::string& expected) -> ParamValue {
        throw DefinitionError({{std::string(p.key), "expected " + expected}});
    };
    switch (p.kind) {
        case ParamKind::number:
            if (!std::holds_alternative<double>(v)) return fail("a number");
            return v;
        case ParamKind::integer: {
            const double* d = std::get_if<double>(&v);
            if (!d || std::floor(*d) != *d || !(std::abs(*d) <= double(std::numeric_limits<int>::max())))
                return fail("an integer in " + p.range.text());
            return v;
        }
        case ParamKind::boolean:
            if (!std::holds_alternative<bool>(v)) return fail("true or false");
            return v;
        case ParamKind::text:
            if (!std::holds_alternative<std::string>(v)) return fail("a string");
            return v;
        case ParamKind::vector:
            if (!std::holds_alternative<Vec3d>(v)) return fail("a vector");
            return v;
        case ParamKind::points:
            if (!std::holds_alternative<std::vector<Vec3d>>(v)) return fail("a list of points");
            return v;
        case ParamKind::choice: {
            std::string names;
            for (const auto& c : p.choices) names += (names.empty() ? "\"" : ", \"") + std::string(c) + "\"";
            if (const auto* name = std::get_if<std::string>(&v)) {
                for (std::size_t k = 0; k < p.choices.size(); ++k)
                    if (p.choices[k] == *name) return double(k);
                return fail("one of " + names + ", got \"" + *name + "\"");
            }
            if (std::holds_alternative<double>(v)) return v;
            return fail("one of " + names);
        }
    }
    return v;
}

}  // namespace

template <int D>
std::span<const std::string_view> World<D>::live_keys() {
    static const std::vector<std::string_view> keys = [] {
        std::vector<std::string_view> k;
        for (const auto& p : world_params())
            if (is_live_key(p.key)) k.push_back(p.key);
        return k;
    }();
    return keys;
}

template <int D>
void World<D>::set(std::string_view key, const ParamValue& value) {
    const Param<WorldDef>* p = find_param(key);
    if (!p)
        throw DefinitionError({{std::string(key), "no such key (see docs/scene-format.md)"}});
    if (!is_live_key(key))
        throw DefinitionError({{std::string(key),
                                "cannot change while the world runs (it shapes the particles or "
                                "the boundary); build a new World"}});
    WorldDef next = def_;
    p->set(next, coerce(*p, value));
    set_definition(next);
}

template <int D>
void World<D>::set_pbf_iterations(int min_iterations, int max_iterations) {
    WorldDef next = def_;
    next.solver.pbf.min_iterations = min_iterations;
    next.solver.pbf.max_iterations = max_iterations;
    set_definition(next);
}

template <int D>
void World<D>::set_definition(const WorldDef& next) {
    // Only live keys may differ: compare every other key and the blocks through the table.
    for (const auto& p : world_params())
        if (p.live == Live::no && p.get(next) != p.get(def_))
            throw DefinitionError({{std::string(p.key),
                                    "cannot change while the world runs; build a new World"}});
    auto same_boxes = [](const auto& a, const auto& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].min != b[i].min || a[i].max != b[i].max) return false;
        return true;
    };
    if (!same_boxes(next.fluid, def_.fluid))
        throw DefinitionError({Problem{"fluid", "cannot change while the world runs"}});
    if (!same_boxes(next.obstacles, def_.obstacles))
        throw DefinitionError({Problem{"obstacles", "cannot change while the world runs"}});
    if (next.bodies.size() != def_.bodies.size())
        throw DefinitionError({Problem{"bodies", "cannot change while the world runs"}});
    for (std::size_t i = 0; i < next.bodies.size(); ++i)
        for (const auto& p : body_params())
            if (p.get(next.bodies[i]) != p.get(def_.bodies[i]))
                throw DefinitionError({Problem{"bodies[" + std::to_string(i) + "]." + std::string(p.key),
                                               "cannot change while the world runs"}});
    auto same_list = [](const auto& a, const auto& b, auto params) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            for (const auto& p : params())
                if (p.get(a[i]) != p.get(b[i])) return false;
        return true;
    };
    if (!same_list(next.emitters, def_.emitters, emitter_params))
        throw DefinitionError({Problem{"emitters", "cannot change while the world runs"}});
    if (!same_list(next.sinks, def_.sinks, sink_params))
        throw DefinitionError({Problem{"sinks", "cannot change while the world runs"}});
    if (std::vector<Problem> problems = validate(next); !problems.empty())
        throw DefinitionError(std::move(problems));

    // A changed key declared restarts_solver (the solver's own, gravity) restarts it.
    bool restart = false;
    for (const auto& p : world_params())
        if (p.live == Live::restarts_solver && p.get(next) != p.get(def_)) restart = true;
    const float sound_before = fluid_.speed_of_sound;
    def_ = next;
    derive_from_definition();
    objects_[0].adhesion = float(def_.container_adhesion);  // the container is object 0
    // WCSPH and DDR take their stiffness from the speed of sound when they start, and the step
    // follows it: a change that moves it (γ, the walls' adhesion) restarts them, or the steps
    // would follow the new speed and the stiffness the old.
    if (fluid_.speed_of_sound != sound_before && solver_traits(def_.solver.type).resolves_sound)
        restart = true;
    // The solver restarts on the current particles: its scratch is rebuilt every step anyway.
    if (restart) {
        solver_ = make_solver<D>(def_.solver, fluid_, p_.size());
        solver_started();
        step_scale_ = 1.0;  // its iterations start afresh
        last_iterations_ = 0;
    }
}

template std::span<const std::string_view> World<2>::live_keys();
template std::span<const std::string_view> World<3>::live_keys();
template void World<2>::set(std::string_view, const ParamValue&);
template void World<3>::set(std::string_view, const ParamValue&);
template void World<2>::set_pbf_iterations(int, int);
template void World<3>::set_pbf_iterations(int, int);
template void World<2>::set_definition(const WorldDef&);
template void World<3>::set_definition(const WorldDef&);

}  // namespace seiche
