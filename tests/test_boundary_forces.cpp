// The fluid's force on boundary objects (Akinci et al. 2012 boundary particles): a tank at rest
// presses on its container with its weight, and a box held under water feels ρ0·g·V upwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "seiche/measure.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

// A 2D tank 0.6 m wide, water 0.5 m deep, around a fixed 0.2 m × 0.2 m box whose top is 0.2 m
// under the surface. The fluid is given as four blocks around the box (fluid may not start
// inside a solid), all on one lattice. The box is 20 particle spacings wide: the boundary layer
// makes the fluid see it about a fifth of a spacing larger on every side, +7% of buoyancy at 10
// spacings (r = 5 mm, a 0.1 m box: PBF +5.7%, WCSPH +7.0% before its boundary pressure had the
// hydrostatic step, DDR +7.8%), +0.5% at 20 (PBF, r = 2.5 mm); this 0.2 m box at r = 5 mm:
// PBF +0.15% (+1.34% before its reaction was taken where its push was), WCSPH +0.25%, DDR +7.5%.
WorldDef tank_with_box(SolverType solver) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.6, 0.7, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.2, 0.5, 0}, {}},
                 {{0.4, 0.0, 0}, {0.6, 0.5, 0}, {}},
                 {{0.2, 0.0, 0}, {0.4, 0.1, 0}, {}},
                 {{0.2, 0.3, 0}, {0.4, 0.5, 0}, {}}};
    def.obstacles = {{{0.2, 0.1, 0}, {0.4, 0.3, 0}}};
    def.solver.type = solver;
    return def;
}

// The same tank around a plate two spacings thick, [0.2, 0.22] × [0.1, 0.3]: water on both
// sides, its middle 0.2 m under the surface.
WorldDef tank_with_plate(SolverType solver) {
    WorldDef def = tank_with_box(solver);
    def.fluid = {{{0.0, 0.0, 0}, {0.2, 0.5, 0}, {}},
                 {{0.22, 0.0, 0}, {0.6, 0.5, 0}, {}},
                 {{0.2, 0.0, 0}, {0.22, 0.1, 0}, {}},
                 {{0.2, 0.3, 0}, {0.22, 0.5, 0}, {}}};
    def.obstacles = {{{0.2, 0.1, 0}, {0.22, 0.3, 0}}};
    return def;
}

struct Averages {
    Vec<2> container{0.0f}, box{0.0f};
    double box_torque = 0;  // about the origin, N (N·m per metre of depth)
    double weight = 0;  // N/m: the fluid's mass per metre of depth times g
};

Averages settle_and_average(SolverType solver, double settle, double window) {
    World<2> w(tank_with_box(solver));
    w.track_boundary_forces(true);
    EXPECT_EQ(w.advance_to(settle).status, AdvanceResult::Status::reached);
    Averages a;
    double time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        a.container += float(s.dt) * w.boundary_objects()[0].force;
        a.box += float(s.dt) * w.boundary_objects()[1].force;
        a.box_torque += s.dt * w.boundary_objects()[1].torque;
        time += s.dt;
        return true;
    };
    EXPECT_EQ(w.advance_to(settle + window, o).status, AdvanceResult::Status::reached);
    a.container /= float(time);
    a.box /= float(time);
    a.box_torque /= time;
    a.weight = double(w.particles().size()) * w.particles().mass * 9.81;
    return a;
}

// Each sensor's reading (Boundary::face_force and the contacts) averaged over the steps from
// `settle` to `end`, s: what the obstacle and plate tests compare with ρ0 g (H − y).
std::vector<double> mean_pressures(World<2>& w, const std::vector<WallSensor<2>>& sensors,
                                   double settle, double end) {
    EXPECT_EQ(w.advance_to(settle).status, AdvanceResult::Status::reached);
    std::vector<double> sum(sensors.size(), 0.0);
    double time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        for (std::size_t i = 0; i < sensors.size(); ++i)
            sum[i] += st.dt * sensors[i].pressure(w.boundary().face_force, w.particles().x,
                                                  w.contact_forces(), w.contact_objects());
        time += st.dt;
        return true;
    };
    EXPECT_EQ(w.advance_to(end, o).status, AdvanceResult::Status::reached);
    for (double& v : sum) v /= time;
    return sum;
}

class BoundaryForces : public ::testing::TestWithParam<SolverType> {};

