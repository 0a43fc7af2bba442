// What a step reports: its statistics (stats.csv's row), an instability, the time per stage.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "seiche/world_def.hpp"

namespace seiche {

// A particle that went bad: which, when, and why.
struct Instability {
    std::size_t particle = 0;  //!< creation id: the row of the particle in every frame file
    std::string reason;  //!< e.g. "velocity is NaN", "speed 412 m/s exceeds the limit of 80 m/s"
    Vec3d position{0, 0, 0};
    Vec3d velocity{0, 0, 0};
};

// Wall time spent per stage, accumulated over all steps, in seconds.
struct StageTimes {
    double neighbors = 0;  //!< grid build and neighbour lists
    double solver = 0;     //!< PBF iterations | WCSPH density, pressure, forces | DDR relaxation
    double velocity = 0;   //!< velocity update, XSPH, vorticity confinement, DDR viscosity
    double total = 0;      //!< whole steps; total − the above = prediction, containment, stats
};

struct StepStats {
    std::int64_t step = 0;          //!< 1 for the first step
    double time = 0;                //!< s, at the end of the step
    double dt = 0;                  //!< s
    int iterations = 0;             //!< solver iterations
    //! The solve stopped at its iteration cap (solver traits' iterations_key) with the mean
    //! error still above its tolerance (tolerance_key): the step is less exact than asked.
    //! Never for a fixed count (min = max iterations), an interrupt, or a solver without one.
    bool capped = false;
    //! Of the capped steps, one whose iterations met tolerance_key but whose correction of the
    //! largest error stopped at the cap above peak_tolerance_key (PBF's solver.pbf.peak_tolerance).
    bool capped_peak = false;
    //! The solve ended above its tolerance at well over the lowest error it reached: its
    //! iterations drove the error up (solver traits' diverged_remedy; DFSPH in fluid closed in
    //! by walls, docs/solvers.md).
    bool diverged = false;
    double density_error_mean = 0;  //!< mean of max(0, ρ/ρ0 − 1)
    double density_error_max = 0;
    double kinetic_energy = 0;    //!< J (J/m in 2D)
    double potential_energy = 0;  //!< J, −Σ m g·x
    std::size_t contained = 0;    //!< particles put back by the last-resort containment
    std::size_t particles = 0;    //!< fluid particles at the end of the step (emitters, sinks)
    std::optional<Instability> instability;
};

// What a run adds up over its steps: the summaries of `seiche run` and `seiche bench`.
struct RunTotals {
    long long steps = 0;
    long long iterations = 0;
    long long capped = 0;  //!< steps whose solve stopped at its cap above its tolerance
    long long capped_peak = 0;  //!< of those, above the peak tolerance (StepStats::capped_peak)
    long long diverged = 0;     //!< steps whose solve drove its error up (StepStats::diverged)
    double density_error_mean_sum = 0;  //!< Σ over the steps of each step's mean density error
    double density_error_max = 0;       //!< the largest of any step
    StepStats last;                     //!< the last step

    void add(const StepStats& s) {
        ++steps;
        iterations += s.iterations;
        capped += s.capped ? 1 : 0;
        capped_peak += s.capped && s.capped_peak ? 1 : 0;
        diverged += s.diverged ? 1 : 0;
        density_error_mean_sum += s.density_error_mean;
        density_error_max = std::max(density_error_max, s.density_error_max);
        last = s;
    }
    double mean_iterations() const { return steps > 0 ? double(iterations) / double(steps) : 0.0; }
    double mean_density_error() const {
        return steps > 0 ? density_error_mean_sum / double(steps) : 0.0;
    }
};

}  // namespace seiche
