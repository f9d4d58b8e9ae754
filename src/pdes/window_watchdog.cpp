#include "pdes/window_watchdog.hpp"

#include <mpi.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rackscale::pdes {
namespace {
// The window at which the stall hook stops `rank`, or -1.
std::int64_t stall_window_for(int rank) {
  const char* text = std::getenv(kStallTestVariable);
  if (text == nullptr) return -1;
  const std::string_view spec(text);
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) return -1;
  int stalled = -1;
  std::int64_t window = -1;
  const auto [rank_end, rank_error] = std::from_chars(spec.data(), spec.data() + colon, stalled);
  const auto [window_end, window_error] = std::from_chars(spec.data() + colon + 1, spec.data() + spec.size(), window);
  if (rank_error != std::errc() || rank_end != spec.data() + colon || window_error != std::errc() ||
      window_end != spec.data() + spec.size() || window < 0)
    return -1;
  return stalled == rank ? window : -1;
}

std::string seconds_text(double seconds) {
  return seconds >= 120.0 && std::fmod(seconds, 60.0) == 0.0 ? fmt::format("{} min", seconds / 60.0)
                                                             : fmt::format("{} s", seconds);
}
}  // namespace

WindowWatchdog::WindowWatchdog(int rank, double timeout_seconds)
    : rank_(rank),
      timeout_seconds_(timeout_seconds),
      enabled_(timeout_seconds > 0.0 && std::isfinite(timeout_seconds)),
      stall_window_(stall_window_for(rank)) {}

void WindowWatchdog::start(std::uint64_t window) {
  window_ = window;
  if (stall_window_ >= 0 && window == static_cast<std::uint64_t>(stall_window_)) {
    std::fprintf(stderr, "rackscale: rank %d stalls at window %llu (test hook %s)\n", rank_,
                 static_cast<unsigned long long>(window), kStallTestVariable);
    std::fflush(stderr);
    for (;;) ::pause();
  }
  if (!enabled_) return;
  calls_ = 0;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_seconds_));
}

void WindowWatchdog::abort(std::span<const int> waiting_for, std::string_view exchange) const {
  const std::string whom =
      waiting_for.empty() ? std::string("another rank")
                          : fmt::format("{} {}", waiting_for.size() == 1 ? "rank" : "ranks", fmt::join(waiting_for, ", "));
  // One write: lines from several ranks must not interleave.
  const std::string message = fmt::format(
      "rackscale: window timeout: rank {} has waited more than {} (--window-timeout) at the exchange of window {} "
      "({}) for {}, which may be stopped, hung or far slower than the others (an overloaded or swapping node); "
      "aborting the job (exit {})\n",
      rank_, seconds_text(timeout_seconds_), window_, exchange, whom, kWindowTimeoutExitCode);
  std::fputs(message.c_str(), stderr);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, kWindowTimeoutExitCode);
  std::_Exit(kWindowTimeoutExitCode);  // MPI_Abort does not return; in case it does
}

}  // namespace rackscale::pdes