TEST_P(BoundaryForces, ContainerCarriesTheWeightAndTheBoxFeelsBuoyancy) {
    const SolverType solver = GetParam();
    const Averages a = settle_and_average(solver, 1.0, 0.5);
    const double buoyancy = 1000.0 * 9.81 * 0.2 * 0.2;  // ρ0 g V, N/m
    std::printf("%s: container (%.2f, %.2f) N/m, weight %.2f; box (%.3f, %.3f) N/m, ρ0gV %.3f\n",
                std::string(solver_name(solver)).c_str(), a.container.x, a.container.y, a.weight,
                a.box.x, a.box.y, buoyancy);
    // The floor carries ρgH over its width: the water's weight and, through the water, the
    // reaction of the box's buoyancy (the box is held by something else).
    EXPECT_NEAR(-a.container.y, a.weight + a.box.y, 0.03 * a.weight);
    // 8% for every solver but DDR. WCSPH measured +3.8% in the Release build and +5.6% in the
    // ASan + UBSan build with its former mirrored boundary pressure, +0.25% since the wall's
    // pressure has its hydrostatic step. DDR's settled packing reads +1.7% to +6.9% over 16 runs
    // with g changed by 1e-6 steps (2026-11-30; its default run once read +7.5%), and the
    // rounding of the pair loops' √ on AVX2 moved the default run to +8.3% (16 runs: −2.6% to
    // +8.3%): 10% for DDR, which has no pressure of its own.
    const double tolerance = GetParam() == SolverType::ddr ? 0.10 : 0.08;
    EXPECT_NEAR(a.box.y, buoyancy, tolerance * buoyancy);
    // Symmetric: no net sideways push. 2% for every solver but DDR, whose packing, settled from
    // the lattice, holds shear: over 8 runs with g changed by 1e-6 steps it read −1.5% to +1.5%
    // with a step halved before every sample time, −2.4% (the default run) to +1.4% with the
    // steps even (2026-12-07): 3% for DDR.
    EXPECT_NEAR(a.box.x, 0.0, (GetParam() == SolverType::ddr ? 0.03 : 0.02) * buoyancy);
    // Buoyancy acts through the box's centre (0.3, 0.2): torque about the origin x_c·F_y.
    EXPECT_NEAR(a.box_torque, 0.3 * a.box.y, 0.03 * 0.3 * a.box.y);
}

// 0.3 m of water at rest in a 2D tank 0.6 m wide, particles of radius 5 mm.
WorldDef tank_at_rest(SolverType solver) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.6, 0.5, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.6, 0.3, 0}, {}}};
    def.solver.type = solver;
    return def;
}

// Without the box: the floor (the container's only vertical load) carries the water's weight.
TEST_P(BoundaryForces, ContainerCarriesTheWeightOfATankAtRest) {
    World<2> w(tank_at_rest(GetParam()));
    w.track_boundary_forces(true);
    w.advance_to(1.0);
    Vec<2> force(0.0f);
    double time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        force += float(s.dt) * w.boundary_objects()[0].force;
        time += s.dt;
        return true;
    };
    w.advance_to(1.5, o);
    force /= float(time);
    const double weight = double(w.particles().size()) * w.particles().mass * 9.81;
    std::printf("%s: container (%.2f, %.2f) N/m, weight %.2f N/m\n",
                std::string(solver_name(GetParam())).c_str(), force.x, force.y, weight);
    EXPECT_NEAR(-force.y, weight, 0.03 * weight);
    EXPECT_NEAR(force.x, 0.0, 0.01 * weight);  // the side walls' pushes cancel
}

// The pitch of a boundary lattice along `axis`: the commonest gap between its distinct
// coordinates (walls are stretched to fit their faces: not quite the spacing d).
template <int D>
float lattice_pitch(std::span<const Vec<D>> bx, std::size_t first, std::size_t count, int axis) {
    std::vector<float> c;
    for (std::size_t k = first; k < first + count; ++k) c.push_back(bx[k][axis]);
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    std::vector<float> gaps;
    for (std::size_t i = 1; i < c.size(); ++i) gaps.push_back(c[i] - c[i - 1]);
    std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
    return gaps[gaps.size() / 2];
}

