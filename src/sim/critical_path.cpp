#include "sim/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/network/degraded_links.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::sim {

namespace acc = models::accelerator;
namespace net = models::network;
namespace wl = models::workload;

namespace {
constexpr double kPpm = 1e6;

std::uint64_t ppm(double factor) { return static_cast<std::uint64_t>(std::llround(factor * kPpm)); }

pdes::SimTime last_end(const acc::DeviceStats& s) { return s.iteration_end.empty() ? 0 : s.iteration_end.back(); }

// What the device's compute units waited for over its iterations (the drain after them not yet charged).
pdes::SimTime waited(const acc::DeviceStats& s) {
  return s.breakdown.exposed_communication + s.breakdown.pipeline_bubble + s.breakdown.idle;
}

// The busiest port (lowest id among equals) and its busy time.
std::pair<std::uint32_t, std::uint64_t> busiest_port(std::span<const std::uint64_t> busy) {
  const auto it = std::max_element(busy.begin(), busy.end());  // the first of equal maxima
  if (it == busy.end()) return {0, 0};
  return {static_cast<std::uint32_t>(it - busy.begin()), *it};
}

wl::LinkLoad link_load(const net::Topology& topology, std::uint32_t port, std::uint64_t busy, double fraction) {
  const net::Port& p = topology.ports[port];
  wl::LinkLoad load;
  load.port = port;
  load.to = p.peer;
  load.from = topology.port(p.peer, p.peer_port).peer;
  load.link_class = p.link_class;
  load.bandwidth = p.bandwidth;
  load.fraction = fraction;
  load.busy = busy;
  return load;
}
}  // namespace

void record_critical_path(const boost::mpi::communicator& comm, const CriticalPathInputs& in,
                          pdes::StatisticRegistry& registry) {
  auto factor_max = registry.values("variability_factor_max_ppm", "ppm",
                                    "the largest compute speed factor a device drew, in millionths", pdes::Combine::max);
  auto factor_min = registry.values("variability_factor_min_ppm", "ppm",
                                    "the smallest compute speed factor a device drew, in millionths", pdes::Combine::min);
  auto slowest = registry.values("critical_slowest_compute_ps", "ps",
                                 "the longest compute time of one device over the run", pdes::Combine::max);
  auto slowest_device = registry.values("critical_slowest_compute_device", "device",
                                        "the device with that compute time (the lowest id among equals)",
                                        pdes::Combine::min);
  auto last = registry.values("critical_last_end_ps", "ps", "the end of the last device's last iteration",
                              pdes::Combine::max);
  auto last_device = registry.values("critical_last_device", "device",
                                     "the device that finished last and so set the run's end (the lowest id among "
                                     "equals)",
                                     pdes::Combine::min);
  auto least_wait = registry.values("critical_least_wait_ps", "ps",
                                    "the least time one device's compute units waited (for communication, a pipeline "
                                    "transfer or nothing) over the run",
                                    pdes::Combine::min);
  auto critical = registry.values("critical_device", "device",
                                  "the device that waited least: the one the synchronous steps waited for (the lowest "
                                  "id among equals)",
                                  pdes::Combine::min);
  auto busiest = registry.values("critical_busiest_link", "port", "the link (port of /links) that serialized longest",
                                 pdes::Combine::min);
  auto busiest_busy = registry.values("critical_busiest_link_busy_ps", "ps", "its serialization time over the run",
                                      pdes::Combine::max);

  // The extremes first, on every rank, so the ranks holding them can name their devices. The least wait
  // is kept as its complement, so that one maximum reduction finds all three.
  struct Extremes {
    std::uint64_t compute = 0, last_end = 0, wait_complement = 0;
  };
  Extremes mine;
  for (const auto& [device, executor] : in.executors) {
    mine.compute = std::max(mine.compute, executor->stats().breakdown.compute());
    mine.last_end = std::max(mine.last_end, last_end(executor->stats()));
    mine.wait_complement = std::max(mine.wait_complement, ~waited(executor->stats()));
  }
  const Extremes top = pdes::reduce_record_to_all(comm, mine, pdes::Reduction::max);
  for (const auto& [device, executor] : in.executors) {
    const double factor = executor->variation().factor();
    factor_max.record(ppm(factor));
    factor_min.record(ppm(factor));
    const acc::DeviceStats& s = executor->stats();
    slowest.record(s.breakdown.compute());
    if (s.breakdown.compute() == top.compute) slowest_device.record(device);
    last.record(last_end(s));
    if (last_end(s) == top.last_end) last_device.record(device);
    least_wait.record(waited(s));
    if (~waited(s) == top.wait_complement) critical.record(device);
  }
  // Every rank holds the reduced busy times: each records the same values.
  const auto [port, busy] = busiest_port(in.port_busy);
  busiest.record(port);
  busiest_busy.record(busy);
  if (!in.degraded.empty()) {
    auto degraded = registry.values("degraded_link_busy_ps", "ps",
                                    "each degraded link's serialization time over the run, both directions",
                                    pdes::Combine::max, in.degraded.size());
    for (std::size_t i = 0; i < in.degraded.size(); ++i) {
      const std::uint32_t p = in.degraded[i].port;
      if (p < in.port_busy.size()) degraded.record(in.port_busy[p] + in.port_busy[net::reverse_port(*in.topology, p)], i);
    }
  }
  if (in.perfect_iteration) {
    auto perfect = registry.values("perfect_iteration_ps", "ps",
                                   "the steady-state iteration of the same job without variability or degraded links",
                                   pdes::Combine::max);
    perfect.record(*in.perfect_iteration);
  }
}

