// The one list of forces besides pressure. Each line names a force once: its key in the world's
// Forces and its class template (parameters' keys, traits with its stage, scratch, apply()).
// The world's parameter table takes their keys in this order, and each stage runs its forces in
// this order. Adding a force: its own files (docs/architecture.md) and one line here.
#pragma once

#include "seiche/forces.hpp"
#include "seiche/surface_tension.hpp"

// X(id, Class)
#define SEICHE_FORCES(X)                \
    X(xsph, XsphViscosity)              \
    X(vorticity, VorticityConfinement)  \
    X(surface_tension, SurfaceTension)

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
