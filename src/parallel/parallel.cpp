#include "seiche/parallel.hpp"

#include <omp.h>

namespace seiche {

void set_thread_count(int threads) {
    omp_set_num_threads(threads > 0 ? threads : omp_get_num_procs());
}

int thread_count() {
    return omp_get_max_threads();
}

}  // namespace seiche
