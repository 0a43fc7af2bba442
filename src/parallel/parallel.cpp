// seiche's thread pool, in place of OpenMP's parallel loops (issue 15). libgomp's threads spin at
// every barrier (300,000 iterations by default), so when other work holds a core a step waits
// again and again for a descheduled thread (85 ms per step instead of 3 under a load average of
// 11). Here a loop is split into blocks that threads claim one at a time: a thread that is not
// running holds up nothing it has not started, and every wait spins for microseconds only before
// sleeping on a futex (std::atomic::wait). Two things the kernel does not do for us on a busy
// machine (measured with perf sched beside one busy loop on 2 cores): it leaves both of seiche's
// threads queued on one processor for whole runs, since their loads look balanced against the
// other process's; and a processor that goes idle while a thread of ours waits on the other one
// does not take it over for milliseconds (the thread counts as "cache hot"). So a worker with
// nothing to do that shares the caller's processor moves itself to another one (step_aside), and
// a caller about to sleep while a block is late moves that block's thread to its own processor
// (pull).
#include "seiche/parallel.hpp"

#include "parallel/sched_attr.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SEICHE_PAUSE() _mm_pause()
#else
#define SEICHE_PAUSE() std::this_thread::yield()
#endif

namespace seiche {

namespace {

// Asks the kernel (Linux 6.12 and later; earlier ones ignore it) for time slices of `slice` for
// the calling thread instead of its default (1.4 ms on the 2-core machine of docs/performance-history.md,
// whose 4 ms tick decides when a thread is put aside), or for the default again with 0.
void request_slice(std::chrono::microseconds slice) {
    detail::SchedAttr attr;
    if (!detail::get_sched_attr(attr)) return;
    // The thread keeps its policy and nice value: a user who started seiche with `nice` or `chrt
    // --batch/--idle` to spare other work gets that still. Real-time threads are left alone.
    if (attr.policy != SCHED_OTHER && attr.policy != SCHED_BATCH && attr.policy != SCHED_IDLE)
        return;
    attr.flags &= 1;  // SCHED_FLAG_RESET_ON_FORK; the others would change more than the slice
    attr.runtime = std::uint64_t(slice.count()) * 1000;
    detail::set_sched_attr(attr);
}

using clock = std::chrono::steady_clock;

// How long a waiting thread spins before it sleeps: long enough to catch the next loop of a step
// (the serial code between two loops takes microseconds), short enough that a busy machine loses
// little to it. 200 µs measured better than 50 (sleeps between the loops of a small step) and
// than 1,000 (spinning on a taken core) on the 9k-particle DDR scene.
constexpr auto idle_spin = std::chrono::microseconds(200);
constexpr auto join_spin = std::chrono::microseconds(200);
// How often each thread looks at the machine's load, and the time slice it asks for when there
// are more busy processes than processors (see look_at_load).
constexpr auto load_look = std::chrono::milliseconds(20);
constexpr auto crowded_slice = std::chrono::microseconds(200);
// The least time after which a block still running is taken to be late (its thread descheduled).
constexpr auto late_block = std::chrono::microseconds(40);

// Loops over particles split into blocks that start at multiples of 64 iterations (the granule
// parallel_for passes). A loop the compiler vectorises runs its last few iterations in a scalar
// remainder that may round differently (an FMA in one, a multiply and an add in the other);
// aligned blocks put the same iterations in the remainder as one pass over the whole range, so
// results do not depend on the split. Loops over coarse work items use a granule of 1.

// Spins until pred() holds (true) or until `limit` has passed or stop() says that spinning only
// keeps another thread from running (false: the caller then sleeps).
template <class Pred, class Stop>
bool wait_until(Pred pred, clock::duration limit, Stop stop) {
    const auto t0 = clock::now();
    for (int k = 0;; ++k) {
        if (pred()) return true;
        SEICHE_PAUSE();
        if ((k & 63) == 63 && (clock::now() - t0 > limit || stop())) return pred();
    }
}

class Pool {
  public:
    ~Pool() {
        resize(1);
        if (loadavg_ >= 0) close(loadavg_);
    }

    int threads() const { return threads_; }
    ThreadMoves moves() const { return {pulls_.load(), asides_.load()}; }

