#pragma once
// A device that does nothing: one no trace maps to, or one whose twin acts for it in a one-replica run
// (replica_mirror.hpp). With nothing to save, it can be checkpointed.
#include "models/network/device_lp.hpp"

namespace rackscale::models::network {

class IdleDevice final : public DeviceBehaviour {
 public:
  [[nodiscard]] bool checkpointable() const override { return true; }
};

}  // namespace rackscale::models::network