// A sensor reads the pressure a force field on the wall's particles stands for: each particle
// behind the face carrying p(y) × its share of the wall (the lattice's pitch per layer, 2D), p
// linear in y, the sensor reads p at its centre, on either face; a sensor counting one layer's
// force or both layers' area would read half.
TEST(WallSensor, ReadsThePressureOfAForceFieldOnTheWall) {
    World<2> w(tank_at_rest(SolverType::pbf));
    const auto& bx = w.boundary().x;
    const float pitch = lattice_pitch<2>(bx, 0, w.boundary_objects()[0].count, 1);
    EXPECT_NEAR(pitch, 0.01f, 0.0002f);
    const auto p = [](float y) { return 1000.0f * (0.4f - y); };
    for (float side : {-1.0f, 1.0f}) {
        std::vector<Vec<2>> force(bx.size(), Vec<2>(0.0f));
        const float face = side > 0 ? 0.6f : 0.0f;
        for (std::size_t k = 0; k < bx.size(); ++k)
            if (side * (bx[k].x - face) > 0) force[k].x = side * p(bx[k].y) * pitch / 2.0f;
        for (float y : {0.05f, 0.15f, 0.3f}) {
            const WallSensor<2> s = wall_sensor<2>(bx, w.boundary_objects(), 0, 0, side,
                                                   Vec<2>(face, y), 0.01f, 0.01f);
            EXPECT_NEAR(s.pressure(force), p(y), 1e-3 * p(y)) << "y = " << y << ", side " << side;
        }
    }
}

// The same on the faces of an obstacle (the box of tank_with_box, [0.2, 0.4] × [0.1, 0.3]): its
// particles within two spacings of a face carry that face's field, p linear along the face; a
// sensor on each face reads p at its centre and nothing of the other faces' fields.
TEST(WallSensor, ReadsThePressureOfAForceFieldOnAnObstacle) {
    World<2> w(tank_with_box(SolverType::pbf));
    const auto& bx = w.boundary().x;
    const BoundaryObject<2>& box = w.boundary_objects()[1];
    const float pitch = lattice_pitch<2>(bx, box.first, box.count, 0);
    const auto p = [](float along) { return 1000.0f * (1.0f + along); };
    struct Face {
        int axis;
        float outward, at;
    };
    for (const Face f : {Face{1, -1.0f, 0.3f}, Face{1, 1.0f, 0.1f}, Face{0, 1.0f, 0.2f},
                         Face{0, -1.0f, 0.4f}}) {
        const int other = 1 - f.axis;
        std::vector<Vec<2>> force(bx.size(), Vec<2>(0.0f));
        for (std::size_t k = box.first; k < box.first + box.count; ++k) {
            const float depth = f.outward * (bx[k][f.axis] - f.at);
            if (depth > 0 && depth < 0.02f) force[k][f.axis] = f.outward * p(bx[k][other]) * pitch / 2;
            // The opposite face pushes the other way; a sensor must not count it.
            if (-depth > 0.18f) force[k][f.axis] = -f.outward * 5000.0f;
        }
        for (float along : {0.15f, 0.2f, 0.25f}) {
            Vec<2> centre;
            centre[f.axis] = f.at;
            centre[other] = (f.axis == 1 ? 0.1f : 0.0f) + along;
            const WallSensor<2> s = wall_sensor<2>(bx, w.boundary_objects(), 1, f.axis, f.outward,
                                                   centre, 0.01f, 0.01f);
            EXPECT_NEAR(s.pressure(force), p(centre[other]), 2e-3 * p(centre[other]))
                << "face " << f.axis << " " << f.outward << " at " << centre[other];
        }
    }
}

