// Double density relaxation: Clavet, Beaudoin & Poulin 2005, "Particle-based viscoelastic fluid
// simulation", Algorithms 1, 2 and 5 (viscosity impulses, double density relaxation).
#pragma once

#include <span>
#include <vector>

#include "seiche/boundary.hpp"
#include "seiche/world_def.hpp"
#include "seiche/sph.hpp"
#include "seiche/step_context.hpp"

namespace seiche {

struct DdrConstants {
    float h;                //!< interaction radius, m (the kernel support)
    float k;                //!< stiffness, m/s² (= c²/h)
    float k_near;           //!< near stiffness, m/s²
    float cohesion;         //!< factor on negative pressure (1 = Clavet)
    float rho0;             //!< rest density Σ(1−q)² of a full rest lattice, dimensionless
    float rho_near0;        //!< rest near density Σ(1−q)³, dimensionless
    float sigma;            //!< linear viscosity, 1/s
    float beta;             //!< quadratic viscosity, 1/m
    float boundary_weight;  //!< scales V_k/V_fluid so a particle resting at a wall has ρ = ρ0
    float wall_push = 1.0f;    //!< the wall's push matched to the fluid it stands for
    float hydrostatic = 0.0f;  //!< 2/M, 1/m: the wall's pressure step per unit g·(x_k − x_i)
};

// Physical-friendly defaults: k from a speed of sound, rest densities from the rest lattice so
// a scene written for PBF rests at its own spacing.
template <int D>
DdrConstants ddr_constants(const DdrParams& p, float speed_of_sound, float h, float spacing,
                           const AnyKernel<D>& kernel, const WallSampling& walls);

template <int D>
struct DdrState {
    std::vector<float> pressure, pressure_near;  //!< m/s²
    std::vector<Vec<D>> dx;                      //!< m
    std::vector<Vec<D>> v_new;                   //!< m/s
    //! what the pair passes read of a neighbour, per particle in 16 bytes: (x, y, z, P) for the
    //! relaxation, (x, y, z, 0) and (vx, vy, vz, 0) for the viscosity
    std::vector<Float4> x_pressure, x_records, v_records;
    //! The positions the relaxation took its displacements at (x_pressure's), where the walls'
    //! reaction is summed (kept while boundary forces are tracked)
    std::vector<Vec<D>> wall_push_at;
    void resize(std::size_t n) {
        pressure.resize(n);
        pressure_near.resize(n);
        dx.resize(n);
        v_new.resize(n);
    }
};

// Algorithm 5: impulses between approaching pairs, I = Δt(1−q)(σu + βu²) r̂, split in halves.
template <int D>
void ddr_viscosity(const DdrConstants& c, const FluidView<D>& f, float dt,
                   std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                   std::vector<Float4>& x_records, std::vector<Float4>& v_records);

// Algorithm 2: density and near density, pressures, then the symmetric displacements (applied
// to x; state.dx keeps what the rounding of x lost of them). Boundary particles count with weight
// V_k/V_fluid and push only the fluid particle.
template <int D>
void ddr_relax(const DdrConstants& c, const FluidView<D>& f, float dt, const Vec<D>& gravity,
               std::span<Vec<D>> x, DdrState<D>& state);

// The double density relaxation solver; step() is Clavet et al. 2005, Algorithm 1: gravity,
// viscosity impulses, prediction, double density relaxation, collisions, velocities.
template <int D>
struct Ddr {
    DdrParams params;
    DdrConstants constants{};
    DdrState<D> state;

    Ddr(const DdrParams& p, const FluidConstants<D>& fluid, std::size_t particles);
    void step(StepContext<D>& c);
};

}  // namespace seiche
