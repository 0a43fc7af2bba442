// What the rest of seiche knows about a solver, declared once next to its parameter block
// (seiche/<method>_params.hpp) and read through the list in seiche/solver_list.hpp: the command
// line's choices, validate's and compare's lists, the viewer's switch, Python and the docs.
#pragma once

#include <span>
#include <string_view>

namespace seiche {

template <class T>
struct Param;
struct WorldDef;

struct SolverTraits {
    std::string_view name;   //!< the scene's solver.type and its key block: "pbf"
    std::string_view title;  //!< "Position Based Fluids"
    std::string_view paper;  //!< "Macklin & Müller 2013"
    //! The step must resolve sound waves: CFL steps add the speed of sound to the fastest speed.
    bool resolves_sound = false;
    //! The solver keeps a pressure field, Pa (World::pressure(), the viewer's colours, validate).
    bool has_pressure = false;
    double default_xsph = 0.0;  //!< solver.xsph when the scene leaves it out
    double default_max_dt = 0.002;  //!< time.max_dt when the scene leaves it out (0), s
    //! With time.max_dt 0, also Δt ≤ max_dt_gravity·√(2r/|g|) (0: no such bound): gravity then
    //! compresses a resting column by at most g Δt²/(2r) = max_dt_gravity² per step, the
    //! same share of a spacing at every resolution (a solver whose prediction is linear in Δt).
    double max_dt_gravity = 0.0;
    //! With time.max_dt 0 and gravity, CFL steps are also at most max_dt_depth·2r/√(|g|·H), H
    //! the fluid's extent along g (0: no such bound): an iterative solver's corrections shake
    //! deep water above about 0.8 (DFSPH) to 1 (PBF) times 2r/√(gH), the wave speed of the
    //! column's pressure, which the fluid's speed does not show while it is at rest
    //! (docs/solvers.md, "Deep water").
    double max_dt_depth = 0.0;
    //! It carries two values per particle from one step to the next (ParticleSet::carried).
    bool carries_values = false;
    //! The key that bounds its iterations per step ("" for a solver that makes one pass): the
    //! remedy printed after an instability, the benchmark's time per iteration.
    std::string_view iterations_key = {};
    //! The key of the mean density error it iterates down to ("" for a solver whose error
    //! follows from its stiffness, set by the speed of sound): compare's accuracy runs.
    std::string_view tolerance_key = {};
    //! The key of the largest density error a second correction iterates down to once the mean
    //! meets tolerance_key ("" for a solver without one; StepStats::capped_peak).
    std::string_view peak_tolerance_key = {};
    //! What to change when its solve stops at iterations_key above tolerance_key on many steps
    //! (StepStats::capped): the summaries of seiche run and bench print it.
    std::string_view capped_remedy = {};
    //! What to try when its solve drives its error up (StepStats::diverged), read after "try":
    //! printed in place of capped_remedy and of the instability's usual remedy ("" for a solver
    //! without).
    std::string_view diverged_remedy = {};
    //! Its wall pressures are held to experiments' and exact figures in validate; false: measured
    //! and reported only (a model with no pressure, whose wall load is a by-product: DDR).
    bool gates_wall_pressure = true;
    //! Its walls are weighted to read ρ0 at a fluid row d/2 from them, so fluid[i].rest_gap
    //! leaves its blocks there; false: the key moves them to the gap where the Akinci walls read
    //! the bulk's density (flat_wall_rest_gap), a little farther.
    bool walls_read_rest_at_half_spacing = false;
};

}  // namespace seiche