// A plate thinner than four spacings ([0.2, 0.22] × [0.1, 0.3], water on both sides): its
// particles nearer the left face carry that face's load (Boundary::face_force), the others the
// right face's, pushing the other way. A sensor on either face reads only the sites nearer it:
// its own face's pressure, nothing of the other side's.
TEST(WallSensor, ReadsItsOwnFaceOfAThinPlate) {
    World<2> w(tank_with_plate(SolverType::pbf));
    const auto& bx = w.boundary().x;
    const BoundaryObject<2>& plate = w.boundary_objects()[1];
    const float pitch = lattice_pitch<2>(bx, plate.first, plate.count, 1);
    const auto p_left = [](float y) { return 1000.0f * (1.0f + y); };
    const auto p_right = [](float y) { return 3000.0f * (1.0f + y); };
    // Per face, the layers nearer it (the loads of a face are shared by them).
    std::set<float> left_layers, right_layers;
    for (std::size_t k = plate.first; k < plate.first + plate.count; ++k)
        (bx[k].x - 0.2f > 0.22f - bx[k].x ? right_layers : left_layers).insert(bx[k].x);
    ASSERT_FALSE(left_layers.empty());
    ASSERT_FALSE(right_layers.empty());
    std::vector<Vec<2>> force(bx.size(), Vec<2>(0.0f));
    for (std::size_t k = plate.first; k < plate.first + plate.count; ++k) {
        const bool right = bx[k].x - 0.2f > 0.22f - bx[k].x;
        force[k].x = right ? -p_right(bx[k].y) * pitch / float(right_layers.size())
                           : p_left(bx[k].y) * pitch / float(left_layers.size());
    }
    for (float y : {0.15f, 0.2f, 0.25f}) {
        const WallSensor<2> left =
            wall_sensor<2>(bx, w.boundary_objects(), 1, 0, 1.0f, {0.2f, y}, 0.01f, 0.01f);
        const WallSensor<2> right =
            wall_sensor<2>(bx, w.boundary_objects(), 1, 0, -1.0f, {0.22f, y}, 0.01f, 0.01f);
        EXPECT_NEAR(left.pressure(force), p_left(y), 2e-3 * p_left(y)) << "y = " << y;
        EXPECT_NEAR(right.pressure(force), p_right(y), 2e-3 * p_right(y)) << "y = " << y;
    }
}

// A sensor read from a pressure field: the Shepard mean of the particles' pressures half a
// spacing in front of its face. A field linear along the face is read exactly (the weights are
// symmetric about the point), on the side walls (p linear in y) and on the floor (p linear in
// x); a dry sensor reads 0.
TEST(WallSensor, ReadsAPressureFieldAtItsFace) {
    World<2> w(tank_at_rest(SolverType::wcsph));
    const auto& x = w.particles().x;
    const CubicSpline<2> kernel(w.support_radius());
    std::vector<float> along_y(x.size()), along_x(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        along_y[i] = 3000.0f - 5000.0f * x[i].y;
        along_x[i] = 1000.0f + 2000.0f * x[i].x;
    }
    for (float side : {-1.0f, 1.0f})
        for (float y : {0.1f, 0.2f}) {
            const WallSensor<2> s = wall_sensor<2>(w.boundary().x, w.boundary_objects(), 0, 0,
                                                   side, Vec<2>(side > 0 ? 0.6f : 0.0f, y),
                                                   0.01f, 0.01f);
            EXPECT_NEAR(s.field_pressure(x, along_y, kernel), 3000.0 - 5000.0 * y, 0.5)
                << "side " << side << ", y = " << y;
        }
    for (float at : {0.2f, 0.3f}) {
        const WallSensor<2> s = wall_sensor<2>(w.boundary().x, w.boundary_objects(), 0, 1, -1.0f,
                                               Vec<2>(at, 0.0f), 0.01f, 0.01f);
        EXPECT_NEAR(s.field_pressure(x, along_x, kernel), 1000.0 + 2000.0 * at, 0.5) << at;
    }
    const WallSensor<2> dry = wall_sensor<2>(w.boundary().x, w.boundary_objects(), 0, 0, 1.0f,
                                             Vec<2>(0.6f, 0.45f), 0.01f, 0.01f);
    EXPECT_EQ(dry.field_pressure(x, along_y, kernel), 0.0);
}

// In 3D a patch is square: its area is the sites per layer times the wall lattice's pitch along
// both other axes. A field p(y, z) on the right wall's particles, each carrying its share
// (pitch_y · pitch_z per layer of two), is read at the sensor's centre, on a lattice that does
// not pass through it (the wall's rows are 0.0105 m off the floor).
TEST(WallSensor, ReadsThePressureOfAForceFieldOnAWallIn3D) {
    WorldDef def;
    def.dimension = 3;
    def.particle_radius = 0.01;
    def.container_max = {0.4, 0.5, 0.3};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.4, 0.2, 0.3}, {}}};
    World<3> w(def);
    const auto& bx = w.boundary().x;
    const std::size_t wall = w.boundary_objects()[0].count;
    const float share =
        lattice_pitch<3>(bx, 0, wall, 1) * lattice_pitch<3>(bx, 0, wall, 2) / 2.0f;
    const auto p = [](float y, float z) { return 2000.0f * (0.5f - y) + 500.0f * z; };
    std::vector<Vec<3>> force(bx.size(), Vec<3>(0.0f));
    for (std::size_t k = 0; k < wall; ++k)
        if (bx[k].x > 0.4f) force[k].x = p(bx[k].y, bx[k].z) * share;
    for (float y : {0.05f, 0.15f})
        for (float z : {0.1f, 0.2f}) {
            const WallSensor<3> s = wall_sensor<3>(bx, w.boundary_objects(), 0, 0, 1.0f,
                                                   Vec<3>(0.4f, y, z), 0.02f, 0.02f);
            EXPECT_GE(s.particles.size(), 4u) << "at least one row of two sites of two layers";
            // The rows are kept within a quarter pitch of the centre on average: p at the
            // centre within 0.2% (without, a row half a pitch off read 2% low).
            EXPECT_NEAR(s.pressure(force), p(y, z), 2e-3 * p(y, z)) << y << ", " << z;
        }
}

