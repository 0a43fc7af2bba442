// Google Benchmark micro-benchmarks: the neighbour search and each PBF pass on a 3D block of
// fluid resting in a box, so that a regression in one stage shows on its own.
//   build/seiche_microbench                      (all)
//   build/seiche_microbench --benchmark_filter=Lambda
#include <benchmark/benchmark.h>

#include <random>

#include "seiche/boundary.hpp"
#include "seiche/neighbor_grid.hpp"
#include "seiche/pbf.hpp"
#include "seiche/surface_tension.hpp"
#include "solvers/pbf_passes.hpp"

namespace seiche {
namespace {

// n³ fluid particles at spacing d, slightly jittered, resting in a box with boundary particles.
struct Fixture {
    float d = 0.02f, h = 0.04f;
    CubicSpline<3> kernel{0.04f};
    std::vector<Vec<3>> x;
    Boundary<3> boundary;
    NeighborGrid<3> grid, boundary_grid;
    NeighborList fluid_nb, boundary_nb;
    float mass;
    Box<3> box;

    explicit Fixture(int n) {
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> jitter(-0.05f * d, 0.05f * d);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                for (int k = 0; k < n; ++k)
                    x.push_back(Vec<3>((i + 0.5f) * d + jitter(rng), (j + 0.5f) * d + jitter(rng),
                                       (k + 0.5f) * d + jitter(rng)));
        box = {Vec<3>(0.0f), Vec<3>(n * d, 1.5f * n * d, n * d)};
        containers.resize(1);
        containers[0].fluid_inside = true;
        containers[0].shape = box;
        boundary = sample_container<3>(box, WallSampling::for_kernel(KernelType::cubic_spline, d));
        compute_boundary_volumes<3>(boundary, AnyKernel<3>(kernel));
        boundary_grid.build(boundary.x, h);
        mass = 1000.0f / float(lattice_sums<3>(kernel, d).w);
        find_neighbors();
    }
    void find_neighbors() {
        grid.build(x, h);
        std::vector<Vec<3>> sorted(x.size());
        sorted.reserve(x.size() + 1);  // padded, as the world keeps its positions (x_padded)
        for (std::size_t e = 0; e < x.size(); ++e) sorted[e] = x[grid.order()[e]];
        x.swap(sorted);
        grid.points_were_sorted();
        build_neighbor_list_by_cell<3>(grid, x, grid, true, fluid_nb);
        build_neighbor_list_by_cell<3>(grid, x, boundary_grid, false, boundary_nb);
    }
    FluidView<3> view() const {
        FluidView<3> v{x,          mass,           1000.0f,     fluid_nb, boundary.x,
                       boundary.volume, boundary_nb, containers, 0.5f * d};
        v.x_padded = x.capacity() > x.size();
        return v;
    }
    std::vector<BoundaryObject<3>> containers;
};

void GridBuild(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        f.grid.build(f.x, f.h);
        benchmark::DoNotOptimize(f.grid.order().data());
    }
    state.SetItemsProcessed(state.iterations() * f.x.size());
}

void NeighborListsFluid(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        build_neighbor_list_by_cell<3>(f.grid, f.x, f.grid, true, f.fluid_nb);
        benchmark::DoNotOptimize(f.fluid_nb.offset.data());
    }
    state.SetItemsProcessed(state.iterations() * f.x.size());
    state.counters["neighbours"] = double(f.fluid_nb.pairs()) / f.x.size();
}

void NeighborListsBoundary(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        build_neighbor_list_by_cell<3>(f.grid, f.x, f.boundary_grid, false, f.boundary_nb);
        benchmark::DoNotOptimize(f.boundary_nb.offset.data());
    }
    state.SetItemsProcessed(state.iterations() * f.x.size());
}

// The PBF passes' scratch on a fixture, after one λ pass (a step's first).
struct PbfBench {
    Fixture f;
    PbfParams p;
    PbfConstants c;
    std::vector<float> rho;
    std::vector<PositionLambda> x_lambda;
    PbfState<3> kept;
    explicit PbfBench(int n)
        : f(n), c(pbf_constants<3>(p, f.kernel, f.mass, 1000.0f, f.d)), rho(f.x.size()),
          x_lambda(f.x.size()) {
        kept.resize(f.x.size());
        lambda(true);
    }
    void lambda(bool first) {
        pbf_lambda_pass<3>(p, c, f.kernel, f.view(), rho, x_lambda, kept.boundary, first);
    }
};

// A step's first λ pass (the boundary's sums summed), or a later one (the sums kept).
void pbf_lambda_bench(benchmark::State& state, bool first) {
    PbfBench b(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        b.lambda(first);
        benchmark::DoNotOptimize(b.x_lambda.data());
    }
    state.SetItemsProcessed(state.iterations() * b.f.x.size());
}
void PbfLambdaPass(benchmark::State& state) { pbf_lambda_bench(state, true); }
void PbfLambdaPassLater(benchmark::State& state) { pbf_lambda_bench(state, false); }

void PbfDeltaPass(benchmark::State& state) {
    PbfBench b(static_cast<int>(state.range(0)));
    std::vector<Vec<3>> x_out(b.f.x.size());
    for (auto _ : state) {
        pbf_delta_pass<3>(b.c, b.f.kernel, b.f.view(), b.x_lambda, x_out, b.kept.boundary);
        benchmark::DoNotOptimize(x_out.data());
    }
    state.SetItemsProcessed(state.iterations() * b.f.x.size());
}

void PbfDensityPass(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(0)));
    std::vector<float> rho(f.x.size());
    for (auto _ : state) {
        pbf_density_pass<3>(f.kernel, f.view(), rho);
        benchmark::DoNotOptimize(rho.data());
    }
    state.SetItemsProcessed(state.iterations() * f.x.size());
}

// Akinci et al. 2013's two pair passes (normals, then cohesion, curvature and adhesion), γ = 1
// and β = 5 on every wall, as in `seiche bench` of a surface-tension scene.
void SurfaceForcesPass(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(0)));
    std::vector<float> rho(f.x.size());
    pbf_density_pass<3>(f.kernel, f.view(), rho);
    const SurfaceKernels<3> sk(f.h);
    std::vector<float> adhesion(f.boundary.x.size());
    for (std::size_t k = 0; k < adhesion.size(); ++k) adhesion[k] = 5.0f * 1000.0f * f.boundary.volume[k];
    std::vector<Float4> x_rho(f.x.size()), normal(f.x.size());
    std::vector<Vec<3>> a(f.x.size());
    for (auto _ : state) {
        surface_accelerations<3>(f.view(), f.kernel, sk, 1.0f, adhesion, rho, x_rho, normal, a);
        benchmark::DoNotOptimize(a.data());
    }
    state.SetItemsProcessed(state.iterations() * f.x.size());
}

// 27³ ≈ 20k and 40³ = 64k particles.
BENCHMARK(GridBuild)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(NeighborListsFluid)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(NeighborListsBoundary)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(PbfLambdaPass)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(PbfLambdaPassLater)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(PbfDeltaPass)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(PbfDensityPass)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);
BENCHMARK(SurfaceForcesPass)->Arg(27)->Arg(40)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace seiche

BENCHMARK_MAIN();
