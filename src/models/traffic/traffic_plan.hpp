#pragma once
// Who sends what to whom in a traffic workload. A pure function of (spec, device count, seed): every
// rank computes the same plan, and each device asks only for its own messages.
#include <cstdint>
#include <vector>

#include "models/scenario.hpp"

namespace rackscale::models::traffic {

struct PlannedMessage {
  std::uint32_t dst = 0;
  std::uint64_t bytes = 0;
};

class TrafficPlan {
 public:
  // Throws std::invalid_argument (message starting with the config key) if the pattern cannot run on
  // `devices` devices.
  TrafficPlan(const TrafficSpec& spec, std::uint32_t devices, std::uint64_t seed);

  // The messages `device` sends, in the order it posts them (all at time 0).
  [[nodiscard]] std::vector<PlannedMessage> messages_from(std::uint32_t device) const;
  [[nodiscard]] std::uint64_t total_messages() const noexcept { return total_messages_; }
  [[nodiscard]] std::uint64_t total_bytes() const noexcept { return total_messages_ * spec_.bytes; }

 private:
  TrafficSpec spec_;
  std::uint32_t devices_;
  std::uint64_t seed_;
  std::vector<std::uint32_t> permutation_;  // permutation pattern: device i sends to permutation_[i]
  std::uint64_t total_messages_ = 0;
};

}  // namespace rackscale::models::traffic
