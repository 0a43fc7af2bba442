// The one list of solvers. Each line names a solver once: its name in scenes (solver.type and its
// key block solver.<name>.*), its class template (seiche/solver.hpp) and its parameter block,
// whose `traits` say the rest. The enum, the parameter blocks of SolverParams, the Solver<D>
// variant, make_solver, the solver.type choices and every front end's list derive from it.
// Adding a solver: its own files (docs/architecture.md) and one line here, with its includes.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "seiche/ddr_params.hpp"
#include "seiche/dfsph_params.hpp"
#include "seiche/pbf_params.hpp"
#include "seiche/wcsph_params.hpp"

// X(id, Class, Params); the first line is the default solver.
#define SEICHE_SOLVERS(X)        \
    X(pbf, Pbf, PbfParams)       \
    X(wcsph, Wcsph, WcsphParams) \
    X(ddr, Ddr, DdrParams)       \
    X(dfsph, Dfsph, DfsphParams)

namespace seiche {

enum class SolverType {
#define SEICHE_SOLVER_ENUMERATOR(id, Class, Params) id,
    SEICHE_SOLVERS(SEICHE_SOLVER_ENUMERATOR)
#undef SEICHE_SOLVER_ENUMERATOR
};

// Every solver, in the list's order.
inline constexpr SolverType solver_types[] = {
#define SEICHE_SOLVER_TYPE(id, Class, Params) SolverType::id,
    SEICHE_SOLVERS(SEICHE_SOLVER_TYPE)
#undef SEICHE_SOLVER_TYPE
};
inline constexpr std::size_t solver_count = std::size(solver_types);

inline constexpr std::array<SolverTraits, solver_count> all_solver_traits = {
#define SEICHE_SOLVER_TRAITS(id, Class, Params) Params::traits,
    SEICHE_SOLVERS(SEICHE_SOLVER_TRAITS)
#undef SEICHE_SOLVER_TRAITS
};

#define SEICHE_SOLVER_NAME_CHECK(id, Class, Params) \
    static_assert(Params::traits.name == #id, "a solver's traits name it as the list does");
SEICHE_SOLVERS(SEICHE_SOLVER_NAME_CHECK)
#undef SEICHE_SOLVER_NAME_CHECK

constexpr const SolverTraits& solver_traits(SolverType t) {
    return all_solver_traits[static_cast<std::size_t>(t)];
}
constexpr std::string_view solver_name(SolverType t) {
    return solver_traits(t).name;
}
inline double default_xsph(SolverType t) {
    return solver_traits(t).default_xsph;
}

// The solver of this name, if there is one.
constexpr std::optional<SolverType> find_solver(std::string_view name) {
    for (SolverType t : solver_types)
        if (solver_name(t) == name) return t;
    return std::nullopt;
}

// {"pbf", "wcsph", "ddr"}: the command line's choices and the front ends' default lists.
inline std::vector<std::string> solver_names() {
    std::vector<std::string> names;
    for (SolverType t : solver_types) names.emplace_back(solver_name(t));
    return names;
}

// "pbf, wcsph or ddr", for help texts and messages.
inline std::string solver_names_text() {
    std::string s;
    for (std::size_t k = 0; k < solver_count; ++k)
        s += (k == 0 ? "" : k + 1 == solver_count ? " or " : ", ") +
             std::string(solver_name(solver_types[k]));
    return s;
}

}  // namespace seiche
