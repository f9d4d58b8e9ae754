#pragma once
// Physical quantities written with units ("400Gbps", "80GiB", "500ns", "700W", "989.4TFLOPS") parsed
// into the SI base units the models use: bytes/s, bytes, picoseconds, watts, FLOP/s.
//
// The grammar is strict on purpose, since a silently misread unit is a factor of 8 or 1000 in every
// result: a decimal number (optionally with a fraction and an exponent), then at most one space, then a
// unit spelled exactly as listed (case matters: Gbps is bits, GB/s is bytes). A bare number, an unknown
// unit, a negative value, or (for bytes and picoseconds) a value that is not a whole count is an
// error. Decimal prefixes are powers of 1000 (KB, Gbps, TB/s), binary ones powers of 1024 (KiB, GiB/s).
//
// Results are exact: the number and the unit's power of ten are combined before the single rounding to
// double, so "3.35TB/s" is the double nearest 3.35e12, and "400Gbps" is exactly 5e10 bytes/s.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pdes/time.hpp"

namespace rackscale::io {

// Raised by the parsers below; what() reads "expected ..., found ..." so callers can prefix a location
// and key path (the config loader does).
class UnitError : public std::invalid_argument {
 public:
  explicit UnitError(const std::string& message) : std::invalid_argument(message) {}
};

// bps, Kbps, Mbps, Gbps, Tbps (bits/s); B/s, KB/s, MB/s, GB/s, TB/s; KiB/s, MiB/s, GiB/s, TiB/s.
// Returns bytes/s, >= 0.
[[nodiscard]] double parse_bandwidth(std::string_view text);
// B, KB, MB, GB, TB, KiB, MiB, GiB, TiB. Returns a whole number of bytes.
[[nodiscard]] std::uint64_t parse_bytes(std::string_view text);
// ps, ns, us, ms, s, min, h, d. Returns a whole number of picoseconds, below pdes::kNever.
[[nodiscard]] pdes::SimTime parse_duration(std::string_view text);
// W, kW, MW. Returns watts, >= 0.
[[nodiscard]] double parse_power(std::string_view text);
// FLOPS, GFLOPS, TFLOPS, PFLOPS. Returns FLOP/s, >= 0.
[[nodiscard]] double parse_flop_rate(std::string_view text);

// The accepted unit spellings of each quantity, for messages and docs: "bps, Kbps, ...".
[[nodiscard]] std::string bandwidth_units();
[[nodiscard]] std::string size_units();
[[nodiscard]] std::string duration_units();
[[nodiscard]] std::string power_units();
[[nodiscard]] std::string flop_rate_units();

// How a value written in a config is shown in messages: numbers as written (-2), anything else in
// quotes ('eight'), so the reader sees exactly what was typed.
[[nodiscard]] std::string quote_found(std::string_view text);

}  // namespace rackscale::io
