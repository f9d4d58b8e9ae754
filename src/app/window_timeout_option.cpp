#include "app/window_timeout_option.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "pdes/window_watchdog.hpp"

namespace rackscale::app {

double parse_window_timeout(std::string_view text) {
  if (text == "off" || text == "0") return 0.0;
  static constexpr std::pair<std::string_view, double> kUnits[] = {{"min", 60.0}, {"s", 1.0}, {"h", 3600.0}};
  for (const auto& [unit, seconds] : kUnits) {
    if (!text.ends_with(unit)) continue;
    const std::string_view number = text.substr(0, text.size() - unit.size());
    double value = 0.0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error == std::errc() && end == number.data() + number.size() && std::isfinite(value) && value >= 0.0)
      return value * seconds;
    break;
  }
  throw std::invalid_argument(fmt::format(
      "expected a wall-clock duration such as 90s, 10min or 1h (a non-negative number and s, min or h), or off; "
      "found '{}'",
      text));
}

void add_window_timeout_option(CLI::App& command, double& seconds) {
  command
      .add_option_function<std::string>(
          "--window-timeout",
          [&seconds](const std::string& text) {
            try {
              seconds = parse_window_timeout(text);
            } catch (const std::invalid_argument& e) {
              throw CLI::ValidationError("--window-timeout", e.what());
            }
          },
          fmt::format("Abort the job when a rank waits longer than this for the others at a window's exchange, "
                      "naming the rank it waits for: 90s, 10min, 1h, or off (default {} min)",
                      pdes::kDefaultWindowTimeoutSeconds / 60.0))
      ->type_name("DURATION");
}

}  // namespace rackscale::app
