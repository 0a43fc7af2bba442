// The one parallel primitive of seiche. Kernels gather: iteration i writes only element i, so
// results are bitwise identical for any thread count and any split of the work.
#pragma once

#include <cstddef>
#include <type_traits>

namespace seiche {

// Sets the number of threads used by parallel_for (0 = all cores, or OMP_NUM_THREADS).
void set_thread_count(int threads);
int thread_count();

// How often, since the program started, the pool moved one of its threads to another processor
// because the machine was busy: a late block's thread moved to a waiting thread's processor, and
// an idle worker that left the processor of the thread that hands out the work.
struct ThreadMoves {
    long late_blocks_pulled = 0;
    long steps_aside = 0;
};
ThreadMoves thread_moves();

// Below this many iterations a loop runs on the calling thread: waking the team costs more than
// the work, and oversubscribed machines (two test processes on two cores) stall on it.
inline constexpr long long parallel_threshold = 1024;

namespace detail {
// Runs body(ctx, begin, end) over [0, n) in blocks claimed by the calling thread and the pool's
// threads; returns when every block is done. A thread that does not get the CPU (a busy machine)
// claims nothing, and the others take its share. Waiting threads spin briefly, then sleep, so
// they do not take a core from whoever has work. A call made while the pool is busy (nested, or
// from another thread) runs on the calling thread alone.
// granule: blocks start at multiples of it (64 for loops over particles, see parallel.cpp; 1 for
// loops over coarse work items).
void run_blocks(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx,
                std::size_t granule);
// body(ctx, 0, n) on the calling thread, through the pointer (see parallel_for).
void run_serial(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx);
}  // namespace detail

// min_parallel: fewest iterations worth a team; coarse work items (chunks) pass a small one.
template <class Fn>
void parallel_for(std::size_t n, Fn&& fn, long long min_parallel = parallel_threshold) {
    using F = std::remove_reference_t<Fn>;
    // One compiled loop for every split, serial included, always called through the pointer from
    // another file so that it is never inlined here: an inlined copy is optimised on its own
    // (contractions into FMAs, vectorisation) and gave other bits than the pool's.
    auto* body = +[](void* ctx, std::size_t begin, std::size_t end) {
        F& f = *static_cast<F*>(ctx);
        for (std::size_t i = begin; i < end; ++i) f(i);
    };
    void* ctx = const_cast<void*>(static_cast<const void*>(&fn));
    if (static_cast<long long>(n) < min_parallel || thread_count() == 1)
        detail::run_serial(n, body, ctx);
    else
        detail::run_blocks(n, body, ctx, min_parallel >= parallel_threshold ? 64 : 1);
}

}  // namespace seiche
