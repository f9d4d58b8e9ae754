#include "pdes/time.hpp"

#include <fmt/format.h>

namespace rackscale::pdes {

std::string format_time(SimTime t) {
  if (t == kNever) return "never";
  struct Unit {
    SimTime size;
    const char* name;
  };
  static constexpr Unit units[] = {{kSecond, "s"}, {kMillisecond, "ms"}, {kMicrosecond, "us"}, {kNanosecond, "ns"}};
  for (const Unit& unit : units)
    if (t >= unit.size) return fmt::format("{:g} {}", static_cast<double>(t) / static_cast<double>(unit.size), unit.name);
  return fmt::format("{} ps", t);
}

}  // namespace rackscale::pdes
