#include "search/iteration_estimate.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "models/accelerator/device_executor.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/collectives/member_layout.hpp"
#include "models/network/output_port.hpp"
#include "models/network/path.hpp"

namespace rackscale::search {

namespace acc = models::accelerator;
namespace wl = models::workload;
using pdes::SimTime;

namespace {

// What a compute op that had to wait was waiting for: the dependency that finished last.
enum class Wait : std::uint8_t { none, collective, pipeline };

struct Completion {
  SimTime time = 0;
  std::uint64_t order = 0;  // ties: in the order they were scheduled
  std::uint32_t role = 0;
  acc::OpIndex op = 0;
  friend bool operator>(const Completion& a, const Completion& b) {
    return std::tie(a.time, a.order) > std::tie(b.time, b.order);
  }
};

struct StageRun {
  const acc::ProgramIndex* index = nullptr;
  std::uint32_t device = 0;  // the stage's first device, which stands for all of it
  std::vector<std::uint32_t> finished;  // per stream: ops done
  std::vector<bool> running;            // per stream: its next op has started
  std::vector<SimTime> end;             // per op: when it finished
  std::vector<Wait> waits_for;          // per op: what kind of op it is, as a wait
  bool computing = false;
  SimTime idle_since = 0;
  SimTime last_end = 0;
  std::uint64_t ops_done = 0;
  IterationEstimate figures;
  std::unordered_map<std::uint32_t, SimTime> arrived;        // match -> arrival of its message
  std::unordered_map<std::uint32_t, acc::OpIndex> waiting;   // match -> the receive waiting for it
};

using CollectiveKey = std::tuple<std::uint32_t, acc::CollectiveKind, acc::GroupKind, acc::Algorithm, std::uint64_t>;

class Estimator {
 public:
  Estimator(const wl::TrainingPlan& plan, const models::network::ClusterSpec& cluster,
            const models::network::Topology& topology)
      : plan_(plan), cluster_(cluster), topology_(topology) {
    const auto& layout = plan.layout;
    indexes_.reserve(plan.programs.size());
    for (const auto& program : plan.programs) indexes_.emplace_back(program, cluster.accelerator);
    stages_.resize(plan.programs.size());
    for (std::uint32_t s = 0; s < stages_.size(); ++s) {
      StageRun& stage = stages_[s];
      stage.index = &indexes_[s];
      stage.device = layout.device_at(0, 0, 0, s);
      stage.finished.assign(stage.index->streams(), 0);
      stage.running.assign(stage.index->streams(), false);
      const auto& ops = plan.programs[s].ops;
      stage.end.assign(ops.size(), 0);
      stage.waits_for.resize(ops.size());
      for (std::size_t i = 0; i < ops.size(); ++i) stage.waits_for[i] = wait_kind(ops[i]);
    }
  }

  IterationEstimate run() {
    for (std::uint32_t s = 0; s < stages_.size(); ++s) try_start(s, 0);
    while (!queue_.empty()) {
      const Completion c = queue_.top();
      queue_.pop();
      finish(c.role, c.op, c.time);
    }
    IterationEstimate best;
    for (std::uint32_t s = 0; s < stages_.size(); ++s) {
      const StageRun& stage = stages_[s];
      if (stage.ops_done != plan_.programs[s].ops.size())
        throw std::logic_error(fmt::format("estimate: {} stopped after {} of its {} ops (a receive never matched)",
                                           plan_.programs[s].role, stage.ops_done, plan_.programs[s].ops.size()));
      if (s == 0 || stage.last_end > best.iteration) {
        best = stage.figures;
        best.iteration = stage.last_end;
        best.critical_stage = s;
        // After the last compute op: the data-parallel tail (reductions, parameter gathers).
        if (!stage.computing && stage.last_end > stage.idle_since)
          best.exposed_communication += stage.last_end - stage.idle_since;
      }
    }
    return best;
  }

 private:
  static Wait wait_kind(const acc::Op& op) {
    switch (op.kind) {
      case acc::OpKind::compute: return Wait::none;
      case acc::OpKind::collective: return Wait::collective;
      case acc::OpKind::send:
      case acc::OpKind::recv: return acc::is_pipeline_peer(op.peer) ? Wait::pipeline : Wait::collective;
    }
    return Wait::none;
  }

  void schedule(std::uint32_t role, acc::OpIndex op, SimTime at) { queue_.push(Completion{at, order_++, role, op}); }

  [[nodiscard]] bool ready(const StageRun& stage, acc::OpIndex i) const {
    for (const auto& dep : stage.index->dependency_positions(i))
      if (stage.finished[dep.stream()] <= dep.position()) return false;
    return true;
  }

  // The role that runs the stage or context-ring peer of `role`.
  [[nodiscard]] std::uint32_t peer_role(std::uint32_t role, acc::Peer peer) const {
    const auto stages = static_cast<std::uint32_t>(stages_.size());
    switch (peer) {
      case acc::Peer::next_stage: return (role + 1) % stages;
      case acc::Peer::previous_stage: return (role + stages - 1) % stages;
      case acc::Peer::next_context:
      case acc::Peer::previous_context: return role;
    }
    return role;
  }

  [[nodiscard]] std::uint32_t peer_device(std::uint32_t role, acc::Peer peer) const {
    const auto p = plan_.layout.peer(stages_[role].device, peer);
    return p ? *p : stages_[role].device;
  }

