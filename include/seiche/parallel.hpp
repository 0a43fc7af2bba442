// The one parallel primitive of seiche. Kernels gather: iteration i writes only element i, so
// results are bitwise identical for any thread count.
#pragma once

#include <cstddef>

namespace seiche {

// Sets the number of threads used by parallel_for (0 = all cores).
void set_thread_count(int threads);
int thread_count();

// Below this many iterations a loop runs on the calling thread: waking the team costs more than
// the work, and oversubscribed machines (two test processes on two cores) stall on it.
inline constexpr long long parallel_threshold = 1024;

// min_parallel: fewest iterations worth a team; coarse work items (chunks) pass a small one.
template <class Fn>
void parallel_for(std::size_t n, Fn&& fn, long long min_parallel = parallel_threshold) {
    const long long count = static_cast<long long>(n);
#pragma omp parallel for schedule(static) if (count >= min_parallel)
    for (long long i = 0; i < count; ++i) fn(static_cast<std::size_t>(i));
}

}  // namespace seiche
