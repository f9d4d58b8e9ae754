#pragma once
// Placing a topology's racks on ranks: the rack graph a partitioner cuts, the LP rank map a rack
// assignment implies, and the lookahead it leaves the engine. Racks are the unit of placement because
// a rack's nodes are a contiguous LP range and most of its traffic (scale-up, NIC to leaf) stays inside.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "models/network/cluster_spec.hpp"
#include "models/network/replica_mirror.hpp"
#include "models/network/topology.hpp"
#include "partition/graph.hpp"
#include "pdes/link.hpp"
#include "pdes/rank_map.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

// Which of a rack's nodes weigh in the balance of a placement: the LPs that handle events. Analytical
// fidelity carries a message from device to device in one event, so its scale-out switches handle none
// (an NVSwitch does handle NVLink SHARP traffic); weighing them as devices put 13 % more devices, and
// so events, on one rank of a 4,096-device ring (docs/performance.md). In chunk and train fidelity every
// node forwards chunks.
enum class RackWeight : std::uint8_t {
  every_node,            // chunk and train fidelity
  devices_and_scale_up,  // analytical fidelity: scale-out switches weigh nothing
};
[[nodiscard]] RackWeight rack_weight_for(Fidelity fidelity) noexcept;
// Whether `node` weighs under `weight`; in a one-replica run (`mirror`), only simulated devices do (the
// others handle no events).
[[nodiscard]] bool weighs(const Node& node, RackWeight weight, const ReplicaMirror& mirror = {}) noexcept;

// One vertex per rack, weighted by its nodes that weigh under `weight`. One edge per pair of racks
// joined by at least one cable, weighted by the summed bandwidth (bytes/s, rounded per cable) of those
// cables, each cable counted once in one direction (the direction leaving its lower-numbered node, so
// both copies of an edge carry the same weight). Cables inside a rack add nothing (no self loops).
// Neighbors are sorted. O(nodes + ports + racks) time and memory.
[[nodiscard]] partition::Graph rack_graph(const Topology& topology, RackWeight weight = RackWeight::every_node,
                                          const ReplicaMirror& mirror = {});

// The weight a cable adds to the rack graph: the bandwidth, in bytes/s rounded to an integer, of the
// cable's direction leaving its lower-numbered node; `port` is one of `node`'s ports (either direction).
[[nodiscard]] std::int64_t cable_weight(const Topology& topology, NodeId node, const Port& port);

// Throws std::invalid_argument unless rack_rank has one entry per rack, each in [0, ranks).
void check_rack_rank(const Topology& topology, std::span<const std::int32_t> rack_rank, int ranks);

// Assigns racks to `ranks` ranks with the partitioner called `method` (partition::make_partitioner)
// on the rack graph weighed for `fidelity` (rack_weight_for) and `mirror`. Throws std::invalid_argument
// for an unknown method or ranks < 1.
[[nodiscard]] std::vector<std::int32_t> partition_racks(const Topology& topology, std::string_view method, int ranks,
                                                        Fidelity fidelity = Fidelity::chunk,
                                                        const ReplicaMirror& mirror = {});

// The owner of every LP (node) when rack r is on rank rack_rank[r]. Throws std::invalid_argument if
// rack_rank does not have one entry per rack or names a rank outside [0, ranks).
[[nodiscard]] pdes::RankMap lp_rank_map(const Topology& topology, std::span<const std::int32_t> rack_rank, int ranks);

// The smallest bound (CrossRankDelays: a port's latency, in analytical fidelity at least the switched
// floor) over ports whose two nodes' racks are on different ranks: no event can cross ranks sooner, so
// this is the engine's lookahead. kNever when no cable crosses ranks.
[[nodiscard]] pdes::SimTime cross_rank_lookahead(const Topology& topology, std::span<const std::int32_t> rack_rank,
                                                 Fidelity fidelity = Fidelity::chunk);

// One engine link per cable whose racks are on different ranks, {lower node, higher node, smaller of
// the two directions' bounds}, in port order; what a model declares so that the engine derives the
// same lookahead as cross_rank_lookahead.
[[nodiscard]] std::vector<pdes::Link> cross_rank_links(const Topology& topology,
                                                       std::span<const std::int32_t> rack_rank,
                                                       Fidelity fidelity = Fidelity::chunk);

}  // namespace rackscale::models::network
