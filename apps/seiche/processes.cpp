#include "processes.hpp"

#include <cstdlib>
#include <optional>

#ifdef SEICHE_HAVE_MPI
#include "seiche/mpi.hpp"
#endif

namespace seiche::app {

namespace {
Launch the_launch;
#ifdef SEICHE_HAVE_MPI
std::optional<mpi::Session> session;
#endif

// The launchers' environment (Open MPI, MPICH/PMI, PMIx, Slurm): several processes asked for.
bool several_launched() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"}) {
        const char* v = std::getenv(name);
        if (v && std::atoi(v) > 1) return true;
    }
    return false;
}
}  // namespace

std::string start_processes(int& argc, char**& argv) {
    if (!several_launched()) return {};  // one process: MPI is not started
#ifdef SEICHE_HAVE_MPI
    session.emplace(argc, argv);
    the_launch = {session->rank(), session->size()};
    return {};
#else
    (void)argc;
    (void)argv;
    return "started as several processes, but this seiche was built without MPI "
           "(scripts/install-deps.sh installs libopenmpi-dev; then rebuild)";
#endif
}

void abort_processes(int code) {
#ifdef SEICHE_HAVE_MPI
    if (the_launch.split()) MPI_Abort(MPI_COMM_WORLD, code);
#else
    (void)code;
#endif
}

const Launch& launch() {
    return the_launch;
}

template <int D>
std::shared_ptr<Domain<D>> scene_domain() {
#ifdef SEICHE_HAVE_MPI
    if (the_launch.split()) return mpi::make_domain<D>(MPI_COMM_WORLD);
#endif
    return nullptr;
}

template std::shared_ptr<Domain<2>> scene_domain<2>();
template std::shared_ptr<Domain<3>> scene_domain<3>();

}  // namespace seiche::app