// A sensor needs a box in its place and a face: anything else is refused by name.
TEST(WallSensor, RefusesWhatHasNoFlatFace) {
    WorldDef def = tank_at_rest(SolverType::pbf);
    BodyDef disc;
    disc.shape = BodyShape::circle;
    disc.radius = 0.05;
    disc.position = {0.3, 0.4, 0};
    def.bodies = {disc};
    World<2> w(def);
    const auto& bx = w.boundary().x;
    const auto objects = w.boundary_objects();
    const Vec<2> c(0.3f, 0.4f);
    EXPECT_THROW(wall_sensor<2>(bx, objects, 1, 0, 1.0f, c, 0.01f, 0.01f), std::invalid_argument);
    EXPECT_THROW(wall_sensor<2>(bx, objects, 2, 0, 1.0f, c, 0.01f, 0.01f), std::invalid_argument);
    EXPECT_THROW(wall_sensor<2>(bx, objects, 0, 2, 1.0f, c, 0.01f, 0.01f), std::invalid_argument);
    EXPECT_THROW(wall_sensor<2>(bx, objects, 0, 0, 0.5f, c, 0.01f, 0.01f), std::invalid_argument);
}

// Sensors on the floor and the side walls of a settled tank (0.3 m of water), averaged over
// 1 s (over 0.5 s a floor sensor still swings by ±4%), the wall's collision counted as the
// contact force it is: the floor reads ρ0 g H within 4%, the walls ρ0 g (H − y) within 8%
// (0.94–1.05), DDR's within 10%: its sensors 5 cm under the surface read 0.915–0.945 over ten
// runs with g changed by 1e-6 steps (2026-11-30), four of them past 8% (two with the √ of
// the pair loops' AVX2 path, src/neighbors/pair_lanes_body.hpp). Without the collision's share
// PBF's floor read 0.67–0.76 ρ0 g H: its clamp carries a third of the column's weight.
TEST_P(BoundaryForces, WallSensorsReadTheHydrostaticPressure) {
    World<2> w(tank_at_rest(GetParam()));
    w.track_boundary_forces(true);
    const std::array<float, 3> heights = {0.05f, 0.15f, 0.25f};
    std::vector<WallSensor<2>> sensors;
    for (float y : heights)
        for (float side : {-1.0f, 1.0f})
            sensors.push_back(wall_sensor<2>(w.boundary().x, w.boundary_objects(), 0, 0, side,
                                             Vec<2>(side > 0 ? 0.6f : 0.0f, y), 0.01f, 0.01f));
    for (float x : {0.1f, 0.3f, 0.5f})
        sensors.push_back(wall_sensor<2>(w.boundary().x, w.boundary_objects(), 0, 1, -1.0f,
                                         Vec<2>(x, 0.0f), 0.01f, 0.01f));
    const std::size_t wall = w.boundary_objects()[0].count;
    const float pitch[2] = {lattice_pitch<2>(w.boundary().x, 0, wall, 0),
                            lattice_pitch<2>(w.boundary().x, 0, wall, 1)};
    for (const auto& s : sensors) {
        ASSERT_EQ(s.particles.size(), 4u) << "two rows of two layers";
        EXPECT_NEAR(s.area, 2 * pitch[1 - s.axis], 1e-6);
    }
    w.advance_to(1.0);
    // WCSPH has a pressure field too: the same sensors read from it (field_pressure).
    const bool field = GetParam() == SolverType::wcsph;
    const CubicSpline<2> kernel(w.support_radius());
    std::vector<double> sum(sensors.size(), 0.0), field_sum(sensors.size(), 0.0);
    double time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        for (std::size_t i = 0; i < sensors.size(); ++i) {
            sum[i] += st.dt * sensors[i].pressure(w.boundary().face_force, w.particles().x,
                                                  w.contact_forces(), w.contact_objects());
            if (field)
                field_sum[i] +=
                    st.dt * sensors[i].field_pressure(w.particles().x, w.pressure(), kernel);
        }
        time += st.dt;
        return true;
    };
    w.advance_to(2.0, o);
    const double rho_g = 1000.0 * 9.81, H = 0.3;
    for (std::size_t i = 0; i < 6; ++i) {
        const double y = heights[i / 2], expected = rho_g * (H - y);
        EXPECT_NEAR(sum[i] / time / expected, 1.0, GetParam() == SolverType::ddr ? 0.10 : 0.08)
            << "sensor at y = " << y << (i % 2 ? " (right wall)" : " (left wall)");
    }
    for (std::size_t i = 6; i < sensors.size(); ++i)
        EXPECT_NEAR(sum[i] / time / (rho_g * H), 1.0, 0.04) << "floor sensor " << i - 6;
    if (!field) return;
    // The particles' pressures read 0.96–1.05 of ρ0 g times the depth (their slope is a little
    // steep, docs/solvers.md; the walls still slosh a little at 1 s).
    for (std::size_t i = 0; i < sensors.size(); ++i) {
        // At the wall sensors' height; the floor's point is half a spacing up.
        const double depth = i < 6 ? H - heights[i / 2] : H - 0.005;
        std::printf("wcsph field sensor %zu: %.4f rho0 g depth\n", i,
                    field_sum[i] / time / (rho_g * depth));
        EXPECT_NEAR(field_sum[i] / time / (rho_g * depth), 1.0, 0.06) << "field, sensor " << i;
    }
}

