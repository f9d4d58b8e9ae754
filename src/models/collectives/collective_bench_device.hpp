#pragma once
// A device of an nccl-tests style benchmark run: at time 0 each of the first `devices` devices starts
// one collective over all of them; its behaviour hands deliveries and timer events to its collective
// engine and records when its part started and ended. The devices of one rank share the stats.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/collectives/collective_engine.hpp"
#include "models/network/device_lp.hpp"

namespace rackscale::models::collectives {

// Integer figures, so that ranks combine them exactly (min / max / sum) in any order.
struct BenchStats {
  pdes::SimTime first_start = pdes::kNever;
  pdes::SimTime last_end = 0;
  std::uint64_t completed = 0;  // members that finished
  Algorithm algorithm = Algorithm::automatic;  // what ran (the same on every member)

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    auto ran = static_cast<std::uint8_t>(algorithm);
    ar & first_start & last_end & completed & ran;
    algorithm = static_cast<Algorithm>(ran);
  }
};

class CollectiveBenchDevice final : public network::DeviceBehaviour {
 public:
  // `call` is the call, shared by the rank's devices: each member sets its own rank in it as it starts the
  // call (one device starts at a time, and the engine reads the call only while starting it), so that the
  // member list is not copied per device (98,304 copies of a 384 KiB list were 39 % of a 98,304-device
  // all-reduce, docs/performance.md). Devices outside call.members take no part.
  CollectiveBenchDevice(std::unique_ptr<CollectiveEngine> engine, CollectiveCall& call, BenchStats& stats)
      : engine_(std::move(engine)), call_(call), stats_(stats) {}

  void start(network::DeviceLp& device) override;
  void on_event(network::DeviceLp& device, const pdes::Event& event) override;
  void on_delivery(network::DeviceLp& device, const network::Delivery& delivery) override;
  // Checkpoints: the engine's call in flight (the stats are the rank's, saved with the run's state).
  [[nodiscard]] bool checkpointable() const override { return true; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(network::DeviceLp& device, boost::archive::binary_iarchive& in) override;

 private:
  // This device's rank in the call; false: it takes no part.
  [[nodiscard]] bool take_rank(std::uint32_t device);
  [[nodiscard]] CollectiveEngine::Completion completion();

  std::unique_ptr<CollectiveEngine> engine_;
  CollectiveCall& call_;
  BenchStats& stats_;
};

}  // namespace rackscale::models::collectives
