// The forces besides pressure: what every force declares (its traits, its keys, the stage it
// runs at), and the velocity filters applied after the solver, XSPH viscosity and vorticity
// confinement. Each force owns its scratch; the list of forces is seiche/force_list.hpp.
#pragma once

#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "seiche/kernels.hpp"
#include "seiche/sph.hpp"

namespace seiche {

template <class T>
struct Param;
struct WorldDef;
template <int D>
class StepContext;
template <int D>
struct FluidConstants;

// Where in a step a force runs; a solver's step() calls the stages by name (StepContext).
enum class ForceStage {
    non_pressure,     //!< accelerations before the pressure solve: v += Δt·a (surface tension)
    velocity_filter,  //!< after the velocities are updated, on v (XSPH, vorticity confinement)
};

struct ForceTraits {
    std::string_view name;   //!< "xsph"
    std::string_view paper;  //!< "Schechter & Bridson 2012, eq. 8"
    ForceStage stage;
};

// What one run of a stage hands to its forces.
struct ForceStageArgs {
    //! non_pressure: the positions were already advanced by Δt·v; the stage moves them to
    //! x_prev + Δt·v again once its forces have changed v (the forces change only v).
    bool predicted = false;
    //! non_pressure: set by a force that changed v.
    bool velocities_changed = false;
    //! velocity_filter: ρ of the current positions is still to be computed; the first force that
    //! reads ρ computes it (XSPH within its own pair pass), else the stage does at its end.
    bool density_pending = false;
    //! velocity_filter: 16 bytes per particle a solver lends for the stage (PBF: its x_lambda).
    std::span<Float4> lent;
};

// XSPH (Schechter & Bridson 2012, eq. 8; Macklin & Müller 2013, eq. 17):
// v_i ← v_i + c Σ_j (m/ρ_j)(v_j − v_i) W_ij. Reads v, writes v_out (distinct arrays). records:
// one per particle of scratch (the pass first writes each particle's velocity and 1/ρ there, so
// a pair fetches both with one load; allocated here when empty).
template <int D, class K>
void xsph_viscosity(const FluidView<D>& f, const K& kernel, float c, std::span<const float> rho,
                    std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                    std::span<Float4> records = {});
// The same, and in the same pass ρ of the current positions into rho_out (as compute_density;
// distinct from rho, which XSPH reads for the neighbours' weights).
template <int D, class K>
void xsph_viscosity_and_density(const FluidView<D>& f, const K& kernel, float c,
                                std::span<const float> rho, std::span<const Vec<D>> v,
                                std::span<Vec<D>> v_out, std::span<float> rho_out,
                                std::span<Float4> records = {});

// Vorticity: a vector in 3D, the scalar z component in 2D.
template <int D>
using Vorticity = std::conditional_t<D == 3, Vec<3>, float>;

// Vorticity confinement (Fedkiw et al. 2001; Macklin & Müller 2013, eqs. 15–16):
// ω_i = Σ_j V_j (v_i − v_j) × ∇_i W_ij, η = ∇|ω|, N = η/|η|, v_i += Δt ε (N × ω_i).
// epsilon in m/s (ε·ω is an acceleration). omega is scratch of the particle count.
template <int D, class K>
void vorticity_confinement(const FluidView<D>& f, const K& kernel, float epsilon, float dt,
                           std::span<const float> rho, std::span<Vec<D>> v,
                           std::vector<Vorticity<D>>& omega);

// XSPH as a force of the list: c = solver.xsph (or the solver's default). Velocities go to the
// world's reorder scratch and are swapped in; records are its own unless a solver lends some.
template <int D>
struct XsphViscosity {
    static constexpr ForceTraits traits{"xsph", "Schechter & Bridson 2012, eq. 8; Macklin & Müller 2013, eq. 17",
                                        ForceStage::velocity_filter};
    static std::span<const Param<WorldDef>> keys();  // solver.xsph

    std::vector<Float4> records;  //!< velocity and 1/ρ per particle, unless lent

    explicit XsphViscosity(const FluidConstants<D>&) {}
    void apply(StepContext<D>& c, ForceStageArgs& args);
};

// Vorticity confinement as a force of the list: ε = solver.vorticity.
template <int D>
struct VorticityConfinement {
    static constexpr ForceTraits traits{"vorticity", "Fedkiw et al. 2001; Macklin & Müller 2013, eqs. 15–16",
                                        ForceStage::velocity_filter};
    static std::span<const Param<WorldDef>> keys();  // solver.vorticity

    std::vector<Vorticity<D>> omega;  //!< ω of the last step, 1/s (2D: its z component)

    explicit VorticityConfinement(const FluidConstants<D>&) {}
    void apply(StepContext<D>& c, ForceStageArgs& args);
};

}  // namespace seiche
