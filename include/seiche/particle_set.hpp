// Fluid particle state as structure-of-arrays. All particles share one mass.
#pragma once

#include <vector>

#include "seiche/vec.hpp"

namespace seiche {

template <int D>
struct ParticleSet {
    std::vector<Vec<D>> x;       //!< position, m (during a step: the predicted position)
    std::vector<Vec<D>> v;       //!< velocity, m/s
    std::vector<Vec<D>> x_prev;  //!< position at the start of the step, m
    std::vector<float> rho;      //!< density from the last solver pass, kg/m³
    float mass = 0.0f;           //!< kg, per particle
    float radius = 0.0f;         //!< m; rest spacing 2r

    std::size_t size() const { return x.size(); }
    void resize(std::size_t n) {
        x.resize(n);
        v.resize(n);
        x_prev.resize(n);
        rho.resize(n);
    }
};

// Static boundary particles (Akinci et al. 2012) and the grid that finds them. Built once.
template <int D>
struct Boundary {
    std::vector<Vec<D>> x;      //!< m
    std::vector<float> volume;  //!< V_k = 1 / Σ_l W_kl, m^D; ψ_k = ρ0 V_k
};

}  // namespace seiche
