#pragma once
// Errors found after a scenario has loaded (topology builders, traffic plans) carry the config key at
// fault at the start of their message ("cluster.scale_out.fat_tree.tiers: ..."). This puts the
// file:line:column where that key was written in front, so they read like the loader's own errors.
#include <string>

#include "models/scenario.hpp"

namespace rackscale::app {

[[nodiscard]] inline std::string locate_error(const models::Scenario& scenario, const std::string& message) {
  const auto colon = message.find(": ");
  const std::string key = colon == std::string::npos ? std::string{} : message.substr(0, colon);
  const bool looks_like_key = !key.empty() && key.find(' ') == std::string::npos;
  return (looks_like_key ? scenario.locate(key) : scenario.source_file + ": ") + message;
}

}  // namespace rackscale::app
