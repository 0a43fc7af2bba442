#include "interrupt.hpp"

#include <unistd.h>

#include <csignal>

namespace seiche::app {

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_graceful{0};  // graceful sections alive (they nest)

extern "C" void on_signal(int) {
    // Only async-signal-safe calls here: atomics and _exit.
    if (g_graceful.load() == 0 || g_interrupted.exchange(true)) ::_exit(130);
}

}  // namespace

void install_interrupt_handler() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

const std::atomic<bool>* interrupt_flag() {
    return &g_interrupted;
}

bool interrupted() {
    return g_interrupted.load();
}

GracefulInterrupts::GracefulInterrupts() {
    ++g_graceful;
}

GracefulInterrupts::~GracefulInterrupts() {
    --g_graceful;
}

}  // namespace seiche::app