// Sensors on the faces of an obstacle (the box of tank_with_box, its top 0.2 m under the
// surface): on its top, its two sides and its underside, each reads ρ0 g (H − y) at its centre
// averaged over 1 s, the box's collision pushes counted, only the box's own.
TEST_P(BoundaryForces, SensorsOnAnObstacleReadTheHydrostaticPressure) {
    World<2> w(tank_with_box(GetParam()));
    w.track_boundary_forces(true);
    struct Site {
        int axis;
        float outward;
        Vec<2> centre;
    };
    const std::vector<Site> sites = {{1, -1.0f, {0.25f, 0.3f}}, {1, -1.0f, {0.35f, 0.3f}},
                                     {0, 1.0f, {0.2f, 0.15f}},  {0, 1.0f, {0.2f, 0.25f}},
                                     {0, -1.0f, {0.4f, 0.15f}}, {0, -1.0f, {0.4f, 0.25f}},
                                     {1, 1.0f, {0.3f, 0.1f}}};
    std::vector<WallSensor<2>> sensors;
    for (const Site& s : sites) {
        sensors.push_back(wall_sensor<2>(w.boundary().x, w.boundary_objects(), 1, s.axis,
                                         s.outward, s.centre, 0.01f, 0.01f));
        ASSERT_EQ(sensors.back().particles.size(), 4u) << "two rows of two layers";
        EXPECT_NEAR(sensors.back().area, 0.02, 0.002);
    }
    const std::vector<double> mean = mean_pressures(w, sensors, 1.0, 2.0);
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const double expected = 1000.0 * 9.81 * (0.5 - sites[i].centre.y);
        std::printf("%s: sensor %zu (axis %d, %+g) at (%.2f, %.2f): %.3f rho0 g (H - y)\n",
                    std::string(solver_name(GetParam())).c_str(), i, sites[i].axis,
                    sites[i].outward, sites[i].centre.x, sites[i].centre.y,
                    mean[i] / expected);
        // DDR has no pressure (its wall readings are reported, not gated: gates_wall_pressure);
        // its relaxation reads a box's top 8–9% low (6.5–7.4% before its neighbours were taken
        // in creation order within a cell, which moved its rounding).
        // PBF's underside sensor (6, the water trapped under the box) reads 5–11% high: over
        // five runs with g changed by 1e-5 its 1 s mean read 1.005–1.086 when velocities were
        // (x − x_prev)/Δt and 1.048–1.096 since they keep v + (x − x̃)/Δt (the same in exact
        // arithmetic): 8% passed by luck of the rounding, 12% holds for both.
        const bool pbf_underside = GetParam() == SolverType::pbf && i == 6;
        const double tolerance = pbf_underside                                 ? 0.12
                                 : solver_traits(GetParam()).gates_wall_pressure ? 0.08
                                                                                 : 0.10;
        EXPECT_NEAR(mean[i] / expected, 1.0, tolerance)
            << "sensor " << i << " at (" << sites[i].centre.x << ", " << sites[i].centre.y << ")";
    }
}