    // Total threads, the caller's included.
    void resize(int threads) {
        std::lock_guard lock(dispatch_);
        if (threads == threads_) return;
        quit_.store(true);
        epoch_.fetch_add(1);  // a new epoch wakes everyone to see quit_
        epoch_.notify_all();
        for (auto& w : workers_) w.join();
        workers_.clear();
        quit_.store(false);
        threads_ = std::clamp(threads, 1, max_threads);
        if (sched_getaffinity(0, sizeof allowed_, &allowed_) != 0) {
            CPU_ZERO(&allowed_);
            for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &allowed_);
        }
        for (int t = 0; t < max_threads; ++t) slot_[t].pulled.store(false);
        // The epoch a worker starts from is read here, not when its thread first runs: a worker
        // that starts late must still see the next job, or the next resize, as new.
        const std::uint64_t epoch = epoch_.load();
        for (int t = 1; t < threads_; ++t)
            workers_.emplace_back([this, epoch, t] { work(epoch, t); });
    }

    void run(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx,
             std::size_t granule) {
        std::unique_lock lock(dispatch_, std::try_to_lock);
        if (!lock.owns_lock() || threads_ == 1) {
            body(ctx, 0, n);
            return;
        }
        // About eight blocks per thread: small enough that the others absorb the share of a
        // thread that is late, large enough that claiming costs nothing.
        std::size_t block = (n + 8 * threads_ - 1) / (8 * threads_);
        block = (block + granule - 1) / granule * granule;
        const std::uint64_t blocks = (n + block - 1) / block;
        n_.store(n, std::memory_order_relaxed);
        block_.store(block, std::memory_order_relaxed);
        blocks_.store(blocks, std::memory_order_relaxed);
        body_.store(body, std::memory_order_relaxed);
        ctx_.store(ctx, std::memory_order_relaxed);
        done_.store(0, std::memory_order_relaxed);
        const std::uint64_t epoch = epoch_.load(std::memory_order_relaxed) + 1;
        // Thread t starts on its own share of the blocks, in order, so a particle stays with the
        // same core from loop to loop (its data in that core's cache); a thread that is done
        // takes what is left of the others' shares.
        for (int t = 0; t < threads_; ++t)
            slot_[t].next.store(
                slot_value(epoch, share_begin(t + 1, blocks), share_begin(t, blocks)),
                std::memory_order_relaxed);
        epoch_.store(epoch, std::memory_order_seq_cst);
        // A wake-up is a system call: only for workers that went to sleep.
        if (sleepers_.load(std::memory_order_seq_cst) > 0) epoch_.notify_all();
        const clock::duration own = help(epoch, 0);
        const auto all_done = [&] { return done_.load(std::memory_order_acquire) == blocks; };
        const int here = sched_getcpu();
        slot_[0].cpu.store(here, std::memory_order_relaxed);
        // A block that has run several times longer than the longest of the caller's own is
        // taken to be held by a thread the scheduler has put aside.
        const clock::duration late = std::max<clock::duration>(late_block, 4 * own);
        // Whether to stop spinning: a thread we wait for is queued on this processor, or is late
        // on another (then it is moved here first, see pull).
        const auto hand_over = [&] {
            const auto now = clock::now().time_since_epoch().count();
            bool sleep = false;
            for (int t = 1; t < threads_; ++t) {
                if (!slot_[t].running.load(std::memory_order_relaxed)) continue;
                if (slot_[t].cpu.load(std::memory_order_relaxed) == here) {
                    sleep = true;
                } else if (now - slot_[t].since.load(std::memory_order_relaxed) > late.count()) {
                    if (pull(t, here)) pulls_.fetch_add(1, std::memory_order_relaxed);
                    sleep = true;
                }
            }
            return sleep;
        };
        if (!wait_until(all_done, join_spin, hand_over)) {
            caller_sleeps_.store(true, std::memory_order_seq_cst);
            for (std::uint64_t d; (d = done_.load(std::memory_order_seq_cst)) != blocks;)
                done_.wait(d, std::memory_order_acquire);
            caller_sleeps_.store(false, std::memory_order_relaxed);
        }
    }

  private:
    std::uint64_t share_begin(int t, std::uint64_t blocks) const {
        return blocks * std::uint64_t(t) / std::uint64_t(threads_);
    }

