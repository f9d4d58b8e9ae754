#include "io/config/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <system_error>

#include "io/config/double_from_chars.hpp"

namespace rackscale::io {
namespace {

// A unit is 10^pow10 * 2^pow2 * factor of the base unit (bytes, bytes/s, ps, W, FLOP/s); bits are 2^-3
// bytes, a minute 60 * 10^12 ps.
struct Unit {
  std::string_view name;
  int pow10;
  int pow2;
  std::uint64_t factor = 1;
};

struct Quantity {
  std::string_view noun;      // "bandwidth"
  std::string_view examples;  // "400Gbps or 50GB/s"
  const Unit* units;
  std::size_t unit_count;
};

constexpr std::array kBandwidthUnits{
    Unit{"bps", 0, -3},   Unit{"Kbps", 3, -3},  Unit{"Mbps", 6, -3},  Unit{"Gbps", 9, -3},  Unit{"Tbps", 12, -3},
    Unit{"B/s", 0, 0},    Unit{"KB/s", 3, 0},   Unit{"MB/s", 6, 0},   Unit{"GB/s", 9, 0},   Unit{"TB/s", 12, 0},
    Unit{"KiB/s", 0, 10}, Unit{"MiB/s", 0, 20}, Unit{"GiB/s", 0, 30}, Unit{"TiB/s", 0, 40},
};
constexpr std::array kSizeUnits{
    Unit{"B", 0, 0},    Unit{"KB", 3, 0},   Unit{"MB", 6, 0},   Unit{"GB", 9, 0},   Unit{"TB", 12, 0},
    Unit{"KiB", 0, 10}, Unit{"MiB", 0, 20}, Unit{"GiB", 0, 30}, Unit{"TiB", 0, 40},
};
constexpr std::array kDurationUnits{
    Unit{"ps", 0, 0},       Unit{"ns", 3, 0},        Unit{"us", 6, 0},         Unit{"ms", 9, 0},
    Unit{"s", 12, 0},       Unit{"min", 12, 0, 60},  Unit{"h", 12, 0, 3600},   Unit{"d", 12, 0, 86400},
};
constexpr std::array kPowerUnits{Unit{"W", 0, 0}, Unit{"kW", 3, 0}, Unit{"MW", 6, 0}};
constexpr std::array kFlopRateUnits{
    Unit{"FLOPS", 0, 0},
    Unit{"GFLOPS", 9, 0},
    Unit{"TFLOPS", 12, 0},
    Unit{"PFLOPS", 15, 0},
};

constexpr Quantity kBandwidth{"bandwidth", "400Gbps or 50GB/s", kBandwidthUnits.data(), kBandwidthUnits.size()};
constexpr Quantity kSize{"size", "64KiB or 80GB", kSizeUnits.data(), kSizeUnits.size()};
constexpr Quantity kDuration{"duration", "500ns or 1.5us", kDurationUnits.data(), kDurationUnits.size()};
constexpr Quantity kPower{"power", "700W or 1.2kW", kPowerUnits.data(), kPowerUnits.size()};
constexpr Quantity kFlopRate{"FLOP rate", "989.4TFLOPS or 2.5PFLOPS", kFlopRateUnits.data(), kFlopRateUnits.size()};

// A decimal number as written: value = digits * 10^exponent, digits without leading zeros.
struct Decimal {
  bool negative = false;
  std::string digits;  // empty for zero
  long exponent = 0;
};

// Reads the longest decimal number at the start of `text`: -?(d+(.d*)?|.d+)([eE][+-]?d+)?. Returns
// the number and how many characters it took, or nothing if `text` does not start with a number.
std::optional<std::pair<Decimal, std::size_t>> read_decimal(std::string_view text) {
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    d.negative = true;
    ++i;
  }
  const auto is_digit = [&](std::size_t at) { return at < text.size() && text[at] >= '0' && text[at] <= '9'; };
  std::size_t mantissa_digits = 0;
  while (is_digit(i)) {
    d.digits += text[i++];
    ++mantissa_digits;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (is_digit(i)) {
      d.digits += text[i++];
      --d.exponent;
      ++mantissa_digits;
    }
  }
  if (mantissa_digits == 0) return std::nullopt;
  // An exponent only when digits follow, so "1e" leaves the "e" to the unit (no unit starts with one).
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    bool exp_negative = false;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) exp_negative = text[j++] == '-';
    if (is_digit(j)) {
      long e = 0;
      while (is_digit(j)) {
        // Clamp absurd exponents; they end up out of range either way.
        if (e < 100'000) e = e * 10 + (text[j] - '0');
        ++j;
      }
      d.exponent += exp_negative ? -e : e;
      i = j;
    }
  }
  const auto first = d.digits.find_first_not_of('0');
  d.digits = first == std::string::npos ? std::string{} : d.digits.substr(first);
  return std::make_pair(d, i);
}

