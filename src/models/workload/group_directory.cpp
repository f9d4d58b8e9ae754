#include "models/workload/group_directory.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::workload {

std::shared_ptr<const std::vector<std::uint32_t>> GroupDirectory::group(std::uint32_t device,
                                                                        accelerator::GroupKind kind) {
  std::vector<std::uint32_t> members = layout_.group(device, kind);
  if (members.empty())
    throw std::logic_error(fmt::format("device {}: its group of kind {} is empty", device, static_cast<int>(kind)));
  const std::uint64_t key = (static_cast<std::uint64_t>(kind) << 32) | members.front();
  auto& known = groups_[key];
  if (!known) {
    known = std::make_shared<const std::vector<std::uint32_t>>(std::move(members));
  } else if (*known != members) {
    throw std::logic_error(fmt::format("device {}: two groups of kind {} start with device {} but differ",
                                       device, static_cast<int>(kind), members.front()));
  }
  return known;
}

}  // namespace rackscale::models::workload
