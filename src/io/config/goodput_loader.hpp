#pragma once
// The `goodput:` section of a scenario and `cluster.storage`: interruption classes, recovery times,
// spares, checkpoints and the checkpoint store for the run-level model (docs/goodput.md). Every key is
// optional; docs/config.md ("Goodput") lists them with their defaults.
#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/goodput/goodput_spec.hpp"

namespace rackscale::io {

// Reads `goodput` (null: absent) and `storage` (cluster.storage; null: absent), recording key locations.
// Errors are ConfigErrors located at the value at fault.
[[nodiscard]] models::goodput::GoodputSpec read_goodput(const ConfigNode* goodput, const ConfigNode* storage,
                                                        KeyLocations* locations);

}  // namespace rackscale::io
