// seiche::Domain over MPI: the scene's cells split along their Z-curve between the processes of a
// communicator, halos of one cell, particles migrating as they move (docs/scale-out.md).
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
    bool active() const { return active_; }
    int rank() const { return rank_; }
    int size() const { return size_; }

  private:
    bool active_ = false;
    int rank_ = 0, size_ = 1;
};

template <int D>
std::shared_ptr<Domain<D>> make_domain(MPI_Comm comm);

}  // namespace seiche::mpi
