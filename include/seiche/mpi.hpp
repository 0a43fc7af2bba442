// seiche::Domain over MPI: the scene's cells split along their Z-curve between the processes of a
// communicator, halos of one cell, particles migrating as they move (docs/scale-out.md).
// Installed as seiche::mpi when seiche was built with MPI: a program of its own runs one scene
// over its processes with World<D>(def, seiche::mpi::make_domain<D>(MPI_COMM_WORLD)), every
// process building the same definition (examples/embed_mpi).
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "seiche/domain.hpp"

namespace seiche::mpi {

// MPI, started for the life of this object (the program makes one only when a launcher asked for
// several processes: a single process pays nothing).
class Session {
  public:
    Session(int& argc, char**& argv);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }

  private:
    int rank_ = 0, size_ = 1;
};

// The split of one scene over the processes of `comm` (MPI started, and still running while the
// domain lives: it frees its datatype when destroyed). Every step, reduction and gather of a
// World built with it is collective over comm.
template <int D>
std::shared_ptr<Domain<D>> make_domain(MPI_Comm comm);

}  // namespace seiche::mpi
