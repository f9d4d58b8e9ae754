#pragma once
// The member lists of a job's groups, one copy per rank, shared by the rank's devices: every member of
// a group asks for the same list, and a data-parallel group of 768 devices is 3 KiB, which held once per
// device cost 145 MiB per rank at 98,304 devices (a world group would be 384 KiB per device). The groups
// of one kind partition the devices, so a group is known by its kind and its first member; the first
// device to ask builds the list and later ones check that theirs is the same.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/workload/training_layout.hpp"

namespace rackscale::models::workload {

class GroupDirectory {
 public:
  explicit GroupDirectory(const TrainingLayout& layout) : layout_(layout) {}
  // `device`'s group of `kind`, in rank order.
  [[nodiscard]] std::shared_ptr<const std::vector<std::uint32_t>> group(std::uint32_t device,
                                                                         accelerator::GroupKind kind);

 private:
  const TrainingLayout& layout_;
  std::unordered_map<std::uint64_t, std::shared_ptr<const std::vector<std::uint32_t>>> groups_;
};

}  // namespace rackscale::models::workload
