// Divergence-free SPH (Bender & Koschier 2015, 2017): the parameter block and the traits of the
// solver of src/solvers/dfsph.cpp.
#pragma once

#include "seiche/solver_traits.hpp"

namespace seiche {

struct DfsphParams {
    int min_iterations = 2;
    int max_iterations = 100;
    double density_tolerance = 0.0001;  // mean predicted density error, as SPlisHSPlasH's 0.01%
    bool divergence_solve = true;
    int max_divergence_iterations = 100;
    double divergence_tolerance = 0.001;  // mean density change over one step, 0.1%
    // Each solve starts from this share of the last step's κ̂ (2017 §4.4), as SPlisHSPlasH. More
    // halves the iterations on the reference dam break, but a 2D dam break at r = 1 cm went
    // unstable at every share above 0.5 (the divergence solve's repeated push).
    double warm_start = 0.5;
    // ρ of the Chebyshev semi-iteration over the constant-density solve's Jacobi iterations
    // (src/solvers/dfsph.cpp); 0: plain relaxed Jacobi, as SPlisHSPlasH.
    double chebyshev = 0.99;

    static constexpr SolverTraits traits{
        .name = "dfsph",
        .title = "Divergence-free SPH",
        .paper = "Bender & Koschier 2015, 2017",
        .resolves_sound = false,
        .has_pressure = true,
        .default_xsph = 0.01,  // as PBF, and as the reference's scenes
        .default_max_dt = 0.005,
        .max_dt_gravity = 0.07,
        // Calm at 0.77 too, but at 0.7 its solves stop at their cap of 100 on 69–88% of the
        // steps in water 150–300 particles deep (2D; 3D 150 deep: 40%), 0.018% against the 0.01%
        // asked; at 0.5 on 6–12% (3D: 0.2%), as many iterations in all (docs/solvers.md).
        .max_dt_depth = 0.5,
        .carries_values = true,  // the warm starts of its two solves
        .iterations_key = "solver.dfsph.max_iterations",
        .tolerance_key = "solver.dfsph.density_tolerance",
        // Deep water at rest: Jacobi rebuilds half the column's pressure every step
        // (docs/solvers.md); with the Chebyshev semi-iteration 1 ms / 2 ms steps take 22 / 61
        // iterations in 0.4 m of water at r = 4 mm (plain Jacobi 141 / 431).
        .capped_remedy = "let the step follow the solve (time.target_iterations 20), shorten "
                         "time.max_dt or raise solver.dfsph.max_iterations (water at rest H deep: "
                         "steps of about 2r/(4 sqrt(g H)) take 20-30 iterations; 1 ms for 0.4 m "
                         "at r = 4 mm)",
        // More iterations or shorter steps do not help there: the error grows per iteration
        // (docs/solvers.md, "Fluid closed in by walls").
        // A tall narrow column from the lattice: its side rows start 1.2% over ρ0 and the
        // semi-iteration throws it (0.4 × 0.4 × 3 m at r = 10 mm, with rest_gap: 1,012 J in its
        // first 0.1 s, plain Jacobi 22.5 J; docs/solvers.md, "A tall narrow column").
        .diverged_remedy = "solver.dfsph.chebyshev=0 with solver.dfsph.max_iterations at most "
                           "100, room for the fluid to move, or the PBF solver (in fluid closed "
                           "in by walls, a long layer under a plate or a body, a box filled to "
                           "the lid or a tall narrow column, DFSPH's solve can drive its error "
                           "up)",
    };
    // Its keys, solver.dfsph.*, as rows of the world's parameter table (src/solvers/dfsph.cpp).
    static std::span<const Param<WorldDef>> keys();
};

}  // namespace seiche
