#pragma once
// A device running a traffic workload: posts its planned messages at time 0 and records, for every
// message it receives, the flow completion time (arrival of the last byte; all messages start at 0).
#include <cstdint>

#include "models/network/device_lp.hpp"
#include "models/statistics/log_histogram.hpp"
#include "models/traffic/traffic_plan.hpp"

namespace rackscale::models::traffic {

// Shared by the traffic devices of one rank; integer counts, so ranks' figures add up exactly.
struct TrafficStats {
  statistics::LogHistogram completion;  // flow completion times of delivered messages, ps
  std::uint64_t messages_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_delivered = 0;
  pdes::SimTime last_delivery = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & completion & messages_sent & bytes_sent & bytes_delivered & last_delivery;
  }
};

class TrafficDevice final : public network::DeviceBehaviour {
 public:
  TrafficDevice(const TrafficPlan& plan, TrafficStats& stats) : plan_(plan), stats_(stats) {}
  void start(network::DeviceLp& device) override;
  void on_delivery(network::DeviceLp& device, const network::Delivery& delivery) override;
  [[nodiscard]] bool checkpointable() const override { return true; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(network::DeviceLp& device, boost::archive::binary_iarchive& in) override;

  // This device's own figures: the per-device rows of the results file.
  struct Counts {
    std::uint64_t messages_sent = 0, bytes_sent = 0, messages_received = 0, bytes_received = 0;
  };
  [[nodiscard]] const Counts& counts() const noexcept { return counts_; }

 private:
  const TrafficPlan& plan_;
  TrafficStats& stats_;
  Counts counts_;
};

}  // namespace rackscale::models::traffic
