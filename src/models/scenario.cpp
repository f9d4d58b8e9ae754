#include "models/scenario.hpp"

namespace rackscale::models {

std::string Scenario::locate(const std::string& key_path) const {
  std::string path = key_path;
  while (!path.empty()) {
    if (const auto it = key_locations.find(path); it != key_locations.end()) return it->second + ": ";
    const auto dot = path.rfind('.');
    path = dot == std::string::npos ? std::string{} : path.substr(0, dot);
  }
  return source_file.empty() ? std::string{} : source_file + ": ";
}

}  // namespace rackscale::models
