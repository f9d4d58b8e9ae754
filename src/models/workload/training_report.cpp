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

const char* collective_name(accelerator::CollectiveKind kind) {
  switch (kind) {
    case accelerator::CollectiveKind::all_reduce: return "all_reduce";
    case accelerator::CollectiveKind::reduce_scatter: return "reduce_scatter";
    case accelerator::CollectiveKind::all_gather: return "all_gather";
    case accelerator::CollectiveKind::broadcast: return "broadcast";
    case accelerator::CollectiveKind::all_to_all: return "all_to_all";
  }
  return "?";
}

}  // namespace rackscale::models::workload
