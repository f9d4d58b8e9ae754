#include "io/scenario_header.hpp"

#include <fmt/format.h>

namespace rackscale::io {

std::string scenario_header(const models::Scenario& s, const std::string& headline) {
  std::string out = fmt::format("{}: {}\nconfig: {}", s.name, headline, s.source_file);
  if (!s.overrides.empty()) out += " with";
  for (const auto& o : s.overrides) out += fmt::format(" --set {}", o);
  out += '\n';
  if (s.overrides.empty() && !s.description.empty()) out += fmt::format("description: {}\n", s.description);
  return out;
}

}  // namespace rackscale::io
