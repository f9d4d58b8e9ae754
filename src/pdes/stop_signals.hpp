#pragma once
// The signals that ask a run to stop early (SIGTERM, SIGINT, SIGUSR1: a batch system's time limit, a
// Ctrl-C, or a user's request). The handler only records the signal; the engine looks at it between
// windows and every rank agrees to stop at the same window boundary (engine.cpp), so a checkpoint can
// be written and the run ends with a message instead of being killed mid-window.
namespace rackscale::pdes {

// Installs the handler for SIGTERM, SIGINT and SIGUSR1 in this process.
void install_stop_signal_handlers();

// The last stop signal received by this process, 0 if none.
[[nodiscard]] int stop_signal_received() noexcept;

// Forgets a received signal (tests).
void clear_stop_signal() noexcept;

}  // namespace rackscale::pdes
