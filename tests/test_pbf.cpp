// PBF end to end: free fall, a column at rest, a dam break, determinism across thread counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "seiche/io/scene_loader.hpp"
#include "seiche/parallel.hpp"
#include "seiche/scene.hpp"
#include "seiche/world.hpp"

#include "scene_helpers.hpp"

namespace seiche {
namespace {

Scene column_2d(double width, double height, double r) {
    Scene s;
    s.dimension = 2;
    s.particle_radius = r;
    s.gravity = {0, -9.81, 0};
    s.container_min = {0, 0, 0};
    s.container_max = {width, 2 * height, 0};
    s.fluid.push_back({{0, 0, 0}, {width, height, 0}, {0, 0, 0}});
    return s;
}

template <int D>
float top(const World<D>& w) {
    float t = -1e30f;
    for (const auto& x : w.particles().x) t = std::max(t, x[1]);
    return t + w.particles().radius;
}

template <int D>
void run_until(World<D>& w, double end, double& worst_mean_error, std::size_t& contained) {
    worst_mean_error = 0;
    contained = 0;
    while (w.time() < end - 1e-9) {
        const StepStats s = w.step(std::min(w.suggested_dt(), end - w.time()));
        ASSERT_FALSE(s.instability) << "step " << s.step << ": " << s.instability->reason;
        worst_mean_error = std::max(worst_mean_error, s.density_error_mean);
        contained += s.contained;
    }
}

TEST(Pbf, SingleParticleFallsExactlyAsSymplecticEuler) {
    // No neighbours: C = 0 under the unilateral constraint, so PBF must not move it.
    Scene s;
    s.dimension = 3;
    s.particle_radius = 0.01;
    s.container_min = {-0.2, -0.5, -0.2};
    s.container_max = {0.5, 0.1, 0.2};
    s.fluid.push_back({{0, 0, 0}, {0.02, 0.02, 0.02}, {0.5, 0, 0}});
    s.solver.xsph = 0.0;
    World<3> w(s);
    ASSERT_EQ(w.particles().size(), 1u);
    const double dt = 0.001;
    const int n = 200;
    for (int k = 0; k < n; ++k) w.step(dt);
    // Symplectic Euler: y_n = y_0 − g dt² n(n+1)/2, x_n = x_0 + v_x n dt.
    EXPECT_NEAR(w.particles().x[0].y, 0.01 - 9.81 * dt * dt * n * (n + 1) / 2, 1e-5);
    EXPECT_NEAR(w.particles().x[0].x, 0.01 + 0.5 * n * dt, 1e-5);
    EXPECT_NEAR(w.particles().v[0].y, -9.81 * n * dt, 1e-3);  // (x − x_prev)/dt in float
}

TEST(Pbf, AFluidInFreeFallTakesNoCorrection) {
    // A block at 0.8 ρ0 (the reference dam break's start) falling freely: nothing is compressed
    // and nothing carried, so every λ' is zero and a correction would move nobody. Each step
    // then reports no iterations, even with min_iterations 3, and every particle falls exactly
    // as symplectic Euler. A fixed count (min = max, as the benchmarks ask) is still taken.
    Scene s;
    s.dimension = 3;
    s.particle_radius = 0.01;
    s.container_min = {-0.5, -2.0, -0.5};
    s.container_max = {0.5, 0.5, 0.5};
    s.fluid.push_back({{0, 0, 0}, {0.1, 0.1, 0.1}, {0, 0, 0}});  // 5 x 5 x 5
    s.particle_mass = 0.8 * lattice_particle_mass(s);
    s.solver.xsph = 0.0;
    World<3> w(s);
    w.set_pbf_iterations(3, 10);
    // Each particle's start by its id: the particles are kept in the grid's order.
    std::vector<Vec<3>> x0(w.particles().size());
    for (std::size_t i = 0; i < x0.size(); ++i) x0[w.particles().id[i]] = w.particles().x[i];
    const double dt = 0.002;
    const int n = 100;
    for (int k = 0; k < n; ++k) {
        const StepStats st = w.step(dt);
        ASSERT_EQ(st.iterations, 0) << "step " << st.step;
        ASSERT_EQ(st.density_error_max, 0.0) << "step " << st.step;
    }
    ASSERT_EQ(w.particles().size(), x0.size());
    const double drop = 9.81 * dt * dt * n * (n + 1) / 2;  // 0.1 m
    for (std::size_t i = 0; i < x0.size(); ++i) {
        const Vec<3>& start = x0[w.particles().id[i]];
        EXPECT_NEAR(w.particles().x[i].y, start.y - drop, 1e-5);
        EXPECT_EQ(w.particles().x[i].x, start.x);
        EXPECT_EQ(w.particles().x[i].z, start.z);
    }
    World<3> fixed(s);
    fixed.set_pbf_iterations(3, 3);
    EXPECT_EQ(fixed.step(dt).iterations, 3);
}

// A column at rest for 2 s: its height within 2%, the mean density error below 1% at every
// step, nearly no kinetic energy left, and the walls alone keep it in.
template <int D>
void expect_column_stays_at_rest(const Scene& s) {
    World<D> w(s);
    const float h0 = top(w);
    double err;
    std::size_t contained;
    run_until(w, 2.0, err, contained);
    EXPECT_NEAR(top(w) / h0, 1.0, 0.02);
    EXPECT_LT(err, 0.01);
    EXPECT_LT(w.kinetic_energy() / w.particles().size(), 1e-5);  // J per particle
    EXPECT_EQ(contained, 0u);
}

TEST(Pbf, ColumnAtRestKeepsHeightAndDensity2D) {
    expect_column_stays_at_rest<2>(column_2d(0.4, 0.4, 0.005));  // 40 x 40 particles
}

TEST(Pbf, ColumnAtRestKeepsHeightAndDensity3D) {
    Scene s;
    s.dimension = 3;
    s.particle_radius = 0.01;
    s.container_min = {0, 0, 0};
    s.container_max = {0.2, 0.6, 0.2};
    s.fluid.push_back({{0, 0, 0}, {0.2, 0.3, 0.2}, {0, 0, 0}});  // 10 x 15 x 10
    expect_column_stays_at_rest<3>(s);
}

using test::dam_break_2d;

TEST(Pbf, DamBreak2DStaysInsideAndFinite) {
    World<2> w(dam_break_2d(0.005));
    const std::size_t n = w.particles().size();
    ASSERT_EQ(n, 40u * 60u);
    float max_front = 0;
    while (w.time() < 1.0 - 1e-9) {
        const StepStats s = w.step(std::min(w.suggested_dt(), 1.0 - w.time()));
        ASSERT_FALSE(s.instability) << "step " << s.step << ": " << s.instability->reason;
        for (const auto& x : w.particles().x) {
            ASSERT_TRUE(std::isfinite(x.x) && std::isfinite(x.y));
            ASSERT_TRUE(w.container().contains(x)) << x.x << ", " << x.y;
        }
        for (const auto& x : w.particles().x) max_front = std::max(max_front, x.x);
    }
    EXPECT_EQ(w.particles().size(), n);
    // The surge reached the far wall (Ritter: front speed 2·sqrt(g·0.6) ≈ 4.9 m/s).
    EXPECT_GT(max_front, 1.5f);
}

// The peak correction (solver.pbf.peak_tolerance): once the mean has met its tolerance, the
// particles above half the peak tolerance and their neighbours are corrected on their own.
// Through the 2D dam break every step then ends with its largest error within the peak
// tolerance, where without it the largest errors run to twice it and more (0.40% on average,
// 0.80% at most, against 0.2%); the mean stays within its tolerance, the flow keeps its energy,
// and the steps take fewer full iterations (4.9 against 12.5: a step starts from fewer peaks).
// The peak correction is bounded by max_iterations too: a step where it stops above the peak
// tolerance reports itself capped (on an Intel Xeon's AVX-512 bits one step of 150 did, at
// 0.0022 after 100 iterations), and such steps are rare.
TEST(Pbf, PeakToleranceBoundsTheLargestError) {
    struct Result {
        double worst_max = 0, worst_mean = 0, kinetic = 0;
        long long iterations = 0, steps = 0, capped = 0;
    };
    const double peak = 0.002;
    auto run = [](double peak_tolerance) {
        Scene s = io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_2d.json", {});
        s.solver.pbf.warm_start = 0.8;
        s.solver.pbf.warm_start_join = PbfParams::WarmJoin::larger;
        s.solver.pbf.density_tolerance = 5e-4;
        s.solver.pbf.max_iterations = 100;
        s.solver.pbf.peak_tolerance = peak_tolerance;
        // PBF's own 2 ms steps, 150 to 0.3 s, those the figures above were measured at: under
        // the depth bound (1.79 ms at the column's start) one step of 167 ends at 0.00216 and
        // this loop's last, a sliver of 0.41 ms that corrects only its share of the error left
        // (StepContext::leftover_share), at 0.0023.
        s.time.max_dt = 0.002;
        World<2> w(s);
        Result r;
        while (w.time() < 0.3 - 1e-9) {
            const StepStats st = w.step(std::min(w.suggested_dt(), 0.3 - w.time()));
            EXPECT_FALSE(st.instability) << "step " << st.step;
            if (st.instability) break;
            r.iterations += st.iterations;
            // The lattice starts compressed along the floor: the first two steps do not get
            // within the tolerances in max_iterations.
            if (st.step <= 2) continue;
            ++r.steps;
            if (st.capped) {
                ++r.capped;
                EXPECT_TRUE(st.density_error_max > peak_tolerance || st.density_error_mean > 5e-4)
                    << "capped at step " << st.step << " within its tolerances";
                continue;
            }
            r.worst_max = std::max(r.worst_max, st.density_error_max);
            r.worst_mean = std::max(r.worst_mean, st.density_error_mean);
        }
        r.kinetic = w.kinetic_energy();
        return r;
    };
    const Result off = run(0.0), on = run(peak);
    EXPECT_LE(on.worst_max, 1.05 * peak);
    EXPECT_LE(100 * on.capped, 2 * on.steps) << on.capped << " of " << on.steps << " steps capped";
    EXPECT_GT(off.worst_max, 2.0 * peak);
    EXPECT_LE(on.worst_mean, 1.05 * 5e-4);
    EXPECT_NEAR(on.kinetic, off.kinetic, 0.05 * off.kinetic);
    EXPECT_LT(double(on.iterations), 0.8 * double(off.iterations))
        << on.iterations << " against " << off.iterations;
}

// Over-relaxed Jacobi (solver.pbf.over_relaxation): the same tolerance in fewer iterations, at
// the same accuracy, through the collapse of the default 3D column at 6,400 particles (12.2
// iterations per step at ω = 1, 7.3 at 1.5; in 2D the gain is smaller, 10–20%).
TEST(Pbf, OverRelaxationReachesTheToleranceInFewerIterations) {
    auto run = [](double omega, long long& iterations, double& mean_error) {
        Scene s = io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/dam_break_3d.json",
                                 {"particle_radius=0.015"});
        s.solver.pbf.density_tolerance = 1e-4;
        s.solver.pbf.max_iterations = 100;
        s.solver.pbf.over_relaxation = omega;
        World<3> w(s);
        iterations = 0;
        double sum = 0;
        long steps = 0;
        while (w.time() < 0.3 - 1e-9) {
            const StepStats st = w.step(std::min(w.suggested_dt(), 0.3 - w.time()));
            ASSERT_FALSE(st.instability) << "ω " << omega << ", step " << st.step << ": "
                                         << st.instability->reason;
            iterations += st.iterations;
            sum += st.density_error_mean;
            ++steps;
        }
        mean_error = sum / double(steps);
    };
    long long plain = 0, over = 0;
    double plain_error = 0, over_error = 0;
    run(1.0, plain, plain_error);
    run(1.5, over, over_error);
    EXPECT_LT(double(over), 0.75 * double(plain)) << over << " against " << plain;
    EXPECT_LT(plain_error, 1.5e-4);
    EXPECT_LT(over_error, 1.5e-4);
}

// The warm start (solver.pbf.warm_start): in a column at rest Jacobi lifts the whole column
// from the floor up again every step, and a tight tolerance takes many iterations; started from
// half of the smaller of the last two steps' corrections, about half as many (72 → 36). The column stays at rest
// at the same density, and the floor still carries its weight (the warm share is part of the
// correction the walls react to).
TEST(Pbf, WarmStartHoldsAColumnAtRestInFewerIterations) {
    struct Result {
        long long iterations = 0;
        double worst_error = 0, floor_load = 0, weight = 0, kinetic = 0;
        float height = 0, height0 = 0;
    };
    auto run = [](double warm, PbfParams::WarmJoin join = PbfParams::WarmJoin::sum) {
        Scene s = column_2d(0.4, 0.4, 0.005);  // 40 x 40 particles
        s.solver.pbf.warm_start_join = join;
        s.solver.pbf.density_tolerance = 5e-4;  // 72 iterations a step without the warm start
        s.solver.pbf.max_iterations = 100;
        s.solver.pbf.over_relaxation = 1.5;
        s.solver.pbf.warm_start = warm;
        World<2> w(s);
        w.track_boundary_forces(true);
        Result r;
        r.height0 = top(w);
        EXPECT_EQ(w.advance_to(1.0).status, AdvanceResult::Status::reached);
        double time = 0;
        AdvanceOptions o;
        o.on_step = [&](const StepStats& st) {
            r.iterations += st.iterations;
            r.worst_error = std::max(r.worst_error, st.density_error_mean);
            r.floor_load -= st.dt * w.boundary_objects()[0].force.y;
            r.kinetic = std::max(r.kinetic, w.kinetic_energy() / double(w.particles().size()));
            time += st.dt;
            return true;
        };
        EXPECT_EQ(w.advance_to(1.5, o).status, AdvanceResult::Status::reached);
        r.floor_load /= time;
        r.weight = double(w.particles().size()) * w.particles().mass * 9.81;
        r.height = top(w);
        return r;
    };
    const Result plain = run(0.0), warm = run(0.5);
    EXPECT_LT(double(warm.iterations), 0.7 * double(plain.iterations))
        << warm.iterations << " against " << plain.iterations;
    // Joined as the larger push (solver.pbf.warm_start_join), not added: a larger share, and
    // fewer iterations again.
    const Result larger = run(0.8, PbfParams::WarmJoin::larger);
    EXPECT_LT(double(larger.iterations), 0.8 * double(warm.iterations))
        << larger.iterations << " against " << warm.iterations;
    for (const Result& r : {plain, warm, larger}) {
        EXPECT_NEAR(r.floor_load, r.weight, 0.03 * r.weight);
        EXPECT_NEAR(r.height / r.height0, 1.0, 0.02);
        EXPECT_LT(r.worst_error, 6e-4);
        // J per particle, the most in the last 0.5 s: about 1.5e-5, and a single splash up to
        // 4.8e-5 (24 runs each of two builds with g changed by 1e-6 steps, 2026-11-30: 2 and 5
        // past 3e-5); a share of 0.9 set the column moving, 5e-2.
        EXPECT_LT(r.kinetic, 1e-4);
    }
}

// The equal-accuracy table's 0.1% setting (docs/performance.md: the warm start as the larger
// push at 0.8, one iteration at least) keeps `seiche validate hydrostatic`'s tank (50 x 50
// particles, 3 s) at its density: over the last 0.5 s the mean ρ/ρ0 of each of ten layers within
// 2% of 1, and the height within 2% of the particles' volume over the width. (A share of 0.9,
// faster on the dam break, held the top layer 2.6% under ρ0 here; no warm start 0.5%.)
TEST(Pbf, LargerWarmStartKeepsASettledTankAtItsDensity) {
    Scene s = io::load_scene(std::string(SEICHE_SOURCE_DIR) + "/scenes/validation/hydrostatic_2d.json");
    s.solver.pbf.density_tolerance = 0.001;
    s.solver.pbf.warm_start = 0.8;
    s.solver.pbf.warm_start_join = PbfParams::WarmJoin::larger;
    s.solver.pbf.min_iterations = 1;
    s.time.target_iterations = 0;  // the table's CFL steps
    World<2> w(s);
    const double r = s.particle_radius, width = s.container_max[0] - s.container_min[0];
    const double h0 = double(w.particles().size()) * 4.0 * r * r / width;
    constexpr int bins = 10;
    std::array<double, bins> sum{}, time{};
    AdvanceOptions o;
    o.on_step = [&](const StepStats& st) {
        EXPECT_FALSE(st.instability);
        if (w.time() < 2.5 - 1e-9) return true;
        std::array<double, bins> rho{}, n{};
        const auto& p = w.particles();
        for (std::size_t i = 0; i < p.size(); ++i) {
            const int b = std::clamp(int(p.x[i].y / h0 * bins), 0, bins - 1);
            rho[b] += p.rho[i] / s.rest_density;
            n[b] += 1;
        }
        for (int b = 0; b < bins; ++b)
            if (n[b] > 0) sum[b] += st.dt * rho[b] / n[b], time[b] += st.dt;
        return true;
    };
    ASSERT_EQ(w.advance_to(3.0, o).status, AdvanceResult::Status::reached);
    for (int b = 0; b < bins; ++b) {
        ASSERT_GT(time[b], 0.0) << "layer " << b;
        EXPECT_NEAR(sum[b] / time[b], 1.0, 0.02) << "layer " << b << " of " << bins;
    }
    std::vector<float> y;
    for (const auto& x : w.particles().x) y.push_back(x.y);
    std::nth_element(y.begin(), y.begin() + y.size() * 99 / 100, y.end());
    EXPECT_NEAR((y[y.size() * 99 / 100] + r) / h0, 1.0, 0.02) << "height";
}

template <int D>
std::vector<char> state_bytes(const World<D>& w) {
    const auto& p = w.particles();
    std::vector<char> b(p.size() * sizeof(Vec<D>) * 2);
    std::memcpy(b.data(), p.x.data(), p.size() * sizeof(Vec<D>));
    std::memcpy(b.data() + p.size() * sizeof(Vec<D>), p.v.data(), p.size() * sizeof(Vec<D>));
    return b;
}

template <int D>
std::vector<char> run_with_threads(const Scene& s, int threads, int steps) {
    set_thread_count(threads);
    World<D> w(s);
    for (int k = 0; k < steps; ++k) w.step(w.suggested_dt());
    set_thread_count(0);
    return state_bytes(w);
}

// s_corr's (W/W(Δq))^n for a whole n is taken by products on the lanes, std::pow otherwise: the
// two agree (n = 4 against 4 − 10⁻⁶ by pow), and the exponent still matters (n = 2).
TEST(Pbf, TensileCorrectionByProductsAgreesWithPow) {
    auto run = [](double n) {
        Scene s = dam_break_2d(0.01);
        s.solver.pbf.tensile_correction = true;
        s.solver.pbf.s_corr_n = n;
        World<2> w(s);
        for (int k = 0; k < 40; ++k) w.step(w.suggested_dt());
        return w.particles().x;
    };
    const auto four = run(4.0), nearly = run(4.0 - 1e-6), two = run(2.0);
    float most = 0, apart = 0;
    for (std::size_t i = 0; i < four.size(); ++i) {
        most = std::max(most, glm::length(four[i] - nearly[i]));
        apart = std::max(apart, glm::length(four[i] - two[i]));
    }
    EXPECT_LT(most, 1e-4f);   // 1e-5 m measured
    EXPECT_GT(apart, 1e-3f);  // 0.03 m measured
}

TEST(Pbf, BitwiseIdenticalForOneAndTwoThreads) {
    Scene s2 = dam_break_2d(0.01);
    s2.solver.vorticity = 0.05;
    s2.solver.pbf.tensile_correction = true;
    EXPECT_TRUE(run_with_threads<2>(s2, 1, 150) == run_with_threads<2>(s2, 2, 150));
    s2.solver.pbf.warm_start = 0.5;  // carried from step to step
    EXPECT_TRUE(run_with_threads<2>(s2, 1, 150) == run_with_threads<2>(s2, 2, 150));
    s2.solver.pbf.warm_start_join = PbfParams::WarmJoin::larger;  // and the carried push's trend
    EXPECT_TRUE(run_with_threads<2>(s2, 1, 150) == run_with_threads<2>(s2, 2, 150));
    s2.solver.pbf.peak_tolerance = 0.002;  // flags and groups of its own, passes over them
    s2.solver.pbf.max_iterations = 100;
    EXPECT_TRUE(run_with_threads<2>(s2, 1, 150) == run_with_threads<2>(s2, 2, 150));

    Scene s3;
    s3.particle_radius = 0.015;  // 1,690 particles: above parallel_threshold, so threads split
    s3.container_min = {0, 0, 0};
    s3.container_max = {0.8, 0.6, 0.4};
    s3.fluid.push_back({{0, 0, 0}, {0.3, 0.4, 0.4}, {0, 0, 0}});
    s3.solver.vorticity = 0.05;
    EXPECT_TRUE(run_with_threads<3>(s3, 1, 60) == run_with_threads<3>(s3, 2, 60));

    // The other solvers share the neighbour search and the vectorised pair loops.
    for (SolverType type : solver_types) {
        if (type == SolverType::pbf) continue;  // run above, without XSPH
        s3.solver.type = type;
        s3.solver.xsph = 0.01;
        EXPECT_TRUE(run_with_threads<3>(s3, 1, 60) == run_with_threads<3>(s3, 2, 60))
            << solver_name(type);
    }
}

// What a process of a split run relies on: a particle's path depends on its neighbourhood only,
// not on where it is stored, how many particles there are, or which part of the grid's table
// it lands in. A column collapses alone, and beside a second one far away (other particle
// count, storage order, Z-curve buckets, remainders of the vector loops); the first column's
// particles, by creation id, end bitwise the same. Iterations fixed (a tolerance decides on a
// mean over all particles), the same steps for both (a CFL step follows the fastest); every
// solver.
TEST(Pbf, AParticleIgnoresWhereItIsStoredAndHowManyOthersThereAre) {
    // 3 m from the origin: the cells' Z-curve codes are past both tables' sizes, so the two
    // worlds order the cells differently (near the origin they agree by chance).
    const double o = 3.0;
    Scene alone;
    alone.particle_radius = 0.015;
    alone.container_min = {o, o, o};
    alone.container_max = {o + 1.6, o + 0.6, o + 0.4};
    alone.fluid.push_back({{o, o, o}, {o + 0.3, o + 0.4, o + 0.4}, {0, 0, 0}});
    alone.solver.vorticity = 0.05;
    alone.solver.xsph = 0.01;
    alone.solver.pbf.min_iterations = alone.solver.pbf.max_iterations = 3;
    alone.solver.dfsph.min_iterations = alone.solver.dfsph.max_iterations = 3;
    alone.solver.dfsph.max_divergence_iterations = 2;
    alone.solver.dfsph.divergence_tolerance = 1e-12;
    Scene pair = alone;
    pair.fluid.push_back({{o + 1.25, o, o}, {o + 1.6, o + 0.4, o + 0.4}, {0, 0, 0}});
    for (SolverType type : solver_types) {
        alone.solver.type = pair.solver.type = type;
        World<3> a(alone), b(pair);
        ASSERT_GT(b.particles().size(), a.particles().size() + 1000);
        for (double t = 0; t < 0.12;) {
            const double dt = std::min(a.suggested_dt(), b.suggested_dt());  // the same steps
            a.step(dt);
            b.step(dt);
            t += dt;
        }
        const auto by_id = [](const World<3>& w) {
            const auto& p = w.particles();
            std::vector<std::array<float, 7>> r(p.size());
            for (std::size_t i = 0; i < p.size(); ++i)
                r[p.id[i]] = {p.x[i].x, p.x[i].y, p.x[i].z, p.v[i].x, p.v[i].y, p.v[i].z, p.rho[i]};
            return r;
        };
        auto ra = by_id(a), rb = by_id(b);
        rb.resize(ra.size());
        // The columns moved (0.12 s of collapse) and did not meet.
        float front = 0;
        for (const auto& q : ra) front = std::max(front, q[0]);
        EXPECT_GT(front, float(o) + 0.4f) << solver_name(type);
        EXPECT_LT(front, float(o) + 0.8f) << solver_name(type);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < ra.size(); ++i)
            differ += std::memcmp(ra[i].data(), rb[i].data(), sizeof(ra[i])) != 0;
        EXPECT_EQ(differ, 0u) << solver_name(type) << ": of " << ra.size();
    }
}

