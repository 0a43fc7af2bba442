// The closed set of solvers, derived from the one list (seiche/solver_list.hpp): each alternative
// owns its parameters, constants and scratch, and its step() is its paper's algorithm over the
// shared stages of StepContext.
#pragma once

#include <concepts>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "seiche/dfsph.hpp"
#include "seiche/double_density_relaxation.hpp"
#include "seiche/pbf.hpp"
#include "seiche/wcsph.hpp"

namespace seiche {

namespace detail {
template <class Void, class... Alternatives>
struct SolverVariant {
    using type = std::variant<Alternatives...>;
};
}  // namespace detail

template <int D>
using Solver = typename detail::SolverVariant<void
#define SEICHE_SOLVER_ALTERNATIVE(id, Class, Params) , Class<D>
                                              SEICHE_SOLVERS(SEICHE_SOLVER_ALTERNATIVE)
#undef SEICHE_SOLVER_ALTERNATIVE
                                              >::type;

// A solver that keeps a pressure field offers it as `pressure()`, Pa, per particle.
template <class S>
concept HasPressure = requires(const S& s) {
    { s.pressure() } -> std::convertible_to<std::span<const float>>;
};

// The solver the parameters name, for `particles` fluid particles.
template <int D>
Solver<D> make_solver(const SolverParams& params, const FluidConstants<D>& fluid,
                      std::size_t particles) {
    switch (params.type) {
#define SEICHE_SOLVER_MAKE(id, Class, Params)                                               \
    case SolverType::id:                                                                    \
        static_assert(std::is_same_v<std::variant_alternative_t<std::size_t(SolverType::id), \
                                                                Solver<D>>,                   \
                                     Class<D>>);                                              \
        static_assert(Params::traits.has_pressure == HasPressure<Class<D>>,                   \
                      "traits.has_pressure says whether the solver offers pressure()");       \
        return Class<D>(params.id, fluid, particles);
        SEICHE_SOLVERS(SEICHE_SOLVER_MAKE)
#undef SEICHE_SOLVER_MAKE
    }
    throw std::invalid_argument("solver.type: not a solver of the list");
}

// The pressure field of the running solver, Pa (empty for a solver without one).
template <int D>
std::span<const float> solver_pressure(const Solver<D>& solver) {
    return std::visit(
        [](const auto& s) -> std::span<const float> {
            if constexpr (HasPressure<std::decay_t<decltype(s)>>)
                return s.pressure();
            else
                return {};
        },
        solver);
}

}  // namespace seiche
