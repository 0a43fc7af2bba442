// Rigid bodies in the fluid (docs/bodies.md): shapes the fluid never enters, Archimedes' draft of
// floating boxes, a heavy sphere that sinks to the floor, momentum shared between fluid and body,
// and the definitions that are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "seiche/bodies.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

// A 2D tank with water `depth` deep and a box `side` high (and `aspect` times as wide) of
// density rho_b dropped onto the surface from just above it, at r = 5 mm.
WorldDef floating_box_2d(double rho_b, SolverType solver, double side = 0.1, double depth = 0.3,
                         double width = 0.6, double aspect = 1.0) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {width, depth + 2 * side, 0};
    def.fluid = {{{0.0, 0.0, 0}, {width, depth, 0}, {}}};
    BodyDef box;
    box.shape = BodyShape::box;
    box.size = {aspect * side, side, 0};
    box.position = {0.5 * width, depth + 0.5 * side + 0.005, 0};
    box.motion = BodyMotion::dynamic;
    box.density = rho_b;
    def.bodies = {box};
    def.solver.type = solver;
    return def;
}

// The water level far from the box: the mean of the highest fluid particles near the left and the
// right wall, plus r. (The highest of the two read the crest of the tank's sloshing, 2-7 mm from
// wall to wall after the box's fall, and put the level 0.5-2% of the box's height too high.)
template <int D>
double free_surface(const World<D>& w, double near_x0, double near_x1) {
    double left = 0, right = 0;
    for (const auto& x : w.particles().x) {
        if (x.x < near_x0) left = std::max(left, double(x.y));
        if (x.x > near_x1) right = std::max(right, double(x.y));
    }
    return 0.5 * (left + right) + w.particles().radius;
}

// A 2D tank `width` wide with water `depth` deep and a box `side` high and `aspect` times as wide
// (its sides on the lattice's lines: width/2 ± aspect·side/2 multiples of 2r) of density rho_b,
// started at rest in the water with its bottom `offset`·side deeper (> 0) or higher (< 0) than its
// Archimedes draft, rounded to a lattice line: the fluid fills the tank beside and under it, at
// r = 5 mm.
WorldDef box_afloat_2d(double rho_b, SolverType solver, double offset, double side, double depth,
                       double width, double aspect) {
    WorldDef def = floating_box_2d(rho_b, solver, side, depth, width, aspect);
    const double d = 2 * def.particle_radius, archimedes = rho_b / 1000.0 * side;
    const double bottom = std::round((depth - archimedes - offset * side) / d) * d;
    const double x0 = 0.5 * (width - aspect * side), x1 = 0.5 * (width + aspect * side);
    def.fluid = {{{0.0, 0.0, 0}, {x0, depth, 0}, {}},
                 {{x1, 0.0, 0}, {width, depth, 0}, {}},
                 {{x0, 0.0, 0}, {x1, bottom, 0}, {}}};
    def.bodies[0].position[1] = bottom + 0.5 * side;
    return def;
}

// The draft of a floating box, time-averaged over `from` to `to` s: its bottom under the
// undisturbed surface (the top fluid particles far from the box, plus r). A box dropped onto the
// surface heaves for seconds (3 mm standard deviation of its height over 3-4 s, 1-2 mm over 4-6 s
// with WCSPH, whose artificial viscosity damps little), so it was read over 4-6 s; one started in
// the water a tenth of its height off its draft settles within a second (below).
double settled_draft(const WorldDef& def, double height, double from, double to) {
    const double width = def.container_max[0];
    World<2> w(def);
    const std::size_t obj = w.body_object(0);
    double y = 0, surface = 0, time = 0;
    float tilt = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        if (s.time <= from) return true;
        const auto& r = w.boundary_objects()[obj].rotation;
        tilt = std::max(tilt, std::abs(std::atan2(r[0][1], r[0][0])));
        y += s.dt * w.boundary_objects()[obj].position.y;
        surface += s.dt * free_surface(w, 0.15 * width, 0.85 * width);
        time += s.dt;
        return true;
    };
    EXPECT_EQ(w.advance_to(to, o).status, AdvanceResult::Status::reached);
    EXPECT_LT(tilt, 0.1f);  // it floats flat, rocking a little (twice as wide as high, it is stable so)
    return surface / time - (y / time - 0.5 * height);
}

class FloatingBox : public ::testing::TestWithParam<SolverType> {};

// Archimedes: a box of density ρb floats with a draft of (ρb/ρ0)·height, within 3% of its
// height with every solver, as issue 16 asks. The box is 0.3 m × 0.15 m, 30 × 15 spacings: the
// error is a fraction of a spacing. Twice as wide as high, it floats flat (a square of 500 kg/m³
// turns corner down). It starts in the water at rest, the light box 10% of its height too deep and
// the heavy one 13% too high, so it passes only by moving to its draft; read over 1-2.5 s. (Dropped
// onto the surface, as before 2026-11-30, it heaved for seconds and was read over 4-6 s of a 6 s
// run, the suite's longest cases; the two starts read within 2.5% of the height of each other:
// PBF −1.1 / −1.5% here against −1.1 / −1.3% dropped, WCSPH −1.8 / −0.8% against −0.4 / +1.7%,
// DDR −0.6 / +0.2% against +0.3 / +1.5%, DFSPH −1.8 / −0.1% against −0.9 / +1.7%. Read over
// 3-4 s from the higher of the two walls' tops, WCSPH's dropped heavy box had seemed +0.9% to +3.6%
// deep and +4.9% in the ASan build, DDR's +5.5%: the tank's sloshing and the box's heave, not its
// draft; docs/bodies.md.)
TEST_P(FloatingBox, DraftIsTheDensityRatioTimesTheHeight) {
    const double side = 0.15;
    for (const auto [rho_b, offset] : {std::pair{500.0, 0.1}, std::pair{800.0, -0.1}}) {
        const WorldDef def = box_afloat_2d(rho_b, GetParam(), offset, side, 0.35, 0.9, 2.0);
        const double start = 0.35 - (def.bodies[0].position[1] - 0.5 * side);
        const double draft = settled_draft(def, side, 1.0, 2.5);
        std::printf("%s, rho_b %.0f: started at %.4f m, draft %.4f m, Archimedes %.4f m\n",
                    std::string(solver_name(GetParam())).c_str(), rho_b, start, draft, rho_b / 1000.0 * side);
        EXPECT_GT(std::abs(start - rho_b / 1000.0 * side), 0.09 * side);  // it has to move
        EXPECT_NEAR(draft, rho_b / 1000.0 * side, 0.03 * side);
    }
}

// The same in 3D: a box 0.24 m × 0.12 m × 0.24 m, 8 spacings high, at 500 and 800 kg/m³, with
// PBF and WCSPH. (WCSPH's boundary pressure mirrored p_i onto the wall: its fluid stood 0.15 r
// off every wall, the light box floated 6% of its height high and the heavy one 8%; with the
// wall's hydrostatic pressure and the flat-wall push, docs/bodies.md, both are within 3%.)
class FloatingBox3D : public ::testing::TestWithParam<SolverType> {};

// The 3D tank of FloatingBox3D with `body` in it: the draft of a body 0.12 m high, averaged over
// the last 0.5 s of 2.5 s, and its rotation at the end.
std::pair<double, Mat<3>> settled_draft_3d(const BodyDef& body, SolverType solver) {
    WorldDef def;
    def.dimension = 3;
    def.particle_radius = 0.0075;
    def.container_max = {0.45, 0.45, 0.45};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.45, 0.25, 0.45}, {}}};
    def.bodies = {body};
    def.solver.type = solver;
    World<3> w(def);
    const std::size_t obj = w.body_object(0);
    double y = 0, surface = 0, time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        if (s.time <= 2.0) return true;
        y += s.dt * w.boundary_objects()[obj].position.y;
        double top = 0;  // the highest particle in the corners, far from the body
        for (const auto& x : w.particles().x)
            if ((x.x < 0.06 || x.x > 0.39) && (x.z < 0.06 || x.z > 0.39)) top = std::max(top, double(x.y));
        surface += s.dt * (top + def.particle_radius);
        time += s.dt;
        return true;
    };
    EXPECT_EQ(w.advance_to(2.5, o).status, AdvanceResult::Status::reached);
    return {surface / time - (y / time - 0.06), w.boundary_objects()[obj].rotation};
}

TEST_P(FloatingBox3D, DraftIsTheDensityRatioTimesTheHeight) {
    for (double rho_b : {500.0, 800.0}) {
        BodyDef box;
        box.size = {0.24, 0.12, 0.24};
        box.position = {0.225, 0.25 + 0.06 + 0.005, 0.225};
        box.motion = BodyMotion::dynamic;
        box.density = rho_b;
        const auto [draft, rotation] = settled_draft_3d(box, GetParam());
        const double archimedes = rho_b / 1000.0 * 0.12;
        std::printf("3D %s, rho_b %.0f: draft %.4f m, Archimedes %.4f m\n",
                    std::string(solver_name(GetParam())).c_str(), rho_b, draft, archimedes);
        EXPECT_NEAR(draft, archimedes, 0.03 * 0.12);
        EXPECT_GT(rotation[1][1], 0.995f);  // flat
    }
}

