// Embedding seiche: a scene built in code, validated, advanced to 1 s, a figure printed.
#include <cstdio>

#include <seiche/world.hpp>

int main() {
    seiche::WorldDef def;  // every default; SI units
    def.dimension = 2;
    def.particle_radius = 0.01;                          // m
    def.container_min = {0, 0, 0};                       // m
    def.container_max = {1.0, 0.6, 0};
    def.fluid.push_back({{0, 0, 0}, {0.25, 0.5, 0}, {}});  // a water column at the left wall
    def.solver.type = seiche::SolverType::pbf;

    if (const auto problems = seiche::validate(def); !problems.empty()) {
        for (const auto& p : problems) std::fprintf(stderr, "%s: %s\n", p.path.c_str(), p.message.c_str());
        return 2;
    }
    seiche::World<2> world(def);  // would throw seiche::DefinitionError as well

    seiche::AdvanceOptions every_tenth;
    every_tenth.every = 0.1;  // s
    every_tenth.on_sample = [&](std::int64_t) {
        float front = 0;  // the surge front: the largest x of any particle
        for (const auto& x : world.particles().x) front = x.x > front ? x.x : front;
        std::printf("t = %.1f s  front at x = %.3f m\n", world.time(), front);
        return true;
    };
    const seiche::AdvanceResult r = world.advance_to(1.0, every_tenth);
    std::printf("%zu particles, %lld steps, %s\n", world.particles().size(),
                static_cast<long long>(world.steps()),
                r.status == seiche::AdvanceResult::Status::reached ? "reached 1 s" : "stopped early");
    return r.status == seiche::AdvanceResult::Status::reached ? 0 : 3;
}
