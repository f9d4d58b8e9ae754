#include "models/traffic/traffic_report.hpp"

namespace rackscale::models::traffic {

const char* link_class_name(network::LinkClass link_class) {
  switch (link_class) {
    case network::LinkClass::scale_up: return "scale_up";
    case network::LinkClass::nic: return "nic";
    case network::LinkClass::leaf_spine: return "leaf_spine";
    case network::LinkClass::spine_core: return "spine_core";
    case network::LinkClass::local: return "local";
    case network::LinkClass::global: return "global";
    case network::LinkClass::torus: return "torus";
  }
  return "?";
}

}  // namespace rackscale::models::traffic
