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
        // Water at rest from the lattice, 2D, kinetic energy over the run's second half: 50
        // layers deep (hydrostatic_2d.json, 2 s), capped on 99% of the steps at 0.30%, 0.014 J/m;
        // max_iterations 100 29.8 a step, 0.200%, 0.022 J/m; time.target_iterations 20 12.6 of
        // half the steps, 0.026; 10: 0.14; warm start 0.8 11.9, 0.39. 150 and 300 layers deep
        // (0.2 m × 1.5 / 3 m, r = 5 mm, 1.5 s): capped 0.069 / 0.28 J/m; max_iterations 100 31
        // a step, 0.200%, 0.10 / 0.20 J/m; target 20 0.65 / 5.9, 10 1.7 / 7.1; warm start 3.4
        // / 75: there a shorter or warm-started step shakes the column (docs/solvers.md).
        .capped_remedy = "raise solver.pbf.max_iterations (about 30 a step in water at rest 50 "
                         "to 300 particles deep); in water at most about 50 deep the step can "
                         "follow the solve instead (time.target_iterations 20); a warm start "
                         "(solver.pbf.warm_start 0.8) takes fewer iterations in flowing water "
                         "but keeps water at rest moving",
    };
    // Its keys, solver.pbf.*, as rows of the world's parameter table (src/solvers/pbf.cpp).
    static std::span<const Param<WorldDef>> keys();
};

}  // namespace seiche
