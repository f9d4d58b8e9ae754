#pragma once
// What a finished traffic run leaves on one rank, for writers of per-rank results (the HDF5 file):
// the rank's own, unreduced figures next to the report reduced over ranks. Each rank writes the rows
// of what it owns (the devices and ports of its racks) from here, so nothing is gathered on one rank.
// The references are valid only during the call that receives the state.
#include <cstdint>
#include <span>

#include "models/network/port_counters.hpp"
#include "models/network/topology.hpp"
#include "models/traffic/traffic_device.hpp"
#include "models/traffic/traffic_report.hpp"
#include "pdes/engine.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::models::traffic {

struct TrafficRunState {
  const network::Topology& topology;
  std::span<const std::int32_t> rack_rank;  // rack -> rank, the same on every rank
  const pdes::Engine& engine;               // this rank's LPs: DeviceLps whose behaviours are TrafficDevices
  const pdes::EngineStats& engine_stats;    // this rank's
  // This rank's, indexed by port id. The analytical fabric counts a message on every port of its path
  // at the sender, so a rank may hold figures for ports that other ranks own.
  const network::PortCounters& counters;
  const TrafficStats& stats;                // this rank's devices together
  const TrafficReport& report;              // reduced; the rank-0-only parts are not filled yet
};

}  // namespace rackscale::models::traffic
