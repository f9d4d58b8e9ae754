#pragma once
// A device's place in a training job, as the executor sees it: the program of its pipeline stage and
// its groups and pipeline neighbours from the layout.
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "models/accelerator/device_role.hpp"
#include "models/workload/training_plan.hpp"

namespace rackscale::models::workload {

class TrainingRole final : public accelerator::DeviceRole {
 public:
  TrainingRole(const TrainingPlan& plan, std::uint32_t device)
      : plan_(plan), device_(device), program_(plan.programs[plan.layout.role_of(device)]) {}

  [[nodiscard]] const accelerator::Program& program() const override { return program_; }
  // Each kind's group is worked out once per device: a device calls the same groups thousands of times.
  void group(accelerator::GroupKind kind, std::vector<std::uint32_t>& members, std::uint32_t& rank) const override {
    auto& cached = groups_[static_cast<std::size_t>(kind)];
    if (!cached) cached.emplace(plan_.layout.group(device_, kind), plan_.layout.rank_in_group(device_, kind));
    members = cached->first;
    rank = cached->second;
  }
  [[nodiscard]] std::uint32_t peer(accelerator::Peer which, const accelerator::Op& op) const override;

 private:
  const TrainingPlan& plan_;
  std::uint32_t device_;
  const accelerator::Program& program_;
  mutable std::array<std::optional<std::pair<std::vector<std::uint32_t>, std::uint32_t>>, 7> groups_;
};

}  // namespace rackscale::models::workload