INSTANTIATE_TEST_SUITE_P(PbfWcsph, FloatingBox3D, ::testing::Values(SolverType::pbf, SolverType::wcsph),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

INSTANTIATE_TEST_SUITE_P(All, FloatingBox,
                         ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

// A fixed body held under water feels ρ0·g·V upwards (time-averaged over 1.5 s): within 3%
// with WCSPH and 5% with PBF, as issue 16 asks. The box is 0.3 m, 30 spacings, its top 0.1 m
// under the surface. Its buoyancy is the difference of the pushes on its bottom and its top, so
// a relative bias of the boundary's pressure force grows by (depth of bottom + depth of top) /
// height. (With the mirrored boundary pressure WCSPH read +2.6% here, +4.0% in the ASan build
// and +4.2% with the top 0.3 m down; the wall's hydrostatic pressure took that bias away.)
class SubmergedBody : public ::testing::TestWithParam<SolverType> {};

TEST_P(SubmergedBody, FeelsItsDisplacedWeight) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.9, 0.9, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.3, 0.75, 0}, {}},
                 {{0.6, 0.0, 0}, {0.9, 0.75, 0}, {}},
                 {{0.3, 0.0, 0}, {0.6, 0.35, 0}, {}},
                 {{0.3, 0.65, 0}, {0.6, 0.75, 0}, {}}};
    BodyDef box;
    box.size = {0.3, 0.3, 0};
    box.position = {0.45, 0.5, 0};
    def.bodies = {box};
    def.solver.type = GetParam();
    World<2> w(def);
    w.track_boundary_forces(true);
    const double settle = 1.0, window = 1.5;
    ASSERT_EQ(w.advance_to(settle).status, AdvanceResult::Status::reached);
    Vec<2> force(0.0f);
    double time = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        force += float(s.dt) * w.boundary_objects()[w.body_object(0)].force;
        time += s.dt;
        return true;
    };
    ASSERT_EQ(w.advance_to(settle + window, o).status, AdvanceResult::Status::reached);
    force /= float(time);
    const double buoyancy = 1000.0 * 9.81 * 0.3 * 0.3;
    std::printf("%s: force (%.2f, %.2f) N/m, rho0 g V %.2f N/m (%+.1f%%)\n",
                std::string(solver_name(GetParam())).c_str(), force.x, force.y, buoyancy,
                100.0 * (force.y / buoyancy - 1.0));
    EXPECT_NEAR(force.y, buoyancy, (GetParam() == SolverType::wcsph ? 0.03 : 0.05) * buoyancy);
    EXPECT_NEAR(force.x, 0.0, 0.02 * buoyancy);
}

INSTANTIATE_TEST_SUITE_P(PbfWcsph, SubmergedBody,
                         ::testing::Values(SolverType::pbf, SolverType::wcsph),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

// A heavy body dropped into the tank sinks, comes to rest on the floor and never enters it.
TEST(Bodies, HeavySphereSinksAndRestsOnTheFloor) {
    WorldDef def;
    def.dimension = 3;
    def.particle_radius = 0.01;
    def.container_max = {0.4, 0.5, 0.4};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.4, 0.2, 0.4}, {}}};
    BodyDef ball;
    ball.shape = BodyShape::sphere;
    ball.radius = 0.05;
    ball.position = {0.2, 0.3, 0.2};
    ball.motion = BodyMotion::dynamic;
    ball.density = 2000;
    def.bodies = {ball};
    World<3> w(def);
    const std::size_t obj = w.body_object(0);
    float lowest = 1;
    AdvanceOptions o;
    o.on_step = [&](const StepStats&) {
        lowest = std::min(lowest, w.boundary_objects()[obj].position.y);
        return true;
    };
    EXPECT_EQ(w.advance_to(1.5, o).status, AdvanceResult::Status::reached);
    const auto& b = w.boundary_objects()[obj];
    std::printf("sphere: y %.4f m (radius 0.05, r 0.01), lowest %.4f, speed %.4f m/s\n", b.position.y,
                lowest, glm::length(b.velocity));
    // On the floor, one particle diameter off it (docs/bodies.md: the layer of fluid particles
    // that stays between two solids), and never lower.
    EXPECT_NEAR(b.position.y, 0.05 + 0.02, 0.003);
    EXPECT_GE(lowest, 0.05 + 0.02 - 0.003);
    EXPECT_LT(glm::length(b.velocity), 0.02);
}

// Three heavy boxes stacked in still water stay stacked: Bullet's contacts hold them, the fluid
// around them does not shake them apart, and none passes through another or the floor.
TEST(Bodies, StackOfThreeBoxesStaysStacked) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.6, 0.6, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.2, 0.4, 0}, {}}, {{0.4, 0.0, 0}, {0.6, 0.4, 0}, {}}};
    const double side = 0.08, gap = 0.01;  // 2r between boxes: where the contacts put them
    for (int k = 0; k < 3; ++k) {
        BodyDef box;
        box.size = {side, side, 0};
        box.position = {0.3, gap + 0.5 * side + k * (side + gap), 0};
        box.motion = BodyMotion::dynamic;
        box.density = 2000;
        def.bodies.push_back(box);
    }
    World<2> w(def);
    float closest = 1;  // the smallest gap between neighbours in the stack, m
    AdvanceOptions o;
    o.on_step = [&](const StepStats&) {
        float below = 0;
        for (std::size_t k = 0; k < 3; ++k) {
            const auto& b = w.boundary_objects()[w.body_object(k)];
            closest = std::min(closest, b.position.y - 0.5f * float(side) - below);
            below = b.position.y + 0.5f * float(side);
        }
        return true;
    };
    EXPECT_EQ(w.advance_to(1.5, o).status, AdvanceResult::Status::reached);
    for (std::size_t k = 0; k < 3; ++k) {
        const auto& b = w.boundary_objects()[w.body_object(k)];
        std::printf("box %zu: (%.4f, %.4f), angle %.4f\n", k, b.position.x, b.position.y,
                    std::atan2(b.rotation[0][1], b.rotation[0][0]));
        EXPECT_NEAR(b.position.x, 0.3, 0.01);
        EXPECT_NEAR(b.position.y, gap + 0.5 * side + double(k) * (side + gap), 0.005);
        EXPECT_NEAR(std::atan2(b.rotation[0][1], b.rotation[0][0]), 0.0, 0.05);
    }
    EXPECT_GT(closest, 0.5f * float(gap));  // never into each other or the floor
}

// Zero gravity: a block of fluid thrown at a free box. Fluid and box exchange momentum through
// the boundary particles' forces; the sum stays what it was.
TEST(Bodies, FluidAndBodyConserveMomentum) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.gravity = {0, 0, 0};
    def.container_max = {2.0, 1.0, 0};
    def.fluid = {{{0.2, 0.35, 0}, {0.5, 0.65, 0}, {0.5, 0, 0}}};
    BodyDef box;
    box.size = {0.1, 0.2, 0};
    box.position = {0.7, 0.5, 0};
    box.motion = BodyMotion::dynamic;
    box.density = 500;
    def.bodies = {box};
    World<2> w(def);
    const std::size_t obj = w.body_object(0);
    auto momentum = [&] {
        double px = 0;
        for (const auto& v : w.particles().v) px += double(w.particles().mass) * v.x;
        return px + double(w.body_mass(0)) * w.boundary_objects()[obj].velocity.x;
    };
    const double p0 = momentum();
    EXPECT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
    const double p1 = momentum();
    const double body = double(w.body_mass(0)) * w.boundary_objects()[obj].velocity.x;
    std::printf("momentum %.4f → %.4f N·s/m (the box carries %.4f)\n", p0, p1, body);
    EXPECT_GT(body, 0.05 * p0);  // the fluid did hit the box
    EXPECT_NEAR(p1, p0, 0.01 * p0);
}

// No fluid particle centre is ever inside a solid, for every shape, fixed and turned.
template <int D>
void expect_never_inside(WorldDef def, double end_time) {
    World<D> w(def);
    std::size_t worst_step = 0;
    float worst = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        for (std::size_t b = 0; b < def.bodies.size(); ++b) {
            const auto& obj = w.boundary_objects()[w.body_object(b)];
            for (const auto& x : w.particles().x) {
                const float d = obj.signed_distance(x);
                if (d < worst) worst = d, worst_step = std::size_t(s.step);
            }
        }
        return true;
    };
    EXPECT_EQ(w.advance_to(end_time, o).status, AdvanceResult::Status::reached);
    EXPECT_GE(worst, 0.0f) << "deepest " << worst << " m inside at step " << worst_step;
}

TEST(Bodies, FluidNeverEntersACircleOrATurnedBox2D) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {1.0, 0.6, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.3, 0.5, 0}, {}}};
    BodyDef circle;
    circle.shape = BodyShape::circle;
    circle.radius = 0.06;
    circle.position = {0.55, 0.06, 0};
    BodyDef box;
    box.size = {0.1, 0.05, 0};
    box.position = {0.8, 0.1, 0};
    box.rotation = {0, 0, 0.6};
    def.bodies = {circle, box};
    expect_never_inside<2>(def, 1.0);
}

// The quick test before a body's exact collision (a sphere of reach + gap round the body) left
// out a box's grown corners, √2·gap out in 2D: a centre there was let in until it came within the
// sphere, then thrown millimetres out in one step (with 30 µs steps the floating box bounced off
// the water, fluid at 27 m/s). A centre in a corner's gap is put out however far it is.
TEST(Bodies, ABoxKeepsCentresOutOfItsGrownCornersToo) {
    BodyDef b;
    b.size = {0.1, 0.1, 0};
    b.position = {0.3, 0.4, 0};
    b.rotation = {0, 0, 0.3};
    const BoundaryObject<2> o = body_object<2>(b, 0);
    const float gap = 0.005f;
    const Vec<2> corner(-0.05f - 0.8f * gap, -0.05f - 0.8f * gap);  // 0.8 gap beyond both faces
    Vec<2> x = o.to_world(corner);
    ASSERT_GT(glm::length(x - o.position), o.reach + gap) << "beyond the sphere";
    o.collide(x, gap);
    const Vec<2> l = o.to_local(x);
    EXPECT_NEAR(std::max(-l.x, -l.y), 0.05f + gap, 1e-5f) << "out to a face of the grown box";
}

