// No allocation in the step loop (issue 4): once the buffers have grown to a scene's needs,
// World::step allocates nothing. The global operator new of this test binary counts the calls
// made while counting is switched on.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "seiche/parallel.hpp"
#include "seiche/scene.hpp"
#include "seiche/world.hpp"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void* counted_alloc(std::size_t n) {
    if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) {
    return counted_alloc(n);
}
void* operator new[](std::size_t n) {
    return counted_alloc(n);
}
// Every form that pairs with the deletes below is replaced too: the standard library's nothrow
// new (std::stable_sort's temporary buffer) must not come from another allocator than the
// delete that frees it (AddressSanitizer reports the mismatch).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}

namespace seiche {
namespace {

// A 3D column resting in a box, enough particles that every loop runs on all threads.
Scene resting_column(SolverType type) {
    Scene s;
    s.dimension = 3;
    s.particle_radius = 0.0125;  // 16 x 12 x 12 = 2,304 particles
    s.container_min = {0, 0, 0};
    s.container_max = {0.4, 0.6, 0.3};
    s.fluid.push_back({{0, 0, 0}, {0.4, 0.3, 0.3}, {0, 0, 0}});
    s.solver.type = type;
    s.solver.xsph = 0.01;
    s.solver.vorticity = 0.05;
    s.time.mode = TimeParams::Mode::fixed;
    // The explicit solvers resolve sound; the implicit ones (PBF, DFSPH) take 2 ms (DFSPH at
    // 0.4 ms corrects the lattice's start-up density error in one short step: a kick that
    // keeps the column sloshing and its neighbour lists growing).
    s.time.dt = solver_traits(type).resolves_sound ? 0.0004 : 0.002;
    return s;
}

long allocations_during_steps(World<3>& w, int steps) {
    allocations = 0;
    counting = true;
    for (int k = 0; k < steps; ++k) w.step(w.suggested_dt());
    counting = false;
    return allocations.load();
}

TEST(StepLoop, AllocatesNothingOnceWarm) {
    // Two threads, so that the pool's workers run the loops too (the suite runs each test on
    // one thread by default: tests/CMakeLists.txt).
    set_thread_count(2);
    for (SolverType type : solver_types) {
        World<3> w(resting_column(type));
        ASSERT_GT(w.particles().size(), 2000u);
        // The first steps size every buffer (and the lists' headroom).
        EXPECT_GT(allocations_during_steps(w, 1), 0) << "the counter does not count";
        // Settled: DFSPH's column takes up to 160 steps of 2 ms to settle from the lattice's
        // start-up (its neighbour lists grow until then: with plain Jacobi the lists last grew
        // in steps 121–140, with the Chebyshev semi-iteration in steps 141–160).
        allocations_during_steps(w, 200);
        EXPECT_EQ(allocations_during_steps(w, 20), 0) << solver_name(type);
    }
    set_thread_count(0);
}

}  // namespace
}  // namespace seiche
