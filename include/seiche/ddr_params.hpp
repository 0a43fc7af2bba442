// Double density relaxation (Clavet, Beaudoin & Poulin 2005): the parameter block and the traits
// of the solver of src/solvers/double_density_relaxation.cpp.
#pragma once

#include "seiche/solver_traits.hpp"

namespace seiche {

struct DdrParams {
    double speed_of_sound = 0.0;  // 0 = automatic
    double near_stiffness = 0.5;
    double cohesion = 0.0;
    double linear_viscosity = 0.0;
    double quadratic_viscosity = 0.0;  // 0 = automatic

    static constexpr SolverTraits traits{
        .name = "ddr",
        .title = "Double density relaxation",
        .paper = "Clavet, Beaudoin & Poulin 2005",
        .resolves_sound = true,
        .has_pressure = false,
        .default_xsph = 0.0,  // it has its own viscosity impulses; XSPH is an option
        // No pressure: the relaxation's displacements push on the walls, 3.2% steep at rest.
        .gates_wall_pressure = false,
        // flat_wall_match weights its walls to read ρ0 at d/2.
        .walls_read_rest_at_half_spacing = true,
    };
    // Its keys, solver.ddr.*, as rows of the world's parameter table
    // (src/solvers/double_density_relaxation.cpp).
    static std::span<const Param<WorldDef>> keys();
};

}  // namespace seiche