TEST(Bodies, FluidNeverEntersASphereACylinderOrATurnedBox3D) {
    WorldDef def;
    def.dimension = 3;
    def.particle_radius = 0.01;
    def.container_max = {0.8, 0.4, 0.3};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.2, 0.3, 0.3}, {}}};
    BodyDef sphere;
    sphere.shape = BodyShape::sphere;
    sphere.radius = 0.05;
    sphere.position = {0.35, 0.05, 0.15};
    BodyDef cylinder;
    cylinder.shape = BodyShape::cylinder;
    cylinder.radius = 0.04;
    cylinder.height = 0.12;
    cylinder.position = {0.5, 0.1, 0.1};
    cylinder.rotation = {0.4, 0, 0.3};
    BodyDef box;
    box.size = {0.08, 0.05, 0.1};
    box.position = {0.65, 0.06, 0.2};
    box.rotation = {0.3, 0.5, 0.2};
    def.bodies = {sphere, cylinder, box};
    expect_never_inside<3>(def, 0.6);
}

// Polygons, convex or not: a static L-shaped breakwater on the floor in a dam break's path and a
// kinematic triangle turning in it.
TEST(Bodies, FluidNeverEntersAPolygon2D) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {1.0, 0.6, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.3, 0.5, 0}, {}}};
    BodyDef ell;
    ell.shape = BodyShape::polygon;
    // Clockwise on purpose (it is turned round): the reflex corner at (0.03, 0.03) faces the flow.
    ell.vertices = {{0, 0, 0}, {0, 0.12, 0}, {0.03, 0.12, 0}, {0.03, 0.03, 0}, {0.12, 0.03, 0}, {0.12, 0, 0}};
    ell.position = {0.5, 0.045, 0};  // its centroid: the foot 4 mm over the floor
    BodyDef tri;
    tri.shape = BodyShape::polygon;
    tri.vertices = {{-0.05, -0.03, 0}, {0.05, -0.03, 0}, {0, 0.06, 0}};
    tri.position = {0.8, 0.08, 0};
    tri.motion = BodyMotion::kinematic;
    tri.angular_velocity = {0, 0, 2.0};
    def.bodies = {ell, tri};
    World<2> probe(def);
    const auto& o = probe.boundary_objects()[probe.body_object(0)];
    // The outline's own corner lies on the surface; its centroid is where the body was put.
    EXPECT_NEAR(o.signed_distance(o.to_world((*o.polygon)[0])), 0.0f, 1e-5f);
    EXPECT_NEAR(o.volume(), 0.12f * 0.03f + 0.03f * 0.09f, 1e-6f);
    expect_never_inside<2>(def, 1.0);
}

// A V-shaped hull (a triangle, apex down, three times as wide as deep) floats with its apex
// H·sqrt(ρb/ρ0) under the surface: the submerged part is a similar triangle holding ρb/ρ0 of
// the area. Exercises the polygon's sampling, area, moment of inertia and contact shape together.
TEST(Bodies, PolygonHullFloatsAtItsArchimedesDraft) {
    const double H = 0.1, W = 0.3, rho_b = 500, depth = 0.35, width = 0.9;
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {width, 0.6, 0};
    def.fluid = {{{0.0, 0.0, 0}, {width, depth, 0}, {}}};
    BodyDef hull;
    hull.shape = BodyShape::polygon;
    hull.vertices = {{-W / 2, H, 0}, {0, 0, 0}, {W / 2, H, 0}};
    hull.position = {width / 2, depth + 2 * H / 3 + 0.005, 0};  // the apex just above the water
    hull.motion = BodyMotion::dynamic;
    hull.density = rho_b;
    def.bodies = {hull};
    World<2> w(def);
    const std::size_t obj = w.body_object(0);
    double apex = 0, surface = 0, time = 0;
    float tilt = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& s) {
        if (s.time <= 3.0) return true;
        const auto& b = w.boundary_objects()[obj];
        tilt = std::max(tilt, std::abs(std::atan2(b.rotation[0][1], b.rotation[0][0])));
        apex += s.dt * b.to_world(Vec<2>(0.0f, float(-2 * H / 3))).y;
        surface += s.dt * free_surface(w, 0.15 * width, 0.85 * width);
        time += s.dt;
        return true;
    };
    EXPECT_EQ(w.advance_to(4.0, o).status, AdvanceResult::Status::reached);
    const double draft = (surface - apex) / time, expected = H * std::sqrt(rho_b / 1000.0);
    std::printf("V hull: draft %.4f m, Archimedes %.4f m, tilt at most %.3f rad\n", draft, expected, tilt);
    EXPECT_NEAR(draft, expected, 0.03 * H);
    EXPECT_LT(tilt, 0.1f);
    EXPECT_NEAR(w.body_mass(0), rho_b * W * H / 2, 1e-3);  // per metre of depth
}

// A kinematic box moves with its velocity inside its motion window and is still outside it.
TEST(Bodies, KinematicBodyFollowsItsMotionWindow) {
    WorldDef def = floating_box_2d(500, SolverType::pbf);
    def.bodies[0].motion = BodyMotion::kinematic;
    def.bodies[0].velocity = {0, 0.2, 0};
    def.bodies[0].angular_velocity = {0, 0, 1.0};
    def.bodies[0].motion_start = 0.1;
    def.bodies[0].motion_stop = 0.3;
    World<2> w(def);
    const std::size_t obj = w.body_object(0);
    w.advance_to(0.5);
    const auto& b = w.boundary_objects()[obj];
    EXPECT_NEAR(b.position.y, 0.355 + 0.2 * 0.2, 1e-4);
    EXPECT_NEAR(std::atan2(b.rotation[0][1], b.rotation[0][0]), 0.2, 1e-4);  // 1 rad/s for 0.2 s
    EXPECT_EQ(b.velocity, Vec<2>(0.0f));  // stopped
    // Its particles went with it: the first one is where its frame puts it.
    const Vec<2> expected = b.to_world(w.boundary().local[b.first]);
    EXPECT_NEAR(glm::length(w.boundary().x[b.first] - expected), 0.0f, 1e-5f);
}

// Definitions that are refused, each with the key path and what was expected.
std::string first_problem(const WorldDef& def) {
    const std::vector<Problem> p = validate(def);
    return p.empty() ? "accepted" : p[0].path + ": " + p[0].message;
}

TEST(Bodies, BadBodiesAreRefusedWithTheirPath) {
    WorldDef def = floating_box_2d(500, SolverType::pbf);
    EXPECT_EQ(first_problem(def), "accepted");

    WorldDef d = def;
    d.bodies[0].density = 0;
    EXPECT_EQ(first_problem(d), "bodies[0].density: a dynamic body needs a positive density (kg/m³), got 0");
    // A hundred dynamic boxes on one point: refused at the second (they flew apart in the first
    // steps); beside each other, accepted.
    d = def;
    d.bodies.assign(100, def.bodies[0]);
    EXPECT_EQ(first_problem(d), "bodies[1]: the body overlaps bodies[0] (the centre of one is inside "
                                "the other); bodies cannot start inside each other");
    d.bodies.resize(2);
    d.bodies[1].position[0] -= 0.15;
    EXPECT_EQ(first_problem(d), "accepted") << "the box is " << def.bodies[0].size[0] << " m wide";
    // Cutting into each other with both centres clear (issue 45): refused at a point inside
    // both; side by side, touching, accepted.
    const double width = def.bodies[0].size[0];
    d.bodies[1].position = def.bodies[0].position;
    d.bodies[1].position[0] -= 0.6 * width;
    d.bodies[1].position[1] += 0.3 * def.bodies[0].size[1];
    EXPECT_TRUE(first_problem(d).starts_with("bodies[1]: the body overlaps bodies[0] (the point ("))
        << first_problem(d);
    d.bodies[1].position = def.bodies[0].position;
    d.bodies[1].position[0] -= width;
    EXPECT_EQ(first_problem(d), "accepted");
    d = def;
    d.bodies[0].position = {0.3, 0.25, 0};  // half under the water's surface
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0]: the body overlaps fluid[0]")) << first_problem(d);
    d = def;
    d.bodies[0].position = {0.58, 0.45, 0};
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0]: the body is outside the container on axis x"))
        << first_problem(d);
    d = def;
    d.bodies[0].shape = BodyShape::sphere;
    EXPECT_EQ(first_problem(d), "bodies[0].shape: 2D scenes take box, circle or polygon");
    d = def;
    d.bodies[0].shape = BodyShape::polygon;
    d.bodies[0].vertices = {{0, 0, 0}, {0.1, 0, 0}};
    EXPECT_EQ(first_problem(d), "bodies[0].vertices: a polygon needs at least 3 corners, got 2");
    d.bodies[0].vertices = {{0, 0, 0}, {0.1, 0.1, 0}, {0.1, 0, 0}, {0, 0.1, 0}};  // a bow tie
    EXPECT_EQ(first_problem(d), "bodies[0].vertices: edges 0 and 2 cross or overlap (edge k joins "
                                "corners k and k + 1); a polygon body must be simple");
    // 100,000 corners (a valid star): refused by count at once; the check of every edge
    // against every other hung here before the bound.
    d.bodies[0].vertices.clear();
    for (int k = 0; k < 100000; ++k) {
        const double a = 2 * 3.141592653589793 * k / 100000, r = 0.05 * (1 + 0.1 * (k % 2));
        d.bodies[0].vertices.push_back({r * std::cos(a), r * std::sin(a), 0});
    }
    EXPECT_EQ(first_problem(d), "bodies[0].vertices: a polygon may have at most 2000 corners, got "
                                "100000 (simplify the outline: corners much closer than a "
                                "particle spacing add nothing to its boundary particles)");
    // Two corners of a circle swapped: the grid of the crossing check finds the first pair of
    // edges that cross, as the check of every pair did (edge 9 now runs to corner 500's place
    // and crosses edge 500, which starts at corner 10's).
    d.bodies[0].vertices.clear();
    for (int k = 0; k < 1000; ++k) {  // a circle of 1,000 corners
        const double a = 2 * 3.141592653589793 * k / 1000, r = 0.05;
        d.bodies[0].vertices.push_back({r * std::cos(a), r * std::sin(a), 0});
    }
    EXPECT_EQ(first_problem(d), "accepted");
    std::swap(d.bodies[0].vertices[10], d.bodies[0].vertices[500]);
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0].vertices: edges 9 and 500 cross"))
        << first_problem(d);
    // A million metres across: refused by its size before its outline is sampled.
    d.bodies[0].vertices = {{0, 0, 0}, {1e6, 0, 0}, {1e6, 1e6, 0}};
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0].vertices: the polygon (1414213.") &&
                first_problem(d).find("m across its corners) is larger than the container") !=
                    std::string::npos)
        << first_problem(d);
    d.bodies[0].vertices = {{0, 0, 0}, {0.2, 0, 0}, {0.2, 0.004, 0}};  // a sliver
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0].vertices: the polygon is too thin"))
        << first_problem(d);
    d.bodies[0].vertices = {{0, 0, 0}, {0.1, 0, 0}, {0.1, 0.1, 0}};
    EXPECT_EQ(first_problem(d), "accepted");
    d.bodies[0].shape = BodyShape::box;
    EXPECT_EQ(first_problem(d), "bodies[0].vertices: only a polygon has vertices");
    d = def;
    d.bodies[0].size = {0.1, 0.001, 0};
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0].size: a box needs every extent at least one"))
        << first_problem(d);
    d = def;
    d.bodies[0].motion_start = 1.0;
    d.bodies[0].motion_stop = 0.5;
    EXPECT_EQ(first_problem(d), "bodies[0].motion_stop: must not be before motion_start (1 s), got 0.5");
    d = def;
    d.bodies[0].rotation = {0.1, 0, 0};
    EXPECT_EQ(first_problem(d), "bodies[0].rotation: a 2D body turns about z only: give [0, 0, z]");
    // Names are bodies.csv's second column and tell the bodies apart there.
    d = def;
    d.bodies[0].name = "crate, big";
    EXPECT_EQ(first_problem(d), "bodies[0].name: expected a name without commas, quotes or control "
                                "characters (it is a column of bodies.csv), got \"crate, big\"");
    d.bodies[0].name = "line\nbreak";
    EXPECT_TRUE(first_problem(d).starts_with("bodies[0].name: expected a name without")) << first_problem(d);
    d = def;
    d.bodies[0].name = "box";
    d.bodies.push_back(d.bodies[0]);
    d.bodies[1].position = {0.45, 0.45, 0};
    EXPECT_EQ(first_problem(d), "bodies[1].name: \"box\" is already the name of bodies[0] (bodies.csv "
                                "tells bodies apart by name)");
    d.bodies[0].name = "";
    d.bodies[1].name = "body_0";  // the first body's default name
    EXPECT_EQ(first_problem(d), "bodies[1].name: \"body_0\" is already the name of bodies[0] "
                                "(bodies.csv tells bodies apart by name)");
    d.bodies[1].name = "";
    EXPECT_EQ(first_problem(d), "accepted");
    d = def;
    d.dimension = 3;
    d.container_max = {0.6, 0.6, 0.6};
    d.fluid[0].max = {0.6, 0.3, 0.6};
    d.bodies[0].size = {0.1, 0.1, 0.1};
    d.bodies[0].position = {0.3, 0.355, 0.3};
    d.bodies[0].shape = BodyShape::circle;
    EXPECT_EQ(first_problem(d), "bodies[0].shape: circle is a 2D shape; 3D scenes take box, sphere, cylinder or mesh");
    EXPECT_THROW(World<2>{d}, DefinitionError);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// A checkpoint holds the bodies' poses and velocities: a floating box (touching nothing, so Bullet
