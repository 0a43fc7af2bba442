// The closed set of solvers: each alternative owns its parameters, constants and scratch, and
// its step() is its paper's algorithm over the shared stages of StepContext. Adding a solver is a
// new file plus one line here (docs/architecture.md lists the other places it touches).
#pragma once

#include <variant>

#include "seiche/double_density_relaxation.hpp"
#include "seiche/pbf.hpp"
#include "seiche/wcsph.hpp"

namespace seiche {

template <int D>
using Solver = std::variant<Pbf<D>, Wcsph<D>, Ddr<D>>;

// The solver the parameters name, for `particles` fluid particles.
template <int D>
Solver<D> make_solver(const SolverParams& params, const FluidConstants<D>& fluid,
                      std::size_t particles) {
    switch (params.type) {
        case SolverType::wcsph:
            return Wcsph<D>(params.wcsph, fluid, particles);
        case SolverType::ddr:
            return Ddr<D>(params.ddr, fluid, particles);
        case SolverType::pbf:
            break;
    }
    return Pbf<D>(params.pbf, fluid, particles);
}

}  // namespace seiche