    // A slot holds the job's number (high 32 bits), the end of the thread's share (16 bits) and
    // its next unclaimed block (16 bits; at most 8 × max_threads blocks). The end lives in the
    // slot itself because a thread still claiming from a finished job must not judge that job's
    // slot by the next job's block count: it once read the new count, claimed past the old end
    // before the slot was rewritten, and counted a block of a job that was over (the caller then
    // waited for ever on a count that had overshot).
    static std::uint64_t slot_value(std::uint64_t epoch, std::uint64_t end, std::uint64_t index) {
        return ((epoch & 0xffffffffu) << 32) | (end << 16) | index;
    }

    // Claims and runs blocks of job `epoch`, thread `self`'s share first, then the others', until
    // none is left (or a newer job has started).
    // Among more busy processes than processors, a thread of ours that the scheduler puts aside
    // in the middle of a block holds up the whole step for a time slice. Shorter slices for our
    // threads then (the kernel still shares the processors out in the same proportions), the
    // default otherwise: beside one competitor short slices cost more than they gained.
    // Per thread, since any thread may call parallel_for.
    void look_at_load() {
        thread_local clock::time_point next_look{};
        thread_local bool short_slices = false;
        const auto now = clock::now();
        if (now < next_look) return;
        next_look = now + load_look;
        const bool crowded = others_runnable() >= CPU_COUNT(&allowed_);
        if (crowded != short_slices) {
            request_slice(crowded ? crowded_slice : std::chrono::microseconds(0));
            short_slices = crowded;
        }
    }

    // Returns the longest time one of its blocks took.
    clock::duration help(std::uint64_t epoch, int self) {
        clock::duration longest{0};
        look_at_load();
        Slot& mine = slot_[self];
        for (int k = 0; k < threads_; ++k) {
            const int t = (self + k) % threads_;
            std::atomic<std::uint64_t>& next = slot_[t].next;
            for (;;) {
                std::uint64_t c = next.load(std::memory_order_acquire), index;
                bool claimed = false;
                do {
                    // A newer job: this one is all claimed.
                    if ((c >> 32) != (epoch & 0xffffffffu)) return longest;
                    index = c & 0xffffu;
                    if (index >= ((c >> 16) & 0xffffu)) break;
                    claimed = next.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel);
                } while (!claimed);
                if (!claimed) break;
                // A claimed block keeps its job alive (the caller waits for it), so these are
                // the job's own.
                const std::uint64_t blocks = blocks_.load(std::memory_order_relaxed);
                const std::size_t block = block_.load(std::memory_order_relaxed);
                const std::size_t n = n_.load(std::memory_order_relaxed);
                const std::size_t begin = index * block, stop = std::min(n, begin + block);
                const auto t0 = clock::now();
                mine.since.store(t0.time_since_epoch().count(), std::memory_order_relaxed);
                mine.cpu.store(sched_getcpu(), std::memory_order_relaxed);
                mine.running.store(true, std::memory_order_relaxed);
                body_.load(std::memory_order_relaxed)(ctx_.load(std::memory_order_relaxed), begin,
                                                      stop);
                mine.running.store(false, std::memory_order_relaxed);
                longest = std::max(longest, clock::now() - t0);
                if (mine.pulled.load(std::memory_order_relaxed)) release(self);
                if (done_.fetch_add(1, std::memory_order_seq_cst) + 1 == blocks &&
                    caller_sleeps_.load(std::memory_order_seq_cst))
                    done_.notify_one();
            }
        }
        return longest;
    }

