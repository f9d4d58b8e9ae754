#pragma once
// A scenario: everything one run simulates, as validated structs. src/io/config reads it from YAML;
// the models never see YAML or files.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/goodput/goodput_spec.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/tco/tco_settings.hpp"
#include "models/workload/trace_spec.hpp"
#include "models/workload/training_spec.hpp"
#include "pdes/time.hpp"

namespace rackscale::models {

enum class TrafficPattern {
  permutation,     // each device sends `bytes` to one other device; a random derangement (seeded)
  all_to_all,      // each device sends `bytes` to every other device, staggered (i sends to i+1, i+2, ...)
  incast,          // `senders` devices send `bytes` each to device `receiver`
  ring,            // device i sends `bytes` to device (i + 1) mod n
  uniform_random,  // each device sends `messages` messages of `bytes` to uniformly random other devices
};

struct TrafficSpec {
  TrafficPattern pattern = TrafficPattern::permutation;
  std::uint64_t bytes = 0;
  std::uint32_t senders = 0;   // incast: number of senders (0: every other device)
  std::uint32_t receiver = 0;  // incast: receiving device
  std::uint32_t messages = 1;  // uniform_random: messages per device
};

enum class WorkloadKind {
  traffic,     // TrafficSpec: network patterns without a job
  collective,  // workload::CollectiveBenchSpec: an nccl-tests style sweep
  training,    // workload::TrainingSpec: a parallelized transformer
  trace,       // workload::TraceWorkloadSpec: a recorded job replayed from execution traces
};

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::traffic;
  TrafficSpec traffic;
  workload::CollectiveBenchSpec collective;
  workload::TrainingSpec training;
  workload::TraceWorkloadSpec trace;
};

struct SimulationSpec {
  std::uint64_t seed = 1;
  pdes::SimTime end = pdes::kNever;  // stop time; kNever: run until no events remain
  std::string partition = "metis";   // rack -> rank partitioner (--partition overrides); round_robin for training
};

struct Scenario {
  std::string name;
  std::string description;
  network::ClusterSpec cluster;
  network::NetworkSpec network;
  WorkloadSpec workload;
  SimulationSpec simulation;
  tco::TcoSettings tco;  // the `tco:` section with its defaults (docs/tco.md)
  goodput::GoodputSpec goodput;  // `goodput:` and `cluster.storage` with their defaults (docs/goodput.md)

  std::string source_file;    // the YAML file it came from
  // The `--set key.path=value` overrides applied to it, in order: after them, `description` (the
  // config's free text) may no longer describe the scenario.
  std::vector<std::string> overrides;
  std::string resolved_yaml;  // the full config after presets and overrides, for the record
  // Where each key path ("cluster.scale_out.fat_tree.tiers") was written: "file:line:column", so
  // errors found after loading (by the topology builders, say) can point at the line.
  std::map<std::string, std::string> key_locations;

  // "file:line:column: " for the key path, or its closest written ancestor; "file: " if none.
  [[nodiscard]] std::string locate(const std::string& key_path) const;
};

// Why replica 0 of `scenario`'s training job could not stand for every data-parallel replica
// (workload.simulated_replicas: one; docs/models.md, "One replica for all"), or empty when it can as far
// as the config tells: a fabric without contention, the collectives in closed form (a data-parallel call
// is then the only meeting of replicas), no per-device or per-link variability, and expert groups inside
// one replica. Where the replicas sit in the topology is checked once it is built (sim/one_replica.hpp).
[[nodiscard]] std::string one_replica_refusal(const Scenario& scenario);

}  // namespace rackscale::models