// keeps no contact state) continues bit for bit.
TEST(Bodies, CheckpointContinuesAFloatingBoxBitwise) {
    const WorldDef def = floating_box_2d(500, SolverType::pbf);
    World<2> whole(def);
    whole.advance_to(0.6);
    World<2> first(def);
    first.advance_to(0.3);
    std::stringstream saved;
    first.save(saved);
    World<2> second(def);
    second.restore(saved);
    second.advance_to(0.6);
    ASSERT_EQ(second.steps(), whole.steps());
    const auto& a = whole.boundary_objects()[whole.body_object(0)];
    const auto& b = second.boundary_objects()[second.body_object(0)];
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(a.velocity, b.velocity);
    EXPECT_EQ(a.angular_velocity, b.angular_velocity);
    EXPECT_TRUE(whole.particles().x == second.particles().x);
}

// The body's forces are summed in a fixed order: one and two threads give the same bits.
TEST(Bodies, BitwiseIdenticalForOneAndTwoThreads) {
    const WorldDef def = floating_box_2d(800, SolverType::wcsph);
    set_thread_count(1);
    World<2> one(def);
    one.advance_to(0.3);
    set_thread_count(2);
    World<2> two(def);
    two.advance_to(0.3);
    set_thread_count(0);
    const auto& a = one.boundary_objects()[one.body_object(0)];
    const auto& b = two.boundary_objects()[two.body_object(0)];
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(a.rotation, b.rotation);
    EXPECT_TRUE(one.particles().x == two.particles().x);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// A slot 0.1 m wide pouring down at 1 m/s into an empty 2D tank (with a small pool so the scene
// has fluid to start from).
WorldDef pouring_2d() {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.6, 0.6, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.6, 0.05, 0}, {}}};
    Emitter e;
    e.position = {0.3, 0.5, 0};
    e.direction = {0, -1, 0};
    e.width = 0.1;
    e.speed = 1.0;
    e.start = 0.1;
    e.stop = 0.6;
    def.emitters = {e};
    return def;
}

// The fluid count grows at the emitter's rate: (width / d) sites × speed / d particles per second
// while it is open, and not before or after.
TEST(Emitters, FluidGrowsAtTheEmittersRate) {
    const WorldDef def = pouring_2d();
    World<2> w(def);
    const std::size_t n0 = w.particles().size();
    w.advance_to(0.1);
    EXPECT_EQ(w.particles().size(), n0);  // not open yet
    w.advance_to(0.6);
    const double rate = emitter_rate<2>(def.emitters[0], 0.01f);  // 10 sites × 1 m/s / 0.01 m
    EXPECT_NEAR(rate, 1000.0, 1e-3);
    const double added = double(w.particles().size() - n0);
    std::printf("emitted %.0f particles in 0.5 s; rate × time %.0f\n", added, rate * 0.5);
    EXPECT_NEAR(added, rate * 0.5, 0.02 * rate * 0.5);
    EXPECT_EQ(w.total_emitted(), w.particles().size() - n0);
    w.advance_to(0.8);
    EXPECT_EQ(w.particles().size(), n0 + std::size_t(added));  // closed
    // Ids stay unique: the new particles got fresh ones.
    std::vector<std::uint32_t> ids = w.particles().id;
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
    EXPECT_EQ(w.next_id(), w.particles().size());
}

// A block dropped into resting water from the API (the viewer's click): it falls, joins the
// pool and raises it by its own area over the tank's width; ids continue; bad blocks refused.
TEST(Emitters, ParticlesAddedFromTheApiJoinThePool) {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.005;
    def.container_max = {0.5, 0.5, 0};
    def.fluid = {{{0.0, 0.0, 0}, {0.5, 0.2, 0}, {}}};
    World<2> w(def);
    w.advance_to(0.2);
    const std::size_t n0 = w.particles().size();
    std::vector<Vec<2>> x, v;
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 10; ++j) {
            x.push_back({0.2f + 0.01f * i + 0.005f, 0.35f + 0.01f * j + 0.005f});
            v.push_back({0.0f, -1.0f});
        }
    w.add_particles(x, v);
    EXPECT_EQ(w.particles().size(), n0 + 100);
    EXPECT_EQ(w.total_emitted(), 100u);
    EXPECT_EQ(w.next_id(), n0 + 100);
    // Refused, the world unchanged: outside the container, NaN, unequal counts.
    const std::vector<Vec<2>> outside = {{0.6f, 0.3f}}, nan = {{NAN, 0.3f}}, one = {{0.0f, 0.0f}};
    EXPECT_THROW(w.add_particles(outside, one), std::invalid_argument);
    EXPECT_THROW(w.add_particles(nan, one), std::invalid_argument);
    EXPECT_THROW(w.add_particles(one, {}), std::invalid_argument);
    EXPECT_EQ(w.particles().size(), n0 + 100);
    ASSERT_EQ(w.advance_to(2.0).status, AdvanceResult::Status::reached);
    // The pool is 0.1 m × 0.1 m / 0.5 m = 0.02 m deeper: its centre of mass, half its depth,
    // rises from 0.1 m to 0.11 m (the waves of the splash move it little).
    double y = 0;
    for (const auto& p : w.particles().x) y += p.y;
    y /= double(w.particles().size());
    std::printf("centre of mass %.4f m after the drop (0.11 m expected)\n", y);
    EXPECT_NEAR(y, 0.11, 0.003);
    for (const auto& p : w.particles().x) ASSERT_TRUE(w.container().contains(p));
}