  SimTime collective_time(std::uint32_t role, const acc::Op& op) {
    const CollectiveKey key{role, op.collective, op.group, op.algorithm, op.bytes};
    if (auto it = collectives_.find(key); it != collectives_.end()) return it->second;
    models::collectives::CollectiveCall call;
    call.kind = op.collective;
    call.algorithm = op.algorithm;
    call.bytes = op.bytes;
    call.members = plan_.layout.group(stages_[role].device, op.group);
    const SimTime t = models::collectives::time_closed_form(cluster_, call).duration;
    collectives_.emplace(key, t);
    return t;
  }

  SimTime transfer_time(std::uint32_t role, const acc::Op& op) {
    const std::uint32_t src = stages_[role].device, dst = peer_device(role, op.peer);
    if (src == dst || op.bytes == 0) return 0;
    const auto key = std::make_pair(src, dst);
    auto it = paths_.find(key);
    if (it == paths_.end())
      it = paths_.emplace(key, models::network::path_figures(topology_, topology_.devices[src], topology_.devices[dst], 0))
               .first;
    return it->second.latency + models::network::serialization_time(op.bytes, it->second.bottleneck);
  }

  void start_compute(StageRun& stage, acc::OpIndex i, SimTime now) {
    if (now > stage.idle_since) {
      const SimTime gap = now - stage.idle_since;
      // The dependency that finished last (the stream's previous op included) is what the op waited for.
      SimTime latest = 0;
      Wait cause = Wait::none;
      auto consider = [&](acc::OpIndex d) {
        if (stage.end[d] >= latest) {
          latest = stage.end[d];
          cause = stage.waits_for[d];
        }
      };
      const acc::Program& program = stage.index->program();
      const acc::Op& op = program.ops[i];
      for (std::uint32_t k = 0; k < op.dependency_count; ++k) consider(program.dependencies[op.first_dependency + k]);
      const std::uint32_t position = stage.index->position_in_stream(i);
      if (position > 0) consider(stage.index->stream_ops(op.stream)[position - 1]);
      if (latest <= stage.idle_since) cause = Wait::none;
      switch (cause) {
        case Wait::none: stage.figures.idle += gap; break;
        case Wait::collective: stage.figures.exposed_communication += gap; break;
        case Wait::pipeline: stage.figures.pipeline_bubble += gap; break;
      }
    }
    stage.computing = true;
  }

  void try_start(std::uint32_t role, SimTime now) {
    StageRun& stage = stages_[role];
    const acc::Program& program = stage.index->program();
    for (std::size_t s = 0; s < stage.index->streams(); ++s) {
      const auto& ops = stage.index->stream_ops(s);
      if (stage.running[s] || stage.finished[s] >= ops.size()) continue;
      const acc::OpIndex i = ops[stage.finished[s]];
      if (!ready(stage, i)) continue;
      const acc::Op& op = program.ops[i];
      switch (op.kind) {
        case acc::OpKind::compute: {
          if (stage.computing) continue;
          start_compute(stage, i, now);
          const SimTime t = stage.index->compute_time(i);
          stage.figures.compute += t;
          schedule(role, i, now + t);
          break;
        }
        case acc::OpKind::collective: schedule(role, i, now + collective_time(role, op)); break;
        case acc::OpKind::send: {
          const SimTime arrival = now + transfer_time(role, op);
          StageRun& receiver = stages_[peer_role(role, op.peer)];
          const std::uint32_t receiver_role = peer_role(role, op.peer);
          if (auto w = receiver.waiting.find(op.match); w != receiver.waiting.end()) {
            schedule(receiver_role, w->second, arrival);
            receiver.waiting.erase(w);
          } else {
            receiver.arrived.emplace(op.match, arrival);
          }
          schedule(role, i, arrival);
          break;
        }
        case acc::OpKind::recv: {
          if (auto a = stage.arrived.find(op.match); a != stage.arrived.end()) {
            schedule(role, i, std::max(now, a->second));
            stage.arrived.erase(a);
          } else {
            stage.waiting.emplace(op.match, i);
          }
          break;
        }
      }
      stage.running[s] = true;
    }
  }

  void finish(std::uint32_t role, acc::OpIndex i, SimTime now) {
    StageRun& stage = stages_[role];
    const acc::Op& op = stage.index->program().ops[i];
    stage.running[op.stream] = false;
    ++stage.finished[op.stream];
    ++stage.ops_done;
    stage.end[i] = now;
    stage.last_end = std::max(stage.last_end, now);
    if (op.kind == acc::OpKind::compute) {
      stage.computing = false;
      stage.idle_since = now;
    }
    try_start(role, now);
  }

  const wl::TrainingPlan& plan_;
  const models::network::ClusterSpec& cluster_;
  const models::network::Topology& topology_;
  std::vector<acc::ProgramIndex> indexes_;
  std::vector<StageRun> stages_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> queue_;
  std::uint64_t order_ = 0;
  std::map<CollectiveKey, SimTime> collectives_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, models::network::PathFigures> paths_;
};

}  // namespace

IterationEstimate estimate_iteration(const wl::TrainingPlan& plan, const models::network::ClusterSpec& cluster,
                                     const models::network::Topology& topology) {
  return Estimator(plan, cluster, topology).run();
}

}  // namespace rackscale::search
