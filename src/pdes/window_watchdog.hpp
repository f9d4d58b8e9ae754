#pragma once
// The window watchdog: a rank that has waited longer than the window timeout for the other ranks at a
// window's exchange says which rank it waits for and aborts the whole job (MPI_Abort), instead of
// waiting forever for a rank that is stopped, hung or lost (docs/reliability.md, "Watchdog"). The
// synchronizers call it from the loops in which they wait; it reads the clock once every few dozen
// calls, so it costs nothing measurable, and never changes a result: a run either ends as before or
// is aborted.
//
// A test hook stalls one rank at a chosen window, so that the tests can see the others give up:
//   RACKSCALE_TEST_STALL_RANK=RANK:WINDOW   (e.g. "1:100": rank 1 sleeps for good at its 100th exchange)
// Not meant for users; an unset or malformed variable stalls nothing.
#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>

namespace rackscale::pdes {

// The exit code of a job the watchdog aborted (mpirun passes MPI_Abort's code on); docs/cli.md.
inline constexpr int kWindowTimeoutExitCode = 5;
// The default timeout: far longer than any window of a healthy run (milliseconds; a few seconds for a
// large chunk-fidelity window on a busy node), short enough not to burn a job's whole time limit.
inline constexpr double kDefaultWindowTimeoutSeconds = 600.0;
inline constexpr const char* kStallTestVariable = "RACKSCALE_TEST_STALL_RANK";

class WindowWatchdog {
 public:
  // Never expires.
  WindowWatchdog() = default;
  // `timeout_seconds` <= 0 or infinite: never expires. `rank`: this process's rank in the engine's
  // communicator, for messages and the stall hook.
  WindowWatchdog(int rank, double timeout_seconds);

  // A wait at window `window`'s exchange begins (the stall hook may keep this rank here for good).
  void start(std::uint64_t window);
  // Whether the wait that started last has lasted longer than the timeout. Cheap: it reads the clock
  // once every kCallsPerClockRead calls.
  [[nodiscard]] bool expired() noexcept {
    if (!enabled_ || ++calls_ % kCallsPerClockRead != 0) return false;
    return std::chrono::steady_clock::now() >= deadline_;
  }
  // Prints, from this rank, which ranks it waits for (`waiting_for`; empty: it could not tell which) in
  // `exchange` (the synchronizer's name), and aborts every rank of the job with kWindowTimeoutExitCode.
  [[noreturn]] void abort(std::span<const int> waiting_for, std::string_view exchange) const;

  [[nodiscard]] bool enabled() const noexcept { return enabled_; }
  [[nodiscard]] double timeout_seconds() const noexcept { return timeout_seconds_; }

 private:
  static constexpr std::uint64_t kCallsPerClockRead = 64;

  int rank_ = 0;
  double timeout_seconds_ = 0.0;
  bool enabled_ = false;
  std::uint64_t calls_ = 0;
  std::uint64_t window_ = 0;
  std::chrono::steady_clock::time_point deadline_{};
  std::int64_t stall_window_ = -1;  // the test hook's window on this rank, -1 if none
};

}  // namespace rackscale::pdes