// A sink removes what flows into it; the rest keeps going, ids unique.
TEST(Emitters, SinkRemovesTheFluidThatReachesIt) {
    WorldDef def = pouring_2d();
    def.sinks = {{{0.0, 0.0, 0}, {0.6, 0.03, 0}}};  // the bottom of the tank
    World<2> w(def);
    w.advance_to(0.8);
    EXPECT_GT(w.total_removed(), 500u);
    for (const auto& x : w.particles().x) EXPECT_FALSE(x.y <= 0.03f) << x.x << " " << x.y;
    EXPECT_EQ(w.particles().size() + w.total_removed(), w.next_id());
    std::vector<std::uint32_t> ids = w.particles().id;
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

// Emitting and draining are serial and in a fixed order: one and two threads give the same
// bits, and a checkpoint taken mid-pour continues bit for bit.
TEST(Emitters, BitwiseForAnyThreadCountAndAcrossACheckpoint) {
    WorldDef def = pouring_2d();
    def.sinks = {{{0.0, 0.0, 0}, {0.1, 0.03, 0}}};
    set_thread_count(1);
    World<2> one(def);
    one.advance_to(0.3);  // the steps the checkpointed run below takes
    one.advance_to(0.5);
    set_thread_count(2);
    World<2> two(def);
    two.advance_to(0.3);
    two.advance_to(0.5);
    set_thread_count(0);
    EXPECT_TRUE(one.particles().x == two.particles().x);
    EXPECT_TRUE(one.particles().id == two.particles().id);

    World<2> first(def);
    first.advance_to(0.3);
    std::stringstream saved;
    first.save(saved);
    World<2> second(def);
    second.restore(saved);
    second.advance_to(0.5);
    EXPECT_TRUE(second.particles().x == one.particles().x);
    EXPECT_TRUE(second.particles().id == one.particles().id);
    EXPECT_EQ(second.total_emitted(), one.total_emitted());
}

TEST(Emitters, BadEmittersAreRefusedWithTheirPath) {
    WorldDef def = pouring_2d();
    EXPECT_EQ(first_problem(def), "accepted");
    WorldDef d = def;
    d.emitters[0].position = {0.3, 0.599, 0};
    d.emitters[0].direction = {1, 0, 0};  // a vertical slot reaching above the lid
    EXPECT_TRUE(first_problem(d).starts_with("emitters[0]: the emitter is outside the container on axis y"))
        << first_problem(d);
    d = def;
    d.emitters[0].direction = {0, 0, 0};
    EXPECT_EQ(first_problem(d), "emitters[0].direction: must not be zero");
    d = def;
    d.emitters[0].width = 0.001;
    EXPECT_TRUE(first_problem(d).starts_with("emitters[0].width: expected at least one particle diameter"));
    d = def;
    d.emitters[0].shape = EmitterShape::circle;
    EXPECT_EQ(first_problem(d), "emitters[0].shape: 2D emitters are slots: give rectangle and width");
    d = def;
    d.sinks = {{{0.5, 0, 0}, {0.4, 0.1, 0}}};
    EXPECT_TRUE(first_problem(d).starts_with("sinks[0]: max must be greater than min on axis x"));
    // An opening inside a static box: refused, naming the site and the body (the emitted fluid
    // was thrown out of the box in its first steps); beside the box it is accepted.
    d = def;
    BodyDef block;
    block.size = {0.2, 0.1, 0};
    block.position = {0.3, 0.5, 0};
    d.bodies = {block};
    EXPECT_EQ(first_problem(d), "emitters[0]: a site at (0.255, 0.5) is inside bodies[0]; fluid "
                                "cannot be emitted into a solid");
    d.bodies[0].position = {0.3, 0.3, 0};
    EXPECT_EQ(first_problem(d), "accepted");
    // An opening a million metres wide is refused by its site count before any site is made
    // (listing them took the run's memory and time); in 3D a square one, 10¹⁴ sites.
    d = def;
    d.emitters[0].width = 1e6;
    EXPECT_TRUE(first_problem(d).starts_with("emitters[0]: the opening holds 10000000") &&
                first_problem(d).find(" particle sites, at most 1000000 (0.01 m particles") !=
                    std::string::npos)
        << first_problem(d);
    WorldDef d3 = def;
    d3.dimension = 3;
    d3.gravity = {0, -9.81, 0};
    d3.container_max[2] = 0.2;
    d3.fluid[0].max[2] = 0.2;
    d3.emitters[0].position[2] = 0.1;
    d3.emitters[0].width = 1e6;
    d3.emitters[0].height = 1e6;
    EXPECT_TRUE(first_problem(d3).starts_with("emitters[0]: the opening holds 1.00000") &&
                first_problem(d3).find("e+16 particle sites") != std::string::npos)
        << first_problem(d3);
}

}  // namespace
}  // namespace seiche

#include "seiche/bodies.hpp"
#include "seiche/io/mesh_reader.hpp"
#include "seiche/io/scene_loader.hpp"
#include "seiche/mesh_sdf.hpp"

namespace seiche {
namespace {

// The shipped glass scene, pouring for 1 s (900 particles, the glass about 80% full): the fluid
// count grows at the emitter's rate, no particle is ever inside the glass's wall (tested
// exactly against the triangles), and all the poured water ends in the glass, through none of
// its walls.
TEST(MeshBodies, PouringIntoAGlassFillsItThroughNoWall) {
    Scene s = io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/pour_into_glass_3d.json",
                             {"emitters[0].stop=1.0"});
    World<3> w(s);
    const std::size_t n0 = w.particles().size();
    const auto& glass = w.boundary_objects()[w.body_object(0)];
    ASSERT_EQ(glass.kind, ShapeKind::mesh);
    ASSERT_TRUE(glass.mesh);
    float deepest = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        if (st.step % 10 != 0) return true;
        for (const auto& x : w.particles().x) {
            const Vec<3> l = glass.to_local(x);
            if (!inside_mesh(*glass.mesh, l)) continue;
            deepest = std::max(deepest, mesh_distance(*glass.mesh, l));
        }
        return true;
    };
    EXPECT_EQ(w.advance_to(1.5, o).status, AdvanceResult::Status::reached);
    const double rate = emitter_rate<3>(s.emitters[0], 0.01f);
    EXPECT_NEAR(double(w.particles().size() - n0), rate * 1.0, 0.02 * rate);
    EXPECT_EQ(deepest, 0.0f) << "a particle " << deepest << " m inside the glass's wall";
    std::size_t in_glass = 0;
    for (std::size_t i = 0; i < w.particles().size(); ++i) {
        if (w.particles().id[i] < n0) continue;  // the tray's water
        const Vec<3> l = glass.to_local(w.particles().x[i]);
        const float r = std::sqrt(l.x * l.x + l.z * l.z);
        in_glass += r < 0.05f && l.y > 0.02f && l.y < 0.16f ? 1 : 0;
    }
    std::printf("poured %zu, in the glass %zu\n", w.particles().size() - n0, in_glass);
    EXPECT_EQ(in_glass, w.particles().size() - n0);
}

// A tessellated sphere collides like the analytic one it approximates: no particle centre
// closer to its centre than the inscribed radius.
// The signed distance grid takes the winding number only near the surface and spreads the sign
// elsewhere: at every node of the glass's grid (thin walls, a hollow inside, cells of 4 mm) the
// sign is the winding number's, and the magnitude the exact distance.
// The grid's signs (near the surface from the nearest feature's pseudo-normal, spread beyond)
// are the winding numbers', node by node, for each shipped mesh.
TEST(MeshBodies, SdfGridSignsAreTheWindingNumbers) {
  for (const char* file : {"glass.obj", "tank.obj"}) {
    SCOPED_TRACE(file);
    const MeshData mesh = io::read_mesh(std::string(SEICHE_SOURCE_DIR) + "/scenes/meshes/" + file);
    const auto grid = build_sdf(mesh, file[0] == 'g' ? 0.004f : 0.01f, file[0] == 'g' ? 0.016f : 0.04f);
    std::size_t inside = 0, checked = 0;
    for (int z = 0; z < grid->n[2]; ++z)
        for (int y = 0; y < grid->n[1]; ++y)
            for (int x = 0; x < grid->n[0]; ++x) {
                const Vec<3> p = grid->origin + grid->cell * Vec<3>(float(x), float(y), float(z));
                const float v = grid->value[(std::size_t(z) * grid->n[1] + y) * grid->n[0] + x];
                ASSERT_NEAR(std::abs(v), mesh_distance(mesh, p), 1e-6f);  // (fused or not)
                // On the surface the winding number is 1/2 and the sign a toss-up: only off it.
                if (std::abs(v) < 1e-5f) continue;
                const bool in = inside_mesh(mesh, p);
                ASSERT_EQ(v < 0, in) << x << " " << y << " " << z << ": " << v;
                inside += in;
                ++checked;
            }
    EXPECT_GT(inside, 100u);
    EXPECT_GT(checked - inside, 100u);  // both signs, far and near
  }
}

TEST(MeshBodies, ObjSphereKeepsTheFluidOut) {
    // An icosphere-like UV sphere of radius 0.05 m, written as OBJ and read back.
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "seiche_test_sphere.obj";
    {
        std::ofstream out(file);
        const int rings = 12, segs = 24;
        out << "v 0 0.05 0\n";
        for (int i = 1; i < rings; ++i)
            for (int j = 0; j < segs; ++j) {
                const double phi = M_PI * i / rings, t = 2 * M_PI * j / segs;
                out << "v " << 0.05 * std::sin(phi) * std::cos(t) << " " << 0.05 * std::cos(phi) << " "
                    << -0.05 * std::sin(phi) * std::sin(t) << "\n";
            }
        out << "v 0 -0.05 0\n";
        auto idx = [&](int i, int j) { return 2 + (i - 1) * segs + (j % segs); };
        for (int j = 0; j < segs; ++j) out << "f 1 " << idx(1, j) << " " << idx(1, j + 1) << "\n";
        for (int i = 1; i + 1 < rings; ++i)
            for (int j = 0; j < segs; ++j)
                out << "f " << idx(i, j) << " " << idx(i + 1, j) << " " << idx(i + 1, j + 1) << " "
                    << idx(i, j + 1) << "\n";
        const int last = 2 + (rings - 1) * segs;
        for (int j = 0; j < segs; ++j) out << "f " << idx(rings - 1, j + 1) << " " << idx(rings - 1, j) << " " << last << "\n";
    }
    const MeshData mesh = io::read_mesh(file);
    EXPECT_EQ(open_edges(mesh), 0u);
    WorldDef def;
    def.dimension = 3;
    def.particle_radius = 0.01;
    def.container_max = {0.4, 0.4, 0.3};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.15, 0.3, 0.3}, {}}};
    BodyDef b;
    b.shape = BodyShape::mesh;
    b.mesh_file = file.string();
    b.mesh = std::make_shared<const MeshData>(mesh);
    b.position = {0.27, 0.06, 0.15};
    def.bodies = {b};
    World<3> w(def);
    const Vec<3> centre(0.27f, 0.06f, 0.15f);
    const float inscribed = 0.05f * float(std::cos(M_PI / 12));  // the facets' nearest points
    float closest = 1;
    AdvanceOptions o;
    o.on_step = [&](const StepStats&) {
        for (const auto& x : w.particles().x) closest = std::min(closest, glm::length(x - centre));
        return true;
    };
    EXPECT_EQ(w.advance_to(0.6, o).status, AdvanceResult::Status::reached);
    std::printf("closest centre %.4f m from the sphere's centre (inscribed %.4f, + r %.4f)\n", closest,
                inscribed, inscribed + 0.01f);
    EXPECT_GE(closest, inscribed);
    std::filesystem::remove(file);
}

