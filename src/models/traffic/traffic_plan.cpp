#include "models/traffic/traffic_plan.hpp"

#include <numeric>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "pdes/rng.hpp"

namespace rackscale::models::traffic {
namespace {
// Random streams of the plan, separate from every LP's own stream (LP ids are below 2^32 - 2).
constexpr pdes::LpId kPermutationStream = 0xFFFF'FFFEu;
constexpr std::uint64_t kUniformSeedSalt = 0x9e3779b97f4a7c15ULL;
}  // namespace

TrafficPlan::TrafficPlan(const TrafficSpec& spec, std::uint32_t devices, std::uint64_t seed)
    : spec_(spec), devices_(devices), seed_(seed) {
  if (devices < 2)
    throw std::invalid_argument(fmt::format("workload.pattern: traffic needs at least 2 devices; the cluster has {}",
                                            devices));
  switch (spec.pattern) {
    case TrafficPattern::permutation: {
      // Sattolo's algorithm: a uniformly random cyclic permutation, so no device sends to itself.
      permutation_.resize(devices);
      std::iota(permutation_.begin(), permutation_.end(), 0u);
      pdes::CounterRng rng(seed, kPermutationStream);
      for (std::uint32_t i = devices - 1; i > 0; --i) std::swap(permutation_[i], permutation_[rng.below(i)]);
      total_messages_ = devices;
      break;
    }
    case TrafficPattern::all_to_all:
      total_messages_ = static_cast<std::uint64_t>(devices) * (devices - 1);
      break;
    case TrafficPattern::incast: {
      if (spec.receiver >= devices)
        throw std::invalid_argument(
            fmt::format("workload.receiver: device {} does not exist; the cluster has {} devices", spec.receiver, devices));
      if (spec.senders >= devices)
        throw std::invalid_argument(fmt::format(
            "workload.senders: {} senders need at least {} devices besides the receiver; the cluster has {}",
            spec.senders, spec.senders, devices - 1));
      total_messages_ = spec.senders == 0 ? devices - 1 : spec.senders;
      break;
    }
    case TrafficPattern::ring:
      total_messages_ = devices;
      break;
    case TrafficPattern::uniform_random:
      total_messages_ = static_cast<std::uint64_t>(devices) * spec.messages;
      break;
  }
}

std::vector<PlannedMessage> TrafficPlan::messages_from(std::uint32_t device) const {
  std::vector<PlannedMessage> out;
  const std::uint64_t bytes = spec_.bytes;
  switch (spec_.pattern) {
    case TrafficPattern::permutation:
      out.push_back({permutation_[device], bytes});
      break;
    case TrafficPattern::all_to_all:
      // Staggered, as collective libraries do: at every step each device has a distinct destination.
      for (std::uint32_t step = 1; step < devices_; ++step) out.push_back({(device + step) % devices_, bytes});
      break;
    case TrafficPattern::incast: {
      // The senders are the devices that follow the receiver, wrapping around.
      const std::uint32_t senders = spec_.senders == 0 ? devices_ - 1 : spec_.senders;
      const std::uint32_t offset = (device + devices_ - spec_.receiver) % devices_;
      if (offset >= 1 && offset <= senders) out.push_back({spec_.receiver, bytes});
      break;
    }
    case TrafficPattern::ring:
      out.push_back({(device + 1) % devices_, bytes});
      break;
    case TrafficPattern::uniform_random: {
      pdes::CounterRng rng(seed_ ^ kUniformSeedSalt, device);
      for (std::uint32_t m = 0; m < spec_.messages; ++m) {
        // Uniform over the other devices.
        const auto pick = static_cast<std::uint32_t>(rng.below(devices_ - 1));
        out.push_back({pick >= device ? pick + 1 : pick, bytes});
      }
      break;
    }
  }
  return out;
}

}  // namespace rackscale::models::traffic
