#include "models/network/topology/names.hpp"

#include <string>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {

std::string_view name_of(RoutingMode mode) noexcept {
  switch (mode) {
    case RoutingMode::ecmp: return "ecmp";
    case RoutingMode::spray: return "spray";
    case RoutingMode::minimal: return "minimal";
    case RoutingMode::valiant: return "valiant";
    case RoutingMode::dimension_order: return "dimension_order";
  }
  return "?";
}

std::string_view name_of(ScaleOutKind kind) noexcept {
  switch (kind) {
    case ScaleOutKind::none: return "none";
    case ScaleOutKind::fat_tree: return "fat_tree";
    case ScaleOutKind::rail_fat_tree: return "rail_fat_tree";
    case ScaleOutKind::dragonfly: return "dragonfly";
    case ScaleOutKind::torus3d: return "torus3d";
  }
  return "?";
}

std::string_view name_of(ScaleUpKind kind) noexcept {
  switch (kind) {
    case ScaleUpKind::none: return "none";
    case ScaleUpKind::nvswitch: return "nvswitch";
    case ScaleUpKind::mesh: return "mesh";
  }
  return "?";
}

void require_routing(RoutingMode mode, std::initializer_list<RoutingMode> allowed, std::string_view topology) {
  std::string choices;
  std::size_t i = 0;
  for (const RoutingMode candidate : allowed) {
    if (candidate == mode) return;
    if (i > 0) choices += i + 1 == allowed.size() ? " or " : ", ";
    choices += name_of(candidate);
    ++i;
  }
  spec_error("network.routing", "{} does not apply to {}; use {}", name_of(mode), topology, choices);
}

}  // namespace rackscale::models::network
