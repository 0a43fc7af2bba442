// The stages every solver's step is made of (StepContext names them): external accelerations,
// prediction, neighbour search with the Z-curve reorder, collisions through the boundary objects,
// last-resort containment and velocities from positions, the forces of seiche/force_list.hpp at
// their stages, density.
#include "seiche/world.hpp"

#include <bit>
#include <cmath>

namespace seiche {

// ---- the shared stages ----

template <int D>
void World<D>::predict_positions(float dt) {
    parallel_for(p_.size(), [&](std::size_t i) {
        p_.x_prev[i] = p_.x[i];
        p_.x[i] += dt * p_.v[i];
    });
}

template <int D>
void World<D>::find_neighbors() {
    // Static objects keep the grid built once (unless one of them was moved through
    // set_object_pose); moving bodies are re-binned every step.
    const std::span<const Vec<D>> bx(b_.x);
    if (fixed_moves_) boundary_grid_.build(bx.first(first_moving_), fluid_.h);
    const bool bodies_move = first_moving_ < b_.x.size();
    if (bodies_move) {
        moving_grid_.build(bx.subspan(first_moving_), fluid_.h);
        moving_grid_.mark_neighbourhoods();
    }
    if (domain_) {
        // Particles cross to the processes that own their cells; the halo comes in.
        domain_->exchange(p_);
        particles_resized();
        if (track_forces_) {  // the collision log, one entry per particle here now
            collision_push_.assign(p_.size(), Vec<D>(0.0f));
            collision_object_.assign(p_.size(), no_object);
        }
    }
    fluid_grid_.build(p_.x, fluid_.h, p_.id);
    // Keep particles in the grid's Z-curve order so that neighbours are near in memory.
    p_.reorder(fluid_grid_.order(), v_scratch_, f_scratch_, id_scratch_);
    if (domain_) domain_->reordered(fluid_grid_.order());
    fluid_grid_.points_were_sorted();
    // Room for one more position, so that the pair loops may read a float past the last one
    // (FluidView::x_padded). The reorder has just swapped the buffers, so nothing points into
    // this one; after a few steps every buffer that takes its turn as x has the room.
    if (p_.x.capacity() == p_.x.size()) p_.x.reserve(p_.x.size() + 1);
    // A split run's halo copies get no fluid neighbours (their values come from their owners;
    // their boundary lists stay: the reactions on the walls gather over them).
    build_neighbor_list_by_cell<D>(fluid_grid_, p_.x, fluid_grid_, true, fluid_nb_, nullptr, 0,
                                   domain_ ? domain_->halo() : std::span<const std::uint8_t>{});
    build_neighbor_list_by_cell<D>(fluid_grid_, p_.x, boundary_grid_, false, boundary_nb_,
                                   bodies_move ? &moving_grid_ : nullptr,
                                   static_cast<std::uint32_t>(first_moving_));
    reaction_current_ = false;
}

template <int D>
void World<D>::collide() {
    collide_with_objects<D>(p_.x, objects_, p_.radius, view().collisions);
}

template <int D>
void World<D>::contain_and_update_velocities(float dt, StepStats& s) {
    // The containment and the velocities in one loop (one wait for the threads, not two).
    // v ← v + (x − x̃)/Δt with x̃ = x_prev + Δt·v the prediction, the same as (x − x_prev)/Δt
    // but without the rounding of Δt·v into x: that formula's velocities come in steps of
    // ulp(x)/Δt (1.5 mm/s at 1 m and a step of 0.08 ms), and a change of v smaller than half a
    // step, as a viscosity makes, was lost. Only the solver's and the collisions' moves are
    // differences of positions now.
    const float inv_dt = 1.0f / dt;
    std::size_t moved = contain_in_objects<D>(
        p_.x, objects_, 1.0e-3f * p_.radius, view().collisions,
        [&](std::size_t i) {
            const Vec<D> predicted = p_.x_prev[i] + dt * p_.v[i];
            p_.v[i] += (p_.x[i] - predicted) * inv_dt;
        },
        domain_ ? domain_->halo() : std::span<const std::uint8_t>{});
    if (domain_) {
        std::array<std::int64_t, 1> n = {std::int64_t(moved)};
        domain_->sum(n);
        moved = std::size_t(n[0]);
    }
    s.contained = moved;
    total_contained_ += s.contained;
}

template <int D>
void World<D>::measure_density(StepStats& s) {
    density_error_stats(p_.rho, fluid_.rest_density, s.density_error_mean, s.density_error_max,
                        domain_.get());
}

// ---- StepContext: the stages by name ----

template <int D>
ParticleSet<D>& StepContext<D>::particles() {
    return w_.p_;
}
template <int D>
const AnyKernel<D>& StepContext<D>::kernel() const {
    return w_.fluid_.kernel;
}
template <int D>
FluidView<D> StepContext<D>::view() const {
    return w_.view();
}
template <int D>
const WorldDef& StepContext<D>::definition() const {
    return w_.def_;
}
template <int D>
float StepContext<D>::bound_share() const {
    if (w_.def_.time.mode == TimeParams::Mode::fixed) return 1.0f;
    const double flow = std::isnan(flow_) ? w_.flow_step() : flow_;  // the driver's, if given
    return static_cast<float>(w_.viscous_bounded(flow) / flow);
}
template <int D>
float StepContext<D>::leftover_share() const {
    // cfl_step is at most max_dt: a step of half of that needs no look at the speeds.
    if (2.0 * double(dt_) >= max_dt(w_.def_)) return 1.0f;
    const double flow = std::isnan(flow_) ? w_.cfl_step() : flow_;
    return static_cast<float>(std::min(1.0, 2.0 * double(dt_) / flow));
}
template <int D>
bool StepContext<D>::first_step() const {
    return w_.steps() == 0;
}
template <int D>
std::vector<Vec<D>>& StepContext<D>::velocity_scratch() {
    return w_.v_scratch_;
}
template <int D>
std::vector<float>& StepContext<D>::density_scratch() {
    return w_.f_scratch_;
}
template <int D>
Vec<D> StepContext<D>::external_acceleration() const {
    return w_.gravity_;
}
template <int D>
void StepContext<D>::apply_external_accelerations() {
    // Δt·a rounded once, outside the loop: as dt * a inside it, a vectorised loop hoists the
    // product and its scalar remainder fuses it into the addition, so a particle's velocity
    // depended on where it was stored.
    const Vec<D> dv = dt_ * external_acceleration();
    ParticleSet<D>& p = w_.p_;
    parallel_for(p.size(), [&](std::size_t i) { p.v[i] += dv; });
}
template <int D>
void StepContext<D>::apply_non_pressure_forces(bool predicted) {
    w_.timed(&StageTimes::velocity, [&] {
        ForceStageArgs args;
        args.predicted = predicted;
        w_.forces_.run(ForceStage::non_pressure, *this, args);
        if (!predicted || !args.velocities_changed) return;
        // The prediction again, as predict() makes it (not x += Δt·Δv: a change of v whose Δt·Δv
        // is below half an ulp of x would be lost there, and contain_and_update_velocities
        // takes the solver's move from this x).
        ParticleSet<D>& p = w_.p_;
        const float dt = dt_;
        parallel_for(p.size(), [&](std::size_t i) { p.x[i] = p.x_prev[i] + dt * p.v[i]; });
    });
}
template <int D>
void StepContext<D>::predict() {
    w_.predict_positions(dt_);
}
template <int D>
void StepContext<D>::accelerate_and_predict() {
    const Vec<D> dv = dt_ * external_acceleration();  // rounded once, as in the two stages
    const float dt = dt_;
    ParticleSet<D>& p = w_.p_;
    parallel_for(p.size(), [&](std::size_t i) {
        p.v[i] += dv;
        p.x_prev[i] = p.x[i];
        p.x[i] += dt * p.v[i];
    });
}
template <int D>
void StepContext<D>::find_neighbors() {
    w_.timed(&StageTimes::neighbors, [&] { w_.find_neighbors(); });
}
template <int D>
void StepContext<D>::collide() {
    w_.collide();
}
template <int D>
void StepContext<D>::contain_and_update_velocities() {
    w_.contain_and_update_velocities(dt_, stats_);
}
template <int D>
void StepContext<D>::post_velocity() {
    w_.timed(&StageTimes::velocity, [&] {
        ForceStageArgs args;
        w_.forces_.run(ForceStage::velocity_filter, *this, args);
    });
}
template <int D>
void StepContext<D>::post_velocity_and_density(std::span<Float4> scratch) {
    w_.timed(&StageTimes::velocity, [&] {
        ForceStageArgs args;
        args.density_pending = true;
        args.lent = scratch;
        w_.forces_.run(ForceStage::velocity_filter, *this, args);
        settle_density(args);
    });
    w_.measure_density(stats_);
}
template <int D>
void StepContext<D>::settle_density(ForceStageArgs& args) {
    if (!args.density_pending) return;
    compute_density();
    args.density_pending = false;
}
template <int D>
void StepContext<D>::compute_density() {
    std::visit([&](const auto& k) { seiche::compute_density<D>(w_.view(), k, w_.p_.rho); },
               w_.fluid_.kernel);
    refresh_halo(processes(), std::span<float>(w_.p_.rho));
}
template <int D>
Processes* StepContext<D>::processes() const {
    return w_.domain_.get();
}
template <int D>
void StepContext<D>::measure_density() {
    w_.measure_density(stats_);
}

template <int D>
bool StepContext<D>::tracking_boundary_forces() const {
    return w_.track_forces_;
}

template <int D>
ReactionLists<D> StepContext<D>::reaction_lists() {
    if (!w_.reaction_current_) w_.transpose_boundary_neighbors();
    w_.reaction_current_ = true;
    return {w_.reaction_offset_, w_.reaction_fluid_, w_.p_.x,         w_.b_.x,
            w_.b_.force,          w_.b_.face_force,  w_.b_.face_plane, w_.b_.face_side};
}

template <int D>
void StepContext<D>::share_boundary_values(std::span<float> values) {
    if (!w_.domain_) return;
    // The owner's bits, the others' zeros: an integer sum is the owner's value exactly.
    std::vector<std::int64_t> bits(values.size(), 0);
    for (std::size_t k = 0; k < values.size(); ++k)
        if (w_.domain_->owns(w_.b_.x[k])) bits[k] = std::bit_cast<std::uint32_t>(values[k]);
    w_.domain_->sum(bits);
    for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = std::bit_cast<float>(static_cast<std::uint32_t>(bits[k]));
}

template class StepContext<2>;
template class StepContext<3>;

template void World<2>::predict_positions(float);
template void World<3>::predict_positions(float);
template void World<2>::find_neighbors();
template void World<3>::find_neighbors();
template void World<2>::collide();
template void World<3>::collide();
template void World<2>::contain_and_update_velocities(float, StepStats&);
template void World<3>::contain_and_update_velocities(float, StepStats&);
template void World<2>::measure_density(StepStats&);
template void World<3>::measure_density(StepStats&);

}  // namespace seiche