// A closed box as a triangle mesh, side `a`, centred on the origin (12 triangles, outward).
MeshData cube_mesh(float a) {
    MeshData m;
    for (int k = 0; k < 8; ++k)
        m.vertices.push_back({(k & 1 ? 0.5f : -0.5f) * a, (k & 2 ? 0.5f : -0.5f) * a, (k & 4 ? 0.5f : -0.5f) * a});
    const std::uint32_t q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : q) {
        m.triangles.push_back({f[0], f[1], f[2]});
        m.triangles.push_back({f[0], f[2], f[3]});
    }
    return m;
}

// A mesh that holds the fluid ("inside": true) is a container like the box: water resting in a
// cube mesh settles as in a container box of the same size — the same mean height within a
// tenth of r and the same density error within 0.3 points — so its outside layers give the
// walls' density as the box's walls do; and no particle ever leaves it.
TEST(MeshBodies, CubeMeshHoldsWaterAsTheContainerBoxDoes) {
    const float a = 0.2f;
    WorldDef box;
    box.dimension = 3;
    box.particle_radius = 0.01;
    box.container_max = {a, a, a};
    box.fluid = {{{0.0, 0.0, 0.0}, {a, 0.1, a}, {}}};
    WorldDef tank = box;
    tank.container_max = {0.4, 0.4, 0.4};
    tank.fluid = {{{0.1, 0.1, 0.1}, {0.1 + a, 0.2, 0.1 + a}, {}}};
    BodyDef mesh;
    mesh.shape = BodyShape::mesh;
    mesh.mesh = std::make_shared<const MeshData>(cube_mesh(a));
    mesh.inside = true;
    mesh.position = {0.2, 0.2, 0.2};
    tank.bodies = {mesh};
    // Mean height of the particles above the floor after 1 s, the density error of the last
    // step, the contained count over the run; with a holding mesh, the nearest any particle came
    // to its wall.
    struct Settled {
        double height = 0, error = 0;
        std::size_t contained = 0;
        float nearest = 1;
    };
    auto settle = [](const WorldDef& def, double floor) {
        World<3> w(def);
        Settled r;
        AdvanceOptions o;
        o.on_step = [&](const StepStats& s) {
            if (!def.bodies.empty())
                for (const auto& x : w.particles().x)
                    r.nearest = std::min(r.nearest, w.boundary_objects()[w.body_object(0)].signed_distance(x));
            r.error = s.density_error_mean;
            r.contained += s.contained;
            return true;
        };
        EXPECT_EQ(w.advance_to(1.0, o).status, AdvanceResult::Status::reached);
        for (const auto& x : w.particles().x) r.height += x.y - floor;
        r.height /= double(w.particles().size());
        return r;
    };
    const Settled in_box = settle(box, 0.0), in_mesh = settle(tank, 0.1);
    const double y_box = in_box.height, y_mesh = in_mesh.height, e_box = in_box.error, e_mesh = in_mesh.error;
    const float worst = in_mesh.nearest;
    std::printf("mean height above the floor: box %.5f m, cube mesh %.5f m; density error %.3f%% / %.3f%%; "
                "nearest to the mesh's wall %.4f m\n", y_box, y_mesh, 100 * e_box, 100 * e_mesh, worst);
    EXPECT_EQ(in_mesh.contained, 0u);
    EXPECT_NEAR(y_mesh, y_box, 0.1 * 0.01);
    EXPECT_NEAR(e_mesh, e_box, 0.003);
    EXPECT_GE(worst, 0.0f);
}

