#pragma once
// What variability inside an iteration did to a training run (issue 26, item 1; docs/goodput.md): the
// slowdown against the same job without variability, and what is on the critical path.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::workload {

// A link (one direction of a cable, a port of the results file's /links) and its load over the run.
struct LinkLoad {
  std::uint32_t port = 0;
  network::NodeId from = 0, to = 0;
  network::LinkClass link_class = network::LinkClass::nic;
  double bandwidth = 0;     // bytes/s, as simulated (degraded)
  double fraction = 1.0;    // of its rate (cluster.degraded_links)
  pdes::SimTime busy = 0;   // serializing, summed over the run
};

struct VariabilityReport {
  // The same job simulated without variability and degraded links (workload.variability.perfect_baseline):
  // its steady-state iteration, and this run's over it.
  std::optional<pdes::SimTime> perfect_iteration;
  double slowdown = 0;  // iteration time / perfect iteration time (1: none)
  // The speed factors the devices drew (1 without compute variability).
  double factor_min = 1, factor_max = 1;
  // The device that waited least over the run (its compute units idle for communication, a pipeline
  // transfer or nothing): the one the synchronous steps waited for, on the critical path. The device that
  // computed longest, and the device whose last iteration ended last (with a collective at the end of the
  // iteration, all of its members end together). The lowest id among equals, for each.
  std::uint32_t critical_device = 0;
  pdes::SimTime critical_wait = 0;
  double critical_factor = 1;
  std::uint32_t slowest_device = 0;
  pdes::SimTime slowest_compute = 0;  // its compute time over the run
  double slowest_factor = 1;
  std::uint32_t last_device = 0;
  double last_factor = 1;
  // The busiest link (most serialization time; lowest port id among equals), and each degraded one.
  LinkLoad busiest;
  std::vector<LinkLoad> degraded;
};

}  // namespace rackscale::models::workload
