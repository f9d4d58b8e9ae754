#include "io/number_format.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <span>

#include <fmt/format.h>

namespace rackscale::io {

namespace {

// A printed number equal to the value within this relative distance is the value: the distance covers
// the rounding of the binary doubles (5651.6 J / 1000 is not exactly 5.6516), not a fourth digit.
constexpr double kExact = 1e-12;

// The digits of |value| at kSignificantFigures, in fixed notation, without separators.
std::string fixed_digits(double magnitude) {
  int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int decimals = kSignificantFigures - 1 - exponent;
    std::string text;
    if (decimals >= 0) {
      text = fmt::format("{:.{}f}", magnitude, decimals);
    } else {
      const double unit = std::pow(10.0, -decimals);
      text = fmt::format("{:.0f}", std::round(magnitude / unit) * unit);
    }
    // Rounding carried into the next power of ten (9.9996 -> "10.000"): one digit too many.
    if (std::floor(std::log10(std::strtod(text.c_str(), nullptr))) > exponent) {
      ++exponent;
      continue;
    }
    return text;
  }
  return fmt::format("{:.0f}", magnitude);  // unreachable: the second attempt cannot carry again
}

// The value as the rule prints it, as a number: 999.96 -> 1000.
double rounded(double value) {
  if (value == 0 || !std::isfinite(value)) return value;
  const double magnitude = std::strtod(fixed_digits(std::abs(value)).c_str(), nullptr);
  return value < 0 ? -magnitude : magnitude;
}

std::string group_thousands(const std::string& digits) {
  const std::size_t point = digits.find('.');
  const std::string whole = digits.substr(0, point);
  if (whole.size() <= 3) return digits;
  return with_commas(std::strtoull(whole.c_str(), nullptr, 10)) +
         (point == std::string::npos ? std::string() : digits.substr(point));
}

// Drops the zeros after the point, and the point, when the printed number is the value itself.
std::string drop_exact_zeros(std::string digits, double magnitude) {
  if (digits.find('.') == std::string::npos) return digits;
  if (std::abs(std::strtod(digits.c_str(), nullptr) - magnitude) > kExact * magnitude) return digits;
  digits.erase(digits.find_last_not_of('0') + 1);
  if (digits.back() == '.') digits.pop_back();
  return digits;
}

// Multiplying by the exact inverse of a decimal fraction keeps 250 ns at 250, not 249.99999999999997.
double scaled_to(double value, Unit unit) {
  return unit.size < 1.0 ? value * std::round(1.0 / unit.size) : value / unit.size;
}

struct PrefixFamily {
  double base;
  std::span<const char* const> names;
};
constexpr std::array<const char*, 7> kSi{"", "k", "M", "G", "T", "P", "E"};
constexpr std::array<const char*, 5> kCounts{"", "K", "M", "B", "T"};
constexpr std::array<const char*, 7> kBinary{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

PrefixFamily family(Prefixes prefixes) {
  switch (prefixes) {
    case Prefixes::si: return {1000.0, kSi};
    case Prefixes::counts: return {1000.0, kCounts};
    case Prefixes::binary: return {1024.0, kBinary};
  }
  return {1000.0, kSi};
}

// The mantissa (printed by the rule) and the prefix of a value.
struct Scaled {
  std::string number;
  const char* prefix;
};
Scaled scale(double value, Prefixes prefixes) {
  const PrefixFamily f = family(prefixes);
  std::size_t i = 0;
  double mantissa = value;
  while (std::abs(mantissa) >= f.base && i + 1 < f.names.size()) {
    mantissa /= f.base;
    ++i;
  }
  // Rounding may reach the base (999.96 k -> "1000 k"): the next prefix reads better.
  if (std::abs(rounded(mantissa)) >= f.base && i + 1 < f.names.size()) {
    mantissa /= f.base;
    ++i;
  }
  return {significant(mantissa), f.names[i]};
}

}  // namespace

std::string with_commas(unsigned long long value) {
  const std::string digits = std::to_string(value);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

std::string significant(double value) {
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  const double magnitude = std::abs(value);
  const std::string digits = group_thousands(drop_exact_zeros(fixed_digits(magnitude), magnitude));
  return value < 0 ? "-" + digits : digits;
}

std::string with_prefix(double value, Prefixes prefixes, std::string_view unit) {
  const Scaled s = scale(value, prefixes);
  // A count's prefix is a word of its own ("16 B tokens"); a unit's is part of the unit ("5.652 kJ").
  const std::string separator = prefixes == Prefixes::counts && *s.prefix && !unit.empty() ? " " : "";
  const std::string suffix = std::string(s.prefix) + separator + std::string(unit);
  return suffix.empty() ? s.number : s.number + " " + suffix;
}

std::string format_bytes(double bytes) { return with_prefix(bytes, Prefixes::binary, "B"); }

std::string format_bandwidth(double bytes_per_second) {
  return fmt::format("{} ({})", with_prefix(bytes_per_second, Prefixes::si, "B/s"),
                     with_prefix(8.0 * bytes_per_second, Prefixes::si, "b/s"));
}

std::string format_usd(double usd) {
  const Scaled s = scale(usd, Prefixes::counts);
  const std::string sign = s.number.starts_with('-') ? "-" : "";
  const std::string digits = sign.empty() ? s.number : s.number.substr(1);
  return fmt::format("{}${}{}{}", sign, digits, *s.prefix ? " " : "", s.prefix);
}

std::string format_percent(double fraction) { return significant(100.0 * fraction) + " %"; }

std::string format_seconds(double seconds) {
  if (std::isnan(seconds)) return "-";
  if (seconds == 0) return "0 s";
  struct From {
    double lower_bound;
    Unit unit;
  };
  static constexpr std::array<From, 8> units{{{3 * 86400.0, {"days", 86400.0}},
                                              {7200.0, {"h", 3600.0}},
                                              {120.0, {"min", 60.0}},
                                              {1.0, {"s", 1.0}},
                                              {1e-3, {"ms", 1e-3}},
                                              {1e-6, {"us", 1e-6}},
                                              {1e-9, {"ns", 1e-9}},
                                              {0.0, {"ps", 1e-12}}}};
  const double magnitude = std::abs(seconds);
  std::size_t i = 0;
  while (i + 1 < units.size() && magnitude < units[i].lower_bound) ++i;
  // Rounding may reach the next unit up (999.96 us would print as "1000 us"): show it in that unit.
  const Unit& u = units[i].unit;
  if (i > 0 && std::abs(rounded(scaled_to(seconds, u))) * u.size >= units[i - 1].lower_bound) --i;
  return in_unit(seconds, units[i].unit);
}

std::string format_picoseconds(pdes::SimTime ps) {
  if (ps == pdes::kNever) return "never";
  return format_seconds(static_cast<double>(ps) * 1e-12);
}

Unit time_unit(double largest_seconds) {
  static constexpr std::array<Unit, 5> units{{{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}}};
  const double s = std::abs(largest_seconds);
  for (const Unit& u : units)
    if (s >= u.size) return u;
  return units.back();
}

Unit carbon_unit(double largest_kg) {
  const double kg = std::abs(largest_kg);
  if (!(kg >= 1.0)) return {"g", 1e-3};
  if (kg < 1e3) return {"kg", 1.0};
  if (kg < 1e6) return {"t", 1e3};
  return {"kt", 1e6};
}

std::string in_unit(double value, Unit unit) { return significant(scaled_to(value, unit)) + " " + unit.name; }

std::string format_carbon(std::optional<double> kg, Unit unit) {
  if (!kg) return "not counted";
  return in_unit(*kg, unit);
}

}  // namespace rackscale::io
