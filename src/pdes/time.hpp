#pragma once
// Simulated time: an unsigned 64-bit count of picoseconds (about 213 days of simulated time).
// Integer time keeps event ordering exact and identical on every rank; floating point never
// enters the ordering.
#include <cstdint>
#include <limits>

namespace rackscale::pdes {

using SimTime = std::uint64_t;

// "No event": larger than any reachable time, so min() over queues needs no special case.
inline constexpr SimTime kNever = std::numeric_limits<SimTime>::max();

inline constexpr SimTime kPicosecond = 1;
inline constexpr SimTime kNanosecond = 1'000;
inline constexpr SimTime kMicrosecond = 1'000'000;
inline constexpr SimTime kMillisecond = 1'000'000'000;
inline constexpr SimTime kSecond = 1'000'000'000'000;

// t + d that sticks at kNever instead of wrapping, so "now + lookahead" is safe near the end of time.
[[nodiscard]] constexpr SimTime saturating_add(SimTime t, SimTime d) noexcept {
  return d > kNever - t ? kNever : t + d;
}

[[nodiscard]] constexpr double to_seconds(SimTime t) noexcept {
  return static_cast<double>(t) / static_cast<double>(kSecond);
}
[[nodiscard]] constexpr double to_nanoseconds(SimTime t) noexcept {
  return static_cast<double>(t) / static_cast<double>(kNanosecond);
}

}  // namespace rackscale::pdes

#include <string>

namespace rackscale::pdes {
// Human-readable time for messages and summaries: "100 ns", "1.5 us", "2.25 ms", "never".
[[nodiscard]] std::string format_time(SimTime t);
}  // namespace rackscale::pdes
