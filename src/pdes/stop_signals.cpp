#include "pdes/stop_signals.hpp"

#include <csignal>
#include <initializer_list>

namespace rackscale::pdes {
namespace {
// Written only by the handler: a lock-free, async-signal-safe store.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void record_stop_signal(int signal) { g_stop_signal = signal; }
}  // namespace

void install_stop_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a signal arriving during a blocking call (an MPI wait, a file write) does not make it
  // fail with EINTR; the run notices the signal at its next window boundary.
  action.sa_flags = SA_RESTART;
  for (const int signal : {SIGTERM, SIGINT, SIGUSR1}) sigaction(signal, &action, nullptr);
}

int stop_signal_received() noexcept { return g_stop_signal; }

void clear_stop_signal() noexcept { g_stop_signal = 0; }

}  // namespace rackscale::pdes
