#pragma once
// The `tco:` section of a scenario: prices, depreciation, facility, electricity, grid and embodied-
// carbon settings for the cost and carbon estimate, and the host power figures of energy metering.
// Every key is optional; an absent one keeps the default of docs/tco.md section 4. Keys are
// documented in docs/config.md ("TCO and carbon").
#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/tco/tco_settings.hpp"

namespace rackscale::io {

// Reads `tco` (null: the section is absent) for a cluster of `cluster.accelerator`, recording key
// locations. Errors are ConfigErrors located at the value at fault.
[[nodiscard]] models::tco::TcoSettings read_tco(const ConfigNode* node, const models::network::ClusterSpec& cluster,
                                               KeyLocations* locations);

}  // namespace rackscale::io