wl::VariabilityReport critical_path_report(const pdes::ReducedStatistics& figures, const net::Topology& topology,
                                           std::span<const net::DegradedLink> degraded,
                                           const acc::VariabilitySpec& variability, std::uint64_t seed,
                                           pdes::SimTime iteration_time) {
  const auto value = [&figures](const char* name, std::size_t row = 0) { return figures[name].values.at(row); };
  wl::VariabilityReport r;
  r.factor_max = static_cast<double>(value("variability_factor_max_ppm")) / kPpm;
  r.factor_min = static_cast<double>(value("variability_factor_min_ppm")) / kPpm;
  r.slowest_compute = value("critical_slowest_compute_ps");
  r.slowest_device = static_cast<std::uint32_t>(value("critical_slowest_compute_device"));
  r.slowest_factor = acc::speed_factor(variability, seed, r.slowest_device);
  r.critical_device = static_cast<std::uint32_t>(value("critical_device"));
  r.critical_wait = value("critical_least_wait_ps");
  r.critical_factor = acc::speed_factor(variability, seed, r.critical_device);
  r.last_device = static_cast<std::uint32_t>(value("critical_last_device"));
  r.last_factor = acc::speed_factor(variability, seed, r.last_device);
  const auto busiest = static_cast<std::uint32_t>(value("critical_busiest_link"));
  if (busiest < topology.ports.size())
    r.busiest = link_load(topology, busiest, value("critical_busiest_link_busy_ps"), 1.0);
  for (std::size_t i = 0; i < degraded.size(); ++i) {
    r.degraded.push_back(link_load(topology, degraded[i].port, value("degraded_link_busy_ps", i), degraded[i].fraction));
    if (degraded[i].port == busiest) r.busiest.fraction = degraded[i].fraction;
  }
  for (const auto& s : figures.all()) {
    if (s.spec.name != "perfect_iteration_ps") continue;
    r.perfect_iteration = s.values.at(0);
    if (*r.perfect_iteration > 0)
      r.slowdown = static_cast<double>(iteration_time) / static_cast<double>(*r.perfect_iteration);
  }
  return r;
}

}  // namespace rackscale::sim
