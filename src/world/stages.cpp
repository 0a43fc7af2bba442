// The stages every solver's step is made of (StepContext names them): external accelerations,
// prediction, neighbour search with the Z-curve reorder, collisions through the boundary objects,
// last-resort containment and velocities from positions, the post-velocity effects (XSPH,
// Schechter & Bridson 2012; vorticity confinement, Macklin & Müller 2013 eqs. 15–16), density.
#include "seiche/world.hpp"

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
    fluid_grid_.build(p_.x, fluid_.h);
    // Keep particles in the grid's Z-curve order so that neighbours are near in memory.
    p_.reorder(fluid_grid_.order(), v_scratch_, f_scratch_, id_scratch_);
    fluid_grid_.points_were_sorted();
    // Room for one more position, so that the pair loops may read a float past the last one
    // (FluidView::x_padded). The reorder has just swapped the buffers, so nothing points into
    // this one; after a few steps every buffer that takes its turn as x has the room.
    if (p_.x.capacity() == p_.x.size()) p_.x.reserve(p_.x.size() + 1);
    build_neighbor_list_by_cell<D>(fluid_grid_, p_.x, fluid_grid_, true, fluid_nb_);
    build_neighbor_list_by_cell<D>(fluid_grid_, p_.x, boundary_grid_, false, boundary_nb_,
                                   bodies_move ? &moving_grid_ : nullptr,
                                   static_cast<std::uint32_t>(first_moving_));
}

template <int D>
void World<D>::collide() {
    collide_with_objects<D>(p_.x, objects_, p_.radius, view().collisions);
}

template <int D>
void World<D>::contain_and_update_velocities(float dt, StepStats& s) {
    // The containment and the velocities in one loop (one wait for the threads, not two).
    const float inv_dt = 1.0f / dt;
    const std::size_t moved = contain_in_objects<D>(
        p_.x, objects_, 1.0e-3f * p_.radius, view().collisions,
        [&](std::size_t i) { p_.v[i] = (p_.x[i] - p_.x_prev[i]) * inv_dt; });
    s.contained = moved;
    total_contained_ += s.contained;
}

template <int D>
void World<D>::post_velocity(float dt, bool density, std::span<Float4> lent) {
    const FluidView<D> f = view();
    const double xsph = def_.solver.xsph_or_default();
    std::span<Float4> records = lent;
    if (xsph > 0.0 && records.size() < p_.size()) {
        record_scratch_.resize(p_.size());
        records = record_scratch_;
    }
    std::visit(
        [&](const auto& kernel) {
            if (xsph > 0.0 && density) {
                f_scratch_.resize(p_.size());
                xsph_viscosity_and_density<D>(f, kernel, static_cast<float>(xsph), p_.rho, p_.v,
                                              v_scratch_, f_scratch_, records);
                p_.v.swap(v_scratch_);
                p_.rho.swap(f_scratch_);
            } else {
                if (density) seiche::compute_density<D>(f, kernel, p_.rho);
                if (xsph > 0.0) {
                    xsph_viscosity<D>(f, kernel, static_cast<float>(xsph), p_.rho, p_.v,
                                      v_scratch_, records);
                    p_.v.swap(v_scratch_);
                }
            }
            if (def_.solver.vorticity > 0.0)
                vorticity_confinement<D>(f, kernel, static_cast<float>(def_.solver.vorticity), dt,
                                         p_.rho, p_.v, omega_);
        },
        fluid_.kernel);
}

