#include "search/cluster_space.hpp"

#include <array>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::search {

namespace {

struct Knob {
  const char* axis;
  const char* key;
};
constexpr std::array<Knob, 5> kKnobs{{{"accelerator", "cluster.accelerator"},
                                      {"nic", "cluster.nic"},
                                      {"oversubscription", "cluster.scale_out.fat_tree.oversubscription"},
                                      {"domain", "cluster.scale_up.domain_devices"},
                                      {"nodes", "cluster.nodes"}}};

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in{std::string(text)};
  while (std::getline(in, part, separator))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace

std::vector<ClusterPoint> parse_cluster_space(std::string_view text) {
  std::array<std::vector<std::string>, kKnobs.size()> values;
  std::string names;
  for (const auto& k : kKnobs) names += (names.empty() ? "" : ", ") + std::string(k.axis);
  for (const std::string& item : split(text, ' ')) {
    const std::size_t eq = item.find('=');
    const std::string axis = item.substr(0, eq);
    std::size_t a = 0;
    while (a < kKnobs.size() && axis != kKnobs[a].axis) ++a;
    if (eq == std::string::npos || a == kKnobs.size())
      throw std::invalid_argument(
          fmt::format("--cluster-space: '{}': expected axis=values with an axis of {}, found '{}'", item, names, axis));
    if (!values[a].empty())
      throw std::invalid_argument(fmt::format("--cluster-space: '{}': the axis {} is given twice", item, axis));
    values[a] = split(item.substr(eq + 1), ',');
    if (values[a].empty())
      throw std::invalid_argument(fmt::format("--cluster-space: '{}': expected a comma list of values, found none", item));
  }
  std::vector<ClusterPoint> points{ClusterPoint{}};
  for (std::size_t a = 0; a < kKnobs.size(); ++a) {
    if (values[a].empty()) continue;
    std::vector<ClusterPoint> next;
    for (const ClusterPoint& p : points)
      for (const std::string& v : values[a]) {
        ClusterPoint q = p;
        q.name += fmt::format("{}{}={}", q.name.empty() ? "" : " ", kKnobs[a].axis, v);
        q.overrides.push_back(fmt::format("{}={}", kKnobs[a].key, v));
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  if (points.size() == 1 && points[0].overrides.empty())
    throw std::invalid_argument(fmt::format("--cluster-space: expected at least one axis of {}, found none", names));
  return points;
}

}  // namespace rackscale::search
