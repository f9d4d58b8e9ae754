#pragma once
// What the executor needs to know about one device's place in the job: the program it runs and who
// its communication partners are. The workload layer implements it (models/workload).
#include <cstdint>
#include <vector>

#include "models/vocabulary/program.hpp"

namespace rackscale::models::accelerator {

class DeviceRole {
 public:
  virtual ~DeviceRole() = default;
  DeviceRole() = default;
  DeviceRole(const DeviceRole&) = delete;
  DeviceRole& operator=(const DeviceRole&) = delete;

  [[nodiscard]] virtual const Program& program() const = 0;
  // The devices of this device's `group` in rank order, and this device's rank among them; the same at
  // every call for a kind. Computed on demand: a 100k-device job cannot keep every device's
  // data-parallel group in memory.
  virtual void group(GroupKind group, std::vector<std::uint32_t>& members, std::uint32_t& rank) const = 0;
  // The device of the pipeline neighbour (for the op's virtual stage, with interleaving).
  [[nodiscard]] virtual std::uint32_t peer(Peer peer, const Op& op) const = 0;
};

}  // namespace rackscale::models::accelerator
