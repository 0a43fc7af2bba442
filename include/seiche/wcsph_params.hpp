// Weakly compressible SPH (Becker & Teschner 2007): the parameter block and the traits of the
// solver of src/solvers/wcsph.cpp.
#pragma once

#include "seiche/solver_traits.hpp"

namespace seiche {

struct WcsphParams {
    enum class Eos { tait, linear };
    double speed_of_sound = 0.0;  // 0 = automatic
    Eos eos = Eos::tait;
    double gamma = 7.0;
    bool clamp_pressure = true;
    double viscosity = 0.05;
    bool gradient_correction = false;

    static constexpr SolverTraits traits{
        .name = "wcsph",
        .title = "Weakly compressible SPH",
        .paper = "Becker & Teschner 2007",
        .resolves_sound = true,
        .has_pressure = true,
        .default_xsph = 0.0,  // it has its own viscosity; XSPH is an option
    };
    // Its keys, solver.wcsph.*, as rows of the world's parameter table (src/solvers/wcsph.cpp).
    static std::span<const Param<WorldDef>> keys();
};

}  // namespace seiche
