#include "models/traffic/traffic_device.hpp"

#include <algorithm>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

namespace rackscale::models::traffic {

void TrafficDevice::start(network::DeviceLp& device) {
  std::uint64_t sequence = 0;
  for (const PlannedMessage& m : plan_.messages_from(device.device())) {
    // Each message is its own flow (the device's own label: its message count, also the tag), so ECMP
    // spreads a device's messages over paths.
    device.send_own_message(m.dst, m.bytes, static_cast<std::uint32_t>(sequence), sequence);
    ++sequence;
    ++stats_.messages_sent;
    stats_.bytes_sent += m.bytes;
    ++counts_.messages_sent;
    counts_.bytes_sent += m.bytes;
  }
}

void TrafficDevice::on_delivery(network::DeviceLp& device, const network::Delivery& delivery) {
  stats_.completion.add(device.time());
  stats_.bytes_delivered += delivery.bytes;
  stats_.last_delivery = std::max(stats_.last_delivery, device.time());
  ++counts_.messages_received;
  counts_.bytes_received += delivery.bytes;
}

// The plan is the run's; what changes is what was sent (all at init) and received so far.
void TrafficDevice::save(boost::archive::binary_oarchive& out) const {
  out & counts_.messages_sent & counts_.bytes_sent & counts_.messages_received & counts_.bytes_received;
}

void TrafficDevice::load(network::DeviceLp& /*device*/, boost::archive::binary_iarchive& in) {
  in & counts_.messages_sent & counts_.bytes_sent & counts_.messages_received & counts_.bytes_received;
}

}  // namespace rackscale::models::traffic