// A sensor whose patch reaches an edge of the box (the box of tank_with_box: its top, 3 cm from
// the left edge, the corner's particles in it) reads the top's pressure, not the side's: the
// particles along an edge carry both faces' loads in Boundary::force (the fluid beside the box,
// below the top's plane, pushes them up), and Boundary::face_force keeps, along each axis, only
// the push from the open side of the particle's own face there. Averaged over 1 s: from the face
// PBF 0.925, WCSPH 0.98, DDR 0.99, DFSPH 1.03 of ρ0 g (H − y); from the whole force 0.89–0.95.
// The corner's column alone reads 0.84–1.11 from the face, 0.76–0.89 from the whole force.
// PBF is solved to 0.1%: at its default 0.2% each step leaves part of the weight to the next,
// and the edge's reading moves with it (0.916 on the AMD EPYC Zen 5's bits; 0.925 at 0.001,
// 0.0005 and 0.0002). This test pins how the force is split at an edge. PBF's lower reading is
// its load's path, not the split: its first layer rests on the clamp (a wall pair has one λ'),
// which carries a quarter of the top's load, and at the edge the fluid beside the box holds that
// layer up instead (docs/solvers.md).
TEST_P(BoundaryForces, ASensorAtAnEdgeReadsItsOwnFace) {
    WorldDef def = tank_with_box(GetParam());
    def.solver.pbf.density_tolerance = 0.001;
    World<2> w(def);
    w.track_boundary_forces(true);
    const Vec<2> centre{0.215f, 0.3f};
    const WallSensor<2> top =
        wall_sensor<2>(w.boundary().x, w.boundary_objects(), 1, 1, -1.0f, centre, 0.015f, 0.01f);
    ASSERT_EQ(top.particles.size(), 6u) << "three columns of two layers, the corner's among them";
    ASSERT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
    double face = 0, whole = 0, time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        face += st.dt * top.pressure(w.boundary().face_force, w.particles().x, w.contact_forces(),
                                     w.contact_objects());
        whole += st.dt * top.pressure(w.boundary().force, w.particles().x, w.contact_forces(),
                                      w.contact_objects());
        time += st.dt;
        return true;
    };
    ASSERT_EQ(w.advance_to(2.0, o).status, AdvanceResult::Status::reached);
    const double expected = 1000.0 * 9.81 * (0.5 - centre.y);
    std::printf("%s: top sensor at the edge: %.3f rho0 g (H - y) from its face, %.3f from the "
                "particles' whole force\n",
                std::string(solver_name(GetParam())).c_str(), face / time / expected,
                whole / time / expected);
    // The tolerances of the sensors above, away from the edge.
    EXPECT_NEAR(face / time / expected, 1.0,
                solver_traits(GetParam()).gates_wall_pressure ? 0.08 : 0.10);
    EXPECT_GT(face / whole, 1.01) << "the side's fluid pushes the edge up: leaving it out reads more";
}

