#pragma once
// Puts the network on the engine: one LP per topology node that this rank owns, and every cable with
// a local end declared as a link (its latency bounds the lookahead when it crosses ranks).
#include <cstdint>
#include <functional>
#include <memory>

#include "models/network/device_lp.hpp"
#include "models/network/network_context.hpp"
#include "pdes/engine.hpp"

namespace rackscale::models::network {

using BehaviourFactory = std::function<std::unique_ptr<DeviceBehaviour>(std::uint32_t device)>;

// Throws std::invalid_argument if a cable has zero latency (events between LPs need a delay).
void add_network_lps(pdes::Engine& engine, NetworkContext& context, const BehaviourFactory& make_behaviour);

// "device 17 (node 2, rack 0)" / "leaf switch 3 (rack 12)": names for engine error messages.
[[nodiscard]] std::string describe_node(const Topology& topology, NodeId node);

}  // namespace rackscale::models::network
