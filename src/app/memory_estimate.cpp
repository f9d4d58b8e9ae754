#include "app/memory_estimate.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/number_format.hpp"
#include "models/accelerator/device_executor.hpp"
#include "models/collectives/collective_bench_device.hpp"
#include "models/network/build_topology.hpp"
#include "models/network/device_lp.hpp"
#include "models/network/flow_path_cache.hpp"
#include "models/network/path_latency_cache.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/switch_lp.hpp"
#include "models/traffic/traffic_device.hpp"
#include "models/workload/trace_device.hpp"
#include "models/workload/training_plan.hpp"
#include "models/workload/training_role.hpp"
#include "pdes/event_pool.hpp"
#include "pdes/link.hpp"

namespace rackscale::app {
namespace {

namespace net = models::network;
namespace acc = models::accelerator;

// Calibrated, not derived (docs/reliability.md, "Memory", has the measurements behind each figure).
// The process before any model state: the binary, its libraries, MPI's buffers and shared-memory
// segments, the config. Peak RSS of `rackscale run` on a 64-device cluster is 25-29 MiB.
constexpr std::uint64_t kProcessBytes = std::uint64_t{24} << 20;
// Heap overhead of each separately allocated object (an LP, its behaviour): mimalloc's size classes.
constexpr std::uint64_t kPerAllocation = 16;
// Per local device, what a run keeps in flight and grows while it runs, beyond the objects' sizeof():
// events in the queue and its pool (64 + 16 bytes each), messages being reassembled, hash-map nodes of
// pending sends and receives, a collective call's state. Chunk fidelity cuts every message into chunks
// that are events of their own. Fitted to permutation traffic at 1,024-98,304 devices (1 MiB messages,
// 64 KiB chunks) and training iterations at 64-16,384 devices.
constexpr std::uint64_t kInFlightAnalytical = 256;
constexpr std::uint64_t kInFlightChunk = 2048;
constexpr std::uint64_t kInFlightTraining = 3840;  // on top of the network's

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Bytes of a program and of its ProgramIndex (device_executor.hpp): per op the op, its stream position,
// dependents' start, and streams mask; per dependency its entry, its reverse entry and stream position.
std::uint64_t program_bytes(const acc::Program& program) {
  const std::uint64_t ops = program.ops.size();
  const std::uint64_t deps = program.dependencies.size();
  return ops * (sizeof(acc::Op) + 2 * sizeof(std::uint32_t) + sizeof(std::uint64_t) + sizeof(acc::OpIndex)) +
         deps * (2 * sizeof(acc::OpIndex) + sizeof(acc::ProgramIndex::StreamPosition));
}

}  // namespace

MemoryEstimate estimate_memory(const models::Scenario& scenario, int ranks) {
  const net::TopologySize size = net::count_topology(scenario.cluster);
  MemoryEstimate e;
  e.ranks = std::max(ranks, 1);
  e.devices = size.devices;
  const auto add = [&e](std::string what, std::uint64_t bytes) { e.parts.push_back({std::move(what), bytes}); };

  // The rank with the most LPs holds its share of each kind of rack, rounded up to whole racks (as
  // round_robin and block place them; METIS balances LPs within a few percent, in analytical fidelity
  // the devices only: its scale-out switches, which handle no events, may gather on fewer ranks).
  const std::uint64_t network_racks = size.racks - size.compute_racks;
  const auto share = [&](std::uint64_t count, std::uint64_t racks) {
    if (racks == 0) return std::uint64_t{0};
    return std::min(count, ceil_div(count * ceil_div(racks, static_cast<std::uint64_t>(e.ranks)), racks));
  };
  e.local_devices = share(size.devices, size.compute_racks);
  // Scale-up switches sit in compute racks, the scale-out ones in network racks.
  const std::uint64_t scale_up_switches =
      scenario.cluster.scale_up.kind == net::ScaleUpKind::nvswitch && size.devices > 0
          ? size.devices / std::max<std::uint64_t>(scenario.cluster.scale_up.domain_devices, 1)
          : 0;
  const std::uint64_t local_switches = share(scale_up_switches, size.compute_racks) +
                                       share(size.switches - scale_up_switches, network_racks);
  const std::uint64_t local_nodes = e.local_devices + local_switches;
  const std::uint64_t local_ports = size.nodes() == 0 ? 0 : ceil_div(size.ports * local_nodes, size.nodes());

  add("process (binary, libraries, MPI)", kProcessBytes);
  add("topology (every rank holds all of it)", size.nodes() * sizeof(net::Node) + size.ports * sizeof(net::Port) +
                                                   size.racks * sizeof(net::Rack) + size.devices * sizeof(net::NodeId) +
                                                   size.devices * 3 * sizeof(std::uint32_t));  // fat-tree router's index
  // The records, then at the end one column at a time copied out and, on rank 0, the totals of five.
  add("port counters (every port, every rank)",
      size.ports * (sizeof(net::PortCounters::Record) * 2 + sizeof(std::uint64_t)));
  add("engine tables over every LP", size.nodes() * (sizeof(void*) + sizeof(std::int32_t)) +
                                         size.racks * sizeof(std::int32_t));
  add("this rank's LPs and their ports",
      e.local_devices * (sizeof(net::DeviceLp) + kPerAllocation) +
          local_switches * (sizeof(net::SwitchLp) + kPerAllocation) +
          local_ports * (sizeof(net::OutputPort) + sizeof(pdes::Link) / 2));
  const bool analytical = scenario.network.fidelity == net::Fidelity::analytical;
  add("path caches", net::PathLatencyCache::table_bytes(size.devices) +
                         (analytical ? net::FlowPathCache::table_bytes(size.devices) : 0));

  switch (scenario.workload.kind) {
    case models::WorkloadKind::traffic:
      add("traffic plan", size.devices * sizeof(std::uint32_t));
      add("traffic devices", e.local_devices * (sizeof(models::traffic::TrafficDevice) + kPerAllocation));
      break;
    case models::WorkloadKind::trace:
      // The traces' ops are read and sized by the run itself (app/trace_run.cpp): counted per op there.
      add("trace devices", e.local_devices * (sizeof(models::workload::TraceDevice) + kPerAllocation));
      break;
    case models::WorkloadKind::collective:
      add("collective devices", e.local_devices * (sizeof(models::collectives::CollectiveBenchDevice) + kPerAllocation));
      break;
    case models::WorkloadKind::training: {
      const models::workload::TrainingPlan plan =
          models::workload::build_training_plan(scenario.workload.training, scenario.cluster);
      std::uint64_t programs = 0;
      for (const auto& program : plan.programs) programs += program_bytes(program);
      add(fmt::format("training programs ({} stages, every rank)", plan.programs.size()), programs);
      // A device's executor and role, and per group kind at most one member list per device, shared.
      add("device executors and group member lists",
          e.local_devices * (sizeof(acc::DeviceExecutor) + sizeof(models::workload::TrainingRole) + 3 * kPerAllocation) +
              std::min(size.devices, e.local_devices * acc::kGroupKinds) * std::uint64_t{64} +
              size.devices * sizeof(std::uint32_t) * acc::kGroupKinds);
      break;
    }
  }
  // Training keeps its executors' pending sends, receives and collective calls on top of the network's.
  const std::uint64_t in_flight = (analytical ? kInFlightAnalytical : kInFlightChunk) +
                                  (scenario.workload.kind == models::WorkloadKind::training ? kInFlightTraining : 0);
  add(fmt::format("events and messages in flight ({} per device, calibrated)", io::format_bytes(static_cast<double>(in_flight))),
      e.local_devices * in_flight);
  for (const auto& part : e.parts) e.per_rank += part.bytes;
  return e;
}

std::string describe_estimate(const MemoryEstimate& e) {
  return fmt::format("{} per rank on {} rank{} ({} of {} devices on the largest)",
                     io::format_bytes(static_cast<double>(e.per_rank)), e.ranks, e.ranks == 1 ? "" : "s",
                     io::with_commas(e.local_devices), io::with_commas(e.devices));
}

}  // namespace rackscale::app
