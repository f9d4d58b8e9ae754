#include "models/workload/training_report.hpp"

namespace rackscale::models::workload {

const char* group_name(accelerator::GroupKind group) {
  switch (group) {
    case accelerator::GroupKind::tensor: return "tensor";
    case accelerator::GroupKind::data: return "data";
    case accelerator::GroupKind::context: return "context";
    case accelerator::GroupKind::expert: return "expert";
    case accelerator::GroupKind::expert_data: return "expert_data";
    case accelerator::GroupKind::pipeline: return "pipeline";
    case accelerator::GroupKind::world: return "world";
  }
  return "?";
}

const char* peer_name(accelerator::Peer peer) {
  switch (peer) {
    case accelerator::Peer::next_stage: return "next stage";
    case accelerator::Peer::previous_stage: return "previous stage";
    case accelerator::Peer::next_context: return "next context-ring";
    case accelerator::Peer::previous_context: return "previous context-ring";
  }
  return "?";
}

const char* collective_name(accelerator::CollectiveKind kind) {
  switch (kind) {
    case accelerator::CollectiveKind::all_reduce: return "all_reduce";
    case accelerator::CollectiveKind::reduce_scatter: return "reduce_scatter";
    case accelerator::CollectiveKind::all_gather: return "all_gather";
    case accelerator::CollectiveKind::broadcast: return "broadcast";
    case accelerator::CollectiveKind::all_to_all: return "all_to_all";
    case accelerator::CollectiveKind::reduce: return "reduce";
    case accelerator::CollectiveKind::gather: return "gather";
    case accelerator::CollectiveKind::scatter: return "scatter";
    case accelerator::CollectiveKind::sendrecv: return "sendrecv";
  }
  return "?";
}

}  // namespace rackscale::models::workload
