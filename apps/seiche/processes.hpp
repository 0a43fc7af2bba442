// The processes seiche was started as: one, or several under mpirun / srun, splitting a scene
// (docs/scale-out.md). main() starts them; the commands ask for the world's domain.
#pragma once

#include <memory>
#include <string>

#include "seiche/domain.hpp"

namespace seiche::app {

struct Launch {
    int rank = 0, size = 1;
    bool split() const { return size > 1; }
    bool root() const { return rank == 0; }
};

// Called once by main(): MPI started when the launcher asked for several processes. Returns
// an error message when it did and this seiche was built without MPI.
std::string start_processes(int& argc, char**& argv);
const Launch& launch();
// An error on one of several processes: the others would wait for it forever, so all stop
// (MPI_Abort); nothing for one process.
void abort_processes(int code);

// The domain of a scene split over the launched processes; nullptr for one process.
template <int D>
std::shared_ptr<Domain<D>> scene_domain();

}  // namespace seiche::app
