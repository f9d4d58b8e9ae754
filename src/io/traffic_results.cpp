#include "io/traffic_results.hpp"

#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "io/network_results.hpp"
#include "io/results_columns.hpp"
#include "io/statistics_figures.hpp"
#include "io/traffic_figures.hpp"
#include "models/network/device_lp.hpp"
#include "models/statistics/log_histogram.hpp"
#include "pdes/log_buckets.hpp"

namespace rackscale::io {

namespace net = models::network;
namespace traffic = models::traffic;
using hdf5::Group;

namespace {

void write_devices(Group& root, const NetworkRows& net, const traffic::TrafficRunState& run) {
  const net::Topology& t = run.topology;
  const OwnedRows rows = net.devices();

  // This rank's traffic devices, by device index.
  std::vector<const traffic::TrafficDevice::Counts*> counts(t.device_count(), nullptr);
  for (const auto& lp : run.engine.local_lps()) {
    auto* device = dynamic_cast<net::DeviceLp*>(lp.get());
    if (device == nullptr) continue;
    const auto* behaviour = dynamic_cast<const traffic::TrafficDevice*>(&device->behaviour());
    if (behaviour == nullptr) throw std::logic_error("traffic results: a device without a traffic behaviour");
    counts[device->device()] = &behaviour->counts();
  }
  const auto of = [&](std::uint64_t d) -> const traffic::TrafficDevice::Counts& {
    if (counts[d] == nullptr) throw std::logic_error(fmt::format("traffic results: device {} is not on this rank", d));
    return *counts[d];
  };

  Group g = root.create_group("devices");
  g.set_attribute("description", "every device (accelerator), indexed by device index");
  write_column(g, "node", rows, rows.make([&](std::uint64_t d) { return t.devices[d]; }), "",
               "the device's node id (row of /nodes)");
  write_column(g, "messages_sent", rows, rows.make([&](std::uint64_t d) { return of(d).messages_sent; }), "messages",
               "messages the device posted");
  write_column(g, "bytes_sent", rows, rows.make([&](std::uint64_t d) { return of(d).bytes_sent; }), "bytes",
               "bytes of the messages the device posted");
  write_column(g, "messages_received", rows, rows.make([&](std::uint64_t d) { return of(d).messages_received; }),
               "messages", "messages delivered to the device (last byte arrived)");
  write_column(g, "bytes_received", rows, rows.make([&](std::uint64_t d) { return of(d).bytes_received; }), "bytes",
               "bytes of the messages delivered to the device");
}

void write_traffic(Group& root, const traffic::TrafficRunState& run) {
  const traffic::TrafficReport& r = run.report;
  // The completion times' buckets as the run reduced them (sim/traffic_workload.cpp).
  const auto& completion = r.statistics["completion_ps"].values;
  const std::vector<std::uint64_t> buckets(completion.begin(), completion.begin() + pdes::kLogBuckets);

  Group g = root.create_group("traffic");
  g.set_attribute("description", "the traffic workload's figures over the whole cluster");
  write_figures(g, traffic_figures(r));

  // The histogram's non-empty buckets, written by rank 0 (every rank has the reduced counts).
  using Histogram = models::statistics::LogHistogram;
  std::vector<std::uint64_t> low, high, count;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    if (buckets[b] == 0) continue;
    low.push_back(Histogram::bucket_low(b));
    high.push_back(b + 1 < buckets.size() ? Histogram::bucket_low(b + 1) - 1 : std::numeric_limits<std::uint64_t>::max());
    count.push_back(buckets[b]);
  }
  write_replicated_column(g, "completion_histogram_low_ps", low, "ps",
                          "lowest completion time of the bucket (non-empty buckets only, in increasing order)");
  write_replicated_column(g, "completion_histogram_high_ps", high, "ps", "highest completion time of the bucket");
  write_replicated_column(g, "completion_histogram_count", count, "messages",
                          "messages whose completion time falls in the bucket");
}

}  // namespace

void write_traffic_results(hdf5::File& file, const models::Scenario& scenario, const traffic::TrafficRunState& run,
                           const ProgramInfo& program) {
  const NetworkRows net(file.comm(), run.topology, run.rack_rank);
  write_root_attributes(file, scenario, program,
                        engine_run_metadata(file.comm(), "traffic", run.report.topology, run.report.partition.method,
                                            run.report.setup_seconds, run.engine, run.engine_stats));
  write_cluster_groups(file, net, run.counters, run.report.makespan, run.report.partition, run.engine, run.engine_stats);
  write_devices(file, net, run);
  write_traffic(file, run);
  write_statistics(file, run.report.statistics);
}

}  // namespace rackscale::io
