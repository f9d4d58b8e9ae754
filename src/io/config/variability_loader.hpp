#pragma once
// Variability inside an iteration (docs/config.md, "Variability"): `workload.variability` (slow devices,
// kernel jitter) and `cluster.degraded_links` (cables at a fraction of their rate, or down).
#include <cstdint>
#include <string>
#include <vector>

#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/accelerator/compute_variability.hpp"
#include "models/network/cluster_spec.hpp"

namespace rackscale::io {

// `workload.variability` of a training job on `devices` devices. ConfigErrors located at the value at
// fault: an unknown distribution, a negative sigma, a device out of range, a factor <= 0.
[[nodiscard]] models::accelerator::VariabilitySpec read_variability(const ConfigNode& node, const std::string& path,
                                                                    std::uint64_t devices, KeyLocations* locations);

// `cluster.degraded_links` of `cluster` (as the topology will be built from it: read after the job's
// pods are aligned). ConfigErrors for a link that is no port of the topology or a fraction outside [0, 1]
// (whether a cable down leaves a route is checked on the built topology: degrade_links).
[[nodiscard]] std::vector<models::network::DegradedLink> read_degraded_links(
    const ConfigNode& node, const std::string& path, const models::network::ClusterSpec& cluster,
    KeyLocations* locations);

}  // namespace rackscale::io
