#include "models/workload/training_role.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/workload/training_report.hpp"

namespace rackscale::models::workload {

std::uint32_t TrainingRole::peer(accelerator::Peer which, const accelerator::Op& op) const {
  const auto p = plan_.layout.peer(device_, which);
  if (!p)
    throw std::logic_error(fmt::format("device {} ({}): op '{}' of micro-batch {} has no {} neighbour", device_,
                                       program_.role, op.label, op.micro_batch, peer_name(which)));
  return *p;
}

}  // namespace rackscale::models::workload
