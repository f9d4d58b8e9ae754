#include "models/workload/training_role.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::workload {

std::uint32_t TrainingRole::peer(accelerator::Peer which, const accelerator::Op& op) const {
  const auto p = plan_.layout.peer(device_, which);
  if (!p)
    throw std::logic_error(fmt::format("device {} ({}): op '{}' of micro-batch {} has no pipeline {} neighbour", device_,
                                       program_.role, op.label, op.micro_batch,
                                       which == accelerator::Peer::next_stage ? "next" : "previous"));
  return *p;
}

}  // namespace rackscale::models::workload