    // Moves thread t, late with a block, to processor `cpu`, where the caller is about to sleep.
    // The kernel moves a waiting thread to an idle processor only once it is no longer "cache
    // hot", several milliseconds on a busy machine; all that time the step waits for that block.
    // The thread lifts the restriction itself when the block is done (release).
    // Returns whether it moved it.
    bool pull(int t, int cpu) {
        Slot& s = slot_[t];
        // The flag is set after the restriction, so that a thread that clears it lifts a
        // restriction already made.
        const pid_t tid = s.tid.load(std::memory_order_acquire);
        // 0 would mean the caller itself.
        if (tid == 0 || s.pulled.load(std::memory_order_acquire)) return false;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(tid, sizeof one, &one) != 0) return false;
        s.pulled.store(true, std::memory_order_release);
        return true;
    }

    // Lifts a restriction made by pull (the calling thread's own).
    void release(int self) {
        if (slot_[self].pulled.exchange(false, std::memory_order_acq_rel))
            sched_setaffinity(0, sizeof allowed_, &allowed_);
    }

    // A worker with nothing to do that shares a processor with the caller moves to another one:
    // on a busy machine the kernel leaves two of seiche's threads queued on one processor (the
    // loads look balanced to it), and seiche then gets one core where it could have more. Only
    // while the other processors have room: among more processes than processors a thread that
    // moved queued there behind several (beside 3 busy loops on 2 cores, 24 ms per step of the
    // reference scene against 22.5 without moving). Returns whether it moved.
    bool step_aside(int here) {
        cpu_set_t away = allowed_;
        CPU_CLR(here, &away);
        if (CPU_COUNT(&away) == 0 || others_runnable() > CPU_COUNT(&away)) return false;
        if (sched_setaffinity(0, sizeof away, &away) != 0) return false;
        sched_setaffinity(0, sizeof allowed_, &allowed_);
        asides_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    // Threads of other processes that are running or ready to run now, machine-wide (the
    // kernel's count in /proc/loadavg, less ours, taken as all running); 0 when unknown.
    int others_runnable() const {
        char text[128];
        const ssize_t n = loadavg_ >= 0 ? pread(loadavg_, text, sizeof text - 1, 0) : -1;
        if (n <= 0) return 0;
        text[n] = 0;
        int runnable = 0;
        // "0.52 0.58 0.59 3/467 12345": the fourth field's first number.
        if (std::sscanf(text, "%*s %*s %*s %d/", &runnable) != 1) return 0;
        return std::max(0, runnable - threads_);
    }

    void work(std::uint64_t seen, int self) {
        slot_[self].tid.store(gettid(), std::memory_order_release);
        for (;;) {
            const auto new_job = [&] { return epoch_.load(std::memory_order_acquire) != seen; };
            if (slot_[self].pulled.load(std::memory_order_relaxed)) release(self);
            // The caller runs the serial code between two loops: when it is on this processor,
            // this thread moves to another one, or if there is none, sleeps.
            int here = sched_getcpu();
            const auto blocking = [&] {
                return slot_[0].cpu.load(std::memory_order_relaxed) == here;
            };
            if (blocking() && step_aside(here)) here = sched_getcpu();
            if (!wait_until(new_job, idle_spin, blocking)) {
                sleepers_.fetch_add(1, std::memory_order_seq_cst);
                for (std::uint64_t e; (e = epoch_.load(std::memory_order_seq_cst)) == seen;)
                    epoch_.wait(e, std::memory_order_acquire);
                sleepers_.fetch_sub(1, std::memory_order_relaxed);
            }
            if (quit_.load()) return;
            seen = epoch_.load(std::memory_order_acquire);
            help(seen, self);
        }
    }

    std::mutex dispatch_;  // one job at a time
    int threads_ = 1;
    std::vector<std::thread> workers_;
    std::atomic<bool> quit_{false};
    std::atomic<int> sleepers_{0};            //!< workers asleep on epoch_
    std::atomic<long> pulls_{0}, asides_{0};  //!< counts of pull and step_aside
    std::atomic<bool> caller_sleeps_{false};  //!< the caller asleep on done_
    // The current job's number; per thread, a slot (slot_value), a cache line each.
    std::atomic<std::uint64_t> epoch_{0};
    struct alignas(64) Slot {
        std::atomic<std::uint64_t> next{0};
        std::atomic<int> cpu{-1};            //!< the processor the thread last ran on
        std::atomic<bool> running{false};    //!< in a block now
        std::atomic<std::int64_t> since{0};  //!< when the current block started (steady clock)
        std::atomic<pid_t> tid{0};           //!< the thread's id (workers), for pull
        std::atomic<bool> pulled{false};     //!< held to one processor by pull
    };
    cpu_set_t allowed_;  //!< the processors the process may run on, read at resize
    const int loadavg_ = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);  //!< -1 if unreadable
    static constexpr int max_threads = 256;
    static_assert(8 * max_threads < 0x10000, "block indices are 16 bits in a slot");
    Slot slot_[max_threads];
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

ThreadMoves thread_moves() {
    return pool().moves();
}

namespace detail {
void run_serial(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx) {
    body(ctx, 0, n);
}

void run_blocks(std::size_t n, void (*body)(void*, std::size_t, std::size_t), void* ctx,
                std::size_t granule) {
    Pool& p = pool();
    if (p.threads() != thread_count()) set_thread_count(requested.load());
    p.run(n, body, ctx, granule);
}
}  // namespace detail

}  // namespace seiche
