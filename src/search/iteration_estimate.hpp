#pragma once
// A fast estimate of a training iteration: the job's pipeline stages run as one device each.
//
// Every device of a pipeline stage runs the same program (models/workload/training_plan.hpp), and in
// analytical fidelity every collective takes its closed form's time (NCCL's cost model over the call's
// members, models/collectives/collective_plan.hpp) from the moment its last member arrives. Members of
// one collective group are devices of one stage, which reach the call together, so one device per stage
// stands for all: the estimate runs the stages' programs on P devices with the executor's rules (one op
// at a time per stream in program order, an op waits for its dependencies, one compute op at a time,
// the lowest ready stream first), collectives lasting their closed form, pipeline and context-ring
// messages arriving after the path's latency plus the bytes at its bottleneck bandwidth (the analytical
// fabric's formula, on the route between the stage's first device and its peer; a send completes when
// the receiver has the data). What it leaves out is what analytical fidelity leaves out too (contention)
// plus the small differences of paths between other pairs of devices, so it ranks layouts as the
// simulation does at P devices' cost instead of N (docs/search.md states how close).
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/workload/training_plan.hpp"
#include "pdes/time.hpp"

namespace rackscale::search {

struct IterationEstimate {
  pdes::SimTime iteration = 0;  // the last stage to finish
  std::uint32_t critical_stage = 0;
  // The critical stage's compute units: busy, and idle waiting for a collective or context-ring transfer
  // (exposed communication), for a pipeline transfer (bubble), or for nothing the program names.
  pdes::SimTime compute = 0;
  pdes::SimTime exposed_communication = 0;
  pdes::SimTime pipeline_bubble = 0;
  pdes::SimTime idle = 0;
};

// Throws std::invalid_argument as the collectives model does (e.g. NVLS asked for on a cluster without it)
// and std::logic_error if the programs deadlock (a receive whose send never starts).
[[nodiscard]] IterationEstimate estimate_iteration(const models::workload::TrainingPlan& plan,
                                                   const models::network::ClusterSpec& cluster,
                                                   const models::network::Topology& topology);

}  // namespace rackscale::search
