// Ctrl-C and SIGTERM for the whole program, from main's first line. Outside a graceful section a
// signal ends the program at once with 130 (every file is written to a temporary name and renamed,
// so what exists stays valid). Inside one (a run), the first signal sets the flag the world
// watches — the step in progress ends within one solver iteration, the summary is written — and a
// second one exits at once.
#pragma once

#include <atomic>

namespace seiche::app {

void install_interrupt_handler();
// The flag a World watches (World::set_stop_flag).
const std::atomic<bool>* interrupt_flag();
bool interrupted();
// While alive, the first signal only sets the flag. Sections nest (a case that spans runs holds
// one across them, each run its own).
class GracefulInterrupts {
  public:
    GracefulInterrupts();
    ~GracefulInterrupts();
    GracefulInterrupts(const GracefulInterrupts&) = delete;
    GracefulInterrupts& operator=(const GracefulInterrupts&) = delete;
};

}  // namespace seiche::app