TEST(Pbf, StepsTowardAFrameHaveNoSliver) {
    EXPECT_DOUBLE_EQ(fit_step(0.002, 0.0015), 0.0015);  // the last step lands on the frame
    EXPECT_DOUBLE_EQ(fit_step(0.002, 0.0030), 0.0015);  // two halves, not 2 ms and then 1 ms
    // Even steps all the way to the frame: 2 ms and then two halves made PBF's step halve at
    // every frame, which kicks water at rest (a 3 m deep 3D tank: ten times the kinetic energy).
    EXPECT_DOUBLE_EQ(fit_step(0.002, 0.0050), 0.0050 / 3);
    EXPECT_DOUBLE_EQ(fit_step(0.002, 0.0060 * (1 + 1e-12)), 0.0060 * (1 + 1e-12) / 3);
    EXPECT_DOUBLE_EQ(fit_step(1e-9, 1e300), 1e-9);  // a target too far to count steps to
    // Walking to sample times 10 ms apart with a CFL step that does not divide them: every step
    // is at least half the suggested one (a plain min(dt, remaining) gave steps of 0.1 ms here,
    // and PBF turns a solver correction over such a step into a velocity spike).
    double t = 0.0, smallest = 1.0;
    for (int sample = 1; sample <= 20; ++sample)
        while (t < 0.01 * sample - 1e-12) {
            const double dt = fit_step(0.0019, 0.01 * sample - t);
            smallest = std::min(smallest, dt);
            t += dt;
        }
    EXPECT_NEAR(t, 0.2, 1e-12);
    EXPECT_GE(smallest, 0.5 * 0.0019 - 1e-12);
    // and between two samples the steps are equal: 10 ms in 6 steps of 1.67 ms
    EXPECT_GE(smallest, 0.01 / 6 - 1e-12);
}

TEST(Pbf, CflStepRespectsBounds) {
    Scene s = dam_break_2d(0.01);
    World<2> w(s);
    EXPECT_LE(w.suggested_dt(), max_dt(s));
    for (int k = 0; k < 100; ++k) w.step(w.suggested_dt());
    float vmax = 0;
    for (const auto& v : w.particles().v) vmax = std::max(vmax, glm::length(v));
    ASSERT_GT(vmax, 0.5f);
    EXPECT_LE(w.suggested_dt(), s.time.cfl * 2 * s.particle_radius / vmax + 1e-9);
    EXPECT_GE(w.suggested_dt(), s.time.min_dt);
}

TEST(Pbf, GuardReportsRunawayParticle) {
    Scene s = dam_break_2d(0.01);
    s.solver.max_speed = 0.5;  // the falling column exceeds this within a fraction of a second
    World<2> w(s);
    std::optional<Instability> bad;
    for (int k = 0; k < 500 && !bad; ++k) bad = w.step(w.suggested_dt()).instability;
    ASSERT_TRUE(bad.has_value());
    EXPECT_NE(bad->reason.find("exceeds"), std::string::npos);
    EXPECT_LT(bad->particle, w.particles().size());
}

}  // namespace
}  // namespace seiche
