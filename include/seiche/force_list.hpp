// The one list of forces besides pressure. Each line names a force once: its key in the world's
// Forces and its class template (parameters' keys, traits with its stage, scratch, apply()).
// The world's parameter table takes their keys in this order, and each stage runs its forces in
// this order. Adding a force: its own files (docs/architecture.md) and one line here.
#pragma once

#include "seiche/forces.hpp"
#include "seiche/surface_tension.hpp"
#include "seiche/laminar_viscosity.hpp"

// X(id, Class)
#define SEICHE_FORCES(X)                \
    X(xsph, XsphViscosity)              \
    X(vorticity, VorticityConfinement)  \
    X(surface_tension, SurfaceTension)  \
    X(viscosity, LaminarViscosity)

namespace seiche {

template <int D>
struct Forces {
#define SEICHE_FORCE_MEMBER(id, Class) Class<D> id;
    SEICHE_FORCES(SEICHE_FORCE_MEMBER)
#undef SEICHE_FORCE_MEMBER

    // The forces of one stage, in the list's order.
    void run(ForceStage stage, StepContext<D>& c, ForceStageArgs& args) {
#define SEICHE_FORCE_RUN(id, Class) \
    if (Class<D>::traits.stage == stage) id.apply(c, args);
        SEICHE_FORCES(SEICHE_FORCE_RUN)
#undef SEICHE_FORCE_RUN
    }

    // fn(forces) for each force that left a reaction on the boundary particles this step
    // (`boundary_force`, N per boundary particle), in the list's order.
    template <class Fn>
    void for_each_boundary_force(Fn&& fn) const {
#define SEICHE_FORCE_REACTION(id, Class)                   \
    if constexpr (requires { id.boundary_force; })         \
        if (!id.boundary_force.empty()) fn(id.boundary_force);
        SEICHE_FORCES(SEICHE_FORCE_REACTION)
#undef SEICHE_FORCE_REACTION
    }
};

// Every force of the list, for this fluid.
template <int D>
Forces<D> make_forces(const FluidConstants<D>& fluid) {
    return Forces<D>{
#define SEICHE_FORCE_MAKE(id, Class) Class<D>(fluid),
        SEICHE_FORCES(SEICHE_FORCE_MAKE)
#undef SEICHE_FORCE_MAKE
    };
}

}  // namespace seiche
