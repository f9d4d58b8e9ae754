#pragma once
// A device's place in a training job, as the executor sees it: the program of its pipeline stage and
// its groups and pipeline neighbours from the layout.
#include <array>
#include <memory>
#include <vector>

#include "models/accelerator/device_role.hpp"
#include "models/workload/group_directory.hpp"
#include "models/workload/training_plan.hpp"

namespace rackscale::models::workload {

class TrainingRole final : public accelerator::DeviceRole {
 public:
  // `groups` is shared by the rank's roles and outlives them.
  TrainingRole(const TrainingPlan& plan, GroupDirectory& groups, std::uint32_t device)
      : plan_(plan), directory_(groups), device_(device), program_(plan.programs[plan.layout.role_of(device)]) {}

  [[nodiscard]] const accelerator::Program& program() const override { return program_; }
  // Each kind's group is looked up once per device: a device calls the same groups thousands of times.
  void group(accelerator::GroupKind kind, std::vector<std::uint32_t>& members, std::uint32_t& rank) const override {
    Group& cached = groups_[static_cast<std::size_t>(kind)];
    if (!cached.members) {
      cached.members = directory_.group(device_, kind);
      cached.rank = plan_.layout.rank_in_group(device_, kind);
    }
    members.assign(cached.members->begin(), cached.members->end());
    rank = cached.rank;
  }
  [[nodiscard]] std::uint32_t peer(accelerator::Peer which, const accelerator::Op& op) const override;

 private:
  struct Group {
    std::shared_ptr<const std::vector<std::uint32_t>> members;  // null: not looked up yet
    std::uint32_t rank = 0;
  };
  const TrainingPlan& plan_;
  GroupDirectory& directory_;
  std::uint32_t device_;
  const accelerator::Program& program_;
  mutable std::array<Group, accelerator::kGroupKinds> groups_;
};

}  // namespace rackscale::models::workload
