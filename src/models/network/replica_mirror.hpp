#pragma once
// Devices that act for others: a one-replica run (workload.simulated_replicas: one; docs/models.md,
// "One replica for all") simulates only the devices of one data-parallel replica and lets each of them
// stand for its twins in the other replicas, which run the same program at the same times.
//
// The replicas are translates of each other in device index: device d of replica 0 has the twin
// d + r x stride in replica r (r < replicas), inside the block of stride x replicas devices that holds
// d (one pipeline stage, in training's device order). The network uses the mirror for what the twins
// would have done there: a message's ports are charged again along each twin pair's route, and a
// collective's leader counts a twin as arriving when its simulated device does.
//
// The default mirror is the identity (one replica of every device): every loop over twins is then a loop
// over the device itself, so the full simulation needs no branch.
#include <cstdint>

namespace rackscale::models::network {

class ReplicaMirror {
 public:
  ReplicaMirror() = default;
  ReplicaMirror(std::uint32_t stride, std::uint32_t replicas) : stride_(stride), replicas_(replicas) {}

  // Replicas each simulated device stands for, itself included (1: nothing mirrored).
  [[nodiscard]] std::uint32_t replicas() const noexcept { return replicas_; }
  // Device `device`'s twin in replica r (0: itself), for a simulated device.
  [[nodiscard]] std::uint32_t twin(std::uint32_t device, std::uint32_t r) const noexcept { return device + r * stride_; }
  // The replica `device` belongs to, and the simulated device that acts for it.
  [[nodiscard]] std::uint32_t replica_of(std::uint32_t device) const noexcept {
    return replicas_ == 1 ? 0 : device / stride_ % replicas_;
  }
  [[nodiscard]] std::uint32_t origin(std::uint32_t device) const noexcept {
    return device - replica_of(device) * stride_;
  }
  [[nodiscard]] bool simulated(std::uint32_t device) const noexcept { return replica_of(device) == 0; }

 private:
  std::uint32_t stride_ = 1;
  std::uint32_t replicas_ = 1;
};

}  // namespace rackscale::models::network