template <int D>
void World<D>::surface_forces(float dt, bool predicted) {
    const float gamma = static_cast<float>(def_.solver.surface_tension);
    bool adhesion = false;
    for (const auto& o : objects_) adhesion = adhesion || o.adhesion > 0;
    adhesion_force_.clear();
    if (!(gamma > 0) && !adhesion) return;
    const std::size_t n = p_.size();
    surface_normal_.resize(gamma > 0 ? n : 0);
    surface_x_rho_.resize(gamma > 0 ? n : 0);
    surface_acceleration_.resize(n);
    adhesion_weight_.clear();
    if (adhesion) {
        // ψ_k = ρ0 V_k (Akinci et al. 2012, eq. 5), with the object's β.
        adhesion_weight_.assign(b_.x.size(), 0.0f);
        for (const auto& o : objects_)
            for (std::size_t k = o.first; k < o.first + o.count; ++k)
                adhesion_weight_[k] = o.adhesion * fluid_.rest_density * b_.volume[k];
    }
    const FluidView<D> f = view();
    const SurfaceKernels<D>& sk = surface_kernels_;
    std::visit(
        [&](const auto& kernel) {
            surface_accelerations<D>(f, kernel, sk, gamma, adhesion_weight_, p_.rho,
                                     surface_x_rho_, surface_normal_, surface_acceleration_);
        },
        fluid_.kernel);
    if (track_forces_ && adhesion) {
        // Newton's third law on eq. (6): boundary particle k is pulled towards each fluid
        // particle i by m β_k ψ_k A(|x_ik|) x̂_ik — at the positions the fluid's side used,
        // before they move: A(r) rises as a fourth root from r = h/2, where a particle resting
        // on a wall sits, and a 0.2 mm shift there changed the sum by a quarter.
        transpose_boundary_neighbors();
        adhesion_force_.assign(b_.x.size(), Vec<D>(0.0f));
        const float m = p_.mass;
        parallel_for(b_.x.size(), [&](std::size_t k) {
            Vec<D> sum(0.0f);
            for (std::uint32_t e = reaction_offset_[k]; e < reaction_offset_[k + 1]; ++e) {
                const Vec<D> r = p_.x[reaction_fluid_[e]] - b_.x[k];
                const float len = glm::length(r);
                if (len > 0) sum += (m * adhesion_weight_[k] * sk.adhesion(len) / len) * r;
            }
            adhesion_force_[k] = sum;
        });
    }
    const Vec<D>* a = surface_acceleration_.data();
    const float dt2 = predicted ? dt * dt : 0.0f;
    parallel_for(n, [&](std::size_t i) {
        p_.v[i] += dt * a[i];
        p_.x[i] += dt2 * a[i];
    });
}

template <int D>
void World<D>::measure_density(StepStats& s) {
    density_error_stats(p_.rho, fluid_.rest_density, s.density_error_mean, s.density_error_max);
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
Vec<D> StepContext<D>::external_acceleration() const {
    return w_.gravity_;
}
template <int D>
void StepContext<D>::apply_external_accelerations() {
    const Vec<D> a = external_acceleration();
    const float dt = dt_;
    ParticleSet<D>& p = w_.p_;
    parallel_for(p.size(), [&](std::size_t i) { p.v[i] += dt * a; });
}
template <int D>
void StepContext<D>::apply_surface_forces(bool predicted) {
    w_.timed(&StageTimes::velocity, [&] { w_.surface_forces(dt_, predicted); });
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
    w_.timed(&StageTimes::velocity, [&] { w_.post_velocity(dt_, false, {}); });
}
template <int D>
void StepContext<D>::post_velocity_and_density(std::span<Float4> scratch) {
    w_.timed(&StageTimes::velocity, [&] { w_.post_velocity(dt_, true, scratch); });
    w_.measure_density(stats_);
}
template <int D>
void StepContext<D>::compute_density() {
    std::visit([&](const auto& k) { seiche::compute_density<D>(w_.view(), k, w_.p_.rho); },
               w_.fluid_.kernel);
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
    w_.transpose_boundary_neighbors();
    return {w_.reaction_offset_, w_.reaction_fluid_, w_.p_.x, w_.b_.x, w_.b_.force};
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
template void World<2>::post_velocity(float, bool, std::span<Float4>);
template void World<3>::post_velocity(float, bool, std::span<Float4>);
template void World<2>::surface_forces(float, bool);
template void World<3>::surface_forces(float, bool);
template void World<2>::measure_density(StepStats&);
template void World<3>::measure_density(StepStats&);

}  // namespace seiche