// The shipped sloshing tank at r = 1 cm: the closed tank mesh rocks ±0.25 rad on its keyframes
// with the water inside; no particle is ever outside it and none needs the last-resort
// containment. Refused: "inside" on a shape other than a mesh, fluid that starts outside it.
TEST(MeshBodies, WaterStaysInsideTheRockingTank) {
    const std::string file = std::string(SEICHE_SOURCE_DIR) + "/scenes/sloshing_tank_3d.json";
    Scene s = io::load_scene(file, {"particle_radius=0.01"});
    World<3> w(s);
    const auto& tank = w.boundary_objects()[w.body_object(0)];
    ASSERT_TRUE(tank.fluid_inside);
    float nearest = 1;
    std::size_t contained = 0;
    float turned = 0;
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        for (const auto& x : w.particles().x) {  // exactly, against the triangles
            const Vec<3> l = tank.to_local(x);
            const float d = mesh_distance(*tank.mesh, l);
            nearest = std::min(nearest, inside_mesh(*tank.mesh, l) ? d : -d);
        }
        contained += st.contained;
        turned = std::max(turned, std::abs(std::atan2(tank.rotation[1][0], tank.rotation[1][1])));
        return true;
    };
    EXPECT_EQ(w.advance_to(1.2, o).status, AdvanceResult::Status::reached);
    std::printf("tank turned up to %.3f rad from upright; nearest particle centre %.4f m inside its wall\n",
                turned, nearest);
    EXPECT_GT(turned, 1.5708f + 0.2f);  // it did rock (its axis lies along x: 90° from upright)
    EXPECT_GE(nearest, 0.0f);
    EXPECT_EQ(contained, 0u);

    auto error = [&](std::vector<std::string> sets) {
        try {
            io::load_scene(file, sets);
        } catch (const io::SceneError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_TRUE(error({"fluid[0].min=[0.1,0.19,0.1]"}).starts_with(
        "bodies[0]: fluid[0] is not inside the body that holds the fluid"))
        << error({"fluid[0].min=[0.1,0.19,0.1]"});
    // A block wholly beside the tank (x beyond its 0.65 m), inside the container: it was
    // accepted, as only the sites within the tank's bounds were tested.
    const std::vector<std::string> beside = {"fluid[0].min=[0.67,0.0,0.0]", "fluid[0].max=[0.79,0.1,0.1]"};
    EXPECT_TRUE(error(beside).starts_with(
        "bodies[0]: fluid[0] is not inside the body that holds the fluid"))
        << error(beside);
    EXPECT_EQ(error({"bodies[0].shape=sphere", "bodies[0].radius=0.1"}),
              "bodies[0].inside: only a mesh body can hold the fluid inside it (for a box, use the container)");
}

// Mass properties of a closed mesh against a box's exact ones: 0.1 × 0.2 × 0.3 m with a corner at
// (1, 2, 3) (far from the origin, so the raw integrals are large against the result), then turned
// 0.5 rad about z, where the tensor gains I_xy = cos·sin·(I_xx − I_yy).
TEST(MeshBodies, MassPropertiesOfABoxMesh) {
    const double a = 0.1, b = 0.2, c = 0.3, v = a * b * c;
    MeshData m = cube_mesh(1.0f);
    for (auto& p : m.vertices) p = {float(p[0] * a + 1 + a / 2), float(p[1] * b + 2 + b / 2), float(p[2] * c + 3 + c / 2)};
    MassProperties mp = mass_properties(m);
    EXPECT_NEAR(mp.volume, v, 1e-6 * v);  // float corners
    EXPECT_NEAR(mp.centroid[0], 1.05, 1e-6);
    EXPECT_NEAR(mp.centroid[1], 2.1, 1e-6);
    EXPECT_NEAR(mp.centroid[2], 3.15, 1e-6);
    const double ixx = v * (b * b + c * c) / 12, iyy = v * (a * a + c * c) / 12, izz = v * (a * a + b * b) / 12;
    EXPECT_NEAR(mp.inertia[0], ixx, 1e-4 * ixx);
    EXPECT_NEAR(mp.inertia[1], iyy, 1e-4 * iyy);
    EXPECT_NEAR(mp.inertia[2], izz, 1e-4 * izz);
    for (int k = 3; k < 6; ++k) EXPECT_NEAR(mp.inertia[k], 0.0, 1e-4 * izz) << k;
    // Turned about z through the box's centre; the triangles reversed: the same solid.
    const double t = 0.5, ct = std::cos(t), st = std::sin(t);
    for (auto& p : m.vertices) {
        const double x = p[0] - 1.05, y = p[1] - 2.1;
        p = {float(ct * x - st * y + 1.05), float(st * x + ct * y + 2.1), p[2]};
    }
    for (auto& tri : m.triangles) std::swap(tri[1], tri[2]);
    mp = mass_properties(m);
    EXPECT_NEAR(mp.volume, v, 1e-6 * v);
    EXPECT_NEAR(mp.inertia[0], ct * ct * ixx + st * st * iyy, 1e-4 * ixx);
    EXPECT_NEAR(mp.inertia[1], st * st * ixx + ct * ct * iyy, 1e-4 * ixx);
    EXPECT_NEAR(mp.inertia[3], ct * st * (ixx - iyy), 1e-4 * ixx);
    EXPECT_NEAR(mp.inertia[4], 0.0, 1e-4 * ixx);
}

// A dynamic mesh body: the plate of FloatingBox3D (0.24 × 0.12 × 0.24 m, 500 kg/m³) given as a
// mesh whose file puts its corner at the origin and turns it 0.4 rad about z; the body turns it
// back. It must float flat at the same draft as the box (3% of its height): its centre of mass,
// mass, principal axes of inertia and Bullet's GImpact contact shape all go into that.
TEST(MeshBodies, DynamicMeshFloatsAsTheBoxDoes) {
    MeshData m = cube_mesh(1.0f);
    const double t = 0.4, ct = std::cos(t), st = std::sin(t);
    for (auto& p : m.vertices) {
        const double x = (p[0] + 0.5) * 0.24, y = (p[1] + 0.5) * 0.12, z = (p[2] + 0.5) * 0.24;
        p = {float(ct * x - st * y), float(st * x + ct * y), float(z)};
    }
    BodyDef plate;
    plate.shape = BodyShape::mesh;
    plate.mesh = std::make_shared<const MeshData>(m);
    plate.rotation = {0, 0, -t};
    plate.position = {0.225, 0.25 + 0.06 + 0.005, 0.225};
    plate.motion = BodyMotion::dynamic;
    plate.density = 500;
    const auto [draft, rotation] = settled_draft_3d(plate, SolverType::pbf);
    const float upright = (rotation * Vec<3>(float(-st), float(ct), 0.0f)).y;  // the plate's normal
    std::printf("3D mesh plate, rho_b 500: draft %.4f m, Archimedes 0.0600 m, upright %.4f\n", draft, upright);
    EXPECT_NEAR(draft, 0.06, 0.03 * 0.12);
    EXPECT_GT(upright, 0.995f);  // flat
}

// Zero gravity, the fluid far away: a brick (0.1 × 0.2 × 0.3 m) whose file turns it off its
// axes, spun about a skew axis, keeps its angular momentum L = R·I·Rᵀ·ω (I from the mesh, in the
// body's frame) and its kinetic energy within 1% over 1 s while its ω wanders (it tumbles):
// Bullet's body frame must be the mesh's principal frame for that.
TEST(MeshBodies, TumblingMeshKeepsItsAngularMomentum) {
    MeshData m = cube_mesh(1.0f);
    const Mat<3> turn = rotation_from_euler<3>({0.3, 0.0, 0.5});
    for (auto& p : m.vertices) {
        const Vec<3> q = turn * Vec<3>(p[0] * 0.1f, p[1] * 0.2f, p[2] * 0.3f);
        p = {q.x + 0.01f, q.y - 0.02f, q.z};  // the centre of mass off the file's origin too
    }
    WorldDef def;
    def.dimension = 3;
    def.particle_radius = 0.01;
    def.gravity = {0, 0, 0};
    def.container_max = {1.0, 1.0, 1.0};
    def.fluid = {{{0.0, 0.0, 0.0}, {0.1, 0.1, 0.1}, {}}};
    BodyDef brick;
    brick.shape = BodyShape::mesh;
    brick.mesh = std::make_shared<const MeshData>(m);
    brick.position = {0.6, 0.6, 0.6};
    brick.motion = BodyMotion::dynamic;
    brick.density = 1000;
    brick.angular_velocity = {1.0, 2.0, 3.0};
    def.bodies = {brick};
    World<3> w(def);
    const auto& b = w.boundary_objects()[w.body_object(0)];
    const MassProperties mp = mass_properties(*b.mesh);  // of the body's (shifted) mesh
    const auto& t = mp.inertia;
    const glm::dmat3 inertia(t[0], t[3], t[5], t[3], t[1], t[4], t[5], t[4], t[2]);
    auto momentum = [&] {
        const glm::dmat3 r(b.rotation);
        return 1000.0 * (r * inertia * glm::transpose(r)) * glm::dvec3(b.angular_velocity);
    };
    const glm::dvec3 l0 = momentum();
    const double e0 = 0.5 * glm::dot(glm::dvec3(b.angular_velocity), l0);
    EXPECT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
    const glm::dvec3 l1 = momentum();
    const double e1 = 0.5 * glm::dot(glm::dvec3(b.angular_velocity), l1);
    std::printf("L (%.5f, %.5f, %.5f) -> (%.5f, %.5f, %.5f); E %.5f -> %.5f J; w now (%.3f, %.3f, %.3f)\n",
                l0.x, l0.y, l0.z, l1.x, l1.y, l1.z, e0, e1, b.angular_velocity.x, b.angular_velocity.y,
                b.angular_velocity.z);
    EXPECT_LT(glm::length(l1 - l0), 0.01 * glm::length(l0));
    EXPECT_NEAR(e1, e0, 0.01 * e0);
    EXPECT_GT(glm::length(glm::dvec3(b.angular_velocity) - glm::dvec3(1, 2, 3)), 0.1);  // it tumbles
    EXPECT_NEAR(glm::length(glm::dvec3(b.position) - glm::dvec3(0.6)), 0.0, 1e-4);  // about its centre
}

// A closed mesh whose triangles turn inward (as exported with flipped normals) was a body with no
// inside: its winding number is −1 there, read as "outside" everywhere, so it had no boundary
// particles and the fluid passed through it, silently (issue 45). Either turn is the same solid.
TEST(MeshBodies, AMeshTurnedInsideOutIsTheSameSolid) {
    const std::string source = std::string(SEICHE_SOURCE_DIR) + "/scenes/meshes/glass.obj";
    const std::filesystem::path flipped = std::filesystem::temp_directory_path() / "seiche_glass_inward.obj";
    {
        std::ifstream in(source);
        std::ofstream out(flipped);
        std::string line;
        while (std::getline(in, line)) {
            if (line.starts_with("f ")) {
                std::istringstream f(line.substr(2));
                std::string a, b, c;
                f >> a >> b >> c;
                line = "f " + a + " " + c + " " + b;
            }
            out << line << "\n";
        }
    }
    const MeshData inward = io::read_mesh(flipped);
    const Vec<3> inside_wall(0.06f, 0.08f, 0.0f);  // in the glass's wall (radii 0.05 to 0.07)
    EXPECT_TRUE(inside_mesh(inward, inside_wall));
    EXPECT_FALSE(inside_mesh(inward, Vec<3>(0.0f, 0.08f, 0.0f)));  // in the cup, not the solid
    const std::string scene = std::string(SEICHE_SOURCE_DIR) + "/scenes/pour_into_glass_3d.json";
    World<3> as_made(io::load_scene(scene));
    World<3> turned(io::load_scene(scene, {"bodies[0].mesh=" + flipped.string()}));
    World<3> without(io::load_scene(scene, {"bodies=[]"}));
    const std::size_t glass = as_made.boundary().x.size() - without.boundary().x.size();
    EXPECT_GT(glass, 500u);
    EXPECT_NEAR(double(turned.boundary().x.size()), double(as_made.boundary().x.size()), 0.01 * glass);
    std::filesystem::remove(flipped);
}

TEST(MeshBodies, MissingOpenOrDynamicMeshesAreRefused) {
    const std::string base = std::string(SEICHE_SOURCE_DIR) + "/scenes/pour_into_glass_3d.json";
    auto error = [&](std::vector<std::string> sets) {
        try {
            io::load_scene(base, sets);
        } catch (const io::SceneError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(error({}), "accepted");
    const std::string missing = error({"bodies[0].mesh=meshes/no_such_glass.obj"});
    EXPECT_TRUE(missing.starts_with("bodies[0].mesh: ") && missing.find("no_such_glass.obj: cannot read") != std::string::npos)
        << missing;
    // A dynamic glass turns about its centre of mass, put at `position`: lifted, it fits.
    EXPECT_TRUE(error({"bodies[0].motion=dynamic", "bodies[0].density=500"})
                    .starts_with("bodies[0]: the body is outside the container on axis y"));
    EXPECT_EQ(error({"bodies[0].motion=dynamic", "bodies[0].density=500", "bodies[0].position=[0.15,0.1,0.15]"}),
              "accepted");
    EXPECT_EQ(error({"bodies[0].motion=dynamic", "bodies[0].density=500", "bodies[0].inside=true"}),
              "bodies[0].motion: a mesh that holds the fluid (inside) is static or kinematic");
    // The glass without its top ring of triangles: open at the rim.
    const std::filesystem::path open_file = std::filesystem::temp_directory_path() / "seiche_open_glass.obj";
    {
        std::ifstream in(std::string(SEICHE_SOURCE_DIR) + "/scenes/meshes/glass.obj");
        std::ofstream out(open_file);
        std::string line;
        int faces = 0;
        while (std::getline(in, line)) {
            if (line.starts_with("f ") && ++faces % 7 == 0) continue;  // holes
            out << line << "\n";
        }
    }
    const std::string open = error({"bodies[0].mesh=" + open_file.string()});
    EXPECT_TRUE(open.starts_with("bodies[0].mesh: ") && open.find("is not closed") != std::string::npos) << open;
    std::filesystem::remove(open_file);
    // A binary STL with a NaN corner: it reached the welder (whose map NaN breaks) and was
    // called "not closed" (issue 45). Refused by the triangle.
    const std::filesystem::path stl = std::filesystem::temp_directory_path() / "seiche_nan_glass.stl";
    {
        std::ofstream out(stl, std::ios::binary);
        out << std::string(80, ' ');
        const std::uint32_t n = 2;
        out.write(reinterpret_cast<const char*>(&n), 4);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float tris[2][12] = {{0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 0, 1, 0, 0, nan, 1, 0}};
        for (const auto& t : tris) {
            out.write(reinterpret_cast<const char*>(t), 48);
            out.write("\0\0", 2);
        }
    }
    const std::string nan_corner = error({"bodies[0].mesh=" + stl.string()});
    EXPECT_TRUE(nan_corner.find("triangle 2: a corner is not finite") != std::string::npos) << nan_corner;
    std::filesystem::remove(stl);
}

}  // namespace
}  // namespace seiche

namespace seiche {
namespace {

// A paddle on keyframes (CSV beside the scene): at a keyframe's time it is at that pose, halfway
// between two it is at the linear position and the slerped rotation, after the last it stays.
TEST(Keyframes, KinematicBodyFollowsItsKeyframes) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "seiche_keyframes";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "paddle.csv") << "time,x,y,z,rx,ry,rz\n"
                                         "0,0.2,0.35,0.15,0,0,0\n"
                                         "0.2,0.3,0.35,0.15,0,1.2,0\n"
                                         "0.4,0.3,0.30,0.15,0,1.2,0.4\n";
    std::ofstream(dir / "scene.json") << R"({
      "dimension": 3, "particle_radius": 0.01,
      "container": {"min": [0, 0, 0], "max": [0.5, 0.5, 0.3]},
      "fluid": [{"min": [0, 0, 0], "max": [0.5, 0.15, 0.3]}],
      "bodies": [{"shape": "box", "size": [0.1, 0.04, 0.04], "position": [0.2, 0.35, 0.15],
                  "motion": "kinematic", "keyframes": "paddle.csv"}]})";
    const Scene s = io::load_scene(dir / "scene.json");
    ASSERT_TRUE(s.bodies[0].keyframes);
    ASSERT_EQ(s.bodies[0].keyframes->size(), 3u);
    World<3> w(s);
    const auto& b = w.boundary_objects()[w.body_object(0)];
    w.advance_to(0.1);
    EXPECT_NEAR(b.position.x, 0.25f, 1e-5f);
    // Halfway through a turn of 1.2 rad about y: 0.6 rad.
    EXPECT_NEAR(std::atan2(-b.rotation[0][2], b.rotation[0][0]), 0.6f, 1e-3f);
    EXPECT_NEAR(b.velocity.x, 0.5f, 1e-3f);  // 0.1 m in 0.2 s
    w.advance_to(0.6);
    EXPECT_NEAR(b.position.y, 0.30f, 1e-5f);  // held at the last keyframe
    const Mat<3> last = rotation_from_euler<3>({0, 1.2, 0.4});
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(glm::length(b.rotation[c] - last[c]), 0.0f, 1e-4f);
    EXPECT_EQ(b.velocity, Vec<3>(0.0f));

    auto error = [&](const std::string& csv) {
        std::ofstream(dir / "paddle.csv") << csv;
        try {
            io::load_scene(dir / "scene.json");
        } catch (const io::SceneError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(error("0,0.2,0.35,0.15,0,0,0\n0.3,0.3,0.35,0.15,0,0,0\n0.2,0.3,0.3,0.15,0,0,0\n"),
              "bodies[0].keyframes: keyframes out of order: keyframe 3 at 0.2 s is not after "
              "keyframe 2 at 0.3 s");
    EXPECT_TRUE(error("0,0.2,0.35\n").find("line 1: expected 7 numbers") != std::string::npos);
    // A cell with more after its number was read as the number (issue 45).
    EXPECT_TRUE(error("0,0.2,0.35,0.15,0,0,0\n0.3,0.3,0.35,0.15,0,0,0 1 1\n").find("line 2: expected 7 numbers") !=
                std::string::npos);
    EXPECT_TRUE(error("0,0.2,0.35,0.15,0,0,0\n0.3,0.3,0.35,0.15,0,0,0.5abc\n").find("line 2: expected 7 numbers") !=
                std::string::npos);
    EXPECT_EQ(error("time,x,y,z,rx,ry,rz\r\n0,0.2,0.35,0.15,0,0,0\r\n0.3, 0.3,0.35,0.15,0,0,0 \r\n"), "accepted");
    EXPECT_EQ(error(""), "bodies[0].keyframes: no keyframes were read from " + (dir / "paddle.csv").string());
    try {
        io::load_scene(dir / "scene.json", {"bodies[0].keyframes=missing.csv"});
        ADD_FAILURE() << "a missing keyframe file was accepted";
    } catch (const io::SceneError& e) {
        EXPECT_TRUE(std::string(e.what()).starts_with("bodies[0].keyframes: ")) << e.what();
        EXPECT_NE(std::string(e.what()).find("cannot read the keyframe file"), std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

// The same keyframes written in the scene as a list: the same motion bitwise, the list kept in
// the resolved scene (scene.json of a run), bad rows refused with their path.
TEST(Keyframes, InlineKeyframesMoveTheBodyAsTheFileDoes) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "seiche_keyframes_inline";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "paddle.csv") << "0,0.2,0.35,0.15,0,0,0\n"
                                         "0.2,0.3,0.35,0.15,0,1.2,0\n"
                                         "0.4,0.3,0.30,0.15,0,1.2,0.4\n";
    auto scene = [](const std::string& keyframes) {
        return R"({
          "dimension": 3, "particle_radius": 0.01,
          "container": {"min": [0, 0, 0], "max": [0.5, 0.5, 0.3]},
          "fluid": [{"min": [0, 0, 0], "max": [0.5, 0.15, 0.3]}],
          "bodies": [{"shape": "box", "size": [0.1, 0.04, 0.04], "position": [0.2, 0.35, 0.15],
                      "motion": "kinematic", "keyframes": )" + keyframes + "}]}";
    };
    const std::string rows =
        "[[0, 0.2, 0.35, 0.15, 0, 0, 0], [0.2, 0.3, 0.35, 0.15, 0, 1.2, 0], "
        "[0.4, 0.3, 0.30, 0.15, 0, 1.2, 0.4]]";
    const Scene from_file = io::load_scene_text(scene("\"paddle.csv\""), "paddle", {}, "test", dir);
    const Scene inline_ = io::load_scene_text(scene(rows), "paddle", {}, "test", dir);
    ASSERT_TRUE(inline_.bodies[0].keyframes);
    ASSERT_EQ(inline_.bodies[0].keyframes->size(), 3u);
    World<3> a(from_file), b(inline_);
    a.advance_to(0.3);
    b.advance_to(0.3);
    const auto& pa = a.boundary_objects()[a.body_object(0)];
    const auto& pb = b.boundary_objects()[b.body_object(0)];
    EXPECT_EQ(pa.position, pb.position);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(pa.rotation[c], pb.rotation[c]);
    EXPECT_EQ(a.particles().x, b.particles().x);

    // The resolved scene keeps the list (not a string), and reads back to the same keyframes.
    const nlohmann::json j = io::scene_to_json(inline_);
    ASSERT_TRUE(j["bodies"][0]["keyframes"].is_array()) << j["bodies"][0]["keyframes"];
    EXPECT_EQ(j["bodies"][0]["keyframes"].size(), 3u);
    EXPECT_EQ(j["bodies"][0]["keyframes"][1][5], 1.2);
    const Scene again = io::load_scene_text(j.dump(), "paddle", {}, "test", dir);
    EXPECT_EQ(again.bodies[0].keyframes->at(2).rotation, inline_.bodies[0].keyframes->at(2).rotation);

    auto error = [&](const std::string& keyframes, const std::vector<std::string>& set = {}) {
        try {
            io::load_scene_text(scene(keyframes), "paddle", set, "test", dir);
        } catch (const io::SceneError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(error("[]"), "bodies[0].keyframes: expected a file name or a list of rows of 7 "
                           "numbers, got an empty list");
    EXPECT_EQ(error("[[0, 1, 2]]"), "bodies[0].keyframes[0]: expected a row of 7 numbers, got an array ([0, 1, 2])");
    EXPECT_TRUE(error(R"([[0, 0.2, 0.35, 0.15, 0, 0, "x"]])").starts_with("bodies[0].keyframes[0][6]: "));
    EXPECT_EQ(error("[[0.3, 0.2, 0.35, 0.15, 0, 0, 0], [0.1, 0.3, 0.35, 0.15, 0, 0, 0]]"),
              "bodies[0].keyframes: keyframes out of order: keyframe 2 at 0.1 s is not after "
              "keyframe 1 at 0.3 s");
    EXPECT_EQ(error("3"), "bodies[0].keyframes: expected a file name or a list of rows of 7 "
                          "numbers, got a number (3)");
    EXPECT_TRUE(error("\"[paddle.csv\"").starts_with("bodies[0].keyframes: a file name cannot"));
    // --set gives a list as well.
    EXPECT_EQ(error("\"paddle.csv\"", {"bodies[0].keyframes=[[0, 0.1, 0.35, 0.15, 0, 0, 0]]"}),
              "accepted");
    const Scene set = io::load_scene_text(scene("\"paddle.csv\""), "paddle",
                                          {"bodies[0].keyframes=[[0, 0.1, 0.35, 0.15, 0, 0, 0]]"},
                                          "test", dir);
    ASSERT_EQ(set.bodies[0].keyframes->size(), 1u);
    EXPECT_EQ(set.bodies[0].keyframes->at(0).position[0], 0.1);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace seiche

#include "scene_helpers.hpp"

namespace seiche {
namespace {

// The shipped scenes, changed with --set as a user would: each refusal names its key.
TEST(Bodies, ShippedScenesRefuseBadValuesWithTheirPath) {
    using test::scene_error;
    EXPECT_EQ(scene_error("scenes/floating_box_2d.json", "bodies[0].density=-1"),
              "bodies[0].density: expected a number in [0, 1000000], got -1");
    EXPECT_EQ(scene_error("scenes/floating_crates_3d.json", "bodies[1].shape=circle"),
              "bodies[1].shape: circle is a 2D shape; 3D scenes take box, sphere, cylinder or mesh");
    EXPECT_EQ(scene_error("scenes/floating_box_2d.json", "bodies[0].vertices=[[0,0],[1,0,2]]"),
              "bodies[0].vertices[1]: expected an array of 2 numbers (the scene is 2D), got an array ([1, 0, 2])");
    EXPECT_EQ(scene_error("scenes/floating_box_2d.json", "bodies[0].vertices=[[0,0],[1e9,0],[0,1]]"),
              "bodies[0].vertices: point 1, component 0: expected a number in [-1000000, 1000000], got 1000000000");
    EXPECT_TRUE(scene_error("scenes/floating_crates_3d.json", "bodies[0].position=[0.2,0.3,0.3]")
                    .starts_with("bodies[0]: the body overlaps fluid[0]"));
    EXPECT_TRUE(scene_error("scenes/pour_into_glass_3d.json", "emitters[0].position=[0.15,0.5,0.15]")
                    .starts_with("emitters[0]: the emitter is outside the container on axis y"));
    EXPECT_TRUE(scene_error("scenes/dam_break_gate_2d.json", "bodies[0].motion=wobbly")
                    .starts_with("bodies[0].motion: "));
}

}  // namespace
}  // namespace seiche
