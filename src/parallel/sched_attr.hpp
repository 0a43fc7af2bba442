// A thread's scheduling attributes as Linux's sched_getattr/sched_setattr take them (struct
// sched_attr, which glibc does not declare): internal to the library, for the pool's time-slice
// requests (parallel.cpp) and the test that checks them.
#pragma once

#include <cstdint>

#include <sys/syscall.h>
#include <unistd.h>

namespace seiche::detail {

struct SchedAttr {
    std::uint32_t size = sizeof(SchedAttr), policy = 0;
    std::uint64_t flags = 0;
    std::int32_t nice = 0;
    std::uint32_t priority = 0;
    //! SCHED_OTHER, SCHED_BATCH and SCHED_IDLE: the time slice asked for, ns (0: the default)
    std::uint64_t runtime = 0;
    std::uint64_t deadline = 0, period = 0;
    std::uint32_t util_min = 0, util_max = 0;
};

// The calling thread's attributes; false if the kernel has no sched_getattr.
inline bool get_sched_attr(SchedAttr& a) {
    a.size = sizeof a;
    return syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) == 0;
}

inline bool set_sched_attr(const SchedAttr& a) {
    return syscall(SYS_sched_setattr, 0, &a, 0) == 0;
}

}  // namespace seiche::detail
