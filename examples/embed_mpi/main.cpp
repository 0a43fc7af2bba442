// One scene over MPI processes, in a program of your own: every process builds the same
// definition, the domain splits it, each step is collective. Process 0 prints what every
// process's particles add up to; any number of processes prints the same lines, bit for bit.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <seiche/mpi.hpp>
#include <seiche/world.hpp>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int status = 0;
    {
        seiche::WorldDef def;  // every default; SI units
        def.dimension = 2;
        def.particle_radius = 0.01;                            // m
        def.container_min = {0, 0, 0};                         // m
        def.container_max = {1.0, 0.6, 0};
        def.fluid.push_back({{0, 0, 0}, {0.25, 0.5, 0}, {}});  // a water column at the left wall

        // One process: a world of its own, no domain; several: the scene split between them.
        seiche::World<2> world(def, size > 1 ? seiche::mpi::make_domain<2>(MPI_COMM_WORLD) : nullptr);
        seiche::AdvanceOptions every_tenth;
        every_tenth.every = 0.1;  // s
        every_tenth.on_sample = [&](std::int64_t) {
            // Collective: every process calls it; process 0 gets them all (one process: its own,
            // in the order it stores them, so taken in creation order here).
            const seiche::ParticleSet<2>& all = world.gather_particles();
            if (rank != 0) return true;
            std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over the positions' bits
            float front = 0;
            for (const std::uint32_t i : seiche::creation_order(all.id)) {
                const auto& x = all.x[i];
                std::uint32_t bits[2];
                std::memcpy(bits, &x, sizeof bits);
                for (std::uint32_t b : bits) hash = (hash ^ b) * 1099511628211ull;
                front = x.x > front ? x.x : front;
            }
            std::printf("t = %.1f s  %zu particles  front at x = %.4f m  positions %016llx\n",
                        world.time(), all.size(), front, static_cast<unsigned long long>(hash));
            return true;
        };
        const seiche::AdvanceResult r = world.advance_to(0.5, every_tenth);
        const std::size_t n = world.particle_count();  // collective
        if (rank == 0)
            std::printf("%zu particles over %d process(es), %lld steps, %s\n", n, size,
                        static_cast<long long>(world.steps()),
                        r.status == seiche::AdvanceResult::Status::reached ? "reached 0.5 s" : "stopped early");
        status = r.status == seiche::AdvanceResult::Status::reached ? 0 : 3;
    }  // the world and its domain go before MPI does
    MPI_Finalize();
    return status;
}
