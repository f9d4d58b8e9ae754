#pragma once
// How the summaries a person reads print numbers (docs/output.md, "Numbers in summaries"). One rule for
// every measured figure: four significant figures in fixed notation (never 1e+06), trailing zeros left
// out only when the value is exactly what is printed ("16 B tokens", "80 GiB", but "324.0 us" for
// 323.99 us). Exact counts (events, calls, devices) print whole, with thousands separators.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pdes/time.hpp"

namespace rackscale::io {

inline constexpr int kSignificantFigures = 4;

// 1234567 -> "1,234,567".
[[nodiscard]] std::string with_commas(unsigned long long value);

// The rule on a plain number: 34.5334 -> "34.53", 1.6 -> "1.6", 323.99 -> "324.0", 0.000162734 ->
// "0.0001627", 12345.6 -> "12,350", 0 -> "0"; NaN -> "-".
[[nodiscard]] std::string significant(double value);

// Prefix families: SI for physical units (watts, joules, bytes and bits per second, FLOP/s); K, M, B, T
// for counts and money (tokens, parameters, events, dollars); binary (KiB, MiB, GiB) for bytes.
enum class Prefixes { si, counts, binary };

// The value scaled to its largest prefix at or below it, then the rule: (5651.6, si, "J") -> "5.652 kJ",
// (16e9, counts, "tokens") -> "16 B tokens", (3.152e6, counts, "") -> "3.152 M", (2^39 x 1.032, binary,
// "B") -> "528.0 GiB". Values below 1 keep no prefix: (0.5, si, "J") -> "0.5 J".
[[nodiscard]] std::string with_prefix(double value, Prefixes prefixes, std::string_view unit);

// Bytes with binary prefixes: 1536 -> "1.5 KiB".
[[nodiscard]] std::string format_bytes(double bytes);
// A link or port rate: 5e10 -> "50 GB/s (400 Gb/s)".
[[nodiscard]] std::string format_bandwidth(double bytes_per_second);
// US dollars: 51.47 -> "$51.47", 4.569e6 -> "$4.569 M".
[[nodiscard]] std::string format_usd(double usd);
// A fraction as a percentage: 0.32524 -> "32.52 %".
[[nodiscard]] std::string format_percent(double fraction);

// Durations: ps, ns, us, ms and s up to two minutes, then min, h and days: 3.45334e-5 -> "34.53 us",
// 5076.05 -> "84.60 min". Simulated times come as integer picoseconds: 250000 -> "250 ns".
[[nodiscard]] std::string format_seconds(double seconds);
[[nodiscard]] std::string format_picoseconds(pdes::SimTime ps);

// A unit a whole table (or column) is shown in, chosen from its largest value, so that its rows compare
// at a glance: its name and its size in the base unit (seconds, kilograms).
struct Unit {
  const char* name;
  double size;
};
// ps, ns, us, ms or s: the largest at or below the value (s for anything from 1 s up).
[[nodiscard]] Unit time_unit(double largest_seconds);
// Carbon: g below 1 kg, kg below 1 t, t below 1 kt, then kt.
[[nodiscard]] Unit carbon_unit(double largest_kg);
// The rule on value / unit.size, then the unit's name: (3.45334e-5, us) -> "34.53 us".
[[nodiscard]] std::string in_unit(double value, Unit unit);
// Carbon in a table's unit; no figure (nullopt) is "not counted", a component the model leaves out,
// which is not the same as 0.
[[nodiscard]] std::string format_carbon(std::optional<double> kg, Unit unit);

}  // namespace rackscale::io