// A plate two spacings thick, water on both sides, its middle 0.2 m under the surface: each
// layer is nearer one face, and a sensor on either face reads ρ0 g (H − y) from the layer on its
// side (Boundary::face_force). The particles' whole forces held both sides' pushes, which cancel:
// PBF's sensors read 0.26–0.30 of it, DFSPH's 0.00 ± 0.02. Averaged over 1 s.
TEST_P(BoundaryForces, SensorsOnAThinPlateReadTheirOwnSide) {
    World<2> w(tank_with_plate(GetParam()));
    w.track_boundary_forces(true);
    std::vector<WallSensor<2>> sensors;
    for (float y : {0.15f, 0.25f}) {
        sensors.push_back(
            wall_sensor<2>(w.boundary().x, w.boundary_objects(), 1, 0, 1.0f, {0.2f, y}, 0.01f, 0.01f));
        sensors.push_back(wall_sensor<2>(w.boundary().x, w.boundary_objects(), 1, 0, -1.0f,
                                         {0.22f, y}, 0.01f, 0.01f));
    }
    const std::vector<double> mean = mean_pressures(w, sensors, 1.0, 2.0);
    for (std::size_t i = 0; i < sensors.size(); ++i) {
        const double expected = 1000.0 * 9.81 * (0.5 - sensors[i].centre.y);
        std::printf("%s: thin plate, sensor %zu (side %+g, y %.2f): %.3f rho0 g (H - y)\n",
                    std::string(solver_name(GetParam())).c_str(), i, sensors[i].outward,
                    sensors[i].centre.y, mean[i] / expected);
        EXPECT_NEAR(mean[i] / expected, 1.0,
                    solver_traits(GetParam()).gates_wall_pressure ? 0.08 : 0.10)
            << "sensor " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(All, BoundaryForces,
                         ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

// WCSPH's fluid at rest lies against the walls as PBF's does: the first layer's centres r from
// the floor and from the side walls, within 0.08 r (3D tank 0.3 m, r = 7.5 mm, after 1 s). With
// the mirrored boundary pressure (p_k = p_i) it stood 0.15 r off the floor and 0.16 r off the
// side walls: the gap that made a body's buoyancy 15% too large in 3D (docs/bodies.md).
TEST(BoundaryForces, WcsphFluidRestsAgainstTheWalls) {
    WorldDef def;
    def.dimension = 3;
    const float r = 0.0075f;
    def.particle_radius = r;
    def.container_max = {0.3, 0.5, 0.3};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.3, 0.3, 0.3}, {}}};
    def.solver.type = SolverType::wcsph;
    World<3> w(def);
    ASSERT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
    double floor = 0, wall = 0;
    int n_floor = 0, n_wall = 0;
    auto middle = [](float v) { return v > 0.06f && v < 0.24f; };
    for (const auto& x : w.particles().x) {
        if (middle(x.x) && middle(x.z) && x.y < 2 * r) floor += x.y, ++n_floor;
        if (x.y > 0.05f && x.y < 0.25f && middle(x.z) && x.x < 2 * r) wall += x.x, ++n_wall;
    }
    ASSERT_GT(n_floor, 100);
    ASSERT_GT(n_wall, 100);
    floor /= n_floor;
    wall /= n_wall;
    std::printf("first layer: %.3f r off the floor, %.3f r off the side wall (beyond r)\n",
                (floor - r) / r, (wall - r) / r);
    EXPECT_NEAR(floor, r, 0.08 * r);
    EXPECT_NEAR(wall, r, 0.08 * r);
}

// A kinematic box pushed down into a resting pool: its particles and its collisions follow it,
// no fluid ends up inside, and the water pushes back.
TEST(BoundaryForces, MovingObjectPushesTheFluidAside) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.6, 0.7, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.6, 0.3, 0}, {}}};
    def.obstacles = {{{0.25, 0.35, 0}, {0.35, 0.45, 0}}};  // above the water
    World<2> w(def);
    w.track_boundary_forces(true);
    w.advance_to(0.3);
    const Vec<2> before = w.boundary().x[w.boundary_objects()[1].first];
    w.set_object_velocity(1, Vec<2>(0.0f, -0.5f));  // 0.1 m down in 0.2 s: half submerged
    w.advance_to(0.5);
    const BoundaryObject<2>& box = w.boundary_objects()[1];
    EXPECT_NEAR(box.position.y, -0.1f, 1e-4f);
    EXPECT_NEAR(w.boundary().x[box.first].y, before.y - 0.1f, 1e-4f);
    for (const auto& x : w.particles().x) ASSERT_GT(box.signed_distance(x), 0.0f) << x.x << " " << x.y;
    EXPECT_GT(box.force.y, 0.0f);  // the water pushes the box up
}

TEST(BoundaryForces, OffUnlessTracked) {
    World<2> w(tank_with_box(SolverType::pbf));
    for (int k = 0; k < 5; ++k) w.step(0.002);
    EXPECT_EQ(w.boundary_objects()[0].force, Vec<2>(0.0f));
    ASSERT_EQ(w.boundary_objects().size(), 2u);
    EXPECT_EQ(w.boundary_objects()[1].name, "obstacles[0]");
}

}  // namespace
}  // namespace seiche
