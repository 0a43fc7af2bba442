// seiche's thread pool, in place of OpenMP's parallel loops (issue 15). libgomp's threads spin at
// every barrier (300,000 iterations by default), so when other work holds a core a step waits
// again and again for a descheduled thread (85 ms per step instead of 3 under a load average of
// 11). Here a loop is split into blocks that threads claim one at a time: a thread that is not
// running holds up nothing it has not started, and every wait spins for microseconds only before
// sleeping on a futex (std::atomic::wait).
#include "seiche/parallel.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SEICHE_PAUSE() _mm_pause()
#else
#define SEICHE_PAUSE() std::this_thread::yield()
#endif

namespace seiche {

namespace {

using clock = std::chrono::steady_clock;

// How long a waiting thread spins before it sleeps: long enough to catch the next loop of a step
// (the serial code between two loops takes microseconds), short enough that a busy machine loses
// little to it.
constexpr auto idle_spin = std::chrono::microseconds(50);
constexpr auto join_spin = std::chrono::microseconds(50);

// Blocks start at multiples of this many iterations. A loop the compiler vectorises runs its
// last few iterations in a scalar remainder that may round differently (an FMA in one, a
// multiply and an add in the other); aligned blocks put the same iterations in the remainder
// as a single pass over the whole range, so results do not depend on the split.
constexpr std::size_t block_granule = 64;

template <class Pred>
bool spin_until(Pred pred, clock::duration limit) {
    const auto t0 = clock::now();
    for (int k = 0;; ++k) {
        if (pred()) return true;
        SEICHE_PAUSE();
        if ((k & 63) == 63 && clock::now() - t0 > limit) return pred();
    }
}

class Pool {
  public:
    ~Pool() { resize(1); }

    int threads() const { return threads_; }

    // Total threads, the caller's included.
    void resize(int threads) {
        std::lock_guard lock(dispatch_);
        if (threads == threads_) return;
        quit_.store(true);
        claim_.fetch_add(std::uint64_t(1) << 32);  // a new epoch wakes everyone to see quit_
        claim_.notify_all();
        for (auto& w : workers_) w.join();
        workers_.clear();
        quit_.store(false);
        threads_ = std::max(1, threads);
        // The epoch a worker starts from is read here, not when its thread first runs: a worker
        // that starts late must still see the next job, or the next resize, as new.
        const std::uint64_t epoch = claim_.load() >> 32;
        for (int t = 1; t < threads_; ++t) workers_.emplace_back([this, epoch] { work(epoch); });
    }

    void run(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx) {
        std::unique_lock lock(dispatch_, std::try_to_lock);
        if (!lock.owns_lock() || threads_ == 1) {
            body(ctx, 0, n);
            return;
        }
        // About eight blocks per thread: small enough that the others absorb the share of a
        // thread that is late, large enough that claiming costs nothing.
        std::size_t block = (n + 8 * threads_ - 1) / (8 * threads_);
        block = (block + block_granule - 1) / block_granule * block_granule;
        const std::uint64_t blocks = (n + block - 1) / block;
        n_.store(n, std::memory_order_relaxed);
        block_.store(block, std::memory_order_relaxed);
        blocks_.store(blocks, std::memory_order_relaxed);
        body_.store(body, std::memory_order_relaxed);
        ctx_.store(ctx, std::memory_order_relaxed);
        done_.store(0, std::memory_order_relaxed);
        // Publishing the new epoch, block 0 next, releases the job to the workers.
        const std::uint64_t epoch = (claim_.load(std::memory_order_relaxed) >> 32) + 1;
        claim_.store(epoch << 32, std::memory_order_release);
        claim_.notify_all();
        help(epoch);
        const auto all_done = [&] { return done_.load(std::memory_order_acquire) == blocks; };
        if (!spin_until(all_done, join_spin))
            for (std::uint64_t d; (d = done_.load(std::memory_order_acquire)) != blocks;)
                done_.wait(d, std::memory_order_acquire);
    }

  private:
    // Claims and runs blocks of job `epoch` until none is left (or a newer job has started).
    void help(std::uint64_t epoch) {
        for (;;) {
            std::uint64_t c = claim_.load(std::memory_order_acquire);
            std::uint64_t index;
            do {
                index = c & 0xffffffffu;
                if ((c >> 32) != epoch || index >= blocks_.load(std::memory_order_relaxed)) return;
            } while (!claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel));
            // A claimed block keeps its job alive (the caller waits for it), so these still hold.
            const std::size_t block = block_.load(std::memory_order_relaxed);
            const std::size_t n = n_.load(std::memory_order_relaxed);
            const std::size_t begin = index * block, end = std::min(n, begin + block);
            body_.load(std::memory_order_relaxed)(ctx_.load(std::memory_order_relaxed), begin, end);
            if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 ==
                blocks_.load(std::memory_order_relaxed))
                done_.notify_one();
        }
    }

    void work(std::uint64_t seen) {
        for (;;) {
            const auto new_job = [&] {
                return (claim_.load(std::memory_order_acquire) >> 32) != seen;
            };
            if (!spin_until(new_job, idle_spin))
                for (std::uint64_t c; ((c = claim_.load(std::memory_order_acquire)) >> 32) == seen;)
                    claim_.wait(c, std::memory_order_acquire);
            if (quit_.load()) return;
            seen = claim_.load(std::memory_order_acquire) >> 32;
            help(seen);
        }
    }

    std::mutex dispatch_;  // one job at a time
    int threads_ = 1;
    std::vector<std::thread> workers_;
    std::atomic<bool> quit_{false};
    // The epoch of the current job (high 32 bits) and its next unclaimed block (low 32 bits).
    std::atomic<std::uint64_t> claim_{0};
    std::atomic<std::uint64_t> done_{0}, blocks_{0};
    std::atomic<std::size_t> n_{0}, block_{1};
    std::atomic<void (*)(void*, std::size_t, std::size_t)> body_{nullptr};
    std::atomic<void*> ctx_{nullptr};
};

// The default: OMP_NUM_THREADS when the user set it, else every core (read once).
int all_cores() {
    static const int n = omp_get_max_threads();
    return n;
}

Pool& pool() {
    static Pool p;
    return p;
}

std::atomic<int> requested{0};  // 0: all cores

}  // namespace

void set_thread_count(int threads) {
    all_cores();  // read the default before omp_set_num_threads changes it
    requested.store(threads > 0 ? threads : 0);
    const int n = threads > 0 ? threads : all_cores();
    // OpenMP's own loops (pictures of many frames in `seiche render`) follow the same count.
    omp_set_num_threads(n);
    pool().resize(n);
}

int thread_count() {
    const int r = requested.load(std::memory_order_relaxed);
    return r > 0 ? r : all_cores();
}

namespace detail {
void run_serial(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx) {
    body(ctx, 0, n);
}

void run_blocks(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx) {
    Pool& p = pool();
    if (p.threads() != thread_count()) set_thread_count(requested.load());
    p.run(n, body, ctx);
}
}  // namespace detail

}  // namespace seiche
