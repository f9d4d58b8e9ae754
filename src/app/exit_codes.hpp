#pragma once
// The rackscale command's exit codes (documented in README.md).
#include "pdes/window_watchdog.hpp"

namespace rackscale::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternalError = 1;  // a bug or a failed simulation (for example a causality violation)
inline constexpr int kExitBadInput = 2;       // bad command line, config or file; nothing was simulated
inline constexpr int kExitInfeasible = 3;     // the described job cannot run (for example out of memory)
// 5: a rank waited longer than --window-timeout for another; the watchdog aborted the job
// (pdes::kWindowTimeoutExitCode, passed on by mpirun).
inline constexpr int kExitWindowTimeout = pdes::kWindowTimeoutExitCode;
inline constexpr int kExitStopped = 4;        // stopped early by a signal or --stop-after-windows (checkpoint written if asked)

}  // namespace rackscale::app