std::string unit_list(const Quantity& q) {
  std::string out;
  for (std::size_t i = 0; i < q.unit_count; ++i) {
    if (i > 0) out += ", ";
    out += q.units[i].name;
  }
  return out;
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

struct Parsed {
  Decimal number;
  Unit unit;
};

// Splits "<number>[ ]<unit>" and finds the unit; throws UnitError for every malformed case.
Parsed split(std::string_view text, const Quantity& q) {
  const auto found = quote_found(text);
  const auto read = read_decimal(text);
  if (!read)
    throw UnitError("expected a " + std::string(q.noun) + " such as " + std::string(q.examples) + ", found " + found);
  std::string_view rest = text.substr(read->second);
  if (rest.empty())
    throw UnitError("expected a " + std::string(q.noun) + " with a unit, such as " + std::string(q.examples) +
                    ", found " + found);
  if (rest.front() == ' ') rest.remove_prefix(1);
  for (std::size_t i = 0; i < q.unit_count; ++i)
    if (q.units[i].name == rest) {
      if (read->first.negative) throw UnitError("expected a non-negative " + std::string(q.noun) + ", found " + found);
      return {read->first, q.units[i]};
    }
  std::string message = "expected a " + std::string(q.noun) + " unit (one of " + unit_list(q) + "), found " + found;
  // Case is significant (Gbps is bits, GB/s bytes), so a near miss in case is the likeliest slip.
  for (std::size_t i = 0; i < q.unit_count; ++i)
    if (equal_ignoring_case(q.units[i].name, rest)) {
      message += "; did you mean '" + std::string(text.substr(0, text.size() - rest.size())) +
                 std::string(q.units[i].name) + "'?";
      break;
    }
  throw UnitError(message);
}

// digits * 10^pow10 * 2^pow2 as a double, rounded once.
double to_double(const Parsed& p, const Quantity& q, std::string_view text) {
  if (p.number.digits.empty()) return 0.0;
  const std::string scientific = p.number.digits + "e" + std::to_string(p.number.exponent + p.unit.pow10);
  double value = 0;
  const auto [end, ec] = double_from_chars(scientific.data(), scientific.data() + scientific.size(), value);
  const double scaled = ec == std::errc{} ? std::ldexp(value, p.unit.pow2) : 0.0;
  if (ec != std::errc{} || !std::isfinite(scaled) || scaled == 0.0)
    throw UnitError("expected a " + std::string(q.noun) + " within the range of a double, found " + quote_found(text));
  return scaled;
}

// digits * 10^pow10 * 2^pow2 as an exact integer; `what` names the whole unit ("bytes").
std::uint64_t to_integer(const Parsed& p, const Quantity& q, std::string_view text, std::string_view what,
                         std::uint64_t limit, std::string_view limit_text) {
  std::string digits = p.number.digits;
  if (digits.empty()) return 0;
  long k = p.number.exponent + p.unit.pow10;
  while (k < 0 && digits.back() == '0') {
    digits.pop_back();
    ++k;
  }
  const auto too_large = [&] {
    return UnitError("expected a " + std::string(q.noun) + " below " + std::string(limit_text) + ", found " +
                     quote_found(text));
  };
  std::uint64_t n = 0;
  if (const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n); ec != std::errc{})
    throw too_large();
  for (; k > 0; --k) {
    if (n > limit / 10) throw too_large();
    n *= 10;
  }
  for (int b = 0; b < p.unit.pow2; ++b) {
    if (n > limit / 2) throw too_large();
    n *= 2;
  }
  if (n > limit / p.unit.factor) throw too_large();
  n *= p.unit.factor;
  if (k < 0) {
    // 10^20 exceeds any 64-bit n, so a nonzero n is never a multiple of it.
    std::uint64_t divisor = 1;
    for (long i = 0; i < -k && divisor != 0; ++i) divisor = i < 19 ? divisor * 10 : 0;
    if (divisor == 0 || n % divisor != 0)
      throw UnitError("expected a whole number of " + std::string(what) + ", found " + quote_found(text));
    n /= divisor;
  }
  if (n >= limit) throw too_large();
  return n;
}

}  // namespace

double parse_bandwidth(std::string_view text) { return to_double(split(text, kBandwidth), kBandwidth, text); }

std::uint64_t parse_bytes(std::string_view text) {
  // The largest 64-bit value is excluded, as kNever is for durations, so one limit rule serves both.
  return to_integer(split(text, kSize), kSize, text, "bytes", UINT64_MAX, "16EiB (2^64 bytes)");
}

pdes::SimTime parse_duration(std::string_view text) {
  // kNever (2^64 - 1) means "no time"; every written duration is below it.
  return to_integer(split(text, kDuration), kDuration, text, "picoseconds", pdes::kNever, "2^64 ps (about 213 days)");
}

double parse_power(std::string_view text) { return to_double(split(text, kPower), kPower, text); }

double parse_flop_rate(std::string_view text) { return to_double(split(text, kFlopRate), kFlopRate, text); }

std::string bandwidth_units() { return unit_list(kBandwidth); }
std::string size_units() { return unit_list(kSize); }
std::string duration_units() { return unit_list(kDuration); }
std::string power_units() { return unit_list(kPower); }
std::string flop_rate_units() { return unit_list(kFlopRate); }

std::string quote_found(std::string_view text) {
  if (const auto read = read_decimal(text); read && read->second == text.size() && !text.empty())
    return std::string(text);
  // Built piecewise: GCC 12 reports a false -Wrestrict on "'" + std::string(...) + "'".
  std::string quoted(1, '\'');
  quoted.append(text);
  quoted.push_back('\'');
  return quoted;
}

}  // namespace rackscale::io
