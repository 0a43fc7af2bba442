// Position Based Fluids (Macklin & Müller 2013; Bender & Fernández 2019): the parameter block and
// the traits of the solver of src/solvers/pbf.cpp.
#pragma once

#include "seiche/solver_traits.hpp"

namespace seiche {

struct PbfParams {
    int min_iterations = 2;
    int max_iterations = 20;
    double density_tolerance = 0.002;
    double relaxation = 0.01;
    double over_relaxation = 1.0;
    double warm_start = 0.0;
    // How the warm start joins the first correction: added to it, or the larger push of the two
    // (with the carried push following its trend where it shrinks).
    enum class WarmJoin { sum, larger };
    WarmJoin warm_start_join = WarmJoin::sum;
    double peak_tolerance = 0.0;
    bool unilateral = true;
    bool tensile_correction = false;
    double s_corr_k = 0.1;
    double s_corr_n = 4.0;
    double s_corr_dq = 0.2;

    static constexpr SolverTraits traits{
        .name = "pbf",
        .title = "Position Based Fluids",
        .paper = "Macklin & Müller 2013",
        .resolves_sound = false,
        .has_pressure = false,
        .default_xsph = 0.01,  // XSPH is PBF's viscosity (M&M 2013 eq. 17)
        .max_dt_depth = 0.5,
        .carries_values = true,  // Σλ' of its last two steps (solver.pbf.warm_start)
        .iterations_key = "solver.pbf.max_iterations",
        .tolerance_key = "solver.pbf.density_tolerance",
        .peak_tolerance_key = "solver.pbf.peak_tolerance",
        // A tank at rest 50 layers deep: 99% of the steps capped at 20 iterations (0.31%
        // against 0.2%); warm start 0.8 4.4 iterations, 4% capped; 1 ms steps 7.5, none.
        .capped_remedy = "let the step follow the solve (time.target_iterations 10), raise "
                         "solver.pbf.max_iterations, start each step from the last one's "
                         "corrections (solver.pbf.warm_start 0.8) or shorten time.max_dt",
    };
    // Its keys, solver.pbf.*, as rows of the world's parameter table (src/solvers/pbf.cpp).
    static std::span<const Param<WorldDef>> keys();
};

}  // namespace seiche
