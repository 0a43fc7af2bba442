// Every solver of the list on the same 2D scenes: a hydrostatic tank, a dam break, a closed box
// at rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "seiche/scene.hpp"
#include "seiche/world.hpp"

#include "scene_helpers.hpp"

namespace seiche {
namespace {

// A 2D tank of fluid `depth` deep filling its width, the container `height` high.
Scene tank_2d(double width, double depth, double height, double r, SolverType type) {
    Scene s;
    s.dimension = 2;
    s.particle_radius = r;
    s.container_min = {0, 0, 0};
    s.container_max = {width, height, 0};
    s.fluid.push_back({{0, 0, 0}, {width, depth, 0}, {0, 0, 0}});
    s.solver.type = type;
    return s;
}

// Steps w to `end`, every step's statistics added to `totals`.
AdvanceResult::Status advance_adding(World<2>& w, double end, RunTotals& totals) {
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        totals.add(st);
        return true;
    };
    return w.advance_to(end, o).status;
}

class Solvers : public ::testing::TestWithParam<SolverType> {
  protected:
    Scene tank(double width, double depth, double r) const {
        return tank_2d(width, depth, 1.5 * depth, r, GetParam());
    }
};

template <int D>
float top(const World<D>& w) {
    std::vector<float> y;
    for (const auto& x : w.particles().x) y.push_back(x[1]);
    // The 99th percentile: robust against a stray particle on the surface.
    std::nth_element(y.begin(), y.begin() + y.size() * 99 / 100, y.end());
    return y[y.size() * 99 / 100] + w.particles().radius;
}

// 40 particles deep, 2 s. WCSPH and DFSPH: their pressure near the bottom, averaged over the
// last 0.5 s (the column still rings with small acoustic oscillations), against ρ0·g·(H − y) with
// H the settled surface (analytic_hydrostatic.csv); rows 1–5 above the floor, away from the side
// walls; and the particles against the walls, the floor's first row and the side walls' first
// columns, each within 15% (DFSPH's walls without a pressure of their own put 1.6 times it there).
TEST_P(Solvers, HydrostaticTankSettles) {
    const double depth = 0.4, width = 0.2, r = 0.005, d = 2 * r, g = 9.81;
    World<2> w(tank(width, depth, r));
    // A solver with a pressure field is checked on it, the others on the column's height.
    const bool has_pressure = solver_traits(GetParam()).has_pressure;
    const float h0 = top(w);
    double err_late = 0, p_sum = 0, p_ref = 0;
    double floor_sum = 0, floor_ref = 0, side_sum = 0, side_ref = 0;
    long k = 0;
    while (w.time() < 2.0 - 1e-9) {
        const StepStats s = w.step(std::min(w.suggested_dt(), 2.0 - w.time()));
        ASSERT_FALSE(s.instability) << s.instability->reason;
        if (w.time() > 1.0) err_late = std::max(err_late, s.density_error_mean);
        if (has_pressure && w.time() > 1.5 && k++ % 20 == 0) {
            const float h = top(w);
            for (std::size_t i = 0; i < w.particles().size(); ++i) {
                const auto& x = w.particles().x[i];
                const double p = w.pressure()[i], ref = 1000.0 * g * (h - x.y);
                const bool side = x.x < d || x.x > width - d;
                if (x.y < d && !side) floor_sum += p, floor_ref += ref;
                if (side && x.y > d && x.y < h - 6 * d) side_sum += p, side_ref += ref;
                if (x.y < d || x.y > 6 * d || x.x < 2 * d || x.x > width - 2 * d) continue;
                p_sum += p;
                p_ref += ref;
            }
        }
    }
    if (has_pressure) {
        ASSERT_GT(p_ref, 0);
        EXPECT_NEAR(p_sum / p_ref, 1.0, 0.05) << "bottom pressure vs ρgH";
        ASSERT_GT(floor_ref, 0);
        ASSERT_GT(side_ref, 0);
        EXPECT_NEAR(floor_sum / floor_ref, 1.0, 0.15) << "the floor's first row";
        EXPECT_NEAR(side_sum / side_ref, 1.0, 0.15) << "the side walls' first columns";
        EXPECT_LT(err_late, 0.01);
    } else {
        EXPECT_NEAR(top(w) / h0, 1.0, 0.03) << "column height";
    }
}

TEST_P(Solvers, DamBreakStaysInsideAndFinite) {
    Scene s = tank(1.6, 0.6, 0.01);
    s.container_max = {1.6, 0.8, 0};
    s.fluid[0].max = {0.4, 0.6, 0};
    World<2> w(s);
    const std::size_t n = w.particles().size();
    float front = 0;
    while (w.time() < 1.0 - 1e-9) {
        const StepStats st = w.step(std::min(w.suggested_dt(), 1.0 - w.time()));
        ASSERT_FALSE(st.instability) << "step " << st.step << ": " << st.instability->reason;
        for (const auto& x : w.particles().x) {
            ASSERT_TRUE(std::isfinite(x.x) && std::isfinite(x.y));
            ASSERT_TRUE(w.container().contains(x));
            front = std::max(front, x.x);
        }
    }
    EXPECT_EQ(w.particles().size(), n);
    EXPECT_GT(front, 1.5f) << "the surge reached the far wall";
}

// A closed box of fluid at rest for 2 s: kinetic plus potential energy never rises more than a
// tenth of m·g·d per particle above the initial state (the start-up transient as the lattice
// meets the walls), ends no more than a hundredth above it, and does not drift up in the second
// second. (The end was held below the start until DFSPH's walls held the fluid at r: the box is
// filled to the lid and its wall rows start 1.5% over ρ0, and DFSPH's end energy, −0.047 m·g·d,
// was its column sinking 0.1 r into the floor; held at r, the settled packing's potential energy
// differs from the lattice's by noise either way, +0.0008 or −0.014 between two builds.)
TEST_P(Solvers, EnergyDoesNotGrowAtRest) {
    Scene s = tank(0.3, 0.2, 0.005);
    s.container_max = {0.3, 0.2, 0};  // closed: the lid touches the fluid
    World<2> w(s);
    double e0 = 0;
    for (const auto& x : w.particles().x) e0 += w.particles().mass * 9.81 * x.y;
    const double unit = w.particles().mass * 9.81 * 0.01 * w.particles().size();  // m·g·d·N
    double worst = -1e30, first_half = 0, second_half = 0;
    int n1 = 0, n2 = 0;
    while (w.time() < 2.0 - 1e-9) {
        const StepStats st = w.step(std::min(w.suggested_dt(), 2.0 - w.time()));
        ASSERT_FALSE(st.instability);
        const double e = st.kinetic_energy + st.potential_energy - e0;
        worst = std::max(worst, e);
        if (w.time() > 0.5 && w.time() <= 1.0) first_half += e, ++n1;
        if (w.time() > 1.5) second_half += e, ++n2;
        if (w.time() >= 2.0 - 1e-9) {
            EXPECT_LT(e, 0.01 * unit) << "energy at the end above the start";
        }
    }
    EXPECT_LT(worst / unit, 0.1);
    EXPECT_LT(second_half / n2, first_half / n1 + 0.01 * unit) << "energy drifts up";
}

// A column whose particles carry 0.8 of the mass that makes the lattice ρ0 (particle_mass, as
// SPlisHSPlasH starts its fluid) starts at 0.8 ρ0 and settles to 0.8 of its height: the volume
// that the mass fills at ρ0.
TEST_P(Solvers, ALooseStartSettlesToTheVolumeOfItsMass) {
    Scene s = tank(0.2, 0.2, 0.005);
    s.particle_mass = 0.8 * lattice_particle_mass(s);
    World<2> w(s);
    EXPECT_FLOAT_EQ(w.particles().mass, float(s.particle_mass));
    const float h0 = top(w);
    w.refresh_density();
    double rho = 0;  // the interior's density at the start
    int n = 0;
    for (std::size_t i = 0; i < w.particles().size(); ++i) {
        const auto& x = w.particles().x[i];
        if (x.x < 0.05f || x.x > 0.15f || x.y < 0.05f || x.y > 0.15f) continue;
        rho += w.particles().rho[i], ++n;
    }
    ASSERT_GT(n, 0);
    EXPECT_NEAR(rho / n / 1000.0, 0.8, 0.002) << "the lattice starts at 0.8 ρ0";
    while (w.time() < 1.5 - 1e-9) {
        const StepStats st = w.step(std::min(w.suggested_dt(), 1.5 - w.time()));
        ASSERT_FALSE(st.instability) << st.instability->reason;
    }
    EXPECT_NEAR(top(w) / h0, 0.8, 0.03) << "settled column height over the start's";
}

// A step shorter than the flow's own is never worse. PBF's velocity is a step's displacement over
// Δt and DFSPH's corrects half of an existing density error a step, so correcting compression
// left by earlier steps made speeds ∝ 1/Δt: after 5 ms of 10 µs steps PBF's fastest particle ran
// at 12 m/s where the flow's ran at 1.3 m/s, and from the lattice (its walls 2% dense) 1 µs
// steps were unstable at the first for both. Such a step now corrects only its share of that
// error (StepContext::leftover_share); WCSPH and DDR were never affected.
double max_speed(const World<2>& w) {
    float m = 0;
    for (const auto& v : w.particles().v) m = std::max(m, glm::length(v));
    return m;
}

TEST_P(Solvers, ShortStepsAreNoWorseThanCflSteps) {
    const Scene s = test::dam_break_2d(0.005, GetParam());
    World<2> cfl(s), fine(s);
    cfl.advance_to(0.05);
    fine.advance_to(0.05);
    cfl.advance_to(0.055);
    for (int k = 0; k < 500; ++k) {
        const StepStats st = fine.step(1e-5);
        ASSERT_FALSE(st.instability) << "step " << k << ": " << st.instability->reason;
    }
    EXPECT_NEAR(fine.time(), 0.055, 1e-9);
    EXPECT_LT(max_speed(fine), 1.3 * max_speed(cfl));
    EXPECT_LT(fine.kinetic_energy(), 1.6 * cfl.kinetic_energy());
    EXPECT_GT(fine.kinetic_energy(), 0.8 * cfl.kinetic_energy());
}

// The same dam break 8 m from the origin flows as at it. There a coordinate's ulp is 9.5·10⁻⁷ m,
// and a 50 µs step's push Δt²·a (10⁻⁸–10⁻⁷ m) is below half of it: a solver that moves x by its
// corrections lost them to the rounding of x, and with them the velocity taken from the
// positions, so the column stood as a block (DDR's far column held 18 J/m of kinetic energy at
// 0.15 s against 143 at the origin; its Ritter profile read 12% at CFL 0.1).
TEST_P(Solvers, ShortStepsFarFromTheOriginFlowAsNearIt) {
    Scene s = test::dam_break_2d(0.005, GetParam());
    s.time.mode = TimeParams::Mode::fixed;
    s.time.dt = 5e-5;
    Scene far = s;
    const double offset = 8.0;
    far.container_min[0] += offset;
    far.container_max[0] += offset;
    for (FluidBlock& b : far.fluid) {
        b.min[0] += offset;
        b.max[0] += offset;
    }
    World<2> near_w(s), far_w(far);
    for (World<2>* w : {&near_w, &far_w}) {
        const AdvanceResult r = w->advance_to(0.15);
        ASSERT_NE(r.status, AdvanceResult::Status::unstable)
            << "step " << r.steps << ": " << r.last.instability->reason;
    }
    const auto front = [](const World<2>& w, double x0) {
        std::vector<float> x;
        for (const auto& p : w.particles().x) x.push_back(p[0] - float(x0));
        std::nth_element(x.begin(), x.begin() + x.size() * 99 / 100, x.end());
        return x[x.size() * 99 / 100];
    };
    // The front has run about 0.15 m past the column's 0.4 m by 0.15 s.
    EXPECT_GT(front(near_w, 0.0), 0.5) << "the column has not collapsed";
    EXPECT_NEAR(front(far_w, offset), front(near_w, 0.0), 0.005);
    EXPECT_NEAR(far_w.kinetic_energy(), near_w.kinetic_energy(), 0.03 * near_w.kinetic_energy());
}

TEST_P(Solvers, MicrosecondStepsFromTheLatticeStayCalm) {
    Scene s = test::dam_break_2d(0.005, GetParam());
    s.time.mode = TimeParams::Mode::fixed;
    s.time.dt = 1e-6;
    World<2> w(s);
    const AdvanceResult r = w.advance_to(0.002);
    ASSERT_NE(r.status, AdvanceResult::Status::unstable)
        << "step " << r.steps << ": " << r.last.instability->reason;
    EXPECT_EQ(r.steps, 2000);
    // Free fall for 2 ms is 2 cm/s; the lattice's excess at the walls, relieved over the CFL
    // step's time, adds at most a few tenths.
    EXPECT_LT(max_speed(w), 0.5);
}

// A solve that stops at its iteration cap with its error above the tolerance says so
// (StepStats::capped; `seiche run` and `seiche bench` print the count, `compare` the share): PBF
// and DFSPH on a 2D dam break at a tolerance no two iterations reach, one every first iteration
// meets, and a fixed count (min = max), which asks for no tolerance. WCSPH has no such solve.
TEST(SolverCap, ASolveStoppedAtItsCapAboveItsToleranceSaysSo) {
    struct Case {
        double tolerance;
        int min, max;
        bool capped;
    };
    for (const SolverType type : {SolverType::pbf, SolverType::dfsph, SolverType::wcsph}) {
        for (const Case c : {Case{1e-7, 1, 2, true}, Case{0.5, 1, 2, false}, Case{1e-7, 2, 2, false}}) {
            Scene s = test::dam_break_2d(0.01, type);
            s.solver.pbf.density_tolerance = s.solver.dfsph.density_tolerance = c.tolerance;
            s.solver.pbf.min_iterations = s.solver.dfsph.min_iterations = c.min;
            s.solver.pbf.max_iterations = s.solver.dfsph.max_iterations = c.max;
            World<2> w(s);
            RunTotals totals;
            ASSERT_EQ(advance_adding(w, 0.1, totals), AdvanceResult::Status::reached);
            const std::string label = std::string(solver_name(type)) + ", tolerance " +
                                      std::to_string(c.tolerance) + ", iterations " +
                                      std::to_string(c.min) + "-" + std::to_string(c.max);
            ASSERT_GT(totals.steps, 10) << label;
            if (c.capped && type != SolverType::wcsph)
                EXPECT_GT(totals.capped, 9 * totals.steps / 10) << label;
            else
                EXPECT_EQ(totals.capped, 0) << label;
        }
    }
}

// time.target_iterations: in deep water at rest the solve's iterations grow faster than the step
// (Jacobi lifts the column a kernel radius an iteration), so PBF's CFL steps in a tank 50 layers
// deep stop at the cap above the tolerance. Steps that follow the iterations meet the tolerance
// in fewer iterations per simulated second.
TEST(SolverCap, StepsFollowTheTargetIterations) {
    struct Totals {
        RunTotals late;  // the last half
        double scale = 0;
    };
    const auto run = [](int target) {
        Scene s = tank_2d(0.2, 0.5, 0.7, 0.005, SolverType::pbf);  // 50 layers
        s.time.target_iterations = target;
        World<2> w(s);
        Totals t;
        AdvanceOptions o;
        o.on_step = [&](const StepStats& st) {
            if (st.time > 0.3) t.late.add(st);
            return true;
        };
        EXPECT_EQ(w.advance_to(0.6, o).status, AdvanceResult::Status::reached);
        t.scale = w.step_scale();
        return t;
    };
    const double tolerance = PbfParams{}.density_tolerance;
    const Totals plain = run(0);
    ASSERT_GT(plain.late.steps, 0);
    // The premise: at the CFL bound most steps stop at the cap, above the tolerance.
    EXPECT_GT(plain.late.capped, plain.late.steps / 2);
    EXPECT_GT(plain.late.mean_density_error(), 1.2 * tolerance);
    EXPECT_EQ(plain.scale, 1.0);

    const Totals followed = run(10);
    EXPECT_LT(followed.scale, 1.0);
    EXPECT_LE(followed.late.capped, followed.late.steps / 20);
    EXPECT_LE(followed.late.mean_density_error(), 1.05 * tolerance);
    EXPECT_LT(followed.late.iterations, plain.late.iterations);
}

// The step follows the target both ways: shorter while the solves take more iterations (down
// to a twentieth of the CFL bound), back to the bound (a tenth a step) once they take fewer than
// half; with no target the CFL bound whatever the scale. A target below what a solve takes at
// the least is refused by name.
TEST(SolverCap, TheStepGrowsBackToTheCflBound) {
    Scene s = test::dam_break_2d(0.01, SolverType::pbf);
    s.solver.pbf.density_tolerance = 1e-5;
    s.solver.pbf.max_iterations = 200;
    s.time.target_iterations = 4;
    World<2> w(s);
    ASSERT_EQ(w.advance_to(0.3).status, AdvanceResult::Status::reached);
    EXPECT_LT(w.step_scale(), 0.5);
    EXPECT_GE(w.step_scale(), 0.05);
    const double scaled = w.suggested_dt();
    w.set("time.target_iterations", 0.0);
    const double bound = w.suggested_dt();
    EXPECT_NEAR(scaled, w.step_scale() * bound, 1e-12 * bound);
    w.set("time.target_iterations", 100000.0);
    for (int k = 0; k < 60 && w.step_scale() < 1.0; ++k) {
        const double scale = w.step_scale();
        if (!w.step(w.suggested_dt()).capped) EXPECT_GT(w.step_scale(), scale);
    }
    EXPECT_EQ(w.step_scale(), 1.0);

    for (const int low : {1, 3}) {
        s.time.target_iterations = low;
        try {
            World<2> refused(s);
            ADD_FAILURE() << "target " << low << " accepted";
        } catch (const DefinitionError& e) {
            EXPECT_NE(std::string(e.what()).find("time.target_iterations: must be 0 (off) or at "
                                                 "least 4 (4, and more than "
                                                 "solver.pbf.min_iterations"),
                      std::string::npos)
                << e.what();
        }
    }
    s.solver.pbf.min_iterations = 6;
    s.time.target_iterations = 6;
    EXPECT_THROW(World<2>{s}, DefinitionError);
    s.time.target_iterations = 7;
    EXPECT_NO_THROW(World<2>{s});
}

// DFSPH's Chebyshev semi-iteration over its constant-density solve (solver.dfsph.chebyshev):
// in 0.4 m of water at r = 4 mm (50 layers) with 1 ms steps, where plain Jacobi rebuilds the
// column's pressure from the top down over a hundred iterations a step, the same tolerance in
// at most a third of plain Jacobi's iterations, the tank as still, as high and as exact. Neither
// run stops a solve at its cap (1,000 iterations) above the tolerance.
TEST(DfsphSemiIteration, DeepWaterMeetsTheToleranceInAThirdOfTheIterations) {
    const auto run = [](double chebyshev) {
        Scene s = tank_2d(0.2, 0.4, 0.6, 0.004, SolverType::dfsph);
        s.solver.dfsph.max_iterations = 1000;
        s.solver.dfsph.chebyshev = chebyshev;
        s.time.max_dt = 0.001;
        World<2> w(s);
        RunTotals late;
        AdvanceOptions o;
        o.on_step = [&](const StepStats& st) {
            if (st.time > 0.3) late.add(st);
            return true;
        };
        EXPECT_EQ(w.advance_to(0.5, o).status, AdvanceResult::Status::reached);
        return std::pair{late, top(w)};
    };
    const auto [plain, plain_top] = run(0.0);
    const auto [semi, semi_top] = run(0.99);
    ASSERT_GT(plain.steps, 100);
    ASSERT_GT(semi.steps, 100);
    EXPECT_EQ(plain.capped, 0);
    EXPECT_EQ(semi.capped, 0);
    // The step's error is measured after the step, not the solve's prediction: both read about
    // 1.2 times the tolerance here.
    EXPECT_LE(semi.mean_density_error(), 1.05 * plain.mean_density_error());
    EXPECT_LT(3 * semi.iterations, plain.iterations)
        << semi.iterations << " against " << plain.iterations << " over " << semi.steps << " steps";
    EXPECT_NEAR(semi_top, plain_top, 0.004) << "the tank's height, within r";
    EXPECT_LT(semi.last.kinetic_energy, 2 * plain.last.kinetic_energy + 1e-3);
}

// Without a free surface (a box filled to the lid: every particle has 9 or more neighbours) the
// pressure's level is not pinned, and the semi-iteration is off: the run is plain Jacobi's to
// the bit. With the lid 0.1 m higher the same fluid has a surface, and it acts.
TEST(DfsphSemiIteration, OnlyWhereTheFluidHasAFreeSurface) {
    const auto positions = [](double chebyshev, double lid) {
        Scene s = tank_2d(0.3, 0.2, lid, 0.005, SolverType::dfsph);
        s.solver.dfsph.chebyshev = chebyshev;
        World<2> w(s);
        EXPECT_EQ(w.advance_to(0.2).status, AdvanceResult::Status::reached);
        return w.particles().x;
    };
    EXPECT_TRUE(positions(0.99, 0.2) == positions(0.0, 0.2)) << "the lidded box";
    EXPECT_FALSE(positions(0.99, 0.3) == positions(0.0, 0.3)) << "the open box";
}

// Fluid closed in by walls over a long stretch: 2 cm of water under a plate held in a tank
// 0.8 m long, open beyond the plate's ends, in zero gravity (docs/solvers.md, "Fluid closed in
// by walls"). Under a plate 0.6 m long the walls' extrapolated pressure lets DFSPH's solve drive
// its error up, and a step says so (StepStats::diverged: the remedy the run prints); plain
// Jacobi at its cap of 100, the remedy, holds the same layer, as the semi-iteration holds one
// under a plate 0.15 m long.
TEST(DfsphClosedLayer, ASolveThatDrivesItsErrorUpSaysSo) {
    const auto run = [](double plate, double chebyshev) {
        Scene s = tank_2d(0.8, 0.02, 0.1, 0.00125, SolverType::dfsph);
        s.gravity = {0, 0, 0};
        s.obstacles = {{{0.4 - plate / 2, 0.02, 0}, {0.4 + plate / 2, 0.03, 0}}};
        s.solver.dfsph.chebyshev = chebyshev;
        World<2> w(s);
        RunTotals t;
        advance_adding(w, 0.1, t);
        return t;
    };
    const RunTotals long_semi = run(0.6, 0.99);
    EXPECT_GE(long_semi.diverged, 1);
    for (const auto& [plate, chebyshev] : {std::pair{0.6, 0.0}, std::pair{0.15, 0.99}}) {
        const RunTotals t = run(plate, chebyshev);
        EXPECT_EQ(t.diverged, 0) << plate << " m, chebyshev " << chebyshev;
        EXPECT_FALSE(t.last.instability.has_value());
        EXPECT_NEAR(t.last.time, 0.1, 1e-9);
        // The lattice's start (its rows along the walls 2.1% over ρ0) is the run's largest.
        EXPECT_LT(t.density_error_max, 0.03) << plate << " m, chebyshev " << chebyshev;
    }
}

// Deep water at rest: the iterative solvers' CFL step is at most k·2r/√(g·H), H the fluid's
// extent along g and k 0.5 (SolverTraits::max_dt_depth), where the fluid's
// own speed would give it max_dt; a scene's own time.max_dt takes over. Above about 0.8
// (DFSPH) to 1 (PBF) times 2r/√(gH) the corrections shake the column (docs/solvers.md, "Deep
// water").
TEST(DeepWater, TheIterativeSolversStepStaysUnderTheDepthBound) {
    for (const auto& [type, k] : {std::pair{SolverType::pbf, 0.5}, std::pair{SolverType::dfsph, 0.5}}) {
        Scene s = tank_2d(0.2, 1.5, 2.0, 0.005, type);
        const World<2> w(s);
        float lo = 1e30f, hi = -1e30f;
        for (const auto& x : w.particles().x) lo = std::min(lo, x.y), hi = std::max(hi, x.y);
        const double bound = k * 0.01 / std::sqrt(9.81 * double(hi - lo));
        EXPECT_NEAR(w.suggested_dt(), bound, 1e-6 * bound) << solver_name(type);
        EXPECT_LT(bound, max_dt(s)) << solver_name(type);
        s.time.max_dt = 0.002;
        EXPECT_DOUBLE_EQ(World<2>(s).suggested_dt(), 0.002) << solver_name(type);
    }
}

// The column's rms speed, √(2 E_kin / M), over the last 0.2 s of a run from the lattice, still
// settling from its start. Before the depth bound (2026-12-07): DFSPH 1.5 m deep 0.19 m/s at 1 s
// (steps at its gravity bound, 2.2 ms, 0.85·2r/√(gH)); PBF 3 m deep 0.30 m/s at 0.6 s (2 ms,
// 1.08·2r/√(gH)); with it 0.086 and 0.070 (DFSPH at its k of 0.5 since: 0.080). And the
// solves meet their tolerance there: at DFSPH's k of 0.7 every one of those steps stopped at its
// cap of 100 (0.018% against the 0.01% asked), at 0.5 13 of 154. (PBF's, at their cap of 20, stop there on most
// steps in 3 m of water: time.target_iterations, docs/solvers.md.)
TEST(DeepWater, AColumnAtRestCalmsDown) {
    for (const auto& [type, depth, end] :
         {std::tuple{SolverType::dfsph, 1.5, 1.0}, std::tuple{SolverType::pbf, 3.0, 0.6}}) {
        World<2> w(tank_2d(0.2, depth, depth + 0.5, 0.005, type));
        double energy = 0;
        int steps = 0, capped = 0;
        AdvanceOptions o;
        o.on_step = [&](const StepStats& st) {
            if (st.time > end - 0.2) energy += st.kinetic_energy, ++steps, capped += st.capped;
            return true;
        };
        ASSERT_EQ(w.advance_to(end, o).status, AdvanceResult::Status::reached) << solver_name(type);
        const double mass = double(w.particles().mass) * double(w.particles().size());
        EXPECT_LT(std::sqrt(2.0 * energy / steps / mass), 0.13) << solver_name(type);
        if (type == SolverType::dfsph) EXPECT_LT(capped, steps / 5);
    }
}

INSTANTIATE_TEST_SUITE_P(All, Solvers,
                         ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

}  // namespace
}  // namespace seiche
