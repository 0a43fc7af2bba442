// Laminar viscosity — Morris, Fox & Zhu 1997, eq. (8): the fluid's kinematic viscosity ν between
// fluid particles, and between the fluid and the boundary particles of Akinci et al. 2012 (their
// volumes V_k in place of m_j/ρ_j; eq. 11 there is the artificial form of the same pair force),
// each boundary particle moving with its object, so the walls hold the fluid back (no-slip in the
// limit). The fluid's pairs are explicit (the step is bounded for them, World::next_dt); the
// walls' are implicit per particle, stable at any step: their velocities are known, so each fluid
// particle's new velocity is one division. ν = 0 (the default) keeps the fluid inviscid and the
// walls free-slip. solver.smagorinsky > 0 adds an eddy viscosity ν_t per particle to both
// (eddy_viscosity_pass); solver.wall_function the log law's turbulent shear on the layer next to
// each wall (wall_function_pass).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "seiche/forces.hpp"
#include "seiche/sph.hpp"
#include "seiche/vec.hpp"

namespace seiche {

// Morris et al. 1997 (sec. 2.3): the wall's particles carry velocities that continue the fluid's
// through the wall's face, zero relative to the wall there: u_k − u_wall = −(d_k/d_i)(v_i − u_wall)
// with d_i, d_k the distances of i and k from the face, so the pair sees v_i − u_k =
// (1 + d_k/d_i)(v_i − u_wall), the factor at most 1.5 (theirs, for a particle that comes close).
// Without it the wall's particles stand still and the no-slip plane lies half a spacing behind
// the face.
inline float mirror_factor(float d_i, float depth_k) {
    return d_i > 2.0f * depth_k ? 1.0f + depth_k / d_i : 1.5f;
}

// d_i, fluid particle i's distance from the face of its boundary neighbours' object, for the
// neighbours k in turn (objects[object_of[k]]), each object's distance taken once per run of its
// particles in the list.
template <int D>
struct FaceDistance {
    std::span<const BoundaryObject<D>> objects;
    std::span<const std::uint32_t> object_of;
    Vec<D> x;  // of particle i
    std::uint32_t object = ~0u;
    float d = 0.0f;
    float operator()(std::uint32_t k) {
        if (object_of[k] != object) {
            object = object_of[k];
            d = objects[object].signed_distance(x);
        }
        return d;
    }
};

// The step the explicit pair term is stable at: Δt ≤ 0.125 d²/ν, d = 2r the spacing (Morris et
// al. 1997, eq. 11, with their h the spacing); unbounded (a very large value) for ν = 0.
double viscous_step_bound(double nu, double particle_radius);

// The fluid's pairs: a_i = 2ν Σ_j m ρ0/(ρ_i ρ_j) (x_ij·∇W_ij)/(|x_ij|² + 0.01 h²) v_ij,
// antisymmetric in i and j (momentum is kept). Morris's form, not Monaghan's (v_ij·x_ij) x_ij:
// on a square lattice sheared along an axis that one reads two thirds of ν (its fourth moment
// of the lattice is not isotropic), Morris's second moment within 2%. Reads v and rho, adds
// Δt·a_i to v_out, eight particles at a time (pair_lanes.hpp).
// With an eddy viscosity (eddy: ν_t per particle, empty: none) a pair carries
// ν + (ν_t,i + ν_t,j)/2. records: filled by the caller (velocity_records).
template <int D, class K>
void viscosity_fluid_pass(const FluidView<D>& f, const K& kernel, float nu, float dt,
                          std::span<const Vec<D>> v, std::span<Vec<D>> v_out,
                          std::span<const Float4> records, std::span<const float> eddy);

// The eddy viscosity of Smagorinsky 1963 as Dalrymple & Rogers 2006's sub-particle-scale model,
// per particle: ν_t,i = min((C_s h)² |S_i|, cap), |S| = √(2 S:S) of the SPH strain rate
// (src/forces/eddy_viscosity.cpp). cap keeps the explicit pairs stable at the step (0.125 d²/Δt
// less ν: a bound, not a model). records: velocity and 1/ρ (velocity_records).
// The walls take part in S as in the wall pass: their particles carry the fluid's velocity
// continued through the face (mirror_factor; wall_velocity empty: every wall at rest).
template <int D, class K>
void eddy_viscosity_pass(const FluidView<D>& f, const K& kernel, float smagorinsky, float cap,
                         std::span<const Float4> records, std::span<const Vec<D>> v,
                         std::span<const Vec<D>> wall_velocity, std::span<const float> depth,
                         std::span<const std::uint32_t> object_of, std::span<float> eddy);

// The walls: v_i ← v_i + Δt a_i(v_i) at the new velocity, with
//   a_i = 2ν Σ_k V_k (x_ik·∇W_ik)/(|x_ik|² + 0.01 h²) (v_i − u_k) = −Σ_k β_ik (v_i − u_k),
// u_k the boundary particle's velocity (empty: every wall at rest), β_ik ≥ 0:
// (1 + Δt Σ β_ik) v_i' = v_i + Δt Σ β_ik u_k.
// depth: d_k ≥ 0, each boundary particle's distance behind its object's face; object_of: the
// object (index into f.objects) it belongs to (wall_depths). β_ik carries Morris et al.'s factor
// min(1 + d_k/d_i, 1.5) (the wall's particles continue the fluid's velocity through the face);
// with an eddy viscosity (eddy not empty) ν + ν_t,i.
template <int D, class K>
void viscosity_wall_pass(const FluidView<D>& f, const K& kernel, float nu, float dt,
                         std::span<const Vec<D>> wall_velocity, std::span<const float> depth,
                         std::span<const std::uint32_t> object_of, std::span<Vec<D>> v,
                         std::span<const float> eddy);

// The log law of the wall (Launder & Spalding 1974): u/u_τ = ln(E y u_τ/ν)/κ above the viscous
// sublayer, y u_τ/ν > 11.06, where the two laws meet.
inline constexpr struct {
    float kappa = 0.41f;
    float e = 9.8f;
    float sublayer_edge = 11.06f;
} wall_log_law;

// u_τ (m/s) of a flow sliding at `speed` past a smooth wall at distance y (m), ν in m²/s: the log
// law's root above the sublayer, √(ν speed/y) in it; 0 for a speed, y or ν that is not positive.
float friction_velocity(float speed, float y, float nu);

// What the wall function did to one fluid particle: its velocity change, the object whose wall
// it slid along (none: not in a first layer, or in the viscous sublayer) and the sum of V_k W_ik
// over that object's boundary neighbours (the reaction's weights).
template <int D>
struct WallShear {
    static constexpr std::uint32_t none = ~0u;
    Vec<D> dv{0.0f};
    float weight = 0.0f;
    std::uint32_t object = none;
};

// solver.wall_function: on each fluid particle of a first layer (centre within 2r of the nearest
// object's face, among its boundary neighbours' objects) whose slip along the face (its velocity
// less the wall's there, normal part removed) puts it in the log region, the wall's shear
// τ_w = ρ u_τ² over the layer's mass per area ρ·2r: (1 + Δt u_τ²/(2r U)) v_t' = v_t, implicit, so
// it only slows the slip. Added to v (after viscosity_wall_pass); each particle's record in
// `shear` (size: the fluid's). wall_velocity: u_k per boundary particle (empty: at rest).
template <int D, class K>
void wall_function_pass(const FluidView<D>& f, const K& kernel, float nu, float dt,
                        std::span<const Vec<D>> wall_velocity,
                        std::span<const std::uint32_t> object_of, std::span<Vec<D>> v,
                        std::span<WallShear<D>> shear);

// Each boundary particle's depth behind its object's face (m, ≥ 0) and its object's index.
template <int D>
void wall_depths(std::span<const BoundaryObject<D>> objects, std::span<const Vec<D>> bx,
                 std::vector<float>& depth, std::vector<std::uint32_t>& object_of);

// The laminar viscosity as a force of the list: ν = solver.kinematic_viscosity, m²/s. With the
// world tracking boundary forces, the walls' friction on every boundary particle, N.
template <int D>
struct LaminarViscosity {
    static constexpr ForceTraits traits{"viscosity",
                                        "Morris, Fox & Zhu 1997, eq. 8; Akinci et al. 2012, eq. 11",
                                        ForceStage::non_pressure};
    static std::span<const Param<WorldDef>> keys();  // solver.kinematic_viscosity, .smagorinsky,
                                                     // .wall_function

    std::vector<Float4> records;         //!< velocity and 1/ρ per particle
    std::vector<Vec<D>> wall_velocity;   //!< u_k per boundary particle (moving objects only)
    std::vector<Vec<D>> boundary_force;  //!< of the friction on each boundary particle, N
    std::vector<float> depth;             //!< d_k behind its object's face, m (wall_depths)
    std::vector<std::uint32_t> object_of;  //!< its object's index
    std::vector<float> eddy;             //!< ν_t per particle, m²/s (solver.smagorinsky > 0)
    std::vector<WallShear<D>> wall_shear;  //!< per particle (solver.wall_function)

    explicit LaminarViscosity(const FluidConstants<D>&) {}
    void apply(StepContext<D>& c, ForceStageArgs& args);

  private:
    void reaction(StepContext<D>& c, float nu, bool moving, std::span<const Vec<D>> dv,
                  std::span<const float> eddy, std::span<const WallShear<D>> shear);
};

}  // namespace seiche
